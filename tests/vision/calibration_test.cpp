// Colour calibration: one pion of each colour measured, then used to decide colours under a
// different light.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/pions.h"

namespace v = arbitre::vision;
namespace ri = arbitre::referee::irma;

namespace {

// Four discs in a 2x2 block on a brown table, colours in `order` (R O G W by default), under a
// light that scales blue, green and red by `tint`.
std::string scene(const std::string& name, std::array<int, 4> order, cv::Vec3d tint = {1, 1, 1}) {
  cv::Mat image(720, 1280, CV_8UC3, cv::Scalar(70, 110, 150));
  const cv::Scalar colours[4] = {{40, 40, 200}, {20, 120, 235}, {60, 160, 40}, {225, 230, 230}};
  for (int k = 0; k < 4; ++k) {
    const cv::Point at(560 + (k % 2) * 80, 320 + (k / 2) * 80);
    cv::circle(image, at + cv::Point(4, 4), 34, cv::Scalar(40, 60, 80), cv::FILLED);  // shadow
    cv::circle(image, at, 34, colours[order[static_cast<std::size_t>(k)]], cv::FILLED);
  }
  cv::Mat noise(image.size(), CV_16SC3), noisy;
  cv::theRNG().state = 5;
  cv::randn(noise, 0, 3);
  image.convertTo(noisy, CV_16SC3);
  noisy += noise;
  noisy.convertTo(image, CV_8UC3);
  std::vector<cv::Mat> channels;
  cv::split(image, channels);
  for (int c = 0; c < 3; ++c) channels[static_cast<std::size_t>(c)] *= tint[c];
  cv::merge(channels, image);
  const std::string path = ::testing::TempDir() + name;
  cv::imwrite(path, image);
  return path;
}

}  // namespace

TEST(ColourCalibration, MeasuresOnePionOfEachColour) {
  const v::ColourCalibration calibration = v::calibrate_pions_file(scene("calibrate.png", {0, 1, 2, 3}));
  // Red has the largest a, green a negative a, white is the lightest.
  EXPECT_GT(calibration.colour[0][1], calibration.colour[1][1]);
  EXPECT_LT(calibration.colour[2][1], 0);
  EXPECT_GT(calibration.colour[3][0], calibration.colour[0][0]);
}

TEST(ColourCalibration, RefusesAnImageWithoutOneOfEachColour) {
  try {
    v::calibrate_pions_file(scene("two-reds.png", {0, 0, 2, 3}));
    FAIL() << "accepted";
  } catch (const v::ImageFileError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("read 2 red, 0 orange, 1 green, 1 white"));
  }
}

TEST(ColourCalibration, DecidesColoursUnderAWarmLight) {
  v::DetectOptions options;
  options.calibration = v::calibrate_pions_file(scene("calibrate-warm.png", {0, 1, 2, 3}, {0.82, 0.95, 1.08}));
  const v::PionObservation seen = v::detect_pions_file(scene("play-warm.png", {3, 2, 1, 0}, {0.82, 0.95, 1.08}), options);
  ASSERT_EQ(seen.pions.size(), 4u);
  for (const auto& p : seen.pions) {
    // The order was reversed: white at the top left, red at the bottom right.
    const int index = p.row * 2 + p.col;
    EXPECT_EQ(static_cast<int>(p.colour), 3 - index) << "cell " << p.row << "," << p.col;
  }
}

TEST(ColourCalibration, TheCalibrationDecidesTheColours) {
  // A calibration whose red and green entries are swapped makes the reader swap them too.
  v::DetectOptions options;
  options.calibration = v::calibrate_pions_file(scene("calibrate-swap.png", {0, 1, 2, 3}));
  std::swap(options.calibration->colour[0], options.calibration->colour[2]);
  const v::PionObservation seen = v::detect_pions_file(scene("play-swap.png", {0, 1, 2, 3}), options);
  ASSERT_EQ(seen.pions.size(), 4u);
  for (const auto& p : seen.pions) {
    const int index = p.row * 2 + p.col;
    const int expected = index == 0 ? 2 : index == 2 ? 0 : index;
    EXPECT_EQ(static_cast<int>(p.colour), expected) << "cell " << p.row << "," << p.col;
  }
}
