// The Irma referee, one test per ruling of RULINGS.md §1 (named after it), the seed text's own
// example, perft-style counts worked out by hand, and seeded random playouts.
#include "referee/irma/irma.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <queue>
#include <random>
#include <set>

#include "referee/irma/record.h"
#include "tests/support/irma_boards.h"

namespace ri = arbitre::referee::irma;
using arbitre::testing::irma::almost_full;
using arbitre::testing::irma::from_picture;
using ri::Cell;
using ri::Colour;
using ri::Move;
using ri::Reason;
using ri::SeriesKind;
using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

namespace {

ri::Verdict check_at(const ri::State& state, Colour colour, int row, int col) {
  return ri::check(state, Move::place(colour, {row, col}));
}

std::vector<SeriesKind> kinds(const ri::Verdict& verdict) {
  std::vector<SeriesKind> out;
  for (const auto& s : verdict.series) out.push_back(s.kind);
  std::sort(out.begin(), out.end());
  return out;
}

int count_marker(const std::vector<ri::Placement>& legal, std::optional<SeriesKind> marker) {
  return static_cast<int>(std::count_if(
      legal.begin(), legal.end(), [&](const ri::Placement& p) { return p.marker == marker; }));
}

}  // namespace

// --- Rule 1: the first pion anywhere, then adjacent (8 neighbours) to a placed pion ----------

TEST(IrmaRule1, FirstPionGoesAnywhere) {
  const ri::State state = ri::initial_state();
  EXPECT_TRUE(check_at(state, Colour::White, -40, 1000).legal());
  EXPECT_TRUE(check_at(state, Colour::Red, 3, 3).legal());
  EXPECT_THAT(ri::legal_cells(state, Colour::Green), ElementsAre(Cell{0, 0}));
}

TEST(IrmaRule1, LaterPionMustTouchAPlacedPion) {
  const ri::State state = from_picture({"R"});
  EXPECT_EQ(check_at(state, Colour::Orange, 0, 2).reason, Reason::NotAdjacent);
  EXPECT_EQ(check_at(state, Colour::Orange, 2, 2).reason, Reason::NotAdjacent);
  EXPECT_EQ(check_at(state, Colour::Orange, 500, -500).reason, Reason::NotAdjacent);
  EXPECT_THAT(check_at(state, Colour::Orange, 0, 2).cells, ElementsAre(Cell{0, 2}));
}

TEST(IrmaRule1, DiagonalContactCountsAsAdjacent) {
  const ri::State state = from_picture({"R"});
  EXPECT_TRUE(check_at(state, Colour::Orange, 1, 1).legal());
  EXPECT_TRUE(check_at(state, Colour::Orange, -1, -1).legal());
  EXPECT_TRUE(check_at(state, Colour::Orange, -1, 1).legal());
}

TEST(IrmaRule1, OccupiedCellIsRefused) {
  const ri::State state = from_picture({"RO"});
  const ri::Verdict verdict = check_at(state, Colour::Green, 0, 1);
  EXPECT_EQ(verdict.reason, Reason::Occupied);
  EXPECT_THAT(verdict.cells, ElementsAre(Cell{0, 1}));
}

// --- Rule 2: inside a 5x7 rectangle, either orientation; the 35th pion completes it ---------

TEST(IrmaRule2, EighthPionInARowLeavesTheRectangle) {
  const ri::State state = from_picture({"ROROROR"});
  const ri::Verdict verdict = check_at(state, Colour::Green, 0, 7);
  EXPECT_EQ(verdict.reason, Reason::OutsideRectangle);
  EXPECT_THAT(verdict.cells, ElementsAre(Cell{0, 7}, Cell{0, 0}));
  EXPECT_EQ(check_at(state, Colour::Green, 1, -1).reason, Reason::OutsideRectangle);
}

TEST(IrmaRule2, RectangleMayStandEitherWay) {
  // Seven rows high and five wide is the same rectangle turned.
  const ri::State tall = from_picture({"R", "O", "R", "O", "R", "O"});
  EXPECT_TRUE(check_at(tall, Colour::Green, 6, 0).legal());
  EXPECT_TRUE(check_at(tall, Colour::Green, -1, 1).legal());
  const ri::State six_by_five =
      from_picture({"ROROR", "O....", "R....", "O....", "R....", "O...."});
  // Six rows: the width may not pass five; five columns: the height may not pass seven.
  EXPECT_EQ(check_at(six_by_five, Colour::Green, 0, 5).reason, Reason::OutsideRectangle);
  EXPECT_TRUE(check_at(six_by_five, Colour::Green, 6, 0).legal());
}

