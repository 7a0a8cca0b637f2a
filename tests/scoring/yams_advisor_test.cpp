// The Yams box values, the greedy player and the advisor: decisions the referee accepts, exact
// fill values, reproducible sampling, and a committed table that matches its generator.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "scoring/yams/advisor.h"
#include "scoring/yams/box_values_seed.h"
#include "tests/support/yams_dice.h"

namespace ry = arbitre::referee::yams;
namespace sy = arbitre::scoring::yams;
using ry::Box;

namespace {

using arbitre::testing::yams::dice;

ry::State after_rolls(int rolls, const std::string& text) {
  ry::State state = ry::initial_state({});
  for (int r = 0; r < rolls; ++r) ry::play(state, ry::Move::roll(0, dice(text)));
  return state;
}

}  // namespace

TEST(YamsAdvisor, CommittedBoxValuesMatchAFreshEstimate) {
  arbitre::scoring::Rng rng(sy::kBoxValuesSeed);
  const sy::BoxValues fresh = sy::estimate_box_values(rng, sy::kBoxValuesTurns);
  const sy::BoxValues& committed = sy::default_box_values();
  for (int b = 0; b < ry::kBoxCount; ++b) {
    EXPECT_DOUBLE_EQ(fresh.mean[b], committed.mean[b]) << ry::id(ry::box_at(b));
    EXPECT_DOUBLE_EQ(fresh.variance[b], committed.variance[b]) << ry::id(ry::box_at(b));
  }
  EXPECT_DOUBLE_EQ(fresh.ones_count, committed.ones_count);
  // Sanity: chasing the 10s gives about four of them.
  EXPECT_NEAR(committed.mean[ry::index(Box::Chiffre10)], 41.0, 3.0);
}

TEST(YamsAdvisor, TenEqualDiceOnTheFirstRollFillTheYamsImpossibleTripled) {
  arbitre::scoring::Rng rng(1);
  const sy::Advice advice = sy::advise(after_rolls(1, "6r 6r 6r 6r 6r 6w 6w 6w 6w 6w"), {16}, rng);
  EXPECT_EQ(advice.best.action, sy::Action::Fill);
  EXPECT_EQ(advice.best.points, 2400);
  // Double Yams scores the same, but the Yams impossible is worth far less to the rest of the game.
  EXPECT_EQ(advice.best.box, Box::YamsImpossible);
}

TEST(YamsAdvisor, EveryOptionIsAMoveTheRefereeAccepts) {
  for (int rolls = 1; rolls <= 5; ++rolls) {
    const ry::State state = after_rolls(rolls, "2r 2r 2r 2r 6r 1w 3w 7w 8w 9w");
    arbitre::scoring::Rng rng(rolls);
    const sy::Advice advice = sy::advise(state, {8}, rng);
    ASSERT_FALSE(advice.options.empty());
    EXPECT_EQ(advice.best.expected, advice.options.front().expected);
    for (const sy::Option& option : advice.options) {
      switch (option.action) {
        case sy::Action::Fill:
          EXPECT_TRUE(ry::check(state, ry::Move::fill(option.box)).legal());
          break;
        case sy::Action::Declare:
          EXPECT_EQ(rolls, 5);
          EXPECT_TRUE(ry::check(state, ry::Move::declare(option.box)).legal());
          break;
        case sy::Action::Roll:
          EXPECT_LT(rolls, 5);
          EXPECT_TRUE(ry::can_roll(state));
          break;
      }
    }
  }
}

TEST(YamsAdvisor, SameSeedSameAdviceAndSamplingErrorReported) {
  const ry::State state = after_rolls(2, "3r 3r 5r 7r 9r 3w 4w 4w 8w 10w");
  arbitre::scoring::Rng a(42);
  arbitre::scoring::Rng b(42);
  const sy::Advice first = sy::advise(state, {32}, a);
  const sy::Advice second = sy::advise(state, {32}, b);
  ASSERT_EQ(first.options.size(), second.options.size());
  bool sampled = false;
  for (std::size_t i = 0; i < first.options.size(); ++i) {
    EXPECT_DOUBLE_EQ(first.options[i].expected, second.options[i].expected);
    if (first.options[i].action == sy::Action::Roll) sampled = sampled || first.options[i].std_error > 0;
    if (first.options[i].action == sy::Action::Fill) {
      EXPECT_EQ(first.options[i].std_error, 0.0);
    }
  }
  EXPECT_TRUE(sampled);
}

