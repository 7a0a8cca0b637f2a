#include "referee/irma/irma.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <charconv>

namespace arbitre::referee {

std::string to_text(Cell cell) {
  return std::to_string(cell.row) + "," + std::to_string(cell.col);
}

}  // namespace arbitre::referee

namespace arbitre::referee::irma {
namespace {

constexpr int kSpan = Board::kSpan;
// The four lines through a cell, as steps in the grid: horizontal, vertical, both diagonals.
constexpr std::array<int, 4> kLineSteps = {1, kSpan, kSpan + 1, kSpan - 1};
constexpr std::array<int, 8> kNeighbourSteps = {-kSpan - 1, -kSpan,    -kSpan + 1, -1,
                                                1,          kSpan - 1, kSpan,      kSpan + 1};
// Candidate cells lie within 7 of the first pion, i.e. grid coordinates [3, 17].
constexpr int kReachMin = Board::kOrigin - 7;
constexpr int kReachMax = Board::kOrigin + 7;

constexpr std::uint8_t code_of(Colour colour) {
  return static_cast<std::uint8_t>(colour) + 1;
}
constexpr std::uint8_t kRedCode = code_of(Colour::Red);
constexpr std::uint8_t kOrangeCode = code_of(Colour::Orange);
constexpr std::uint8_t kGreenCode = code_of(Colour::Green);
constexpr std::uint8_t kWhiteCode = code_of(Colour::White);

// A series or a carré found by a scan, in grid terms: `length` cells from `start` by `step`.
struct RawRun {
  std::int8_t kind;  // SeriesKind, or kCarre
  std::int16_t start;
  std::int16_t step;
  std::int8_t length;
};
constexpr std::int8_t kCarre = 3;

// Everything a placement forms on the four lines through it. A line holds one same-colour run
// and at most two suites, so 12 entries always suffice.
struct Scan {
  std::array<RawRun, 12> runs;
  int count = 0;
  bool carre = false;
  int best = -1;  // highest SeriesKind formed, -1 for none
  void add(RawRun run) {
    runs[count++] = run;
    if (run.kind == kCarre) {
      carre = true;
    } else {
      best = std::max<int>(best, run.kind);
    }
  }
};

// Scans the four lines through grid cell `at` as if a pion of `colour` stood there (rules 3-4).
Scan scan_lines(const Board& board, int at, Colour colour) {
  Scan scan;
  const std::uint8_t code = code_of(colour);
  const auto value = [&](int i) { return i == at ? code : board.code(i); };
  for (const int step : kLineSteps) {
    int back = 0;
    while (board.code(at - (back + 1) * step) == code) ++back;
    int forth = 0;
    while (board.code(at + (forth + 1) * step) == code) ++forth;
    const int length = 1 + back + forth;
    const auto start = static_cast<std::int16_t>(at - back * step);
    if (length >= 4) {
      scan.add({kCarre, start, static_cast<std::int16_t>(step), static_cast<std::int8_t>(length)});
    } else if (length >= 2 && colour != Colour::White) {
      const auto kind =
          static_cast<std::int8_t>(length == 2 ? SeriesKind::Pair : SeriesKind::Brelan);
      scan.add({kind, start, static_cast<std::int16_t>(step), static_cast<std::int8_t>(length)});
    }
    if (colour == Colour::White) continue;
    for (int offset = -2; offset <= 0; ++offset) {
      const int first = at + offset * step;
      if (value(first + step) != kOrangeCode) continue;
      const std::uint8_t a = value(first);
      const std::uint8_t c = value(first + 2 * step);
      if ((a == kRedCode && c == kGreenCode) || (a == kGreenCode && c == kRedCode)) {
        scan.add({static_cast<std::int8_t>(SeriesKind::Suite), static_cast<std::int16_t>(first),
                  static_cast<std::int16_t>(step), 3});
      }
    }
  }
  return scan;
}

std::vector<Cell> run_cells(const Board& board, const RawRun& run) {
  std::vector<Cell> cells;
  for (int k = 0; k < run.length; ++k) cells.push_back(board.cell_of(run.start + k * run.step));
  return cells;
}

bool grid_in_reach(int grid_row, int grid_col) {
  return grid_row >= kReachMin && grid_row <= kReachMax && grid_col >= kReachMin &&
         grid_col <= kReachMax;
}

bool fits_rectangle(int height, int width) {
  return (height <= kRectRows && width <= kRectCols) || (height <= kRectCols && width <= kRectRows);
}

// Rules 1-2 for a non-empty board: grid cell `at` is empty, touches a pion and keeps the
// pions inside a 5x7 rectangle.
bool fits_after(const Board& board, int grid_row, int grid_col) {
  const int height = std::max(board.row_max(), grid_row) - std::min(board.row_min(), grid_row) + 1;
  const int width = std::max(board.col_max(), grid_col) - std::min(board.col_min(), grid_col) + 1;
  return fits_rectangle(height, width);
}

// Outcome of the colour rules (3-6) for one cell, white rule aside.
struct ColourOutcome {
  Reason reason = Reason::None;
  const RawRun* offending = nullptr;
};

ColourOutcome colour_rules(const Scan& scan, const std::optional<SeriesKind>& last) {
  for (int i = 0; i < scan.count; ++i) {
    if (scan.runs[i].kind == kCarre) return {Reason::Carre, &scan.runs[i]};
  }
  if (last) {
    for (int i = 0; i < scan.count; ++i) {
      if (scan.runs[i].kind == static_cast<std::int8_t>(*last)) {
        return {Reason::RepeatedSeries, &scan.runs[i]};
      }
    }
  }
  return {};
}

// The grid cells where a pion of `colour` passes every rule except the white one, with the
// marker each would earn. Non-empty board only.
template <typename Visit>
void for_each_base_legal(const State& state, Colour colour, Visit&& visit) {
  const Board& board = state.board;
  const int r0 = std::max(board.row_min() - 1, kReachMin);
  const int r1 = std::min(board.row_max() + 1, kReachMax);
  const int c0 = std::max(board.col_min() - 1, kReachMin);
  const int c1 = std::min(board.col_max() + 1, kReachMax);
  for (int r = r0; r <= r1; ++r) {
    for (int c = c0; c <= c1; ++c) {
      const int at = r * kSpan + c;
      if (board.code(at) != 0 || board.neighbours(board.cell_of(at)) == 0) continue;
      if (!fits_after(board, r, c)) continue;
      const Scan scan = scan_lines(board, at, colour);
      if (colour_rules(scan, state.last_series).reason != Reason::None) continue;
      visit(at, scan.best);
    }
  }
}

std::optional<SeriesKind> to_marker(int best) {
  if (best < 0) return std::nullopt;
  return static_cast<SeriesKind>(best);
}

}  // namespace

// --- names -------------------------------------------------------------------------------

std::string_view to_string(Colour colour) {
  switch (colour) {
    case Colour::Red:
      return "red";
    case Colour::Orange:
      return "orange";
    case Colour::Green:
      return "green";
    case Colour::White:
      return "white";
  }
  return "?";
}

std::optional<Colour> colour_from_string(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (lower == "red" || lower == "rouge") return Colour::Red;
  if (lower == "orange") return Colour::Orange;
  if (lower == "green" || lower == "vert") return Colour::Green;
  if (lower == "white" || lower == "blanc") return Colour::White;
  return std::nullopt;
}

std::string_view to_string(SeriesKind kind) {
  switch (kind) {
    case SeriesKind::Pair:
      return "pair";
    case SeriesKind::Brelan:
      return "brelan";
    case SeriesKind::Suite:
      return "suite";
  }
  return "?";
}

std::string_view to_string(RepeatRule rule) {
  return rule == RepeatRule::LastScored ? "last-scored" : "previous-turn";
}

std::optional<RepeatRule> repeat_rule_from_string(std::string_view text) {
  if (text == "last-scored") return RepeatRule::LastScored;
  if (text == "previous-turn") return RepeatRule::PreviousTurn;
  return std::nullopt;
}

std::string_view to_string(Reason reason) {
  switch (reason) {
    case Reason::None:
      return "legal";
    case Reason::NotAdjacent:
      return "not-adjacent";
    case Reason::Occupied:
      return "occupied";
    case Reason::OutsideRectangle:
      return "outside-rectangle";
    case Reason::Carre:
      return "carre";
    case Reason::RepeatedSeries:
      return "repeated-series";
    case Reason::WhiteNextToWhite:
      return "white-next-to-white";
    case Reason::GameOver:
      return "game-over";
    case Reason::NotBlocked:
      return "not-blocked";
  }
  return "?";
}

std::string to_text(const Move& move) {
  std::string text(to_string(move.colour));
  text += ' ';
  text += move.cell ? referee::to_text(*move.cell) : std::string("blocked");
  return text;
}

std::optional<Move> move_from_text(std::string_view text) {
  const auto space = text.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const auto colour = colour_from_string(text.substr(0, space));
  if (!colour) return std::nullopt;
  const std::string_view rest = text.substr(space + 1);
  if (rest == "blocked") return Move::block_claim(*colour);
  const auto comma = rest.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  Cell cell;
  const auto parse = [](std::string_view part, int& value) {
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    return error == std::errc() && end == part.data() + part.size() && !part.empty();
  };
  if (!parse(rest.substr(0, comma), cell.row) || !parse(rest.substr(comma + 1), cell.col)) {
    return std::nullopt;
  }
  return Move::place(*colour, cell);
}

// --- Board -------------------------------------------------------------------------------

std::optional<Colour> Board::at(Cell cell) const {
  if (empty() || !in_reach(cell)) return std::nullopt;
  const std::uint8_t value = grid_[index(cell)];
  if (value == 0) return std::nullopt;
  return static_cast<Colour>(value - 1);
}

bool Board::in_reach(Cell cell) const {
  if (empty()) return true;
  return grid_in_reach(cell.row - origin_.row + kOrigin, cell.col - origin_.col + kOrigin);
}

void Board::place(Cell cell, Colour colour) {
  if (empty()) {
    origin_ = cell;
    row_min_ = row_max_ = col_min_ = col_max_ = kOrigin;
  }
  assert(in_reach(cell));
  const int at = index(cell);
  assert(grid_[at] == 0);
  grid_[at] = code_of(colour);
  ++count_;
  const int r = at / kSpan;
  const int c = at % kSpan;
  row_min_ = std::min(row_min_, r);
  row_max_ = std::max(row_max_, r);
  col_min_ = std::min(col_min_, c);
  col_max_ = std::max(col_max_, c);
  for (const int step : kNeighbourSteps) {
    ++near_[at + step];
    if (colour == Colour::White) ++near_white_[at + step];
  }
}

std::vector<std::pair<Cell, Colour>> Board::pions() const {
  std::vector<std::pair<Cell, Colour>> out;
  if (empty()) return out;
  out.reserve(count_);
  for (int r = row_min_; r <= row_max_; ++r) {
    for (int c = col_min_; c <= col_max_; ++c) {
      const std::uint8_t value = grid_[r * kSpan + c];
      if (value != 0) out.emplace_back(to_cell(r, c), static_cast<Colour>(value - 1));
    }
  }
  return out;
}

// --- State -------------------------------------------------------------------------------

int State::bag_size() const {
  int total = 0;
  for (const Colour colour : kAllColours) total += remaining(colour);
  return total;
}

State initial_state(const Options& options) {
  State state;
  state.options = options;
  return state;
}

bool is_over(const State& state) {
  return state.status != Status::Playing;
}

// --- legality ----------------------------------------------------------------------------

void legal_placements(const State& state, Colour colour, std::vector<Placement>& out) {
  out.clear();
  if (is_over(state)) return;
  const Board& board = state.board;
  if (board.empty()) {
    out.push_back({Cell{0, 0}, std::nullopt});
    return;
  }
  if (colour != Colour::White) {
    for_each_base_legal(state, colour, [&](int at, int best) {
      out.push_back({board.cell_of(at), to_marker(best)});
    });
    return;
  }
  // Rule 7: cells touching a white pion only when every legal cell touches one.
  bool free_cell_exists = false;
  for_each_base_legal(state, colour, [&](int at, int best) {
    const bool touches_white = board.white_neighbours(board.cell_of(at)) > 0;
    if (!touches_white && !free_cell_exists) {
      free_cell_exists = true;
      out.clear();
    }
    if (!touches_white || !free_cell_exists) out.push_back({board.cell_of(at), to_marker(best)});
  });
}

std::vector<Cell> legal_cells(const State& state, Colour colour) {
  std::vector<Placement> placements;
  legal_placements(state, colour, placements);
  std::vector<Cell> cells;
  cells.reserve(placements.size());
  for (const Placement& placement : placements) cells.push_back(placement.cell);
  return cells;
}

std::vector<Move> legal_moves(const State& state, Colour colour) {
  std::vector<Move> moves;
  if (is_over(state)) return moves;
  for (const Cell cell : legal_cells(state, colour)) moves.push_back(Move::place(colour, cell));
  if (moves.empty()) moves.push_back(Move::block_claim(colour));
  return moves;
}

Verdict check(const State& state, const Move& move) {
  Verdict verdict;
  const auto refuse = [&](Reason reason, std::vector<Cell> cells) {
    verdict.reason = reason;
    verdict.cells = std::move(cells);
    return verdict;
  };
  if (is_over(state)) return refuse(Reason::GameOver, {});
  const Board& board = state.board;

  if (move.is_block_claim()) {
    const std::vector<Cell> cells = legal_cells(state, move.colour);
    if (!cells.empty()) return refuse(Reason::NotBlocked, cells);
    return verdict;
  }

  const Cell cell = *move.cell;
  if (board.empty()) return verdict;  // the first pion goes anywhere and forms nothing
  if (board.at(cell)) return refuse(Reason::Occupied, {cell});
  if (!board.in_reach(cell) || board.neighbours(cell) == 0) {
    return refuse(Reason::NotAdjacent, {cell});
  }
  const int at = board.index(cell);
  const int r = at / kSpan;
  const int c = at % kSpan;
  if (!fits_after(board, r, c)) {
    // Name the new cell and, for each span it stretches, a pion at the opposite edge.
    std::vector<Cell> cells = {cell};
    const auto pions = board.pions();
    const auto add_far = [&](auto far_edge) {
      const auto it = std::find_if(pions.begin(), pions.end(), far_edge);
      if (it != pions.end()) cells.push_back(it->first);
    };
    const Cell top_left = board.top_left();
    const Cell bottom_right = board.bottom_right();
    if (r < board.row_min())
      add_far([&](const auto& p) { return p.first.row == bottom_right.row; });
    if (r > board.row_max()) add_far([&](const auto& p) { return p.first.row == top_left.row; });
    if (c < board.col_min())
      add_far([&](const auto& p) { return p.first.col == bottom_right.col; });
    if (c > board.col_max()) add_far([&](const auto& p) { return p.first.col == top_left.col; });
    return refuse(Reason::OutsideRectangle, cells);
  }
  const Scan scan = scan_lines(board, at, move.colour);
  const ColourOutcome outcome = colour_rules(scan, state.last_series);
  if (outcome.reason != Reason::None) {
    return refuse(outcome.reason, run_cells(board, *outcome.offending));
  }
  if (move.colour == Colour::White && board.white_neighbours(cell) > 0) {
    bool free_cell_exists = false;
    for_each_base_legal(state, Colour::White, [&](int other, int) {
      if (board.white_neighbours(board.cell_of(other)) == 0) free_cell_exists = true;
    });
    if (free_cell_exists) {
      std::vector<Cell> cells = {cell};
      for (const int step : kNeighbourSteps) {
        if (board.code(at + step) == kWhiteCode) cells.push_back(board.cell_of(at + step));
      }
      return refuse(Reason::WhiteNextToWhite, cells);
    }
  }
  for (int i = 0; i < scan.count; ++i) {
    const RawRun& run = scan.runs[i];
    verdict.series.push_back({static_cast<SeriesKind>(run.kind), run_cells(board, run)});
  }
  verdict.marker = to_marker(scan.best);
  return verdict;
}

void play(State& state, const Move& move) {
  assert(check(state, move).legal());
  ++state.drawn[static_cast<int>(move.colour)];
  if (move.is_block_claim()) {
    state.status = Status::Blocked;
    return;
  }
  const Cell cell = *move.cell;
  int best = -1;
  if (!state.board.empty())
    best = scan_lines(state.board, state.board.index(cell), move.colour).best;
  state.board.place(cell, move.colour);
  if (best >= 0) {
    state.pile.push_back(static_cast<SeriesKind>(best));
    state.last_series = static_cast<SeriesKind>(best);
  } else if (state.options.repeat_rule == RepeatRule::PreviousTurn) {
    state.last_series.reset();
  }
  if (state.board.size() == kRectCells) state.status = Status::Completed;
}

State apply(State state, const Move& move) {
  play(state, move);
  return state;
}

}  // namespace arbitre::referee::irma
