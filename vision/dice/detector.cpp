#include "vision/dice/detector.h"

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <numeric>
#include <opencv2/imgproc.hpp>
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

#include "vision/common/forest.h"
#include "vision/common/warp.h"
#include "vision/dice/hog_scan.h"

namespace arbitre::vision::dice {

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Votes of the reader for a batch of feature rows: one row per sample, kReaderClasses shares.
cv::Mat vote_shares(const cv::Ptr<cv::ml::RTrees>& reader, const cv::Mat& samples) {
  const cv::Mat votes = forest_votes(reader, samples);  // getVotes' counts, flattened trees
  // The first row holds the class labels, in the forest's order.
  cv::Mat shares(samples.rows, kReaderClasses, CV_32F, cv::Scalar(0));
  const int trees = std::max(1, static_cast<int>(reader->getRoots().size()));
  for (int c = 0; c < votes.cols; ++c) {
    const int label = votes.at<int>(0, c);
    if (label < 0 || label >= kReaderClasses) continue;
    for (int r = 0; r < samples.rows; ++r) {
      shares.at<float>(r, label) =
          static_cast<float>(votes.at<int>(r + 1, c)) / static_cast<float>(trees);
    }
  }
  return shares;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

bool inside(const Polygon& polygon, cv::Point2d point) {
  if (polygon.size() < 3) return false;
  std::vector<cv::Point2f> contour;
  for (const cv::Point2d& p : polygon)
    contour.emplace_back(static_cast<float>(p.x), static_cast<float>(p.y));
  return cv::pointPolygonTest(contour,
                              cv::Point2f(static_cast<float>(point.x), static_cast<float>(point.y)),
                              false) >= 0;
}

}  // namespace

cv::Mat refine_neighbourhood(const cv::Mat& grey, cv::Point2d centre, double radius, int reach) {
  const double f = kWindowRadius / radius;
  const int side = kWindow + 2 * reach + 16;
  const double half = side / (2 * f) + 2;
  const cv::Rect roi =
      cv::Rect(static_cast<int>(centre.x - half), static_cast<int>(centre.y - half),
               static_cast<int>(2 * half), static_cast<int>(2 * half)) &
      cv::Rect(0, 0, grey.cols, grey.rows);
  if (roi.width < 8 || roi.height < 8) return {};
  cv::Mat m = (cv::Mat_<double>(2, 3) << f, 0, side / 2.0 - f * (centre.x - roi.x), 0, f,
               side / 2.0 - f * (centre.y - roi.y));
  cv::Mat patch;
  warp_linear(grey(roi), patch, m, cv::Size(side, side));  // warpAffine's INTER_AREA is bilinear
  return patch;
}

cv::Point2d refine_centre(const cv::Mat& grey, cv::Point2d centre, double radius,
                          const Params& params, const Model& model) {
  if (params.refine_steps <= 0 || model.window_weights.empty()) return centre;
  const double f = kWindowRadius / radius;
  const int reach = params.refine_steps * 2;  // level pixels each way, in steps of 2
  const cv::Mat patch = refine_neighbourhood(grey, centre, radius, reach);
  if (patch.empty()) return centre;
  const int side = patch.cols;
  // The windows' 3x3 blocks (16 pixels, 8 apart) lie on a grid of 2-pixel steps, most of them
  // shared by several windows: each block is computed once (`hog_blocks`: OpenCV's HOG of a
  // window of one block to a few ten-thousandths, its cells shared by the blocks too), and each
  // window's score is summed from its blocks in the descriptor's order (block columns, then
  // rows).
  constexpr int kBlock = 36;   // floats per block
  const int grid = reach + 9;  // block origins per axis (2 pixels apart): the windows' and 2 x 8
  const int origin = side / 2 - kWindow / 2 - reach;  // the first window's and block's corner
  std::vector<float> histograms(static_cast<std::size_t>(grid * grid * kBlock));
  hog_blocks(patch, 8, 2, {origin, origin}, grid, grid, histograms.data());
  const float* w = model.window_weights.ptr<float>();
  double best = -1e18;
  cv::Point2d out = centre;
  for (int dy = -reach; dy <= reach; dy += 2) {
    for (int dx = -reach; dx <= reach; dx += 2) {
      double s = w[kWindowFeatures];
      const float* wi = w;
      for (int bx = 0; bx < 3; ++bx) {
        for (int by = 0; by < 3; ++by) {
          const int u = (dx + reach) / 2 + 4 * bx, v = (dy + reach) / 2 + 4 * by;
          const float* h = histograms.data() + static_cast<std::size_t>(v * grid + u) * kBlock;
          for (int i = 0; i < kBlock; ++i) s += wi[i] * h[i];
          wi += kBlock;
        }
      }
      if (s > best) {
        best = s;
        out = centre + cv::Point2d(dx, dy) / f;
      }
    }
  }
  return out;
}

Model read_model(const cv::FileStorage& storage) {
  Model m;
  if (!storage.isOpened()) return m;
  storage["window_weights"] >> m.window_weights;
  const auto forest = [&](const char* name) { return read_forest(storage[name]); };
  m.reader = forest("reader");
  m.cocked = forest("cocked");
  m.texture = forest("texture");
  m.digits = forest("digits");
  m.face_x = forest("face_x");
  m.face_y = forest("face_y");
  if (!m.face_x || !m.face_y) m.face_x.release(), m.face_y.release();
  if (!storage["digit_net"].empty()) {
    m.digit_net = read_mlp(storage["digit_net"]);
    if (m.digit_net.inputs() != kFaceFeatures || m.digit_net.classes() != kReaderClasses)
      m.digit_net = Mlp{};
  }
  // A network of the expected input (`side` square, 0: any side; 1 to `planes` planes) and
  // classes, else none.
  const auto network = [&](const char* name, int classes, int planes = 1, int side = kCnnSide) {
    Cnn n = read_cnn(storage[name]);
    if (n.empty() || (side > 0 && n.shape.side != side) || n.shape.channels < 1 ||
        n.shape.channels > planes || n.classes() != classes)
      n = Cnn{};
    return n;
  };
  m.digit_cnn = network("digit_cnn", kReaderClasses);
  m.digit_cnn_2 = network("digit_cnn_2", kReaderClasses);
  // Its own side (its crops span what the digit network's do), grey or colour.
  m.clear_cnn = network("clear_cnn", kReaderClasses, 3, 0);
  m.clear_cnn_2 = network("clear_cnn_2", kReaderClasses, 3, 0);
  if (m.clear_cnn.empty() || m.clear_cnn_2.shape.channels != m.clear_cnn.shape.channels)
    m.clear_cnn_2 = Cnn{};
  if (m.digit_cnn.empty()) m.digit_cnn_2 = Cnn{}, m.clear_cnn = Cnn{}, m.clear_cnn_2 = Cnn{};
  m.face_cnn = network("face_cnn", kFaceBins, kFacePlanes);
  m.centre_cnn = network("centre_cnn", kFaceBins, kFacePlanes);
  m.clear_face_cnn = network("clear_face_cnn", kFaceBins, kFacePlanes);
  m.top_cnn = network("top_cnn", kFaceBins, kFacePlanes);
  m.fine_face_cnn = network("fine_face_cnn", kFaceBins, kFacePlanes, kFineFaceSide);
  m.fine_centre_cnn = network("fine_centre_cnn", kFaceBins, kFacePlanes, kFineCentreSide);
  m.presence_cnn = network("presence_cnn", 2);
  m.size_cnn = network("size_cnn", kSizeBins, 1, kSizeSide);
  m.lean_cnn = network("lean_cnn", 2, kLeanPlanes, 0);  // its own side (train_dice --lean-side)
  if (m.lean_cnn.shape.channels != kLeanPlanes) m.lean_cnn = Cnn{};
  m.axis_cnn = network("axis_cnn", kAxisBins);
  m.axis_c = forest("axis_c");
  m.axis_s = forest("axis_s");
  if (!m.axis_c || !m.axis_s) m.axis_c.release(), m.axis_s.release();
  return with_quick_networks(std::move(m), true);
}

Model with_quick_networks(Model model, bool quick) {
  for (Cnn* n : {&model.digit_cnn, &model.digit_cnn_2, &model.clear_cnn, &model.clear_cnn_2,
                 &model.clear_face_cnn, &model.axis_cnn, &model.face_cnn, &model.centre_cnn,
                 &model.top_cnn, &model.fine_face_cnn, &model.fine_centre_cnn, &model.presence_cnn,
                 &model.size_cnn, &model.lean_cnn}) {
    if (quick)
      n->quicken();
    else
      n->quick.reset();
  }
  return model;
}

Model load_model(const std::string& path) {
  return read_model(cv::FileStorage(path, cv::FileStorage::READ));
}

namespace {

// The digit network's probabilities for grey crops, or with a second digit network the mean of
// the two networks': where a die's value is read (the places searched beside the dice and the
// presence of the candidates take the first network's "no die" alone).
cv::Mat digit_probabilities(const Model& model, const cv::Mat& rows) {
  cv::Mat p = model.digit_cnn.probabilities(rows);
  if (!model.digit_cnn_2.empty() && rows.rows > 0)
    p = 0.5 * (p + model.digit_cnn_2.probabilities(rows));
  return p;
}

// One source pixel's share in a destination pixel of an area shrink (OpenCV's DecimateAlpha).
struct AreaTap {
  int d, s;
  float alpha;
};

// OpenCV's computeResizeAreaTab (imgproc/resize.cpp), the same numbers in the same order.
std::vector<AreaTap> area_taps(int ssize, int dsize, double scale) {
  std::vector<AreaTap> taps;
  for (int dx = 0; dx < dsize; dx++) {
    const double fsx1 = dx * scale;
    const double fsx2 = fsx1 + scale;
    const double cell = std::min(scale, ssize - fsx1);
    int sx1 = static_cast<int>(std::ceil(fsx1)), sx2 = static_cast<int>(std::floor(fsx2));
    sx2 = std::min(sx2, ssize - 1);
    sx1 = std::min(sx1, sx2);
    if (sx1 - fsx1 > 1e-3) taps.push_back({dx, sx1 - 1, static_cast<float>((sx1 - fsx1) / cell)});
    for (int sx = sx1; sx < sx2; sx++) taps.push_back({dx, sx, static_cast<float>(1.0 / cell)});
    if (fsx2 - sx2 > 1e-3) {
      taps.push_back(
          {dx, sx2, static_cast<float>(std::min(std::min(fsx2 - sx2, 1.), cell) / cell)});
    }
  }
  return taps;
}

// One source row's horizontal sums for every destination pixel: buf[dx] = the chain of
// row[at] * share over its tap slots, from 0 (`at` and `share`: slots x w, a missing tap
// weighing 0).
void area_row(const float* row, const int* at, const float* share, int slots, int w, float* buf) {
  for (int dx = 0; dx < w; ++dx) buf[dx] = 0.f + row[at[dx]] * share[dx];
  for (int k = 1; k < slots; ++k) {
    at += w, share += w;
    for (int dx = 0; dx < w; ++dx) buf[dx] += row[at[dx]] * share[dx];
  }
}

#if defined(__GNUC__) && defined(__x86_64__)
const bool kAvx2 = __builtin_cpu_supports("avx2");

// Eight source rows at once, without gathers: the rows as columns of eight floats (t[x * 8 + j]
// is row j's pixel x), each destination pixel's taps loaded as whole vectors (the same chain of
// multiplies and adds per row as area_row), and the eight rows of sums turned back.
__attribute__((target("avx2"))) void rows_as_columns(const uchar* const* rows, int cols, float* t) {
  int x = 0;
  for (; x + 8 <= cols; x += 8) {
    __m128i r[8];
    for (int j = 0; j < 8; ++j)
      r[j] = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(rows[j] + x));
    // Bytes of rows 0-1, 2-3, 4-5, 6-7 interleaved; then 16-bit pairs; then 32-bit quads: each
    // 16 bytes hold two columns of the eight rows.
    const __m128i a0 = _mm_unpacklo_epi8(r[0], r[1]), a1 = _mm_unpacklo_epi8(r[2], r[3]);
    const __m128i a2 = _mm_unpacklo_epi8(r[4], r[5]), a3 = _mm_unpacklo_epi8(r[6], r[7]);
    const __m128i b0 = _mm_unpacklo_epi16(a0, a1), b1 = _mm_unpackhi_epi16(a0, a1);
    const __m128i b2 = _mm_unpacklo_epi16(a2, a3), b3 = _mm_unpackhi_epi16(a2, a3);
    const __m128i c[4] = {_mm_unpacklo_epi32(b0, b2), _mm_unpackhi_epi32(b0, b2),
                          _mm_unpacklo_epi32(b1, b3), _mm_unpackhi_epi32(b1, b3)};
    float* out = t + static_cast<std::size_t>(x) * 8;
    for (int i = 0; i < 4; ++i) {
      _mm256_storeu_ps(out + 16 * i, _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(c[i])));
      _mm256_storeu_ps(out + 16 * i + 8,
                       _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(c[i], 8))));
    }
  }
  for (; x < cols; ++x) {
    for (int j = 0; j < 8; ++j)
      t[static_cast<std::size_t>(x) * 8 + static_cast<std::size_t>(j)] =
          static_cast<float>(rows[j][x]);
  }
}

__attribute__((target("avx2"))) void area_rows8_avx2(const float* t, const int* at,
                                                     const float* share, int slots, int w,
                                                     float* const* out) {
  for (int dx0 = 0; dx0 < w; dx0 += 8) {
    const int n = std::min(8, w - dx0);
    alignas(32) float sums[8][8];  // [destination pixel][row]
    for (int i = 0; i < n; ++i) {
      const int dx = dx0 + i;
      __m256 sum = _mm256_setzero_ps();
      for (int k = 0; k < slots; ++k) {
        const std::size_t o = static_cast<std::size_t>(k) * static_cast<std::size_t>(w) +
                              static_cast<std::size_t>(dx);
        sum = _mm256_add_ps(sum,
                            _mm256_mul_ps(_mm256_loadu_ps(t + static_cast<std::size_t>(at[o]) * 8),
                                          _mm256_set1_ps(share[o])));
      }
      _mm256_store_ps(sums[i], sum);
    }
    if (n < 8) {
      for (int j = 0; j < 8; ++j) {
        for (int i = 0; i < n; ++i) out[j][dx0 + i] = sums[i][j];
      }
      continue;
    }
    // The 8 x 8 block turned: row j's sums for these eight destination pixels.
    __m256 v[8];
    for (int i = 0; i < 8; ++i) v[i] = _mm256_load_ps(sums[i]);
    const __m256 l0 = _mm256_unpacklo_ps(v[0], v[1]), h0 = _mm256_unpackhi_ps(v[0], v[1]);
    const __m256 l1 = _mm256_unpacklo_ps(v[2], v[3]), h1 = _mm256_unpackhi_ps(v[2], v[3]);
    const __m256 l2 = _mm256_unpacklo_ps(v[4], v[5]), h2 = _mm256_unpackhi_ps(v[4], v[5]);
    const __m256 l3 = _mm256_unpacklo_ps(v[6], v[7]), h3 = _mm256_unpackhi_ps(v[6], v[7]);
    const __m256 q0 = _mm256_shuffle_ps(l0, l1, 0x44), q1 = _mm256_shuffle_ps(l0, l1, 0xEE);
    const __m256 q2 = _mm256_shuffle_ps(h0, h1, 0x44), q3 = _mm256_shuffle_ps(h0, h1, 0xEE);
    const __m256 q4 = _mm256_shuffle_ps(l2, l3, 0x44), q5 = _mm256_shuffle_ps(l2, l3, 0xEE);
    const __m256 q6 = _mm256_shuffle_ps(h2, h3, 0x44), q7 = _mm256_shuffle_ps(h2, h3, 0xEE);
    const __m256 rows[8] = {
        _mm256_permute2f128_ps(q0, q4, 0x20), _mm256_permute2f128_ps(q1, q5, 0x20),
        _mm256_permute2f128_ps(q2, q6, 0x20), _mm256_permute2f128_ps(q3, q7, 0x20),
        _mm256_permute2f128_ps(q0, q4, 0x31), _mm256_permute2f128_ps(q1, q5, 0x31),
        _mm256_permute2f128_ps(q2, q6, 0x31), _mm256_permute2f128_ps(q3, q7, 0x31)};
    for (int j = 0; j < 8; ++j) _mm256_storeu_ps(out[j] + dx0, rows[j]);
  }
}
#endif

// A destination row of sums rounded to bytes (saturate_cast: to nearest, ties to even, clamped).
#if defined(__GNUC__) && defined(__x86_64__)
__attribute__((target("avx2"))) int store_row_avx2(const float* acc, int w, uchar* d) {
  int dx = 0;
  for (; dx + 16 <= w; dx += 16) {
    const __m256i a = _mm256_cvtps_epi32(_mm256_loadu_ps(acc + dx));
    const __m256i b = _mm256_cvtps_epi32(_mm256_loadu_ps(acc + dx + 8));
    // Packs work within 128-bit lanes: put the 16 words back in order before the bytes.
    const __m256i words = _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), 0xD8);
    const __m128i bytes =
        _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + dx), bytes);
  }
  return dx;
}
#endif

void store_row(const float* acc, int w, uchar* d) {
  int dx = 0;
#if defined(__GNUC__) && defined(__x86_64__)
  if (kAvx2) dx = store_row_avx2(acc, w, d);
#endif
  for (; dx < w; ++dx) d[dx] = cv::saturate_cast<uchar>(acc[dx]);
}

// OpenCV's area resize of src to `size`, scale_x and scale_y source pixels a destination pixel
// (as cv::resize computes them from the size or the factors it is given); false, and nothing
// done, unless it is a grey image shrunk by a factor that is not a whole number.
bool area_shrink(const cv::Mat& src, cv::Size size, double scale_x, double scale_y, cv::Mat& dst) {
  const bool integral = std::abs(scale_x - std::lround(scale_x)) < DBL_EPSILON &&
                        std::abs(scale_y - std::lround(scale_y)) < DBL_EPSILON;
  if (src.type() != CV_8UC1 || size.width <= 0 || size.height <= 0 || scale_x < 1 || scale_y < 1 ||
      integral || src.data == dst.data) {
    return false;
  }
  // OpenCV's ResizeArea_Invoker sums, for each destination row, its source rows' weighted
  // horizontal sums (each a chain of taps from 0): the same float operations in the same order,
  // the horizontal sums taken tap slot by tap slot across the row (no chain from one to the
  // next; a missing tap adds 0 * pixel, which changes no sum) and each source row's once.
  const std::vector<AreaTap> xtab = area_taps(src.cols, size.width, scale_x);
  const std::vector<AreaTap> ytab = area_taps(src.rows, size.height, scale_y);
  const int w = size.width;
  int slots = 0;
  std::vector<int> count(static_cast<std::size_t>(w), 0);
  for (const AreaTap& t : xtab) slots = std::max(slots, ++count[static_cast<std::size_t>(t.d)]);
  std::vector<int> at(static_cast<std::size_t>(slots * w));
  std::vector<float> share(static_cast<std::size_t>(slots * w), 0.f);
  std::fill(count.begin(), count.end(), 0);
  for (const AreaTap& t : xtab) {
    const auto k = static_cast<std::size_t>(count[static_cast<std::size_t>(t.d)]++ * w + t.d);
    at[k] = t.s, share[k] = t.alpha;
  }
  for (int dx = 0; dx < w; ++dx) {
    for (int k = count[static_cast<std::size_t>(dx)]; k < slots; ++k)
      at[static_cast<std::size_t>(k * w + dx)] = at[static_cast<std::size_t>(dx)];
  }
  dst.create(size, CV_8UC1);
  std::vector<float> sum(static_cast<std::size_t>(w), 0.f);
  float* const acc = sum.data();
  // The horizontal sums of eight source rows at a time (from `batch`), or of one.
  std::vector<float> rows(static_cast<std::size_t>(w) * 8);
  std::vector<float> pixels(static_cast<std::size_t>(src.cols) * 8);  // source rows, as floats
  int batch = -1, batch_rows = 0;
  const float* buf = rows.data();
  int prev_dy = ytab.empty() ? 0 : ytab.front().d, buf_row = -1;
  for (const AreaTap& yt : ytab) {
    if (yt.s != buf_row) {
      buf_row = yt.s;
#if defined(__GNUC__) && defined(__x86_64__)
      if (kAvx2) {
        if (batch < 0 || yt.s < batch || yt.s >= batch + batch_rows) {
          batch = yt.s;
          batch_rows = std::min(8, src.rows - batch);
          // (Past the image's last row, its last row again: sums made and not used.)
          std::array<const uchar*, 8> from{};
          std::array<float*, 8> to{};
          for (int j = 0; j < 8; ++j) {
            from[static_cast<std::size_t>(j)] = src.ptr<uchar>(batch + std::min(j, batch_rows - 1));
            to[static_cast<std::size_t>(j)] = rows.data() + static_cast<std::size_t>(j) * w;
          }
          rows_as_columns(from.data(), src.cols, pixels.data());
          area_rows8_avx2(pixels.data(), at.data(), share.data(), slots, w, to.data());
        }
        buf = rows.data() + static_cast<std::size_t>(yt.s - batch) * w;
      } else
#endif
      {
        const uchar* s = src.ptr<uchar>(yt.s);
        for (int x = 0; x < src.cols; ++x) pixels[static_cast<std::size_t>(x)] = s[x];
        area_row(pixels.data(), at.data(), share.data(), slots, w, rows.data());
        buf = rows.data();
      }
    }
    const float beta = yt.alpha;
    if (yt.d != prev_dy) {
      store_row(acc, w, dst.ptr<uchar>(prev_dy));
      for (int dx = 0; dx < w; ++dx) acc[dx] = beta * buf[dx];
      prev_dy = yt.d;
    } else {
      for (int dx = 0; dx < w; ++dx) acc[dx] += beta * buf[dx];
    }
  }
  store_row(acc, w, dst.ptr<uchar>(prev_dy));
  return true;
}

}  // namespace

