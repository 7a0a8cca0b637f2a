// Irma points: markers, bonus and "plus", marker stock warnings, the two-player comparison.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scoring/irma/score.h"
#include "tests/support/irma_boards.h"

namespace ri = arbitre::referee::irma;
namespace si = arbitre::scoring::irma;
using arbitre::testing::irma::almost_full;
using arbitre::testing::irma::from_picture;
using ri::SeriesKind;

TEST(IrmaScore, Rule13ScoreIsTheSumOfMarkersPlusBonus) {
  ri::State state = almost_full();
  state.pile = {SeriesKind::Pair, SeriesKind::Brelan, SeriesKind::Suite, SeriesKind::Pair};
  EXPECT_EQ(si::markers_total(state), 8);
  EXPECT_EQ(si::score(state), 8);
  ri::play(state, ri::Move::place(ri::Colour::Red, {4, 6}));  // a suite and the 35th pion
  EXPECT_EQ(si::markers_total(state), 12);
  EXPECT_EQ(si::bonus(state), 5);
  EXPECT_TRUE(si::has_plus(state));
  EXPECT_EQ(si::score(state), 17);
}

TEST(IrmaScore, Rule8BlockedGameHasNoBonusNorPlus) {
  ri::State state = almost_full();
  state.pile = {SeriesKind::Suite};
  state.last_series = SeriesKind::Suite;
  ri::play(state, ri::Move::block_claim(ri::Colour::Red));
  EXPECT_EQ(si::bonus(state), 0);
  EXPECT_FALSE(si::has_plus(state));
  EXPECT_EQ(si::score(state), 4);
}

TEST(IrmaScore, Rule10WarnsWhenTheMarkerStockRunsOut) {
  ri::State state = from_picture({"R"});
  state.pile.assign(14, SeriesKind::Pair);
  EXPECT_FALSE(si::stock_warning(state, SeriesKind::Pair).has_value());
  state.pile.push_back(SeriesKind::Pair);  // the 15th marker 1: the last in the box
  const auto last = si::stock_warning(state, SeriesKind::Pair);
  ASSERT_TRUE(last.has_value());
  EXPECT_THAT(last->message, ::testing::HasSubstr("last marker 1"));
  state.pile.push_back(SeriesKind::Pair);  // the 16th: none left, scoring goes on
  const auto out = si::stock_warning(state, SeriesKind::Pair);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->earned, 16);
  EXPECT_THAT(out->message, ::testing::HasSubstr("no marker 1 left"));
  EXPECT_EQ(si::markers_total(state), 16);
  // The stock is an option.
  state.options.marker_stock[0] = 20;
  EXPECT_FALSE(si::stock_warning(state, SeriesKind::Pair).has_value());
}

TEST(IrmaScore, Rule11HighestScoreWinsAndPlusBreaksTies) {
  EXPECT_EQ(si::winner({{"Anna", 41, false}, {"Bruno", 44, false}}), 1u);
  EXPECT_EQ(si::winner({{"Anna", 45, true}, {"Bruno", 45, false}}), 0u);
  EXPECT_FALSE(si::winner({{"Anna", 45, true}, {"Bruno", 45, true}}).has_value());
  EXPECT_FALSE(si::winner({{"Anna", 30, false}, {"Bruno", 30, false}}).has_value());
}
