#include "vision/pions.h"

#include <opencv2/imgcodecs.hpp>

#include "vision/common/image_io.h"
#include "vision/pions/detector.h"

namespace arbitre::vision {

PionObservation detect_pions_file(const std::string& path, const DetectOptions& options) {
  const cv::Mat image = load_image(path);
  pions::Params params;
  params.calibration = options.calibration;
  const pions::Detection detection = pions::detect(image, params);
  if (!options.overlay_png.empty() && !cv::imwrite(options.overlay_png, pions::draw_overlay(image, detection))) {
    throw ImageFileError(options.overlay_png + ": cannot write the overlay");
  }
  return detection.observation;
}

ColourCalibration calibrate_pions_file(const std::string& path) {
  const pions::Detection detection = pions::detect(load_image(path));
  if (const auto calibration = pions::calibration_of(detection)) return *calibration;
  std::array<int, 4> seen{};
  for (const pions::Detection::Cell& cell : detection.cells) {
    if (cell.label > 0 && cell.confidence >= pions::Params{}.min_confidence)
      ++seen[static_cast<std::size_t>(cell.label - 1)];
  }
  throw ImageFileError(path + ": a calibration image shows exactly one pion of each colour; read " +
                       std::to_string(seen[0]) + " red, " + std::to_string(seen[1]) + " orange, " +
                       std::to_string(seen[2]) + " green, " + std::to_string(seen[3]) + " white");
}

PionObservation detect_pions_bytes(const std::vector<unsigned char>& bytes, const std::string& name) {
  return pions::detect(decode_image(bytes, name)).observation;
}

}  // namespace arbitre::vision
