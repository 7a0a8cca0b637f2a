// Boards for the Irma tests, set up directly (Board::place ignores the rules) so that each test
// starts from exactly the position it names.
#pragma once

#include <string>
#include <vector>

#include "referee/irma/irma.h"

namespace arbitre::testing::irma {

namespace ri = referee::irma;

// Places pions from a picture: one string per row from `top_left`, letters R O G W, '.' empty.
inline void draw(ri::State& state, const std::vector<std::string>& rows,
                 ri::Cell top_left = {0, 0}) {
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t c = 0; c < rows[r].size(); ++c) {
      const char ch = rows[r][c];
      if (ch == '.') continue;
      const ri::Colour colour = ch == 'R'   ? ri::Colour::Red
                                : ch == 'O' ? ri::Colour::Orange
                                : ch == 'G' ? ri::Colour::Green
                                            : ri::Colour::White;
      const ri::Cell cell{top_left.row + static_cast<int>(r), top_left.col + static_cast<int>(c)};
      state.board.place(cell, colour);
      ++state.drawn[static_cast<int>(colour)];
    }
  }
}

inline ri::State from_picture(const std::vector<std::string>& rows,
                              std::optional<ri::SeriesKind> last = std::nullopt,
                              const ri::Options& options = {}) {
  ri::State state = ri::initial_state(options);
  draw(state, rows);
  state.last_series = last;
  return state;
}

// The 5x7 rectangle filled with colour (r + 2c) mod 4 (no two equal colours touch along a
// line), the bottom-right cell (4,6) left empty. The cell would take a red; it touches a white
// at (3,6), a green at (4,5) (a red there would close a suite green-orange-red on the diagonal
// (2,4) (3,5)), so the colour rules decide whether a pion fits.
inline ri::State almost_full() {
  std::vector<std::string> rows;
  const char letters[] = {'R', 'O', 'G', 'W'};
  for (int r = 0; r < 5; ++r) {
    std::string row;
    for (int c = 0; c < 7; ++c) row += (r == 4 && c == 6) ? '.' : letters[(r + 2 * c) % 4];
    rows.push_back(row);
  }
  return from_picture(rows);
}

}  // namespace arbitre::testing::irma
