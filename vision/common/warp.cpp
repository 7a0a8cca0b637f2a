#include "vision/common/warp.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <opencv2/imgproc.hpp>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace arbitre::vision {

namespace {

// OpenCV's fixed point for warps: the matrix in 1/1024 pixel, source positions rounded to
// 1/32 pixel, bilinear weights in 1/32768.
constexpr int kAbBits = 10, kAbScale = 1 << kAbBits;
constexpr int kInterBits = 5, kInterTab = 1 << kInterBits;
constexpr int kRoundDelta = kAbScale / kInterTab / 2;
constexpr int kCoefBits = 15;

#if defined(__x86_64__) && defined(__GNUC__)
// Eight 32-bit words, each from a byte offset of `at`.
__attribute__((target("avx2"))) inline __m256i gather_words(const uchar* at, __m256i offsets) {
  return _mm256_i32gather_epi32(reinterpret_cast<const int*>(at), offsets, 1);
}

// The four corners weighed, in 1/32768, rounded: the scalar code's sum, eight at a time.
__attribute__((target("avx2"))) inline __m256i mix(__m256i v00, __m256i v01, __m256i v10,
                                                   __m256i v11, __m256i w00, __m256i w01,
                                                   __m256i w10, __m256i w11) {
  const __m256i sum = _mm256_add_epi32(
      _mm256_add_epi32(_mm256_mullo_epi32(v00, w00), _mm256_mullo_epi32(v01, w01)),
      _mm256_add_epi32(_mm256_mullo_epi32(v10, w10), _mm256_mullo_epi32(v11, w11)));
  return _mm256_srai_epi32(_mm256_add_epi32(sum, _mm256_set1_epi32(1 << (kCoefBits - 1))),
                           kCoefBits);
}

// Eight destination pixels of a row, x .. x + 7, when all eight read inside the image (their
// 2x2 neighbourhoods too) and at least 2 bytes past its first: each neighbourhood's top and
// bottom pairs gathered as 32-bit words from a byte before them (grey: 2 bytes before, the
// pair in the upper half; colour: 1 byte before, one pixel's three channels in the upper three
// bytes, twice), the weights and sums as the scalar code. False, nothing written, otherwise.
template <int Channels>
__attribute__((target("avx2"))) bool warp8_avx2(const uchar* data, std::size_t step, int inner_w,
                                                int inner_h, int x0, int y0, const int* adelta,
                                                const int* bdelta, uchar* out) {
  const __m256i fx = _mm256_add_epi32(_mm256_set1_epi32(x0),
                                      _mm256_loadu_si256(reinterpret_cast<const __m256i*>(adelta)));
  const __m256i fy = _mm256_add_epi32(_mm256_set1_epi32(y0),
                                      _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bdelta)));
  const __m256i X = _mm256_srai_epi32(fx, kAbBits - kInterBits);
  const __m256i Y = _mm256_srai_epi32(fy, kAbBits - kInterBits);
  const __m256i sx = _mm256_srai_epi32(X, kInterBits), sy = _mm256_srai_epi32(Y, kInterBits);
  const __m256i minus = _mm256_set1_epi32(-1);
  const __m256i inside =
      _mm256_and_si256(_mm256_and_si256(_mm256_cmpgt_epi32(sx, minus),
                                        _mm256_cmpgt_epi32(_mm256_set1_epi32(inner_w), sx)),
                       _mm256_and_si256(_mm256_cmpgt_epi32(sy, minus),
                                        _mm256_cmpgt_epi32(_mm256_set1_epi32(inner_h), sy)));
  const __m256i off =
      _mm256_add_epi32(_mm256_mullo_epi32(sy, _mm256_set1_epi32(static_cast<int>(step))),
                       _mm256_mullo_epi32(sx, _mm256_set1_epi32(Channels)));
  const __m256i clear = _mm256_cmpgt_epi32(off, _mm256_set1_epi32(1));
  if (_mm256_movemask_epi8(_mm256_and_si256(inside, clear)) != -1) return false;
  const __m256i mask = _mm256_set1_epi32(kInterTab - 1), tab = _mm256_set1_epi32(kInterTab);
  const __m256i ax = _mm256_and_si256(X, mask), ay = _mm256_and_si256(Y, mask);
  const __m256i bx = _mm256_sub_epi32(tab, ax), by = _mm256_sub_epi32(tab, ay);
  const __m256i w00 = _mm256_slli_epi32(_mm256_mullo_epi32(by, bx), 5);
  const __m256i w01 = _mm256_slli_epi32(_mm256_mullo_epi32(by, ax), 5);
  const __m256i w10 = _mm256_slli_epi32(_mm256_mullo_epi32(ay, bx), 5);
  const __m256i w11 = _mm256_slli_epi32(_mm256_mullo_epi32(ay, ax), 5);
  const __m256i byte = _mm256_set1_epi32(0xFF);
  alignas(32) int result[Channels][8];
  if constexpr (Channels == 1) {
    const __m256i top = gather_words(data - 2, off), bottom = gather_words(data - 2 + step, off);
    const __m256i r =
        mix(_mm256_and_si256(_mm256_srli_epi32(top, 16), byte), _mm256_srli_epi32(top, 24),
            _mm256_and_si256(_mm256_srli_epi32(bottom, 16), byte), _mm256_srli_epi32(bottom, 24),
            w00, w01, w10, w11);
    _mm256_store_si256(reinterpret_cast<__m256i*>(result[0]), r);
  } else {
    const __m256i t0 = gather_words(data - 1, off), t1 = gather_words(data + 2, off);
    const __m256i b0 = gather_words(data - 1 + step, off), b1 = gather_words(data + 2 + step, off);
    for (int k = 0; k < Channels; ++k) {
      const __m128i shift = _mm_cvtsi32_si128(8 * (k + 1));
      const __m256i r =
          mix(_mm256_and_si256(_mm256_srl_epi32(t0, shift), byte),
              _mm256_and_si256(_mm256_srl_epi32(t1, shift), byte),
              _mm256_and_si256(_mm256_srl_epi32(b0, shift), byte),
              _mm256_and_si256(_mm256_srl_epi32(b1, shift), byte), w00, w01, w10, w11);
      _mm256_store_si256(reinterpret_cast<__m256i*>(result[k]), r);
    }
  }
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < Channels; ++k) out[i * Channels + k] = static_cast<uchar>(result[k][i]);
  return true;
}
const bool kAvx2 = __builtin_cpu_supports("avx2");

