#include "vision/common/cnn.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <type_traits>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace arbitre::vision {

// One convolution in 8 bits (Cnn::quicken). Its taps are taken four at a time, a plane's in
// kernel order: a group holds up to four taps lying within kGroupSpan bytes of its first one in
// the input (a kernel row and the start of the next when the input is narrow: the 25 taps of a 5x5
// kernel on a 28-pixel input in 7 groups, where a group per four taps of a row took 10), the
// slots left over with zero weights. An output pixel's group is the bytes at its own index plus
// the group's offset plus each tap's own (`lanes`). The weights of each output map on each input
// plane are rounded to signed bytes over their own step (their largest / 127). The groups run
// plane by plane: each input plane of either convolution is quantised over its own range
// (quick_convolve), so its sums are scaled back plane by plane, by the plane's and the weights'
// steps.
struct CnnQuick {
  struct Conv {
    int cout = 0, planes = 0, groups = 0;  // groups in all, the same number on every plane
    std::vector<std::int32_t> w;           // cout x groups: four signed bytes, slot j in byte j
    std::vector<int> base;                 // each group's offset in the input: its first tap's
    // Per group of a plane (the same on every plane), 64 bytes: for each of 16 pixels p side by
    // side, the 4 slots' input bytes from the block's first pixel at the group's offset, p + the
    // slot's tap offset (0 when unused): AVX-512 VBMI's byte permutation puts them in pixel p's
    // lane. Pixel 0's are the slots' own offsets (the plain path's).
    std::vector<std::uint8_t> lanes;
    std::vector<float> step;               // cout x planes: what a unit of those weights is worth
    std::vector<std::int32_t> sum;         // cout x planes: the sum of each plane's byte weights
    // The taps two at a time along a kernel row (AVX2's multiply-add of 16-bit pairs): each
    // pair's offset, and per output map its two weights as 16-bit halves (cout x pairs; a row's
    // odd last tap paired with a zero weight). plane_pairs[c] is plane c's first pair (planes +
    // 1 of them).
    std::vector<int> pair_base, plane_pairs;
    std::vector<std::int32_t> pair_w;
    int reach = 0;  // the input values read past an output pixel's index, at most
    // The output's pixels packed row after row (the VNNI path; the others compute the grid as
    // wide as the input, Infer): blocks of 16 of the m x m outputs, each block's first output at
    // input index block_base (y n + x), its lanes' own offsets past it (the rows it crosses
    // skip the input's last n - m columns) by the pattern of its first column x (block_pattern:
    // at most m of them), per group of a plane: dense_lanes, patterns x per-plane groups x 64.
    // Empty when some lane would lie past a 64-byte load (very narrow outputs): the wide grid.
    std::vector<int> block_base, block_pattern;
    std::vector<std::uint8_t> dense_lanes;
    int side_out = 0;  // m
  };
  Conv c1, c2;
};

// The bytes past a group's offset its taps may lie at: a block's 16 pixels then read at most the
// 64 bytes of one load.
constexpr int kGroupSpan = 48;

bool CnnShape::valid() const {
  return side > 0 && channels >= 1 && channels <= 4 && kernel1 > 0 && maps1 > 0 && kernel2 > 0 &&
         maps2 > 0 && hidden > 0 &&
         classes > 1 && side <= 256 && conv1() > 0 && conv1() % 2 == 0 && conv2() > 0 &&
         conv2() % 2 == 0;
}

