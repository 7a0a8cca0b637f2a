// Where the game's cells lie in the camera picture, for the live view's overlay: the offset
// between the detector's cells (counted from the top-left pion it saw) and the game's frame, and
// an affine fit from cells to pixels made from the pions seen. Geometry only: no wx, no
// detection (the observation is the pion reader's).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "referee/irma/irma.h"
#include "referee/yams/dice.h"
#include "vision/observation.h"

namespace arbitre::gui {

namespace ri = referee::irma;
namespace ry = referee::yams;

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

namespace arbitre::gui {

// How the live view lays a frame out: scaled to fit the view, centred (letterboxed). The
// drawing and the hit-testing of a click both go through it.
struct ViewFit {
  double scale = 1;
  int ox = 0, oy = 0;  // the frame's top-left corner in the view
  int w = 0, h = 0;    // the frame's size in the view
  // A frame pixel in the view, and a view point in the frame.
  std::pair<int, int> to_view(double x, double y) const;
  std::pair<double, double> to_frame(int vx, int vy) const {
    return {(vx - ox) / scale, (vy - oy) / scale};
  }
  bool inside(int vx, int vy) const { return vx >= ox && vy >= oy && vx < ox + w && vy < oy + h; }
};
ViewFit fit_view(int view_width, int view_height, int frame_width, int frame_height);

// The pion sighting at a frame point: the nearest one whose centre lies within its drawn radius
// (0.42 of the lattice pitch, as the live view outlines it; `min_radius` when the pitch is
// unknown or smaller), nullopt when none does.
std::optional<std::size_t> pion_at(const vision::PionObservation& seen, double x, double y,
                                   double min_radius = 0);
// The game cell of a sighting: its detector cell shifted onto the game's board (align_to_game);
// nullopt when the sighting cannot be placed (no game pion to align to).
std::optional<ri::Cell> game_cell(const vision::PionObservation& seen, std::size_t index,
                                  const std::vector<std::pair<ri::Cell, ri::Colour>>& board);

// The die sighting at a frame point: the nearest whose square of side `side` (as drawn, in frame
// pixels) holds the point.
std::optional<std::size_t> die_at(const vision::DiceObservation& seen, double x, double y, double side);
// The game's number (0-9) of the die a sighting shows: a die of the last roll that the camera
// read with the same face and colour (texture when both know it), one that lies aside exactly when
// the sighting is in the kept area first; `taken` dice are skipped. Dice that are alike in all of that
// are interchangeable for a correction (the game does not tell them apart), so the lowest number
// is given. nullopt when no die of the roll matches (the dice moved since).
std::optional<int> die_number(const vision::DieSighting& die, const ry::Dice& seen, std::uint16_t aside,
                              std::uint16_t taken = 0);

}  // namespace arbitre::gui