// GCC 12's AVX-512 intrinsics start some results from _mm512_undefined and warn of it as
// uninitialised (fixed in GCC 13): not this code's values.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// The four corners weighed, sixteen at a time: mix's sum.
__attribute__((target("avx512f"))) inline __m512i mix16(__m512i v00, __m512i v01, __m512i v10,
                                                        __m512i v11, __m512i w00, __m512i w01,
                                                        __m512i w10, __m512i w11) {
  const __m512i sum = _mm512_add_epi32(
      _mm512_add_epi32(_mm512_mullo_epi32(v00, w00), _mm512_mullo_epi32(v01, w01)),
      _mm512_add_epi32(_mm512_mullo_epi32(v10, w10), _mm512_mullo_epi32(v11, w11)));
  return _mm512_srai_epi32(_mm512_add_epi32(sum, _mm512_set1_epi32(1 << (kCoefBits - 1))),
                           kCoefBits);
}

// warp8_avx2 for `count` (1-16) destination pixels (AVX-512; the lanes past them masked: their
// deltas not read, nothing gathered or written for them): the same integers, so the same bytes.
template <int Channels>
__attribute__((target("avx512f"))) bool warp16_avx512(const uchar* data, std::size_t step,
                                                      int inner_w, int inner_h, int x0, int y0,
                                                      const int* adelta, const int* bdelta,
                                                      int count, uchar* out) {
  const auto valid = static_cast<__mmask16>((1u << count) - 1u);
  const __m512i fx =
      _mm512_add_epi32(_mm512_set1_epi32(x0), _mm512_maskz_loadu_epi32(valid, adelta));
  const __m512i fy =
      _mm512_add_epi32(_mm512_set1_epi32(y0), _mm512_maskz_loadu_epi32(valid, bdelta));
  const __m512i X = _mm512_srai_epi32(fx, kAbBits - kInterBits);
  const __m512i Y = _mm512_srai_epi32(fy, kAbBits - kInterBits);
  const __m512i sx = _mm512_srai_epi32(X, kInterBits), sy = _mm512_srai_epi32(Y, kInterBits);
  const __m512i off =
      _mm512_add_epi32(_mm512_mullo_epi32(sy, _mm512_set1_epi32(static_cast<int>(step))),
                       _mm512_mullo_epi32(sx, _mm512_set1_epi32(Channels)));
  const __mmask16 inside = _mm512_cmpgt_epi32_mask(sx, _mm512_set1_epi32(-1)) &
                           _mm512_cmpgt_epi32_mask(_mm512_set1_epi32(inner_w), sx) &
                           _mm512_cmpgt_epi32_mask(sy, _mm512_set1_epi32(-1)) &
                           _mm512_cmpgt_epi32_mask(_mm512_set1_epi32(inner_h), sy) &
                           _mm512_cmpgt_epi32_mask(off, _mm512_set1_epi32(1));
  if ((inside & valid) != valid) return false;
  const __m512i mask = _mm512_set1_epi32(kInterTab - 1), tab = _mm512_set1_epi32(kInterTab);
  const __m512i ax = _mm512_and_si512(X, mask), ay = _mm512_and_si512(Y, mask);
  const __m512i bx = _mm512_sub_epi32(tab, ax), by = _mm512_sub_epi32(tab, ay);
  const __m512i w00 = _mm512_slli_epi32(_mm512_mullo_epi32(by, bx), 5);
  const __m512i w01 = _mm512_slli_epi32(_mm512_mullo_epi32(by, ax), 5);
  const __m512i w10 = _mm512_slli_epi32(_mm512_mullo_epi32(ay, bx), 5);
  const __m512i w11 = _mm512_slli_epi32(_mm512_mullo_epi32(ay, ax), 5);
  const __m512i byte = _mm512_set1_epi32(0xFF);
  if constexpr (Channels == 1) {
    const __m512i none = _mm512_setzero_si512();
    const __m512i top = _mm512_mask_i32gather_epi32(none, valid, off, data - 2, 1);
    const __m512i bottom = _mm512_mask_i32gather_epi32(none, valid, off, data - 2 + step, 1);
    const __m512i r =
        mix16(_mm512_and_si512(_mm512_srli_epi32(top, 16), byte), _mm512_srli_epi32(top, 24),
              _mm512_and_si512(_mm512_srli_epi32(bottom, 16), byte), _mm512_srli_epi32(bottom, 24),
              w00, w01, w10, w11);
    if (count == 16) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm512_cvtepi32_epi8(r));
    } else {
      alignas(16) std::uint8_t bytes[16];
      _mm_store_si128(reinterpret_cast<__m128i*>(bytes), _mm512_cvtepi32_epi8(r));
      std::copy_n(bytes, count, out);
    }
  } else {
    const __m512i none = _mm512_setzero_si512();
    const __m512i t0 = _mm512_mask_i32gather_epi32(none, valid, off, data - 1, 1);
    const __m512i t1 = _mm512_mask_i32gather_epi32(none, valid, off, data + 2, 1);
    const __m512i b0 = _mm512_mask_i32gather_epi32(none, valid, off, data - 1 + step, 1);
    const __m512i b1 = _mm512_mask_i32gather_epi32(none, valid, off, data + 2 + step, 1);
    alignas(64) std::uint8_t result[Channels][16];
    for (int k = 0; k < Channels; ++k) {
      const unsigned shift = 8 * (k + 1);
      const __m512i r =
          mix16(_mm512_and_si512(_mm512_srli_epi32(t0, shift), byte),
                _mm512_and_si512(_mm512_srli_epi32(t1, shift), byte),
                _mm512_and_si512(_mm512_srli_epi32(b0, shift), byte),
                _mm512_and_si512(_mm512_srli_epi32(b1, shift), byte), w00, w01, w10, w11);
      _mm_store_si128(reinterpret_cast<__m128i*>(result[k]), _mm512_cvtepi32_epi8(r));
    }
    for (int i = 0; i < count; ++i)
      for (int k = 0; k < Channels; ++k) out[i * Channels + k] = result[k][i];
  }
  return true;
}
#pragma GCC diagnostic pop
const bool kAvx512 = __builtin_cpu_supports("avx512f");
#endif

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
  // One destination pixel from its place in 1/32 pixel.
  const auto pixel = [&](int fx, int fy, uchar* out) {
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
  };