namespace {

// The activations of one image through the network.
struct Pass {
  std::vector<float> x;   // the standardised input, channels x side x side
  std::vector<float> a1;  // conv1 (before ReLU), maps1 x conv1 x conv1
  std::vector<float> p1;  // pooled after ReLU, maps1 x pool1 x pool1
  std::vector<int> i1;    // where each pooled value came from in a1
  std::vector<float> a2, p2;
  std::vector<int> i2;
  std::vector<float> c1, c2;  // the patches of each convolution's input (im2col)
  std::vector<int> at1, at2;  // where each tap's row starts in c1 and c2 (apply's offsets)
  std::vector<float> h;       // dense, after ReLU
  std::vector<float> z;       // probabilities
  explicit Pass(const CnnShape& s)
      : x(static_cast<std::size_t>(s.channels * s.side * s.side)),
        a1(static_cast<std::size_t>(s.maps1 * s.conv1() * s.conv1())),
        p1(static_cast<std::size_t>(s.maps1 * s.pool1() * s.pool1())),
        i1(p1.size()),
        a2(static_cast<std::size_t>(s.maps2 * s.conv2() * s.conv2())),
        p2(static_cast<std::size_t>(s.flat())),
        i2(p2.size()),
        c1(static_cast<std::size_t>(s.channels * s.kernel1 * s.kernel1 * s.conv1() * s.conv1())),
        c2(static_cast<std::size_t>(s.maps1 * s.kernel2 * s.kernel2 * s.conv2() * s.conv2())),
        at1(static_cast<std::size_t>(s.channels * s.kernel1 * s.kernel1)),
        at2(static_cast<std::size_t>(s.maps1 * s.kernel2 * s.kernel2)),
        h(static_cast<std::size_t>(s.hidden)),
        z(static_cast<std::size_t>(s.classes)) {
    for (std::size_t t = 0; t < at1.size(); ++t)
      at1[t] = static_cast<int>(t) * s.conv1() * s.conv1();
    for (std::size_t t = 0; t < at2.size(); ++t)
      at2[t] = static_cast<int>(t) * s.conv2() * s.conv2();
  }
};

// Each plane of the image: its pixels less their mean, over their spread (at least 4 levels of
// 255: a flat plane is not blown up into noise). The sums in `Sum`: integers for bytes (exact, as
// double sums of floats holding bytes are, without their chain of dependent additions), doubles
// for floats.
template <typename Sum, typename T>
__attribute__((always_inline)) inline void standardise_planes(const T* p, int planes, int size,
                                                              double floor, float* x) {
  for (int c = 0; c < planes; ++c) {
    const T* const from = p + static_cast<std::ptrdiff_t>(c) * size;
    Sum sum = 0, sq = 0;
    for (int i = 0; i < size; ++i) {
      const Sum v = from[i];
      sum += v, sq += v * v;
    }
    const double mean = static_cast<double>(sum) / size;
    const double spread = std::sqrt(std::max(0.0, static_cast<double>(sq) / size - mean * mean));
    const double scale = 1.0 / std::max(spread, floor);
    float* const to = x + static_cast<std::ptrdiff_t>(c) * size;
    for (int i = 0; i < size; ++i) to[i] = static_cast<float>((from[i] - mean) * scale);
  }
}

// The image is the row's n values; x holds at least n.
__attribute__((always_inline)) inline void standardise_body(const cv::Mat& images, int row,
                                                            int planes, int n, float* x) {
  if (images.depth() == CV_8U)
    standardise_planes<std::int64_t>(images.ptr<unsigned char>(row), planes, n / planes, 4.0, x);
  else
    standardise_planes<double>(images.ptr<float>(row), planes, n / planes, 4.0 / 255.0, x);
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same loops compiled for AVX-512 (the compiler's vectors: the integer sums exact, each
// pixel's double arithmetic the same, the sums of floats left in order): the same bytes.
__attribute__((target("avx512f"))) void standardise_avx512(const cv::Mat& images, int row,
                                                           int planes, int n, float* x) {
  standardise_body(images, row, planes, n, x);
}
#endif

void standardise(const cv::Mat& images, int row, int planes, int n, float* x);

// The patches of in (cin x n x n) under a k x k kernel, as rows: cols[(ci * k + ky) * k + kx]
// holds, for every output pixel, the input pixel under that tap (cin k k rows of m x m).
void im2col(const float* in, int cin, int n, int k, float* cols) {
  const int m = n - k + 1;
  for (int ci = 0; ci < cin; ++ci) {
    for (int ky = 0; ky < k; ++ky) {
      for (int kx = 0; kx < k; ++kx) {
        float* __restrict row = cols + static_cast<std::ptrdiff_t>((ci * k + ky) * k + kx) * m * m;
        for (int y = 0; y < m; ++y) {
          const float* src = in + (static_cast<std::ptrdiff_t>(ci) * n + y + ky) * n + kx;
          std::copy(src, src + m, row + y * m);
        }
      }
    }
  }
}

// out (cout x size) = bias + w (cout x taps) x the taps' inputs, where tap t of output pixel i
// is in[at[t] + i]: the rows of im2col's patches (at[t] = t x size), or, at inference, the input
// itself (`Infer` below). In blocks of 4 outputs x 16 pixels held in registers over all the
// taps (each input value loaded once for 4 outputs), each output summed from its bias through
// the taps in order. Written with the compiler's vector types, built twice (AVX2, and plain
// x86-64 where each 8-float vector is two SSE registers); the same operations in the same
// order, so the same results either way (ISO C++ does not fuse the multiply and the add).
using Floats8 = float __attribute__((vector_size(32)));
constexpr int kBlockPixels = 16;

// The outputs past the blocks (from `co` on, all pixels) and, for the outputs before it, the
// pixels past the last whole block (from `full` on), each summed from its bias through the taps in
// order, one product at a time.
__attribute__((always_inline)) inline void apply_rest(const float* w, const float* bias, int cout,
                                                      int taps, const float* in, const int* at,
                                                      int size, int co, int full, float* out) {
  for (int o = 0; o < cout; ++o) {
    const int from = o < co ? full : 0;
    float* __restrict dst = out + static_cast<std::ptrdiff_t>(o) * size;
    std::fill(dst + from, dst + size, bias[o]);
    for (int t = 0; t < taps; ++t) {
      const float a = w[static_cast<std::ptrdiff_t>(o) * taps + t];
      const float* __restrict c = in + at[t];
      for (int i = from; i < size; ++i) dst[i] += a * c[i];
    }
  }
}

__attribute__((always_inline)) inline void apply_body(const float* w, const float* bias, int cout,
                                                      int taps, const float* in, const int* at,
                                                      int size, float* out) {
  constexpr int kOut = 4, kPixels = kBlockPixels;
  const int full = size / kPixels * kPixels;
  int co = 0;
  for (; co + kOut <= cout; co += kOut) {
    for (int i0 = 0; i0 < full; i0 += kPixels) {
      Floats8 acc[kOut][2];
      for (int a = 0; a < kOut; ++a) acc[a][0] = acc[a][1] = Floats8{} + bias[co + a];
      for (int t = 0; t < taps; ++t) {
        Floats8 c0, c1;
        const float* c = in + at[t] + i0;
        std::memcpy(&c0, c, sizeof c0);
        std::memcpy(&c1, c + 8, sizeof c1);
        for (int a = 0; a < kOut; ++a) {
          const float wa = w[static_cast<std::ptrdiff_t>(co + a) * taps + t];
          acc[a][0] += wa * c0;
          acc[a][1] += wa * c1;
        }
      }
      for (int a = 0; a < kOut; ++a) {
        float* dst = out + static_cast<std::ptrdiff_t>(co + a) * size + i0;
        std::memcpy(dst, &acc[a][0], sizeof acc[a][0]);
        std::memcpy(dst + 8, &acc[a][1], sizeof acc[a][1]);
      }
    }
  }
  apply_rest(w, bias, cout, taps, in, at, size, co, full, out);
}

// With 16-float vectors (AVX-512): a block of 16 pixels is one register, and kOut outputs are
// summed side by side (8, then 4: enough running sums to keep the adders busy).
using Floats16 = float __attribute__((vector_size(64)));

template <int kOut>
__attribute__((always_inline)) inline void apply_outputs16(const float* w, const float* bias,
                                                           int co, int taps, const float* in,
                                                           const int* at, int size, int full,
                                                           float* out) {
  for (int i0 = 0; i0 < full; i0 += kBlockPixels) {
    Floats16 acc[kOut];
    for (int a = 0; a < kOut; ++a) acc[a] = Floats16{} + bias[co + a];
    for (int t = 0; t < taps; ++t) {
      Floats16 c;
      std::memcpy(&c, in + at[t] + i0, sizeof c);
      for (int a = 0; a < kOut; ++a)
        acc[a] += w[static_cast<std::ptrdiff_t>(co + a) * taps + t] * c;
    }
    for (int a = 0; a < kOut; ++a)
      std::memcpy(out + static_cast<std::ptrdiff_t>(co + a) * size + i0, &acc[a], sizeof acc[a]);
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) void apply_avx2(const float* w, const float* bias, int cout,
                                                int taps, const float* in, const int* at, int size,
                                                float* out) {
  apply_body(w, bias, cout, taps, in, at, size, out);
}

static_assert(kBlockPixels == 16, "apply_avx512 takes a block as one 16-float vector");
__attribute__((target("avx512f"))) void apply_avx512(const float* w, const float* bias, int cout,
                                                     int taps, const float* in, const int* at,
                                                     int size, float* out) {
  const int full = size / kBlockPixels * kBlockPixels;
  int co = 0;
  for (; co + 8 <= cout; co += 8) apply_outputs16<8>(w, bias, co, taps, in, at, size, full, out);
  for (; co + 4 <= cout; co += 4) apply_outputs16<4>(w, bias, co, taps, in, at, size, full, out);
  apply_rest(w, bias, cout, taps, in, at, size, co, full, out);
}

// The widest vectors this processor has, or those set_cnn_vector_level allows (tests).
const int kLevelHere = __builtin_cpu_supports("avx512f") ? 2
                       : __builtin_cpu_supports("avx2")  ? 1
                                                         : 0;
#else
const int kLevelHere = 0;
#endif
int vector_level = kLevelHere;

void standardise(const cv::Mat& images, int row, int planes, int n, float* x) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (vector_level >= 2) return standardise_avx512(images, row, planes, n, x);
#endif
  standardise_body(images, row, planes, n, x);
}

void apply(const float* w, const float* bias, int cout, int taps, const float* in, const int* at,
           int size, float* out) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (vector_level >= 2) return apply_avx512(w, bias, cout, taps, in, at, size, out);
  if (vector_level >= 1) return apply_avx2(w, bias, cout, taps, in, at, size, out);
#endif
  apply_body(w, bias, cout, taps, in, at, size, out);
}

// The gradients of apply: dw += dout x cols', db += dout's sums, and (when dcols is not null)
// dcols = w' x dout. The dot products in eight running sums (vector lanes), then added up.
__attribute__((always_inline)) inline float dot(const float* a, const float* b, int n) {
  Floats8 sum{};
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    Floats8 x, y;
    std::memcpy(&x, a + i, sizeof x);
    std::memcpy(&y, b + i, sizeof y);
    sum += x * y;
  }
  float total = 0;
  for (int k = 0; k < 8; ++k) total += sum[k];
  for (; i < n; ++i) total += a[i] * b[i];
  return total;
}

__attribute__((always_inline)) inline void apply_back_body(const float* w, int cout, int taps,
                                                           const float* cols, int size,
                                                           const float* dout, float* dw, float* db,
                                                           float* dcols) {
  if (dcols) std::fill(dcols, dcols + static_cast<std::ptrdiff_t>(taps) * size, 0.0f);
  for (int co = 0; co < cout; ++co) {
    const float* __restrict g = dout + static_cast<std::ptrdiff_t>(co) * size;
    float bsum = 0;
    for (int i = 0; i < size; ++i) bsum += g[i];
    db[co] += bsum;
    for (int t = 0; t < taps; ++t) {
      const float* __restrict c = cols + static_cast<std::ptrdiff_t>(t) * size;
      dw[static_cast<std::ptrdiff_t>(co) * taps + t] += dot(g, c, size);
      if (dcols) {
        const float a = w[static_cast<std::ptrdiff_t>(co) * taps + t];
        float* __restrict d = dcols + static_cast<std::ptrdiff_t>(t) * size;
        for (int i = 0; i < size; ++i) d[i] += a * g[i];
      }
    }
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) void apply_back_avx2(const float* w, int cout, int taps,
                                                     const float* cols, int size, const float* dout,
                                                     float* dw, float* db, float* dcols) {
  apply_back_body(w, cout, taps, cols, size, dout, dw, db, dcols);
}
#endif

void apply_back(const float* w, int cout, int taps, const float* cols, int size, const float* dout,
                float* dw, float* db, float* dcols) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (vector_level >= 1) return apply_back_avx2(w, cout, taps, cols, size, dout, dw, db, dcols);
#endif
  apply_back_body(w, cout, taps, cols, size, dout, dw, db, dcols);
}

// The inverse of im2col for gradients: every patch row's values added back to its pixels.
void col2im(const float* cols, int cin, int n, int k, float* din) {
  const int m = n - k + 1;
  std::fill(din, din + static_cast<std::ptrdiff_t>(cin) * n * n, 0.0f);
  for (int ci = 0; ci < cin; ++ci) {
    for (int ky = 0; ky < k; ++ky) {
      for (int kx = 0; kx < k; ++kx) {
        const float* row = cols + static_cast<std::ptrdiff_t>((ci * k + ky) * k + kx) * m * m;
        for (int y = 0; y < m; ++y) {
          float* __restrict dst = din + (static_cast<std::ptrdiff_t>(ci) * n + y + ky) * n + kx;
          const float* __restrict src = row + y * m;
          for (int x = 0; x < m; ++x) dst[x] += src[x];
        }
      }
    }
  }
}

// ReLU then 2x2 max-pooling of maps x m x m into maps x m/2 x m/2, with where each came from.
void relu_pool(const float* a, int maps, int m, float* p, int* from) {
  const int q = m / 2;
  for (int c = 0; c < maps; ++c) {
    const float* src = a + static_cast<std::ptrdiff_t>(c) * m * m;
    for (int y = 0; y < q; ++y) {
      for (int x = 0; x < q; ++x) {
        int best = (2 * y) * m + 2 * x;
        for (int at : {best + 1, best + m, best + m + 1}) {
          if (src[at] > src[best]) best = at;
        }
        const int out = (c * q + y) * q + x;
        p[out] = std::max(0.0f, src[best]);
        from[out] = c * m * m + best;
      }
    }
  }
}

// The gradient through relu_pool: da (zeroed here) gets dp where the pooled value was positive.
void relu_pool_back(const float* p, const int* from, const float* dp, int pooled, float* da,
                    int size) {
  std::fill(da, da + size, 0.0f);
  for (int i = 0; i < pooled; ++i) {
    if (p[i] > 0) da[from[i]] += dp[i];
  }
}

// The dense layer: h (hidden values, holding the biases) += w3' x p2, input by input (each
// scales a row of weights; the ReLU's zeros cost nothing), every h[j] summed in input order. The
// hidden values in chunks of four vectors held in registers through all the inputs, then single
// vectors, then one by one: the same sums in the same order whatever the width.
template <typename V>
__attribute__((always_inline)) inline void dense_body(const float* w3, const float* p2, int flat,
                                                      int hidden, float* h) {
  constexpr int kLanes = static_cast<int>(sizeof(V) / sizeof(float));
  // The inputs that are not 0 (ReLU leaves about half of them 0), a chunk at a time, found
  // without a branch: the products in the same order as testing each input, without a
  // mispredicted branch for each.
  constexpr int kChunk = 256;
  int at[kChunk];
  for (int i0 = 0; i0 < flat; i0 += kChunk) {
    const int end = std::min(flat, i0 + kChunk);
    int count = 0;
    for (int i = i0; i < end; ++i) {
      at[count] = i;
      count += p2[i] != 0 ? 1 : 0;
    }
    int j0 = 0;
    const auto chunk = [&](auto vectors) {
      constexpr int kVectors = decltype(vectors)::value;
      for (; j0 + kVectors * kLanes <= hidden; j0 += kVectors * kLanes) {
        V acc[kVectors];
        std::memcpy(acc, h + j0, sizeof acc);
        for (int k = 0; k < count; ++k) {
          const int i = at[k];
          const float a = p2[i];
          const float* w = w3 + static_cast<std::ptrdiff_t>(i) * hidden + j0;
          for (int v = 0; v < kVectors; ++v) {
            V x;
            std::memcpy(&x, w + v * kLanes, sizeof x);
            acc[v] += a * x;
          }
        }
        std::memcpy(h + j0, acc, sizeof acc);
      }
    };
    chunk(std::integral_constant<int, 4>{});
    chunk(std::integral_constant<int, 1>{});
    for (int k = 0; k < count; ++k) {
      const int i = at[k];
      const float a = p2[i];
      const float* w = w3 + static_cast<std::ptrdiff_t>(i) * hidden;
      for (int j = j0; j < hidden; ++j) h[j] += a * w[j];
    }
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) void dense_avx2(const float* w3, const float* p2, int flat,
                                                int hidden, float* h) {
  dense_body<Floats8>(w3, p2, flat, hidden, h);
}
__attribute__((target("avx512f"))) void dense_avx512(const float* w3, const float* p2, int flat,
                                                     int hidden, float* h) {
  dense_body<Floats16>(w3, p2, flat, hidden, h);
}
#endif

void dense(const float* w3, const float* p2, int flat, int hidden, float* h) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (vector_level >= 2) return dense_avx512(w3, p2, flat, hidden, h);
  if (vector_level >= 1) return dense_avx2(w3, p2, flat, hidden, h);
#endif
  dense_body<Floats8>(w3, p2, flat, hidden, h);
}

// The dense layers and the softmax, from the pooled maps p2 (flat values) to the
// probabilities z; h holds the hidden layer after ReLU.
void dense_softmax(const Cnn& net, const float* p2, std::vector<float>& hidden,
                   std::vector<float>& z) {
  const CnnShape& sh = net.shape;
  float* h = hidden.data();
  std::copy(net.b3.begin(), net.b3.end(), h);
  dense(net.w3.data(), p2, sh.flat(), sh.hidden, h);
  for (int j = 0; j < sh.hidden; ++j) h[j] = std::max(0.0f, h[j]);
  // The output layer: each class summed from its bias through the hidden values in order, the
  // classes side by side (each class's sum is a chain of dependent additions: one after another
  // they waited on each other).
  float* out = z.data();
  std::copy(net.b4.begin(), net.b4.end(), out);
  for (int j = 0; j < sh.hidden; ++j) {
    const float hj = h[j];
    const float* w = net.w4.data() + j;
    for (int c = 0; c < sh.classes; ++c)
      out[c] += w[static_cast<std::ptrdiff_t>(c) * sh.hidden] * hj;
  }
  float top = -1e30f;
  for (int c = 0; c < sh.classes; ++c) top = std::max(top, out[c]);
  double sum = 0;
  for (float& v : z) sum += (v = std::exp(v - top));
  for (float& v : z) v = static_cast<float>(v / sum);
}

// Training's forward pass: every stage kept for the backward pass.
void forward(const Cnn& net, const cv::Mat& images, int row, Pass& s) {
  const CnnShape& sh = net.shape;
  standardise(images, row, sh.channels, net.inputs(), s.x.data());
  const int size1 = sh.conv1() * sh.conv1(), size2 = sh.conv2() * sh.conv2();
  im2col(s.x.data(), sh.channels, sh.side, sh.kernel1, s.c1.data());
  apply(net.w1.data(), net.b1.data(), sh.maps1, sh.channels * sh.kernel1 * sh.kernel1, s.c1.data(),
        s.at1.data(), size1, s.a1.data());
  relu_pool(s.a1.data(), sh.maps1, sh.conv1(), s.p1.data(), s.i1.data());
  im2col(s.p1.data(), sh.maps1, sh.pool1(), sh.kernel2, s.c2.data());
  apply(net.w2.data(), net.b2.data(), sh.maps2, sh.maps1 * sh.kernel2 * sh.kernel2, s.c2.data(),
        s.at2.data(), size2, s.a2.data());
  relu_pool(s.a2.data(), sh.maps2, sh.conv2(), s.p2.data(), s.i2.data());
  dense_softmax(net, s.p2.data(), s.h, s.z);
}

// Inference alone (Cnn::probabilities): each convolution reads its input in place, without
// im2col's copies. Its outputs are computed on a grid as wide as its input: output pixel
// (y, x) at y x n + x for an input n pixels wide (the columns past the output's width are
// computed and not used), so that tap (c, ky, kx) of every output pixel i is the input at
// i + c n n + ky n + kx, a fixed offset. The grid is rounded up to whole blocks of apply and
// the input padded with zeros for the reads past its end. The same products summed in the same
// order as training's forward, so the same probabilities (test Cnn.InferenceIsTrainingsForward).
struct Infer {
  int wide1, wide2;           // positions computed per map: (m - 1) n + m, rounded up
  std::vector<int> at1, at2;  // each tap's offset in the input
  std::vector<float> x, a1, p1, a2, p2, h, z;