TEST(IrmaRule2, ThirtyFifthPionCompletesTheGame) {
  ri::State state = almost_full();
  ASSERT_EQ(state.board.size(), 34);
  ASSERT_TRUE(check_at(state, Colour::Red, 4, 6).legal());
  ri::play(state, Move::place(Colour::Red, {4, 6}));
  EXPECT_EQ(state.status, ri::Status::Completed);
  EXPECT_TRUE(ri::is_over(state));
  EXPECT_EQ(state.board.height() * state.board.width(), ri::kRectCells);
}

// --- Rule 3: series on the four lines through the new pion -------------------------------

TEST(IrmaRule3, TwoOfAColourAreAPair) {
  const ri::Verdict verdict = check_at(from_picture({"R"}), Colour::Red, 1, 1);
  ASSERT_TRUE(verdict.legal());
  EXPECT_THAT(kinds(verdict), ElementsAre(SeriesKind::Pair));
  EXPECT_THAT(verdict.series[0].cells, ElementsAre(Cell{0, 0}, Cell{1, 1}));
  EXPECT_EQ(verdict.marker, SeriesKind::Pair);
}

TEST(IrmaRule3, ThreeOfAColourAreABrelan) {
  const ri::Verdict verdict = check_at(from_picture({"GG"}), Colour::Green, 0, 2);
  EXPECT_THAT(kinds(verdict), ElementsAre(SeriesKind::Brelan));
  EXPECT_EQ(verdict.marker, SeriesKind::Brelan);
}

TEST(IrmaRule3, RunCountsPionsOnBothSidesOfTheNewOne) {
  const ri::Verdict verdict = check_at(from_picture({"O.O"}), Colour::Orange, 0, 1);
  EXPECT_THAT(kinds(verdict), ElementsAre(SeriesKind::Brelan));
  EXPECT_THAT(verdict.series[0].cells, ElementsAre(Cell{0, 0}, Cell{0, 1}, Cell{0, 2}));
}

TEST(IrmaRule3, SuiteIsRedOrangeGreenInEitherDirection) {
  EXPECT_THAT(kinds(check_at(from_picture({"RO"}), Colour::Green, 0, 2)),
              ElementsAre(SeriesKind::Suite));
  EXPECT_THAT(kinds(check_at(from_picture({"GO"}), Colour::Red, 0, 2)),
              ElementsAre(SeriesKind::Suite));
  // The new pion in the middle, on a diagonal.
  EXPECT_THAT(kinds(check_at(from_picture({"R..", "...", "..G"}), Colour::Orange, 1, 1)),
              ElementsAre(SeriesKind::Suite));
}

TEST(IrmaRule3, SuiteNeedsOrangeInTheMiddle) {
  EXPECT_TRUE(kinds(check_at(from_picture({"RG"}), Colour::Orange, 0, 2)).empty());
  EXPECT_TRUE(kinds(check_at(from_picture({"OR"}), Colour::Green, 0, 2)).empty());
}

TEST(IrmaRule3, TwoSuitesOnOneLineAreTwoSeries) {
  const ri::Verdict verdict = check_at(from_picture({"GO.OG"}), Colour::Red, 0, 2);
  EXPECT_THAT(kinds(verdict), ElementsAre(SeriesKind::Suite, SeriesKind::Suite));
}

TEST(IrmaRule3, WhitePionsNeverFormSeries) {
  // A white pair or brelan scores nothing (whites only touch when forced; set up directly).
  const ri::Verdict verdict = check_at(from_picture({"WW"}), Colour::White, 0, 2);
  ASSERT_TRUE(verdict.legal());
  EXPECT_TRUE(verdict.series.empty());
  EXPECT_FALSE(verdict.marker.has_value());
}

// --- Rule 4: a carré is always illegal ----------------------------------------------------

