// Le Yams impossible — the vocabulary: ten d10 (5 red, 5 white, optionally frosted or
// transparent), the 34 boxes of the sheet and their sections (RULINGS.md §2).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace arbitre::referee::yams {

inline constexpr int kDiceCount = 10;
inline constexpr int kDicePerColour = 5;
inline constexpr int kFaces = 10;

enum class DieColour : std::uint8_t { Red, White };
enum class Texture : std::uint8_t { None, Frosted, Transparent };

struct Die {
  std::uint8_t value = 1;  // 1..10 (a printed 0 is 10)
  DieColour colour = DieColour::Red;
  Texture texture = Texture::None;
  constexpr bool operator==(const Die&) const = default;
};

using Dice = std::array<Die, kDiceCount>;

// "7r", "10w", "3rg" (frosted, givré), "1wt" (transparent).
std::string to_text(const Die& die);
std::string to_text(const Dice& dice);  // space-separated
// Parses one die; nullopt with `error` set to the problem ("value 11 is not a face of a d10").
std::optional<Die> die_from_text(std::string_view text, std::string* error = nullptr);
// A set of ten dice as the table holds them: 5 red and 5 white, textures on all or none.
// Returns the problem in words, or nullopt.
std::optional<std::string> validate(const Dice& dice);
bool has_textures(const Dice& dice);

enum class Section : std::uint8_t { Chiffres, Yams, Suites, Combinaisons, Difference };

// The 34 boxes, in sheet order. Their ids are stable (stored and printed).
enum class Box : std::uint8_t {
  Chiffre1, Chiffre2, Chiffre3, Chiffre4, Chiffre5, Chiffre6, Chiffre7, Chiffre8, Chiffre9, Chiffre10,
  Brelan, Carre, YoupiYams, YamsDeRene, YamsSuperieur, GigaYams, UltraYams, YamsImpossible,
  SuiteRidicule, PetiteSuite, SuiteDeMarcel, SuiteRoyale, SuiteGeante, TheSuite,
  DoubleBrelan, TripleBrelan, DoubleCarre, DoubleYams, FullTordu, GrandFull, FullSupreme,
  ToutEnPaires,
  Plus, Moins,
};
inline constexpr int kBoxCount = 34;

constexpr int index(Box box) { return static_cast<int>(box); }
constexpr Box box_at(int i) { return static_cast<Box>(i); }

std::string_view id(Box box);  // "chiffre-7", "youpi-yams", ...
std::optional<Box> box_from_id(std::string_view id);
std::string_view display_name(Box box);  // "Youpi Yams", "Suite de Marcel", ...

Section section(Box box);
// The fixed value of a Yams, Suites or Combinaisons box (brelan 5 ... the-suite 400); 0 for the
// chiffres and the différence, whose score depends on the dice.
int base_value(Box box);
// The number of dice of one value a Yams box names (brelan 3 ... yams-impossible 10), the
// length of a Suites box (5..10); 0 otherwise.
int size(Box box);
// The face a chiffres box counts (1..10); 0 otherwise.
int face(Box box);
// Boxes a sixth roll may be declared for: the Yams, Suites and Combinaisons sections.
bool declarable(Box box);

}  // namespace arbitre::referee::yams