void shrink_area(const cv::Mat& src, cv::Size size, cv::Mat& dst) {
  const double scale_x = 1. / (static_cast<double>(size.width) / src.cols);
  const double scale_y = 1. / (static_cast<double>(size.height) / src.rows);
  if (!area_shrink(src, size, scale_x, scale_y, dst))
    cv::resize(src, dst, size, 0, 0, cv::INTER_AREA);
}

void shrink_area(const cv::Mat& src, double factor, cv::Mat& dst) {
  const cv::Size size(cv::saturate_cast<int>(src.cols * factor),
                      cv::saturate_cast<int>(src.rows * factor));
  if (!area_shrink(src, size, 1. / factor, 1. / factor, dst))
    cv::resize(src, dst, cv::Size(), factor, factor, cv::INTER_AREA);
}

cv::HOGDescriptor window_hog() {
  return cv::HOGDescriptor(cv::Size(kWindow, kWindow), cv::Size(16, 16), cv::Size(8, 8),
                           cv::Size(8, 8), 9);
}

namespace {

// scan_levels on the image's lightness.
std::vector<Candidate> scan_grey(const cv::Mat& grey, const Params& params, const Model& model,
                                 int first, int last) {
  std::vector<Candidate> all;
  if (model.window_weights.empty() || grey.empty()) return all;
  const float* weights = model.window_weights.ptr<float>();
  // OpenCV's detector only when asked for (the reference the scan's own HOG is checked against).
  cv::HOGDescriptor hog;
  if (params.scan_by_opencv) {
    hog = window_hog();
    hog.setSVMDetector(std::vector<float>(weights, weights + model.window_weights.total()));
  }
  // The lightness at full, half and quarter size: each level is shrunk from the smallest of
  // them that is still larger (averaging fewer pixels: this was half the scan's time).
  std::array<cv::Mat, 3> source;
  source[0] = grey;
  const double width = grey.cols;
  const double r_max = params.max_radius * width;
  int level = 0;
  for (double r = params.min_radius * width; r <= r_max * 1.0001; r *= params.level_step, ++level) {
    if (last >= 0 && level >= last) break;
    if (level < first) continue;
    const double f = kWindowRadius / r;
    const cv::Size size(static_cast<int>(std::lround(grey.cols * f)),
                        static_cast<int>(std::lround(grey.rows * f)));
    if (size.width < kWindow || size.height < kWindow) break;
    const int from = f <= 0.25 ? 2 : f <= 0.5 ? 1 : 0;
    for (int s = 1; s <= from; ++s) {  // the half and quarter sizes, when first needed
      if (!source[static_cast<std::size_t>(s)].empty()) continue;
      cv::resize(source[static_cast<std::size_t>(s - 1)], source[static_cast<std::size_t>(s)],
                 cv::Size((source[static_cast<std::size_t>(s - 1)].cols + 1) / 2,
                          (source[static_cast<std::size_t>(s - 1)].rows + 1) / 2),
                 0, 0, cv::INTER_AREA);
    }
    cv::Mat level_image;
    shrink_area(source[static_cast<std::size_t>(from)], size, level_image);
    std::vector<cv::Point> hits;
    std::vector<double> scores;
    if (params.scan_by_opencv)
      hog.detect(level_image, hits, scores, params.scan_threshold, cv::Size(8, 8), cv::Size(8, 8));
    else
      scan_hog(level_image, weights, params.scan_threshold, hits, scores);
    for (std::size_t i = 0; i < hits.size(); ++i) {
      Candidate c;
      c.centre = cv::Point2d((hits[i].x + kWindow / 2.0) / f, (hits[i].y + kWindow / 2.0) / f);
      c.radius = r;
      c.score = scores[i];
      all.push_back(c);
    }
  }
  return all;
}

}  // namespace

std::vector<Candidate> scan_levels(const cv::Mat& bgr, const Params& params, const Model& model,
                                   int first, int last) {
  if (model.window_weights.empty() || bgr.empty()) return {};
  cv::Mat grey;
  cv::cvtColor(bgr, grey, cv::COLOR_BGR2GRAY);
  return scan_grey(grey, params, model, first, last);
}

