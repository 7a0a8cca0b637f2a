// `arbitre detect ...` and `arbitre calibrate ...`: recognise one image. Bad images throw
// vision::ImageFileError; bad calibration files data::InputError.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace arbitre::app::detect {

// Every pion with its cell, colour, position and confidence, plus the rejected candidates;
// with `overlay_png`, also writes the debug overlay there; with `calibration_file` (written by
// calibrate_pions), colours are decided by it.
nlohmann::ordered_json pions(const std::string& image, const std::string& overlay_png = "",
                             const std::string& calibration_file = "");

// Measures the colours in an image showing one pion of each colour and writes them to
// `out_file` (JSON); returns what was written.
nlohmann::ordered_json calibrate_pions(const std::string& image, const std::string& out_file);

}  // namespace arbitre::app::detect
