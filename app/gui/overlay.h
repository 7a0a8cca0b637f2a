// Where the game's cells lie in the camera picture, for the live view's overlay: the offset
// between the detector's cells (counted from the top-left pion it saw) and the game's frame, and
// an affine fit from cells to pixels made from the pions seen. Geometry only: no wx, no
// detection (the observation is the pion reader's).
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "referee/irma/irma.h"
#include "vision/observation.h"

namespace arbitre::gui {

namespace ri = referee::irma;

// A refused Irma placement as the views draw it: the cell tried and the cells the referee named
// (game cells). Empty: nothing to draw.
struct Refusal {
  std::optional<ri::Cell> cell;
  std::vector<ri::Cell> cells;
  bool empty() const { return !cell && cells.empty(); }
};

struct CellToPixel {
  // x = x0 + xr * row + xc * col, and the same for y, in the observation's pixels.
  double x0 = 0, xr = 0, xc = 0;
  double y0 = 0, yr = 0, yc = 0;
  std::pair<double, double> operator()(double row, double col) const {
    return {x0 + xr * row + xc * col, y0 + yr * row + yc * col};
  }
};

// The least-squares affine map from the sightings' cells to their pixels; nullopt with fewer
// than three pions or when they lie on one line.
std::optional<CellToPixel> fit_lattice(const std::vector<vision::PionSighting>& pions);

// The shift (drow, dcol) that takes the detector's cells to the game's (game = seen + shift),
// chosen so that most pions seen land on a game pion of the same colour; nullopt when the game
// has no pion or nothing matches.
std::optional<ri::Cell> align_to_game(const std::vector<vision::PionSighting>& pions,
                                      const std::vector<std::pair<ri::Cell, ri::Colour>>& board);

}  // namespace arbitre::gui
