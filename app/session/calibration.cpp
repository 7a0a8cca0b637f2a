#include "app/session/calibration.h"

#include <cmath>

#include "data/input_error.h"

namespace arbitre::app::session {
namespace {

using json = nlohmann::json;
constexpr const char* kColourNames[] = {"red", "orange", "green", "white"};

std::vector<std::pair<double, double>> polygon(const data::JsonReader& reader, const json& value,
                                               const std::string& where) {
  if (!value.is_array() || value.size() < 3) reader.fail(where, "expected at least three points [x, y]");
  std::vector<std::pair<double, double>> points;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const json& p = value[i];
    if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number()) {
      reader.fail(data::JsonReader::element(where, i, "point"), "expected [x, y] in image pixels");
    }
    points.emplace_back(p[0].get<double>(), p[1].get<double>());
  }
  return points;
}

nlohmann::ordered_json polygon_json(const std::vector<std::pair<double, double>>& points) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& [x, y] : points) out.push_back({x, y});
  return out;
}

}  // namespace

vision::ColourCalibration colours_from_json(const data::JsonReader& reader, const json& root) {
  if (!root.is_object()) reader.fail("top level", "expected an object {\"red\": [L, a, b], ...}");
  reader.only_keys(root, {"red", "orange", "green", "white", "image"}, "top level");
  vision::ColourCalibration calibration;
  for (std::size_t c = 0; c < 4; ++c) {
    const json& entry = reader.field(root, kColourNames[c], "top level");
    if (!entry.is_array() || entry.size() != 3 || !entry[0].is_number() || !entry[1].is_number() ||
        !entry[2].is_number()) {
      reader.fail(kColourNames[c], "expected three numbers [lightness, a, b]");
    }
    for (std::size_t k = 0; k < 3; ++k) calibration.colour[c][k] = entry[k].get<double>();
  }
  return calibration;
}

nlohmann::ordered_json colours_to_json(const vision::ColourCalibration& calibration) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (std::size_t c = 0; c < 4; ++c) {
    nlohmann::ordered_json lab = nlohmann::ordered_json::array();
    for (std::size_t k = 0; k < 3; ++k) lab.push_back(std::round(calibration.colour[c][k] * 100) / 100);
    out[kColourNames[c]] = lab;
  }
  return out;
}

vision::DiceZones zones_from_json(const data::JsonReader& reader, const json& root) {
  if (!root.is_object()) reader.fail("top level", "expected an object {\"tray\": [[x, y], ...]}");
  reader.only_keys(root, {"tray", "kept", "image"}, "top level");
  vision::DiceZones zones;
  zones.tray = polygon(reader, reader.field(root, "tray", "top level"), "tray");
  if (root.contains("kept")) zones.kept = polygon(reader, root["kept"], "kept");
  return zones;
}

nlohmann::ordered_json zones_to_json(const vision::DiceZones& zones) {
  nlohmann::ordered_json out = {{"tray", polygon_json(zones.tray)}};
  if (!zones.kept.empty()) out["kept"] = polygon_json(zones.kept);
  return out;
}

vision::ColourCalibration load_colours_file(const std::string& path) {
  const data::JsonReader reader(path);
  return colours_from_json(reader, reader.parse(data::read_text_file(path)));
}

vision::DiceZones load_zones_file(const std::string& path) {
  const data::JsonReader reader(path);
  return zones_from_json(reader, reader.parse(data::read_text_file(path)));
}

CameraCalibration calibration_for(data::store::Store& store, const std::string& camera,
                                  data::store::GameKind kind, const std::string& file) {
  const bool irma = kind == data::store::GameKind::Irma;
  const char* name = irma ? kColoursCalibration : kZonesCalibration;
  CameraCalibration out;
  if (!file.empty()) {
    if (irma) {
      out.colours = load_colours_file(file);
      store.save_calibration(camera, name, colours_to_json(*out.colours));
    } else {
      out.zones = load_zones_file(file);
      store.save_calibration(camera, name, zones_to_json(*out.zones));
    }
    out.from = "file";
    return out;
  }
  const auto saved = store.latest_calibration(camera, name);
  if (!saved) return out;
  const data::JsonReader reader(store.path() + ": calibration " + std::to_string(saved->id) +
                                " (" + name + ", camera " + camera + ")");
  if (irma) {
    out.colours = colours_from_json(reader, saved->payload);
  } else {
    out.zones = zones_from_json(reader, saved->payload);
  }
  out.from = "store";
  out.saved_at = saved->saved_at;
  return out;
}

}  // namespace arbitre::app::session