namespace {
void strongest_first(std::vector<Candidate>& windows) {
  std::stable_sort(windows.begin(), windows.end(),
                   [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
}
}  // namespace

std::vector<Candidate> scan_windows(const cv::Mat& bgr, const Params& params, const Model& model) {
  std::vector<Candidate> all = scan_levels(bgr, params, model, 0, -1);
  strongest_first(all);
  return all;
}

std::vector<Candidate> suppress(const std::vector<Candidate>& windows, const Params& params,
                                int limit, double min_radius, double max_radius) {
  std::vector<Candidate> kept;
  for (const Candidate& c : windows) {
    if (min_radius > 0 && c.radius < min_radius) continue;
    if (max_radius > 0 && c.radius > max_radius) continue;
    const bool near = std::any_of(kept.begin(), kept.end(), [&](const Candidate& k) {
      return cv::norm(k.centre - c.centre) < params.suppression * std::min(k.radius, c.radius);
    });
    if (near) continue;
    kept.push_back(c);
    if (static_cast<int>(kept.size()) >= limit) break;
  }
  return kept;
}

std::vector<Candidate> find_candidates(const cv::Mat& bgr, const Params& params,
                                       const Model& model) {
  return suppress(scan_windows(bgr, params, model), params, params.max_candidates);
}

cv::Mat face_crop(const cv::Mat& bgr, cv::Point2d centre, double radius, double angle_deg) {
  const double scale = (kCrop / 2.0) / (kCropRadius * std::max(radius, 1.0));
  cv::Mat m = cv::getRotationMatrix2D(
      cv::Point2f(static_cast<float>(centre.x), static_cast<float>(centre.y)), angle_deg, scale);
  m.at<double>(0, 2) += kCrop / 2.0 - centre.x;
  m.at<double>(1, 2) += kCrop / 2.0 - centre.y;
  cv::Mat crop;
  warp_linear(bgr, crop, m, cv::Size(kCrop, kCrop));
  return crop;
}

void cnn_crops(const cv::Mat& grey, cv::Point2d centre, double radius,
               const std::vector<double>& angles, cv::Mat& rows, int first, double span, int side) {
  const double scale = (side / 2.0) / (span * std::max(radius, 1.0));
  // Shrinking much: the neighbourhood is averaged down first (as INTER_AREA would), so that the
  // strokes do not alias; once for every turn.
  cv::Mat source = grey;
  cv::Point2d at = centre;
  double pre = 1;
  if (scale < 0.6) {
    const double half = span * radius * 1.5 + 4;
    const cv::Rect roi =
        cv::Rect(static_cast<int>(centre.x - half), static_cast<int>(centre.y - half),
                 static_cast<int>(2 * half), static_cast<int>(2 * half)) &
        cv::Rect(0, 0, grey.cols, grey.rows);
    if (roi.area() > 0) {
      pre = scale * 1.5;
      shrink_area(grey(roi), pre, source);
      at = (centre - cv::Point2d(roi.x, roi.y)) * pre;
    }
  }
  for (std::size_t i = 0; i < angles.size(); ++i) {
    cv::Mat m = cv::getRotationMatrix2D(
        cv::Point2f(static_cast<float>(at.x), static_cast<float>(at.y)), angles[i], scale / pre);
    m.at<double>(0, 2) += side / 2.0 - at.x;
    m.at<double>(1, 2) += side / 2.0 - at.y;
    cv::Mat crop(side, side, CV_8U, rows.ptr(first + static_cast<int>(i)));
    warp_linear(source, crop, m, crop.size());
  }
}

void clear_crops(const std::vector<cv::Mat>& planes, cv::Point2d centre, double radius,
                 const std::vector<double>& angles, const Cnn& net, cv::Mat& rows) {
  const int side = net.shape.side, area = side * side, n = static_cast<int>(angles.size());
  rows.create(n, net.inputs(), CV_8U);
  cv::Mat plane_rows(n, area, CV_8U);
  for (int c = 0; c < net.shape.channels; ++c) {
    cnn_crops(planes[static_cast<std::size_t>(c)], centre, radius, angles, plane_rows, 0,
              kCnnRadius, side);
    for (int i = 0; i < n; ++i)
      plane_rows.row(i).copyTo(rows.row(i).colRange(c * area, (c + 1) * area));
  }
}

std::vector<cv::Mat> clear_planes(const cv::Mat& bgr, const cv::Mat& grey, const Cnn& net) {
  if (net.shape.channels == 1) return {grey};
  std::vector<cv::Mat> planes;
  cv::split(bgr, planes);
  return planes;
}

cv::Mat clear_probabilities(const std::vector<cv::Mat>& planes, cv::Point2d at, double radius,
                            const std::vector<double>& angles, const Model& model) {
  cv::Mat rows;
  clear_crops(planes, at, radius, angles, model.clear_cnn, rows);
  cv::Mat p = model.clear_cnn.probabilities(rows);
  if (model.clear_cnn_2.empty()) return p;
  clear_crops(planes, at, radius, angles, model.clear_cnn_2, rows);
  return 0.5 * (p + model.clear_cnn_2.probabilities(rows));
}

void cnn_crop(const cv::Mat& grey, cv::Point2d centre, double radius, double angle_deg,
              unsigned char* out, double span) {
  cv::Mat row(1, kCnnSide * kCnnSide, CV_8U, out);
  cnn_crops(grey, centre, radius, {angle_deg}, row, 0, span);
}

void face_features(const cv::Mat& crop, float* out) {
  CV_Assert(crop.rows == kCrop && crop.cols == kCrop);
  // OpenCV's HOG of the crop (blocks of 12 pixels, 6 apart, 6-pixel cells) to a few
  // ten-thousandths (`hog_window`).
  hog_window(crop, kCrop / 8, out);
  cv::Mat grey, thumb;
  cv::cvtColor(crop, grey, cv::COLOR_BGR2GRAY);
  cv::resize(grey, thumb, cv::Size(kCropThumb, kCropThumb), 0, 0, cv::INTER_AREA);
  cv::Scalar mean, stddev;
  cv::meanStdDev(thumb, mean, stddev);
  const double sd = std::max(stddev[0], 4.0);
  for (int y = 0; y < kCropThumb; ++y) {
    for (int x = 0; x < kCropThumb; ++x) {
      out[kCropHog + y * kCropThumb + x] =
          static_cast<float>((thumb.at<unsigned char>(y, x) - mean[0]) / sd);
    }
  }
}

void locate_features(const cv::Mat& bgr, cv::Point2d centre, double radius, float* out) {
  face_features(face_crop(bgr, centre, radius, 0), out);
  const double width = std::max(1, bgr.cols);
  out[kFaceFeatures] = static_cast<float>((centre.x - bgr.cols / 2.0) / width);
  out[kFaceFeatures + 1] = static_cast<float>((centre.y - bgr.rows / 2.0) / width);
  out[kFaceFeatures + 2] = static_cast<float>(radius / width);
}

cv::Point2d locate_face(const cv::Mat& bgr, cv::Point2d centre, double radius, int steps,
                        const Model& model) {
  if (!model.face_x || !model.face_y) return centre;
  cv::Point2d at = centre;
  cv::Mat sample(1, kLocateFeatures, CV_32F);
  for (int k = 0; k < steps; ++k) {
    locate_features(bgr, at, radius, sample.ptr<float>());
    cv::Point2d shift(model.face_x->predict(sample), model.face_y->predict(sample));
    const double length = cv::norm(shift);
    if (length > 0.5) shift *= 0.5 / length;
    at += shift * radius;
  }
  return at;
}

void face_mark(cv::Size image, cv::Point2d centre, double angle_deg, unsigned char* out, int side) {
  cv::Mat plane(side, side, CV_8U, out);
  plane.setTo(0);
  const double width = std::max(1, image.width);
  const cv::Point2d toward((image.width / 2.0 - centre.x) / width,
                           (image.height / 2.0 - centre.y) / width);
  const double a = angle_deg * M_PI / 180.0;
  // As getRotationMatrix2D turns the crop.
  const cv::Point2d turned(std::cos(a) * toward.x + std::sin(a) * toward.y,
                           -std::sin(a) * toward.x + std::cos(a) * toward.y);
  const double reach = (side / 2.0 - 2) / 0.6;  // the plane's edge at 0.6 image widths
  cv::Point2d at = turned * reach;
  const double n = cv::norm(at);
  if (n > side / 2.0 - 2) at *= (side / 2.0 - 2) / n;
  cv::circle(plane,
             cv::Point(static_cast<int>(std::lround(side / 2.0 + at.x)),
                       static_cast<int>(std::lround(side / 2.0 + at.y))),
             2, cv::Scalar(255), cv::FILLED);
}

namespace {

// The turns of a round reading: `turns` from `start` degrees round.
std::vector<double> round_turns(double start, int turns) {
  std::vector<double> circle(static_cast<std::size_t>(turns));
  for (int t = 0; t < turns; ++t) circle[static_cast<std::size_t>(t)] = start + 360.0 * t / turns;
  return circle;
}

// A network's answer in bins of `step` (bin b centred on (b - bins / 2) x step) from its
// probabilities `q`: the likeliest bin and its two neighbours, weighed.
double bin_answer(const float* q, int bins, double step) {
  const int b = static_cast<int>(std::max_element(q, q + bins) - q);
  double sum = 0, weight = 0;
  for (int j = std::max(0, b - 1); j <= std::min(bins - 1, b + 1); ++j) {
    sum += q[j] * (j - bins / 2) * step;
    weight += q[j];
  }
  return weight > 0 ? sum / weight : 0;
}

// A network of the face network's shape (`net`: the face network or the centre network) applied
// `steps` times from each of `centres`; or of a fine network's, with its crop's `span` and its
// bins' `step` (its side and bins are the network's).
std::vector<cv::Point2d> locate_with(const Cnn& net, const cv::Mat& grey,
                                     const std::vector<cv::Point2d>& centres,
                                     const std::vector<double>& radii, int steps, int turns = 4,
                                     double span = kFaceSpan, double step = kFaceStep) {
  std::vector<cv::Point2d> at = centres;
  const int n = static_cast<int>(std::min(centres.size(), radii.size()));
  at.resize(static_cast<std::size_t>(n));
  if (n == 0 || turns < 2) return at;
  const int planes = net.shape.channels, side = net.shape.side, bins = net.classes();
  const int side2 = side * side;
  const std::vector<double> angles = round_turns(0, turns);
  cv::Mat rows(turns * n, side2 * planes, CV_8U);
  cv::Mat crops(turns, side2, CV_8U);
  for (int k = 0; k < steps; ++k) {
    for (int i = 0; i < n; ++i) {
      const cv::Point2d place = at[static_cast<std::size_t>(i)];
      cnn_crops(grey, place, radii[static_cast<std::size_t>(i)], angles, crops, 0, span, side);
      for (int t = 0; t < turns; ++t) {
        unsigned char* row = rows.ptr(turns * i + t);
        std::copy(crops.ptr(t), crops.ptr(t) + side2, row);
        if (planes > 1)
          face_mark(grey.size(), place, angles[static_cast<std::size_t>(t)], row + side2, side);
      }
    }
    const cv::Mat p = net.probabilities(rows);
    for (int i = 0; i < n; ++i) {
      // Each crop's shift along its x axis (the likeliest bin and its two neighbours, weighed),
      // which is the image's direction (cos a, sin a) for a crop turned by a: the shift is the
      // least squares over the turns (with four: half the difference of opposite turns).
      cv::Point2d shift(0, 0);
      for (int t = 0; t < turns; ++t) {
        const double along = bin_answer(p.ptr<float>(turns * i + t), bins, step);
        const double a = angles[static_cast<std::size_t>(t)] * M_PI / 180.0;
        shift += 2.0 / turns * along * cv::Point2d(std::cos(a), std::sin(a));
      }
      at[static_cast<std::size_t>(i)] += shift * radii[static_cast<std::size_t>(i)];
    }
  }
  return at;
}

}  // namespace

std::vector<cv::Point2d> locate_faces_cnn(const cv::Mat& grey,
                                          const std::vector<cv::Point2d>& centres,
                                          const std::vector<double>& radii, int steps,
                                          const Model& model) {
  return locate_with(model.face_cnn, grey, centres, radii, steps);
}

std::vector<cv::Point2d> locate_tops_cnn(const cv::Mat& grey,
                                         const std::vector<cv::Point2d>& centres,
                                         const std::vector<double>& radii, int steps,
                                         const Model& model) {
  return locate_with(model.top_cnn, grey, centres, radii, steps);
}

std::vector<cv::Point2d> locate_centres_cnn(const cv::Mat& grey,
                                            const std::vector<cv::Point2d>& centres,
                                            const std::vector<double>& radii, int steps,
                                            const Model& model) {
  return locate_with(model.centre_cnn, grey, centres, radii, steps);
}

std::vector<cv::Point2d> locate_fine_faces_cnn(const cv::Mat& grey,
                                               const std::vector<cv::Point2d>& faces,
                                               const std::vector<double>& radii, int steps,
                                               int turns, const Model& model) {
  return locate_with(model.fine_face_cnn, grey, faces, radii, steps, turns, kFineFaceSpan,
                     kFineStep);
}

std::vector<cv::Point2d> locate_fine_centres_cnn(const cv::Mat& grey,
                                                 const std::vector<cv::Point2d>& centres,
                                                 const std::vector<double>& radii, int steps,
                                                 int turns, const Model& model) {
  return locate_with(model.fine_centre_cnn, grey, centres, radii, steps, turns, kFaceSpan,
                     kFineStep);
}

std::vector<double> measure_sizes_cnn(const cv::Mat& grey, const std::vector<cv::Point2d>& centres,
                                      const std::vector<double>& radii, int steps, int turns,
                                      const Model& model) {
  const Cnn& net = model.size_cnn;
  const int n = static_cast<int>(std::min(centres.size(), radii.size()));
  std::vector<double> size(radii.begin(), radii.begin() + n);
  if (n == 0 || turns < 1 || net.empty()) return size;
  const int side2 = net.shape.side * net.shape.side, bins = net.classes();
  const std::vector<double> angles = round_turns(0, turns);
  cv::Mat rows(turns * n, side2, CV_8U);
  for (int k = 0; k < steps; ++k) {
    for (int i = 0; i < n; ++i) {
      cnn_crops(grey, centres[static_cast<std::size_t>(i)], size[static_cast<std::size_t>(i)],
                angles, rows, turns * i, kSizeSpan, net.shape.side);
    }
    const cv::Mat p = net.probabilities(rows);
    for (int i = 0; i < n; ++i) {
      double log_ratio = 0;
      for (int t = 0; t < turns; ++t)
        log_ratio += bin_answer(p.ptr<float>(turns * i + t), bins, kSizeStep) / turns;
      size[static_cast<std::size_t>(i)] *= std::exp(log_ratio);
    }
  }
  return size;
}

void lean_crop(const cv::Mat& grey, cv::Point2d centre, double radius, cv::Point2d shift,
               bool mirror, unsigned char* out, int side) {
  const int area = side * side;
  cv::Mat crop(1, area, CV_8U, out);
  // getRotationMatrix2D's turn by atan2(y, x) brings the shift onto the crop's x axis.
  cnn_crops(grey, centre, radius, {std::atan2(shift.y, shift.x) * 180.0 / M_PI}, crop, 0, kLeanSpan,
            side);
  cv::Mat square(side, side, CV_8U, out);
  if (mirror) cv::flip(square, square, 0);
  cv::Mat mark(side, side, CV_8U, out + area);
  mark.setTo(0);
  const double along = cv::norm(shift) * side / (2.0 * kLeanSpan);
  cv::circle(mark,
             cv::Point(static_cast<int>(std::lround(side / 2.0 + std::min(along, side / 2.0 - 2))),
                       side / 2),
             2, cv::Scalar(255), cv::FILLED);
}

double lean_share(const cv::Mat& grey, cv::Point2d centre, double radius, cv::Point2d shift,
                  const Model& model) {
  const int side = model.lean_cnn.shape.side;
  cv::Mat rows(2, kLeanPlanes * side * side, CV_8U);
  lean_crop(grey, centre, radius, shift, false, rows.ptr(0), side);
  // The mirror image: the same crop, its grey plane's rows upside down (as lean_crop's mirror).
  rows.row(0).copyTo(rows.row(1));
  cv::Mat mirrored(side, side, CV_8U, rows.ptr(1));
  cv::flip(mirrored, mirrored, 0);
  const cv::Mat p = model.lean_cnn.probabilities(rows);
  return (p.at<float>(0, 1) + p.at<float>(1, 1)) / 2;
}

namespace {
// lean_share, the question kept in `d.lean_asked`; a question asked already (the same die, centre,
// radius and shift) is answered as it was.
double ask_lean(const cv::Mat& grey, Detection& d, std::size_t k, cv::Point2d centre, double radius,
                cv::Point2d shift, const Model& model) {
  for (const Detection::LeanAsk& q : d.lean_asked) {
    if (q.die == k && q.centre == centre && q.radius == radius && q.shift == shift) return q.leans;
  }
  const double leans = lean_share(grey, centre, radius, shift, model);
  d.lean_asked.push_back({k, centre, radius, shift, leans});
  return leans;
}
}  // namespace

cv::Point2d locate_face_cnn(const cv::Mat& grey, cv::Point2d centre, double radius, int steps,
                            const Model& model) {
  return locate_faces_cnn(grey, {centre}, {radius}, steps, model)[0];
}

double digit_axis(const cv::Mat& bgr, const cv::Mat& grey, cv::Point2d face, double radius,
                  const Model& model, bool use_cnn) {
  if (use_cnn && !model.axis_cnn.empty() && !grey.empty()) {
    cv::Mat row(1, kCnnSide * kCnnSide, CV_8U);
    cnn_crop(grey, face, radius, 0, row.ptr());
    const cv::Mat p = model.axis_cnn.probabilities(row);
    const float* q = p.ptr<float>();
    const int b = static_cast<int>(std::max_element(q, q + kAxisBins) - q);
    // The likeliest bin and its two neighbours, averaged as directions modulo 180 degrees.
    double c = 0, s = 0;
    for (int j = b - 1; j <= b + 1; ++j) {
      const double a = 2 * M_PI * j / kAxisBins;  // twice the bin's angle, in radians
      c += q[(j + kAxisBins) % kAxisBins] * std::cos(a);
      s += q[(j + kAxisBins) % kAxisBins] * std::sin(a);
    }
    double a = 0.5 * std::atan2(s, c) * 180.0 / M_PI;
    if (a < 0) a += 180.0;
    return a;
  }
  if (!model.axis_c || !model.axis_s) return -1;
  cv::Mat sample(1, kLocateFeatures, CV_32F);
  locate_features(bgr, face, radius, sample.ptr<float>());
  const double c = model.axis_c->predict(sample), s = model.axis_s->predict(sample);
  double a = 0.5 * std::atan2(s, c) * 180.0 / M_PI;
  if (a < 0) a += 180.0;
  return a;
}

void texture_features(const cv::Mat& crop, float* out) {
  cv::Mat lab, grey, gx, gy, magnitude;
  cv::cvtColor(crop, lab, cv::COLOR_BGR2Lab);
  cv::cvtColor(crop, grey, cv::COLOR_BGR2GRAY);
  cv::Sobel(grey, gx, CV_32F, 1, 0);
  cv::Sobel(grey, gy, CV_32F, 0, 1);
  cv::magnitude(gx, gy, magnitude);
  cv::Mat middle(crop.size(), CV_8U, cv::Scalar(0)), ring(crop.size(), CV_8U, cv::Scalar(0));
  cv::circle(middle, {crop.cols / 2, crop.rows / 2}, crop.cols / 4, cv::Scalar(255), cv::FILLED);
  cv::circle(ring, {crop.cols / 2, crop.rows / 2}, crop.cols / 2, cv::Scalar(255), cv::FILLED);
  ring.setTo(0, middle);
  cv::Scalar mean, spread;
  int k = 0;
  for (const cv::Mat* mask : {&middle, &ring}) {
    cv::meanStdDev(lab, mean, spread, *mask);
    for (int c = 0; c < 3; ++c)
      out[k++] = static_cast<float>(mean[c]), out[k++] = static_cast<float>(spread[c]);
  }
  out[k] = static_cast<float>(cv::mean(magnitude, middle)[0]);
}

double redness(const cv::Mat& crop, double yellow) {
  cv::Mat lab;
  cv::cvtColor(crop, lab, cv::COLOR_BGR2Lab);
  cv::Mat mask(crop.size(), CV_8U, cv::Scalar(0));
  cv::circle(mask, {crop.cols / 2, crop.rows / 2}, crop.cols * 5 / 16, cv::Scalar(255), cv::FILLED);
  const cv::Scalar mean = cv::mean(lab, mask);
  return mean[1] - 128.0 + yellow * (mean[2] - 128.0);
}

int ruled_edges(const cv::Mat& grey, cv::Point2d centre, double radius, const Params& params) {
  if (params.ruled_length <= 0) return 0;
  const double half = std::max(2.0, 0.5 * params.ruled_length + 0.3) * radius;
  const cv::Rect box = cv::Rect(cv::Point(static_cast<int>(std::floor(centre.x - half)),
                                          static_cast<int>(std::floor(centre.y - half))),
                                cv::Point(static_cast<int>(std::ceil(centre.x + half)) + 1,
                                          static_cast<int>(std::ceil(centre.y + half)) + 1)) &
                       cv::Rect(0, 0, grey.cols, grey.rows);
  if (box.width < 8 || box.height < 8) return 0;
  cv::Mat edges;
  cv::Canny(grey(box), edges, 50, 150);
  std::vector<cv::Vec4i> segments;
  const double length = params.ruled_length * radius;
  cv::HoughLinesP(edges, segments, 1, M_PI / 180, static_cast<int>(0.5 * length), length, 3);
  const cv::Point2d c = centre - cv::Point2d(box.x, box.y);
  int through = 0;
  for (const cv::Vec4i& s : segments) {
    const cv::Point2d a(s[0], s[1]), b(s[2], s[3]);
    const cv::Point2d ab = b - a;
    const double t = std::clamp((c - a).dot(ab) / std::max(1e-9, ab.dot(ab)), 0.0, 1.0);
    if (cv::norm(a + t * ab - c) < params.ruled_through * radius) ++through;
  }
  return through;
}

bool plain(const cv::Mat& grey, cv::Point2d centre, double radius, const Params& params) {
  if (params.plain_contrast <= 0) return false;
  const double reach = params.plain_reach * radius;
  // The disc and a pixel round it (for the gradient), inside the image.
  const cv::Rect box = cv::Rect(cv::Point(static_cast<int>(std::floor(centre.x - reach)) - 1,
                                          static_cast<int>(std::floor(centre.y - reach)) - 1),
                                cv::Point(static_cast<int>(std::ceil(centre.x + reach)) + 2,
                                          static_cast<int>(std::ceil(centre.y + reach)) + 2)) &
                       cv::Rect(0, 0, grey.cols, grey.rows);
  if (box.width < 3 || box.height < 3) return false;
  const cv::Mat patch = grey(box);
  cv::Mat disc(patch.size(), CV_8U, cv::Scalar(0));
  cv::circle(disc, cv::Point(cvRound(centre.x) - box.x, cvRound(centre.y) - box.y),
             static_cast<int>(std::lround(reach)), cv::Scalar(255), cv::FILLED);
  cv::Scalar mean, spread;
  cv::meanStdDev(patch, mean, spread, disc);
  if (spread[0] >= params.plain_contrast) return false;
  cv::Mat gx, gy, magnitude;
  cv::Sobel(patch, gx, CV_32F, 1, 0);
  cv::Sobel(patch, gy, CV_32F, 0, 1);
  cv::magnitude(gx, gy, magnitude);
  return cv::mean(magnitude, disc)[0] < params.plain_gradient;
}

std::vector<cv::Point2d> red_places(const cv::Mat& bgr, double radius, const Params& params) {
  // At about four pixels a die radius: the peaks are as sharp as the dice, the maps small. The
  // image is sampled at twice that size, then each pixel is the mean of two by two (an area
  // shrink of the whole image costs 1-3 ms a call, this a tenth of one).
  const double scale = std::min(1.0, 4.0 / std::max(radius, 1.0));
  const cv::Size size(std::max(1, static_cast<int>(std::lround(bgr.cols * scale))),
                      std::max(1, static_cast<int>(std::lround(bgr.rows * scale))));
  cv::Mat small;
  cv::resize(bgr, small, {2 * size.width, 2 * size.height}, 0, 0, cv::INTER_LINEAR);
  cv::resize(small, small, size, 0, 0, cv::INTER_AREA);
  const double sx = static_cast<double>(small.cols) / bgr.cols,
               sy = static_cast<double>(small.rows) / bgr.rows;
  cv::Mat lab, a;
  cv::cvtColor(small, lab, cv::COLOR_BGR2Lab);
  cv::extractChannel(lab, a, 1);
  a.convertTo(a, CV_32F);
  const double r = radius * scale;
  // The die's mean over about its disc, the table's over colour_surround radii round it (two box
  // filters, near a Gaussian's weights, at a cost that does not grow with the size).
  const auto odd = [](double x) {
    return 2 * std::max(0, static_cast<int>(std::lround(x / 2))) + 1;
  };
  const int die_box = odd(r), table_box = odd(1.8 * params.colour_surround * r);
  cv::Mat die, table;
  cv::blur(a, die, {die_box, die_box}, {-1, -1}, cv::BORDER_REPLICATE);
  cv::blur(die, die, {die_box, die_box}, {-1, -1}, cv::BORDER_REPLICATE);
  cv::blur(a, table, {table_box, table_box}, {-1, -1}, cv::BORDER_REPLICATE);
  cv::blur(table, table, {table_box, table_box}, {-1, -1}, cv::BORDER_REPLICATE);
  const cv::Mat contrast = die - table;
  // Peaks: the highest value within a die radius round them.
  cv::Mat highest;
  const int side = 2 * static_cast<int>(std::lround(r)) + 1;
  cv::dilate(contrast, highest, cv::getStructuringElement(cv::MORPH_ELLIPSE, {side, side}));
  std::vector<std::pair<float, cv::Point2d>> peaks;
  for (int y = 0; y < contrast.rows; ++y) {
    const float* c = contrast.ptr<float>(y);
    const float* h = highest.ptr<float>(y);
    for (int x = 0; x < contrast.cols; ++x) {
      if (c[x] >= params.colour_contrast && c[x] >= h[x])
        peaks.emplace_back(c[x], cv::Point2d((x + 0.5) / sx - 0.5, (y + 0.5) / sy - 0.5));
    }
  }
  std::sort(peaks.begin(), peaks.end(),
            [](const auto& p, const auto& q) { return p.first > q.first; });
  std::vector<cv::Point2d> places;
  for (const auto& p : peaks) {
    if (static_cast<int>(places.size()) >= params.colour_places) break;
    places.push_back(p.second);
  }
  return places;
}

std::vector<bool> red_dice(const std::vector<double>& redness, const Params& params) {
  const int m = static_cast<int>(redness.size());
  std::vector<int> by_red(static_cast<std::size_t>(m));
  std::iota(by_red.begin(), by_red.end(), 0);
  std::stable_sort(by_red.begin(), by_red.end(), [&](int a, int b) {
    return redness[static_cast<std::size_t>(a)] > redness[static_cast<std::size_t>(b)];
  });
  // The threshold decides, within what five dice of each colour allow: of m dice at least
  // m - 5 and at most 5 are red. At ten, one may be a phantom (and one die missed), so four or
  // six are allowed, but five stay unless the redness drops much more sharply there than
  // between the fifth and the sixth. Out of bounds: the count where the redness drops most.
  const auto value_at = [&](int rank) {
    return redness[static_cast<std::size_t>(by_red[static_cast<std::size_t>(rank)])];
  };
  const auto drop = [&](int reds) { return value_at(reds - 1) - value_at(reds); };
  const int per = referee::yams::kDicePerColour;
  const bool ten = m == referee::yams::kDiceCount;
  const int lo = std::max(0, m - per - (ten ? 1 : 0)), hi = std::min(m, per + (ten ? 1 : 0));
  int reds = 0;
  while (reds < m && value_at(reds) >= params.red_threshold) ++reds;
  if (reds < lo || reds > hi) {
    int steepest = std::max(1, lo);
    for (int r = steepest + 1; r <= std::min(hi, m - 1); ++r)
      if (drop(r) > drop(steepest)) steepest = r;
    reds = std::clamp(steepest, lo, hi);
  }
  if (ten && reds != per && drop(reds) < params.colour_gap * drop(per)) reds = per;
  std::vector<bool> red(static_cast<std::size_t>(m), false);
  for (int rank = 0; rank < reds; ++rank)
    red[static_cast<std::size_t>(by_red[static_cast<std::size_t>(rank)])] = true;
  return red;
}

DieZone zone_of(cv::Point2d point, const Zones& zones) {
  if (zones.tray.size() < 3) return DieZone::Table;
  if (inside(zones.tray, point)) return DieZone::Tray;
  if (zones.kept.size() < 3 || inside(zones.kept, point)) return DieZone::Kept;
  return DieZone::Table;
}

namespace {

// Candidates examined (same centre and radius: the same crops, the same answers), with their
// presence, cocked and leaning shares.
using Examined = std::vector<std::pair<Candidate, std::array<double, 3>>>;

// The digit network's reading of a face through the whole circle: `turns` crops at `at`, from
// `start` degrees round; each value's best mean over three neighbouring turns, the likeliest
// value, the best of the others, and the angle of the likeliest's best turn.
struct RoundReading {
  double best = 0, second = 0, angle = 0;
  int value = 0;
};

// The reading of the probabilities `p` of crops at the turns `circle` (rows in that order).
RoundReading round_reading(const cv::Mat& p, const std::vector<double>& circle);

// Whether a reading through the whole circle of an opaque die is taken: its value at
// full_confidence, and cnn_margin over the next (clear_reading_taken is a clear die's).
bool whole_circle_taken(const RoundReading& r, const Params& params) {
  return r.best >= params.full_confidence && r.best - r.second >= params.cnn_margin;
}

// The square round `at` that the crops there span, and a margin, inside an image of `size`.
cv::Rect round_box(cv::Point2d at, double radius, cv::Size size) {
  const double half = 1.2 * radius + 4;
  return cv::Rect(static_cast<int>(std::floor(at.x - half)),
                  static_cast<int>(std::floor(at.y - half)), static_cast<int>(std::ceil(2 * half)),
                  static_cast<int>(std::ceil(2 * half))) &
         cv::Rect(0, 0, size.width, size.height);
}

// That square (round_box) with the grey of the disc of Params::stretch_reach x radius round `at`
// stretched from its stretch_low-th to its stretch_high-th fraction over 0-255 (empty when it is
// flat); `origin`: where the square lies in `grey`.
cv::Mat stretch_round(const cv::Mat& grey, cv::Point2d at, double radius, const Params& params,
                      cv::Point2d& origin) {
  const cv::Rect box = round_box(at, radius, grey.size());
  if (box.width < 3 || box.height < 3) return {};
  origin = cv::Point2d(box.x, box.y);
  const cv::Mat patch = grey(box);
  cv::Mat disc(patch.size(), CV_8U, cv::Scalar(0));
  cv::circle(disc, cv::Point(cvRound(at.x) - box.x, cvRound(at.y) - box.y),
             std::max(1, static_cast<int>(std::lround(params.stretch_reach * radius))),
             cv::Scalar(255), cv::FILLED);
  std::array<int, 256> histogram{};
  int n = 0;
  for (int y = 0; y < patch.rows; ++y) {
    for (int x = 0; x < patch.cols; ++x) {
      if (disc.at<uchar>(y, x)) ++histogram[patch.at<uchar>(y, x)], ++n;
    }
  }
  if (n == 0) return {};
  const auto level = [&](double fraction) {
    const int wanted = static_cast<int>(fraction * (n - 1));
    int seen = 0;
    for (int v = 0; v < 256; ++v) {
      seen += histogram[static_cast<std::size_t>(v)];
      if (seen > wanted) return v;
    }
    return 255;
  };
  const int lo = level(params.stretch_low), hi = level(params.stretch_high);
  if (hi - lo < 4) return {};
  cv::Mat out;
  patch.convertTo(out, CV_8U, 255.0 / (hi - lo), -255.0 * lo / (hi - lo));
  return out;
}

// The square round `at` that the crops there span (round_box) as 255 - a* (Lab): a red die's
// body dark, its white or gold digit bright, however a light's highlight pales the face (empty
// when the square is too small); `origin`: where the square lies in `bgr`.
cv::Mat redness_round(const cv::Mat& bgr, cv::Point2d at, double radius, cv::Point2d& origin) {
  const cv::Rect box = round_box(at, radius, bgr.size());
  if (box.width < 3 || box.height < 3) return {};
  origin = cv::Point2d(box.x, box.y);
  cv::Mat lab, a;
  cv::cvtColor(bgr(box), lab, cv::COLOR_BGR2Lab);
  cv::extractChannel(lab, a, 1);
  return 255 - a;
}

// The digit networks' probabilities for the crops at `at` at each turn of `circle`.
cv::Mat round_probabilities(const cv::Mat& grey, cv::Point2d at, double radius,
                            const std::vector<double>& circle, const Model& model) {
  cv::Mat rows(static_cast<int>(circle.size()), kCnnSide * kCnnSide, CV_8U);
  cnn_crops(grey, at, radius, circle, rows, 0);
  return digit_probabilities(model, rows);
}

RoundReading read_round(const cv::Mat& grey, cv::Point2d at, double radius, double start, int turns,
                        const Model& model) {
  const std::vector<double> circle = round_turns(start, turns);
  return round_reading(round_probabilities(grey, at, radius, circle, model), circle);
}

RoundReading round_reading(const cv::Mat& p, const std::vector<double>& circle) {
  const int n = static_cast<int>(circle.size());
  std::array<double, 11> value_best{};
  std::array<int, 11> value_turn{};
  for (int t = 0; t < n; ++t) {
    for (int v = 1; v <= 10; ++v) {
      double mean = 0;
      for (int dt = -1; dt <= 1; ++dt) mean += p.at<float>((t + dt + n) % n, v) / 3;
      if (mean > value_best[static_cast<std::size_t>(v)])
        value_best[static_cast<std::size_t>(v)] = mean, value_turn[static_cast<std::size_t>(v)] = t;
    }
  }
  RoundReading r;
  r.value = 1;
  for (int v = 2; v <= 10; ++v) {
    if (value_best[static_cast<std::size_t>(v)] > value_best[static_cast<std::size_t>(r.value)])
      r.value = v;
  }
  for (int v = 1; v <= 10; ++v) {
    if (v != r.value) r.second = std::max(r.second, value_best[static_cast<std::size_t>(v)]);
  }
  r.best = value_best[static_cast<std::size_t>(r.value)];
  r.angle = circle[static_cast<std::size_t>(value_turn[static_cast<std::size_t>(r.value)])];
  return r;
}

// A die read (same centre and radius: the same crops, the same reading): where its face was
// located and finally read, what was read and on what it was decided.
struct Read {
  cv::Point2d centre;
  double radius = 0;
  cv::Point2d located, face;
  DieSighting die;
  double rotation = 0;
  std::array<double, 4> evidence{};
  int best_value = 0;
};

// A die left unread whose two answers for its top face (the locator's forests' and the face
// network's) lie apart: their mean, read first, may lie between the top face and a face beside
// it, where neither digit reads well. Each answer is searched through the whole circle
// (`read_round`), and the die is read at the one the network reads as surely as the whole-circle
// search asks (`full_confidence`, `cnn_margin`), the surer when both do and agree. When both read
// surely but different values, two faces show a digit plainly and nothing tells which is on top:
// the die stays unread. `may_look`: whether the whole circle could be searched for the die and the
// network's "cocked" probability along its axis is under `answer_cocked` (a die it half takes for
// cocked is not searched: a leaning die's faces read as plainly).
void read_at_face_answers(const cv::Mat& grey, Detection& d, const std::vector<int>& chosen,
                          const std::vector<std::array<cv::Point2d, 2>>& answers,
                          const std::vector<bool>& may_look, const std::vector<int>& entry,
                          std::vector<Read>& reads, const Params& params, const Model& model) {
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    DieSighting& die = d.observation.dice[k];
    if (!may_look[k] || die.value != 0 || die.cocked) continue;
    const Candidate& c = d.candidates[static_cast<std::size_t>(chosen[k])];
    const std::array<cv::Point2d, 2>& at = answers[k];
    if (cv::norm(at[0] - at[1]) < params.answer_gap * c.radius) continue;
    std::array<RoundReading, 2> r;
    std::array<bool, 2> sure{};
    for (std::size_t a = 0; a < 2; ++a) {
      r[a] = read_round(grey, at[a], c.radius, d.rotation_deg[k], params.full_turns, model);
      sure[a] = whole_circle_taken(r[a], params);
    }
    if (!sure[0] && !sure[1]) continue;
    if (sure[0] && sure[1] && r[0].value != r[1].value) continue;
    const std::size_t a = sure[0] && (!sure[1] || r[0].best >= r[1].best) ? 0 : 1;
    die.value = r[a].value;
    die.confidence = r[a].best;
    d.face[k] = at[a];
    d.rotation_deg[k] = std::fmod(r[a].angle + 360.0, 360.0);
    d.best_value[k] = r[a].value;
    d.cocked_evidence[k][2] = r[a].best;
    d.cocked_evidence[k][3] = r[a].second;
    if (entry[k] >= 0) {
      Read& kept = reads[static_cast<std::size_t>(entry[k])];
      kept.face = at[a];
      kept.die = die;
      kept.rotation = d.rotation_deg[k];
      kept.evidence = d.cocked_evidence[k];
      kept.best_value = r[a].value;
    }
  }
}

// Whether a window of `radius` is of the dice's `common` size: within size_tolerance of it either
// way (the choice's size test, the size vote, the common radius measured).
bool of_size(double radius, double common, const Params& params) {
  return radius <= common * params.size_tolerance && radius * params.size_tolerance >= common;
}

// The median radius of the ten surest (most present) of the candidates `keep` takes (0: none).
template <typename Keep>
double surest_radius(const std::vector<Candidate>& candidates, Keep keep) {
  std::vector<const Candidate*> sure;
  for (const Candidate& c : candidates) {
    if (keep(c)) sure.push_back(&c);
  }
  std::stable_sort(sure.begin(), sure.end(), [](const Candidate* a, const Candidate* b) {
    return a->presence > b->presence;
  });
  std::vector<double> radii;
  for (const Candidate* c : sure) {
    if (radii.size() < static_cast<std::size_t>(referee::yams::kDiceCount))
      radii.push_back(c->radius);
  }
  return median(radii);
}

// Everything after the scan: examine, choose, read, colours, zones. `coarse`: the windows the
// scan found (at every level but the `deferred_levels` finest); no die is chosen within half a
// radius of an `excluded` place; `examined` and `reads` are kept from one pass to the next.
Detection detect_pass(const cv::Mat& bgr, const cv::Mat& grey, const std::vector<Candidate>& coarse,
                      const Params& params, const Model& model,
                      const std::vector<cv::Point2d>& excluded, Examined& examined,
                      std::vector<Read>& reads, double forced_radius) {
  Detection d;
  d.observation.width = bgr.cols;
  d.observation.height = bgr.rows;
  // Coarse to fine: the finest levels (the most windows) wait until the common die size of the
  // others is known; they are scanned only when dice of their size are possible, and then the
  // first pass starts again on every window, as if all were scanned at once.
  auto start = Clock::now();
  const int deferred = std::max(0, params.deferred_levels);
  // The scan's windows down to scan_threshold; the fainter ones (Params::faint_threshold) wait.
  std::vector<Candidate> windows, faint_windows;
  for (const Candidate& w : coarse)
    (w.score >= params.scan_threshold ? windows : faint_windows).push_back(w);
  strongest_first(windows);
  strongest_first(faint_windows);
  d.candidates = suppress(windows, params, params.max_candidates);
  d.timing.candidates_ms = ms_since(start);

  // examine: every candidate's crop at four turns; "no die" votes against it.
  start = Clock::now();
  // The reader's "cocked" share and the cocked forest's, per candidate.
  std::vector<double> cocked_seen, leaning_seen;
  const auto examine = [&](int first) {
    cocked_seen.resize(d.candidates.size(), 0);
    leaning_seen.resize(d.candidates.size(), 0);
    std::vector<int> todo;
    for (int k = first; k < static_cast<int>(d.candidates.size()); ++k) {
      Candidate& c = d.candidates[static_cast<std::size_t>(k)];
      const auto seen = std::find_if(examined.begin(), examined.end(), [&](const auto& e) {
        return e.first.radius == c.radius && e.first.centre == c.centre;
      });
      if (seen == examined.end()) {
        todo.push_back(k);
      } else {
        c.presence = seen->second[0];
        cocked_seen[static_cast<std::size_t>(k)] = seen->second[1];
        leaning_seen[static_cast<std::size_t>(k)] = seen->second[2];
      }
    }
    const int count = static_cast<int>(todo.size());
    if (count <= 0) return;
    const int turns = std::max(1, params.examine_turns);
    cv::Mat samples(count * turns, kFaceFeatures, CV_32F);
    for (int i = 0; i < count; ++i) {
      const Candidate& c =
          d.candidates[static_cast<std::size_t>(todo[static_cast<std::size_t>(i)])];
      for (int t = 0; t < turns; ++t) {
        face_features(face_crop(bgr, c.centre, c.radius, 360.0 * t / turns),
                      samples.ptr<float>(i * turns + t));
      }
    }
    const cv::Mat shares = vote_shares(model.reader, samples);
    // The digit network's "not a die", at the same turns, in the presence.
    const bool cnn_here = params.use_cnn && !model.digit_cnn.empty() && params.cnn_presence > 0;
    // Every candidate's grey crops spanning +- span x its radius, at `n` turns a 1 / n turn
    // apart.
    const auto grey_crops = [&](double span, int n) {
      std::vector<double> at(static_cast<std::size_t>(n));
      for (int t = 0; t < n; ++t) at[static_cast<std::size_t>(t)] = 360.0 * t / n;
      cv::Mat crops(count * n, kCnnSide * kCnnSide, CV_8U);
      for (int i = 0; i < count; ++i) {
        const Candidate& c =
            d.candidates[static_cast<std::size_t>(todo[static_cast<std::size_t>(i)])];
        cnn_crops(grey, c.centre, c.radius, at, crops, i * n, span);
      }
      return crops;
    };
    cv::Mat cnn_shares;
    // (The first digit network alone: with the second too, this stage cost 3-4 ms more a frame
    // and found no more dice.)
    if (cnn_here) cnn_shares = model.digit_cnn.probabilities(grey_crops(kCnnRadius, turns));
    // The presence network's "not a die", on its wider crops.
    const bool presence_here = !model.presence_cnn.empty() && params.presence_net > 0;
    const int presence_turns = std::max(1, params.presence_turns);
    cv::Mat presence_shares;
    if (presence_here)
      presence_shares = model.presence_cnn.probabilities(grey_crops(kPresenceSpan, presence_turns));
    cv::Mat cocked_votes;
    if (model.cocked && params.cocked_vote > 0) {
      const cv::Mat votes = forest_votes(model.cocked, samples);
      const int trees = std::max(1, static_cast<int>(model.cocked->getRoots().size()));
      cocked_votes = cv::Mat(samples.rows, 1, CV_32F, cv::Scalar(0));
      for (int c = 0; c < votes.cols; ++c) {
        if (votes.at<int>(0, c) != 1) continue;
        for (int r = 0; r < samples.rows; ++r) {
          cocked_votes.at<float>(r) =
              static_cast<float>(votes.at<int>(r + 1, c)) / static_cast<float>(trees);
        }
      }
    }
    for (int i = 0; i < count; ++i) {
      double no_die = 0, cocked = 0, leaning = 0;
      for (int t = 0; t < turns; ++t) {
        no_die += (cnn_here ? (1 - params.cnn_presence) * shares.at<float>(i * turns + t, kNoDie) +
                                  params.cnn_presence * cnn_shares.at<float>(i * turns + t, kNoDie)
                            : shares.at<float>(i * turns + t, kNoDie)) /
                  turns;
        cocked += shares.at<float>(i * turns + t, kCockedClass) / turns;
        if (!cocked_votes.empty()) leaning += cocked_votes.at<float>(i * turns + t) / turns;
      }
      if (presence_here) {
        double net_no_die = 0;
        for (int t = 0; t < presence_turns; ++t)
          net_no_die += presence_shares.at<float>(i * presence_turns + t, 0);
        no_die =
            (1 - params.presence_net) * no_die + params.presence_net * net_no_die / presence_turns;
      }
      const auto k = static_cast<std::size_t>(todo[static_cast<std::size_t>(i)]);
      d.candidates[k].presence = 1.0 - no_die;
      cocked_seen[k] = cocked;
      leaning_seen[k] = leaning;
      examined.push_back({d.candidates[k], {1.0 - no_die, cocked, leaning}});
    }
  };
  const auto common_radius = [&]() {
    if (forced_radius > 0) return forced_radius;
    return surest_radius(d.candidates, [&](const Candidate& c) {
      return c.why.empty() && c.presence >= params.min_presence;
    });
  };
  examine(0);
  if (deferred > 0) {
    // The finest levels' largest radius, and whether dice of their sizes are possible.
    double fine_r = params.min_radius * bgr.cols;
    for (int level = 1; level < deferred; ++level) fine_r *= params.level_step;
    const double r = common_radius();
    if (r <= 0 || r <= fine_r * params.size_tolerance) {
      const auto scan_start = Clock::now();
      windows = scan_grey(grey, params, model, 0, deferred);
      std::copy_if(coarse.begin(), coarse.end(), std::back_inserter(windows),
                   [&](const Candidate& w) { return w.score >= params.scan_threshold; });
      strongest_first(windows);
      d.candidates = suppress(windows, params, params.max_candidates);
      const double scan_ms = ms_since(scan_start);
      d.timing.candidates_ms += scan_ms;
      start += std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double, std::milli>(scan_ms));
      examine(0);
    }
  }
  // Second pass: the windows near the common size, suppressed among themselves only, so that a
  // die whose strongest window was at the wrong size (a face, a cluster) gets one at its size.
  if (params.second_candidates > 0 && params.second_pass > 1) {
    const double r = common_radius();
    if (r > 0) {
      const int first = static_cast<int>(d.candidates.size());
      for (const Candidate& c : suppress(windows, params, params.second_candidates,
                                         r / params.second_pass, r * params.second_pass)) {
        const bool again = std::any_of(
            d.candidates.begin(), d.candidates.begin() + first, [&](const Candidate& k) {
              return std::abs(k.radius - c.radius) < 1e-6 && cv::norm(k.centre - c.centre) < 1e-6;
            });
        if (!again) d.candidates.push_back(c);
      }
      examine(first);
    }
  }
  // Faint windows: the windows at the common size that scored at least faint_threshold (under
  // scan_threshold, or above it but not among the strongest examined), away from every candidate
  // of that size, suppressed among themselves: a die the window detector scores low (a plain red
  // die on a bright cloth), or whose only windows near it were at another size (a digit's, a
  // cluster's), is still one the presence network knows.
  if (params.faint_candidates > 0 && params.second_pass > 1) {
    const double r = common_radius();
    if (r > 0) {
      const auto sized = [&](const Candidate& w) {
        return w.radius >= r / params.second_pass && w.radius <= r * params.second_pass;
      };
      std::vector<Candidate> faint;
      for (const std::vector<Candidate>* from : {&windows, &faint_windows}) {
        for (const Candidate& w : *from) {
          if (!sized(w)) continue;
          const bool near =
              std::any_of(d.candidates.begin(), d.candidates.end(), [&](const Candidate& k) {
                return sized(k) && cv::norm(k.centre - w.centre) <
                                       params.suppression * std::min(k.radius, w.radius);
              });
          if (!near) faint.push_back(w);
        }
      }
      strongest_first(faint);
      const int first = static_cast<int>(d.candidates.size());
      for (const Candidate& c : suppress(faint, params, params.faint_candidates))
        d.candidates.push_back(c);
      examine(first);
      for (std::size_t k = static_cast<std::size_t>(first); k < d.candidates.size(); ++k) {
        if (d.candidates[k].presence < params.faint_presence) d.candidates[k].why = "faint";
      }
    }
  }
  // Red places (Params::colour_*): where a die's worth of red stands out from the table, away
  // from every candidate of the common size still standing, re-centred where the window detector
  // peaks.
  if (params.colour_contrast > 0) {
    const double r = common_radius();
    if (r > 0) {
      const int first = static_cast<int>(d.candidates.size());
      for (const cv::Point2d& p : red_places(bgr, r, params)) {
        // (A candidate turned down already, as faint, does not stand in its way.)
        const bool near =
            std::any_of(d.candidates.begin(), d.candidates.end(), [&](const Candidate& k) {
              return k.why.empty() && k.radius >= r / params.second_pass &&
                     k.radius <= r * params.second_pass &&
                     cv::norm(k.centre - p) < params.suppression * r;
            });
        if (near) continue;
        Candidate c;
        c.radius = r;
        c.centre = refine_centre(grey, p, r, params, model);
        d.candidates.push_back(c);
      }
      examine(first);
      for (std::size_t k = static_cast<std::size_t>(first); k < d.candidates.size(); ++k) {
        if (d.candidates[k].presence < params.colour_presence) d.candidates[k].why = "faint red";
      }
    }
  }
  const int n = static_cast<int>(d.candidates.size());
  // A smaller candidate inside a larger die is a part of it (a digit, a face).
  std::vector<int> by_size(static_cast<std::size_t>(n));
  std::iota(by_size.begin(), by_size.end(), 0);
  std::stable_sort(by_size.begin(), by_size.end(), [&](int a, int b) {
    return d.candidates[static_cast<std::size_t>(a)].radius >
           d.candidates[static_cast<std::size_t>(b)].radius;
  });
  for (std::size_t a = 0; a < by_size.size(); ++a) {
    const Candidate& big = d.candidates[static_cast<std::size_t>(by_size[a])];
    if (big.presence < params.min_presence || !big.why.empty()) continue;
    for (std::size_t b = a + 1; b < by_size.size(); ++b) {
      Candidate& small = d.candidates[static_cast<std::size_t>(by_size[b])];
      if (small.why.empty() && small.radius < params.part_size * big.radius &&
          cv::norm(small.centre - big.centre) < params.part_distance * big.radius) {
        small.why = "part of a die";
      }
    }
  }
  // The dice: the most certain candidates, at most ten, of a common size.
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return d.candidates[static_cast<std::size_t>(a)].presence >
           d.candidates[static_cast<std::size_t>(b)].presence;
  });
  d.die_radius = common_radius();
  if (params.size_vote) {
    // The size that the most presence agrees with (the ten surest within the tolerance of it);
    // a tie goes to the larger size (a digit is a small die-like window).
    double best = -1;
    for (const Candidate& h : d.candidates) {
      if (!h.why.empty() || h.presence < params.min_presence) continue;
      std::vector<double> agree;
      for (const Candidate& c : d.candidates) {
        if (c.why.empty() && c.presence >= params.min_presence &&
            of_size(c.radius, h.radius, params)) {
          agree.push_back(c.presence);
        }
      }
      std::sort(agree.rbegin(), agree.rend());
      if (agree.size() > static_cast<std::size_t>(referee::yams::kDiceCount))
        agree.resize(referee::yams::kDiceCount);
      const double support = std::accumulate(agree.begin(), agree.end(), 0.0);
      if (support > best + 1e-9 || (std::abs(support - best) <= 1e-9 && h.radius > d.die_radius)) {
        best = support;
        d.die_radius = h.radius;
      }
    }
  }
  // The common radius measured: the size network's median over the surest candidates of that
  // size (Params::size_first), unless forced.
  if (params.size_first > 0 && forced_radius <= 0 && d.die_radius > 0 && params.size_steps > 0 &&
      !model.size_cnn.empty()) {
    std::vector<cv::Point2d> at;
    for (int i : order) {
      const Candidate& c = d.candidates[static_cast<std::size_t>(i)];
      if (!c.why.empty() || c.presence < params.min_presence ||
          !of_size(c.radius, d.die_radius, params))
        continue;
      at.push_back(c.centre);
      if (static_cast<int>(at.size()) >= params.size_first) break;
    }
    if (at.size() >= 3) {
      std::vector<double> sizes =
          measure_sizes_cnn(grey, at, std::vector<double>(at.size(), d.die_radius),
                            params.size_steps, params.size_turns, model);
      for (double& v : sizes)
        v = std::clamp(v, d.die_radius / params.size_bound, d.die_radius * params.size_bound);
      d.die_radius = median(std::move(sizes));
    }
  }
  std::vector<int> chosen;
  // Whether a point is clear of the dice chosen so far (at least min_spacing radii away).
  const auto clear_of_chosen = [&](cv::Point2d p) {
    return std::none_of(chosen.begin(), chosen.end(), [&](int k) {
      return cv::norm(d.candidates[static_cast<std::size_t>(k)].centre - p) <
             params.min_spacing * d.die_radius;
    });
  };
  // Whether a point lies on a place that read nothing (within half a radius of it).
  const auto on_excluded = [&](cv::Point2d at) {
    return std::any_of(excluded.begin(), excluded.end(),
                       [&](cv::Point2d p) { return cv::norm(p - at) < 0.5 * d.die_radius; });
  };
  // Why a candidate is not one more die (empty: it is), against the dice chosen so far.
  const auto why_not = [&](const Candidate& c) -> std::string {
    if (on_excluded(c.centre)) return "read nothing";
    // The size first: a window at the wrong size on a die is looked at again at the dice's size
    // (search_resized), whatever its presence at its own size.
    if (d.die_radius > 0 && !of_size(c.radius, d.die_radius, params)) return "size";
    if (c.presence < params.min_presence) return "not a die";
    if (plain(grey, c.centre, c.radius, params)) return "plain";
    if (!clear_of_chosen(c.centre)) return "on another die";
    if (static_cast<int>(chosen.size()) >= referee::yams::kDiceCount) return kEleventh;
    return {};
  };
  for (int i : order) {
    Candidate& c = d.candidates[static_cast<std::size_t>(i)];
    if (!c.why.empty()) continue;
    c.why = why_not(c);
    if (c.why == "on another die" && params.respace_from > 0 &&
        static_cast<int>(chosen.size()) < referee::yams::kDiceCount) {
      // Nearly clear of the dice chosen: in a row of touching dice the windows' centres are a
      // few pixels off. Re-centred where the window detector peaks, a second window on the same
      // die falls on it; a die of its own moves clear.
      const bool near_only = std::all_of(chosen.begin(), chosen.end(), [&](int k) {
        return cv::norm(d.candidates[static_cast<std::size_t>(k)].centre - c.centre) >=
               params.respace_from * d.die_radius;
      });
      if (near_only) {
        Candidate moved = c;
        moved.radius = std::clamp(c.radius, d.die_radius / params.radius_spread,
                                  d.die_radius * params.radius_spread);
        moved.centre = refine_centre(grey, c.centre, moved.radius, params, model);
        moved.why = why_not(moved);
        if (moved.why.empty()) c = moved;
      }
    }
    if (c.why.empty()) {
      c.kept = true;
      chosen.push_back(i);
    }
  }
  // Every die at the common size, re-centred where the window detector peaks.
  if (!chosen.empty()) {
    for (int i : chosen) {
      Candidate& c = d.candidates[static_cast<std::size_t>(i)];
      c.radius = std::clamp(c.radius, d.die_radius / params.radius_spread,
                            d.die_radius * params.radius_spread);
      c.centre = refine_centre(grey, c.centre, c.radius, params, model);
    }
    // Then where the centre network puts their centres: the spacing below, the search beside
    // them, the top face and where they are reported all start from there (docs/benchmarks.md,
    // 2026-12-03: more dice read).
    if (params.centre_steps > 0 && !model.centre_cnn.empty()) {
      std::vector<cv::Point2d> from;
      std::vector<double> radii;
      for (int i : chosen) {
        from.push_back(d.candidates[static_cast<std::size_t>(i)].centre);
        radii.push_back(d.candidates[static_cast<std::size_t>(i)].radius);
      }
      const auto at = locate_centres_cnn(grey, from, radii, params.centre_steps, model);
      for (std::size_t k = 0; k < chosen.size(); ++k) {
        Candidate& c = d.candidates[static_cast<std::size_t>(chosen[k])];
        c.centre = at[k];
        c.centred = true;
      }
    }
    // A window beside a place that read nothing, re-centred onto it, is that place: it stays
    // out as the place does (Params::empty_recentred).
    if (params.empty_recentred && !excluded.empty()) {
      std::erase_if(chosen, [&](int i) {
        Candidate& c = d.candidates[static_cast<std::size_t>(i)];
        if (!on_excluded(c.centre)) return false;
        c.kept = false;
        c.why = "read nothing, re-centred";
        return true;
      });
    }
    // A window between two touching dice, re-centred, may land on a surer die: one die, not two.
    if (params.respace_after > 0) {
      std::vector<int> kept;
      for (int i : chosen) {  // surest first
        Candidate& c = d.candidates[static_cast<std::size_t>(i)];
        const bool on_another = std::any_of(kept.begin(), kept.end(), [&](int k) {
          return cv::norm(d.candidates[static_cast<std::size_t>(k)].centre - c.centre) <
                 params.respace_after * d.die_radius;
        });
        if (on_another) {
          c.kept = false;
          c.why = "on another die, re-centred";
        } else {
          kept.push_back(i);
        }
      }
      chosen = kept;
    }
  }
  // Fewer than ten dice: a die touching one found (in a cluster, in the row of kept dice) may
  // have had no window of its own. Places around each die, where a touching die would lie, that
  // the CNN does not take for "no die" become candidates, re-centred and examined as the others.
  const bool search = params.use_cnn && !model.digit_cnn.empty() && params.neighbour_search &&
                      d.die_radius > 0 && !chosen.empty() &&
                      static_cast<int>(chosen.size()) < referee::yams::kDiceCount;
  // Again round the dice a round adds (a die hidden behind one the search found), while it adds
  // some and there are fewer than ten.
  std::size_t around_from = 0;  // the dice chosen whose rings this round searches: from here on
  Params near = params;         // the search's places re-centred with a shorter reach
  near.refine_steps = params.neighbour_refine_steps;
  for (int round = 0; search && round < std::max(1, params.neighbour_rounds) &&
                      static_cast<int>(chosen.size()) < referee::yams::kDiceCount;
       ++round) {
    const std::size_t chosen_before = chosen.size();
    const double r = d.die_radius;
    const int directions = std::max(1, params.neighbour_directions);
    std::vector<cv::Point2d> places;
    // A place inside the image, clear of the dice chosen and at least `gap` from the places kept.
    const auto propose = [&](cv::Point2d p, double gap) {
      if (p.x < r || p.y < r || p.x > bgr.cols - r || p.y > bgr.rows - r) return;
      if (!clear_of_chosen(p)) return;
      if (std::any_of(places.begin(), places.end(),
                      [&](cv::Point2d q) { return cv::norm(q - p) < gap; }))
        return;
      places.push_back(p);
    };
    // Rings round each die: in perspective a die behind another shows only part of itself, its
    // centre as close as 1.2 radii to the other's in the image; the places lie about a quarter of
    // a radius apart, so that one lies near the centre of any die there.
    const double step = params.neighbour_ring_step * r;
    for (std::size_t q = around_from; q < chosen.size(); ++q) {
      const int k = chosen[q];
      const cv::Point2d centre = d.candidates[static_cast<std::size_t>(k)].centre;
      for (int ring = 0; ring < std::max(1, params.neighbour_rings); ++ring) {
        const double distance = params.neighbour_distance * r + ring * step;
        for (int j = 0; j < directions; ++j) {
          const double a = 2 * M_PI * (j + 0.5 * (ring % 2)) / directions;
          propose(centre + distance * cv::Point2d(std::cos(a), std::sin(a)), step);
        }
      }
    }
    // And where a candidate was turned down for its size: a window on a digit or on a cluster
    // may sit on a die whose own window was not among the candidates.
    if (params.search_resized && round == 0) {
      for (const Candidate& c : d.candidates) {
        if (c.why == "size") propose(c.centre, 0.5 * r);
      }
    }
    if (params.search_unsure > 0 && round == 0) {
      for (const Candidate& c : d.candidates) {
        const bool unsure = c.why == "not a die" || (params.search_faint && c.why == "faint");
        if (unsure && c.presence >= params.search_unsure) propose(c.centre, 0.5 * r);
      }
    }
    // A candidate turned down as an eleventh was turned down for the count alone: with fewer
    // than ten now (a die dropped as on another, re-centred), it is one of the places, re-centred
    // as they are, and competes with them by presence (Params::recall_eleventh).
    std::vector<Candidate> recalled;
    if (params.recall_eleventh && round == 0) {
      for (int i : order) {
        const Candidate& c = d.candidates[static_cast<std::size_t>(i)];
        if (c.why != kEleventh) continue;
        Candidate moved;
        moved.radius = r;
        moved.centre = refine_centre(grey, c.centre, r, params, model);
        if (clear_of_chosen(moved.centre)) recalled.push_back(moved);
      }
    }
    if (!places.empty() || !recalled.empty()) {
      cv::Mat crops(static_cast<int>(places.size()), kCnnSide * kCnnSide, CV_8U);
      for (int i = 0; i < crops.rows; ++i)
        cnn_crop(grey, places[static_cast<std::size_t>(i)], r, 0, crops.ptr(i));
      const cv::Mat p =
          places.empty() ? cv::Mat() : model.digit_cnn.probabilities(crops);  // "no die" first
      const int first = static_cast<int>(d.candidates.size());
      for (const Candidate& c : recalled) d.candidates.push_back(c);
      // A place the CNN takes for a die lies on it: re-centred within a short reach (`near`),
      // not onto the surer die beside it; and kept where it is when even so it lands on a die
      // chosen and the CNN is sure of it (a die half hidden behind that one).
      for (int i = 0; i < crops.rows; ++i) {
        const double no_die = p.at<float>(i, kNoDie);
        if (no_die > params.neighbour_no_die) continue;
        const cv::Point2d place = places[static_cast<std::size_t>(i)];
        Candidate c;
        c.centre = refine_centre(grey, place, r, near, model);
        if (!clear_of_chosen(c.centre) && params.neighbour_keep > 0 &&
            no_die <= params.neighbour_keep)
          c.centre = place;
        c.radius = r;
        c.neighbour = true;
        const bool again = std::any_of(
            d.candidates.begin() + first, d.candidates.end(),
            [&](const Candidate& o) { return cv::norm(o.centre - c.centre) < 0.5 * r; });
        if (!again && clear_of_chosen(c.centre)) d.candidates.push_back(c);
      }
      examine(first);
      std::vector<int> added(
          static_cast<std::size_t>(static_cast<int>(d.candidates.size()) - first));
      std::iota(added.begin(), added.end(), first);
      std::stable_sort(added.begin(), added.end(), [&](int a, int b) {
        return d.candidates[static_cast<std::size_t>(a)].presence >
               d.candidates[static_cast<std::size_t>(b)].presence;
      });
      for (int i : added) {
        Candidate& c = d.candidates[static_cast<std::size_t>(i)];
        const std::string why = why_not(c);  // at the common size: never "size"
        if (why.empty()) {
          c.kept = true;
          chosen.push_back(i);
        } else {
          c.why = (c.neighbour ? "neighbour: " : "recalled: ") + why;
        }
      }
    }
    around_from = chosen_before;
    if (chosen.size() == chosen_before) break;
  }
  d.timing.examine_ms = ms_since(start);

  // read_faces: the crop turned to the predicted digit axis (both ways, a few turns around each),
  // or, with no axis regressor, through `rotations` angles; the digit standing upright wins.
  start = Clock::now();
  const int m = static_cast<int>(chosen.size());
  std::vector<cv::Mat> crops0(static_cast<std::size_t>(m));
  if (m > 0) {
    std::vector<std::vector<double>> angles(static_cast<std::size_t>(m));
    std::vector<bool> axis_read(static_cast<std::size_t>(m), false);
    // Each die's two answers for its top face (the locator's forests' and the face network's),
    // whether a die left unread may be searched at them, and its entry in `reads`.
    std::vector<std::array<cv::Point2d, 2>> face_answers(static_cast<std::size_t>(m));
    std::vector<bool> searchable(static_cast<std::size_t>(m), false);
    std::vector<int> read_entry(static_cast<std::size_t>(m), -1);
    // A die an earlier pass read is not read again.
    std::vector<int> read_before(static_cast<std::size_t>(m), -1);
    // The top face: the face locator's forests' answer or, with a face network, the mean of
    // theirs and its (each alone moves onto a face beside the top one now and then, seldom both
    // the same way; docs/vision.md); the network's for all the dice at once.
    std::vector<cv::Point2d> centres;
    std::vector<double> radii;
    for (int k = 0; k < m; ++k) {
      const Candidate& c =
          d.candidates[static_cast<std::size_t>(chosen[static_cast<std::size_t>(k)])];
      for (std::size_t r = 0; r < reads.size(); ++r) {
        if (reads[r].centre == c.centre && reads[r].radius == c.radius)
          read_before[static_cast<std::size_t>(k)] = static_cast<int>(r);
      }
      if (read_before[static_cast<std::size_t>(k)] < 0)
        centres.push_back(c.centre), radii.push_back(c.radius);
    }
    const bool face_net = params.use_face_cnn && !model.face_cnn.empty();
    const std::vector<cv::Point2d> by_network =
        face_net ? locate_faces_cnn(grey, centres, radii, params.face_steps, model)
                 : std::vector<cv::Point2d>{};
    std::size_t located = 0;
    for (int k = 0; k < m; ++k) {
      const Candidate& c =
          d.candidates[static_cast<std::size_t>(chosen[static_cast<std::size_t>(k)])];
      if (const int before = read_before[static_cast<std::size_t>(k)]; before >= 0) {
        d.face.push_back(reads[static_cast<std::size_t>(before)].located);
        continue;
      }
      const cv::Point2d by_forests =
          locate_face(bgr, c.centre, c.radius, params.locate_steps, model);
      const cv::Point2d by_net = face_net ? by_network[located++] : by_forests;
      d.face.push_back(face_net ? 0.5 * (by_forests + by_net) : by_forests);
      face_answers[static_cast<std::size_t>(k)] = {by_forests, by_net};
      std::vector<double>& at = angles[static_cast<std::size_t>(k)];
      const double axis =
          digit_axis(bgr, grey, d.face.back(), c.radius, model, params.use_axis_cnn);
      axis_read[static_cast<std::size_t>(k)] = axis >= 0 && params.axis_turns > 0;
      if (axis_read[static_cast<std::size_t>(k)]) {
        for (int way = 0; way < 2; ++way) {
          for (int j = 0; j < params.axis_turns; ++j)
            at.push_back(axis + 180.0 * way +
                         params.axis_step * (j - (params.axis_turns - 1) / 2.0));
        }
      } else {
        const int turns = std::max(4, params.rotations);
        for (int t = 0; t < turns; ++t) at.push_back(360.0 * t / turns);
      }
    }
    int rows = 0;
    for (const auto& at : angles) rows += static_cast<int>(at.size());
    // With a digit convolutional network, it reads the digit from its own grey crops.
    const bool cnn = params.use_cnn && !model.digit_cnn.empty() && model.axis_c;
    // (The forests' features only without it: the reader's "cocked" share at these crops is
    // then not asked, the network's own is.)
    cv::Mat samples(cnn ? 0 : rows, kFaceFeatures, CV_32F);
    cv::Mat cnn_rows(cnn ? rows : 0, kCnnSide * kCnnSide, CV_8U);
    std::vector<int> first_row(static_cast<std::size_t>(m));
    rows = 0;
    for (int k = 0; k < m; ++k) {
      const Candidate& c =
          d.candidates[static_cast<std::size_t>(chosen[static_cast<std::size_t>(k)])];
      first_row[static_cast<std::size_t>(k)] = rows;
      crops0[static_cast<std::size_t>(k)] =
          face_crop(bgr, d.face[static_cast<std::size_t>(k)], c.radius, 0);
      const std::vector<double>& at = angles[static_cast<std::size_t>(k)];
      if (cnn) {
        cnn_crops(grey, d.face[static_cast<std::size_t>(k)], c.radius, at, cnn_rows, rows);
        rows += static_cast<int>(at.size());
      } else {
        for (double angle : at) {
          face_features(face_crop(bgr, d.face[static_cast<std::size_t>(k)], c.radius, angle),
                        samples.ptr<float>(rows++));
        }
      }
    }
    // The digit forest reads along the axis; the reader's "cocked" share still counts.
    const cv::Ptr<cv::ml::RTrees>& digits =
        model.digits && model.axis_c ? model.digits : model.reader;
    const bool net = !model.digit_net.empty() && model.axis_c;
    // With net_veto the forest alone reads, and the network only checks its reading.
    const bool veto = net && params.net_veto && model.digits && !cnn;
    const auto digit_shares = [&](const cv::Mat& rows) -> cv::Mat {
      if (!net || veto) return vote_shares(digits, rows);
      const cv::Mat p = model.digit_net.probabilities(rows);
      if (params.net_weight >= 1 || !model.digits) return p;
      return params.net_weight * p + (1 - params.net_weight) * vote_shares(model.digits, rows);
    };
    const cv::Mat reader_shares = cnn ? cv::Mat() : vote_shares(model.reader, samples);
    const cv::Mat shares = cnn                              ? digit_probabilities(model, cnn_rows)
                           : !net && digits == model.reader ? reader_shares
                                                            : digit_shares(samples);
    for (int k = 0; k < m; ++k) {
      const int ci = chosen[static_cast<std::size_t>(k)];
      const Candidate& c = d.candidates[static_cast<std::size_t>(ci)];
      if (const int before = read_before[static_cast<std::size_t>(k)]; before >= 0) {
        const Read& r = reads[static_cast<std::size_t>(before)];
        d.face[static_cast<std::size_t>(k)] = r.face;
        d.cocked_evidence.push_back(r.evidence);
        d.best_value.push_back(r.best_value);
        d.observation.dice.push_back(r.die);
        d.die_candidate.push_back(ci);
        d.rotation_deg.push_back(r.rotation);
        continue;
      }
      const cv::Point2d located_at = d.face[static_cast<std::size_t>(k)];
      const std::vector<double>& at_angle = angles[static_cast<std::size_t>(k)];
      const int turns = static_cast<int>(at_angle.size());
      const int row0 = first_row[static_cast<std::size_t>(k)];
      std::array<double, 11> best_of_value{};
      int best_turn = 0, best_value = 0;
      double best = -1, cocked = 0;
      // veto: the features of the crop the best reading came from, for the network.
      cv::Mat best_crop;
      double cnn_cocked = 0;
      for (int t = 0; t < turns; ++t) {
        if (cnn)
          cnn_cocked += shares.at<float>(row0 + t, kCockedClass) / turns;
        else
          cocked += reader_shares.at<float>(row0 + t, kCockedClass) / turns;
        for (int v = 1; v <= 10; ++v) {
          const double s = shares.at<float>(row0 + t, v);
          best_of_value[static_cast<std::size_t>(v)] =
              std::max(best_of_value[static_cast<std::size_t>(v)], s);
          if (s > best) {
            best = s;
            best_turn = t;
            best_value = v;
            if (veto) best_crop = samples.row(row0 + t);
          }
        }
      }
      double best_angle = at_angle[static_cast<std::size_t>(best_turn)];
      // The top face is seldom centred on the die (perspective): the best turn, shifted.
      cv::Point2d& face = d.face[static_cast<std::size_t>(k)];
      const cv::Point2d located = face;
      cv::Mat more;
      if (params.face_offset > 0) {
        const int rings = std::max(1, params.face_rings);
        cv::Mat shifted(8 * rings, cnn ? kCnnSide * kCnnSide : kFaceFeatures, cnn ? CV_8U : CV_32F);
        std::vector<cv::Point2d> at;
        for (int ring = 1; ring <= rings; ++ring) {
          for (int dy = -1; dy <= 1; ++dy) {
            for (int dx = -1; dx <= 1; ++dx) {
              if (dx == 0 && dy == 0) continue;
              at.push_back(located + cv::Point2d(dx, dy) * (ring * params.face_offset * c.radius));
              const int row = static_cast<int>(at.size()) - 1;
              if (cnn)
                cnn_crop(grey, at.back(), c.radius, best_angle, shifted.ptr(row));
              else
                face_features(face_crop(bgr, at.back(), c.radius, best_angle),
                              shifted.ptr<float>(row));
            }
          }
        }
        more = cnn ? digit_probabilities(model, shifted) : digit_shares(shifted);
        for (int r = 0; r < more.rows; ++r) {
          for (int v = 1; v <= 10; ++v) {
            const double s = more.at<float>(r, v);
            best_of_value[static_cast<std::size_t>(v)] =
                std::max(best_of_value[static_cast<std::size_t>(v)], s);
            if (s > best) {
              best = s, best_value = v, face = at[static_cast<std::size_t>(r)];
              if (veto) best_crop = shifted.row(r);
            }
          }
        }
      }
      bool vetoed = false;
      if (veto && !best_crop.empty()) {
        const cv::Mat p = model.digit_net.probabilities(best_crop);
        const float* q = p.ptr<float>();
        vetoed = std::max_element(q, q + kReaderClasses) - q != best_value;
      }
      double second = 0;
      for (int v = 1; v <= 10; ++v) {
        if (v != best_value) second = std::max(second, best_of_value[static_cast<std::size_t>(v)]);
      }
      if ((params.pool || cnn) && axis_read[static_cast<std::size_t>(k)]) {
        // Pooled: the mean share of each value over the turns of the way the best reading was
        // found (up or down the axis) and the shifted crops, so that one lucky crop does not
        // decide.
        std::array<double, 11> pooled{};
        int crops = 0;
        const int way0 = best_turn < params.axis_turns ? 0 : params.axis_turns;
        for (int t = way0; t < way0 + params.axis_turns; ++t, ++crops) {
          for (int v = 1; v <= 10; ++v)
            pooled[static_cast<std::size_t>(v)] += shares.at<float>(row0 + t, v);
        }
        for (int r = 0; r < more.rows; ++r, ++crops) {
          for (int v = 1; v <= 10; ++v) pooled[static_cast<std::size_t>(v)] += more.at<float>(r, v);
        }
        best = -1, second = 0;
        for (int v = 1; v <= 10; ++v) {
          const double p = pooled[static_cast<std::size_t>(v)] / crops;
          if (p > best)
            second = std::max(second, best), best = p, best_value = v;
          else
            second = std::max(second, p);
        }
      }
      // The axis network now and then gives the digit's axis a quarter turn off: a die the crops
      // along it did not read is searched through `full_turns` turns of the whole circle, each
      // turn's reading the mean of it and its two neighbours', and read there when surer.
      const bool readable = best >= params.cnn_confidence && best - second >= params.cnn_margin;
      const bool round_search = cnn && axis_read[static_cast<std::size_t>(k)] &&
                                params.full_turns >= 8 && cnn_cocked < params.cnn_cocked;
      if (round_search && !readable) {
        const RoundReading r =
            read_round(grey, face, c.radius, best_angle, params.full_turns, model);
        if (r.best >= params.full_confidence && r.best - r.second > best - second)
          best = r.best, second = r.second, best_value = r.value, best_angle = r.angle;
      }
      // A die left unread may be searched at its face answers (below), unless the network half
      // takes it for cocked.
      searchable[static_cast<std::size_t>(k)] = round_search && cnn_cocked < params.answer_cocked;
      cocked = 0.5 * (cocked + cocked_seen[static_cast<std::size_t>(ci)]);
      DieSighting die;
      die.x = c.centre.x;
      die.y = c.centre.y;
      const double leaning = leaning_seen[static_cast<std::size_t>(ci)];
      d.cocked_evidence.push_back({leaning, cnn ? cnn_cocked : cocked, best, second});
      d.best_value.push_back(best_value);
      if (model.cocked && params.cocked_vote > 0 && leaning >= params.cocked_vote) {
        die.cocked = true;
        die.confidence = leaning;
      } else if (cocked >= params.cocked_share) {
        die.cocked = true;
        die.confidence = cocked;
      } else if (cnn && cnn_cocked >= params.cnn_cocked) {
        die.cocked = true;
        die.confidence = cnn_cocked;
      } else if (best >= (cnn ? params.cnn_confidence : params.min_confidence) &&
                 best - second >= (cnn ? params.cnn_margin : params.min_margin) && !vetoed) {
        die.value = best_value;
        die.confidence = best;
      } else {
        die.confidence = best;  // unreadable: value 0
      }
      die.zone = zone_of(c.centre, params.zones);
      d.observation.dice.push_back(die);
      d.die_candidate.push_back(ci);
      d.rotation_deg.push_back(std::fmod(best_angle + 360.0, 360.0));
      read_entry[static_cast<std::size_t>(k)] = static_cast<int>(reads.size());
      reads.push_back({c.centre, c.radius, located_at, face, die, d.rotation_deg.back(),
                       d.cocked_evidence.back(), best_value});
    }
    if (params.answer_search)
      read_at_face_answers(grey, d, chosen, face_answers, searchable, read_entry, reads, params,
                           model);
  }
  d.timing.read_ms = ms_since(start);

  // A die the examine stage was not sure of, on which the reader saw nothing (no value near
  // likely, not cocked): maybe a window on a cloth's pattern or between two touching dice. So is
  // an unread die that long straight lines run across (Params::ruled_*): a window on the grid of
  // a score sheet.
  // When a die was turned down as an eleventh, one of the eleven is no die: looser bounds.
  const bool crowded = std::any_of(d.candidates.begin(), d.candidates.end(),
                                   [](const Candidate& c) { return c.why == kEleventh; });
  const double empty_presence = crowded ? params.empty_crowded_presence : params.empty_presence;
  const double empty_best = crowded ? params.empty_crowded_best : params.empty_best;
  for (std::size_t k = 0; k < d.observation.dice.size(); ++k) {
    const Candidate& c = d.candidates[static_cast<std::size_t>(d.die_candidate[k])];
    const DieSighting& die = d.observation.dice[k];
    if (die.value == 0 && !die.cocked &&
        ((c.presence < empty_presence && d.cocked_evidence[k][2] < empty_best) ||
         (params.ruled_length > 0 &&
          ruled_edges(grey, c.centre, c.radius, params) >= params.ruled_count)))
      d.emptied.push_back(c.centre);
  }

  // decide_colours: a threshold on redness, bounded by the five dice of each colour.
  start = Clock::now();
  const int seen = static_cast<int>(d.observation.dice.size());
  for (int k = 0; k < seen; ++k)
    d.redness.push_back(redness(crops0[static_cast<std::size_t>(k)], params.red_yellow));
  if (params.textures && model.texture) {
    cv::Mat features(1, kTextureFeatures, CV_32F);
    for (int k = 0; k < seen; ++k) {
      texture_features(crops0[static_cast<std::size_t>(k)], features.ptr<float>());
      const int t = static_cast<int>(model.texture->predict(features));
      d.observation.dice[static_cast<std::size_t>(k)].texture =
          static_cast<referee::yams::Texture>(std::clamp(t, 0, 2));
    }
  }
  const std::vector<bool> red = red_dice(d.redness, params);
  for (int k = 0; k < seen; ++k) {
    d.observation.dice[static_cast<std::size_t>(k)].colour = red[static_cast<std::size_t>(k)]
                                                                 ? referee::yams::DieColour::Red
                                                                 : referee::yams::DieColour::White;
  }
  d.timing.other_ms = ms_since(start);
  return d;
}

