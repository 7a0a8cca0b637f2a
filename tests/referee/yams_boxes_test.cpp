// The Yams box scorer on hand-worked rolls (RULINGS.md §2 rules 2-3, the seed's own examples),
// and a property test against a brute-force search over every choice of dice.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>

#include "referee/yams/boxes.h"
#include "tests/support/yams_dice.h"

namespace ry = arbitre::referee::yams;
using ry::Box;

namespace {

ry::Dice roll(const std::string& text) { return arbitre::testing::yams::dice(text); }

int score(const std::string& text, Box box, bool first_roll = false) {
  return ry::score_box(roll(text), box, first_roll);
}

}  // namespace

// --- The seed text's own examples ---------------------------------------------------------

TEST(YamsSeedExamples, BrelanOfThreeRedIsTen) {
  EXPECT_EQ(score("7r 7r 7r 1r 2r 7w 3w 4w 5w 9w", Box::Brelan), 10);
}

TEST(YamsSeedExamples, HarmoniousDoubleCarreIsTwoHundred) {
  EXPECT_EQ(score("4r 4r 4r 4r 9r 6w 6w 6w 6w 1w", Box::DoubleCarre), 200);
}

TEST(YamsSeedExamples, YoupiYamsFrostedAndRedIsOneHundred) {
  EXPECT_EQ(score("8rg 8rg 8rg 8rg 8rg 1wt 2wt 3wt 4wt 5wg", Box::YoupiYams), 100);
}

TEST(YamsSeedExamples, FiveRedTensAreOneHundredInBoxTen) {
  EXPECT_EQ(score("10r 10r 10r 10r 10r 1w 2w 3w 4w 5w", Box::Chiffre10), 100);
}

TEST(YamsSeedExamples, FiveTwosAreTenAndEightSevensFiftySix) {
  EXPECT_EQ(score("2r 2r 2r 2w 2w 1r 1w 3w 4w 5r", Box::Chiffre2), 10);
  EXPECT_EQ(score("7r 7r 7r 7r 7w 7w 7w 7w 1w 5r", Box::Chiffre7), 56);
}

TEST(YamsSeedExamples, TexturedBrelanAndDoubleCarre) {
  // A brelan of three frosted dice: 10; a double carré of 4 frosted and 4 transparent: 200.
  EXPECT_EQ(score("5rg 5wg 5rg 1rt 2rt 3wt 4wt 6wg 7rg 8wt", Box::Brelan), 10);
  EXPECT_EQ(score("3rg 3wg 3rg 3wg 9rt 9wt 9rt 9wt 1rg 2wt", Box::DoubleCarre), 200);
}

// --- Rule 2: every section ------------------------------------------------------------------

TEST(YamsRule2, ChiffresCountFaceTimesDice) {
  const ry::Dice dice = roll("1r 1w 3r 3w 3r 6w 9r 9w 9r 10w");
  const ry::BoxScores s = ry::score_all(dice, false);
  EXPECT_EQ(s[ry::index(Box::Chiffre1)], 2);
  EXPECT_EQ(s[ry::index(Box::Chiffre3)], 9);
  EXPECT_EQ(s[ry::index(Box::Chiffre6)], 6);
  EXPECT_EQ(s[ry::index(Box::Chiffre9)], 27);
  EXPECT_EQ(s[ry::index(Box::Chiffre10)], 10);
  EXPECT_EQ(s[ry::index(Box::Chiffre2)], 0);
  // The first roll never triples the chiffres.
  EXPECT_EQ(ry::score_all(dice, true)[ry::index(Box::Chiffre9)], 27);
}