  static int wide(int n, int m) {
    return ((m - 1) * n + m + kBlockPixels - 1) / kBlockPixels * kBlockPixels;
  }
  static std::vector<int> taps(int planes, int n, int k) {
    std::vector<int> at;
    for (int c = 0; c < planes; ++c)
      for (int ky = 0; ky < k; ++ky)
        for (int kx = 0; kx < k; ++kx) at.push_back((c * n + ky) * n + kx);
    return at;
  }
  explicit Infer(const CnnShape& s)
      : wide1(wide(s.side, s.conv1())),
        wide2(wide(s.pool1(), s.conv2())),
        at1(taps(s.channels, s.side, s.kernel1)),
        at2(taps(s.maps1, s.pool1(), s.kernel2)),
        x(static_cast<std::size_t>(std::max(s.channels * s.side * s.side, at1.back() + wide1)),
          0.0f),
        a1(static_cast<std::size_t>(s.maps1 * wide1)),
        p1(static_cast<std::size_t>(std::max(s.maps1 * s.pool1() * s.pool1(), at2.back() + wide2)),
           0.0f),
        a2(static_cast<std::size_t>(s.maps2 * wide2)),
        p2(static_cast<std::size_t>(s.flat())),
        h(static_cast<std::size_t>(s.hidden)),
        z(static_cast<std::size_t>(s.classes)) {}
};

// ReLU then 2x2 max-pooling of maps of m x m pixels laid n wide, each map `stride` apart, into
// maps x m/2 x m/2: the largest of the four, as relu_pool. A largest is exact in any order, and a
// zero is +0 either way: the same bytes at every width.
__attribute__((always_inline)) inline void relu_pool_wide_body(const float* a, int maps, int m,
                                                               int n, int stride, float* p) {
  const int q = m / 2;
  for (int c = 0; c < maps; ++c) {
    const float* src = a + static_cast<std::ptrdiff_t>(c) * stride;
    for (int y = 0; y < q; ++y) {
      const float* top = src + 2 * y * n;
      const float* bottom = top + n;
      float* __restrict out = p + (c * q + y) * q;
      for (int x = 0; x < q; ++x) {
        const float v = std::max(std::max(top[2 * x], top[2 * x + 1]),
                                 std::max(bottom[2 * x], bottom[2 * x + 1]));
        out[x] = std::max(0.0f, v);
      }
    }
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC diagnostic push  // GCC 12's _mm512_undefined: see the 8-bit kernels below
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// AVX-512: 16 pooled values at a time, from 32 of each row (loads and stores masked to the row):
// the two rows' larger, then the even and odd columns' larger, then ReLU.
__attribute__((target("avx512f"))) void relu_pool_wide_avx512(const float* a, int maps, int m,
                                                              int n, int stride, float* p) {
  const int q = m / 2;
  alignas(64) std::int32_t even_at[16], odd_at[16];
  for (int i = 0; i < 16; ++i) even_at[i] = 2 * i, odd_at[i] = 2 * i + 1;
  const __m512i even = _mm512_load_si512(even_at), odd = _mm512_load_si512(odd_at);
  const __m512 zero = _mm512_setzero_ps();
  const float* const end = p + static_cast<std::ptrdiff_t>(maps) * q * q;
  for (int c = 0; c < maps; ++c) {
    const float* src = a + static_cast<std::ptrdiff_t>(c) * stride;
    for (int y = 0; y < q; ++y) {
      const float* top = src + 2 * y * n;
      const float* bottom = top + n;
      float* out = p + (c * q + y) * q;
      for (int x = 0; x < q; x += 16) {
        const int left = 2 * (q - x);  // inputs of the row from 2x on
        const auto mask = [&](int from) {
          const int k = std::clamp(left - from, 0, 16);
          return static_cast<__mmask16>((1u << k) - 1u);
        };
        const __mmask16 m0 = mask(0), m1 = mask(16);
        const __m512 v0 = _mm512_max_ps(_mm512_maskz_loadu_ps(m0, top + 2 * x),
                                        _mm512_maskz_loadu_ps(m0, bottom + 2 * x));
        const __m512 v1 = _mm512_max_ps(_mm512_maskz_loadu_ps(m1, top + 2 * x + 16),
                                        _mm512_maskz_loadu_ps(m1, bottom + 2 * x + 16));
        const __m512 v = _mm512_max_ps(_mm512_permutex2var_ps(v0, even, v1),
                                       _mm512_permutex2var_ps(v0, odd, v1));
        // Whole stores (a masked store is slow on some processors, Zen 4 among them): the
        // values past a row's end are written over by the next row's; the last row's are masked.
        if (out + x + 16 <= end)
          _mm512_storeu_ps(out + x, _mm512_max_ps(v, zero));
        else
          _mm512_mask_storeu_ps(out + x, static_cast<__mmask16>((1u << (end - out - x)) - 1u),
                                _mm512_max_ps(v, zero));
      }
    }
  }
}
#pragma GCC diagnostic pop
#endif

void relu_pool_wide(const float* a, int maps, int m, int n, int stride, float* p) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (vector_level >= 2) return relu_pool_wide_avx512(a, maps, m, n, stride, p);
#endif
  relu_pool_wide_body(a, maps, m, n, stride, p);
}

void infer(const Cnn& net, const cv::Mat& images, int row, Infer& s) {
  const CnnShape& sh = net.shape;
  standardise(images, row, sh.channels, net.inputs(), s.x.data());
  apply(net.w1.data(), net.b1.data(), sh.maps1, static_cast<int>(s.at1.size()), s.x.data(),
        s.at1.data(), s.wide1, s.a1.data());
  relu_pool_wide(s.a1.data(), sh.maps1, sh.conv1(), sh.side, s.wide1, s.p1.data());
  apply(net.w2.data(), net.b2.data(), sh.maps2, static_cast<int>(s.at2.size()), s.p1.data(),
        s.at2.data(), s.wide2, s.a2.data());
  relu_pool_wide(s.a2.data(), sh.maps2, sh.conv2(), sh.pool1(), s.wide2, s.p2.data());
  dense_softmax(net, s.p2.data(), s.h, s.z);
}

// The 8-bit convolutions (Cnn::quicken): weights packed per group, the input quantised per image.
CnnQuick::Conv quick_conv(const std::vector<float>& w, int cout, int planes, int k, int n) {
  CnnQuick::Conv q;
  const int area = k * k, taps = planes * area;
  q.cout = cout;
  q.planes = planes;
  // Each tap's weight in bytes (cout x taps), over the step of its map and plane.
  std::vector<int> bytes(static_cast<std::size_t>(cout * taps));
  for (int co = 0; co < cout; ++co) {
    const float* wc = w.data() + static_cast<std::ptrdiff_t>(co) * taps;
    for (int c = 0; c < planes; ++c) {
      float big = 0;
      for (int t = 0; t < area; ++t) big = std::max(big, std::abs(wc[c * area + t]));
      const float step = big > 0 ? big / 127.0f : 1.0f;
      q.step.push_back(step);
      std::int32_t sum = 0;
      for (int t = 0; t < area; ++t) {
        const float v = std::nearbyint(wc[c * area + t] / step);
        const int b = static_cast<int>(std::clamp(v, -127.0f, 127.0f));
        sum += b;
        bytes[static_cast<std::size_t>(co * taps + c * area + t)] = b;
      }
      q.sum.push_back(sum);
    }
  }
  const auto offset = [&](int c, int t) { return (c * n + t / k) * n + t % k; };
  // The groups: a plane's taps in kernel order, a new group when four are taken or the next lies
  // past kGroupSpan from the group's first (the same on every plane).
  std::vector<std::vector<int>> group_taps;  // the taps of each group, on plane 0
  for (int t = 0; t < area; ++t) {
    if (group_taps.empty() || group_taps.back().size() == 4 ||
        offset(0, t) - offset(0, group_taps.back().front()) > kGroupSpan)
      group_taps.emplace_back();
    group_taps.back().push_back(t);
  }
  const int per_plane = static_cast<int>(group_taps.size());
  q.groups = planes * per_plane;
  for (int c = 0; c < planes; ++c)
    for (const auto& g : group_taps) q.base.push_back(offset(c, g.front()));
  for (const auto& g : group_taps)
    for (int p = 0; p < 16; ++p)
      for (std::size_t j = 0; j < 4; ++j)
        q.lanes.push_back(static_cast<std::uint8_t>(
            p + (j < g.size() ? offset(0, g[j]) - offset(0, g.front()) : 0)));
  for (int co = 0; co < cout; ++co) {
    for (int c = 0; c < planes; ++c) {
      for (const auto& g : group_taps) {
        std::uint32_t packed = 0;
        for (std::size_t j = 0; j < g.size(); ++j)
          packed |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(
                        bytes[static_cast<std::size_t>(co * taps + c * area + g[j])]))
                    << (8 * j);
        q.w.push_back(static_cast<std::int32_t>(packed));
      }
    }
  }
  // The pairs: along each kernel row, taps (kx, kx + 1).
  const auto half = [&](int co, int c, int t, bool real) {
    const int b = real ? bytes[static_cast<std::size_t>(co * taps + c * area + t)] : 0;
    return static_cast<std::uint32_t>(static_cast<std::uint16_t>(static_cast<std::int16_t>(b)));
  };
  for (int c = 0; c < planes; ++c) {
    q.plane_pairs.push_back(static_cast<int>(q.pair_base.size()));
    for (int ky = 0; ky < k; ++ky)
      for (int kx = 0; kx < k; kx += 2) q.pair_base.push_back(offset(c, ky * k + kx));
  }
  q.plane_pairs.push_back(static_cast<int>(q.pair_base.size()));
  for (int co = 0; co < cout; ++co)
    for (int c = 0; c < planes; ++c)
      for (int ky = 0; ky < k; ++ky)
        for (int kx = 0; kx < k; kx += 2)
          q.pair_w.push_back(static_cast<std::int32_t>(
              half(co, c, ky * k + kx, true) | half(co, c, ky * k + kx + 1, kx + 1 < k) << 16));
  q.reach = q.pair_base.back() + 4;
  // The packed output (see Conv): each distinct first column's lanes.
  const int m = n - k + 1, blocks = (m * m + 15) / 16;
  q.side_out = m;
  std::vector<int> pattern_of_column(static_cast<std::size_t>(m), -1);
  bool fits = true;
  for (int b = 0; b < blocks && fits; ++b) {
    const int y0 = 16 * b / m, x0 = 16 * b % m;
    q.block_base.push_back(y0 * n + x0);
    int& pattern = pattern_of_column[static_cast<std::size_t>(x0)];
    if (pattern < 0) {
      pattern = static_cast<int>(q.dense_lanes.size() / (64 * static_cast<std::size_t>(per_plane)));
      for (const auto& g : group_taps) {
        for (int p = 0; p < 16; ++p) {
          const int past = p + (x0 + p) / m * (n - m);  // the pixel's input index past the block's
          for (std::size_t j = 0; j < 4; ++j) {
            const int at = past + (j < g.size() ? offset(0, g[j]) - offset(0, g.front()) : 0);
            fits = fits && at < 64;
            q.dense_lanes.push_back(static_cast<std::uint8_t>(std::min(at, 63)));
          }
        }
      }
    }
    q.block_pattern.push_back(pattern);
  }
  if (!fits) q.block_base.clear(), q.block_pattern.clear(), q.dense_lanes.clear();
  return q;
}

// Work space of the plain and AVX2 paths, kept across a batch's images (grown once, not
// allocated per convolution).
struct QuickWork {
  std::vector<std::int32_t> sums;
  std::vector<std::uint16_t> wide_u;
};

// out (cout x wide) = add + the sum over the input's planes of each plane's integer sums (of its
// groups, or pairs) x mul (planes x cout: the plane's and the map's steps), each plane's term
// multiplied then added, plane after plane: the same floats at every width (no fused
// multiply-add: plain code without FMA would have to call std::fma for each, slowly).
__attribute__((always_inline)) inline void quick_apply_body(const CnnQuick::Conv& q,
                                                            const std::uint8_t* u, int wide,
                                                            const float* mul, const float* add,
                                                            float* out, QuickWork& work) {
  if (work.sums.size() < static_cast<std::size_t>(wide))
    work.sums.resize(static_cast<std::size_t>(wide));
  std::int32_t* __restrict acc = work.sums.data();
  const int per_plane = q.groups / q.planes;
  for (int co = 0; co < q.cout; ++co) {
    const std::int32_t* w = q.w.data() + static_cast<std::ptrdiff_t>(co) * q.groups;
    float* __restrict dst = out + static_cast<std::ptrdiff_t>(co) * wide;
    std::fill(dst, dst + wide, 0.0f);
    for (int c = 0; c < q.planes; ++c) {
      std::fill(acc, acc + wide, 0);
      for (int g = c * per_plane; g < (c + 1) * per_plane; ++g) {
        const auto packed = static_cast<std::uint32_t>(w[g]);
        for (int j = 0; j < 4; ++j) {
          const std::int32_t b =
              static_cast<std::int8_t>(static_cast<std::uint8_t>(packed >> (8 * j)));
          if (b == 0) continue;
          const std::uint8_t* __restrict x =
              u + q.base[static_cast<std::size_t>(g)] +
              q.lanes[static_cast<std::size_t>(64 * (g - c * per_plane) + j)];
          for (int i = 0; i < wide; ++i) acc[i] += static_cast<std::int32_t>(x[i]) * b;
        }
      }
      const float m = mul[static_cast<std::ptrdiff_t>(c) * q.cout + co];
      for (int i = 0; i < wide; ++i) dst[i] = dst[i] + static_cast<float>(acc[i]) * m;
    }
    for (int i = 0; i < wide; ++i) dst[i] = dst[i] + add[co];
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12's AVX-512 intrinsics start some results from _mm512_undefined and warn of it as
// uninitialised (fixed in GCC 13): not this code's values.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// AVX2, without VNNI: the input widened to 16 bits, and each pair of taps one multiply-add of
// 16-bit pairs (vpmaddwd) for 8 pixels. Loaded from a pixel's index, a 32-bit lane holds the
// pair's two inputs for every other pixel: the even pixels from the block's first, the odd ones
// from the next, interleaved again when stored. Integer sums: the body's, exactly.
template <int kOut>
__attribute__((target("avx2"), always_inline)) inline void quick_block_avx2(
    const CnnQuick::Conv& q, const std::uint16_t* u, int i0, int co, int wide, const float* mul,
    const float* add, float* out) {
  const int pairs = static_cast<int>(q.pair_base.size());
  __m256 fe[kOut], fo[kOut];
  for (int a = 0; a < kOut; ++a) fe[a] = fo[a] = _mm256_setzero_ps();
  const std::int32_t* w = q.pair_w.data() + static_cast<std::ptrdiff_t>(co) * pairs;
  for (int c = 0; c < q.planes; ++c) {
    __m256i even[kOut], odd[kOut];
    for (int a = 0; a < kOut; ++a) even[a] = odd[a] = _mm256_setzero_si256();
    const int p1 = q.plane_pairs[static_cast<std::size_t>(c) + 1];
    for (int p = q.plane_pairs[static_cast<std::size_t>(c)]; p < p1; ++p) {
      const std::uint16_t* x = u + q.pair_base[static_cast<std::size_t>(p)] + i0;
      const __m256i e = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x));
      const __m256i o = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + 1));
      for (int a = 0; a < kOut; ++a) {
        const __m256i wa = _mm256_set1_epi32(w[static_cast<std::ptrdiff_t>(a) * pairs + p]);
        even[a] = _mm256_add_epi32(even[a], _mm256_madd_epi16(e, wa));
        odd[a] = _mm256_add_epi32(odd[a], _mm256_madd_epi16(o, wa));
      }
    }
    for (int a = 0; a < kOut; ++a) {
      const __m256 m = _mm256_set1_ps(mul[static_cast<std::ptrdiff_t>(c) * q.cout + co + a]);
      fe[a] = _mm256_add_ps(fe[a], _mm256_mul_ps(_mm256_cvtepi32_ps(even[a]), m));
      fo[a] = _mm256_add_ps(fo[a], _mm256_mul_ps(_mm256_cvtepi32_ps(odd[a]), m));
    }
  }
  for (int a = 0; a < kOut; ++a) {
    const __m256 s = _mm256_set1_ps(add[co + a]);
    const __m256 lo = _mm256_unpacklo_ps(fe[a], fo[a]), hi = _mm256_unpackhi_ps(fe[a], fo[a]);
    float* dst = out + static_cast<std::ptrdiff_t>(co + a) * wide + i0;
    _mm256_storeu_ps(dst, _mm256_add_ps(_mm256_permute2f128_ps(lo, hi, 0x20), s));
    _mm256_storeu_ps(dst + 8, _mm256_add_ps(_mm256_permute2f128_ps(lo, hi, 0x31), s));
  }
}

