// The printable play mat: its PDF, and the homography found from a photographed mat.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "vision/mat.h"

namespace v = arbitre::vision;

TEST(PlayMat, PdfIsOnePageAtTheSheetSize) {
  const std::string pdf = v::mat_pdf(*v::MatLayout::named("a4"));
  EXPECT_EQ(pdf.rfind("%PDF-1.4", 0), 0u);
  EXPECT_THAT(pdf, ::testing::HasSubstr("/MediaBox [0 0 841.890 595.276]"));  // 297 x 210 mm
  EXPECT_THAT(pdf, ::testing::HasSubstr("%%EOF"));
  EXPECT_THAT(v::mat_pdf(*v::MatLayout::named("a3")), ::testing::HasSubstr("/MediaBox [0 0 1190.551 841.890]"));
  EXPECT_FALSE(v::MatLayout::named("letter").has_value());
}

TEST(PlayMat, HomographyRoundTripThroughAPerspectiveView) {
  const v::MatLayout layout;
  const double dpi = 100;
  const cv::Mat sheet = v::mat_image(layout, dpi);
  // Photograph it: a perspective warp onto a 1280x720 wooden-coloured frame.
  const double px = dpi / 25.4;
  const std::vector<cv::Point2f> sheet_corners = {{0, 0}, {static_cast<float>(sheet.cols), 0},
                                                  {static_cast<float>(sheet.cols), static_cast<float>(sheet.rows)},
                                                  {0, static_cast<float>(sheet.rows)}};
  const std::vector<cv::Point2f> seen = {{260, 90}, {1010, 120}, {1120, 650}, {170, 610}};
  const cv::Mat warp = cv::getPerspectiveTransform(sheet_corners, seen);
  cv::Mat frame(720, 1280, CV_8UC3, cv::Scalar(60, 110, 160));
  cv::warpPerspective(sheet, frame, warp, frame.size(), cv::INTER_LINEAR, cv::BORDER_TRANSPARENT);
  const auto fit = v::find_mat(frame, layout);
  ASSERT_TRUE(fit.has_value());
  EXPECT_EQ(fit->markers, 4);
  // Points of the play area land where the warp put them, within a pixel.
  const cv::Matx33d truth = cv::Matx33d(warp) * cv::Matx33d(px, 0, 0, 0, px, 0, 0, 0, 1);
  for (const cv::Point2d mm : {cv::Point2d(148.5, 105), cv::Point2d(60, 60), cv::Point2d(240, 170)}) {
    const cv::Vec3d a = fit->homography * cv::Vec3d(mm.x, mm.y, 1);
    const cv::Vec3d b = truth * cv::Vec3d(mm.x, mm.y, 1);
    EXPECT_NEAR(a[0] / a[2], b[0] / b[2], 1.0);
    EXPECT_NEAR(a[1] / a[2], b[1] / b[2], 1.0);
  }
}

TEST(PlayMat, NoMatInAPlainFrame) {
  const cv::Mat frame(720, 1280, CV_8UC3, cv::Scalar(60, 110, 160));
  EXPECT_FALSE(v::find_mat(frame, v::MatLayout{}).has_value());
}
