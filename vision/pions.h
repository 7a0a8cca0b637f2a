// Reading Irma pions on the table: the vision layer's public entry point for pions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "vision/observation.h"

namespace arbitre::vision {

struct DetectOptions {
  std::string overlay_png;                       // also write the debug overlay here
  std::optional<ColourCalibration> calibration;  // decide colours by it
};

// Reads an image file and finds every pion, its cell and colour. Throws ImageFileError for a
// file that is missing, empty, not an image, corrupt or over 50 megapixels.
PionObservation detect_pions_file(const std::string& path, const DetectOptions& options = {});

// Reads an image showing exactly one pion of each colour and measures how each colour looks.
// Throws ImageFileError when the image is bad or does not show one pion of each colour.
ColourCalibration calibrate_pions_file(const std::string& path);

// The same from encoded image bytes (the fuzz target's entry point).
PionObservation detect_pions_bytes(const std::vector<unsigned char>& bytes, const std::string& name);

}  // namespace arbitre::vision