#if defined(__x86_64__) && defined(__GNUC__)
  // Offsets in 32-bit lanes, coordinates that need no saturation.
  const bool vectors = kAvx2 && src.cols < 32768 && src.rows < 32768 &&
                       step * static_cast<std::size_t>(src.rows) < (std::size_t{1} << 31);
#endif
  for (int y = 0; y < dst.rows; ++y) {
    const int x0 = cv::saturate_cast<int>((m[1] * y + m[2]) * kAbScale) + kRoundDelta;
    const int y0 = cv::saturate_cast<int>((m[4] * y + m[5]) * kAbScale) + kRoundDelta;
    uchar* out = dst.ptr<uchar>(y);
    int x = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    if (vectors && kAvx512) {
      for (; x < w; x += 16) {  // the row's last pixels as a part of sixteen
        if (warp16_avx512<Channels>(
                src.data, step, static_cast<int>(inner_w), static_cast<int>(inner_h), x0, y0,
                &adelta[static_cast<std::size_t>(x)], &bdelta[static_cast<std::size_t>(x)],
                std::min(16, w - x), out + x * Channels))
          continue;
        break;  // (near the image's edge: eight at a time, or one by one, below)
      }
    }
    if (vectors) {
      for (; x + 8 <= w; x += 8) {
        if (warp8_avx2<Channels>(src.data, step, static_cast<int>(inner_w),
                                 static_cast<int>(inner_h), x0, y0,
                                 &adelta[static_cast<std::size_t>(x)],
                                 &bdelta[static_cast<std::size_t>(x)], out + x * Channels))
          continue;
        for (int i = x; i < x + 8; ++i) {
          pixel((x0 + adelta[static_cast<std::size_t>(i)]) >> (kAbBits - kInterBits),
                (y0 + bdelta[static_cast<std::size_t>(i)]) >> (kAbBits - kInterBits),
                out + i * Channels);
        }
      }
    }
#endif
    for (; x < w; ++x) {
      pixel((x0 + adelta[static_cast<std::size_t>(x)]) >> (kAbBits - kInterBits),
            (y0 + bdelta[static_cast<std::size_t>(x)]) >> (kAbBits - kInterBits),
            out + x * Channels);
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
