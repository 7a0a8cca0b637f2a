#include "app/cli/detect_commands.h"

#include <algorithm>
#include <cmath>

#include <fstream>

#include "data/input_error.h"
#include "data/json_reader.h"
#include "vision/pions.h"

namespace arbitre::app::detect {

namespace {

constexpr const char* kColourNames[] = {"red", "orange", "green", "white"};

vision::ColourCalibration load_calibration(const std::string& path) {
  const data::JsonReader reader(path);
  const auto root = reader.parse(data::read_text_file(path));
  if (!root.is_object()) reader.fail("top level", "expected an object {\"red\": [L, a, b], ...}");
  reader.only_keys(root, {"red", "orange", "green", "white", "image"}, "top level");
  vision::ColourCalibration calibration;
  for (std::size_t c = 0; c < 4; ++c) {
    const auto& entry = reader.field(root, kColourNames[c], "top level");
    if (!entry.is_array() || entry.size() != 3 || !entry[0].is_number() || !entry[1].is_number() ||
        !entry[2].is_number()) {
      reader.fail(kColourNames[c], "expected three numbers [lightness, a, b]");
    }
    for (std::size_t k = 0; k < 3; ++k) calibration.colour[c][k] = entry[k].get<double>();
  }
  return calibration;
}

}  // namespace

nlohmann::ordered_json calibrate_pions(const std::string& image, const std::string& out_file) {
  const vision::ColourCalibration calibration = vision::calibrate_pions_file(image);
  nlohmann::ordered_json out = {{"image", image}};
  for (std::size_t c = 0; c < 4; ++c) {
    out[kColourNames[c]] = {std::round(calibration.colour[c][0] * 100) / 100,
                            std::round(calibration.colour[c][1] * 100) / 100,
                            std::round(calibration.colour[c][2] * 100) / 100};
  }
  std::ofstream file(out_file);
  file << out.dump(2) << "\n";
  if (!file) throw data::InputError(out_file + ": cannot write the calibration");
  return out;
}

nlohmann::ordered_json pions(const std::string& image, const std::string& overlay_png,
                             const std::string& calibration_file) {
  using json = nlohmann::ordered_json;
  vision::DetectOptions options;
  options.overlay_png = overlay_png;
  if (!calibration_file.empty()) options.calibration = load_calibration(calibration_file);
  const vision::PionObservation seen = vision::detect_pions_file(image, options);
  const auto round1 = [](double v) { return std::round(v * 10) / 10; };
  std::vector<vision::PionSighting> sorted = seen.pions;
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.row != b.row ? a.row < b.row : a.col < b.col;
  });
  json pions = json::array();
  for (const auto& p : sorted) {
    pions.push_back({{"row", p.row},
                     {"col", p.col},
                     {"colour", std::string(referee::irma::to_string(p.colour))},
                     {"x", round1(p.x)},
                     {"y", round1(p.y)},
                     {"confidence", std::round(p.confidence * 100) / 100}});
  }
  json rejected = json::array();
  for (const auto& r : seen.rejected) rejected.push_back({{"x", round1(r.x)}, {"y", round1(r.y)}, {"why", r.why}});
  return {{"image", image},
          {"width", seen.width},
          {"height", seen.height},
          {"pitch", round1(seen.pitch)},
          {"pions", pions},
          {"rejected", rejected}};
}

}  // namespace arbitre::app::detect