TEST(YamsAdvisor, SheetValueCountsFilledBoxesAndTheirWorth) {
  const sy::BoxValues& values = sy::default_box_values();
  ry::Sheet sheet;
  const sy::SheetModel empty(sheet, values);
  sheet.boxes[ry::index(Box::DoubleYams)] = ry::Entry{800, 0};
  const sy::SheetModel after(sheet, values);
  EXPECT_NEAR(after.value() - empty.value(), 800 - values.mean[ry::index(Box::DoubleYams)], 1e-9);
  EXPECT_NEAR(empty.value_after(Box::DoubleYams, {800, 0}), after.value(), 1e-9);
  // A bad Moins lowers the différence.
  EXPECT_LT(empty.value_after(Box::Moins, {90, 0}), empty.value_after(Box::Moins, {20, 0}));
}

TEST(YamsPlayers, GreedyFillsTheHighestBoxOnTheLastRoll) {
  const ry::State state = after_rolls(5, "4r 4r 4r 4r 9r 6w 6w 6w 6w 1w");
  const sy::Option option = sy::greedy(state);
  EXPECT_EQ(option.action, sy::Action::Fill);
  EXPECT_EQ(option.box, Box::DoubleCarre);
  EXPECT_EQ(option.points, 200);
}

TEST(YamsPlayers, ChaseKeepsTheDiceThatMakeTheBox) {
  const ry::Dice d = dice("7r 7r 7r 1r 2r 7w 3w 4w 5w 9w");
  EXPECT_EQ(sy::chase_keep(d, Box::Chiffre7), (1u << 0) | (1u << 1) | (1u << 2) | (1u << 5));
  EXPECT_EQ(sy::chase_keep(d, Box::Brelan), (1u << 0) | (1u << 1) | (1u << 2));  // the red three
  // Suite: one die per value of the fullest window 1..5 (1 2 3 4 5 all present).
  EXPECT_EQ(__builtin_popcount(sy::chase_keep(d, Box::SuiteRidicule)), 5);
  EXPECT_EQ(sy::chase_keep(d, Box::Plus), (1u << 0) | (1u << 1) | (1u << 2) | (1u << 5) | (1u << 9));
}

TEST(YamsPlayers, WholeGamesEndWithFullSheets) {
  for (std::uint64_t seed = 0; seed < 3; ++seed) {
    arbitre::scoring::Rng dice_rng(seed);
    arbitre::scoring::Rng own(seed + 100);
    ry::State state = ry::initial_state({}, 2);
    int fills = 0;
    sy::play_out(
        state, dice_rng, [&](const ry::State& s) { return sy::advise(s, {8}, own).best; },
        [&](const ry::Move& move) { fills += move.kind == ry::MoveKind::Fill; });
    EXPECT_TRUE(ry::is_over(state));
    EXPECT_EQ(fills, 2 * ry::kBoxCount);
  }
}

TEST(YamsAdvisor, TurnEndingRollsWithFewOutcomesAreExact) {
  // Fourth roll made: the next roll ends the turn. Keeping seven or more dice leaves at most
  // 1,000 outcomes, enumerated: no sampling error, and the seed does not matter.
  const ry::State state = after_rolls(4, "2r 2r 2r 2r 6r 1w 3w 7w 8w 9w");
  arbitre::scoring::Rng a(1);
  arbitre::scoring::Rng b(2);
  const sy::Advice first = sy::advise(state, {16}, a);
  const sy::Advice second = sy::advise(state, {16}, b);
  int exact = 0;
  for (const sy::Option& option : first.options) {
    if (option.action != sy::Action::Roll || __builtin_popcount(option.keep) < 7) continue;
    ++exact;
    EXPECT_EQ(option.std_error, 0.0);
    const auto same = std::find_if(second.options.begin(), second.options.end(), [&](const sy::Option& o) {
      return o.action == sy::Action::Roll && o.keep == option.keep;
    });
    ASSERT_NE(same, second.options.end());
    EXPECT_DOUBLE_EQ(same->expected, option.expected);
  }
  EXPECT_GT(exact, 0);
}
