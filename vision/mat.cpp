#include "vision/mat.h"

#include <opencv2/aruco.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include <sstream>

namespace arbitre::vision {
namespace {

constexpr int kMarkerCells = 6;  // 4x4 data bits and a one-cell black border
constexpr double kPointsPerMm = 72.0 / 25.4;

cv::Ptr<cv::aruco::Dictionary> dictionary() {
  return cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
}

// The marker's cells, 1 = black, row by row from the top.
cv::Mat marker_cells(int id) {
  cv::Mat cells;
  cv::aruco::drawMarker(dictionary(), id, kMarkerCells, cells, 1);
  return cells < 128;
}

// Visits the black cells of the four markers: top-left corner and side, in millimetres.
template <typename Visit>
void for_each_black_cell(const MatLayout& layout, Visit&& visit) {
  const double cell = layout.marker_mm / kMarkerCells;
  for (int id = 0; id < 4; ++id) {
    const cv::Mat cells = marker_cells(id);
    const cv::Point2d origin = layout.marker_corners(id)[0];
    for (int r = 0; r < kMarkerCells; ++r) {
      for (int c = 0; c < kMarkerCells; ++c) {
        if (cells.at<unsigned char>(r, c)) visit(origin.x + c * cell, origin.y + r * cell, cell);
      }
    }
  }
}

}  // namespace

std::optional<MatLayout> MatLayout::named(const std::string& size) {
  if (size == "a4" || size == "A4") return MatLayout{};
  if (size == "a3" || size == "A3") return MatLayout{420, 297, 40, 14};
  return std::nullopt;
}

std::array<cv::Point2d, 4> MatLayout::marker_corners(int id) const {
  const double x = (id == 1 || id == 2) ? width_mm - margin_mm - marker_mm : margin_mm;
  const double y = (id == 2 || id == 3) ? height_mm - margin_mm - marker_mm : margin_mm;
  return {cv::Point2d(x, y), {x + marker_mm, y}, {x + marker_mm, y + marker_mm}, {x, y + marker_mm}};
}

std::string mat_pdf(const MatLayout& layout) {
  std::ostringstream content;
  content.setf(std::ios::fixed);
  content.precision(3);
  const double page_h = layout.height_mm * kPointsPerMm;
  const auto rect = [&](double x_mm, double y_mm, double w_mm, double h_mm) {
    content << x_mm * kPointsPerMm << " " << page_h - (y_mm + h_mm) * kPointsPerMm << " " << w_mm * kPointsPerMm << " "
            << h_mm * kPointsPerMm << " re f\n";
  };
  content << "0 g\n";
  for_each_black_cell(layout, [&](double x, double y, double side) { rect(x, y, side, side); });
  // The play area's frame, a thin grey line between the markers.
  const double inset = layout.margin_mm + layout.marker_mm + 6;
  content << "0.6 G 0.5 w " << inset * kPointsPerMm << " " << inset * kPointsPerMm << " "
          << (layout.width_mm - 2 * inset) * kPointsPerMm << " " << (layout.height_mm - 2 * inset) * kPointsPerMm
          << " re S\n";
  content << "BT /F1 9 Tf 0.4 g " << inset * kPointsPerMm << " " << (layout.margin_mm * 0.6) * kPointsPerMm
          << " Td (Arbitre play mat - print at 100%, markers " << static_cast<int>(layout.marker_mm) << " mm) Tj ET\n";
  const std::string stream = content.str();

  std::ostringstream pdf;
  std::vector<std::size_t> offsets;
  pdf << "%PDF-1.4\n";
  const auto object = [&](const std::string& body) {
    offsets.push_back(static_cast<std::size_t>(pdf.tellp()));
    pdf << offsets.size() << " 0 obj\n" << body << "\nendobj\n";
  };
  object("<< /Type /Catalog /Pages 2 0 R >>");
  object("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
  std::ostringstream page;
  page.setf(std::ios::fixed);
  page.precision(3);
  page << "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 " << layout.width_mm * kPointsPerMm << " " << page_h
       << "] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>";
  object(page.str());
  object("<< /Length " + std::to_string(stream.size()) + " >>\nstream\n" + stream + "endstream");
  object("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  const std::size_t xref = static_cast<std::size_t>(pdf.tellp());
  pdf << "xref\n0 " << offsets.size() + 1 << "\n0000000000 65535 f \n";
  for (const std::size_t offset : offsets) {
    char line[24];
    std::snprintf(line, sizeof line, "%010zu 00000 n \n", offset);
    pdf << line;
  }
  pdf << "trailer\n<< /Size " << offsets.size() + 1 << " /Root 1 0 R >>\nstartxref\n" << xref << "\n%%EOF\n";
  return pdf.str();
}

cv::Mat mat_image(const MatLayout& layout, double dpi) {
  const double px = dpi / 25.4;
  cv::Mat image(static_cast<int>(layout.height_mm * px), static_cast<int>(layout.width_mm * px), CV_8UC3,
                cv::Scalar(255, 255, 255));
  for_each_black_cell(layout, [&](double x, double y, double side) {
    const cv::Point a(static_cast<int>(std::lround(x * px)), static_cast<int>(std::lround(y * px)));
    const cv::Point b(static_cast<int>(std::lround((x + side) * px)) - 1, static_cast<int>(std::lround((y + side) * px)) - 1);
    cv::rectangle(image, a, b, cv::Scalar(0, 0, 0), cv::FILLED);
  });
  return image;
}

std::optional<MatFit> find_mat(const cv::Mat& bgr, const MatLayout& layout) {
  std::vector<std::vector<cv::Point2f>> corners;
  std::vector<int> ids;
  cv::Ptr<cv::aruco::DetectorParameters> params = cv::aruco::DetectorParameters::create();
  params->cornerRefinementMethod = cv::aruco::CORNER_REFINE_SUBPIX;
  cv::aruco::detectMarkers(bgr, dictionary(), corners, ids, params);
  std::vector<cv::Point2f> from, to;
  MatFit fit;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    if (ids[k] < 0 || ids[k] > 3) continue;
    const auto mm = layout.marker_corners(ids[k]);
    for (int c = 0; c < 4; ++c) {
      from.emplace_back(static_cast<float>(mm[c].x), static_cast<float>(mm[c].y));
      to.push_back(corners[k][c]);
    }
    ++fit.markers;
  }
  if (fit.markers < 2) return std::nullopt;
  const cv::Mat h = cv::findHomography(from, to, 0);
  if (h.empty()) return std::nullopt;
  fit.homography = cv::Matx33d(h);
  return fit;
}

}  // namespace arbitre::vision

#include <fstream>

#include <opencv2/imgcodecs.hpp>

#include "vision/mat_file.h"
#include "vision/observation.h"

namespace arbitre::vision {

void write_mat_file(const std::string& path, const std::string& size) {
  const auto layout = MatLayout::named(size);
  if (!layout) throw ImageFileError("--size: \"" + size + "\" is not a paper size Arbitre prints (a4 or a3)");
  const auto ends_with = [&](const std::string& tail) {
    return path.size() >= tail.size() && path.compare(path.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (ends_with(".pdf")) {
    std::ofstream out(path, std::ios::binary);
    out << mat_pdf(*layout);
    if (!out) throw ImageFileError(path + ": cannot write the file");
  } else if (ends_with(".png")) {
    if (!cv::imwrite(path, mat_image(*layout, 300))) throw ImageFileError(path + ": cannot write the file");
  } else {
    throw ImageFileError(path + ": the mat is written as .pdf or .png");
  }
}

}  // namespace arbitre::vision
