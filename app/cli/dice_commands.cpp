#include "app/cli/dice_commands.h"

#include <algorithm>
#include <cmath>

#include "data/input_error.h"
#include "data/json_reader.h"

namespace arbitre::app::detect {

namespace {

std::vector<std::pair<double, double>> polygon(const data::JsonReader& reader,
                                               const nlohmann::json& value,
                                               const std::string& where) {
  if (!value.is_array() || value.size() < 3)
    reader.fail(where, "expected at least three points [x, y]");
  std::vector<std::pair<double, double>> points;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const auto& p = value[i];
    if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number()) {
      reader.fail(data::JsonReader::element(where, i, "point"), "expected [x, y] in image pixels");
    }
    points.emplace_back(p[0].get<double>(), p[1].get<double>());
  }
  return points;
}

const char* zone_name(vision::DieZone zone) {
  return zone == vision::DieZone::Tray ? "tray" : zone == vision::DieZone::Kept ? "kept" : "table";
}

}  // namespace

vision::DiceZones load_zones(const std::string& path) {
  const data::JsonReader reader(path);
  const auto root = reader.parse(data::read_text_file(path));
  if (!root.is_object()) reader.fail("top level", "expected an object {\"tray\": [[x, y], ...]}");
  reader.only_keys(root, {"tray", "kept", "image"}, "top level");
  vision::DiceZones zones;
  zones.tray = polygon(reader, reader.field(root, "tray", "top level"), "tray");
  if (root.contains("kept")) zones.kept = polygon(reader, root["kept"], "kept");
  return zones;
}

nlohmann::ordered_json dice(const std::string& image, const std::string& overlay_png,
                            const std::string& zones_file, bool textures) {
  using json = nlohmann::ordered_json;
  vision::DiceDetectOptions options;
  options.overlay_png = overlay_png;
  options.textures = textures;
  if (!zones_file.empty()) options.zones = load_zones(zones_file);
  const vision::DiceObservation seen = vision::detect_dice_file(image, options);
  const auto round1 = [](double v) { return std::round(v * 10) / 10; };
  std::vector<vision::DieSighting> sorted = seen.dice;
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.x < b.x; });
  json dice = json::array();
  for (const auto& d : sorted) {
    json die = {{"value", d.value > 0 && !d.cocked ? json(d.value) : json(nullptr)},
                {"colour", d.colour == referee::yams::DieColour::Red ? "red" : "white"},
                {"cocked", d.cocked},
                {"zone", zone_name(d.zone)},
                {"x", round1(d.x)},
                {"y", round1(d.y)},
                {"confidence", std::round(d.confidence * 100) / 100}};
    if (d.texture) {
      die["texture"] = *d.texture == referee::yams::Texture::Frosted       ? "frosted"
                       : *d.texture == referee::yams::Texture::Transparent ? "transparent"
                                                                           : "none";
    }
    dice.push_back(die);
  }
  return {{"image", image}, {"width", seen.width}, {"height", seen.height}, {"dice", dice}};
}

}  // namespace arbitre::app::detect
