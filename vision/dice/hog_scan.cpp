#include "vision/dice/hog_scan.h"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

namespace arbitre::vision::dice {

namespace {

constexpr int kBins = 9;
constexpr int kCell = 8;                 // the scan's cells: pixels, square
constexpr int kPad = 8;                  // the scan's image is padded by this on every side
constexpr int kWindowCells = 4;          // a window is 4 x 4 cells (32 pixels)
constexpr int kBlockFloats = 4 * kBins;  // a block's histogram: its 2 x 2 cells
constexpr int kBlockStride = 40;         // ... with 4 zeros after it, for whole vectors
constexpr int kProfiles = 4;             // per axis, see block_profiles()

// The weight along one axis of pixel k of an image cell of `cell` pixels, in profile p = 2 c + q,
// at [p * cell + k]: the cell lies at q (0: first, 1: second) in a block of 2 x 2 cells, and the
// pixel votes for the block's cell c. It is the block's Gaussian (sigma cell / 2, OpenCV's
// default winSigma for such blocks, about its middle: for 8-pixel cells exp(-(t - 8)^2 / 32) at
// t pixels into the block) times the bilinear share of cell c (8-pixel cells centred at 3.5 and
// 11.5; a pixel beyond a centre votes for that cell alone).
std::vector<float> block_profiles(int cell) {
  std::vector<float> profile(static_cast<std::size_t>(kProfiles * cell));
  const float spread = 0.5f * static_cast<float>(cell * cell);  // 2 sigma^2
  for (int c = 0; c < 2; ++c) {
    for (int q = 0; q < 2; ++q) {
      for (int k = 0; k < cell; ++k) {
        const int t = q * cell + k;
        const float d = static_cast<float>(t - cell);
        const float at = (static_cast<float>(t) + 0.5f) / static_cast<float>(cell) - 0.5f;
        const int first = static_cast<int>(std::floor(at));
        const float frac = at - static_cast<float>(first);
        const float share = c == first ? 1.f - frac : c == first + 1 ? frac : 0.f;
        profile[static_cast<std::size_t>((2 * c + q) * cell + k)] =
            std::exp(-d * d / spread) * share;
      }
    }
  }
  return profile;
}

// The arctangent on [0, 1] as c (a0 + a1 c^2 + ... + a4 c^8) (Abramowitz and Stegun 4.4.49,
// error under 1e-5 radian).
constexpr float kAtan[5] = {0.9998660f, -0.3302995f, 0.1801410f, -0.0851330f, 0.0208351f};

// The unsigned gradient's direction in [0, pi]: kAtan unfolded by octant.
inline float direction(float dx, float dy) {
  if (dy < 0 || (dy == 0 && dx < 0)) dx = -dx, dy = -dy;
  const float ax = std::abs(dx);
  const bool steep = dy > ax;
  const float big = steep ? dy : ax, small = steep ? ax : dy;
  const float c = big > 0 ? small / big : 0.f;
  const float c2 = c * c;
  float a = c * (kAtan[0] + c2 * (kAtan[1] + c2 * (kAtan[2] + c2 * (kAtan[3] + c2 * kAtan[4]))));
  constexpr float kHalfPi = std::numbers::pi_v<float> / 2;
  if (steep) a = kHalfPi - a;
  if (dx < 0) a = std::numbers::pi_v<float> - a;
  return a;
}

// A mirrored index (OpenCV's BORDER_REFLECT_101: gfedcb|abcdefgh|gfedcba) into [0, n).
inline int mirror(int v, int n) {
  if (n == 1) return 0;
  while (v < 0 || v >= n) v = v < 0 ? -v : 2 * n - 2 - v;
  return v;
}

// A gradient's magnitude's two votes: the bins on either side of its direction (9 over pi, bin
// b centred on (b + 0.5) pi / 9), shared linearly; `bin` is the first's.
inline void vote(float dx, float dy, float& vote0, float& vote1, int& bin) {
  const float magnitude = std::sqrt(dx * dx + dy * dy);
  const float a = direction(dx, dy) * (kBins / std::numbers::pi_v<float>)-0.5f;
  int b = static_cast<int>(a + 1.f) - 1;  // a >= -0.5: the floor
  const float frac = a - static_cast<float>(b);
  if (b < 0) b += kBins;
  if (b >= kBins) b -= kBins;
  vote0 = magnitude * (1.f - frac);
  vote1 = magnitude * frac;
  bin = b;
}

// The gradient ([-1, 0, 1] both ways) of one padded row (`here`, x + 1 for x from -1, between
// `up` and `down`) and its votes, from column `from`.
void votes_scalar(const float* up, const float* here, const float* down, int from, int width,
                  float* vote0, float* vote1, int* bin) {
  for (int x = from; x < width; ++x)
    vote(here[x + 2] - here[x], down[x + 1] - up[x + 1], vote0[x], vote1[x], bin[x]);
}

// The same for eight pixels' gradients (the same operations: no fused multiply-add).
__attribute__((target("avx2"))) inline void vote8_avx2(__m256 dx, __m256 dy, float* vote0,
                                                       float* vote1, int* bin) {
  const __m256 sign = _mm256_set1_ps(-0.f), zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.f);
  const __m256 half_pi = _mm256_set1_ps(std::numbers::pi_v<float> / 2);
  const __m256 pi = _mm256_set1_ps(std::numbers::pi_v<float>);
  const __m256 to_bins = _mm256_set1_ps(kBins / std::numbers::pi_v<float>);
  const __m256 half = _mm256_set1_ps(0.5f);
  const __m256i bins = _mm256_set1_epi32(kBins), none = _mm256_setzero_si256();
  const __m256i last = _mm256_set1_epi32(kBins - 1), unit = _mm256_set1_epi32(1);
  const __m256 magnitude =
      _mm256_sqrt_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)));
  const __m256 flip = _mm256_or_ps(
      _mm256_cmp_ps(dy, zero, _CMP_LT_OQ),
      _mm256_and_ps(_mm256_cmp_ps(dy, zero, _CMP_EQ_OQ), _mm256_cmp_ps(dx, zero, _CMP_LT_OQ)));
  dx = _mm256_xor_ps(dx, _mm256_and_ps(flip, sign));
  dy = _mm256_xor_ps(dy, _mm256_and_ps(flip, sign));
  const __m256 ax = _mm256_andnot_ps(sign, dx);
  const __m256 steep = _mm256_cmp_ps(dy, ax, _CMP_GT_OQ);
  const __m256 big = _mm256_blendv_ps(ax, dy, steep), small = _mm256_blendv_ps(dy, ax, steep);
  const __m256 c = _mm256_and_ps(_mm256_div_ps(small, big), _mm256_cmp_ps(big, zero, _CMP_GT_OQ));
  const __m256 c2 = _mm256_mul_ps(c, c);
  __m256 p = _mm256_set1_ps(kAtan[4]);
  for (int i = 3; i >= 0; --i) p = _mm256_add_ps(_mm256_set1_ps(kAtan[i]), _mm256_mul_ps(c2, p));
  __m256 a = _mm256_mul_ps(c, p);
  a = _mm256_blendv_ps(a, _mm256_sub_ps(half_pi, a), steep);
  a = _mm256_blendv_ps(a, _mm256_sub_ps(pi, a), _mm256_cmp_ps(dx, zero, _CMP_LT_OQ));
  a = _mm256_sub_ps(_mm256_mul_ps(a, to_bins), half);
  __m256i b = _mm256_sub_epi32(_mm256_cvttps_epi32(_mm256_add_ps(a, one)), unit);
  const __m256 frac = _mm256_sub_ps(a, _mm256_cvtepi32_ps(b));
  b = _mm256_add_epi32(b, _mm256_and_si256(_mm256_cmpgt_epi32(none, b), bins));
  b = _mm256_sub_epi32(b, _mm256_and_si256(_mm256_cmpgt_epi32(b, last), bins));
  _mm256_storeu_ps(vote0, _mm256_mul_ps(magnitude, _mm256_sub_ps(one, frac)));
  _mm256_storeu_ps(vote1, _mm256_mul_ps(magnitude, frac));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(bin), b);
}

