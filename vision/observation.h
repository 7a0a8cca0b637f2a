// What the vision layer reports: domain types only (no OpenCV type leaves vision/).
#pragma once

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "referee/irma/irma.h"

namespace arbitre::vision {

// One pion seen on the table: its lattice cell (the minimum row and column are 0, rows top to
// bottom in the image), its colour, where it is in the image (pixels), and how sure we are.
struct PionSighting {
  int row = 0;
  int col = 0;
  referee::irma::Colour colour = referee::irma::Colour::Red;
  double x = 0;
  double y = 0;
  double confidence = 0;
};

// A candidate the detector looked at and did not report, for a debug overlay.
struct Rejected {
  double x = 0;
  double y = 0;
  std::string why;
};

struct PionObservation {
  int width = 0;   // of the image
  int height = 0;
  std::vector<PionSighting> pions;
  std::vector<Rejected> rejected;
  double pitch = 0;  // lattice pitch near the board centre, in pixels (0 when not found)
};

// How each colour's pions look on this table under this light, from an image showing one pion
// of each colour: lightness relative to the scene's white (x100) and a, b relative to it, per
// referee::irma::Colour. Saved by the app; given back to the reader, it decides the colours.
struct ColourCalibration {
  std::array<std::array<double, 3>, 4> colour{};
};

// A bad image file (missing, not an image, corrupt, empty, too large): the message names the
// file and the problem.
class ImageFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace arbitre::vision
