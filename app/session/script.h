// Scripted observations: a JSON file standing in for the camera (tests, demos, `arbitre watch
// --script FILE`). Each step shows one picture for some frames, or gives a command:
//
//   {"game": "irma",            optional: "irma" or "yams", checked against --game
//    "fps": 10,                 optional: frames per second of the scripted camera (default 10)
//    "steps": [
//      {"board": ["RO.", ".G."], "frames": 10},   Irma pions as rows of R O G W and '.'
//      {"pions": [{"row": 0, "col": 1, "colour": "red", "x": 50, "y": 50, "confidence": 0.9}]},
//      {"board": [], "frames": 3},                nothing seen (a hand hides the board)
//      {"dice": "7r 10w 3r 3r 5w 1r 2r 9w 9w 4r", "kept": [2, 3], "xy": [[100, 200], ...]},
//      {"dice": [{"value": 7, "colour": "red", "texture": "frosted", "zone": "kept",
//                 "x": 100, "y": 200, "confidence": 0.9, "cocked": false}, ...],
//       "width": 1280, "height": 720},
//      {"command": "box chiffre-7"},              a command, as typed on stdin
//      {"lost": "the camera was unplugged"}, {"reconnected": true},
//      {"comment": "..."}]}                       ignored
//
// A picture is shown for `frames` frames (default: one second's worth), 1/fps apart. Pions are
// reported as the detector reports them: the top-left pion's row and the leftmost column are 0
// (a board picture is shifted so). In the string form of dice, `kept` lists the dice (indices in
// the string) in the kept area, `cocked` the cocked ones, `xy` every die's position in the image
// (then `width` defaults to 1280 and `height` to 720); without positions, the session tells a
// new roll from the dice left lying only by their faces. Zones: "tray", "kept", "table".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/session/source.h"
#include "data/store/store.h"

namespace arbitre::app::session {

struct Script {
  std::optional<data::store::GameKind> game;
  std::vector<SourceStep> steps;
};

// Throws data::InputError "<source>: <where>: <problem>" (line and column for bad JSON, the
// step and field otherwise).
Script parse_script(const std::string& text, const std::string& source);
Script load_script(const std::string& path);

}  // namespace arbitre::app::session