__attribute__((target("avx2"))) void votes_avx2(const float* up, const float* here,
                                                const float* down, int width, float* vote0,
                                                float* vote1, int* bin) {
  int x = 0;
  for (; x + 8 <= width; x += 8) {
    const __m256 dx = _mm256_sub_ps(_mm256_loadu_ps(here + x + 2), _mm256_loadu_ps(here + x));
    const __m256 dy = _mm256_sub_ps(_mm256_loadu_ps(down + x + 1), _mm256_loadu_ps(up + x + 1));
    vote8_avx2(dx, dy, vote0 + x, vote1 + x, bin + x);
  }
  votes_scalar(up, here, down, x, width, vote0, vote1, bin);
}

#pragma GCC diagnostic push  // GCC 12's _mm512_undefined (fixed in GCC 13): not this code's
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// vote8_avx2 for sixteen pixels (AVX-512): the same operations, masks for its blends, so the
// same bytes (this file is built without contraction).
__attribute__((target("avx512f"))) inline void vote16_avx512(__m512 dx, __m512 dy, float* vote0,
                                                             float* vote1, int* bin) {
  const __m512i sign = _mm512_set1_epi32(static_cast<int>(0x80000000u));
  const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1.f);
  const __m512 half_pi = _mm512_set1_ps(std::numbers::pi_v<float> / 2);
  const __m512 pi = _mm512_set1_ps(std::numbers::pi_v<float>);
  const __m512 to_bins = _mm512_set1_ps(kBins / std::numbers::pi_v<float>);
  const __m512 half = _mm512_set1_ps(0.5f);
  const __m512i bins = _mm512_set1_epi32(kBins), none = _mm512_setzero_si512();
  const __m512i last = _mm512_set1_epi32(kBins - 1), unit = _mm512_set1_epi32(1);
  const __m512 magnitude =
      _mm512_sqrt_ps(_mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy)));
  const __mmask16 flip =
      _mm512_cmp_ps_mask(dy, zero, _CMP_LT_OQ) |
      (_mm512_cmp_ps_mask(dy, zero, _CMP_EQ_OQ) & _mm512_cmp_ps_mask(dx, zero, _CMP_LT_OQ));
  dx = _mm512_castsi512_ps(
      _mm512_mask_xor_epi32(_mm512_castps_si512(dx), flip, _mm512_castps_si512(dx), sign));
  dy = _mm512_castsi512_ps(
      _mm512_mask_xor_epi32(_mm512_castps_si512(dy), flip, _mm512_castps_si512(dy), sign));
  const __m512 ax = _mm512_castsi512_ps(_mm512_andnot_si512(sign, _mm512_castps_si512(dx)));
  const __mmask16 steep = _mm512_cmp_ps_mask(dy, ax, _CMP_GT_OQ);
  const __m512 big = _mm512_mask_blend_ps(steep, ax, dy),
               small = _mm512_mask_blend_ps(steep, dy, ax);
  const __m512 c =
      _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(big, zero, _CMP_GT_OQ), _mm512_div_ps(small, big));
  const __m512 c2 = _mm512_mul_ps(c, c);
  __m512 p = _mm512_set1_ps(kAtan[4]);
  for (int i = 3; i >= 0; --i) p = _mm512_add_ps(_mm512_set1_ps(kAtan[i]), _mm512_mul_ps(c2, p));
  __m512 a = _mm512_mul_ps(c, p);
  a = _mm512_mask_blend_ps(steep, a, _mm512_sub_ps(half_pi, a));
  a = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(dx, zero, _CMP_LT_OQ), a, _mm512_sub_ps(pi, a));
  a = _mm512_sub_ps(_mm512_mul_ps(a, to_bins), half);
  __m512i b = _mm512_sub_epi32(_mm512_cvttps_epi32(_mm512_add_ps(a, one)), unit);
  const __m512 frac = _mm512_sub_ps(a, _mm512_cvtepi32_ps(b));
  b = _mm512_mask_add_epi32(b, _mm512_cmpgt_epi32_mask(none, b), b, bins);
  b = _mm512_mask_sub_epi32(b, _mm512_cmpgt_epi32_mask(b, last), b, bins);
  _mm512_storeu_ps(vote0, _mm512_mul_ps(magnitude, _mm512_sub_ps(one, frac)));
  _mm512_storeu_ps(vote1, _mm512_mul_ps(magnitude, frac));
  _mm512_storeu_si512(bin, b);
}

// votes_avx2's first pixels sixteen at a time; returns where it stopped.
__attribute__((target("avx512f"))) int votes_avx512(const float* up, const float* here,
                                                    const float* down, int width, float* vote0,
                                                    float* vote1, int* bin) {
  int x = 0;
  for (; x + 16 <= width; x += 16) {
    const __m512 dx = _mm512_sub_ps(_mm512_loadu_ps(here + x + 2), _mm512_loadu_ps(here + x));
    const __m512 dy = _mm512_sub_ps(_mm512_loadu_ps(down + x + 1), _mm512_loadu_ps(up + x + 1));
    vote16_avx512(dx, dy, vote0 + x, vote1 + x, bin + x);
  }
  return x;
}