// Two dice reported closer than `apart` are one die (a window between touching dice, reported
// beside them until the centre network put it on one of them): the one read (or cocked) is kept,
// else the surer; the other is dropped from the detection. So are two dice within the dice's
// radius whose faces as read lie closer than `faces_apart` (0: not asked): a window between
// touching dice, re-centred part of the way onto one of them, reads that one's top face; the die
// whose face lies nearer its own centre is kept.
void drop_dice_twice(Detection& d, double apart, double faces_apart) {
  auto& dice = d.observation.dice;
  std::vector<std::size_t> order(dice.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const bool read_a = dice[a].value > 0 || dice[a].cocked;
    const bool read_b = dice[b].value > 0 || dice[b].cocked;
    return read_a != read_b ? read_a : dice[a].confidence > dice[b].confidence;
  });
  std::vector<bool> drop(dice.size(), false);
  std::vector<std::size_t> kept;
  for (const std::size_t i : order) {
    drop[i] = std::any_of(kept.begin(), kept.end(), [&](std::size_t k) {
      return std::hypot(dice[k].x - dice[i].x, dice[k].y - dice[i].y) < apart;
    });
    if (!drop[i]) kept.push_back(i);
  }
  // One top face, one die (Params::faces_apart).
  if (faces_apart > 0 && d.face.size() == dice.size()) {
    const auto face_off = [&](std::size_t k) {
      return cv::norm(d.face[k] - cv::Point2d(dice[k].x, dice[k].y));
    };
    std::stable_sort(kept.begin(), kept.end(),
                     [&](std::size_t a, std::size_t b) { return face_off(a) < face_off(b); });
    std::vector<std::size_t> owners;
    for (const std::size_t i : kept) {
      drop[i] = std::any_of(owners.begin(), owners.end(), [&](std::size_t k) {
        return cv::norm(d.face[k] - d.face[i]) < faces_apart &&
               std::hypot(dice[k].x - dice[i].x, dice[k].y - dice[i].y) < d.die_radius;
      });
      if (!drop[i]) owners.push_back(i);
    }
  }
  for (std::size_t i = dice.size(); i-- > 0;) {
    if (!drop[i]) continue;
    Candidate& c = d.candidates[static_cast<std::size_t>(d.die_candidate[i])];
    c.kept = false;
    c.why = "on another die, centred";
    const auto at = [i](auto& v) {
      if (i < v.size()) v.erase(v.begin() + static_cast<std::ptrdiff_t>(i));
    };
    at(dice), at(d.die_candidate), at(d.rotation_deg), at(d.face), at(d.redness);
    at(d.cocked_evidence), at(d.best_value);
  }
}

