#include "vision/pions.h"

#include <opencv2/imgcodecs.hpp>

#include "vision/common/image_io.h"
#include "vision/pions/detector.h"

namespace arbitre::vision {

PionObservation detect_pions_file(const std::string& path) { return pions::detect(load_image(path)).observation; }

PionObservation detect_pions_file(const std::string& path, const std::string& overlay_png) {
  const cv::Mat image = load_image(path);
  const pions::Detection detection = pions::detect(image);
  if (!cv::imwrite(overlay_png, pions::draw_overlay(image, detection))) {
    throw ImageFileError(overlay_png + ": cannot write the overlay");
  }
  return detection.observation;
}

PionObservation detect_pions_bytes(const std::vector<unsigned char>& bytes, const std::string& name) {
  return pions::detect(decode_image(bytes, name)).observation;
}

}  // namespace arbitre::vision