// colour_votes_avx2's first pixels sixteen at a time; returns where it stopped.
__attribute__((target("avx512f"))) int colour_votes_avx512(const float* up, const float* here,
                                                           const float* down, std::size_t plane,
                                                           int width, float* vote0, float* vote1,
                                                           int* bin) {
  int x = 0;
  for (; x + 16 <= width; x += 16) {
    __m512 gx[3], gy[3], m[3];
    for (std::size_t c = 0; c < 3; ++c) {
      gx[c] = _mm512_sub_ps(_mm512_loadu_ps(here + c * plane + x + 2),
                            _mm512_loadu_ps(here + c * plane + x));
      gy[c] = _mm512_sub_ps(_mm512_loadu_ps(down + c * plane + x + 1),
                            _mm512_loadu_ps(up + c * plane + x + 1));
      m[c] = _mm512_add_ps(_mm512_mul_ps(gx[c], gx[c]), _mm512_mul_ps(gy[c], gy[c]));
    }
    const __mmask16 third = _mm512_cmp_ps_mask(m[2], m[1], _CMP_GT_OQ);
    const __m512 later_m = _mm512_mask_blend_ps(third, m[1], m[2]);
    const __mmask16 later = _mm512_cmp_ps_mask(later_m, m[0], _CMP_GT_OQ);
    const __m512 dx = _mm512_mask_blend_ps(later, gx[0], _mm512_mask_blend_ps(third, gx[1], gx[2]));
    const __m512 dy = _mm512_mask_blend_ps(later, gy[0], _mm512_mask_blend_ps(third, gy[1], gy[2]));
    vote16_avx512(dx, dy, vote0 + x, vote1 + x, bin + x);
  }
  return x;
}
#pragma GCC diagnostic pop

const bool kAvx2 = __builtin_cpu_supports("avx2");
const bool kAvx512Here = __builtin_cpu_supports("avx512f");
bool use_avx512 = kAvx512Here;  // set_hog_avx512 may turn it off (tests)

void votes(bool avx2, const float* up, const float* here, const float* down, int width,
           float* vote0, float* vote1, int* bin) {
  if (avx2 && use_avx512) {  // sixteen at a time, then the rest as votes_avx2
    const int x = votes_avx512(up, here, down, width, vote0, vote1, bin);
    return votes_avx2(up + x, here + x, down + x, width - x, vote0 + x, vote1 + x, bin + x);
  }
  if (avx2) return votes_avx2(up, here, down, width, vote0, vote1, bin);
  votes_scalar(up, here, down, 0, width, vote0, vote1, bin);
}

// Bins 0-7 of pixel x's votes as one vector: the one-hot rows of bins b0 and b0 + 1 (8: none)
// scaled by the two votes.
alignas(32) constexpr float kOneHot[kBins + 1][8] = {
    {1, 0, 0, 0, 0, 0, 0, 0}, {0, 1, 0, 0, 0, 0, 0, 0}, {0, 0, 1, 0, 0, 0, 0, 0},
    {0, 0, 0, 1, 0, 0, 0, 0}, {0, 0, 0, 0, 1, 0, 0, 0}, {0, 0, 0, 0, 0, 1, 0, 0},
    {0, 0, 0, 0, 0, 0, 1, 0}, {0, 0, 0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0, 0, 0, 0, 0, 0, 0}};  // b0 + 1 past bin 8 is bin 0
__attribute__((target("avx2"))) inline __m256 votes_of(const float* vote0, const float* vote1,
                                                       const int* bin, int x) {
  const int b0 = bin[x];
  return _mm256_add_ps(_mm256_mul_ps(_mm256_load_ps(kOneHot[b0]), _mm256_set1_ps(vote0[x])),
                       _mm256_mul_ps(_mm256_load_ps(kOneHot[b0 + 1]), _mm256_set1_ps(vote1[x])));
}

// A block's histogram normalised as L2-Hys: to unit length (plus 0.1 per bin), clipped at 0.2,
// then to unit length again. The sums of squares in eight running parts.
void normalise(float* h) {
  const auto squares = [&] {
    std::array<float, 8> part{};
    for (int i = 0; i < kBlockStride; i += 8) {
      for (int j = 0; j < 8; ++j) part[static_cast<std::size_t>(j)] += h[i + j] * h[i + j];
    }
    return ((part[0] + part[4]) + (part[1] + part[5])) +
           ((part[2] + part[6]) + (part[3] + part[7]));
  };
  const float scale = 1.f / (std::sqrt(squares()) + kBlockFloats * 0.1f);
  for (int i = 0; i < kBlockStride; ++i) {
    const float v = h[i] * scale;
    h[i] = v < 0.2f ? v : 0.2f;
  }
  const float unit = 1.f / (std::sqrt(squares()) + 1e-3f);
  for (int i = 0; i < kBlockStride; ++i) h[i] *= unit;
}

// A window's 3 x 3 blocks (its first at `at`, kBlockFloats apart along a row, rows `row` floats
// apart) against the weights (9 blocks of kBlockStride, column by column, each with 4 zeros
// after it: the 4 floats read past a block are the next one's, or the buffer's slack, times 0),
// in eight running parts.
float window_score_scalar(const float* at, std::size_t row, const float* w) {
  std::array<float, 8> part{};
  for (int bx = 0; bx < 3; ++bx) {
    for (int by = 0; by < 3; ++by, w += kBlockStride) {
      const float* h = at + by * row + static_cast<std::size_t>(bx) * kBlockFloats;
      for (int i = 0; i < kBlockStride; i += 8) {
        for (int j = 0; j < 8; ++j) part[static_cast<std::size_t>(j)] += h[i + j] * w[i + j];
      }
    }
  }
  return ((part[0] + part[4]) + (part[1] + part[5])) + ((part[2] + part[6]) + (part[3] + part[7]));
}

__attribute__((target("avx2"))) float window_score_avx2(const float* at, std::size_t row,
                                                        const float* w) {
  __m256 sum = _mm256_setzero_ps();
  for (int bx = 0; bx < 3; ++bx) {
    for (int by = 0; by < 3; ++by, w += kBlockStride) {
      const float* h = at + by * row + static_cast<std::size_t>(bx) * kBlockFloats;
      for (int i = 0; i < kBlockStride; i += 8)
        sum = _mm256_add_ps(sum, _mm256_mul_ps(_mm256_loadu_ps(h + i), _mm256_loadu_ps(w + i)));
    }
  }
  alignas(32) float part[8];
  _mm256_store_ps(part, sum);
  return ((part[0] + part[4]) + (part[1] + part[5])) + ((part[2] + part[6]) + (part[3] + part[7]));
}

