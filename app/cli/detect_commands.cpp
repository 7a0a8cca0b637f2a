#include "app/cli/detect_commands.h"

#include <algorithm>
#include <cmath>

#include "vision/pions.h"

namespace arbitre::app::detect {

nlohmann::ordered_json pions(const std::string& image, const std::string& overlay_png) {
  using json = nlohmann::ordered_json;
  const vision::PionObservation seen =
      overlay_png.empty() ? vision::detect_pions_file(image) : vision::detect_pions_file(image, overlay_png);
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
