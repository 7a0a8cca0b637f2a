// The readers' small affine crops: cv::warpAffine with bilinear interpolation and replicated
// borders, the same bytes, without its per-call set-up (block maps, a parallel loop), which
// costs more than the work itself for a crop of a few hundred pixels.
#pragma once

#include <opencv2/core.hpp>

namespace arbitre::vision {

// cv::warpAffine(src, dst, m, size, cv::INTER_LINEAR | (inverse ? cv::WARP_INVERSE_MAP : 0),
// cv::BORDER_REPLICATE) for 8-bit images of 1 or 3 channels and a 2x3 matrix of doubles: the
// same fixed-point arithmetic (coordinates in 1/32 pixel, weights in 1/32768), so the same
// bytes. Anything else is left to cv::warpAffine. dst is written in place when it already has
// the size and type.
void warp_linear(const cv::Mat& src, cv::Mat& dst, const cv::Mat& m, cv::Size size,
                 bool inverse = false);

}  // namespace arbitre::vision
