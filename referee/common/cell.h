// Lattice cells shared by every board game of Arbitre.
#pragma once

#include <compare>
#include <string>

namespace arbitre::referee {

// A cell of the square lattice the pieces form: rows top to bottom, columns left to right.
struct Cell {
  int row = 0;
  int col = 0;
  constexpr auto operator<=>(const Cell&) const = default;
};

// "2,3" — the text form used in messages and move notation.
std::string to_text(Cell cell);

// True when the two cells touch horizontally, vertically or diagonally.
constexpr bool adjacent(Cell a, Cell b) {
  const int dr = a.row - b.row;
  const int dc = a.col - b.col;
  return (dr != 0 || dc != 0) && dr >= -1 && dr <= 1 && dc >= -1 && dc <= 1;
}

}  // namespace arbitre::referee
