// The printable play mat: four ArUco markers (4x4, ids 0-3) at the corners of an A4 or A3
// sheet (landscape), a frame for the play area. Found in a frame, it gives the homography from
// the table plane (millimetres on the mat) to the image.
#pragma once

#include <opencv2/core.hpp>

#include <optional>
#include <string>

namespace arbitre::vision {

struct MatLayout {
  double width_mm = 297;   // landscape A4
  double height_mm = 210;
  double marker_mm = 30;   // side of each marker, its black border included
  double margin_mm = 12;   // from the sheet's edge to the markers

  static std::optional<MatLayout> named(const std::string& size);  // "a4" or "a3"
  // The four corners of marker `id` (0 top left, 1 top right, 2 bottom right, 3 bottom left),
  // clockwise from its top left, in millimetres.
  std::array<cv::Point2d, 4> marker_corners(int id) const;
};

// The mat as a one-page vector PDF (exact sizes when printed at 100%).
std::string mat_pdf(const MatLayout& layout);
// The mat as an image at `dpi` dots per inch (white paper, black ink).
cv::Mat mat_image(const MatLayout& layout, double dpi);

// Finds the mat's markers in a BGR frame: the homography from mat millimetres to pixels, and
// how many of the four markers were seen (at least two are needed).
struct MatFit {
  cv::Matx33d homography = cv::Matx33d::eye();
  int markers = 0;
};
std::optional<MatFit> find_mat(const cv::Mat& bgr, const MatLayout& layout);

}  // namespace arbitre::vision