TEST(YamsRule2, YamsNeedAtLeastTheirDiceAndScoreTheirFixedValue) {
  // Seven 5s (4 red, 3 white): carré qualifies with 7; fixed values, not sums.
  const ry::Dice dice = roll("5r 5r 5r 5r 5w 5w 5w 1r 2w 3w");
  const ry::BoxScores s = ry::score_all(dice, false);
  EXPECT_EQ(s[ry::index(Box::Brelan)], 10);         // three red 5s: harmony
  EXPECT_EQ(s[ry::index(Box::Carre)], 20);          // four red 5s: harmony
  EXPECT_EQ(s[ry::index(Box::YoupiYams)], 25);      // five 5s: only four are red
  EXPECT_EQ(s[ry::index(Box::YamsDeRene)], 50);
  EXPECT_EQ(s[ry::index(Box::YamsSuperieur)], 100);
  EXPECT_EQ(s[ry::index(Box::GigaYams)], 0);
  // The carré's dice are the four red 5s.
  const ry::Choice carre = ry::best_choice(dice, Box::Carre, false);
  EXPECT_THAT(carre.dice, ::testing::ElementsAre(0, 1, 2, 3));
  EXPECT_TRUE(carre.colour_harmony);
}

TEST(YamsRule2, SuitesAreDistinctConsecutiveValues) {
  const ry::Dice dice = roll("2r 3w 4r 5w 6r 6w 6w 9r 9r 1w");
  const ry::BoxScores s = ry::score_all(dice, false);
  EXPECT_EQ(s[ry::index(Box::SuiteRidicule)], 10);
  EXPECT_EQ(s[ry::index(Box::PetiteSuite)], 25);  // 1..6
  EXPECT_EQ(s[ry::index(Box::SuiteDeMarcel)], 0);
}

TEST(YamsRule2, TheSuiteAndItsHarmoniousFives) {
  const ry::Dice dice = roll("1r 2r 3r 4r 5r 6w 7w 8w 9w 10w");
  const ry::BoxScores s = ry::score_all(dice, false);
  EXPECT_EQ(s[ry::index(Box::TheSuite)], 400);
  EXPECT_EQ(s[ry::index(Box::SuiteGeante)], 200);
  EXPECT_EQ(s[ry::index(Box::SuiteRoyale)], 100);
  EXPECT_EQ(s[ry::index(Box::PetiteSuite)], 25);
  EXPECT_EQ(s[ry::index(Box::SuiteRidicule)], 20);  // 1..5 all red (or 6..10 all white)
  EXPECT_EQ(ry::score_all(dice, true)[ry::index(Box::TheSuite)], 1200);
}

TEST(YamsRule2, CombinaisonsUseDisjointGroupsThatMayShareAValue) {
  // Six 4s are two brelans; 4 + 4 + 2 leftover.
  const ry::Dice dice = roll("4r 4r 4r 4w 4w 4w 7r 7w 1r 2w");
  const ry::BoxScores s = ry::score_all(dice, false);
  EXPECT_EQ(s[ry::index(Box::DoubleBrelan)], 40);  // 3 red 4s and 3 white 4s: harmony
  EXPECT_EQ(s[ry::index(Box::TripleBrelan)], 0);
  EXPECT_EQ(s[ry::index(Box::DoubleCarre)], 0);
  EXPECT_EQ(s[ry::index(Box::ToutEnPaires)], 0);    // 4s give three pairs, 7s one: four
}

TEST(YamsRule2, GrandFullThatIsAlsoToutEnPaires) {
  // Six 3s (3 red, 3 white) and four 8s (2 red, 2 white).
  const ry::Dice dice = roll("3r 3r 3r 3w 3w 3w 8r 8r 8w 8w");
  const ry::BoxScores s = ry::score_all(dice, false);
  EXPECT_EQ(s[ry::index(Box::GrandFull)], 250);     // a group of six is never harmonious
  EXPECT_EQ(s[ry::index(Box::ToutEnPaires)], 250);  // the fifth pair mixes a red and a white 3
  EXPECT_EQ(s[ry::index(Box::FullTordu)], 200);     // 3+3 from the 3s, 4 from the 8s
  EXPECT_EQ(s[ry::index(Box::TripleBrelan)], 100);
  EXPECT_EQ(s[ry::index(Box::DoubleCarre)], 100);
  EXPECT_EQ(s[ry::index(Box::DoubleBrelan)], 40);   // 3 red 3s + 3 white 3s
  EXPECT_EQ(s[ry::index(Box::DoubleYams)], 0);
  EXPECT_EQ(s[ry::index(Box::FullSupreme)], 0);
  EXPECT_EQ(s[ry::index(Box::YamsDeRene)], 50);
  EXPECT_EQ(s[ry::index(Box::Carre)], 10);
  EXPECT_EQ(s[ry::index(Box::Brelan)], 10);
  EXPECT_EQ(s[ry::index(Box::Chiffre3)], 18);
  EXPECT_EQ(s[ry::index(Box::Chiffre8)], 32);
  EXPECT_EQ(s[ry::index(Box::Plus)], 50);
  EXPECT_EQ(s[ry::index(Box::Moins)], 50);
  const ry::Choice grand_full = ry::best_choice(dice, Box::GrandFull, false);
  EXPECT_THAT(grand_full.groups, ::testing::ElementsAre(6, 4));
  EXPECT_EQ(grand_full.dice.size(), 10u);
}