// The centre network's answer for every die not centred yet (those the search beside the dice
// added) from its candidate's centre, and its zone there; dice then closer than `respace_after`
// radii are one (drop_dice_twice). Returns the candidate centres of the dice dropped.
std::vector<cv::Point2d> centre_dice(const cv::Mat& grey, Detection& d, const Params& params,
                                     const Model& model) {
  std::vector<cv::Point2d> dropped;
  if (d.observation.dice.empty()) return dropped;
  const auto start = Clock::now();
  std::vector<std::size_t> which;
  std::vector<cv::Point2d> from;
  std::vector<double> radii;
  for (std::size_t k = 0; k < d.observation.dice.size(); ++k) {
    const Candidate& c = d.candidates[static_cast<std::size_t>(d.die_candidate[k])];
    if (c.centred) continue;
    which.push_back(k);
    from.emplace_back(d.observation.dice[k].x, d.observation.dice[k].y);
    radii.push_back(c.radius);
  }
  const std::vector<cv::Point2d> at =
      locate_centres_cnn(grey, from, radii, params.centre_steps, model);
  for (std::size_t j = 0; j < at.size(); ++j) {
    DieSighting& die = d.observation.dice[which[j]];
    die.x = at[j].x;
    die.y = at[j].y;
    die.zone = zone_of(at[j], params.zones);
  }
  if (params.respace_after > 0) {
    const std::size_t before = d.candidates.size();
    std::vector<bool> was_kept(before);
    for (std::size_t i = 0; i < before; ++i) was_kept[i] = d.candidates[i].kept;
    drop_dice_twice(d, params.respace_after * d.die_radius, params.faces_apart * d.die_radius);
    for (std::size_t i = 0; i < before; ++i) {
      if (was_kept[i] && !d.candidates[i].kept) dropped.push_back(d.candidates[i].centre);
    }
  }
  d.timing.other_ms += ms_since(start);
  return dropped;
}

