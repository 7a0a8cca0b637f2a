// The Irma players and advisor: they only choose among the referee's legal cells, the seeded
// advisor is reproducible, and its estimates are exact where the future is certain.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "scoring/irma/advisor.h"
#include "scoring/irma/score.h"
#include "tests/support/irma_boards.h"

namespace ri = arbitre::referee::irma;
namespace si = arbitre::scoring::irma;
using arbitre::testing::irma::almost_full;
using arbitre::testing::irma::from_picture;

TEST(IrmaAdvisor, RanksExactlyTheLegalCellsBestFirst) {
  const ri::State state = from_picture({"RO", "G."});
  si::Rng rng(5);
  const auto values = si::advise(state, ri::Colour::Green, {16}, rng);
  std::vector<ri::Cell> advised;
  for (const auto& v : values) advised.push_back(v.cell);
  EXPECT_THAT(advised,
              ::testing::UnorderedElementsAreArray(ri::legal_cells(state, ri::Colour::Green)));
  EXPECT_TRUE(std::is_sorted(values.begin(), values.end(),
                             [](const auto& a, const auto& b) { return a.expected > b.expected; }));
  for (const auto& v : values) {
    EXPECT_GE(v.expected, 0.0);
    EXPECT_GE(v.std_error, 0.0);
  }
}

TEST(IrmaAdvisor, SameSeedGivesTheSameAdvice) {
  const ri::State state = from_picture({"ROG", "W.O"});
  si::Rng a(123);
  si::Rng b(123);
  const auto first = si::advise(state, ri::Colour::Orange, {24}, a);
  const auto second = si::advise(state, ri::Colour::Orange, {24}, b);
  ASSERT_EQ(first.size(), second.size());
  for (std::size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(first[i].cell, second[i].cell);
    EXPECT_DOUBLE_EQ(first[i].expected, second[i].expected);
  }
}

TEST(IrmaAdvisor, CertainFutureIsValuedExactly) {
  // The 35th pion: a suite (4) and the completion bonus (5), nothing left to chance.
  const auto values = [] {
    si::Rng rng(1);
    return si::advise(almost_full(), ri::Colour::Red, {10}, rng);
  }();
  ASSERT_EQ(values.size(), 1u);
  EXPECT_DOUBLE_EQ(values[0].expected, 9.0);
  EXPECT_DOUBLE_EQ(values[0].std_error, 0.0);
  EXPECT_DOUBLE_EQ(values[0].completion, 1.0);
}

TEST(IrmaAdvisor, BlockedPionGetsNoAdvice) {
  ri::State state = almost_full();
  state.last_series = ri::SeriesKind::Suite;
  si::Rng rng(1);
  EXPECT_TRUE(si::advise(state, ri::Colour::Red, {10}, rng).empty());
}

TEST(IrmaPlayers, GreedyTakesTheHighestMarker) {
  const ri::State state = from_picture({"RO", "G."});
  std::vector<ri::Placement> legal;
  ri::legal_placements(state, ri::Colour::Green, legal);
  EXPECT_EQ(si::choose_greedy(state, ri::Colour::Green, legal), (ri::Cell{0, 2}));  // the suite
}

TEST(IrmaPlayers, DrawFollowsTheBag) {
  ri::Options options;
  options.bag = {0, 0, 35, 0};
  const ri::State state = ri::initial_state(options);
  si::Rng rng(3);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(si::draw(state, rng), ri::Colour::Green);
  EXPECT_LT(si::uniform_below(rng, 7), 7u);
}

TEST(IrmaPlayers, PlayOutEndsEveryGameLegally) {
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    si::Rng rng(seed);
    ri::State state = ri::initial_state();
    si::play_out(state, rng,
                 [](const ri::State& s, ri::Colour colour, const std::vector<ri::Placement>& legal,
                    si::Rng&) { return si::choose_greedy(s, colour, legal); });
    EXPECT_TRUE(ri::is_over(state));
    EXPECT_EQ(si::score(state), si::markers_total(state) + si::bonus(state));
  }
}