TEST(YamsRule2, ToutEnPairesHarmonious) {
  const ry::Dice dice = roll("2r 2r 5r 5r 9r 1w 1w 6w 6w 9w");
  const ry::Choice choice = ry::best_choice(dice, Box::ToutEnPaires, false);
  EXPECT_EQ(choice.score, 250);  // the 9s are a red and a white: one mixed pair
  EXPECT_EQ(ry::score_box(roll("2r 2r 5r 5r 9r 1w 1w 6w 6w 6w"), Box::ToutEnPaires, false), 0);
  EXPECT_EQ(ry::score_box(roll("2r 2r 5r 5r 9r 1w 1w 6w 6w 9w"), Box::ToutEnPaires, true), 750);
  // With five dice of each colour, at most four pairs are of one colour: never x2 for colour.
  EXPECT_EQ(score("2r 2r 7r 7r 1r 4w 4w 4w 4w 1w", Box::ToutEnPaires), 250);  // 1r+1w mixed
  // Texture harmony is possible: every pair frosted or transparent, x2.
  EXPECT_EQ(score("2rg 2rg 7rt 7rt 3rg 4wt 4wt 4wg 4wg 3wg", Box::ToutEnPaires), 500);
}

TEST(YamsRule2, DifferenceBoxesScoreTheSumOfAllDice) {
  const ry::Dice dice = roll("1r 2r 3r 4r 5r 6w 7w 8w 9w 10w");
  EXPECT_EQ(ry::score_box(dice, Box::Plus, false), 55);
  EXPECT_EQ(ry::score_box(dice, Box::Moins, true), 55);  // never tripled
}

// --- Rule 3: multipliers and their products ------------------------------------------------

TEST(YamsRule3, TenEqualDiceAreTheYamsImpossibleAndAHarmoniousDoubleYams) {
  const ry::Dice dice = roll("6r 6r 6r 6r 6r 6w 6w 6w 6w 6w");
  const ry::BoxScores s = ry::score_all(dice, false);
  EXPECT_EQ(s[ry::index(Box::YamsImpossible)], 800);
  EXPECT_EQ(s[ry::index(Box::DoubleYams)], 800);    // 400 x 2: five red and five white
  EXPECT_EQ(s[ry::index(Box::UltraYams)], 400);
  EXPECT_EQ(s[ry::index(Box::GigaYams)], 250);
  EXPECT_EQ(s[ry::index(Box::YoupiYams)], 50);      // five red
  EXPECT_EQ(s[ry::index(Box::DoubleCarre)], 200);
  EXPECT_EQ(s[ry::index(Box::TripleBrelan)], 100);  // three groups cannot all be one colour
  EXPECT_EQ(s[ry::index(Box::FullTordu)], 200);
  EXPECT_EQ(s[ry::index(Box::GrandFull)], 250);
  EXPECT_EQ(s[ry::index(Box::FullSupreme)], 350);
  EXPECT_EQ(s[ry::index(Box::ToutEnPaires)], 250);  // only four pairs can be of one colour
  EXPECT_EQ(s[ry::index(Box::Chiffre6)], 60);       // ten 6s = five red 6s in harmony = 60
  EXPECT_EQ(s[ry::index(Box::SuiteRidicule)], 0);
  const ry::BoxScores first = ry::score_all(dice, true);
  EXPECT_EQ(first[ry::index(Box::YamsImpossible)], 2400);
  EXPECT_EQ(first[ry::index(Box::DoubleYams)], 2400);
}