TEST(IrmaRule4, CarreIsAlwaysIllegal) {
  const ri::Verdict verdict = check_at(from_picture({"RRR"}), Colour::Red, 0, 3);
  EXPECT_EQ(verdict.reason, Reason::Carre);
  EXPECT_THAT(verdict.cells, ElementsAre(Cell{0, 0}, Cell{0, 1}, Cell{0, 2}, Cell{0, 3}));
  // Joining two pairs makes a run of five: still a carré.
  EXPECT_EQ(check_at(from_picture({"GG.GG"}), Colour::Green, 0, 2).reason, Reason::Carre);
  // Also on a diagonal, and also when another series would be allowed.
  EXPECT_EQ(check_at(from_picture({"O...", ".O..", "..O."}), Colour::Orange, 3, 3).reason,
            Reason::Carre);
}

TEST(IrmaRule4, WhiteRunOfFourIsStillACarre) {
  EXPECT_EQ(check_at(from_picture({"WWW"}), Colour::White, 0, 3).reason, Reason::Carre);
}

// --- Rule 5: no two identical series in a row ---------------------------------------------

TEST(IrmaRule5, SeriesOfTheLastScoredKindIsRefused) {
  const ri::State state = from_picture({"GG", "..", "RR"}, SeriesKind::Brelan);
  const ri::Verdict refused = check_at(state, Colour::Green, 0, 2);
  EXPECT_EQ(refused.reason, Reason::RepeatedSeries);
  EXPECT_THAT(refused.cells, ElementsAre(Cell{0, 0}, Cell{0, 1}, Cell{0, 2}));
  // A pair or a suite may follow a brelan.
  EXPECT_TRUE(check_at(state, Colour::Green, 1, 2).legal());
}

TEST(IrmaRule5, SeedExampleGreenFormingSuiteAndBrelanAfterBrelanIsRefused) {
  // The illustrated example: an orange brelan (column 1) was just scored; the drawn green at the
  // cross (2,2) would form a suite on the diagonal R(0,0) O(1,1) and a brelan with the greens
  // above it. The suite is allowed, the brelan is not, so the placement is refused.
  const std::vector<std::string> picture = {"R.G.", ".OG.", ".O..", ".O.."};
  const ri::State after_brelan = from_picture(picture, SeriesKind::Brelan);
  const ri::Verdict verdict = check_at(after_brelan, Colour::Green, 2, 2);
  EXPECT_EQ(verdict.reason, Reason::RepeatedSeries);
  EXPECT_THAT(verdict.cells, ElementsAre(Cell{0, 2}, Cell{1, 2}, Cell{2, 2}));
  // The same cell after a pair: both series are allowed, the suite earns the marker.
  const ri::Verdict after_pair =
      check_at(from_picture(picture, SeriesKind::Pair), Colour::Green, 2, 2);
  ASSERT_TRUE(after_pair.legal());
  EXPECT_THAT(kinds(after_pair), ElementsAre(SeriesKind::Brelan, SeriesKind::Suite));
  EXPECT_EQ(after_pair.marker, SeriesKind::Suite);
}

TEST(IrmaRule5, LastScoredSeriesPersistsAcrossTurnsWithoutSeries) {
  ri::State state = from_picture({"RR"});
  ri::play(state, Move::place(Colour::Red, {0, 2}));  // brelan
  ASSERT_EQ(state.last_series, SeriesKind::Brelan);
  ri::play(state, Move::place(Colour::White, {1, 0}));  // no series
  EXPECT_EQ(state.last_series, SeriesKind::Brelan);
  ri::play(state, Move::place(Colour::Orange, {-1, 0}));
  ri::play(state, Move::place(Colour::Orange, {-1, 1}));  // pair
  ri::play(state, Move::place(Colour::White, {1, 2}));    // no series
  EXPECT_EQ(check_at(state, Colour::Orange, -2, 1).reason, Reason::RepeatedSeries);
}

