// A committed rendered scene of the tests' data: its ground truth and its image.
#pragma once

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <string>
#include <utility>

namespace arbitre::testing {

// tests/data/KIND/SUBDIR/NAME.json and the image it names (empty when it cannot be read).
inline std::pair<nlohmann::json, cv::Mat> committed_scene(const std::string& kind,
                                                          const std::string& subdir,
                                                          const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(ARBITRE_TEST_DATA) / kind / subdir;
  auto truth = nlohmann::json::parse(std::ifstream(dir / (name + ".json")));
  cv::Mat image = cv::imread((dir / truth["image"].get<std::string>()).string());
  return {std::move(truth), std::move(image)};
}

}  // namespace arbitre::testing