__attribute__((target("avx2"))) void quick_apply_avx2(const CnnQuick::Conv& q,
                                                      const std::uint8_t* u, int wide,
                                                      const float* mul, const float* add,
                                                      float* out, QuickWork& work) {
  const int n = q.reach + wide + 1;
  if (work.wide_u.size() < static_cast<std::size_t>(n + 16))
    work.wide_u.resize(static_cast<std::size_t>(n + 16));
  std::uint16_t* wide_u = work.wide_u.data();
  int i = 0;
  for (; i + 16 <= n; i += 16)
    _mm256_storeu_si256(
        reinterpret_cast<__m256i*>(wide_u + i),
        _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(u + i))));
  for (; i < n; ++i) wide_u[i] = u[i];
  for (int i0 = 0; i0 < wide; i0 += kBlockPixels) {
    int co = 0;
    for (; co + 2 <= q.cout; co += 2) quick_block_avx2<2>(q, wide_u, i0, co, wide, mul, add, out);
    for (; co < q.cout; ++co) quick_block_avx2<1>(q, wide_u, i0, co, wide, mul, add, out);
  }
}

const bool kVnni = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                   __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512vbmi");

// AVX-512 VNNI: blocks of 16 output pixels x kOut maps; a group's 4 bytes of each pixel put side
// by side in a lane by one byte permutation of the 64 input bytes from the group's offset, then
// one multiply-add of four byte products per map (vpdpbusd). Integer sums: the body's, exactly.
// `u` is the input from the block's first output pixel's index, `lanes` the plane's groups'
// permutations (64 bytes each), `i0` the block's first output in `out`'s maps (`wide` apart).
template <int kOut>
__attribute__((target("avx512f,avx512bw,avx512vnni,avx512vbmi"), always_inline)) inline void
quick_block(const CnnQuick::Conv& q, const std::uint8_t* u, const std::uint8_t* lanes, int i0,
            int co, int wide, const float* mul, const float* add, float* out) {
  __m512 total[kOut];
  for (int a = 0; a < kOut; ++a) total[a] = _mm512_setzero_ps();
  const std::int32_t* w = q.w.data() + static_cast<std::ptrdiff_t>(co) * q.groups;
  const int per_plane = q.groups / q.planes;
  for (int c = 0; c < q.planes; ++c) {
    __m512i acc[kOut];
    for (int a = 0; a < kOut; ++a) acc[a] = _mm512_setzero_si512();
    for (int g = c * per_plane; g < (c + 1) * per_plane; ++g) {
      const __m512i x = _mm512_permutexvar_epi8(
          _mm512_loadu_si512(lanes + static_cast<std::ptrdiff_t>(64) * (g - c * per_plane)),
          _mm512_loadu_si512(u + q.base[static_cast<std::size_t>(g)]));
      // (In assembly: GCC 12 copies each running sum to another register and back around the
      // intrinsic, which doubled the loop's instructions; the weight broadcast from memory.)
      for (int a = 0; a < kOut; ++a)
        asm("vpdpbusd %2%{1to16%}, %1, %0"
            : "+v"(acc[a])
            : "v"(x), "m"(w[static_cast<std::ptrdiff_t>(a) * q.groups + g]));
    }
    for (int a = 0; a < kOut; ++a)
      total[a] = _mm512_add_ps(
          total[a],
          _mm512_mul_ps(_mm512_cvtepi32_ps(acc[a]),
                        _mm512_set1_ps(mul[static_cast<std::ptrdiff_t>(c) * q.cout + co + a])));
  }
  for (int a = 0; a < kOut; ++a)
    _mm512_storeu_ps(out + static_cast<std::ptrdiff_t>(co + a) * wide + i0,
                     _mm512_add_ps(total[a], _mm512_set1_ps(add[co + a])));
}

