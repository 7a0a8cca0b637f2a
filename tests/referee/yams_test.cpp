// The Yams turn and game referee (RULINGS.md §2 rules 1, 4, 5) and the sheet totals.
#include <gmock/gmock.h>
#include <gtest/gtest.h>


#include "referee/yams/yams.h"
#include "scoring/yams/sheet.h"
#include "tests/support/yams_dice.h"

namespace ry = arbitre::referee::yams;
namespace sy = arbitre::scoring::yams;
using ry::Box;
using ry::Move;
using ry::Reason;

namespace {

using arbitre::testing::yams::dice;

std::uint16_t keep(std::initializer_list<int> indices) {
  std::uint16_t mask = 0;
  for (const int i : indices) mask |= static_cast<std::uint16_t>(1u << i);
  return mask;
}

void play_ok(ry::State& state, const Move& move) {
  const ry::Verdict verdict = ry::check(state, move);
  ASSERT_TRUE(verdict.legal()) << ry::to_string(verdict.reason);
  ry::play(state, move);
}

const std::string kJunk = "1r 2r 3r 4r 6r 1w 2w 7w 8w 9w";

}  // namespace

// --- Rule 1: up to five rolls, then one empty box ------------------------------------------

TEST(YamsRule1, FirstRollThrowsAllTenDice) {
  ry::State state = ry::initial_state({});
  EXPECT_EQ(ry::check(state, Move::roll(keep({0}), dice(kJunk))).reason, Reason::KeepOnFirstRoll);
  EXPECT_TRUE(ry::check(state, Move::roll(0, dice(kJunk))).legal());
}

TEST(YamsRule1, AtMostFiveRolls) {
  ry::State state = ry::initial_state({});
  for (int r = 0; r < 5; ++r) play_ok(state, Move::roll(0, dice(kJunk)));
  EXPECT_FALSE(ry::can_roll(state));
  const ry::Verdict sixth = ry::check(state, Move::roll(0, dice(kJunk)));
  EXPECT_EQ(sixth.reason, Reason::TooManyRolls);
}

TEST(YamsRule1, KeptDiceKeepTheirFaces) {
  ry::State state = ry::initial_state({});
  play_ok(state, Move::roll(0, dice("7r 7r 3r 4r 6r 1w 2w 7w 8w 9w")));
  // Setting aside the three 7s: they must show 7 after the roll.
  EXPECT_TRUE(ry::check(state, Move::roll(keep({0, 1, 7}), dice("7r 7r 9r 9r 9r 7w 7w 7w 1w 2w"))).legal());
  const ry::Verdict changed =
      ry::check(state, Move::roll(keep({0, 1, 7}), dice("7r 5r 9r 9r 9r 7w 7w 7w 1w 2w")));
  EXPECT_EQ(changed.reason, Reason::KeptDieChanged);
  EXPECT_THAT(changed.dice, ::testing::ElementsAre(1));
  // Die 0 is red: after the roll it cannot be white.
  const ry::Verdict swapped = ry::check(state, Move::roll(0, dice("7w 7r 3r 4r 6r 1r 2w 7w 8w 9w")));
  EXPECT_EQ(swapped.reason, Reason::DieSwapped);
}

TEST(YamsRule1, DiceMayBeRerolledAgainUnlessTheLockedVariant) {
  ry::State free_state = ry::initial_state({});
  play_ok(free_state, Move::roll(0, dice(kJunk)));
  play_ok(free_state, Move::roll(keep({0, 1}), dice(kJunk)));
  EXPECT_TRUE(ry::check(free_state, Move::roll(keep({0}), dice(kJunk))).legal());
  ry::State locked = ry::initial_state({false, ry::KeepRule::Locked});
  play_ok(locked, Move::roll(0, dice(kJunk)));
  play_ok(locked, Move::roll(keep({0, 1}), dice(kJunk)));
  const ry::Verdict verdict = ry::check(locked, Move::roll(keep({0}), dice(kJunk)));
  EXPECT_EQ(verdict.reason, Reason::DieUnkept);
  EXPECT_THAT(verdict.dice, ::testing::ElementsAre(1));
}

TEST(YamsRule1, EveryTurnFillsExactlyOneEmptyBoxPossiblyWithZero) {
  ry::State state = ry::initial_state({});
  EXPECT_EQ(ry::check(state, Move::fill(Box::Chiffre5)).reason, Reason::NoRollYet);
  play_ok(state, Move::roll(0, dice(kJunk)));
  const ry::Verdict zero = ry::check(state, Move::fill(Box::YamsImpossible));
  ASSERT_TRUE(zero.legal());
  EXPECT_EQ(zero.score, 0);
  play_ok(state, Move::fill(Box::YamsImpossible));
  EXPECT_EQ(state.sheets[0].boxes[ry::index(Box::YamsImpossible)]->score, 0);
  EXPECT_EQ(state.turn.rolls, 0);  // a new turn
  play_ok(state, Move::roll(0, dice(kJunk)));
  EXPECT_EQ(ry::check(state, Move::fill(Box::YamsImpossible)).reason, Reason::BoxFilled);
}

