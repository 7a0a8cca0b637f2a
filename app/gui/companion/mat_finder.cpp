#include "app/gui/companion/mat_finder.h"

#include "vision/common/image_io.h"
#include "vision/mat.h"
#include "vision/observation.h"

namespace arbitre::app::gui::companion {

std::optional<MatFound> find_mat_in_file(const std::string& image, const std::string& paper) {
  const auto layout = vision::MatLayout::named(paper);
  if (!layout) throw vision::ImageFileError("\"" + paper + "\" is not a paper size Arbitre prints (a4 or a3)");
  const auto fit = vision::find_mat(vision::load_image(image), *layout);
  if (!fit) return std::nullopt;
  MatFound out;
  out.markers = fit->markers;
  const double mm[4][2] = {{0, 0}, {layout->width_mm, 0}, {layout->width_mm, layout->height_mm}, {0, layout->height_mm}};
  const cv::Matx33d& h = fit->homography;
  for (int k = 0; k < 4; ++k) {
    const cv::Vec3d p = h * cv::Vec3d(mm[k][0], mm[k][1], 1.0);
    out.corners[static_cast<std::size_t>(k)] = {p[0] / p[2], p[1] / p[2]};
  }
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) out.homography[static_cast<std::size_t>(r * 3 + c)] = h(r, c);
  }
  return out;
}

}  // namespace arbitre::app::gui::companion
