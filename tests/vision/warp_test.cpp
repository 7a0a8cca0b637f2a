#include "vision/common/warp.h"

#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

namespace arbitre::vision {
namespace {

// Byte for byte what cv::warpAffine gives with bilinear interpolation and replicated borders:
// grey and colour images, whole and parts of larger ones, turned, scaled (up and down),
// sheared, shifted partly or wholly off the image, given forward or inverse.
TEST(Warp, LinearIsOpenCvsWarpAffineToTheByte) {
  cv::RNG rng(23);
  int compared = 0;
  for (int i = 0; i < 400; ++i) {
    const int type = i % 3 == 0 ? CV_8UC3 : CV_8UC1;
    cv::Mat whole(rng.uniform(1, 240), rng.uniform(1, 320), type);
    rng.fill(whole, cv::RNG::UNIFORM, 0, 256);
    cv::GaussianBlur(whole, whole, cv::Size(3, 3), 0);  // neighbours related, as in photos
    cv::Mat src = whole;
    if (i % 4 == 1 && whole.cols > 4 && whole.rows > 4) {
      src = whole(cv::Rect(1, 2, whole.cols - 3, whole.rows - 3));  // not continuous
    }
    const cv::Point2f centre(static_cast<float>(rng.uniform(-20.0, src.cols + 20.0)),
                             static_cast<float>(rng.uniform(-20.0, src.rows + 20.0)));
    cv::Mat m = cv::getRotationMatrix2D(centre, rng.uniform(-180.0, 180.0), rng.uniform(0.05, 3.0));
    if (i % 5 == 0) m.at<double>(0, 1) += rng.uniform(-0.5, 0.5);  // sheared
    m.at<double>(0, 2) += rng.uniform(-60.0, 60.0);
    m.at<double>(1, 2) += rng.uniform(-60.0, 60.0);
    const cv::Size size(rng.uniform(1, 80), rng.uniform(1, 80));
    const bool inverse = i % 7 == 0;
    cv::Mat expected, got;
    cv::warpAffine(src, expected, m, size, cv::INTER_LINEAR | (inverse ? cv::WARP_INVERSE_MAP : 0),
                   cv::BORDER_REPLICATE);
    warp_linear(src, got, m, size, inverse);
    ASSERT_EQ(got.size(), expected.size());
    ASSERT_EQ(got.type(), expected.type());
    EXPECT_EQ(cv::norm(got, expected, cv::NORM_INF), 0)
        << "case " << i << ": " << src.size() << " x" << src.channels() << " -> " << size
        << ", matrix " << m;
    ++compared;
  }
  EXPECT_EQ(compared, 400);
}

// The destination, when it has the size and type already, is written where it is (a row of a
// matrix of crops, as the dice reader gives it).
TEST(Warp, WritesInPlaceIntoAGivenDestination) {
  cv::Mat src(60, 80, CV_8UC1);
  cv::randu(src, 0, 256);
  const cv::Mat m = cv::getRotationMatrix2D(cv::Point2f(40, 30), 30, 0.7);
  cv::Mat rows(3, 28 * 28, CV_8UC1, cv::Scalar(7));
  cv::Mat crop(28, 28, CV_8UC1, rows.ptr(1));
  warp_linear(src, crop, m, crop.size());
  EXPECT_EQ(crop.data, rows.ptr(1));
  cv::Mat expected;
  cv::warpAffine(src, expected, m, cv::Size(28, 28), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  EXPECT_EQ(cv::norm(rows.row(1).reshape(1, 28), expected, cv::NORM_INF), 0);
  EXPECT_EQ(cv::countNonZero(rows.row(0) != 7), 0);  // the rows around untouched
  EXPECT_EQ(cv::countNonZero(rows.row(2) != 7), 0);
}

}  // namespace
}  // namespace arbitre::vision
