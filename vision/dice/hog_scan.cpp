#include "vision/dice/hog_scan.h"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace arbitre::vision::dice {

namespace {

constexpr int kBins = 9;
constexpr int kCell = 8;                               // pixels, square
constexpr int kPad = 8;                                // the image is padded by this on every side
constexpr int kWindowCells = 4;                        // a window is 4 x 4 cells (32 pixels)
constexpr int kBlockFloats = 4 * kBins;                // a block's histogram: its 2 x 2 cells
constexpr int kBlockStride = 40;                       // ... stored with 4 zeros after it
constexpr int kProfiles = 4;                           // per axis, see profiles()
constexpr int kCellFloats = kProfiles * kBlockFloats;  // a cell's weighted histograms

// The weight along one axis of pixel k of an image cell, in profile p = 2 c + q: the cell lies at
// q (0: first, 1: second) in a block, and the pixel votes for the block's cell c. It is the
// block's Gaussian (sigma 4 about its middle: exp(-(t - 8)^2 / 32) at t pixels into the block)
// times the bilinear share of cell c (cells centred at 3.5 and 11.5; a pixel beyond a centre
// votes for that cell alone).
using Profiles = std::array<std::array<float, kCell>, kProfiles>;
Profiles profiles() {
  Profiles profile{};
  for (int c = 0; c < 2; ++c) {
    for (int q = 0; q < 2; ++q) {
      for (int k = 0; k < kCell; ++k) {
        const int t = q * kCell + k;
        const float d = static_cast<float>(t) - 8.f;
        const float at = (static_cast<float>(t) + 0.5f) / kCell - 0.5f;
        const int first = static_cast<int>(std::floor(at));
        const float frac = at - static_cast<float>(first);
        const float share = c == first ? 1.f - frac : c == first + 1 ? frac : 0.f;
        profile[static_cast<std::size_t>(2 * c + q)][static_cast<std::size_t>(k)] =
            std::exp(-d * d / 32.f) * share;
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

// The gradient ([-1, 0, 1] both ways) of one padded row (`here`, x + 1 for x from -1, between
// `up` and `down`) and its magnitude's two votes: the bins on either side of its direction (9
// over pi, bin b centred on (b + 0.5) pi / 9), shared linearly; `bin` is the first's.
void votes_scalar(const float* up, const float* here, const float* down, int from, int width,
                  float* vote0, float* vote1, int* bin) {
  for (int x = from; x < width; ++x) {
    const float dx = here[x + 2] - here[x];
    const float dy = down[x + 1] - up[x + 1];
    const float magnitude = std::sqrt(dx * dx + dy * dy);
    const float a = direction(dx, dy) * (kBins / std::numbers::pi_v<float>)-0.5f;
    int b = static_cast<int>(a + 1.f) - 1;  // a >= -0.5: the floor
    const float frac = a - static_cast<float>(b);
    if (b < 0) b += kBins;
    if (b >= kBins) b -= kBins;
    vote0[x] = magnitude * (1.f - frac);
    vote1[x] = magnitude * frac;
    bin[x] = b;
  }
}

// The same, eight pixels at a time (the same operations: no fused multiply-add).
__attribute__((target("avx2"))) void votes_avx2(const float* up, const float* here,
                                                const float* down, int width, float* vote0,
                                                float* vote1, int* bin) {
  const __m256 sign = _mm256_set1_ps(-0.f), zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.f);
  const __m256 half_pi = _mm256_set1_ps(std::numbers::pi_v<float> / 2);
  const __m256 pi = _mm256_set1_ps(std::numbers::pi_v<float>);
  const __m256 to_bins = _mm256_set1_ps(kBins / std::numbers::pi_v<float>);
  const __m256 half = _mm256_set1_ps(0.5f);
  const __m256i bins = _mm256_set1_epi32(kBins), none = _mm256_setzero_si256();
  const __m256i last = _mm256_set1_epi32(kBins - 1), unit = _mm256_set1_epi32(1);
  int x = 0;
  for (; x + 8 <= width; x += 8) {
    __m256 dx = _mm256_sub_ps(_mm256_loadu_ps(here + x + 2), _mm256_loadu_ps(here + x));
    __m256 dy = _mm256_sub_ps(_mm256_loadu_ps(down + x + 1), _mm256_loadu_ps(up + x + 1));
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
    _mm256_storeu_ps(vote0 + x, _mm256_mul_ps(magnitude, _mm256_sub_ps(one, frac)));
    _mm256_storeu_ps(vote1 + x, _mm256_mul_ps(magnitude, frac));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(bin + x), b);
  }
  votes_scalar(up, here, down, x, width, vote0, vote1, bin);
}

const bool kAvx2 = __builtin_cpu_supports("avx2");

void votes(bool avx2, const float* up, const float* here, const float* down, int width,
           float* vote0, float* vote1, int* bin) {
  if (avx2) return votes_avx2(up, here, down, width, vote0, vote1, bin);
  votes_scalar(up, here, down, 0, width, vote0, vote1, bin);
}

// One padded row's votes (row k_y of its cells) added to its cells' histograms (`cells`, the
// cell row's first): each cell's row histogram per column profile, then weighted by each row
// profile.
void add_row_scalar(const float* vote0, const float* vote1, const int* bin, int cells_x, int k_y,
                    const Profiles& profile, float* cells) {
  std::array<float, kBlockFloats> row{};  // [column profile][bin]
  for (int cx = 0; cx < cells_x; ++cx) {
    row.fill(0.f);
    for (int k = 0; k < kCell; ++k) {
      const int x = cx * kCell + k;
      const int b0 = bin[x], b1 = b0 + 1 == kBins ? 0 : b0 + 1;
      for (int p = 0; p < kProfiles; ++p) {
        const float w = profile[static_cast<std::size_t>(p)][static_cast<std::size_t>(k)];
        row[static_cast<std::size_t>(p * kBins + b0)] += vote0[x] * w;
        row[static_cast<std::size_t>(p * kBins + b1)] += vote1[x] * w;
      }
    }
    float* h = cells + static_cast<std::size_t>(cx) * kCellFloats;
    for (int p = 0; p < kProfiles; ++p) {
      const float w = profile[static_cast<std::size_t>(p)][static_cast<std::size_t>(k_y)];
      if (w == 0.f) continue;
      float* hp = h + p * kBlockFloats;
      for (int i = 0; i < kBlockFloats; ++i) hp[i] += w * row[static_cast<std::size_t>(i)];
    }
  }
}

// The same with each pixel's votes as one vector of bins 0-7 (and bin 8 apart): the same sums
// in the same order, without a store waiting on the last one to the same bin.
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

__attribute__((target("avx2"))) void add_row_avx2(const float* vote0, const float* vote1,
                                                  const int* bin, int cells_x, int k_y,
                                                  const Profiles& profile, float* cells) {
  const __m256i eight = _mm256_set1_epi32(kBins - 1), seven = _mm256_set1_epi32(kBins - 2);
  __m256 column[kProfiles];  // each column profile over the cell's 8 pixels
  for (int p = 0; p < kProfiles; ++p)
    column[p] = _mm256_loadu_ps(profile[static_cast<std::size_t>(p)].data());
  for (int cx = 0; cx < cells_x; ++cx) {
    const int x0 = cx * kCell;
    __m256 acc[kProfiles];
    for (__m256& a : acc) a = _mm256_setzero_ps();
    for (int k = 0; k < kCell; ++k) {
      const __m256 v = votes_of(vote0, vote1, bin, x0 + k);
      // Profile 1 is 0 over the cell's second half, profile 2 over its first: skipped there.
      for (const int p : {0, k < kCell / 2 ? 1 : 2, 3}) {
        acc[p] = _mm256_add_ps(
            acc[p], _mm256_mul_ps(
                        v, _mm256_set1_ps(
                               profile[static_cast<std::size_t>(p)][static_cast<std::size_t>(k)])));
      }
    }
    // Bin 8's votes of the cell's 8 pixels as one vector, weighted by each column profile.
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bin + x0));
    const __m256 last =
        _mm256_add_ps(_mm256_and_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(b, eight)),
                                    _mm256_loadu_ps(vote0 + x0)),
                      _mm256_and_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(b, seven)),
                                    _mm256_loadu_ps(vote1 + x0)));
    alignas(32) float tail[kProfiles][8];
    for (int p = 0; p < kProfiles; ++p) _mm256_store_ps(tail[p], _mm256_mul_ps(last, column[p]));
    float* h = cells + static_cast<std::size_t>(cx) * kCellFloats;
    for (int p = 0; p < kProfiles; ++p) {
      const float w = profile[static_cast<std::size_t>(p)][static_cast<std::size_t>(k_y)];
      if (w == 0.f) continue;
      const __m256 wv = _mm256_set1_ps(w);
      float* hp = h + p * kBlockFloats;
      for (int q = 0; q < kProfiles; ++q) {
        float* at = hp + q * kBins;
        _mm256_storeu_ps(at, _mm256_add_ps(_mm256_loadu_ps(at), _mm256_mul_ps(wv, acc[q])));
        const float* t = tail[q];
        at[kBins - 1] += w * (((t[0] + t[4]) + (t[1] + t[5])) + ((t[2] + t[6]) + (t[3] + t[7])));
      }
    }
  }
}