TEST(YamsRule3, ChiffresHarmonyPicksFiveOfAColourWhenHigher) {
  // Six 10s, five of them red: 100, the best choice (six x 10 = 60).
  const ry::Dice dice = roll("10r 10r 10r 10r 10r 10w 1w 2w 3w 4w");
  const ry::Choice choice = ry::best_choice(dice, Box::Chiffre10, false);
  EXPECT_EQ(choice.score, 100);
  EXPECT_EQ(choice.dice.size(), 5u);
  EXPECT_TRUE(choice.colour_harmony);
  // Six 2s, five of them red: 2 x 5 x 2 = 20 beats 12.
  EXPECT_EQ(score("2r 2r 2r 2r 2r 2w 1w 3w 4w 5w", Box::Chiffre2), 20);
  // Six 10s, four red and two white: no five of a colour, 60.
  EXPECT_EQ(score("10r 10r 10r 10r 1r 10w 10w 2w 3w 4w", Box::Chiffre10), 60);
  // Colour and texture: five red frosted 4s, x4 = 80.
  EXPECT_EQ(score("4rg 4rg 4rg 4rg 4rg 1wt 2wt 3wg 5wg 6wt", Box::Chiffre4), 80);
}

TEST(YamsRule3, SixOfAKindStraddlingColoursIsNeverHarmonious) {
  const ry::Dice dice = roll("9r 9r 9r 9w 9w 9w 1r 2r 3w 4w");
  EXPECT_EQ(ry::score_box(dice, Box::YamsDeRene, false), 50);
  EXPECT_EQ(ry::score_box(dice, Box::Chiffre9, false), 54);
  EXPECT_EQ(ry::score_box(dice, Box::Brelan, false), 10);
  EXPECT_EQ(ry::score_box(dice, Box::Carre, false), 10);
  EXPECT_EQ(ry::score_box(dice, Box::DoubleBrelan, false), 40);
}

TEST(YamsRule3, MultipliersMultiply) {
  // First roll x3, colour x2, texture x2: a Youpi Yams of five red frosted 8s on the first roll.
  const std::string dice = "8rg 8rg 8rg 8rg 8rg 1wt 2wt 3wt 4wt 5wg";
  EXPECT_EQ(score(dice, Box::YoupiYams, true), 25 * 3 * 2 * 2);
  EXPECT_EQ(score(dice, Box::Brelan, true), 5 * 3 * 2 * 2);
  // Double carré 4 red frosted + 4 white transparent: x4; x12 on the first roll.
  const std::string carres = "3rg 3rg 3rg 3rg 9wt 9wt 9wt 9wt 1rt 2wg";
  EXPECT_EQ(score(carres, Box::DoubleCarre), 400);
  EXPECT_EQ(score(carres, Box::DoubleCarre, true), 1200);
  // Colour harmony without texture harmony, and the reverse.
  EXPECT_EQ(score("3rg 3rt 3rg 3rt 9wt 9wg 9wt 9wg 1rt 2wg", Box::DoubleCarre), 200);
  EXPECT_EQ(score("3rg 3wg 3rg 3wg 9wt 9rt 9wt 9rt 1rt 2wg", Box::DoubleCarre), 200);
  const ry::Choice c = ry::best_choice(ry::Dice(roll(carres)), Box::DoubleCarre, true);
  EXPECT_EQ(c.multiplier, 12);
  EXPECT_TRUE(c.colour_harmony && c.texture_harmony);
}

TEST(YamsRule3, HarmoniousSuiteOfOneColourAndTexture) {
  EXPECT_EQ(score("1rg 2rg 3rg 4rg 5rg 1wt 2wt 3wt 9wt 10wg", Box::SuiteRidicule), 40);
  EXPECT_EQ(score("1rg 2rt 3rg 4rt 5rg 6wt 7wt 8wg 9wt 10wg", Box::SuiteRidicule), 20);
}

// --- Dice ------------------------------------------------------------------------------------

