// Reading the ten d10 of Le Yams impossible: the vision layer's public entry point for dice.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "vision/observation.h"

namespace arbitre::vision {

// The tray and the kept area in image pixels (a one-time calibration: `arbitre detect dice
// IMAGE --zones zones.json`). No tray: every die is on the Table. A tray and no kept area:
// every die outside the tray is Kept.
struct DiceZones {
  std::vector<std::pair<double, double>> tray;
  std::vector<std::pair<double, double>> kept;
};

// The camera's angle from overhead (DiceObservation::camera_tilt_deg) within which the dice are
// read surest: on 2,500 rendered images (2,300 of them looked at while the reader was tuned),
// opaque dice seen from 0-20 degrees were read right at 99.7-99.8%, from 20-30 at 99.3%, from
// 30-35 at 97.8%; on 600 newer images read once, 99.5% within 20 and 96.3% from 30-35
// (docs/benchmarks.md). Advice, not a bound within which the figures hold.
constexpr double kDiceSurestTiltDeg = 20;

struct DiceDetectOptions {
  std::string overlay_png;  // also write the debug overlay here
  DiceZones zones;
  bool textures = false;  // the dice are textured: report frosted / transparent
};

// Reads an image file and reads every die: value (0 when unreadable), colour, cocked, zone,
// position and confidence. Throws ImageFileError for a file that is missing, empty, not an
// image, corrupt or over 50 megapixels.
DiceObservation detect_dice_file(const std::string& path, const DiceDetectOptions& options = {});

// The same from encoded image bytes (the fuzz target's entry point).
DiceObservation detect_dice_bytes(const std::vector<unsigned char>& bytes, const std::string& name,
                                  const DiceDetectOptions& options = {});

}  // namespace arbitre::vision
