// The camera calibrations a session reads with: the colour profile of the pions (Irma) and the
// dice zones (Yams), as JSON files written by `arbitre calibrate` / by hand, and as the store's
// calibrations (kept per camera, so that the next session starts calibrated). Shared by the CLI
// and the GUI.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "data/json_reader.h"
#include "data/store/store.h"
#include "vision/dice.h"
#include "vision/observation.h"

namespace arbitre::app::session {

// The store's names for the two kinds of calibration.
inline constexpr const char* kColoursCalibration = "colours";
inline constexpr const char* kZonesCalibration = "zones";

// {"red": [L, a, b], "orange": ..., "green": ..., "white": ...} (an "image" member is allowed).
// Errors name the reader's source and the field.
vision::ColourCalibration colours_from_json(const data::JsonReader& reader, const nlohmann::json& root);
nlohmann::ordered_json colours_to_json(const vision::ColourCalibration& calibration);

// {"tray": [[x, y], ...], "kept": [[x, y], ...]} in image pixels, "kept" optional (without it,
// every die outside the tray is kept); an "image" member is allowed.
vision::DiceZones zones_from_json(const data::JsonReader& reader, const nlohmann::json& root);
nlohmann::ordered_json zones_to_json(const vision::DiceZones& zones);

// The same from files (data::InputError naming the file, line or field).
vision::ColourCalibration load_colours_file(const std::string& path);
vision::DiceZones load_zones_file(const std::string& path);

// What a camera reads with, and where it came from.
struct CameraCalibration {
  std::optional<vision::ColourCalibration> colours;
  std::optional<vision::DiceZones> zones;
  std::string from;  // "file", "store" (with the saved time), or "" when there is none
  std::string saved_at;
};

// The calibration of `camera` for a game of `kind`: read from `file` when one is given (and
// then saved in the store for that camera, so that next time it is not needed), else the latest
// one the store holds for that camera, else none. A stored payload that no longer reads is an
// InputError naming the store, the camera and the field.
CameraCalibration calibration_for(data::store::Store& store, const std::string& camera,
                                  data::store::GameKind kind, const std::string& file);

}  // namespace arbitre::app::session
