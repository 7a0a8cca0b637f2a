// Reading Irma pions on the table: the vision layer's public entry point for pions.
#pragma once

#include <string>
#include <vector>

#include "vision/observation.h"

namespace arbitre::vision {

// Reads an image file and finds every pion, its cell and colour. Throws ImageFileError for a
// file that is missing, empty, not an image, corrupt or over 50 megapixels.
PionObservation detect_pions_file(const std::string& path);

// The same, writing the debug overlay (pions, rejected candidates, lattice) as a PNG.
PionObservation detect_pions_file(const std::string& path, const std::string& overlay_png);

// The same from encoded image bytes (the fuzz target's entry point).
PionObservation detect_pions_bytes(const std::vector<unsigned char>& bytes, const std::string& name);

}  // namespace arbitre::vision
