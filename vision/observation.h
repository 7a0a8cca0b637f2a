// What the vision layer reports: domain types only (no OpenCV type leaves vision/).
#pragma once

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "referee/irma/irma.h"
#include "referee/yams/dice.h"

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

// One d10 seen on the table (Le Yams impossible). `value` is the face read on top (1..10, a
// printed 0 is 10); 0 when it could not be read. A cocked die (leaning, no face up) has no value
// to score and must be rolled again.
enum class DieZone {
  Tray,   // just rolled, in the dice tray
  Kept,   // set aside in front of the player (not rolled again)
  Table,  // rolled on the open table, no tray (counts as rolled, like Tray)
};

struct DieSighting {
  int value = 0;
  referee::yams::DieColour colour = referee::yams::DieColour::Red;
  std::optional<referee::yams::Texture> texture;  // when the reader can tell
  DieZone zone = DieZone::Tray;
  double x = 0;  // centre in the image (pixels)
  double y = 0;
  double confidence = 0;
  bool cocked = false;
};

struct DiceObservation {
  int width = 0;  // of the image (0 when unknown, e.g. scripted)
  int height = 0;
  std::vector<DieSighting> dice;
  // The camera's angle from straight overhead (degrees) as the dice read tell it; -1 when too few
  // dice were read to tell. Dice are read surest within 20 degrees (docs/vision.md, "Where to put
  // the camera").
  double camera_tilt_deg = -1;
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