// Every output map of one block of 16 output pixels.
__attribute__((target("avx512f,avx512bw,avx512vnni,avx512vbmi"), always_inline)) inline void
quick_maps(const CnnQuick::Conv& q, const std::uint8_t* u, const std::uint8_t* lanes, int i0,
           int wide, const float* mul, const float* add, float* out) {
  int co = 0;
  for (; co + 8 <= q.cout; co += 8) quick_block<8>(q, u, lanes, i0, co, wide, mul, add, out);
  for (; co + 4 <= q.cout; co += 4) quick_block<4>(q, u, lanes, i0, co, wide, mul, add, out);
  for (; co < q.cout; ++co) quick_block<1>(q, u, lanes, i0, co, wide, mul, add, out);
}

// Returns the output's row stride: m when packed (Conv::block_base), else the input's width n.
__attribute__((target("avx512f,avx512bw,avx512vnni,avx512vbmi"))) int quick_apply_vnni(
    const CnnQuick::Conv& q, const std::uint8_t* u, int wide, int n, const float* mul,
    const float* add, float* out) {
  if (q.block_base.empty()) {
    for (int i0 = 0; i0 < wide; i0 += kBlockPixels)
      quick_maps(q, u + i0, q.lanes.data(), i0, wide, mul, add, out);
    return n;
  }
  const std::ptrdiff_t pattern_bytes = static_cast<std::ptrdiff_t>(64) * (q.groups / q.planes);
  for (std::size_t b = 0; b < q.block_base.size(); ++b)
    quick_maps(q, u + q.block_base[b], q.dense_lanes.data() + pattern_bytes * q.block_pattern[b],
               static_cast<int>(16 * b), wide, mul, add, out);
  return q.side_out;
}
#pragma GCC diagnostic pop
#endif