TEST(IrmaRule5, VariantPreviousTurnOnlyIsClearedByATurnWithoutSeries) {
  ri::Options options;
  options.repeat_rule = ri::RepeatRule::PreviousTurn;
  ri::State state = ri::initial_state(options);
  arbitre::testing::irma::draw(state, {"OO"});
  state.last_series = SeriesKind::Pair;
  EXPECT_EQ(check_at(state, Colour::Red, 1, 0).reason, Reason::None);
  ri::play(state, Move::place(Colour::White, {1, 0}));  // no series: clears the memory
  EXPECT_FALSE(state.last_series.has_value());
  EXPECT_TRUE(check_at(state, Colour::Red, 1, 1).legal());     // a pair? no: red alone, still legal
  EXPECT_TRUE(check_at(state, Colour::Orange, 1, 1).legal());  // orange pair (0,1)-(1,1) allowed
}

// --- Rule 6: one marker only, the highest ------------------------------------------------

TEST(IrmaRule6, SeveralSeriesScoreOnlyTheHighestMarker) {
  // Green at (1,2): a suite R O G on row 1 and a pair with the green above.
  ri::State state = from_picture({"..G", "RO."});
  const ri::Verdict verdict = check_at(state, Colour::Green, 1, 2);
  EXPECT_THAT(kinds(verdict), ElementsAre(SeriesKind::Pair, SeriesKind::Suite));
  EXPECT_EQ(verdict.marker, SeriesKind::Suite);
  ri::play(state, Move::place(Colour::Green, {1, 2}));
  EXPECT_THAT(state.pile, ElementsAre(SeriesKind::Suite));
  EXPECT_EQ(state.last_series, SeriesKind::Suite);
}

TEST(IrmaRule6, ThreePairsEarnOnePairMarker) {
  ri::State state = from_picture({"OO", "O."});
  const ri::Verdict verdict = check_at(state, Colour::Orange, 1, 1);
  EXPECT_THAT(kinds(verdict), ElementsAre(SeriesKind::Pair, SeriesKind::Pair, SeriesKind::Pair));
  ri::play(state, Move::place(Colour::Orange, {1, 1}));
  EXPECT_THAT(state.pile, ElementsAre(SeriesKind::Pair));
}

TEST(IrmaRule6, PlacementWithoutSeriesIsLegalAndScoresNothing) {
  ri::State state = from_picture({"RO"}, SeriesKind::Suite);
  const ri::Verdict verdict = check_at(state, Colour::White, 1, 0);
  ASSERT_TRUE(verdict.legal());
  EXPECT_FALSE(verdict.marker.has_value());
  ri::play(state, Move::place(Colour::White, {1, 0}));
  EXPECT_TRUE(state.pile.empty());
}

// --- Rule 7: white pions do not touch, unless forced ---------------------------------------

TEST(IrmaRule7, WhiteMayNotTouchAnotherWhite) {
  const ri::State state = from_picture({"WR"});
  const ri::Verdict verdict = check_at(state, Colour::White, 1, 1);
  EXPECT_EQ(verdict.reason, Reason::WhiteNextToWhite);
  EXPECT_THAT(verdict.cells, ElementsAre(Cell{1, 1}, Cell{0, 0}));
  EXPECT_THAT(ri::legal_cells(state, Colour::White),
              UnorderedElementsAre(Cell{-1, 2}, Cell{0, 2}, Cell{1, 2}));
}

TEST(IrmaRule7, WhiteMayTouchWhiteWhenEveryLegalCellDoes) {
  const ri::State state = almost_full();  // the only empty cell (4,6) touches the white (3,6)
  const ri::Verdict verdict = check_at(state, Colour::White, 4, 6);
  EXPECT_TRUE(verdict.legal());
  EXPECT_THAT(ri::legal_cells(state, Colour::White), ElementsAre(Cell{4, 6}));
}

// --- Rule 8: blocking ends the game at once, without bonus --------------------------------

TEST(IrmaRule8, BlockedPionEndsTheGameWithoutBonus) {
  ri::State state = almost_full();
  state.last_series = SeriesKind::Suite;  // red at (4,6) would repeat the suite
  EXPECT_TRUE(ri::legal_cells(state, Colour::Red).empty());
  const Move claim = Move::block_claim(Colour::Red);
  EXPECT_TRUE(ri::check(state, claim).legal());
  EXPECT_THAT(ri::legal_moves(state, Colour::Red), ElementsAre(claim));
  const int red_left = state.remaining(Colour::Red);
  ri::play(state, claim);
  EXPECT_EQ(state.status, ri::Status::Blocked);
  EXPECT_EQ(state.remaining(Colour::Red), red_left - 1);  // a true blocking takes the pion
  EXPECT_EQ(ri::check(state, Move::place(Colour::Green, {4, 6})).reason, Reason::GameOver);
}

