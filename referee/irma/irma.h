// Le jeu d'Irma — the rule engine (RULINGS.md §1, docs/rules/irma.md).
//
// A solitaire: draw a pion (red, orange, green or white) from a bag of 52, place it on an empty
// cell adjacent to the pions already down, keeping every pion inside a 5x7 rectangle. A
// placement forms series on the four lines through it: a pair (1), a brelan (2) or a suite
// red-orange-green (4); the highest one earns a marker. A carré (4 in a row) is forbidden, no
// series may repeat the kind of the last one scored, white pions never form series and may not
// touch each other unless forced. The game ends when the 35th pion completes the rectangle
// (+5 and the "plus") or when a drawn pion has no legal cell (blocking).
//
// Chance is an input: the drawn colour comes with each move. The engine never draws.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "referee/common/cell.h"

namespace arbitre::referee::irma {

using referee::Cell;

enum class Colour : std::uint8_t { Red, Orange, Green, White };
inline constexpr int kColourCount = 4;
inline constexpr std::array<Colour, kColourCount> kAllColours = {Colour::Red, Colour::Orange,
                                                                 Colour::Green, Colour::White};

std::string_view to_string(Colour colour);
// Accepts "red", "orange", "green", "white" (and the French rouge/vert/blanc).
std::optional<Colour> colour_from_string(std::string_view text);

// Ordered by value: the highest kind formed is the one that earns the marker.
enum class SeriesKind : std::uint8_t { Pair, Brelan, Suite };
inline constexpr int kSeriesKindCount = 3;

std::string_view to_string(SeriesKind kind);
// The marker a series earns: pair 1, brelan 2, suite 4.
constexpr int marker_value(SeriesKind kind) {
  return kind == SeriesKind::Pair ? 1 : kind == SeriesKind::Brelan ? 2 : 4;
}

// Which series may not be repeated (ruling 5).
enum class RepeatRule : std::uint8_t {
  LastScored,    // default: the last series scored, even across turns that score nothing
  PreviousTurn,  // variant: only the previous turn's; a turn without a series clears it
};

std::string_view to_string(RepeatRule rule);
std::optional<RepeatRule> repeat_rule_from_string(std::string_view text);

inline constexpr int kRectRows = 5;
inline constexpr int kRectCols = 7;
inline constexpr int kRectCells = kRectRows * kRectCols;
inline constexpr int kCompletionBonus = 5;

struct Options {
  std::array<int, kColourCount> bag = {12, 14, 16, 10};           // variant: counts
  std::array<int, kSeriesKindCount> marker_stock = {15, 12, 11};  // markers 1, 2, 4 in the box
  RepeatRule repeat_rule = RepeatRule::LastScored;                // variant
  bool operator==(const Options&) const = default;
};

// The placed pions, as a value. Cells are absolute lattice coordinates; the first pion may go
// anywhere and later ones stay within reach of it (the 5x7 rectangle), so the board keeps a
// small fixed grid centred on the first pion plus per-cell neighbour counts for fast checks.
class Board {
 public:
  // Span of the internal grid and the grid coordinate of the first pion. Pions lie within 6
  // cells of the first one, candidate cells within 7, and series scans reach 2 further.
  static constexpr int kSpan = 20;
  static constexpr int kOrigin = 10;

  bool empty() const { return count_ == 0; }
  int size() const { return count_; }
  std::optional<Colour> at(Cell cell) const;
  // Precondition: the cell is empty and within reach (see in_reach).
  void place(Cell cell, Colour colour);

  // True when the cell lies within the internal grid; always true on an empty board.
  bool in_reach(Cell cell) const;
  // Number of placed pions touching the cell (any colour / white only). Cell within reach.
  int neighbours(Cell cell) const { return near_[index(cell)]; }
  int white_neighbours(Cell cell) const { return near_white_[index(cell)]; }
  // Bounding box of the placed pions; meaningful when not empty.
  Cell top_left() const { return to_cell(row_min_, col_min_); }
  Cell bottom_right() const { return to_cell(row_max_, col_max_); }
  int height() const { return empty() ? 0 : row_max_ - row_min_ + 1; }
  int width() const { return empty() ? 0 : col_max_ - col_min_ + 1; }
  // Every pion, sorted by cell.
  std::vector<std::pair<Cell, Colour>> pions() const;

  bool operator==(const Board& other) const { return pions() == other.pions(); }