// Every die's radius measured by the size network where it lies, within size_bound of the
// radius it was found at (Params::size_*).
void size_dice(const cv::Mat& grey, Detection& d, const Params& params, const Model& model) {
  const auto start = Clock::now();
  std::vector<cv::Point2d> centres;
  std::vector<double> radii;
  for (std::size_t k = 0; k < d.observation.dice.size(); ++k) {
    centres.emplace_back(d.observation.dice[k].x, d.observation.dice[k].y);
    radii.push_back(d.candidates[static_cast<std::size_t>(d.die_candidate[k])].radius);
  }
  const std::vector<double> sizes =
      measure_sizes_cnn(grey, centres, radii, params.size_steps, params.size_turns, model);
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    d.candidates[static_cast<std::size_t>(d.die_candidate[k])].radius =
        std::clamp(sizes[k], radii[k] / params.size_bound, radii[k] * params.size_bound);
  }
  d.timing.other_ms += ms_since(start);
}

// Whether each die is put where the centre network finds its centre (Params::centre_steps).
bool centred(const Params& params, const Model& model) {
  return params.centre_steps > 0 && !model.centre_cnn.empty();
}

// Whether a transparent die left unread is read with the clear network (Params::clear_*).
bool reads_clear(const Params& params, const Model& model) {
  return params.clear_weight > 0 && !model.clear_cnn.empty() && model.texture;
}

// The dice read (not cocked), each with its place (its centre / the image's width) and its read
// face's shift from its centre (x its radius): what fit_face_shift fits.
struct ReadShifts {
  std::vector<std::size_t> dice;  // index in the observation
  std::vector<cv::Point2d> places, shifts;
  std::vector<cv::Point2d> axes;  // each die's digit up direction (digit_up); empty: not fitted
};

// `centres` and `faces` (when not empty: one per die seen) instead of the dice's own.
ReadShifts read_shifts(const Detection& d, double width, const Params& params,
                       const std::vector<cv::Point2d>& centres = {},
                       const std::vector<cv::Point2d>& faces = {}) {
  ReadShifts r;
  for (std::size_t j = 0; j < d.observation.dice.size(); ++j) {
    const DieSighting& e = d.observation.dice[j];
    if (e.value == 0 || e.cocked) continue;
    const double radius = d.candidates[static_cast<std::size_t>(d.die_candidate[j])].radius;
    const cv::Point2d centre = centres.empty() ? cv::Point2d(e.x, e.y) : centres[j];
    r.dice.push_back(j);
    r.places.emplace_back(centre.x / width, centre.y / width);
    r.shifts.push_back(((faces.empty() ? d.face[j] : faces[j]) - centre) / radius);
    if (params.fit_axis) r.axes.push_back(digit_up(d.rotation_deg[j]));
  }
  return r;
}

// Where the dice read put a flat die's top face: the shift k p - (a, b) fitted to the dice of `r`
// but its `skip`-th (none when `skip` is past the last; fit_face_shift, Params::tilt_dice,
// tilt_outlier); false when too few.
bool fit_read_faces(const ReadShifts& r, const Params& params, std::size_t skip, cv::Vec4d& m) {
  std::vector<std::size_t> use;
  for (std::size_t j = 0; j < r.dice.size(); ++j) {
    if (j != skip) use.push_back(j);
  }
  return fit_face_shift(r.places, r.shifts, r.axes, std::move(use), params.tilt_dice,
                        params.tilt_outlier, m, params.tilt_robust);
}

// The same without the dice `out` marks (one flag per die of `r`; none when empty) besides
// its `skip`-th.
bool fit_read_faces(const ReadShifts& r, const Params& params, std::size_t skip,
                    const std::vector<bool>& out, cv::Vec4d& m) {
  std::vector<std::size_t> use;
  for (std::size_t j = 0; j < r.dice.size(); ++j) {
    if (j != skip && (out.empty() || !out[j])) use.push_back(j);
  }
  return fit_face_shift(r.places, r.shifts, r.axes, std::move(use), params.tilt_dice,
                        params.tilt_outlier, m, params.tilt_robust);
}

// Die k of `d` read as `r` at `at` (its value, confidence, turn and top face).
void take_reading(Detection& d, std::size_t k, const RoundReading& r, cv::Point2d at) {
  d.observation.dice[k].value = r.value;
  d.observation.dice[k].confidence = r.best;
  d.best_value[k] = r.value;
  d.rotation_deg[k] = std::fmod(r.angle + 360.0, 360.0);
  d.face[k] = at;
}

// The texture forest's class (0 none, 1 frosted, 2 transparent) of the die whose top face is at
// `face`; `features` is a 1 x kTextureFeatures float row to fill.
int texture_at(const cv::Mat& bgr, cv::Point2d face, double radius, const Model& model,
               cv::Mat& features) {
  texture_features(face_crop(bgr, face, radius, 0), features.ptr<float>());
  return static_cast<int>(model.texture->predict(features));
}

// The frame's planes the clear network reads (clear_planes), split once, when first asked for:
// the veto and stage 6 share them, and most frames need none.
const std::vector<cv::Mat>& clear_planes_once(const cv::Mat& bgr, const cv::Mat& grey,
                                              const Model& model, std::vector<cv::Mat>& planes) {
  if (planes.empty()) planes = clear_planes(bgr, grey, model.clear_cnn);
  return planes;
}

// The probabilities a die is read on through `circle` at `at`: the digit networks', and with
// `clear` the clear networks' mixed in at Params::clear_weight (a frosted or transparent die read
// again: read_unread, check_read_faces).
cv::Mat round_probabilities(const cv::Mat& bgr, const cv::Mat& grey, cv::Point2d at, double radius,
                            const std::vector<double>& circle, bool clear, const Params& params,
                            const Model& model, std::vector<cv::Mat>& planes) {
  cv::Mat p = round_probabilities(grey, at, radius, circle, model);
  if (!clear) return p;
  return (1 - params.clear_weight) * p +
         params.clear_weight * clear_probabilities(clear_planes_once(bgr, grey, model, planes), at,
                                                   radius, circle, model);
}

// A white die read that looks transparent, whose value as read the clear network, shown it where
// and as it was read, finds unlikely, is left unread (Params::clear_veto).
void veto_clear(const cv::Mat& bgr, const cv::Mat& grey, Detection& d, const Params& params,
                const Model& model, std::vector<cv::Mat>& planes) {
  const auto start = Clock::now();
  cv::Mat features(1, kTextureFeatures, CV_32F);
  for (std::size_t k = 0; k < d.observation.dice.size(); ++k) {
    DieSighting& die = d.observation.dice[k];
    if (die.value == 0 || die.cocked || die.colour != referee::yams::DieColour::White) continue;
    const double radius = d.candidates[static_cast<std::size_t>(d.die_candidate[k])].radius;
    if (texture_at(bgr, d.face[k], radius, model, features) < 2) continue;
    if (clear_probabilities(clear_planes_once(bgr, grey, model, planes), d.face[k], radius,
                            {d.rotation_deg[k]}, model)
            .at<float>(0, die.value) < params.clear_veto) {
      die.value = 0;
      die.confidence = 0;
    }
  }
  d.timing.read_ms += ms_since(start);
}

// A die left unread (not cocked) is read once more through the whole circle: where the other dice
// read put a flat die's top face (Params::fit_unread), and when it looks transparent with the
// clear network mixed in, also at its top face as the clear face network finds it, then where it
// was read (Params::clear_*), then at places round the fitted one (Params::fit_ring). The digit
// networks read a transparent die poorly: the digits of its other faces show through its body,
// and its top face is found off.
void read_unread(const cv::Mat& bgr, const cv::Mat& grey, Detection& d, const Params& params,
                 const Model& model, std::vector<cv::Mat>& planes) {
  const auto start = Clock::now();
  const bool clear_net = reads_clear(params, model);
  cv::Mat features(1, kTextureFeatures, CV_32F);
  const double width = std::max(1, grey.cols);
  // Where the dice read put a flat die's top face (the shifts are measured from the centre
  // network's centres: a candidate's is too rough for them).
  cv::Vec4d shift;
  const ReadShifts read = read_shifts(d, width, params);
  const bool fitted = params.fit_unread && centred(params, model) &&
                      fit_read_faces(read, params, read.dice.size(), shift);  // none skipped
  for (std::size_t k = 0; k < d.observation.dice.size(); ++k) {
    DieSighting& die = d.observation.dice[k];
    if (die.value != 0 || die.cocked) continue;
    const Candidate& c = d.candidates[static_cast<std::size_t>(d.die_candidate[k])];
    bool clear = clear_net;
    if (clear && params.clear_gate > 0) {
      clear = texture_at(bgr, d.face[k], c.radius, model, features) >= params.clear_gate;
    }
    std::vector<cv::Point2d> points;
    if (fitted) {
      const cv::Point2d centre(die.x, die.y);
      // The die's digit axis is not known (its up direction least of all): c u left out.
      points.push_back(centre + c.radius * face_shift(shift, centre / width, {0, 0}));
    }
    // A transparent die: at the clear face network's answer from its centre, then where it was
    // read.
    if (clear && !model.clear_face_cnn.empty() && params.clear_locate > 0) {
      points.push_back(locate_with(model.clear_face_cnn, grey, {cv::Point2d(die.x, die.y)},
                                   {c.radius}, params.clear_locate)[0]);
    }
    if (clear) points.push_back(d.face[k]);
    // Round the fitted place (the die's centre is placed within about 0.05 radius, the fit
    // within as much again): fit_ring_places more, fit_ring x the radius off, read after all the
    // others, each only when none before it read; not for a die the digit networks take for
    // cocked by a quarter or more (answer_cocked, as the search at the face answers: more places
    // read a leaning die's faces too).
    if (fitted && params.fit_ring > 0 && d.cocked_evidence[k][1] < params.answer_cocked) {
      const cv::Point2d fit = points.front();
      for (int q = 0; q < params.fit_ring_places; ++q) {
        const double a = 2 * M_PI * (q + 0.5) / params.fit_ring_places;
        points.push_back(fit + c.radius * params.fit_ring * cv::Point2d(std::cos(a), std::sin(a)));
      }
    }
    const std::vector<double> circle = round_turns(d.rotation_deg[k], params.full_turns);
    const auto reads = [&](const RoundReading& x) {
      return clear_reading_taken(x.best, x.second, params);
    };
    RoundReading r;
    cv::Point2d read_at = d.face[k];
    for (const cv::Point2d& at : points) {
      const RoundReading here = round_reading(
          round_probabilities(bgr, grey, at, c.radius, circle, clear, params, model, planes),
          circle);
      if (here.best - here.second > r.best - r.second) r = here, read_at = at;
      if (reads(r)) break;  // the next place only when this one reads nothing
    }
    // Still nothing: the face's own range of grey stretched over the whole (a face a light's
    // highlight washes out, its digit faint on it), read again at the surest place.
    if (!reads(r) && params.stretch_high > params.stretch_low) {
      cv::Point2d origin;
      const cv::Mat stretched = stretch_round(grey, read_at, c.radius, params, origin);
      if (!stretched.empty()) {
        const RoundReading here = round_reading(
            round_probabilities(stretched, read_at - origin, c.radius, circle, model), circle);
        if (reads(here)) r = here;
      }
    }
    // Still nothing, a red die: its redness (redness_round) read at the surest place, then at
    // the others in turn, taken at an opaque die's whole-circle bound (whole_circle_taken; the
    // networks never learnt that plane), not the clear one `reads` takes.
    bool taken = reads(r);
    if (!taken && params.redness_plane && die.colour == referee::yams::DieColour::Red) {
      std::vector<cv::Point2d> places{read_at};
      for (const cv::Point2d& at : points) {
        if (at != read_at) places.push_back(at);
      }
      for (const cv::Point2d& at : places) {
        cv::Point2d origin;
        const cv::Mat redness = redness_round(bgr, at, c.radius, origin);
        if (redness.empty()) continue;
        const RoundReading here = round_reading(
            round_probabilities(redness, at - origin, c.radius, circle, model), circle);
        if (whole_circle_taken(here, params)) {
          r = here, read_at = at, taken = true;
          break;
        }
      }
    }
    if (taken) take_reading(d, k, r, read_at);
  }
  d.timing.read_ms += ms_since(start);
}

