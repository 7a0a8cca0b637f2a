// `arbitre detect ...`: recognise one image. Bad images throw vision::ImageFileError.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace arbitre::app::detect {

// Every pion with its cell, colour, position and confidence, plus the rejected candidates;
// with `overlay_png`, also writes the debug overlay there.
nlohmann::ordered_json pions(const std::string& image, const std::string& overlay_png = "");

}  // namespace arbitre::app::detect