float window_score(bool avx2, const float* at, std::size_t row, const float* w) {
  return avx2 ? window_score_avx2(at, row, w) : window_score_scalar(at, row, w);
}

// One image row's pixels at the mirrored columns `column` (BORDER_REFLECT_101, as OpenCV's HOG),
// as floats, channel by channel: channel c's at out[c * column.size() + i]. Columns from
// `inner_from` to `inner_to` are the image's own in order (column[i] = column[inner_from] + i -
// inner_from): those sixteen at a time with AVX-512 where the processor has it (a byte is the same
// float either way).
__attribute__((always_inline)) inline void load_columns(const unsigned char* src, int channels,
                                                        const int* column, std::size_t n,
                                                        std::size_t from, std::size_t to,
                                                        float* out) {
  for (std::size_t i = from; i < to; ++i) {
    if (channels == 1) {
      out[i] = static_cast<float>(src[column[i]]);
    } else {
      const unsigned char* p = src + 3 * column[i];
      out[i] = static_cast<float>(p[0]);
      out[n + i] = static_cast<float>(p[1]);
      out[2 * n + i] = static_cast<float>(p[2]);
    }
  }
}

#pragma GCC diagnostic push  // GCC 12's _mm512_undefined (fixed in GCC 13): not this code's
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// Sixteen pixels of a row from `at` (colour: their 48 bytes, each channel's sixteen gathered by
// one byte permutation) as floats; returns where it stopped.
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) std::size_t load_inner_avx512(
    const unsigned char* at, int channels, std::size_t n, std::size_t from, std::size_t to,
    float* out) {
  std::size_t i = from;
  if (channels == 1) {
    for (; i + 16 <= to; i += 16, at += 16)
      _mm512_storeu_ps(out + i, _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(
                                    _mm_loadu_si128(reinterpret_cast<const __m128i*>(at)))));
    return i;
  }
  alignas(64) std::uint8_t order[64];
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k < 16; ++k) order[16 * c + k] = static_cast<std::uint8_t>(3 * k + c);
  for (int k = 48; k < 64; ++k) order[k] = 0;
  const __m512i gather = _mm512_load_si512(order);
  for (; i + 16 <= to; i += 16, at += 48) {
    const __m512i bytes = _mm512_permutexvar_epi8(
        gather, _mm512_maskz_loadu_epi8(0xFFFFFFFFFFFFull, at));  // 48 bytes
    const __m128i b = _mm512_castsi512_si128(bytes);
    const __m128i g = _mm512_extracti32x4_epi32(bytes, 1);
    const __m128i r = _mm512_extracti32x4_epi32(bytes, 2);
    _mm512_storeu_ps(out + i, _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(b)));
    _mm512_storeu_ps(out + n + i, _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(g)));
    _mm512_storeu_ps(out + 2 * n + i, _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(r)));
  }
  return i;
}
#pragma GCC diagnostic pop

const bool kLoadAvx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                         __builtin_cpu_supports("avx512vbmi");

void load_planes(const cv::Mat& image, int y, const std::vector<int>& column,
                 std::size_t inner_from, std::size_t inner_to, float* out, bool vectors) {
  const unsigned char* src = image.ptr(mirror(y, image.rows));
  const std::size_t n = column.size();
  const int channels = image.channels();
  std::size_t i = inner_from;
  if (vectors && kLoadAvx512 && use_avx512 && inner_from < inner_to)
    i = load_inner_avx512(src + channels * column[inner_from], channels, n, inner_from, inner_to,
                          out);
  load_columns(src, channels, column.data(), n, 0, inner_from, out);
  load_columns(src, channels, column.data(), n, i, n, out);
}

// A colour pixel's gradient is its channel's of largest squared magnitude; on a tie, the first
// channel's, else the second's (as OpenCV's vector code: two channels of the same magnitude
// often point different ways). Rows as load_planes gives them, planes `plane` floats apart.
inline void colour_vote(const float* up, const float* here, const float* down, std::size_t plane,
                        int x, float& vote0, float& vote1, int& bin) {
  float gx[3], gy[3], m[3];
  for (std::size_t c = 0; c < 3; ++c) {
    gx[c] = here[c * plane + x + 2] - here[c * plane + x];
    gy[c] = down[c * plane + x + 1] - up[c * plane + x + 1];
    m[c] = gx[c] * gx[c] + gy[c] * gy[c];
  }
  const int later = m[2] > m[1] ? 2 : 1;
  const int c = m[later] > m[0] ? later : 0;
  vote(gx[c], gy[c], vote0, vote1, bin);
}

__attribute__((target("avx2"))) int colour_votes_avx2(const float* up, const float* here,
                                                      const float* down, std::size_t plane,
                                                      int width, float* vote0, float* vote1,
                                                      int* bin) {
  int x = 0;
  for (; x + 8 <= width; x += 8) {
    __m256 gx[3], gy[3], m[3];
    for (std::size_t c = 0; c < 3; ++c) {
      gx[c] = _mm256_sub_ps(_mm256_loadu_ps(here + c * plane + x + 2),
                            _mm256_loadu_ps(here + c * plane + x));
      gy[c] = _mm256_sub_ps(_mm256_loadu_ps(down + c * plane + x + 1),
                            _mm256_loadu_ps(up + c * plane + x + 1));
      m[c] = _mm256_add_ps(_mm256_mul_ps(gx[c], gx[c]), _mm256_mul_ps(gy[c], gy[c]));
    }
    const __m256 third = _mm256_cmp_ps(m[2], m[1], _CMP_GT_OQ);
    const __m256 later_m = _mm256_blendv_ps(m[1], m[2], third);
    const __m256 later = _mm256_cmp_ps(later_m, m[0], _CMP_GT_OQ);
    const __m256 dx = _mm256_blendv_ps(gx[0], _mm256_blendv_ps(gx[1], gx[2], third), later);
    const __m256 dy = _mm256_blendv_ps(gy[0], _mm256_blendv_ps(gy[1], gy[2], third), later);
    vote8_avx2(dx, dy, vote0 + x, vote1 + x, bin + x);
  }
  return x;
}