// Whether die k's face as read, or placed again (`faces`, when not empty), lies within `bound`
// (x its radius) of a flat die's, `expected` from `centre` (the face check's measure).
bool faces_near(const Detection& d, const std::vector<cv::Point2d>& faces, std::size_t k,
                cv::Point2d centre, double radius, cv::Point2d expected, double bound) {
  const auto near = [&](cv::Point2d face) {
    return cv::norm((face - centre) / radius - expected) < bound;
  };
  return near(d.face[k]) || (!faces.empty() && near(faces[k]));
}

// A die the face check left unread, with the reading it had.
struct LeftOff {
  std::size_t die = 0;
  int value = 0;
  double confidence = 0;
};

// Params::check_second: each die of `left_off` judged again against the fit of the dice the
// check left read, from the check's `centres` and `faces` (none: the dice's own), as the check
// judges it from its own centre; its reading given back when its faces lie near where that fit
// puts a flat die's, and the lean network takes it for flat shown that place and, before, the
// first fit's (Detection::check_first): from the second alone it took leaning dice for flat.
void judge_again(const cv::Mat& bgr, const cv::Mat& grey, Detection& d, const Params& params,
                 const Model& model, const std::vector<cv::Point2d>& centres,
                 const std::vector<cv::Point2d>& faces, const std::vector<LeftOff>& left_off) {
  const double width = std::max(1, grey.cols);
  const ReadShifts read = read_shifts(d, width, params, centres, faces);
  cv::Vec4d m;
  if (!fit_read_faces(read, params, read.dice.size(), m)) return;
  cv::Mat features(1, kTextureFeatures, CV_32F);
  for (const LeftOff& off : left_off) {
    const std::size_t k = off.die;
    DieSighting& die = d.observation.dice[k];
    const double radius = d.candidates[static_cast<std::size_t>(d.die_candidate[k])].radius;
    const cv::Point2d centre = centres.empty() ? cv::Point2d(die.x, die.y) : centres[k];
    const cv::Point2d axis = params.fit_axis ? digit_up(d.rotation_deg[k]) : cv::Point2d(0, 0);
    const cv::Point2d expected = face_shift(m, centre / width, axis);
    if (!faces_near(d, faces, k, centre, radius, expected, params.face_check)) continue;
    if (params.face_check_opaque > 0 && !faces.empty() && model.texture &&
        cv::norm((faces[k] - centre) / radius - expected) >= params.face_check_opaque &&
        texture_at(bgr, d.face[k], radius, model, features) == 0)
      continue;
    if (params.lean_bound > 0 && !model.lean_cnn.empty() &&
        (d.check_first[k][2] >= params.lean_bound ||
         ask_lean(grey, d, k, centre, radius, expected, model) >= params.lean_bound))
      continue;
    die.value = off.value;
    die.confidence = off.confidence;
  }
}

// A die read at a place off where the other dice read put a flat die's top face (Params::
// face_check): unread (or, with check_reread, check_reread_from or check_reread_flat, read again
// there through the whole circle, a frosted or transparent one with the clear networks mixed in,
// unread when that reads nothing sure). `planes`: the clear network's, shared with read_unread.
void check_read_faces(const cv::Mat& bgr, const cv::Mat& grey, Detection& d, const Params& params,
                      const Model& model, std::vector<cv::Mat>& planes) {
  const auto start = Clock::now();
  cv::Mat features(1, kTextureFeatures, CV_32F);
  const double width = std::max(1, grey.cols);
  // Each die's centre and top face placed once more from where they are, the crops at
  // refine_turns turns (the mean of more turns is surer), for this check only: the dice are
  // reported where they were.
  std::vector<cv::Point2d> centres, faces;
  if (params.refine_turns > 0) {
    // A die whose face as read lies within refine_from of where the other dice as read put it is
    // not placed again, to save time (a die the check finds off nearly always lies farther off
    // as read); it counts in the fit where it was read.
    // How far each die's face lies off where the others put it (1: not measured), with the
    // dice's own centres and faces or `centres` and `faces`.
    const auto off_where = [&](const std::vector<cv::Point2d>& at_centres,
                               const std::vector<cv::Point2d>& at_faces) {
      std::vector<double> off(d.observation.dice.size(), 1.0);
      const ReadShifts r = read_shifts(d, width, params, at_centres, at_faces);
      const std::vector<double> o = tilt_residuals(r.places, r.shifts, params.tilt_dice,
                                                   params.tilt_outlier, r.axes, params.tilt_robust);
      for (std::size_t i = 0; i < r.dice.size(); ++i) {
        if (o[i] >= 0) off[r.dice[i]] = o[i];  // -1: too few others, placed
      }
      return off;
    };
    std::vector<double> off_as_read(d.observation.dice.size(), 1.0);
    if (params.refine_from > 0) off_as_read = off_where({}, {});
    // The dice read only (the others are not checked, nor fitted).
    std::vector<std::size_t> read;
    std::vector<cv::Point2d> at_centres, at_faces;
    std::vector<double> radii;
    for (std::size_t k = 0; k < d.observation.dice.size(); ++k) {
      const DieSighting& die = d.observation.dice[k];
      centres.emplace_back(die.x, die.y);
      faces.push_back(d.face[k]);
      if (die.value == 0 || die.cocked || off_as_read[k] < params.refine_from) continue;
      read.push_back(k);
      at_centres.push_back(centres.back());
      at_faces.push_back(faces.back());
      radii.push_back(d.candidates[static_cast<std::size_t>(d.die_candidate[k])].radius);
    }
    at_centres = locate_with(model.centre_cnn, grey, at_centres, radii, 1, params.refine_turns);
    at_faces = locate_with(model.face_cnn, grey, at_faces, radii, 1, params.refine_turns);
    for (std::size_t i = 0; i < read.size(); ++i) {
      centres[read[i]] = at_centres[i];
      faces[read[i]] = at_faces[i];
    }
    // Then the dice still fine_from off so placed, to the fine networks' grain.
    if (params.fine_steps > 0 && !model.fine_centre_cnn.empty() && !model.fine_face_cnn.empty()) {
      const std::vector<double> off = off_where(centres, faces);
      std::vector<std::size_t> fine;
      std::vector<cv::Point2d> fine_centres, fine_faces;
      std::vector<double> fine_radii;
      for (std::size_t i = 0; i < read.size(); ++i) {
        if (off[read[i]] < params.fine_from) continue;
        fine.push_back(read[i]);
        fine_centres.push_back(centres[read[i]]);
        fine_faces.push_back(faces[read[i]]);
        fine_radii.push_back(radii[i]);
      }
      fine_centres = locate_fine_centres_cnn(grey, fine_centres, fine_radii, params.fine_steps,
                                             params.fine_turns, model);
      fine_faces = locate_fine_faces_cnn(grey, fine_faces, fine_radii, params.fine_steps,
                                         params.fine_turns, model);
      for (std::size_t i = 0; i < fine.size(); ++i) {
        centres[fine[i]] = fine_centres[i];
        faces[fine[i]] = fine_faces[i];
      }
    }
  }
  d.check_centre = centres;
  d.check_face = faces;
  d.check_first.assign(d.observation.dice.size(), cv::Vec3d(-1, -1, -1));
  std::vector<LeftOff> left_off;  // the dice the check leaves unread (Params::check_second)
  // Each die against the others as they were read (a die read again or left unread here still
  // counts for the others).
  const ReadShifts read = read_shifts(d, width, params, centres, faces);
  // The `i`-th die of `read`: its radius, its digit axis (the fit's) and the check's centre.
  const auto radius_of = [&](std::size_t i) {
    return d.candidates[static_cast<std::size_t>(d.die_candidate[read.dice[i]])].radius;
  };
  const auto axis_of = [&](std::size_t i) {
    return read.axes.empty() ? cv::Point2d(0, 0) : read.axes[i];
  };
  const auto centre_of = [&](std::size_t i) {
    const DieSighting& die = d.observation.dice[read.dice[i]];
    return centres.empty() ? cv::Point2d(die.x, die.y) : centres[read.dice[i]];
  };
  // The dice surely leaning (Params::check_leave_out): both faces off and the lean network's
  // word, each against the fit of all the others; left out of the others' fits when few.
  std::vector<bool> leaning;
  if (params.check_leave_out > 0 && params.lean_bound > 0 && !model.lean_cnn.empty()) {
    leaning.assign(read.dice.size(), false);
    for (std::size_t i = 0; i < read.dice.size(); ++i) {
      cv::Vec4d m;
      if (!fit_read_faces(read, params, i, m)) continue;
      const double radius = radius_of(i);
      const cv::Point2d centre = centre_of(i);
      const cv::Point2d expected = face_shift(m, centre / width, axis_of(i));
      if (faces_near(d, faces, read.dice[i], centre, radius, expected, params.face_check)) continue;
      leaning[i] = ask_lean(grey, d, read.dice[i], centre, radius, expected, model) >=
                   params.lean_bound;
    }
    if (std::count(leaning.begin(), leaning.end(), true) > params.check_leave_out) leaning.clear();
  }
  for (std::size_t i = 0; i < read.dice.size(); ++i) {
    const std::size_t k = read.dice[i];
    DieSighting& die = d.observation.dice[k];
    cv::Vec4d m;
    if (!fit_read_faces(read, params, i, leaning, m) && !fit_read_faces(read, params, i, m))
      continue;
    const double radius = radius_of(i);
    const cv::Point2d axis = axis_of(i);
    cv::Point2d centre = centre_of(i);
    cv::Point2d expected = face_shift(m, centre / width, axis);
    // How far a face lies off where a flat die's would (x radius), from the centre now taken.
    const auto off_by = [&](cv::Point2d face) {
      return cv::norm((face - centre) / radius - expected);
    };
    const auto near = [&](cv::Point2d face, double bound) { return off_by(face) < bound; };
    const auto within = [&](double bound) {
      return faces_near(d, faces, k, centre, radius, expected, bound);
    };
    // Off when both the face placed again and the face as read lie off (the face network places
    // a clear die's face poorly: the other faces' digits show through), or, for an opaque die
    // (the texture forest's word), whose face it places surely, when the face placed again lies
    // face_check_opaque off.
    int opaque = -1;  // the texture forest's word, asked once
    const auto is_opaque = [&] {
      if (opaque < 0) opaque = texture_at(bgr, d.face[k], radius, model, features) == 0;
      return opaque == 1;
    };
    const auto opaque_off = [&] {
      if (params.face_check_opaque <= 0 || faces.empty() || !model.texture ||
          near(faces[k], params.face_check_opaque))
        return false;
      return is_opaque();
    };
    // Where the faces lie right, the lean network's word (asked once).
    int leans = -1;
    const auto flat = [&](bool near_is_flat = true) {
      if (params.lean_bound <= 0 || model.lean_cnn.empty()) return true;
      if (near_is_flat && params.lean_from > 0 && !faces.empty() &&
          near(faces[k], params.lean_from))
        return true;
      if (leans < 0)
        leans = ask_lean(grey, d, k, centre, radius, expected, model) >= params.lean_bound;
      return leans == 0;
    };
    d.check_first[k] = {off_by(d.face[k]), faces.empty() ? -1.0 : off_by(faces[k]),
                        params.lean_bound > 0 && !model.lean_cnn.empty()
                            ? ask_lean(grey, d, k, centre, radius, expected, model)
                            : -1.0};
    if (within(params.face_check) && !opaque_off() && flat()) continue;
    const cv::Point2d first_centre = centre, first_expected = expected;  // the check's own
    // Off: the centre placed again from wider crops, in case the die's radius was found too small.
    if (params.check_wider > 0 && params.refine_turns > 0) {
      const double wider = radius * params.check_wider;
      std::vector<cv::Point2d> at =
          locate_with(model.centre_cnn, grey, {centre}, {wider}, 1, params.refine_turns);
      if (params.fine_steps > 0 && !model.fine_centre_cnn.empty())
        at =
            locate_fine_centres_cnn(grey, at, {wider}, params.fine_steps, params.fine_turns, model);
      centre = at.front();
      expected = face_shift(m, centre / width, axis);
      leans = -1;
      if (within(params.face_check) && !opaque_off() && flat()) continue;
    }
    // Off still, an opaque die (whose face the face network places surely): the centre placed
    // again from where a flat die's would lie under its top face, in case the centre network was
    // drawn off it (toward a die it touches, or where a tray wall hides its lower part).
    const cv::Point2d reported(die.x, die.y);
    if (params.check_from_face > 0 && params.refine_turns > 0 && !faces.empty() &&
        cv::norm(faces[k] - reported) < params.check_from_face_reach * radius && model.texture &&
        is_opaque()) {
      std::vector<cv::Point2d> at =
          locate_with(model.centre_cnn, grey, {faces[k] - radius * expected}, {radius},
                      params.check_from_face, params.refine_turns);
      if (params.fine_steps > 0 && !model.fine_centre_cnn.empty())
        at = locate_fine_centres_cnn(grey, at, {radius}, params.fine_steps, params.fine_turns,
                                     model);
      // Not when that centre lies far from where the die is reported: it is then a neighbour's,
      // whose face was read.
      if (cv::norm(at.front() - reported) < params.check_from_face_reach * radius) {
        // The lean network asked from the centre before: from one placed under its face, a
        // leaning die's face lies near too.
        const bool flat_before = flat(false);
        centre = at.front();
        expected = face_shift(m, centre / width, axis);
        if (within(params.face_check) && !opaque_off() && flat_before) continue;
      }
    }
    // Unread; or, with check_reread (or both its faces, as read and as placed again,
    // check_reread_from or more off; or the lean network, asked from the check's own centre, takes
    // it for flat: check_reread_flat), read again where the fit puts its top face when that reads
    // surely (from the check's own centre when it is the lean network's word).
    const bool takes_for_flat = params.check_reread_flat > 0 && !model.lean_cnn.empty() &&
                                ask_lean(grey, d, k, first_centre, radius, first_expected, model) <
                                    params.check_reread_flat;
    if (params.check_reread ||
        (params.check_reread_from > 0 && !within(params.check_reread_from)) || takes_for_flat) {
      const cv::Point2d at =
          takes_for_flat ? first_centre + radius * first_expected : centre + radius * expected;
      const std::vector<double> circle = round_turns(d.rotation_deg[k], params.full_turns);
      // A frosted or transparent die with the clear networks mixed in, as in read_unread.
      const bool clear = params.check_reread_clear && reads_clear(params, model) &&
                         texture_at(bgr, d.face[k], radius, model, features) >= params.clear_gate;
      const RoundReading r = round_reading(
          round_probabilities(bgr, grey, at, radius, circle, clear, params, model, planes), circle);
      if (clear ? clear_reading_taken(r.best, r.second, params) : whole_circle_taken(r, params)) {
        take_reading(d, k, r, at);
        continue;
      }
    }
    if (params.check_second) left_off.push_back({k, die.value, die.confidence});
    die.value = 0;
    die.confidence = 0;
  }
  if (!left_off.empty()) judge_again(bgr, grey, d, params, model, centres, faces, left_off);
  d.timing.read_ms += ms_since(start);
}

// A die called cocked that the lean network takes for flat (under Params::lean_flat) is left
// unread instead, to be read again where the other dice put its top face.
void uncock_flat(const cv::Mat& grey, Detection& d, const Params& params, const Model& model) {
  const auto start = Clock::now();
  const double width = std::max(1, grey.cols);
  const ReadShifts read = read_shifts(d, width, params);
  cv::Vec4d m;
  if (!fit_read_faces(read, params, read.dice.size(), m)) {
    d.timing.read_ms += ms_since(start);
    return;
  }
  for (std::size_t k = 0; k < d.observation.dice.size(); ++k) {
    DieSighting& die = d.observation.dice[k];
    if (!die.cocked) continue;
    const cv::Point2d centre(die.x, die.y);
    const double radius = d.candidates[static_cast<std::size_t>(d.die_candidate[k])].radius;
    const cv::Point2d expected = face_shift(m, centre / width, cv::Point2d(0, 0));
    if (ask_lean(grey, d, k, centre, radius, expected, model) < params.lean_flat) {
      die.cocked = false;
      die.value = 0;
      die.confidence = 0;
    }
  }
  d.timing.read_ms += ms_since(start);
}

// A die read whose top face lies off where a flat die's would is cocked (Params::tilt_*): each
// die's top face is found by the top network from its centre, and tilt_residuals says how far it
// lies off.
void flag_tilted(const cv::Mat& grey, Detection& d, const Params& params, const Model& model) {
  const auto start = Clock::now();
  const std::size_t n = d.observation.dice.size();
  d.tilt.assign(n, -1.0);
  d.top.assign(n, cv::Point2d(-1, -1));
  std::vector<std::size_t> read;
  std::vector<cv::Point2d> centres;
  std::vector<double> radii;
  for (std::size_t k = 0; k < n; ++k) {
    const DieSighting& die = d.observation.dice[k];
    if (die.value == 0 || die.cocked) continue;
    read.push_back(k);
    centres.emplace_back(die.x, die.y);
    radii.push_back(d.candidates[static_cast<std::size_t>(d.die_candidate[k])].radius);
  }
  if (static_cast<int>(read.size()) < params.tilt_dice + 1) return;
  const std::vector<cv::Point2d> tops =
      locate_with(model.top_cnn, grey, centres, radii, params.tilt_locate);
  const double width = std::max(1, grey.cols);
  std::vector<cv::Point2d> places(read.size()), shifts(read.size());
  for (std::size_t i = 0; i < read.size(); ++i) {
    places[i] = centres[i] / width;
    shifts[i] = (tops[i] - centres[i]) / radii[i];
  }
  const std::vector<double> tilt =
      tilt_residuals(places, shifts, params.tilt_dice, params.tilt_outlier, {}, params.tilt_robust);
  // Where each die's top face was read (the face network's and the forests' answer): a second
  // measure, so that the top network's slip alone does not call a flat die cocked.
  std::vector<double> read_off(read.size(), 1.0);
  if (params.tilt_face_residual > 0) {
    std::vector<cv::Point2d> read_shifts(read.size());
    for (std::size_t i = 0; i < read.size(); ++i)
      read_shifts[i] = (d.face[read[i]] - centres[i]) / radii[i];
    read_off = tilt_residuals(places, read_shifts, params.tilt_dice, params.tilt_outlier, {},
                              params.tilt_robust);
  }
  for (std::size_t i = 0; i < read.size(); ++i) {
    d.tilt[read[i]] = tilt[i];
    d.top[read[i]] = tops[i];
    if (tilt[i] >= params.tilt_residual && read_off[i] >= params.tilt_face_residual) {
      DieSighting& die = d.observation.dice[read[i]];
      die.cocked = true;
      die.value = 0;
      die.confidence = std::min(1.0, 0.5 * tilt[i] / params.tilt_residual);
    }
  }
  d.timing.read_ms += ms_since(start);
}

}  // namespace