// Returns the output's row stride (quick_apply_vnni's; the others' outputs are as wide as the
// input, n).
int quick_apply(const CnnQuick::Conv& q, const std::uint8_t* u, int wide, int n, const float* mul,
                const float* add, float* out, QuickWork& work) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (vector_level >= 2 && kVnni) return quick_apply_vnni(q, u, wide, n, mul, add, out);
  if (vector_level >= 1) {
    quick_apply_avx2(q, u, wide, mul, add, out, work);
    return n;
  }
#endif
  quick_apply_body(q, u, wide, mul, add, out, work);
  return n;
}

// The smallest and the largest of n values (at least one). A smallest and a largest are exact in
// any order: the same at every width. Written here, not by cv::minMaxIdx, whose call costs more
// than the search on a plane of 144 values (the second convolution's input: 12 planes an image;
// a fifth of the digit network's time went there).
__attribute__((always_inline)) inline std::pair<float, float> range_body(const float* v, int n) {
  float lo = v[0], hi = v[0];
  for (int i = 1; i < n; ++i) lo = std::min(lo, v[i]), hi = std::max(hi, v[i]);
  return {lo, hi};
}

#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC diagnostic push  // GCC 12's _mm512_undefined: see the 8-bit kernels below
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
__attribute__((target("avx512f"))) std::pair<float, float> range_avx512(const float* v, int n) {
  __m512 lo = _mm512_set1_ps(v[0]), hi = lo;
  int i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 x = _mm512_loadu_ps(v + i);
    lo = _mm512_min_ps(lo, x), hi = _mm512_max_ps(hi, x);
  }
  if (i < n) {  // the rest: the masked lanes keep v[0]
    const auto m = static_cast<__mmask16>((1u << (n - i)) - 1u);
    const __m512 x = _mm512_mask_loadu_ps(_mm512_set1_ps(v[0]), m, v + i);
    lo = _mm512_min_ps(lo, x), hi = _mm512_max_ps(hi, x);
  }
  return {_mm512_reduce_min_ps(lo), _mm512_reduce_max_ps(hi)};
}
#pragma GCC diagnostic pop
#endif

// Values to bytes: each (v - lo) x scale rounded half up, where lo is the smallest value (0 when
// `from_zero`: values of at least 0) and scale takes the largest to 255. Returns what a byte is
// worth (1 / scale) and lo. The bytes by a loop the compiler vectorises (the same float
// difference, product and sum truncated for each): the same bytes on every processor.
struct Quantised {
  float unit, lo;
};

__attribute__((always_inline)) inline void to_bytes(const float* v, int n, float lo, float scale,
                                                    std::uint8_t* u) {
  for (int i = 0; i < n; ++i)
    u[i] = static_cast<std::uint8_t>(static_cast<int>((v[i] - lo) * scale + 0.5f));
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx512f"))) void to_bytes_avx512(const float* v, int n, float lo,
                                                        float scale, std::uint8_t* u) {
  to_bytes(v, n, lo, scale, u);
}
#endif

Quantised quantise(const float* v, int n, bool from_zero, std::uint8_t* u) {
#if defined(__x86_64__) && defined(__GNUC__)
  const auto [low, high] = vector_level >= 2 ? range_avx512(v, n) : range_body(v, n);
#else
  const auto [low, high] = range_body(v, n);
#endif
  const float lo = from_zero ? 0.0f : low;
  const float hi = std::max(lo, high);
  const float scale = hi > lo ? 255.0f / (hi - lo) : 1.0f;
#if defined(__x86_64__) && defined(__GNUC__)
  if (vector_level >= 2)
    to_bytes_avx512(v, n, lo, scale, u);
  else
    to_bytes(v, n, lo, scale, u);
#else
  to_bytes(v, n, lo, scale, u);
#endif
  return {1.0f / scale, lo};
}

