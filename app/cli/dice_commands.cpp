#include "app/cli/dice_commands.h"

#include <algorithm>
#include <cmath>

#include "app/session/calibration.h"

namespace arbitre::app::detect {

namespace {

const char* zone_name(vision::DieZone zone) {
  return zone == vision::DieZone::Tray ? "tray" : zone == vision::DieZone::Kept ? "kept" : "table";
}

}  // namespace

nlohmann::ordered_json die_json(const vision::DieSighting& d) {
  using json = nlohmann::ordered_json;
  const auto round1 = [](double v) { return std::round(v * 10) / 10; };
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
  return die;
}

nlohmann::ordered_json dice(const std::string& image, const std::string& overlay_png,
                            const std::string& zones_file, bool textures) {
  using json = nlohmann::ordered_json;
  vision::DiceDetectOptions options;
  options.overlay_png = overlay_png;
  options.textures = textures;
  if (!zones_file.empty()) options.zones = session::load_zones_file(zones_file);
  const vision::DiceObservation seen = vision::detect_dice_file(image, options);
  std::vector<vision::DieSighting> sorted = seen.dice;
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.x < b.x; });
  json dice = json::array();
  for (const auto& d : sorted) dice.push_back(die_json(d));
  // The camera's angle from overhead as the dice read tell it (null: too few read to tell).
  const json tilt =
      seen.camera_tilt_deg >= 0 ? json(std::round(seen.camera_tilt_deg * 10) / 10) : json(nullptr);
  return {{"image", image},
          {"width", seen.width},
          {"height", seen.height},
          {"camera_tilt_deg", tilt},
          {"dice", dice}};
}

}  // namespace arbitre::app::detect