TEST(YamsRule1, FirstRollFillIsTripled) {
  ry::State state = ry::initial_state({});
  play_ok(state, Move::roll(0, dice("5r 5r 5r 1r 2r 5w 3w 4w 6w 7w")));
  const ry::Verdict verdict = ry::check(state, Move::fill(Box::Carre));
  EXPECT_TRUE(verdict.first_roll);
  EXPECT_EQ(verdict.score, 30);
}

TEST(YamsRule1, TexturesFollowTheOptions) {
  ry::State plain = ry::initial_state({});
  EXPECT_EQ(ry::check(plain, Move::roll(0, dice("1rg 2rg 3rg 4rg 6rg 1wt 2wt 7wt 8wt 9wt"))).reason,
            Reason::BadDice);
  ry::State textured = ry::initial_state({true, ry::KeepRule::Free});
  EXPECT_TRUE(ry::check(textured, Move::roll(0, dice("1rg 2rg 3rg 4rg 6rg 1wt 2wt 7wt 8wt 9wt"))).legal());
  EXPECT_EQ(ry::check(textured, Move::roll(0, dice(kJunk))).reason, Reason::BadDice);
}

// --- Rule 4: the declared sixth roll ---------------------------------------------------------

TEST(YamsRule4, SixthRollSuccessScoresTheBaseValueOnly) {
  ry::State state = ry::initial_state({});
  for (int r = 0; r < 5; ++r) play_ok(state, Move::roll(r ? keep({0, 1, 2, 3}) : 0, dice("2r 2r 2r 2r 6r 1w 3w 7w 8w 9w")));
  EXPECT_EQ(ry::check(state, Move::declare(Box::Chiffre2)).reason, Reason::NotDeclarable);
  EXPECT_EQ(ry::check(state, Move::declare(Box::Plus)).reason, Reason::NotDeclarable);
  play_ok(state, Move::declare(Box::YoupiYams));
  EXPECT_EQ(ry::check(state, Move::declare(Box::Carre)).reason, Reason::AlreadyDeclared);
  EXPECT_EQ(ry::check(state, Move::fill(Box::YoupiYams)).reason, Reason::SixthRollPending);
  // Five red 2s: harmonious, but a sixth roll scores the base value only.
  play_ok(state, Move::roll(keep({0, 1, 2, 3}), dice("2r 2r 2r 2r 2r 1w 3w 7w 8w 9w")));
  EXPECT_EQ(ry::check(state, Move::fill(Box::Carre)).reason, Reason::DeclaredBoxOnly);
  const ry::Verdict verdict = ry::check(state, Move::fill(Box::YoupiYams));
  ASSERT_TRUE(verdict.legal());
  EXPECT_EQ(verdict.sixth_success, true);
  EXPECT_EQ(verdict.score, 25);
  EXPECT_EQ(ry::check(state, Move::roll(0, dice(kJunk))).reason, Reason::TooManyRolls);  // a seventh
}

TEST(YamsRule4, SixthRollFailureScoresMinusTheBaseValue) {
  ry::State state = ry::initial_state({});
  for (int r = 0; r < 5; ++r) play_ok(state, Move::roll(0, dice("2r 3r 4r 5r 9r 1w 7w 7w 8w 9w")));
  play_ok(state, Move::declare(Box::SuiteRidicule));
  play_ok(state, Move::roll(keep({0, 1, 2, 3}), dice("2r 3r 4r 5r 9r 1w 8w 7w 8w 9w")));
  // 1 2 3 4 5 is there after all (the white 1): success.
  EXPECT_EQ(ry::check(state, Move::fill(Box::SuiteRidicule)).score, 10);
  ry::State miss = ry::initial_state({});
  for (int r = 0; r < 5; ++r) play_ok(miss, Move::roll(0, dice("2r 3r 4r 5r 9r 9w 7w 7w 8w 9w")));
  play_ok(miss, Move::declare(Box::SuiteRidicule));
  play_ok(miss, Move::roll(keep({0, 1, 2, 3}), dice("2r 3r 4r 5r 9r 9w 8w 7w 8w 9w")));
  const ry::Verdict verdict = ry::check(miss, Move::fill(Box::SuiteRidicule));
  EXPECT_EQ(verdict.sixth_success, false);
  EXPECT_EQ(verdict.score, -10);
}

TEST(YamsRule4, DeclarationComesAfterTheFifthRollOnly) {
  ry::State state = ry::initial_state({});
  EXPECT_EQ(ry::check(state, Move::declare(Box::Brelan)).reason, Reason::NoRollYet);
  play_ok(state, Move::roll(0, dice(kJunk)));
  EXPECT_EQ(ry::check(state, Move::declare(Box::Brelan)).reason, Reason::DeclareAfterFifth);
}