// The 8-bit input of a convolution (either: the larger's size) and its maps' factors.
struct QuickScratch {
  std::vector<std::uint8_t> u;
  std::vector<float> mul, add;  // per input plane and output map; per output map
  QuickWork work;
  explicit QuickScratch(const CnnShape& s, const Infer& f)
      : u(static_cast<std::size_t>(std::max(s.channels * s.side * s.side + f.wide1,
                                            s.maps1 * s.pool1() * s.pool1() + f.wide2) +
                                   64),
          0),
        mul(static_cast<std::size_t>(std::max(s.channels * s.maps1, s.maps1 * s.maps2))),
        add(static_cast<std::size_t>(std::max(s.maps1, s.maps2))) {}
};

// One 8-bit convolution of q.planes input planes of `area` values each (v), each plane quantised
// over its own range (a plane of marks standardised, or a map of the first convolution that
// answers them, has values far past the others'): its sums scaled back by its own step; the
// biases and every plane's lo added once.
int quick_convolve(const CnnQuick::Conv& q, const std::vector<float>& bias, const float* v, int n,
                   bool from_zero, int wide, QuickScratch& b, float* out) {
  const int area = n * n;
  for (int co = 0; co < q.cout; ++co)
    b.add[static_cast<std::size_t>(co)] = bias[static_cast<std::size_t>(co)];
  for (int c = 0; c < q.planes; ++c) {
    const Quantised in = quantise(v + static_cast<std::ptrdiff_t>(c) * area, area, from_zero,
                                  b.u.data() + static_cast<std::ptrdiff_t>(c) * area);
    for (int co = 0; co < q.cout; ++co) {
      const auto k = static_cast<std::size_t>(co * q.planes + c);
      b.mul[static_cast<std::size_t>(c * q.cout + co)] = q.step[k] * in.unit;
      if (!from_zero)
        b.add[static_cast<std::size_t>(co)] += in.lo * (q.step[k] * static_cast<float>(q.sum[k]));
    }
  }
  return quick_apply(q, b.u.data(), wide, n, b.mul.data(), b.add.data(), out, b.work);
}

void infer_quick(const Cnn& net, const cv::Mat& images, int row, Infer& s, QuickScratch& b) {
  const CnnShape& sh = net.shape;
  const CnnQuick& q = *net.quick;
  standardise(images, row, sh.channels, net.inputs(), s.x.data());
  const int n1 = quick_convolve(q.c1, net.b1, s.x.data(), sh.side, false, s.wide1, b, s.a1.data());
  relu_pool_wide(s.a1.data(), sh.maps1, sh.conv1(), n1, s.wide1, s.p1.data());
  const int n2 =
      quick_convolve(q.c2, net.b2, s.p1.data(), sh.pool1(), true, s.wide2, b, s.a2.data());
  relu_pool_wide(s.a2.data(), sh.maps2, sh.conv2(), n2, s.wide2, s.p2.data());
  dense_softmax(net, s.p2.data(), s.h, s.z);
}

// Scratch for one image's backward pass.
struct Back {
  std::vector<float> dz, dh, dp2, da2, dc2, dp1, da1;
  explicit Back(const CnnShape& s)
      : dz(static_cast<std::size_t>(s.classes)),
        dh(static_cast<std::size_t>(s.hidden)),
        dp2(static_cast<std::size_t>(s.flat())),
        da2(static_cast<std::size_t>(s.maps2 * s.conv2() * s.conv2())),
        dc2(static_cast<std::size_t>(s.maps1 * s.kernel2 * s.kernel2 * s.conv2() * s.conv2())),
        dp1(static_cast<std::size_t>(s.maps1 * s.pool1() * s.pool1())),
        da1(static_cast<std::size_t>(s.maps1 * s.conv1() * s.conv1())) {}
};

// Adds one image's gradient (after forward) into g; returns its loss (of the label alone). The
// target is the label's class, `smoothing` of it spread evenly over all the classes.
double backward(const Cnn& net, const Pass& s, int label, Back& b, Cnn& g, float smoothing) {
  const CnnShape& sh = net.shape;
  const int flat = sh.flat();
  const float spread = smoothing / static_cast<float>(sh.classes);
  for (int c = 0; c < sh.classes; ++c)
    b.dz[static_cast<std::size_t>(c)] =
        s.z[static_cast<std::size_t>(c)] - (c == label ? 1.0f - smoothing : 0.0f) - spread;
  std::fill(b.dh.begin(), b.dh.end(), 0.0f);
  for (int c = 0; c < sh.classes; ++c) {
    const float d = b.dz[static_cast<std::size_t>(c)];
    g.b4[static_cast<std::size_t>(c)] += d;
    float* gw = g.w4.data() + static_cast<std::ptrdiff_t>(c) * sh.hidden;
    const float* w = net.w4.data() + static_cast<std::ptrdiff_t>(c) * sh.hidden;
    for (int j = 0; j < sh.hidden; ++j) {
      gw[j] += d * s.h[static_cast<std::size_t>(j)];
      b.dh[static_cast<std::size_t>(j)] += d * w[j];
    }
  }
  for (int j = 0; j < sh.hidden; ++j) {
    if (s.h[static_cast<std::size_t>(j)] <= 0) b.dh[static_cast<std::size_t>(j)] = 0;
    g.b3[static_cast<std::size_t>(j)] += b.dh[static_cast<std::size_t>(j)];
  }
  const float* __restrict dh = b.dh.data();
  for (int i = 0; i < flat; ++i) {
    const float p = s.p2[static_cast<std::size_t>(i)];
    float* __restrict gw = g.w3.data() + static_cast<std::ptrdiff_t>(i) * sh.hidden;
    const float* __restrict w = net.w3.data() + static_cast<std::ptrdiff_t>(i) * sh.hidden;
    float dp = 0;
    for (int j = 0; j < sh.hidden; ++j) {
      gw[j] += p * dh[j];
      dp += w[j] * dh[j];
    }
    b.dp2[static_cast<std::size_t>(i)] = dp;
  }
  relu_pool_back(s.p2.data(), s.i2.data(), b.dp2.data(), flat, b.da2.data(),
                 static_cast<int>(b.da2.size()));
  const int size1 = sh.conv1() * sh.conv1(), size2 = sh.conv2() * sh.conv2();
  apply_back(net.w2.data(), sh.maps2, sh.maps1 * sh.kernel2 * sh.kernel2, s.c2.data(), size2,
             b.da2.data(), g.w2.data(), g.b2.data(), b.dc2.data());
  col2im(b.dc2.data(), sh.maps1, sh.pool1(), sh.kernel2, b.dp1.data());
  relu_pool_back(s.p1.data(), s.i1.data(), b.dp1.data(), static_cast<int>(b.dp1.size()),
                 b.da1.data(), static_cast<int>(b.da1.size()));
  apply_back(net.w1.data(), sh.maps1, sh.channels * sh.kernel1 * sh.kernel1, s.c1.data(), size1,
             b.da1.data(), g.w1.data(), g.b1.data(), nullptr);
  return -std::log(std::max(1e-12f, s.z[static_cast<std::size_t>(label)]));
}

// Every weight and bias vector of a network, in a fixed order (weights, then their biases),
// with their names in storage and their sizes for a shape.
template <typename Net>
auto parts(Net& n) {
  return std::array{&n.w1, &n.b1, &n.w2, &n.b2, &n.w3, &n.b3, &n.w4, &n.b4};
}
constexpr std::array<const char*, 8> kPartNames{"w1", "b1", "w2", "b2", "w3", "b3", "w4", "b4"};
std::array<long, 8> part_sizes(const CnnShape& s) {
  const long k1 = static_cast<long>(s.kernel1) * s.kernel1,
             k2 = static_cast<long>(s.kernel2) * s.kernel2;
  return {s.maps1 * s.channels * k1,
          s.maps1,
          static_cast<long>(s.maps2) * s.maps1 * k2,
          s.maps2,
          static_cast<long>(s.hidden) * s.flat(),
          s.hidden,
          static_cast<long>(s.classes) * s.hidden,
          s.classes};
}

Cnn zeros_like(const Cnn& net) {
  Cnn z;
  z.shape = net.shape;
  const auto from = parts(net);
  const auto to = parts(z);
  for (std::size_t k = 0; k < from.size(); ++k) to[k]->assign(from[k]->size(), 0.0f);
  return z;
}

// The gradient of images[rows[first .. last)] into g (zeroed first).
double gradient_of(const Cnn& net, const cv::Mat& images, const std::vector<int>& labels,
                   const int* rows, int count, Cnn& g, float smoothing = 0) {
  for (std::vector<float>* p : parts(g)) std::fill(p->begin(), p->end(), 0.0f);
  Pass s(net.shape);
  Back b(net.shape);
  double loss = 0;
  for (int i = 0; i < count; ++i) {
    forward(net, images, rows[i], s);
    loss += backward(net, s, labels[static_cast<std::size_t>(rows[i])], b, g, smoothing);
  }
  return loss;
}

}  // namespace

