#include "referee/yams/dice.h"

#include <charconv>

namespace arbitre::referee::yams {
namespace {

// Joins the parts of a message (plain appends: GCC 12 warns falsely on literal + string).
std::string join(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (const std::string_view part : parts) out.append(part);
  return out;
}

struct BoxInfo {
  std::string_view id;
  std::string_view name;
  Section section;
  int base;  // fixed value, 0 when it depends on the dice
  int size;  // dice of one value / suite length / chiffres face
};

constexpr std::array<BoxInfo, kBoxCount> kBoxes = {{
    {"chiffre-1", "Chiffre 1", Section::Chiffres, 0, 1},
    {"chiffre-2", "Chiffre 2", Section::Chiffres, 0, 2},
    {"chiffre-3", "Chiffre 3", Section::Chiffres, 0, 3},
    {"chiffre-4", "Chiffre 4", Section::Chiffres, 0, 4},
    {"chiffre-5", "Chiffre 5", Section::Chiffres, 0, 5},
    {"chiffre-6", "Chiffre 6", Section::Chiffres, 0, 6},
    {"chiffre-7", "Chiffre 7", Section::Chiffres, 0, 7},
    {"chiffre-8", "Chiffre 8", Section::Chiffres, 0, 8},
    {"chiffre-9", "Chiffre 9", Section::Chiffres, 0, 9},
    {"chiffre-10", "Chiffre 10", Section::Chiffres, 0, 10},
    {"brelan", "Brelan", Section::Yams, 5, 3},
    {"carre", "Carré", Section::Yams, 10, 4},
    {"youpi-yams", "Youpi Yams", Section::Yams, 25, 5},
    {"yams-de-rene", "Yams de René", Section::Yams, 50, 6},
    {"yams-superieur", "Yams Supérieur", Section::Yams, 100, 7},
    {"giga-yams", "Giga Yams", Section::Yams, 250, 8},
    {"ultra-yams", "Ultra Yams", Section::Yams, 400, 9},
    {"yams-impossible", "Yams impossible", Section::Yams, 800, 10},
    {"suite-ridicule", "Suite Ridicule", Section::Suites, 10, 5},
    {"petite-suite", "Petite Suite", Section::Suites, 25, 6},
    {"suite-de-marcel", "Suite de Marcel", Section::Suites, 50, 7},
    {"suite-royale", "Suite Royale", Section::Suites, 100, 8},
    {"suite-geante", "Suite Géante", Section::Suites, 200, 9},
    {"the-suite", "The Suite", Section::Suites, 400, 10},
    {"double-brelan", "Double Brelan", Section::Combinaisons, 20, 0},
    {"triple-brelan", "Triple Brelan", Section::Combinaisons, 100, 0},
    {"double-carre", "Double Carré", Section::Combinaisons, 100, 0},
    {"double-yams", "Double Yams", Section::Combinaisons, 400, 0},
    {"full-tordu", "Full Tordu", Section::Combinaisons, 200, 0},
    {"grand-full", "Grand Full", Section::Combinaisons, 250, 0},
    {"full-supreme", "Full Suprême", Section::Combinaisons, 350, 0},
    {"tout-en-paires", "Tout en Paires", Section::Combinaisons, 250, 0},
    {"plus", "Plus", Section::Difference, 0, 0},
    {"moins", "Moins", Section::Difference, 0, 0},
}};

}  // namespace

std::string to_text(const Die& die) {
  std::string text = std::to_string(die.value);
  text += die.colour == DieColour::Red ? 'r' : 'w';
  if (die.texture == Texture::Frosted) text += 'g';
  if (die.texture == Texture::Transparent) text += 't';
  return text;
}

std::string to_text(const Dice& dice) {
  std::string text;
  for (const Die& die : dice) {
    if (!text.empty()) text += ' ';
    text += to_text(die);
  }
  return text;
}

std::optional<Die> die_from_text(std::string_view text, std::string* error) {
  const auto fail = [&](std::string message) -> std::optional<Die> {
    if (error) *error = std::move(message);
    return std::nullopt;
  };
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0) {
    return fail(join({"\"", text, "\" does not start with a value (like 7r or 10wg)"}));
  }
  int value = 0;
  std::from_chars(text.data(), text.data() + digits, value);
  if (digits > 2 || value > 10) {
    return fail(join({"value ", text.substr(0, digits), " is not a face of a d10 (1..10)"}));
  }
  if (value == 0) value = 10;  // a printed 0 is the 10
  Die die;
  die.value = static_cast<std::uint8_t>(value);
  const std::string_view rest = text.substr(digits);
  if (rest.empty()) return fail(join({"\"", text, "\" has no colour (r or w)"}));
  if (rest[0] == 'r' || rest[0] == 'R') {
    die.colour = DieColour::Red;
  } else if (rest[0] == 'w' || rest[0] == 'W') {
    die.colour = DieColour::White;
  } else {
    return fail(join({"unknown colour '", rest.substr(0, 1), "' in \"", text,
                      "\" (r for red, w for white)"}));
  }
  if (rest.size() >= 2) {
    if (rest.size() > 2) return fail(join({"\"", text, "\" has extra characters"}));
    if (rest[1] == 'g' || rest[1] == 'G') {
      die.texture = Texture::Frosted;
    } else if (rest[1] == 't' || rest[1] == 'T') {
      die.texture = Texture::Transparent;
    } else {
      return fail(join({"unknown texture '", rest.substr(1, 1), "' in \"", text,
                        "\" (g for frosted, t for transparent)"}));
    }
  }
  return die;
}

bool has_textures(const Dice& dice) { return dice[0].texture != Texture::None; }

std::optional<std::string> validate(const Dice& dice) {
  int red = 0;
  int textured = 0;
  for (const Die& die : dice) {
    if (die.value < 1 || die.value > kFaces) {
      return "value " + std::to_string(die.value) + " is not a face of a d10 (1..10)";
    }
    if (die.colour == DieColour::Red) ++red;
    if (die.texture != Texture::None) ++textured;
  }
  if (red != kDicePerColour) {
    return "the ten dice are 5 red and 5 white, not " + std::to_string(red) + " red and " +
           std::to_string(kDiceCount - red) + " white";
  }
  if (textured != 0 && textured != kDiceCount) {
    return "textures are given for all ten dice or for none, not for " + std::to_string(textured);
  }
  return std::nullopt;
}

std::string_view id(Box box) { return kBoxes[index(box)].id; }

std::optional<Box> box_from_id(std::string_view text) {
  for (int i = 0; i < kBoxCount; ++i) {
    if (kBoxes[i].id == text) return box_at(i);
  }
  return std::nullopt;
}

std::string_view display_name(Box box) { return kBoxes[index(box)].name; }
Section section(Box box) { return kBoxes[index(box)].section; }
int base_value(Box box) { return kBoxes[index(box)].base; }

int size(Box box) {
  const Section s = section(box);
  return s == Section::Yams || s == Section::Suites ? kBoxes[index(box)].size : 0;
}

int face(Box box) { return section(box) == Section::Chiffres ? kBoxes[index(box)].size : 0; }

bool declarable(Box box) {
  const Section s = section(box);
  return s == Section::Yams || s == Section::Suites || s == Section::Combinaisons;
}

}  // namespace arbitre::referee::yams
