// `arbitre detect dice IMAGE [--overlay OUT.png] [--zones ZONES.json]`: read the ten d10 in one
// image. Bad images throw vision::ImageFileError; bad zone files data::InputError.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "vision/dice.h"
#include "vision/observation.h"

namespace arbitre::app::detect {

// One die seen: value (null when cocked or unreadable), colour, cocked, zone, position (-1 for a
// die typed in by the players) and confidence (and the texture when the reader told it).
nlohmann::ordered_json die_json(const vision::DieSighting& die);

// Every die seen: value (null when cocked or unreadable), colour, cocked, zone, position and
// confidence (and the texture with `textures`); with `overlay_png`, also writes the debug
// overlay there.
nlohmann::ordered_json dice(const std::string& image, const std::string& overlay_png = "",
                            const std::string& zones_file = "", bool textures = false);

}  // namespace arbitre::app::detect