TEST(YamsDice, TextFormsAndBadDice) {
  std::string error;
  EXPECT_EQ(ry::to_text(*ry::die_from_text("10wg")), "10wg");
  EXPECT_EQ(ry::die_from_text("0r")->value, 10);  // a printed 0 is the 10
  EXPECT_FALSE(ry::die_from_text("11r", &error));
  EXPECT_THAT(error, ::testing::HasSubstr("value 11 is not a face"));
  EXPECT_FALSE(ry::die_from_text("7b", &error));
  EXPECT_THAT(error, ::testing::HasSubstr("unknown colour 'b'"));
  EXPECT_FALSE(ry::die_from_text("7rx", &error));
  EXPECT_THAT(error, ::testing::HasSubstr("unknown texture 'x'"));
  EXPECT_FALSE(ry::die_from_text("r7", &error));
  ry::Dice six_red = roll("1r 2r 3r 4r 5r 6w 7w 8w 9w 10w");
  six_red[5].colour = ry::DieColour::Red;
  EXPECT_THAT(*ry::validate(six_red), ::testing::HasSubstr("5 red and 5 white, not 6 red"));
  ry::Dice some_textures = roll("1r 2r 3r 4r 5r 6w 7w 8w 9w 10w");
  some_textures[0].texture = ry::Texture::Frosted;
  EXPECT_THAT(*ry::validate(some_textures), ::testing::HasSubstr("all ten dice or for none"));
}

TEST(YamsBoxes, IdsAreStableAndComplete) {
  const std::vector<std::string> expected = {
      "chiffre-1", "chiffre-2", "chiffre-3", "chiffre-4", "chiffre-5", "chiffre-6", "chiffre-7",
      "chiffre-8", "chiffre-9", "chiffre-10", "brelan", "carre", "youpi-yams", "yams-de-rene",
      "yams-superieur", "giga-yams", "ultra-yams", "yams-impossible", "suite-ridicule",
      "petite-suite", "suite-de-marcel", "suite-royale", "suite-geante", "the-suite",
      "double-brelan", "triple-brelan", "double-carre", "double-yams", "full-tordu", "grand-full",
      "full-supreme", "tout-en-paires", "plus", "moins"};
  ASSERT_EQ(expected.size(), static_cast<std::size_t>(ry::kBoxCount));
  for (int b = 0; b < ry::kBoxCount; ++b) {
    EXPECT_EQ(ry::id(ry::box_at(b)), expected[b]);
    EXPECT_EQ(ry::box_from_id(expected[b]), ry::box_at(b));
  }
  EXPECT_FALSE(ry::box_from_id("chiffre-11").has_value());
}

// --- Property: the scorer equals a brute-force search over every choice of dice ----------------