// --- Rule 5: several players, the game ends when every sheet is full ----------------------------

TEST(YamsRule5, PlayersTakeTurnsUntilEverySheetIsFull) {
  ry::State state = ry::initial_state({}, 2);
  for (int turn = 0; turn < 2 * ry::kBoxCount; ++turn) {
    EXPECT_EQ(state.player, turn % 2);
    play_ok(state, Move::roll(0, dice(kJunk)));
    play_ok(state, Move::fill(ry::box_at(turn / 2)));
  }
  EXPECT_TRUE(ry::is_over(state));
  EXPECT_EQ(ry::check(state, Move::roll(0, dice(kJunk))).reason, Reason::GameOver);
  EXPECT_TRUE(ry::legal_moves(state).empty());
}

TEST(YamsRule5, LegalMovesAreTheEmptyBoxes) {
  ry::State state = ry::initial_state({});
  play_ok(state, Move::roll(0, dice(kJunk)));
  play_ok(state, Move::fill(Box::Brelan));
  play_ok(state, Move::roll(0, dice(kJunk)));
  EXPECT_EQ(ry::legal_moves(state).size(), static_cast<std::size_t>(ry::kBoxCount - 1));
}

// --- Rule 2: the totals ------------------------------------------------------------------------

namespace {

ry::Sheet sheet_with(std::initializer_list<std::pair<Box, ry::Entry>> entries) {
  ry::Sheet sheet;
  for (const auto& [box, entry] : entries) sheet.boxes[ry::index(box)] = entry;
  return sheet;
}

}  // namespace

TEST(YamsTotals, ChiffresBonusAtThreeHundredThirty) {
  const ry::Sheet below = sheet_with({{Box::Chiffre10, {100, 5}}, {Box::Chiffre9, {90, 5}},
                                      {Box::Chiffre8, {80, 5}}, {Box::Chiffre7, {59, 0}}});
  EXPECT_EQ(sy::totals(below).chiffres, 329);
  EXPECT_EQ(sy::totals(below).bonus, 0);
  const ry::Sheet at = sheet_with({{Box::Chiffre10, {100, 5}}, {Box::Chiffre9, {90, 5}},
                                   {Box::Chiffre8, {80, 5}}, {Box::Chiffre7, {60, 0}}});
  EXPECT_EQ(sy::totals(at).bonus, 500);
  EXPECT_EQ(sy::totals(at).total1, 830);
}

TEST(YamsTotals, DifferenceIsPlusMinusMoinsTimesTheOnesCounted) {
  ry::Sheet sheet = sheet_with({{Box::Plus, {80, 0}}, {Box::Moins, {30, 0}}});
  EXPECT_EQ(sy::totals(sheet).total5, 0);  // chiffre-1 not filled yet
  sheet.boxes[ry::index(Box::Chiffre1)] = ry::Entry{3, 3};
  EXPECT_EQ(sy::totals(sheet).total5, 150);
  // A count, not the points: five harmonious 1s score 10 in the box but count 5.
  sheet.boxes[ry::index(Box::Chiffre1)] = ry::Entry{10, 5};
  EXPECT_EQ(sy::totals(sheet).total5, 250);
  // It may be negative.
  sheet.boxes[ry::index(Box::Plus)] = ry::Entry{30, 0};
  sheet.boxes[ry::index(Box::Moins)] = ry::Entry{80, 0};
  EXPECT_EQ(sy::totals(sheet).total5, -250);
}

TEST(YamsTotals, GrandTotalAddsTheFiveTotals) {
  const ry::Sheet sheet = sheet_with({{Box::Chiffre3, {12, 4}}, {Box::Carre, {30, 0}},
                                      {Box::SuiteRoyale, {100, 0}}, {Box::DoubleYams, {800, 0}},
                                      {Box::Plus, {70, 0}}, {Box::Moins, {40, 0}},
                                      {Box::Chiffre1, {2, 2}}, {Box::YoupiYams, {-25, 0}}});
  const sy::Totals t = sy::totals(sheet);
  EXPECT_EQ(t.total1, 14);
  EXPECT_EQ(t.total2, 5);
  EXPECT_EQ(t.total3, 100);
  EXPECT_EQ(t.total4, 800);
  EXPECT_EQ(t.total5, 60);
  EXPECT_EQ(t.grand, 979);
}

TEST(YamsTotals, ChiffreOneCountIsRecordedWhenFilled) {
  ry::State state = ry::initial_state({});
  play_ok(state, Move::roll(0, dice("1r 1r 1r 1r 1r 1w 2w 3w 4w 5w")));
  play_ok(state, Move::fill(Box::Chiffre1));
  // Six 1s: five red in harmony score 10 (more than 6), and count 5.
  EXPECT_EQ(state.sheets[0].boxes[0], (ry::Entry{10, 5}));
}
