#include "app/cli/detect_commands.h"

#include <algorithm>
#include <cmath>

#include <fstream>

#include "app/session/calibration.h"
#include "data/input_error.h"
#include "vision/pions.h"

namespace arbitre::app::detect {

nlohmann::ordered_json calibrate_pions(const std::string& image, const std::string& out_file) {
  const vision::ColourCalibration calibration = vision::calibrate_pions_file(image);
  nlohmann::ordered_json out = {{"image", image}};
  out.update(session::colours_to_json(calibration));
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
  if (!calibration_file.empty()) options.calibration = session::load_colours_file(calibration_file);
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