namespace {

bool one_colour(const ry::Dice& d, const std::vector<int>& group) {
  return std::all_of(group.begin(), group.end(), [&](int i) { return d[i].colour == d[group[0]].colour; });
}
bool one_texture(const ry::Dice& d, const std::vector<int>& group) {
  return d[group[0]].texture != ry::Texture::None &&
         std::all_of(group.begin(), group.end(), [&](int i) { return d[i].texture == d[group[0]].texture; });
}
bool one_value(const ry::Dice& d, const std::vector<int>& group) {
  return std::all_of(group.begin(), group.end(), [&](int i) { return d[i].value == d[group[0]].value; });
}

// Every subset of `size` dice among those not in `used`, as index lists.
void subsets(int size, int from, std::uint16_t used, std::vector<int>& current,
             const std::function<void(const std::vector<int>&)>& visit) {
  if (static_cast<int>(current.size()) == size) {
    visit(current);
    return;
  }
  for (int i = from; i < ry::kDiceCount; ++i) {
    if ((used >> i) & 1u) continue;
    current.push_back(i);
    subsets(size, i + 1, used, current, visit);
    current.pop_back();
  }
}

int harmony(const ry::Dice& d, const std::vector<std::vector<int>>& groups) {
  bool colour = true;
  bool texture = true;
  for (const auto& g : groups) {
    colour = colour && one_colour(d, g);
    texture = texture && one_texture(d, g);
  }
  return (colour ? 2 : 1) * (texture ? 2 : 1);
}

// The best multiplier over every way to pick disjoint one-value groups of the given sizes.
int brute_groups(const ry::Dice& d, const std::vector<int>& sizes, std::size_t g, std::uint16_t used,
                 std::vector<std::vector<int>>& groups) {
  if (g == sizes.size()) return harmony(d, groups);
  int best = 0;
  std::vector<int> current;
  subsets(sizes[g], 0, used, current, [&](const std::vector<int>& group) {
    if (!one_value(d, group)) return;
    // Groups of equal size are interchangeable: take them in order of their first die.
    if (g > 0 && sizes[g] == sizes[g - 1] && group[0] < groups.back()[0]) return;
    std::uint16_t now = used;
    for (const int i : group) now |= static_cast<std::uint16_t>(1u << i);
    groups.push_back(group);
    best = std::max(best, brute_groups(d, sizes, g + 1, now, groups));
    groups.pop_back();
  });
  return best;
}

int brute_force(const ry::Dice& d, Box box, bool first_roll) {
  const int first = first_roll ? 3 : 1;
  std::vector<std::vector<int>> groups;
  std::vector<int> current;
  switch (ry::section(box)) {
    case ry::Section::Chiffres: {
      const int v = ry::face(box);
      int count = 0;
      for (const auto& die : d) count += die.value == v;
      int best = v * count;
      subsets(5, 0, 0, current, [&](const std::vector<int>& five) {
        if (d[five[0]].value == v && one_value(d, five)) best = std::max(best, 5 * v * harmony(d, {five}));
      });
      return best;
    }
    case ry::Section::Yams:
      return ry::base_value(box) * first * brute_groups(d, {ry::size(box)}, 0, 0, groups);
    case ry::Section::Suites: {
      int best = 0;
      subsets(ry::size(box), 0, 0, current, [&](const std::vector<int>& s) {
        std::vector<int> values;
        for (const int i : s) values.push_back(d[i].value);
        std::sort(values.begin(), values.end());
        for (std::size_t k = 1; k < values.size(); ++k) {
          if (values[k] != values[k - 1] + 1) return;
        }
        best = std::max(best, harmony(d, {s}));
      });
      return ry::base_value(box) * first * best;
    }
    case ry::Section::Combinaisons:
      return ry::base_value(box) * first * brute_groups(d, ry::group_sizes(box), 0, 0, groups);
    case ry::Section::Difference: {
      int sum = 0;
      for (const auto& die : d) sum += die.value;
      return sum;
    }
  }
  return -1;
}

}  // namespace

TEST(YamsScorerProperty, EqualsBruteForceOnThousandsOfRandomRolls) {
  std::mt19937_64 rng(330);
  for (int k = 0; k < 1500; ++k) {
    ry::Dice dice{};
    const int distinct = 1 + static_cast<int>(rng() % 6);  // few values: many combinations
    const bool textured = k % 3 == 0;
    for (int i = 0; i < ry::kDiceCount; ++i) {
      dice[i].value = static_cast<std::uint8_t>(1 + (k % 2 ? rng() % 10 : (rng() % distinct) * 10 / distinct));
      dice[i].colour = i < 5 ? ry::DieColour::Red : ry::DieColour::White;
      dice[i].texture = !textured ? ry::Texture::None : (rng() & 1) ? ry::Texture::Frosted : ry::Texture::Transparent;
    }
    std::shuffle(dice.begin(), dice.end(), rng);
    const bool first_roll = k % 5 == 0;
    const ry::BoxScores fast = ry::score_all(dice, first_roll);
    for (int b = 0; b < ry::kBoxCount; ++b) {
      const Box box = ry::box_at(b);
      const int expected = brute_force(dice, box, first_roll);
      ASSERT_GE(fast[b], expected) << ry::to_text(dice) << " " << ry::id(box);
      ASSERT_EQ(fast[b], expected) << ry::to_text(dice) << " " << ry::id(box);
      // The chosen dice really make the score.
      const ry::Choice choice = ry::best_choice(dice, box, first_roll);
      ASSERT_EQ(choice.score, fast[b]) << ry::to_text(dice) << " " << ry::id(box);
      std::uint16_t seen = 0;
      for (const int i : choice.dice) {
        ASSERT_FALSE((seen >> i) & 1u);
        seen |= static_cast<std::uint16_t>(1u << i);
      }
    }
  }
}
