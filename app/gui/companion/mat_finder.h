// Finding the printed play mat in a still image, for the calibration assistant, with domain types
// only (vision's find_mat takes a cv::Mat; vision has no file-based variant yet, so this file is,
// with app/session/camera_source.cpp, one of the two places in app/ that touch OpenCV types).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>

namespace arbitre::app::gui::companion {

struct MatFound {
  int markers = 0;  // ArUco markers seen (2 to 4)
  // The sheet's corners in image pixels: top left, top right, bottom right, bottom left.
  std::array<std::pair<double, double>, 4> corners{};
  // Mat millimetres -> image pixels, row by row.
  std::array<double, 9> homography{};
};

// Reads `image` and looks for the mat of paper `paper` ("a4" or "a3"). nullopt when fewer than
// two markers are seen. Throws vision::ImageFileError for a bad image or an unknown paper size.
std::optional<MatFound> find_mat_in_file(const std::string& image, const std::string& paper);

}  // namespace arbitre::app::gui::companion
