#include "vision/dice.h"

#include <opencv2/imgcodecs.hpp>

#include "vision/common/image_io.h"
#include "vision/dice/detector.h"

namespace arbitre::vision {

dice::Params dice::params_for(const DiceDetectOptions& options) {
  Params params;
  params.textures = options.textures;
  for (const auto& [x, y] : options.zones.tray) params.zones.tray.emplace_back(x, y);
  for (const auto& [x, y] : options.zones.kept) params.zones.kept.emplace_back(x, y);
  return params;
}

namespace {

DiceObservation run(const cv::Mat& image, const DiceDetectOptions& options) {
  const dice::Params params = dice::params_for(options);
  const dice::Detection detection = dice::detect(image, params);
  if (!options.overlay_png.empty() &&
      !cv::imwrite(options.overlay_png, dice::draw_overlay(image, detection, params))) {
    throw ImageFileError(options.overlay_png + ": cannot write the overlay");
  }
  return detection.observation;
}

}  // namespace

DiceObservation detect_dice_file(const std::string& path, const DiceDetectOptions& options) {
  return run(load_image(path), options);
}

DiceObservation detect_dice_bytes(const std::vector<unsigned char>& bytes, const std::string& name,
                                  const DiceDetectOptions& options) {
  return run(decode_image(bytes, name), options);
}

}  // namespace arbitre::vision