void add_row(bool avx2, const float* vote0, const float* vote1, const int* bin, int cells_x,
             int k_y, const Profiles& profile, float* cells) {
  if (avx2) return add_row_avx2(vote0, vote1, bin, cells_x, k_y, profile, cells);
  add_row_scalar(vote0, vote1, bin, cells_x, k_y, profile, cells);
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

// A window's 3 x 3 blocks (its first at `at`, rows `row` floats apart) against the weights (9
// blocks of kBlockStride, column by column), in eight running parts.
float window_score_scalar(const float* at, std::size_t row, const float* w) {
  std::array<float, 8> part{};
  for (int bx = 0; bx < 3; ++bx) {
    for (int by = 0; by < 3; ++by, w += kBlockStride) {
      const float* h = at + by * row + static_cast<std::size_t>(bx) * kBlockStride;
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
      const float* h = at + by * row + static_cast<std::size_t>(bx) * kBlockStride;
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

}  // namespace

void scan_hog(const cv::Mat& image, const float* weights, double threshold,
              std::vector<cv::Point>& hits, std::vector<double>& scores, bool vectors) {
  const bool avx2 = vectors && kAvx2;
  hits.clear();
  scores.clear();
  CV_Assert(image.type() == CV_8UC1);
  static const Profiles profile = profiles();
  const int padded_w = image.cols + 2 * kPad, padded_h = image.rows + 2 * kPad;
  // Blocks 8 apart from the padded corner, the windows' (3 x 3 blocks each), and the cells.
  const int blocks_x = (padded_w - 2 * kCell) / kCell + 1,
            blocks_y = (padded_h - 2 * kCell) / kCell + 1;
  const int windows_x = (padded_w - kWindowCells * kCell) / kCell + 1;
  const int windows_y = (padded_h - kWindowCells * kCell) / kCell + 1;
  if (windows_x <= 0 || windows_y <= 0) return;
  const int cells_x = blocks_x + 1, cells_y = blocks_y + 1;
  const int width = cells_x * kCell;  // the padded columns the cells cover

  // Each cell's 4 x 4 histograms: [row profile][column profile][bin].
  std::vector<float> cell(static_cast<std::size_t>(cells_x) * cells_y * kCellFloats, 0.f);
  std::vector<int> column(static_cast<std::size_t>(width) + 2);
  for (int x = -1; x <= width; ++x)
    column[static_cast<std::size_t>(x + 1)] = mirror(x - kPad, image.cols);
  // The padded rows above, at and below the current one, as floats (x + 1 for x from -1).
  std::array<std::vector<float>, 3> rows;
  for (auto& r : rows) r.resize(static_cast<std::size_t>(width) + 2);
  const auto load_row = [&](int y, std::vector<float>& out) {
    const unsigned char* src = image.ptr(mirror(y - kPad, image.rows));
    // Index i holds padded column i - 1, image column i - 1 - kPad: mirrored near the edges,
    // straight between.
    const int n = static_cast<int>(out.size());
    const int first = std::min(n, kPad + 1),
              last = std::max(first, std::min(n, image.cols + kPad + 1));
    for (int i = 0; i < first; ++i)
      out[static_cast<std::size_t>(i)] =
          static_cast<float>(src[column[static_cast<std::size_t>(i)]]);
    for (int i = first; i < last; ++i)
      out[static_cast<std::size_t>(i)] = static_cast<float>(src[i - 1 - kPad]);
    for (int i = last; i < n; ++i)
      out[static_cast<std::size_t>(i)] =
          static_cast<float>(src[column[static_cast<std::size_t>(i)]]);
  };
  std::vector<float> vote0(static_cast<std::size_t>(width)), vote1(static_cast<std::size_t>(width));
  std::vector<int> bin0(static_cast<std::size_t>(width));
  load_row(-1, rows[0]);
  load_row(0, rows[1]);
  for (int y = 0; y < cells_y * kCell; ++y) {
    load_row(y + 1, rows[2]);
    votes(avx2, rows[0].data(), rows[1].data(), rows[2].data(), width, vote0.data(), vote1.data(),
          bin0.data());
    std::rotate(rows.begin(), rows.begin() + 1, rows.end());
    add_row(avx2, vote0.data(), vote1.data(), bin0.data(), cells_x, y % kCell, profile,
            cell.data() + static_cast<std::size_t>(y / kCell) * cells_x * kCellFloats);
  }

  // Each block's histogram, in the descriptor's order (its cells column by column, then bins),
  // from its four cells', normalised as L2-Hys (clipped at 0.2, then to unit length).
  std::vector<float> block(static_cast<std::size_t>(blocks_x) * blocks_y * kBlockStride, 0.f);
  for (int by = 0; by < blocks_y; ++by) {
    for (int bx = 0; bx < blocks_x; ++bx) {
      float* out = block.data() + (static_cast<std::size_t>(by) * blocks_x + bx) * kBlockStride;
      for (int qy = 0; qy < 2; ++qy) {
        for (int qx = 0; qx < 2; ++qx) {
          const float* h =
              cell.data() + (static_cast<std::size_t>(by + qy) * cells_x + (bx + qx)) * kCellFloats;
          for (int cx = 0; cx < 2; ++cx) {
            for (int cy = 0; cy < 2; ++cy) {
              const float* from = h + (2 * cy + qy) * kBlockFloats + (2 * cx + qx) * kBins;
              float* to = out + (2 * cx + cy) * kBins;
              for (int b = 0; b < kBins; ++b) to[b] += from[b];
            }
          }
        }
      }
      normalise(out);
    }
  }

  // Each window's score: its 3 x 3 blocks (column by column) against the weights, and the bias.
  std::vector<float> w(9 * kBlockStride, 0.f);
  for (int j = 0; j < 9; ++j)
    std::copy_n(weights + j * kBlockFloats, kBlockFloats, w.data() + j * kBlockStride);
  const double bias = weights[9 * kBlockFloats];
  for (int wy = 0; wy < windows_y; ++wy) {
    for (int wx = 0; wx < windows_x; ++wx) {
      const float* at =
          block.data() + (static_cast<std::size_t>(wy) * blocks_x + wx) * kBlockStride;
      const double score =
          window_score(avx2, at, static_cast<std::size_t>(blocks_x) * kBlockStride, w.data()) +
          bias;
      if (score >= threshold) {
        hits.emplace_back(wx * kCell - kPad, wy * kCell - kPad);
        scores.push_back(score);
      }
    }
  }
}

}  // namespace arbitre::vision::dice