void colour_votes(bool avx2, const float* up, const float* here, const float* down,
                  std::size_t plane, int width, float* vote0, float* vote1, int* bin) {
  int done = 0;
  if (avx2 && use_avx512)
    done = colour_votes_avx512(up, here, down, plane, width, vote0, vote1, bin);
  if (avx2)
    done += colour_votes_avx2(up + done, here + done, down + done, plane, width - done,
                              vote0 + done, vote1 + done, bin + done);
  for (int x = done; x < width; ++x)
    colour_vote(up, here, down, plane, x, vote0[x], vote1[x], bin[x]);
}

constexpr int kHist = 40;  // a cell's histogram along one axis: 4 profiles x 9 bins, 4 zeros

// row_histograms (below) with each pixel's votes as one vector of bins 0-7 (votes_of) and the
// cell's bin 8 as one vector over its pixels, for cells of kC <= 8 pixels (votes read 8 - kC
// past the last cell: zeros). Profile 1 is 0 over a cell's second half and profile 2 over its
// first: skipped there.
template <int kC>
__attribute__((target("avx2"))) void row_histograms_avx2(const float* vote0, const float* vote1,
                                                         const int* bin, int step, int cells,
                                                         const float* profile, float* out) {
  static_assert(kC <= 8);
  const __m256i eight = _mm256_set1_epi32(kBins - 1), seven = _mm256_set1_epi32(kBins - 2);
  __m256 column[kProfiles];  // each profile over the cell's pixels, 0 past them
  for (int p = 0; p < kProfiles; ++p) {
    alignas(32) float lanes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    std::copy_n(profile + p * kC, kC, lanes);
    column[p] = _mm256_load_ps(lanes);
  }
  for (int k = 0; k < cells; ++k) {
    const int x0 = k * step;
    __m256 acc[kProfiles];
    for (__m256& a : acc) a = _mm256_setzero_ps();
    for (int t = 0; t < kC; ++t) {
      const __m256 v = votes_of(vote0, vote1, bin, x0 + t);
      for (const int p : {0, t < kC / 2 ? 1 : 2, 3})
        acc[p] = _mm256_add_ps(acc[p], _mm256_mul_ps(v, _mm256_set1_ps(profile[p * kC + t])));
    }
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bin + x0));
    const __m256 last =
        _mm256_add_ps(_mm256_and_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(b, eight)),
                                    _mm256_loadu_ps(vote0 + x0)),
                      _mm256_and_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(b, seven)),
                                    _mm256_loadu_ps(vote1 + x0)));
    float* h = out + static_cast<std::size_t>(k) * kHist;
    // Bins 0-7 of each profile (8 floats from its first), then each one's bin 8.
    for (int p = 0; p < kProfiles; ++p) _mm256_storeu_ps(h + p * kBins, acc[p]);
    for (int p = 0; p < kProfiles; ++p) {
      alignas(32) float t[8];
      _mm256_store_ps(t, _mm256_mul_ps(last, column[p]));
      h[p * kBins + kBins - 1] = ((t[0] + t[4]) + (t[1] + t[5])) + ((t[2] + t[6]) + (t[3] + t[7]));
    }
    std::fill(h + kProfiles * kBins, h + kHist, 0.f);
  }
}

#pragma GCC diagnostic push  // GCC 12's _mm512_undefined (fixed in GCC 13): not this code's
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// row_histograms_avx2 for two cells at a time (AVX-512): cell k's bins 0-7 in a vector's lanes
// 0-7, cell k + 1's in lanes 8-15. Each pixel's votes put in its bins by masks (the vote where
// the lane is its bin, 0 elsewhere: votes_of's products, which are the vote or 0), then the same
// products and sums in the same order per lane: the same bytes. A last cell alone as
// row_histograms_avx2.
// Eight floats from a in lanes 0-7, eight from b in lanes 8-15.
__attribute__((target("avx512f"))) inline __m512 pair(const float* a, const float* b) {
  return _mm512_castpd_ps(_mm512_insertf64x4(
      _mm512_castpd256_pd512(_mm256_loadu_pd(reinterpret_cast<const double*>(a))),
      _mm256_loadu_pd(reinterpret_cast<const double*>(b)), 1));
}

template <int kC>
__attribute__((target("avx512f"))) void row_histograms_avx512(const float* vote0,
                                                              const float* vote1, const int* bin,
                                                              int step, int cells,
                                                              const float* profile, float* out) {
  static_assert(kC <= 8);
  alignas(64) std::int32_t lane_bins[16], halves[16];
  alignas(64) float columns[kProfiles][16];
  for (int i = 0; i < 16; ++i) {
    lane_bins[i] = i % 8, halves[i] = i < 8 ? 0 : 8;
    for (int p = 0; p < kProfiles; ++p) columns[p][i] = i % 8 < kC ? profile[p * kC + i % 8] : 0.f;
  }
  const __m512i lanes = _mm512_load_si512(lane_bins), half = _mm512_load_si512(halves);
  const __m512i eight = _mm512_set1_epi32(kBins - 1), seven = _mm512_set1_epi32(kBins - 2);
  const __m512i nine = _mm512_set1_epi32(kBins), one = _mm512_set1_epi32(1);
  int k = 0;
  for (; k + 2 <= cells; k += 2) {
    const int xa = k * step, xb = xa + step;
    const __m512 v0 = pair(vote0 + xa, vote0 + xb), v1 = pair(vote1 + xa, vote1 + xb);
    const __m512i b0 = _mm512_castps_si512(
        pair(reinterpret_cast<const float*>(bin + xa), reinterpret_cast<const float*>(bin + xb)));
    __m512i b1 = _mm512_add_epi32(b0, one);  // the second bin: past bin 8 is bin 0
    b1 = _mm512_mask_mov_epi32(b1, _mm512_cmpeq_epi32_mask(b1, nine), _mm512_setzero_si512());
    __m512 acc[kProfiles];
    for (__m512& a : acc) a = _mm512_setzero_ps();
    for (int t = 0; t < kC; ++t) {
      const __m512i at = _mm512_add_epi32(half, _mm512_set1_epi32(t));
      const __mmask16 m0 = _mm512_cmpeq_epi32_mask(_mm512_permutexvar_epi32(at, b0), lanes);
      const __mmask16 m1 = _mm512_cmpeq_epi32_mask(_mm512_permutexvar_epi32(at, b1), lanes);
      const __m512 v = _mm512_add_ps(_mm512_maskz_mov_ps(m0, _mm512_permutexvar_ps(at, v0)),
                                     _mm512_maskz_mov_ps(m1, _mm512_permutexvar_ps(at, v1)));
      for (const int p : {0, t < kC / 2 ? 1 : 2, 3})
        acc[p] = _mm512_add_ps(acc[p], _mm512_mul_ps(v, _mm512_set1_ps(profile[p * kC + t])));
    }
    const __m512 last = _mm512_add_ps(_mm512_maskz_mov_ps(_mm512_cmpeq_epi32_mask(b0, eight), v0),
                                      _mm512_maskz_mov_ps(_mm512_cmpeq_epi32_mask(b0, seven), v1));
    float* ha = out + static_cast<std::size_t>(k) * kHist;
    float* hb = ha + kHist;
    for (int p = 0; p < kProfiles; ++p) {
      _mm256_storeu_ps(ha + p * kBins, _mm512_castps512_ps256(acc[p]));
      _mm256_storeu_ps(hb + p * kBins,
                       _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(acc[p]), 1)));
    }
    // Bin 8 of each profile: the products over each cell's eight lanes summed as the scalar
    // code does, ((t0 + t4) + (t1 + t5)) + ((t2 + t6) + (t3 + t7)), by swapping halves (an
    // addition is exact either way round).
    for (int p = 0; p < kProfiles; ++p) {
      __m512 t = _mm512_mul_ps(last, _mm512_load_ps(columns[p]));
      t = _mm512_add_ps(t, _mm512_shuffle_f32x4(t, t, 0xB1));  // lane j + lane j + 4
      t = _mm512_add_ps(t, _mm512_permute_ps(t, 0xB1));        // (u0 + u1), (u2 + u3)
      t = _mm512_add_ps(t, _mm512_permute_ps(t, 0x4E));        // their sum in lane 0
      alignas(64) float sums[16];
      _mm512_store_ps(sums, t);
      ha[p * kBins + kBins - 1] = sums[0];
      hb[p * kBins + kBins - 1] = sums[8];
    }
    std::fill(ha + kProfiles * kBins, ha + kHist, 0.f);
    std::fill(hb + kProfiles * kBins, hb + kHist, 0.f);
  }
  if (k < cells) {
    const int x = k * step;
    row_histograms_avx2<kC>(vote0 + x, vote1 + x, bin + x, step, 1, profile,
                            out + static_cast<std::size_t>(k) * kHist);
  }
}
#pragma GCC diagnostic pop