bool clear_reading_taken(double best, double second, const Params& params) {
  return best >= params.clear_confidence && best - second >= params.clear_margin;
}

CircleReading read_whole_circle(const cv::Mat& bgr, cv::Point2d at, double radius, double start_deg,
                                bool clear, const Params& params, const Model& model) {
  cv::Mat grey;
  cv::cvtColor(bgr, grey, cv::COLOR_BGR2GRAY);
  std::vector<cv::Mat> planes;
  const std::vector<double> circle = round_turns(start_deg, params.full_turns);
  const RoundReading r =
      round_reading(round_probabilities(bgr, grey, at, radius, circle,
                                        clear && reads_clear(params, model), params, model, planes),
                    circle);
  return {r.value, r.best, r.second};
}

bool fit_face_shift(const std::vector<cv::Point2d>& places, const std::vector<cv::Point2d>& shifts,
                    std::vector<std::size_t> use, int min_dice, double outlier, cv::Vec3d& m,
                    bool robust) {
  cv::Vec4d m4;
  if (!fit_face_shift(places, shifts, {}, std::move(use), min_dice, outlier, m4, robust))
    return false;
  m = cv::Vec3d(m4[0], m4[1], m4[2]);
  return true;
}

bool fit_face_shift(const std::vector<cv::Point2d>& places, const std::vector<cv::Point2d>& shifts,
                    const std::vector<cv::Point2d>& axes, std::vector<std::size_t> use,
                    int min_dice, double outlier, cv::Vec4d& m, bool robust) {
  // Least squares of k, a, b (and c with the axes) over the dice `use`: x k - a + c ux = shift x,
  // y k - b + c uy = shift y.
  const bool with_axes = !axes.empty();
  const auto axis = [&](std::size_t i) { return with_axes ? axes[i] : cv::Point2d(0, 0); };
  const auto fit = [&](const std::vector<std::size_t>& dice) {
    cv::Matx44d normal = cv::Matx44d::zeros();
    cv::Vec4d right(0, 0, 0, 0);
    for (std::size_t i : dice) {
      const cv::Vec4d rx(places[i].x, -1, 0, axis(i).x), ry(places[i].y, 0, -1, axis(i).y);
      normal += rx * rx.t() + ry * ry.t();
      right += rx * shifts[i].x + ry * shifts[i].y;
    }
    if (!with_axes) normal(3, 3) = 1;  // c = 0
    return cv::solve(normal, right, m, cv::DECOMP_CHOLESKY);
  };
  const int least = std::max(with_axes ? 3 : 2, min_dice);
  if (static_cast<int>(use.size()) < least) return false;
  bool fitted = fit(use);
  if (fitted && robust) {
    // One die read far off pulls the fit of all toward it, so that the dice read right can lie
    // off it and be dropped in its place: the fit without each die in turn is tried too, and
    // the one with the most dice near it (the least squared distance on a tie) starts.
    const auto near_count = [&](const cv::Vec4d& f, double& sum) {
      int n = 0;
      sum = 0;
      for (std::size_t j : use) {
        const double e = cv::norm(shifts[j] - face_shift(f, places[j], axis(j)));
        if (e <= outlier) ++n, sum += e * e;
      }
      return n;
    };
    double best_sum = 0;
    int best = near_count(m, best_sum);
    cv::Vec4d best_m = m;
    if (best < static_cast<int>(use.size()) && static_cast<int>(use.size()) > least) {
      for (std::size_t skip = 0; skip < use.size(); ++skip) {
        std::vector<std::size_t> rest;
        for (std::size_t q = 0; q < use.size(); ++q)
          if (q != skip) rest.push_back(use[q]);
        if (!fit(rest)) continue;
        double sum = 0;
        const int n = near_count(m, sum);
        if (n > best || (n == best && sum < best_sum)) best = n, best_sum = sum, best_m = m;
      }
    }
    m = best_m;
  }
  for (int round = 0; round < 2 && fitted; ++round) {
    std::vector<std::size_t> near;
    for (std::size_t j : use) {
      if (cv::norm(shifts[j] - face_shift(m, places[j], axis(j))) <= outlier) near.push_back(j);
    }
    if (static_cast<int>(near.size()) < least || near.size() == use.size()) break;
    use = std::move(near);
    fitted = fit(use);
  }
  return fitted;
}

std::vector<double> tilt_residuals(const std::vector<cv::Point2d>& places,
                                   const std::vector<cv::Point2d>& shifts, int min_dice,
                                   double outlier, const std::vector<cv::Point2d>& axes,
                                   bool robust) {
  const std::size_t n = std::min(places.size(), shifts.size());
  std::vector<double> residual(n, -1.0);
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<std::size_t> others;
    for (std::size_t j = 0; j < n; ++j) {
      if (j != i) others.push_back(j);
    }
    cv::Vec4d m;
    const cv::Point2d axis = axes.empty() ? cv::Point2d(0, 0) : axes[i];
    if (fit_face_shift(places, shifts, axes, std::move(others), min_dice, outlier, m, robust))
      residual[i] = cv::norm(shifts[i] - face_shift(m, places[i], axis));
  }
  return residual;
}

Detection detect(const cv::Mat& bgr, const Params& params, const Model& model) {
  if (model.empty() || bgr.empty()) {
    Detection d;
    d.observation.width = bgr.cols;
    d.observation.height = bgr.rows;
    return d;
  }
  const auto start = Clock::now();
  cv::Mat grey;  // the lightness: the window detector's, and re-centring's
  cv::cvtColor(bgr, grey, cv::COLOR_BGR2GRAY);
  // Down to faint_threshold when faint windows are looked at (detect_pass).
  Params scan = params;
  if (params.faint_candidates > 0)
    scan.scan_threshold = std::min(params.scan_threshold, params.faint_threshold);
  const std::vector<Candidate> coarse =
      scan_grey(grey, scan, model, std::max(0, params.deferred_levels), -1);
  const double scan_ms = ms_since(start);
  Examined examined;
  std::vector<Read> reads;
  const auto read = [](const Detection& x) {
    return std::count_if(x.observation.dice.begin(), x.observation.dice.end(),
                         [](const DieSighting& s) { return s.value > 0; });
  };
  // The second choice is taken when it reads more dice, or as many and finds as many (`more`,
  // with Params::empty_tie_first: more, or as many surer ones).
  const auto take_again = [&](Detection& d, Detection&& again, bool more) -> bool {
    Timing both = d.timing;  // both passes were spent, whichever is kept
    both += again.timing;
    const auto read_again = read(again), read_first = read(d);
    const std::size_t found_again = again.observation.dice.size(),
                      found_first = d.observation.dice.size();
    // On a tie the surer dice (the sum of their presence) when `more`: with
    // Params::empty_tie_apart, of the dice each choice has where the other has none (a die both
    // have may be found by another candidate, surer or less so).
    const auto presence = [&](const Detection& x, const Detection& y) {
      double sum = 0;
      for (int k : x.die_candidate) {
        const Candidate& c = x.candidates[static_cast<std::size_t>(k)];
        const bool both = params.empty_tie_apart &&
                          std::any_of(y.die_candidate.begin(), y.die_candidate.end(), [&](int j) {
                            return cv::norm(y.candidates[static_cast<std::size_t>(j)].centre -
                                            c.centre) < 0.5 * x.die_radius;
                          });
        if (!both) sum += c.presence;
      }
      return sum;
    };
    if (read_again > read_first ||
        (read_again == read_first &&
         (more && params.empty_tie_first
              ? found_again > found_first ||
                    (found_again == found_first && presence(again, d) > presence(d, again))
              : found_again >= found_first))) {
      d = std::move(again);
      d.timing = both;
      return true;
    }
    d.timing = both;
    return false;
  };
  Detection d = detect_pass(bgr, grey, coarse, params, model, {}, examined, reads, 0);
  double resized = 0;  // the size the dice were chosen again at, kept by the passes below
  // Seen from close by, a die's digits are windows of their own, and they can outnumber the dice:
  // the dice chosen at a digit's size read few. When fewer than resize_reads are read, the dice
  // are chosen again at the size of the surer candidates larger than the tolerance (the median
  // of the ten surest), taken when that reads more dice.
  if (params.resize_reads > 0 && read(d) < params.resize_reads && d.die_radius > 0) {
    const double larger = surest_radius(d.candidates, [&](const Candidate& c) {
      return c.presence >= params.min_presence && c.radius > d.die_radius * params.size_tolerance;
    });
    if (larger > 0) {
      Detection again = detect_pass(bgr, grey, coarse, params, model, {}, examined, reads, larger);
      Timing both = d.timing;
      both += again.timing;
      if (read(again) > read(d)) {
        d = std::move(again);
        resized = d.die_radius;
      }
      d.timing = both;
    }
  }
  // A die that read nothing took a place among the ten, and its spacing may have turned down a
  // die beside it: the dice are chosen once more without it (a die left unread, or cocked, in the
  // place of one that read nothing), taken when they read more dice or find more. On a tie the
  // first choice stays: the die that read nothing is most often a die (a clear one) the other
  // dice's reading reads later, and what took its place no die (docs/benchmarks.md, 2026-12-04).
  std::vector<cv::Point2d> excluded = d.emptied;
  if (!d.emptied.empty() && params.empty_again) {
    const auto presence_of = [](const Detection& x, std::size_t k) {
      return x.candidates[static_cast<std::size_t>(x.die_candidate[k])].presence;
    };
    const auto centre_of = [](const Detection& x, std::size_t k) {
      return x.candidates[static_cast<std::size_t>(x.die_candidate[k])].centre;
    };
    // The first choice's dice, and those it gave up (presence, place), surest first.
    std::vector<cv::Point2d> first;
    std::vector<std::pair<double, cv::Point2d>> given_up;
    for (std::size_t j = 0; j < d.observation.dice.size(); ++j) {
      first.push_back(centre_of(d, j));
      if (std::find(d.emptied.begin(), d.emptied.end(), first.back()) != d.emptied.end())
        given_up.emplace_back(presence_of(d, j), first.back());
    }
    std::stable_sort(given_up.begin(), given_up.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    const bool again =
        take_again(d, detect_pass(bgr, grey, coarse, params, model, excluded, examined, reads, resized),
                   true);
    // The choice again may have put a die it read nothing on either, and less sure, where no die
    // of the first choice lay (a window on the bare table): a die given up, clear of the dice
    // chosen, takes its place back (Params::empty_give_back).
    if (again && params.empty_give_back) {
      const double r = d.die_radius;
      // The unread dice new to the choice again, least sure first.
      std::vector<std::size_t> unsure;
      for (std::size_t k = 0; k < d.observation.dice.size(); ++k) {
        const DieSighting& die = d.observation.dice[k];
        const cv::Point2d at = centre_of(d, k);
        if (die.value == 0 && !die.cocked && std::none_of(first.begin(), first.end(), [&](cv::Point2d p) {
              return cv::norm(p - at) < 0.5 * r;
            }))
          unsure.push_back(k);
      }
      std::stable_sort(unsure.begin(), unsure.end(), [&](std::size_t a, std::size_t b) {
        return presence_of(d, a) < presence_of(d, b);
      });
      // Each die given up surer than the least sure left, and clear of the dice chosen that stay
      // and of those taken back.
      std::vector<cv::Point2d> back, out;
      std::size_t u = 0;
      for (const auto& [presence, at] : given_up) {
        if (u >= unsure.size() || presence <= presence_of(d, unsure[u])) break;
        const auto clear_of = [&](cv::Point2d p) {
          return cv::norm(p - at) >= params.min_spacing * r;
        };
        bool clear = std::all_of(back.begin(), back.end(), clear_of);
        for (std::size_t k = 0; k < d.observation.dice.size() && clear; ++k) {
          const bool leaving = std::find(unsure.begin() + static_cast<std::ptrdiff_t>(u),
                                         unsure.end(), k) != unsure.end();
          clear = leaving || clear_of(centre_of(d, k));
        }
        if (!clear) continue;
        back.push_back(at);
        out.push_back(centre_of(d, unsure[u++]));
      }
      // The dice chosen once more so, taken as the choice again was.
      if (!back.empty()) {
        std::vector<cv::Point2d> without = excluded;
        std::erase_if(without, [&](cv::Point2d p) {
          return std::find(back.begin(), back.end(), p) != back.end();
        });
        without.insert(without.end(), out.begin(), out.end());
        if (take_again(
                d, detect_pass(bgr, grey, coarse, params, model, without, examined, reads, resized),
                true))
          excluded = without;
      }
    }
  }
  // Where each die lies: the dice the search beside them added are centred too (the others were
  // when chosen), and every die's zone is taken where it lies. A die put on another is that die,
  // and its place is given up: the dice are chosen once more without it (the die it turned down
  // as an eleventh).
  if (params.centre_steps > 0 && !model.centre_cnn.empty()) {
    const std::vector<cv::Point2d> twice = centre_dice(grey, d, params, model);
    if (!twice.empty() && params.empty_again) {
      excluded.insert(excluded.end(), twice.begin(), twice.end());
      Detection again =
          detect_pass(bgr, grey, coarse, params, model, excluded, examined, reads, resized);
      centre_dice(grey, again, params, model);
      take_again(d, std::move(again), false);
    }
  }
  // Each die's radius measured where it lies (Params::size_*).
  if (params.size_steps > 0 && !model.size_cnn.empty()) size_dice(grey, d, params, model);
  if (params.lean_flat > 0 && !model.lean_cnn.empty() && centred(params, model))
    uncock_flat(grey, d, params, model);
  // A die left unread: read again where the others put a flat die's top face, and a transparent
  // one with the clear network (the digit networks' reader only).
  std::vector<cv::Mat> planes;  // the clear network's, split once when needed
  if (params.use_cnn && !model.digit_cnn.empty() && params.full_turns >= 8 &&
      ((params.fit_unread && centred(params, model)) || reads_clear(params, model))) {
    if (params.clear_veto > 0 && reads_clear(params, model))
      veto_clear(bgr, grey, d, params, model, planes);
    read_unread(bgr, grey, d, params, model, planes);
  }
  // A die read off where the others put a flat die's top face: read again there, or unread.
  if (params.face_check > 0 && params.use_cnn && !model.digit_cnn.empty() &&
      params.full_turns >= 8 && centred(params, model))
    check_read_faces(bgr, grey, d, params, model, planes);
  // A die leaning on another or on a wall, read as if flat: flagged cocked by where its top face
  // lies against its centre (the centre network's: a candidate's centre is too rough for it).
  if (params.tilt_residual > 0 && params.tilt_locate > 0 && !model.top_cnn.empty() &&
      params.centre_steps > 0 && !model.centre_cnn.empty()) {
    flag_tilted(grey, d, params, model);
  } else {
    d.tilt.assign(d.observation.dice.size(), -1.0);
    d.top.assign(d.observation.dice.size(), cv::Point2d(-1, -1));
  }
  // The camera's angle from overhead, from where the dice read put a flat die's top face (the fit
  // without the digits' axes, as camera_tilt_from_fit was measured).
  {
    Params plain = params;
    plain.fit_axis = false;
    const ReadShifts read = read_shifts(d, std::max(1, grey.cols), plain);
    cv::Vec4d m;
    if (fit_read_faces(read, plain, read.dice.size(), m))  // none left out
      d.observation.camera_tilt_deg = camera_tilt_from_fit(m, grey.size());
  }
  d.timing.candidates_ms += scan_ms;
  return d;
}

double camera_tilt_from_fit(const cv::Vec4d& m, cv::Size size) {
  const double width = std::max(1, size.width);
  const cv::Point2d middle(0.5, 0.5 * size.height / width);
  const double shift = cv::norm(face_shift(m, middle, cv::Point2d(0, 0)));
  const double sine = std::clamp((shift - kTiltShiftBias) / kTiltShiftPerSine, 0.0, 1.0);
  return std::asin(sine) * 180.0 / M_PI;
}

cv::Mat draw_overlay(const cv::Mat& bgr, const Detection& d, const Params& params) {
  cv::Mat out = bgr.clone();
  const auto polyline = [&](const Polygon& polygon, const cv::Scalar& ink) {
    if (polygon.size() < 3) return;
    std::vector<cv::Point> points;
    for (const cv::Point2d& p : polygon)
      points.emplace_back(static_cast<int>(p.x), static_cast<int>(p.y));
    cv::polylines(out, points, true, ink, 2);
  };
  polyline(params.zones.tray, cv::Scalar(255, 200, 0));
  polyline(params.zones.kept, cv::Scalar(0, 200, 255));
  for (const Candidate& c : d.candidates) {
    if (c.kept) continue;
    const cv::Point at(static_cast<int>(c.centre.x), static_cast<int>(c.centre.y));
    cv::drawMarker(out, at, cv::Scalar(255, 0, 255), cv::MARKER_TILTED_CROSS, 12, 1);
    cv::putText(out, c.why, at + cv::Point(6, -4), cv::FONT_HERSHEY_SIMPLEX, 0.35,
                cv::Scalar(255, 0, 255), 1);
  }
  for (std::size_t k = 0; k < d.observation.dice.size(); ++k) {
    const DieSighting& die = d.observation.dice[k];
    const Candidate& c = d.candidates[static_cast<std::size_t>(d.die_candidate[k])];
    const cv::Point at(static_cast<int>(die.x), static_cast<int>(die.y));
    const cv::Scalar ink = die.cocked       ? cv::Scalar(0, 140, 255)
                           : die.value == 0 ? cv::Scalar(0, 0, 255)
                                            : cv::Scalar(40, 220, 40);
    cv::circle(out, at, static_cast<int>(c.radius), ink, 2);
    const double a = d.rotation_deg[k] * M_PI / 180.0;
    if (!die.cocked && die.value > 0 && k < d.face.size()) {
      const cv::Point from(static_cast<int>(d.face[k].x), static_cast<int>(d.face[k].y));
      const cv::Point tip(static_cast<int>(d.face[k].x + 0.6 * c.radius * std::sin(a)),
                          static_cast<int>(d.face[k].y - 0.6 * c.radius * std::cos(a)));
      cv::arrowedLine(out, from, tip, ink, 1, cv::LINE_AA, 0, 0.3);
    }
    std::string label = die.cocked ? "cocked" : die.value == 0 ? "?" : std::to_string(die.value);
    label += die.colour == referee::yams::DieColour::Red ? "r" : "w";
    char conf[16];
    std::snprintf(conf, sizeof conf, " %.2f", die.confidence);
    label += conf;
    const cv::Point text = at + cv::Point(static_cast<int>(c.radius) + 2, 4);
    cv::putText(out, label, text, cv::FONT_HERSHEY_SIMPLEX, 0.5, cv::Scalar(0, 0, 0), 3);
    cv::putText(out, label, text, cv::FONT_HERSHEY_SIMPLEX, 0.5, ink, 1);
  }
  return out;
}

}  // namespace arbitre::vision::dice