int set_cnn_vector_level(int level) {
  const int before = vector_level;
  vector_level = std::clamp(level, 0, kLevelHere);
  return before;
}

cv::Mat Cnn::probabilities(const cv::Mat& images) const {
  cv::Mat out(images.rows, classes(), CV_32F, cv::Scalar(0));
  if (empty() || images.empty()) return out;
  CV_Assert(images.cols == inputs() && (images.depth() == CV_32F || images.depth() == CV_8U) &&
            images.channels() == 1);
  Infer s(shape);
  if (quick) {
    QuickScratch b(shape, s);
    for (int r = 0; r < images.rows; ++r) {
      infer_quick(*this, images, r, s, b);
      std::copy(s.z.begin(), s.z.end(), out.ptr<float>(r));
    }
    return out;
  }
  for (int r = 0; r < images.rows; ++r) {
    infer(*this, images, r, s);
    std::copy(s.z.begin(), s.z.end(), out.ptr<float>(r));
  }
  return out;
}

void Cnn::quicken() {
  if (empty() || !shape.valid()) {
    quick.reset();
    return;
  }
  auto q = std::make_shared<CnnQuick>();
  q->c1 = quick_conv(w1, shape.maps1, shape.channels, shape.kernel1, shape.side);
  q->c2 = quick_conv(w2, shape.maps2, shape.maps1, shape.kernel2, shape.pool1());
  quick = std::move(q);
}

double cnn_gradient(const Cnn& cnn, const cv::Mat& images, const std::vector<int>& labels,
                    Cnn& gradient) {
  gradient = zeros_like(cnn);
  std::vector<int> rows(static_cast<std::size_t>(images.rows));
  std::iota(rows.begin(), rows.end(), 0);
  return gradient_of(cnn, images, labels, rows.data(), images.rows, gradient);
}

Cnn train_cnn(const cv::Mat& images, const std::vector<int>& labels, const CnnTraining& training,
              void (*log)(int epoch, double loss)) {
  Cnn net;
  net.shape = training.shape;
  CV_Assert(net.shape.valid() && images.cols == net.inputs() &&
            images.rows == static_cast<int>(labels.size()) && images.rows > 0);
  for (int l : labels) CV_Assert(l >= 0 && l < net.shape.classes);
  CV_Assert(training.smoothing >= 0 && training.smoothing < 1);
  const CnnShape& sh = net.shape;
  cv::RNG rng(training.seed);
  // He initialisation: a spread of sqrt(2 / fan-in); biases zero.
  const auto init = [&](std::vector<float>& w, std::vector<float>& b, int outputs, int fan_in) {
    w.resize(static_cast<std::size_t>(outputs) * fan_in);
    for (float& v : w) v = static_cast<float>(rng.gaussian(std::sqrt(2.0 / fan_in)));
    b.assign(static_cast<std::size_t>(outputs), 0.0f);
  };
  init(net.w1, net.b1, sh.maps1, sh.channels * sh.kernel1 * sh.kernel1);
  init(net.w2, net.b2, sh.maps2, sh.maps1 * sh.kernel2 * sh.kernel2);
  init(net.w3, net.b3, sh.hidden, sh.flat());  // flat x hidden: fan-in flat either way
  init(net.w4, net.b4, sh.classes, sh.hidden);
  if (const Cnn* from = training.start) {
    CV_Assert(from->shape == sh);
    net.w1 = from->w1, net.b1 = from->b1, net.w2 = from->w2, net.b2 = from->b2;
    net.w3 = from->w3, net.b3 = from->b3, net.w4 = from->w4, net.b4 = from->b4;
  }

  // A batch is cut into a fixed number of slices, each's gradient computed apart (on as many
  // threads as there are) and summed in order: the same result on any number of threads.
  constexpr int kSlices = 4;
  std::vector<Cnn> slice_grad(kSlices, zeros_like(net));
  Cnn velocity = zeros_like(net);
  std::vector<int> order(static_cast<std::size_t>(images.rows));
  std::iota(order.begin(), order.end(), 0);
  const int batch = std::max(1, training.batch);
  const long steps_per_epoch = (images.rows + batch - 1) / batch;
  const long total = steps_per_epoch * std::max(1, training.epochs);
  long step = 0;
  for (int epoch = 0; epoch < training.epochs; ++epoch) {
    for (std::size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[static_cast<std::size_t>(rng.uniform(0, static_cast<int>(i)))]);
    double epoch_loss = 0;
    for (int start = 0; start < images.rows; start += batch, ++step) {
      const int count = std::min(batch, images.rows - start);
      std::array<double, kSlices> losses{};
      cv::parallel_for_(cv::Range(0, kSlices), [&](const cv::Range& range) {
        for (int k = range.start; k < range.end; ++k) {
          const int a = count * k / kSlices, e = count * (k + 1) / kSlices;
          losses[static_cast<std::size_t>(k)] = gradient_of(
              net, images, labels, order.data() + start + a, e - a,
              slice_grad[static_cast<std::size_t>(k)], static_cast<float>(training.smoothing));
        }
      });
      for (double l : losses) epoch_loss += l;
      const double rate =
          training.rate * 0.5 * (1 + std::cos(M_PI * static_cast<double>(step) / total));
      const auto w = parts(net);
      const auto v = parts(velocity);
      std::vector<std::array<std::vector<float>*, 8>> gs;
      for (Cnn& g : slice_grad) gs.push_back(parts(g));
      for (std::size_t p = 0; p < w.size(); ++p) {
        const bool bias = p % 2 == 1;
        std::vector<float>& wp = *w[p];
        std::vector<float>& vp = *v[p];
        for (std::size_t i = 0; i < wp.size(); ++i) {
          double g = 0;
          for (const auto& slice : gs) g += (*slice[p])[i];
          g /= count;
          if (!bias) g += training.decay * wp[i];
          vp[i] = static_cast<float>(training.momentum * vp[i] - rate * g);
          wp[i] += vp[i];
        }
      }
    }
    if (log) log(epoch + 1, epoch_loss / images.rows);
  }
  return net;
}

void write_cnn(cv::FileStorage& storage, const std::string& name, const Cnn& cnn) {
  const CnnShape& s = cnn.shape;
  storage << name << "{";
  storage << "side" << s.side << "kernel1" << s.kernel1 << "maps1" << s.maps1 << "kernel2"
          << s.kernel2 << "maps2" << s.maps2 << "hidden" << s.hidden << "classes" << s.classes;
  if (s.channels != 1) storage << "channels" << s.channels;  // (grey networks as before)
  const auto vectors = parts(cnn);
  for (std::size_t k = 0; k < vectors.size(); ++k) {
    const std::vector<float>& v = *vectors[k];
    storage << kPartNames[k]
            << cv::Mat(1, static_cast<int>(v.size()), CV_32F, const_cast<float*>(v.data()));
  }
  storage << "}";
}

Cnn read_cnn(const cv::FileNode& node) {
  if (node.empty() || !node.isMap()) return {};
  Cnn cnn;
  CnnShape& s = cnn.shape;
  const auto number = [&](const char* key, int& out) {
    const cv::FileNode n = node[key];
    if (n.empty() || !n.isInt()) return false;
    out = static_cast<int>(n);
    return true;
  };
  if (!number("side", s.side) || !number("kernel1", s.kernel1) || !number("maps1", s.maps1) ||
      !number("kernel2", s.kernel2) || !number("maps2", s.maps2) || !number("hidden", s.hidden) ||
      !number("classes", s.classes))
    return {};
  if (!node["channels"].empty() && !number("channels", s.channels)) return {};
  if (!s.valid()) return {};
  const auto get = [&](const char* key, std::vector<float>& out, long size) {
    cv::Mat m;
    try {
      node[key] >> m;
    } catch (const cv::Exception&) {
      return false;
    }
    if (m.empty() || m.type() != CV_32F || static_cast<long>(m.total()) != size) return false;
    out.assign(m.ptr<float>(), m.ptr<float>() + size);
    return std::all_of(out.begin(), out.end(), [](float v) { return std::isfinite(v); });
  };
  const auto vectors = parts(cnn);
  const std::array<long, 8> sizes = part_sizes(s);
  for (std::size_t k = 0; k < vectors.size(); ++k) {
    if (!get(kPartNames[k], *vectors[k], sizes[k])) return {};
  }
  return cnn;
}

}  // namespace arbitre::vision