// --- Rule 12: refusals and their codes -----------------------------------------------------

TEST(IrmaRule12, ClaimOfBlockingWhileACellIsLegalIsRefused) {
  const ri::State state = almost_full();
  const ri::Verdict verdict = ri::check(state, Move::block_claim(Colour::Red));
  EXPECT_EQ(verdict.reason, Reason::NotBlocked);
  EXPECT_THAT(verdict.cells, ElementsAre(Cell{4, 6}));
}

TEST(IrmaRule12, MovesAfterTheEndAreRefusedWithGameOver) {
  ri::State state = almost_full();
  ri::play(state, Move::place(Colour::Red, {4, 6}));
  EXPECT_EQ(ri::check(state, Move::place(Colour::Red, {5, 0})).reason, Reason::GameOver);
  EXPECT_EQ(ri::check(state, Move::block_claim(Colour::Red)).reason, Reason::GameOver);
  EXPECT_TRUE(ri::legal_moves(state, Colour::Red).empty());
}

TEST(IrmaRule12, RefusedTriesAreNotDrawsAndLeaveTheBoardUnchanged) {
  ri::Record record;
  record.moves = {Move::place(Colour::Red, {0, 0}), Move::place(Colour::Red, {0, 1}),
                  Move::place(Colour::Red, {0, 2}), Move::place(Colour::Red, {0, 3}),
                  Move::place(Colour::Red, {5, 5}), Move::place(Colour::Red, {1, 0})};
  ri::State state;
  std::vector<Reason> reasons;
  ASSERT_FALSE(ri::replay(record, state, [&](const Move&, const ri::Verdict& v, const ri::State&) {
    reasons.push_back(v.reason);
  }));
  // Pair, then a brelan, then a carré refused, far away refused, then a pair again... after a
  // brelan a pair is allowed.
  EXPECT_THAT(reasons, ElementsAre(Reason::None, Reason::None, Reason::None, Reason::Carre,
                                   Reason::NotAdjacent, Reason::None));
  EXPECT_EQ(state.board.size(), 4);
  EXPECT_EQ(state.remaining(Colour::Red), 12 - 4);
}

TEST(IrmaRule12, RecordMustPlaceARefusedPionAgain) {
  ri::Record record;
  record.moves = {Move::place(Colour::Red, {0, 0}), Move::place(Colour::Green, {4, 4}),
                  Move::place(Colour::Orange, {0, 1})};
  ri::State state;
  const auto error = ri::replay(record, state);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->move, 2u);
  EXPECT_EQ(error->field, "colour");
  EXPECT_THAT(error->message, ::testing::HasSubstr("refused green"));
}

TEST(IrmaRule12, RecordCannotDrawMorePionsThanTheBagHolds) {
  ri::Record record;
  record.options.bag = {12, 14, 16, 1};
  record.options.bag[0] = 20;  // keep the bag at 35 pions or more
  record.moves = {Move::place(Colour::White, {0, 0}), Move::place(Colour::Red, {0, 1}),
                  Move::place(Colour::White, {0, 2})};
  ri::State state;
  const auto error = ri::replay(record, state);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->move, 2u);
  EXPECT_THAT(error->message, ::testing::HasSubstr("bag holds only 1"));
}

// --- Rule 14 / variants: options ----------------------------------------------------------

TEST(IrmaRule14, DefaultOptionsAreTheBoxContents) {
  const ri::Options options;
  EXPECT_EQ(options.bag, (std::array<int, 4>{12, 14, 16, 10}));
  EXPECT_EQ(options.marker_stock, (std::array<int, 3>{15, 12, 11}));
  EXPECT_EQ(options.repeat_rule, ri::RepeatRule::LastScored);
  EXPECT_EQ(ri::initial_state().bag_size(), 52);
}

TEST(IrmaVariant, BagCountsAreOptions) {
  ri::Options options;
  options.bag = {20, 10, 10, 0};
  const ri::State state = ri::initial_state(options);
  EXPECT_EQ(state.bag_size(), 40);
  EXPECT_FALSE(ri::validate(options).has_value());
  options.bag = {10, 10, 10, 0};
  const auto error = ri::validate(options);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->field, "options.bag");
}