// Cells `cell` pixels wide whose left columns lie `step` apart from 0 (`cells` of them): each
// one's four column-profile histograms of one row's votes, [cell][profile][bin], kHist apart.
void row_histograms(bool avx2, const float* vote0, const float* vote1, const int* bin, int cell,
                    int step, int cells, const float* profile, float* out) {
  if (avx2 && use_avx512 && cell == 8)
    return row_histograms_avx512<8>(vote0, vote1, bin, step, cells, profile, out);
  if (avx2 && use_avx512 && cell == 6)
    return row_histograms_avx512<6>(vote0, vote1, bin, step, cells, profile, out);
  if (avx2 && cell == 8)
    return row_histograms_avx2<8>(vote0, vote1, bin, step, cells, profile, out);
  if (avx2 && cell == 6)
    return row_histograms_avx2<6>(vote0, vote1, bin, step, cells, profile, out);
  for (int k = 0; k < cells; ++k) {
    float* h = out + static_cast<std::size_t>(k) * kHist;
    std::fill(h, h + kHist, 0.f);
    for (int t = 0; t < cell; ++t) {
      const int x = k * step + t;
      const int b0 = bin[x], b1 = b0 + 1 == kBins ? 0 : b0 + 1;
      for (int p = 0; p < kProfiles; ++p) {
        const float w = profile[p * cell + t];
        h[p * kBins + b0] += vote0[x] * w;
        h[p * kBins + b1] += vote1[x] * w;
      }
    }
  }
}

// One cell's histograms along y: for each row profile q, the sum over the cell's `cell` pixel
// rows (row t's histograms along x at rows[t] + offset) weighted by q's weight at t.
__attribute__((target("avx2"))) void column_histograms_avx2(const float* const* rows,
                                                            std::size_t offset, int cell,
                                                            const float* profile, float* out) {
  for (int q = 0; q < kProfiles; ++q) {
    __m256 acc[kHist / 8];
    for (__m256& a : acc) a = _mm256_setzero_ps();
    for (int t = 0; t < cell; ++t) {
      const float w = profile[q * cell + t];
      if (w == 0.f) continue;
      const __m256 wv = _mm256_set1_ps(w);
      const float* rt = rows[t] + offset;
      for (int i = 0; i < kHist / 8; ++i)
        acc[i] = _mm256_add_ps(acc[i], _mm256_mul_ps(wv, _mm256_loadu_ps(rt + 8 * i)));
    }
    for (int i = 0; i < kHist / 8; ++i) _mm256_storeu_ps(out + q * kHist + 8 * i, acc[i]);
  }
}

void column_histograms(bool avx2, const float* const* rows, std::size_t offset, int cell,
                       const float* profile, float* out) {
  if (avx2) return column_histograms_avx2(rows, offset, cell, profile, out);
  std::fill(out, out + kProfiles * kHist, 0.f);
  for (int t = 0; t < cell; ++t) {
    const float* rt = rows[t] + offset;
    for (int q = 0; q < kProfiles; ++q) {
      const float w = profile[q * cell + t];
      for (int i = 0; i < kHist; ++i) out[q * kHist + i] += w * rt[i];
    }
  }
}

constexpr int kCellSize = kProfiles * kHist;  // a cell's histograms: [row profile][kHist]

// Block (u, v)'s histogram from its four cells (`first`: the cell row of its top cells, `second`:
// of its bottom ones, `per` cells apart along a row), in the descriptor's order (its cells
// column by column, then bins), normalised as L2-Hys, to `out` (kBlockFloats).
void assemble_block(const float* first, const float* second, int u, int per, float* out) {
  std::array<float, kBlockStride> block{};
  for (int qy = 0; qy < 2; ++qy) {
    for (int qx = 0; qx < 2; ++qx) {
      const float* h =
          (qy == 0 ? first : second) + static_cast<std::size_t>(u + qx * per) * kCellSize;
      for (int ix = 0; ix < 2; ++ix) {
        for (int iy = 0; iy < 2; ++iy) {
          const float* from = h + (2 * iy + qy) * kHist + (2 * ix + qx) * kBins;
          float* to = block.data() + (2 * ix + iy) * kBins;
          for (int b = 0; b < kBins; ++b) to[b] += from[b];
        }
      }
    }
  }
  normalise(block.data());
  std::copy_n(block.data(), kBlockFloats, out);
}