  // Grid access for the engine's fast paths. 0 = empty, colour + 1 otherwise.
  int index(Cell cell) const {
    return (cell.row - origin_.row + kOrigin) * kSpan + (cell.col - origin_.col + kOrigin);
  }
  Cell cell_of(int index) const { return to_cell(index / kSpan, index % kSpan); }
  std::uint8_t code(int index) const { return grid_[index]; }
  int row_min() const { return row_min_; }
  int row_max() const { return row_max_; }
  int col_min() const { return col_min_; }
  int col_max() const { return col_max_; }

 private:
  Cell to_cell(int grid_row, int grid_col) const {
    return {grid_row - kOrigin + origin_.row, grid_col - kOrigin + origin_.col};
  }
  std::array<std::uint8_t, kSpan * kSpan> grid_{};
  std::array<std::uint8_t, kSpan * kSpan> near_{};
  std::array<std::uint8_t, kSpan * kSpan> near_white_{};
  Cell origin_{};
  int count_ = 0;
  int row_min_ = 0, row_max_ = 0, col_min_ = 0, col_max_ = 0;  // grid coordinates
};

// A move is a drawn colour and either the cell it is placed on, or the claim that the drawn
// pion has no legal cell (blocking).
struct Move {
  Colour colour = Colour::Red;
  std::optional<Cell> cell;  // nullopt: blocking claim

  static Move place(Colour colour, Cell cell) { return {colour, cell}; }
  static Move block_claim(Colour colour) { return {colour, std::nullopt}; }
  bool is_block_claim() const { return !cell.has_value(); }
  bool operator==(const Move&) const = default;
};

// "red 2,3" or "white blocked".
std::string to_text(const Move& move);
std::optional<Move> move_from_text(std::string_view text);

// A series formed by a placement: its kind and its cells (2 for a pair, 3 otherwise) along one
// line, in line order.
struct Series {
  SeriesKind kind = SeriesKind::Pair;
  std::vector<Cell> cells;
  bool operator==(const Series&) const = default;
};

// Stable reason codes (the CLI and the GUI print them as is).
enum class Reason : std::uint8_t {
  None,
  NotAdjacent,
  Occupied,
  OutsideRectangle,
  Carre,
  RepeatedSeries,
  WhiteNextToWhite,
  GameOver,
  NotBlocked,
};
std::string_view to_string(Reason reason);

struct Verdict {
  Reason reason = Reason::None;
  std::vector<Cell> cells;           // refused: the cells involved
  std::vector<Series> series;        // legal placement: every series formed
  std::optional<SeriesKind> marker;  // legal placement: the marker earned (the highest)
  bool legal() const { return reason == Reason::None; }
};

enum class Status : std::uint8_t { Playing, Completed, Blocked };

struct State {
  Options options;
  Board board;
  std::array<int, kColourCount> drawn{};  // pions taken out of the bag
  std::vector<SeriesKind> pile;           // markers earned, bottom to top
  std::optional<SeriesKind> last_series;  // the kind the next placement may not form
  Status status = Status::Playing;

  int remaining(Colour colour) const {
    return options.bag[static_cast<int>(colour)] - drawn[static_cast<int>(colour)];
  }
  int bag_size() const;
  bool operator==(const State&) const = default;
};

State initial_state(const Options& options = {});

bool is_over(const State& state);

// The referee's verdict on a move. A refused move leaves the state as it was.
Verdict check(const State& state, const Move& move);

// Plays a move that check() accepts (asserted): the pion leaves the bag, the marker goes on the
// pile, the game ends on completion or blocking.
void play(State& state, const Move& move);
State apply(State state, const Move& move);

// A legal cell for a colour and the marker a placement there would earn.
struct Placement {
  Cell cell;
  std::optional<SeriesKind> marker;
};

// Every legal placement of the colour, sorted by cell, reusing `out`. On an empty board the
// first pion goes anywhere; the single canonical cell (0,0) stands for all of them.
void legal_placements(const State& state, Colour colour, std::vector<Placement>& out);
std::vector<Cell> legal_cells(const State& state, Colour colour);
// The engine surface shared by every game: the legal moves for the drawn colour (a blocking
// claim when there is no legal cell, nothing when the game is over).
std::vector<Move> legal_moves(const State& state, Colour colour);

}  // namespace arbitre::referee::irma