// --- Text forms ---------------------------------------------------------------------------

TEST(IrmaText, MovesRoundTrip) {
  for (const Move& move :
       {Move::place(Colour::Orange, {-3, 12}), Move::block_claim(Colour::White)}) {
    EXPECT_EQ(ri::move_from_text(ri::to_text(move)), move);
  }
  EXPECT_EQ(ri::to_text(Move::place(Colour::Red, {2, 3})), "red 2,3");
  EXPECT_FALSE(ri::move_from_text("purple 1,1").has_value());
  EXPECT_FALSE(ri::move_from_text("red 1;1").has_value());
}

// --- Perft: legal cells from fixed boards, counted by hand ---------------------------------

TEST(IrmaPerft, OnePionHasEightNeighbours) {
  const ri::State state = from_picture({"R"});
  for (const Colour colour : ri::kAllColours) {
    EXPECT_EQ(ri::legal_cells(state, colour).size(), 8u) << ri::to_string(colour);
  }
}

TEST(IrmaPerft, TwoPionsHaveTenNeighboursAndOneSuiteCell) {
  const ri::State state = from_picture({"RO"});
  std::vector<ri::Placement> legal;
  ri::legal_placements(state, Colour::Green, legal);
  EXPECT_EQ(legal.size(), 10u);
  EXPECT_EQ(count_marker(legal, SeriesKind::Suite), 1);
  EXPECT_EQ(count_marker(legal, std::nullopt), 9);
}

TEST(IrmaPerft, LShapeCountsByColourAndMemory) {
  // R O / G . : 12 cells touch the three pions ((2,2) touches none).
  const ri::State state = from_picture({"RO", "G."});
  std::vector<ri::Placement> legal;
  ri::legal_placements(state, Colour::Green, legal);
  EXPECT_EQ(legal.size(), 12u);
  EXPECT_EQ(count_marker(legal, SeriesKind::Pair), 6);
  EXPECT_EQ(count_marker(legal, SeriesKind::Suite), 1);  // (0,2): R O G
  ri::legal_placements(state, Colour::Red, legal);
  EXPECT_EQ(legal.size(), 12u);
  EXPECT_EQ(count_marker(legal, SeriesKind::Pair), 6);
  EXPECT_EQ(count_marker(legal, SeriesKind::Suite), 1);  // (-1,2): R O G on the anti-diagonal
  // After a pair, the six pair cells are refused.
  ri::legal_placements(from_picture({"RO", "G."}, SeriesKind::Pair), Colour::Green, legal);
  EXPECT_EQ(legal.size(), 6u);
}

TEST(IrmaPerft, FullRowOfSevenOnlyGrowsUpOrDown) {
  // 20 cells touch the row; the two at its ends would make it eight long.
  EXPECT_EQ(ri::legal_cells(from_picture({"ROROROR"}), Colour::Green).size(), 14u);
  EXPECT_EQ(ri::legal_cells(from_picture({"ROROROR"}), Colour::Red).size(), 14u);
}

TEST(IrmaPerft, ColumnOfSixMayStillGrowBothWays) {
  // 18 cells touch it; a seventh row is allowed since the rectangle may stand 7x5.
  EXPECT_EQ(ri::legal_cells(from_picture({"R", "O", "R", "O", "R", "O"}), Colour::Green).size(),
            18u);
}

TEST(IrmaPerft, AlmostFullRectangleByColour) {
  const ri::State state = almost_full();
  EXPECT_EQ(ri::legal_cells(state, Colour::Red).size(), 1u);
  ri::State after_suite = state;
  after_suite.last_series = SeriesKind::Suite;
  EXPECT_EQ(ri::legal_cells(after_suite, Colour::Red).size(), 0u);
  EXPECT_EQ(ri::legal_cells(after_suite, Colour::Green).size(), 1u);
  ri::State after_pair = state;
  after_pair.last_series = SeriesKind::Pair;
  EXPECT_EQ(ri::legal_cells(after_pair, Colour::Green).size(), 0u);   // pair with (4,5)
  EXPECT_EQ(ri::legal_cells(after_pair, Colour::Orange).size(), 0u);  // pair with (3,5)
}

