// A webcam's frame of a still picture, for the benches: Gaussian noise of `sigma` grey levels
// added (seeded: the same seed gives the same frame) and the result encoded again as JPEG at
// `quality`, as a camera's stream would carry it.
#pragma once

#include <cstdint>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <vector>

namespace arbitre::testing {

inline cv::Mat noisy_frame(const cv::Mat& image, double sigma, int quality, std::uint64_t seed) {
  cv::Mat noisy;
  image.convertTo(noisy, CV_16S);
  cv::Mat noise(image.size(), CV_16SC(image.channels()));
  cv::RNG rng(seed);
  rng.fill(noise, cv::RNG::NORMAL, 0, sigma);
  noisy += noise;
  noisy.convertTo(noisy, CV_8U);
  std::vector<uchar> jpeg;
  cv::imencode(".jpg", noisy, jpeg, {cv::IMWRITE_JPEG_QUALITY, quality});
  return cv::imdecode(jpeg, cv::IMREAD_UNCHANGED);
}

}  // namespace arbitre::testing
