#include "vision/common/warp.h"

#include <algorithm>
#include <opencv2/imgproc.hpp>
#include <vector>

namespace arbitre::vision {

namespace {

// OpenCV's fixed point for warps: the matrix in 1/1024 pixel, source positions rounded to
// 1/32 pixel, bilinear weights in 1/32768.
constexpr int kAbBits = 10, kAbScale = 1 << kAbBits;
constexpr int kInterBits = 5, kInterTab = 1 << kInterBits;
constexpr int kRoundDelta = kAbScale / kInterTab / 2;
constexpr int kCoefBits = 15;

template <int Channels>
void warp_rows(const cv::Mat& src, cv::Mat& dst, const double* m) {
  const int w = dst.cols;
  std::vector<int> adelta(static_cast<std::size_t>(w)), bdelta(static_cast<std::size_t>(w));
  for (int x = 0; x < w; ++x) {
    adelta[static_cast<std::size_t>(x)] = cv::saturate_cast<int>(m[0] * x * kAbScale);
    bdelta[static_cast<std::size_t>(x)] = cv::saturate_cast<int>(m[3] * x * kAbScale);
  }
  const int last_x = src.cols - 1, last_y = src.rows - 1;
  const auto inner_w = static_cast<unsigned>(std::max(src.cols - 1, 0));
  const auto inner_h = static_cast<unsigned>(std::max(src.rows - 1, 0));
  const std::size_t step = src.step[0];
  for (int y = 0; y < dst.rows; ++y) {
    const int x0 = cv::saturate_cast<int>((m[1] * y + m[2]) * kAbScale) + kRoundDelta;
    const int y0 = cv::saturate_cast<int>((m[4] * y + m[5]) * kAbScale) + kRoundDelta;
    uchar* out = dst.ptr<uchar>(y);
    for (int x = 0; x < w; ++x, out += Channels) {
      const int fx = (x0 + adelta[static_cast<std::size_t>(x)]) >> (kAbBits - kInterBits);
      const int fy = (y0 + bdelta[static_cast<std::size_t>(x)]) >> (kAbBits - kInterBits);
      const int sx = cv::saturate_cast<short>(fx >> kInterBits);
      const int sy = cv::saturate_cast<short>(fy >> kInterBits);
      const int ax = fx & (kInterTab - 1), ay = fy & (kInterTab - 1);
      // The bilinear weights at (ax, ay) 32ths: exact products, summing to 32768.
      const int w00 = (kInterTab - ay) * (kInterTab - ax) * 32, w01 = (kInterTab - ay) * ax * 32;
      const int w10 = ay * (kInterTab - ax) * 32, w11 = ay * ax * 32;
      const uchar *v0, *v1, *v2, *v3;
      if (static_cast<unsigned>(sx) < inner_w && static_cast<unsigned>(sy) < inner_h) {
        v0 = src.data + sy * step + sx * Channels;
        v1 = v0 + Channels;
        v2 = v0 + step;
        v3 = v2 + Channels;
      } else {  // replicated border: each corner clamped into the image
        const int cx0 = std::clamp(sx, 0, last_x), cx1 = std::clamp(sx + 1, 0, last_x);
        const int cy0 = std::clamp(sy, 0, last_y), cy1 = std::clamp(sy + 1, 0, last_y);
        v0 = src.data + cy0 * step + cx0 * Channels;
        v1 = src.data + cy0 * step + cx1 * Channels;
        v2 = src.data + cy1 * step + cx0 * Channels;
        v3 = src.data + cy1 * step + cx1 * Channels;
      }
      for (int k = 0; k < Channels; ++k) {
        const int sum = v0[k] * w00 + v1[k] * w01 + v2[k] * w10 + v3[k] * w11;
        out[k] = cv::saturate_cast<uchar>((sum + (1 << (kCoefBits - 1))) >> kCoefBits);
      }
    }
  }
}

}  // namespace

void warp_linear(const cv::Mat& src, cv::Mat& dst, const cv::Mat& m, cv::Size size, bool inverse) {
  if ((src.type() != CV_8UC1 && src.type() != CV_8UC3) || src.empty() || size.empty() ||
      m.rows != 2 || m.cols != 3 || m.type() != CV_64F || src.data == dst.data) {
    cv::warpAffine(src, dst, m, size, cv::INTER_LINEAR | (inverse ? cv::WARP_INVERSE_MAP : 0),
                   cv::BORDER_REPLICATE);
    return;
  }
  double a[6];
  for (int k = 0; k < 6; ++k) a[k] = m.at<double>(k / 3, k % 3);
  if (!inverse) {  // from the destination back to the source, as OpenCV inverts it
    double d = a[0] * a[4] - a[1] * a[3];
    d = d != 0 ? 1. / d : 0.;
    const double a11 = a[4] * d, a22 = a[0] * d;
    a[0] = a11;
    a[1] *= -d;
    a[3] *= -d;
    a[4] = a22;
    const double b1 = -a[0] * a[2] - a[1] * a[5];
    const double b2 = -a[3] * a[2] - a[4] * a[5];
    a[2] = b1;
    a[5] = b2;
  }
  dst.create(size, src.type());
  if (src.channels() == 1) {
    warp_rows<1>(src, dst, a);
  } else {
    warp_rows<3>(src, dst, a);
  }
}

}  // namespace arbitre::vision