// normalise's sum of squares of a block (kBlockStride floats), a vector of its eight
// running parts.
__attribute__((target("avx2"))) inline float squares_avx2(const float* block) {
  __m256 part = _mm256_setzero_ps();
  for (int i = 0; i < kBlockStride; i += 8) {
    const __m256 v = _mm256_loadu_ps(block + i);
    part = _mm256_add_ps(part, _mm256_mul_ps(v, v));
  }
  alignas(32) float p[8];
  _mm256_store_ps(p, part);
  return ((p[0] + p[4]) + (p[1] + p[5])) + ((p[2] + p[6]) + (p[3] + p[7]));
}

// The scales of n blocks' sums of squares, in place: 1 / (sqrt(sum) + c), eight at a time.
__attribute__((target("avx2"))) void scales_avx2(float* sums, int n, float c) {
  int u = 0;
  for (; u + 8 <= n; u += 8) {
    const __m256 root = _mm256_sqrt_ps(_mm256_loadu_ps(sums + u));
    _mm256_storeu_ps(sums + u,
                     _mm256_div_ps(_mm256_set1_ps(1.f), _mm256_add_ps(root, _mm256_set1_ps(c))));
  }
  for (; u < n; ++u) sums[u] = 1.f / (std::sqrt(sums[u]) + c);
}

// A row of blocks (u = 0 .. nx - 1) as assemble_block with vectors (AVX2): bins 0-7 of each
// cell a vector, bin 8 alone, each value summed from 0 through the four cells in the same order;
// normalise's sums of squares in the same eight running parts; and each of its two scales,
// 1 / (sqrt(sum) + c), for eight blocks at a time (correctly rounded square roots, additions and
// divisions, as the scalar ones: the same bytes), where block after block they waited on each
// other. `blocks` holds nx x kBlockStride floats, `sums` nx + 8.
__attribute__((target("avx2"))) void assemble_row_avx2(const float* first, const float* second,
                                                       int nx, int per, float* blocks, float* sums,
                                                       float* out) {
  for (int u = 0; u < nx; ++u) {
    float* block = blocks + static_cast<std::size_t>(u) * kBlockStride;
    __m256 cell[4];
    for (int s = 0; s < 4; ++s) {
      cell[s] = _mm256_setzero_ps();
      block[s * kBins + kBins - 1] = 0.f;
    }
    for (int qy = 0; qy < 2; ++qy) {
      for (int qx = 0; qx < 2; ++qx) {
        const float* h =
            (qy == 0 ? first : second) + static_cast<std::size_t>(u + qx * per) * kCellSize;
        for (int ix = 0; ix < 2; ++ix) {
          for (int iy = 0; iy < 2; ++iy) {
            const float* from = h + (2 * iy + qy) * kHist + (2 * ix + qx) * kBins;
            const int s = 2 * ix + iy;
            cell[s] = _mm256_add_ps(cell[s], _mm256_loadu_ps(from));
            block[s * kBins + kBins - 1] += from[kBins - 1];
          }
        }
      }
    }
    for (int s = 0; s < 4; ++s) _mm256_storeu_ps(block + s * kBins, cell[s]);  // bins 0-7
    for (int i = kBlockFloats; i < kBlockStride; ++i) block[i] = 0.f;
    sums[u] = squares_avx2(block);
  }
  scales_avx2(sums, nx, kBlockFloats * 0.1f);
  const __m256 clip = _mm256_set1_ps(0.2f);
  for (int u = 0; u < nx; ++u) {
    float* block = blocks + static_cast<std::size_t>(u) * kBlockStride;
    const __m256 scale = _mm256_set1_ps(sums[u]);
    for (int i = 0; i < kBlockStride; i += 8)
      _mm256_storeu_ps(block + i,
                       _mm256_min_ps(_mm256_mul_ps(_mm256_loadu_ps(block + i), scale), clip));
    sums[u] = squares_avx2(block);
  }
  scales_avx2(sums, nx, 1e-3f);
  for (int u = 0; u < nx; ++u) {
    const float* block = blocks + static_cast<std::size_t>(u) * kBlockStride;
    float* to = out + static_cast<std::size_t>(u) * kBlockFloats;
    const __m256 unit = _mm256_set1_ps(sums[u]);
    for (int i = 0; i < kBlockFloats - 4; i += 8)
      _mm256_storeu_ps(to + i, _mm256_mul_ps(_mm256_loadu_ps(block + i), unit));
    for (int i = kBlockFloats - 4; i < kBlockFloats; ++i) to[i] = block[i] * sums[u];
  }
}

}  // namespace

bool set_hog_avx512(bool on) {
  const bool before = use_avx512;
  use_avx512 = on && kAvx512Here;
  return before;
}