// --- Random playouts: invariants over thousands of seeded games ----------------------------

namespace {

bool connected(const ri::Board& board) {
  const auto pions = board.pions();
  if (pions.empty()) return true;
  std::set<Cell> cells;
  for (const auto& [cell, colour] : pions) cells.insert(cell);
  std::set<Cell> seen = {pions.front().first};
  std::queue<Cell> todo;
  todo.push(pions.front().first);
  while (!todo.empty()) {
    const Cell at = todo.front();
    todo.pop();
    for (int dr = -1; dr <= 1; ++dr) {
      for (int dc = -1; dc <= 1; ++dc) {
        const Cell next{at.row + dr, at.col + dc};
        if (cells.count(next) && seen.insert(next).second) todo.push(next);
      }
    }
  }
  return seen.size() == cells.size();
}

int longest_run(const ri::Board& board) {
  int longest = 0;
  for (const auto& [cell, colour] : board.pions()) {
    for (const auto& [dr, dc] : {std::pair{0, 1}, {1, 0}, {1, 1}, {1, -1}}) {
      int length = 1;
      while (board.at({cell.row + length * dr, cell.col + length * dc}) == colour) ++length;
      longest = std::max(longest, length);
    }
  }
  return longest;
}

}  // namespace

TEST(IrmaPlayouts, InvariantsHoldOverThousandsOfSeededGames) {
  std::mt19937_64 rng(20261129);
  std::vector<ri::Placement> legal;
  int completed = 0;
  for (int game = 0; game < 2000; ++game) {
    ri::Options options;
    if (game % 2) options.repeat_rule = ri::RepeatRule::PreviousTurn;
    ri::State state = ri::initial_state(options);
    ri::Record record{options, {}};
    while (!ri::is_over(state)) {
      // Draw from the bag.
      int pick = static_cast<int>(rng() % static_cast<std::uint64_t>(state.bag_size()));
      Colour colour = Colour::Red;
      for (const Colour c : ri::kAllColours) {
        if (pick < state.remaining(c)) {
          colour = c;
          break;
        }
        pick -= state.remaining(c);
      }
      ri::legal_placements(state, colour, legal);
      // legal_placements and check agree on every cell around the board, markers included.
      if (!state.board.empty() && game % 4 == 0) {
        const Cell tl = state.board.top_left();
        for (int r = tl.row - 2; r <= tl.row + state.board.height() + 1; ++r) {
          for (int c = tl.col - 2; c <= tl.col + state.board.width() + 1; ++c) {
            const ri::Verdict v = check_at(state, colour, r, c);
            const auto it = std::find_if(legal.begin(), legal.end(), [&](const ri::Placement& p) {
              return p.cell == Cell{r, c};
            });
            ASSERT_EQ(v.legal(), it != legal.end()) << "game " << game << " cell " << r << "," << c;
            if (v.legal()) {
              ASSERT_EQ(v.marker, it->marker);
            }
          }
        }
      }
      const Move move = legal.empty() ? Move::block_claim(colour)
                                      : Move::place(colour, legal[rng() % legal.size()].cell);
      ASSERT_TRUE(ri::check(state, move).legal());
      ri::play(state, move);
      record.moves.push_back(move);
      ASSERT_TRUE(state.board.height() <= 7 && state.board.width() <= 7);
      ASSERT_TRUE((state.board.height() <= 5) || (state.board.width() <= 5));
      ASSERT_LE(longest_run(state.board), 3);
    }
    EXPECT_TRUE(connected(state.board));
    const int drawn = state.drawn[0] + state.drawn[1] + state.drawn[2] + state.drawn[3];
    EXPECT_EQ(drawn, state.board.size() + (state.status == ri::Status::Blocked ? 1 : 0));
    EXPECT_EQ(state.status == ri::Status::Completed, state.board.size() == ri::kRectCells);
    if (state.status == ri::Status::Completed) {
      ++completed;
      EXPECT_EQ(state.board.height() * state.board.width(), ri::kRectCells);
    }
    // Replaying the record reproduces the game exactly.
    ri::State replayed;
    ASSERT_FALSE(ri::replay(record, replayed).has_value());
    ASSERT_EQ(replayed, state);
  }
  EXPECT_GT(completed, 0);
}