void hog_blocks(const cv::Mat& image, int cell, int step, cv::Point origin, int nx, int ny,
                float* out, bool vectors) {
  CV_Assert(image.depth() == CV_8U && (image.channels() == 1 || image.channels() == 3));
  CV_Assert(cell > 0 && step > 0 && cell % step == 0 && nx > 0 && ny > 0);
  const bool avx2 = vectors && kAvx2;
  const int per = cell / step;             // grid steps a cell
  const int cx = nx + per;                 // cells per row, their corners on the grid
  const int width = step * (nx - 1) + 2 * cell, height = step * (ny - 1) + 2 * cell;
  CV_Assert(origin.x > -image.cols && origin.y > -image.rows && origin.x + width < 2 * image.cols &&
            origin.y + height < 2 * image.rows);
  thread_local std::vector<float> profile;
  thread_local int profile_cell = 0;
  if (profile_cell != cell) profile = block_profiles(cell), profile_cell = cell;
  std::vector<int> column(static_cast<std::size_t>(width) + 2);
  for (int i = 0; i < width + 2; ++i)
    column[static_cast<std::size_t>(i)] = mirror(origin.x - 1 + i, image.cols);
  // Streamed: each pixel row's cell histograms along x (the last `cell` rows kept), each cell
  // row's histograms along y once its last pixel row is in (the last per + 1 cell rows kept),
  // and each block row once its bottom cells are in. Scratch kept between calls (the reader asks
  // for many small grids: no allocation each time).
  thread_local std::vector<float> planes, vote0, vote1, rows, cells;
  thread_local std::vector<int> bin;
  const std::size_t plane = column.size();
  const auto channels = static_cast<std::size_t>(image.channels());
  planes.resize(3 * plane * channels);
  // (8 zeros past the row: the vector code reads a whole vector from each cell's first pixel.)
  for (auto* v : {&vote0, &vote1}) v->assign(static_cast<std::size_t>(width) + 8, 0.f);
  bin.assign(static_cast<std::size_t>(width) + 8, 0);
  const std::size_t row_floats = static_cast<std::size_t>(cx) * kHist;
  const std::size_t cell_row_floats = static_cast<std::size_t>(cx) * kCellSize;
  rows.resize(static_cast<std::size_t>(cell) * row_floats);
  cells.resize(static_cast<std::size_t>(per + 1) * cell_row_floats);
  std::vector<const float*> window(static_cast<std::size_t>(cell));
  // A block row's blocks before they are normalised, and their scales (assemble_row_avx2).
  thread_local std::vector<float> row_blocks, row_sums;
  if (avx2) {
    row_blocks.resize(static_cast<std::size_t>(nx) * kBlockStride);
    row_sums.resize(static_cast<std::size_t>(nx) + 8);
  }
  // The image rows above, at and below the current one, as floats (x + 1 for x from -1).
  std::array<float*, 3> ring;
  for (std::size_t i = 0; i < 3; ++i) ring[i] = planes.data() + i * plane * channels;
  // The columns that are the image's own, in order (the rest mirrored).
  std::size_t inner_from = 0;
  while (inner_from < column.size() &&
         column[inner_from] != origin.x - 1 + static_cast<int>(inner_from))
    ++inner_from;
  std::size_t inner_to = inner_from;
  while (inner_to < column.size() && column[inner_to] == origin.x - 1 + static_cast<int>(inner_to))
    ++inner_to;
  load_planes(image, origin.y - 1, column, inner_from, inner_to, ring[0], avx2);
  load_planes(image, origin.y, column, inner_from, inner_to, ring[1], avx2);
  for (int y = 0; y < height; ++y) {
    load_planes(image, origin.y + y + 1, column, inner_from, inner_to, ring[2], avx2);
    if (channels == 1)
      votes(avx2, ring[0], ring[1], ring[2], width, vote0.data(), vote1.data(), bin.data());
    else
      colour_votes(avx2, ring[0], ring[1], ring[2], plane, width, vote0.data(), vote1.data(),
                   bin.data());
    std::rotate(ring.begin(), ring.begin() + 1, ring.end());
    row_histograms(avx2, vote0.data(), vote1.data(), bin.data(), cell, step, cx, profile.data(),
                   rows.data() + static_cast<std::size_t>(y % cell) * row_floats);
    // Cell row l covers pixel rows l * step to l * step + cell - 1.
    const int top = y + 1 - cell;
    if (top < 0 || top % step != 0) continue;
    const int l = top / step;
    for (int t = 0; t < cell; ++t)
      window[static_cast<std::size_t>(t)] =
          rows.data() + static_cast<std::size_t>((top + t) % cell) * row_floats;
    float* cell_row = cells.data() + static_cast<std::size_t>(l % (per + 1)) * cell_row_floats;
    for (int k = 0; k < cx; ++k) {
      column_histograms(avx2, window.data(), static_cast<std::size_t>(k) * kHist, cell,
                        profile.data(), cell_row + static_cast<std::size_t>(k) * kCellSize);
    }
    // Block row v has its top cells in cell row v and its bottom ones in row v + per.
    const int v = l - per;
    if (v < 0) continue;
    const float* first = cells.data() + static_cast<std::size_t>(v % (per + 1)) * cell_row_floats;
    float* to = out + static_cast<std::size_t>(v) * nx * kBlockFloats;
    if (avx2) {
      assemble_row_avx2(first, cell_row, nx, per, row_blocks.data(), row_sums.data(), to);
      continue;
    }
    for (int u = 0; u < nx; ++u) assemble_block(first, cell_row, u, per, to + u * kBlockFloats);
  }
}

void scan_hog(const cv::Mat& image, const float* weights, double threshold,
              std::vector<cv::Point>& hits, std::vector<double>& scores, bool vectors) {
  const bool avx2 = vectors && kAvx2;
  hits.clear();
  scores.clear();
  CV_Assert(image.type() == CV_8UC1);
  const int padded_w = image.cols + 2 * kPad, padded_h = image.rows + 2 * kPad;
  // Blocks 8 apart from the padded corner, and the windows (3 x 3 blocks each).
  const int blocks_x = (padded_w - 2 * kCell) / kCell + 1,
            blocks_y = (padded_h - 2 * kCell) / kCell + 1;
  const int windows_x = (padded_w - kWindowCells * kCell) / kCell + 1;
  const int windows_y = (padded_h - kWindowCells * kCell) / kCell + 1;
  if (windows_x <= 0 || windows_y <= 0) return;
  // The blocks, and 4 floats of slack after them (window_score reads whole vectors).
  thread_local std::vector<float> block;
  block.resize(static_cast<std::size_t>(blocks_x) * blocks_y * kBlockFloats + 4);
  std::fill(block.end() - 4, block.end(), 0.f);
  hog_blocks(image, kCell, kCell, {-kPad, -kPad}, blocks_x, blocks_y, block.data(), vectors);
  // Each window's score: its 3 x 3 blocks (column by column) against the weights, and the bias.
  std::vector<float> w(9 * kBlockStride, 0.f);
  for (int j = 0; j < 9; ++j)
    std::copy_n(weights + j * kBlockFloats, kBlockFloats, w.data() + j * kBlockStride);
  const double bias = weights[9 * kBlockFloats];
  const std::size_t row = static_cast<std::size_t>(blocks_x) * kBlockFloats;
  for (int wy = 0; wy < windows_y; ++wy) {
    for (int wx = 0; wx < windows_x; ++wx) {
      const float* at = block.data() + static_cast<std::size_t>(wy) * row +
                        static_cast<std::size_t>(wx) * kBlockFloats;
      const double score = window_score(avx2, at, row, w.data()) + bias;
      if (score >= threshold) {
        hits.emplace_back(wx * kCell - kPad, wy * kCell - kPad);
        scores.push_back(score);
      }
    }
  }
}

void hog_window(const cv::Mat& image, int cell, float* out, bool vectors) {
  const int nx = image.cols / cell - 1, ny = image.rows / cell - 1;
  std::vector<float> blocks(static_cast<std::size_t>(nx) * ny * kBlockFloats);
  hog_blocks(image, cell, cell, {0, 0}, nx, ny, blocks.data(), vectors);
  // The descriptor's order: blocks column by column.
  for (int u = 0; u < nx; ++u) {
    for (int v = 0; v < ny; ++v) {
      std::copy_n(blocks.data() + (static_cast<std::size_t>(v) * nx + u) * kBlockFloats,
                  kBlockFloats, out);
      out += kBlockFloats;
    }
  }
}

}  // namespace arbitre::vision::dice
