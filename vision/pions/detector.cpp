#include "vision/pions/detector.h"

#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <string>

#include "vision/common/forest.h"
#include "vision/common/warp.h"

namespace arbitre::vision::pions {
namespace {

namespace ri = referee::irma;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The upper median of `v` (of an even count, the higher of the middle two; 0 when empty). The
// colour rules use `middle` below, the mean of the middle two.
double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[k];
}

// normalise: the working image (BGR, scaled) and its Lab version (L 0..100, a and b about 0).
struct Working {
  cv::Mat bgr;
  cv::Mat lab;       // CV_32FC3
  cv::Mat gradient;  // CV_32F, gradient magnitude of L
  cv::Mat gx, gy;    // CV_32F, its components (Sobel)
  cv::Mat lab8;      // CV_8UC3, OpenCV's 8-bit Lab (for the patches)
  cv::Mat l8;        // CV_8U, its L (for the shape features)
  double scale = 1;
};

Working normalise(const cv::Mat& input, const Params& params) {
  Working w;
  w.scale = input.cols > params.working_width ? static_cast<double>(params.working_width) / input.cols : 1.0;
  if (w.scale < 1.0) {
    cv::resize(input, w.bgr, cv::Size(), w.scale, w.scale, cv::INTER_AREA);
  } else {
    w.bgr = input.clone();
  }
  flatten_light(w.bgr, params);
  // 8-bit Lab is a table lookup in OpenCV; rescale it to L 0..100 and a, b about 0.
  // (Scaling down by area already averages away the sensor noise: no further blur.)
  cv::cvtColor(w.bgr, w.lab8, cv::COLOR_BGR2Lab);
  cv::extractChannel(w.lab8, w.l8, 0);
  // One pass (a converted copy, then a product and a difference as matrix expressions, took three
  // times as long).
  w.lab.create(w.lab8.size(), CV_32FC3);
  for (int y = 0; y < w.lab8.rows; ++y) {
    const auto* in = w.lab8.ptr<cv::Vec3b>(y);
    auto* out = w.lab.ptr<cv::Vec3f>(y);
    for (int x = 0; x < w.lab8.cols; ++x) {
      out[x] =
          cv::Vec3f(static_cast<float>(in[x][0] * (100.0 / 255.0)),
                    static_cast<float>(in[x][1]) - 128.0f, static_cast<float>(in[x][2]) - 128.0f);
    }
  }
  cv::Mat l;
  cv::extractChannel(w.lab, l, 0);
  cv::Sobel(l, w.gx, CV_32F, 1, 0);
  cv::Sobel(l, w.gy, CV_32F, 0, 1);
  cv::magnitude(w.gx, w.gy, w.gradient);
  return w;
}

// table_model: the table's colours (k-means over the border band), its median colour, the
// illumination's white (the brightest pixels), and each pixel's distance from the table.
struct TableModel {
  std::vector<cv::Vec3f> colours;  // weighted Lab centres
  std::vector<double> shares;      // of the border band's samples, per colour
  std::vector<cv::Point2d> border;  // where the border band was sampled
  cv::Vec3f median{0, 0, 0};
  cv::Vec3f white{100, 0, 0};
  cv::Vec3f class_white{100, 0, 0};  // the white the candidates' colour classes are judged against
  // The brightest greyish pixels' colour (params.white_retry_chroma).
  cv::Vec3f grey_white{100, 0, 0};
  double threshold = 0;
  double candidate_threshold = 0;  // the candidates' foreground threshold when not `threshold`
  double gradient_median = 1;
  cv::Mat distance;  // CV_32F
};

// The mean colour of the brightest 2% of pixels, of those within `chroma` of grey (0: of all;
// all too when none is that grey).
cv::Vec3f brightest_white(const Working& w, double chroma) {
  bool any_chroma = chroma <= 0;
  const auto could_be_white = [&](const cv::Vec3f& lab) {
    return any_chroma || lab[1] * lab[1] + lab[2] * lab[2] <= chroma * chroma;
  };
  std::vector<double> lightness;
  for (int round = 0; round < 2 && lightness.empty(); ++round) {
    any_chroma = any_chroma || round == 1;
    for (int y = 0; y < w.lab.rows; y += 4) {
      const auto* row = w.lab.ptr<cv::Vec3f>(y);
      for (int x = 0; x < w.lab.cols; x += 4) {
        if (could_be_white(row[x])) lightness.push_back(row[x][0]);
      }
    }
  }
  if (lightness.empty()) return {100, 0, 0};
  const double bright = percentile(lightness, 0.98);
  cv::Vec3d sum(0, 0, 0);
  int n = 0;
  for (int y = 0; y < w.lab.rows; y += 2) {
    const auto* row = w.lab.ptr<cv::Vec3f>(y);
    for (int x = 0; x < w.lab.cols; x += 2) {
      if (row[x][0] >= bright && could_be_white(row[x])) {
        sum += cv::Vec3d(row[x][0], row[x][1], row[x][2]);
        ++n;
      }
    }
  }
  if (n == 0) return {100, 0, 0};
  return {static_cast<float>(sum[0] / n), static_cast<float>(sum[1] / n),
          static_cast<float>(sum[2] / n)};
}

// Every pixel's distance to the nearest of the table's colours (`t.distance`), and the
// foreground threshold from the border band's own distances.
void table_distances(const Working& w, const Params& params, TableModel& t) {
  const float weight = static_cast<float>(params.lightness_weight);
  t.distance.create(w.lab.size(), CV_32F);
  for (int y = 0; y < w.lab.rows; ++y) {
    const float* row = w.lab.ptr<float>(y);
    float* out = t.distance.ptr<float>(y);
    std::fill_n(out, w.lab.cols, 1e9f);
    // Colour by colour over the row, so that the compiler vectorises the pixels (the minimum
    // taken in the same order of colours: the same result).
    for (const auto& c : t.colours) {
      for (int x = 0; x < w.lab.cols; ++x) {
        const float dl = row[3 * x] * weight - c[0], da = row[3 * x + 1] - c[1],
                    db = row[3 * x + 2] - c[2];
        out[x] = std::min(out[x], dl * dl + da * da + db * db);
      }
    }
  }
  cv::sqrt(t.distance, t.distance);
  std::vector<double> border_distances;
  for (const cv::Point2d& at : t.border) {
    border_distances.push_back(
        t.distance.at<float>(static_cast<int>(at.y), static_cast<int>(at.x)));
  }
  t.threshold = std::max(params.min_distance, 1.5 * percentile(border_distances, 0.9));
}

// The table's own noise: the 90th percentile of the border band's distances from the table's
// colours, over the pixels off the edges of its pattern (gradient under 4 x the band's median),
// where anti-aliased seams between a checkered cloth's squares lie between its colours.
double table_noise(const Working& w, const TableModel& t) {
  std::vector<double> gradients;
  gradients.reserve(t.border.size());
  for (const cv::Point2d& at : t.border)
    gradients.push_back(w.gradient.at<float>(static_cast<int>(at.y), static_cast<int>(at.x)));
  const double calm = 4.0 * (median(gradients) + 1.0);
  std::vector<double> distances;
  for (std::size_t i = 0; i < t.border.size(); ++i) {
    if (gradients[i] >= calm) continue;
    const cv::Point2d& at = t.border[i];
    distances.push_back(t.distance.at<float>(static_cast<int>(at.y), static_cast<int>(at.x)));
  }
  return percentile(distances, 0.9);
}

TableModel table_model(const Working& w, const Params& params) {
  TableModel t;
  const int band_x = std::max(2, static_cast<int>(w.lab.cols * params.border_band));
  const int band_y = std::max(2, static_cast<int>(w.lab.rows * params.border_band));
  std::vector<float> sample_values;  // rows of (weighted L, a, b)
  std::vector<double> ls, as, bs;
  std::vector<cv::Point2d> positions;  // of each sample
  for (int y = 0; y < w.lab.rows; y += 3) {
    for (int x = 0; x < w.lab.cols; x += 3) {
      const bool border = x < band_x || x >= w.lab.cols - band_x || y < band_y || y >= w.lab.rows - band_y;
      if (!border) continue;
      positions.emplace_back(x, y);
      const cv::Vec3f p = w.lab.at<cv::Vec3f>(y, x);
      sample_values.insert(sample_values.end(),
                           {p[0] * static_cast<float>(params.lightness_weight), p[1], p[2]});
      ls.push_back(p[0]);
      as.push_back(p[1]);
      bs.push_back(p[2]);
    }
  }
  t.median = cv::Vec3f(static_cast<float>(median(ls)), static_cast<float>(median(as)), static_cast<float>(median(bs)));
  const cv::Mat samples(static_cast<int>(sample_values.size() / 3), 3, CV_32F,
                        sample_values.data());
  cv::Mat labels, centres;
  const int k = std::min(params.table_clusters, samples.rows);
  cv::theRNG().state = 0x1234567;  // reproducible k-means
  // Two attempts, the more compact kept: with one, 2 boards of seeds 26-27 went wrong.
  cv::kmeans(samples, k, labels, cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 10, 0.5), 2,
             cv::KMEANS_PP_CENTERS, centres);
  t.shares.assign(static_cast<std::size_t>(centres.rows), 0.0);
  for (int c = 0; c < centres.rows; ++c) {
    t.colours.emplace_back(centres.at<float>(c, 0), centres.at<float>(c, 1), centres.at<float>(c, 2));
  }
  for (int r = 0; r < labels.rows; ++r)
    t.shares[static_cast<std::size_t>(labels.at<int>(r))] += 1.0 / labels.rows;
  t.border = std::move(positions);
  table_distances(w, params, t);
  // The illumination's white: the mean colour of the brightest 2% of pixels.
  t.white = brightest_white(w, 0);
  if (params.white_max_a > 0) {
    // A light's colour lies near the blackbody locus, warm to cool along b: the brightest
    // pixels' green or magenta is the table's or the pions', not the light's.
    t.white[1] = std::clamp(t.white[1], static_cast<float>(-params.white_max_a),
                            static_cast<float>(params.white_max_a));
  }
  if (params.white_max_b > 0) {
    // Nor is a yellow beyond a warm lamp's: on a wood or salmon table lit by a hotspot, the
    // brightest pixels are the table's, and the pions' true white lies far below them in b.
    t.white[2] = std::min(t.white[2], static_cast<float>(params.white_max_b));
  }
  if (params.white_max_blue > 0) {
    // Nor a blue beyond a cool sky's: on blue felt the brightest pixels are the felt's.
    t.white[2] = std::max(t.white[2], static_cast<float>(-params.white_max_blue));
  }
  t.class_white = t.white;
  t.grey_white = params.white_retry > 0 ? brightest_white(w, params.white_retry_chroma) : t.white;
  std::vector<double> gradients;
  for (int y = 0; y < w.gradient.rows; y += 3) {
    for (int x = 0; x < w.gradient.cols; x += 3) gradients.push_back(w.gradient.at<float>(y, x));
  }
  t.gradient_median = median(gradients) + 1.0;
  return t;
}

// The colour class of a foreground pixel, judged against the illumination's white: 0 red,
// 1 orange, 2 green, 3 white, 4 anything else.
int pixel_class(const cv::Vec3f& lab, const TableModel& t) {
  const double da = lab[1] - t.class_white[1], db = lab[2] - t.class_white[2];
  const bool grey = da * da + db * db < 16 * 16;
  if (grey && lab[0] > 0.55 * t.class_white[0]) return 3;
  if (grey) return 4;
  const double hue = std::atan2(db, da) * 180 / CV_PI;
  if (hue >= -30 && hue < 50) return 0;
  if (hue >= 50 && hue < 100) return 1;
  if (hue >= 100 || hue < -120) return 2;
  return 4;
}

// find_candidates: foreground pixels (far from the table's colours) split by colour class and
// cut along strong edges (the seams between touching tiles, the rims of discs); the cores of
// each class (the distance transform above part of a pion's radius) are the candidates,
// merged cores split into as many pions as their area holds.
std::vector<Candidate> find_candidates(const Working& w, const TableModel& t, const Params& params, cv::Mat& mask,
                                       double& pion_radius, std::vector<Rejected>& rejected) {
  mask = t.distance > (t.candidate_threshold > 0 ? t.candidate_threshold : t.threshold);
  const cv::Mat kernel = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(3, 3));
  cv::morphologyEx(mask, mask, cv::MORPH_OPEN, kernel);
  cv::morphologyEx(mask, mask, cv::MORPH_CLOSE, kernel);
  std::vector<Candidate> out;

  // Each foreground pixel's colour class (255: none, or on a seam); pixels touching another
  // class are dropped too, so that pions of different colours never share a region. One
  // distance transform then serves every class.
  cv::Mat classes(mask.size(), CV_8U, cv::Scalar(255));
  const float seam = static_cast<float>(params.seam_gradient * t.gradient_median);
  for (int y = 0; y < mask.rows; ++y) {
    const auto* m = mask.ptr<unsigned char>(y);
    const auto* lab = w.lab.ptr<cv::Vec3f>(y);
    const auto* g = w.gradient.ptr<float>(y);
    auto* out_row = classes.ptr<unsigned char>(y);
    for (int x = 0; x < mask.cols; ++x) {
      if (!m[x] || g[x] > seam) continue;
      const int c = pixel_class(lab[x], t);
      if (c < 4) out_row[x] = static_cast<unsigned char>(c);
    }
  }
  cv::Mat regions(mask.size(), CV_8U, cv::Scalar(0));
  for (int y = 1; y + 1 < classes.rows; ++y) {
    const auto* up = classes.ptr<unsigned char>(y - 1);
    const auto* row = classes.ptr<unsigned char>(y);
    const auto* down = classes.ptr<unsigned char>(y + 1);
    auto* r = regions.ptr<unsigned char>(y);
    for (int x = 1; x + 1 < classes.cols; ++x) {
      const unsigned char c = row[x];
      if (c == 255) continue;
      const auto differs = [c](unsigned char o) { return o != 255 && o != c; };
      if (differs(up[x]) || differs(down[x]) || differs(row[x - 1]) || differs(row[x + 1])) continue;
      r[x] = 255;
    }
  }
  cv::morphologyEx(regions, regions, cv::MORPH_OPEN, kernel);
  // A pion's radius: the typical height of the distance transform's ridges.
  cv::Mat distance;
  cv::distanceTransform(regions, distance, cv::DIST_L2, 3);
  std::vector<double> peaks;
  if (params.region_radius) {
    // One value per region: its deepest point. A large object (a cup, a pencil) has long
    // ridges, each of whose points is a local maximum, and would outvote a few pions.
    cv::Mat region_labels;
    const int regions_n = cv::connectedComponents(regions, region_labels, 8, CV_32S);
    std::vector<float> deepest(static_cast<std::size_t>(regions_n), 0.0f);
    for (int y = 0; y < distance.rows; ++y) {
      const float* d = distance.ptr<float>(y);
      const int* l = region_labels.ptr<int>(y);
      for (int x = 0; x < distance.cols; ++x) {
        auto& m = deepest[static_cast<std::size_t>(l[x])];
        m = std::max(m, d[x]);
      }
    }
    for (int r = 1; r < regions_n; ++r) {
      if (deepest[static_cast<std::size_t>(r)] >= 3)
        peaks.push_back(deepest[static_cast<std::size_t>(r)]);
    }
  } else {
    // Every local maximum of the distance transform (a ridge point).
    cv::Mat dilated;
    cv::dilate(distance, dilated, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(5, 5)));
    for (int y = 0; y < distance.rows; ++y) {
      const float* d = distance.ptr<float>(y);
      const float* dm = dilated.ptr<float>(y);
      for (int x = 0; x < distance.cols; ++x) {
        if (d[x] >= 3 && d[x] >= dm[x]) peaks.push_back(d[x]);
      }
    }
  }
  if (peaks.empty()) return out;
  const double radius = percentile(peaks, params.radius_percentile);
  pion_radius = radius;

  struct Core {
    cv::Point2d centre;
    std::vector<cv::Point> pixels;
    // Its minimum-area rectangle (with at least 4 pixels): its length over its width, its width.
    bool measured = false;
    double aspect = 0, thin = 0;
  };
  std::vector<Core> cores;
  std::vector<double> single_areas;
  const cv::Mat core_mask = distance > params.core_share * radius;
  cv::Mat labels, stats, centroids;
  const int n = cv::connectedComponentsWithStats(core_mask, labels, stats, centroids, 8, CV_32S);
  std::vector<Core> found(static_cast<std::size_t>(n));
  for (int y = 0; y < labels.rows; ++y) {
    const int* row = labels.ptr<int>(y);
    for (int x = 0; x < labels.cols; ++x) {
      if (row[x] > 0) found[static_cast<std::size_t>(row[x])].pixels.emplace_back(x, y);
    }
  }
  for (int label = 1; label < n; ++label) {
    Core& core = found[static_cast<std::size_t>(label)];
    core.centre = {centroids.at<double>(label, 0), centroids.at<double>(label, 1)};
    if (core.pixels.size() >= 4) {
      const cv::RotatedRect rect = cv::minAreaRect(core.pixels);
      core.measured = true;
      const double fill =
          static_cast<double>(core.pixels.size()) / std::max(1.0f, rect.size.area());
      core.thin = std::min(rect.size.width, rect.size.height);
      core.aspect = std::max(rect.size.width, rect.size.height) / std::max(1.0, core.thin);
      if (fill > 0.6 && core.aspect < 1.5)
        single_areas.push_back(static_cast<double>(core.pixels.size()));
    }
    cores.push_back(std::move(core));
  }
  if (single_areas.empty() && params.any_single) {
    // No core looks like one pion (a lone tile cut by a highlight, a pion seen obliquely):
    // the cores not much longer than wide stand for one.
    for (const Core& core : cores) {
      if (core.measured && core.aspect < 2.5)
        single_areas.push_back(static_cast<double>(core.pixels.size()));
    }
  }
  if (single_areas.empty()) return out;
  const double m = median(single_areas);
  std::vector<double> typical;
  for (const double a : single_areas) {
    if (a > 0.5 * m && a < 1.8 * m) typical.push_back(a);
  }
  const double single_area = median(typical);
  for (const Core& core : cores) {
    const auto area = static_cast<double>(core.pixels.size());
    if (area < params.min_area_share * single_area) {
      if (area >= 4) rejected.push_back({core.centre.x, core.centre.y, "small"});
      continue;
    }
    const auto k = static_cast<int>(std::lround(area / single_area));
    if (k > params.max_split) {
      rejected.push_back({core.centre.x, core.centre.y, "large"});
      continue;
    }
    if (k <= 1) {
      // A core of one pion's area but much longer and thinner than one: a pencil, a cup's rim.
      if (params.max_core_aspect > 0 && core.measured && core.aspect > params.max_core_aspect &&
          core.thin < 0.5 * std::sqrt(single_area)) {
        rejected.push_back({core.centre.x, core.centre.y, "long"});
        continue;
      }
      out.push_back({core.centre, area, true});
      continue;
    }
    cv::Mat points(static_cast<int>(core.pixels.size()), 2, CV_32F);
    for (std::size_t p = 0; p < core.pixels.size(); ++p) {
      points.at<float>(static_cast<int>(p), 0) = static_cast<float>(core.pixels[p].x);
      points.at<float>(static_cast<int>(p), 1) = static_cast<float>(core.pixels[p].y);
    }
    cv::Mat labels_k, centres;
    cv::theRNG().state = 0x7654321;
    cv::kmeans(points, k, labels_k, cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 20, 0.2), 3,
               cv::KMEANS_PP_CENTERS, centres);
    const int split = static_cast<int>(&core - cores.data());
    for (int r = 0; r < centres.rows; ++r)
      out.push_back({{centres.at<float>(r, 0), centres.at<float>(r, 1)}, area / k, false, split});
  }
  return out;
}

// A pion's width, measured from the candidates: along 16 rays from each candidate's centre,
// the distance to the first strong edge of the Lab image (a pion's rim, a seam between two
// touching pions); the median over rays, then over candidates, twice. Returns 0 when too few
// rays find an edge.
double measure_pion_width(const Working& w, const TableModel& t,
                          const std::vector<Candidate>& candidates, double max_radius,
                          double colour_stop) {
  const float strong = static_cast<float>(3.0 * t.gradient_median);
  std::vector<double> radii;
  bool any_single = false;
  for (const Candidate& c : candidates) any_single |= c.single;
  for (const Candidate& c : candidates) {
    if (any_single && !c.single) continue;
    std::vector<double> rays;
    // The piece's own colour, at its centre: a ray also ends where the colour leaves it (a rim
    // too faint against a striped cloth's edges would let the ray run on to the stripes).
    const cv::Vec3f own =
        w.lab.at<cv::Vec3f>(std::clamp(static_cast<int>(c.centre.y), 0, w.lab.rows - 1),
                            std::clamp(static_cast<int>(c.centre.x), 0, w.lab.cols - 1));
    for (int k = 0; k < 16; ++k) {
      const double a = k * CV_PI / 8, dx = std::cos(a), dy = std::sin(a);
      for (double r = 2; r < max_radius; r += 0.5) {
        const int x = static_cast<int>(std::lround(c.centre.x + r * dx)), y = static_cast<int>(std::lround(c.centre.y + r * dy));
        if (x < 0 || y < 0 || x >= w.gradient.cols || y >= w.gradient.rows) break;
        const auto departs = [&] {
          if (colour_stop <= 0) return false;
          const cv::Vec3f& v = w.lab.at<cv::Vec3f>(y, x);
          const float dl = 0.5f * (v[0] - own[0]), da = v[1] - own[1], db = v[2] - own[2];
          return dl * dl + da * da + db * db > colour_stop * colour_stop;
        };
        if (w.gradient.at<float>(y, x) > strong || departs()) {
          rays.push_back(r);
          break;
        }
      }
    }
    if (rays.size() >= 8) radii.push_back(median(rays));
  }
  return radii.size() >= 1 ? 2.0 * median(radii) : 0.0;
}

// The features of the cell centred at `c` with local pitch `p`.
// A pixel is a long thin thing's (Params::thing_opening) when its chroma toward the thing's
// colour is at least kThingShare of the thing's and its chroma across that at most kThingAcross
// of that: of its hue, within about 17 degrees. A thing of less chroma than kThingMinChroma
// (a white pencil) is not told from a white pion so, and is not left out.
constexpr double kThingShare = 0.3;
constexpr double kThingAcross = 0.3;
constexpr double kThingMinChroma = 15;
CellFeatures cell_features(const Working& w, const TableModel& t, const cv::Mat& mask,
                           const std::vector<cv::Vec3f>& things, cv::Point2d c, double p,
                           double pion_lightness, double pion_chroma, cv::Vec2d pale) {
  const double r_inner = 0.22 * p;
  const double r_ring_in = 0.38 * p, r_ring_out = 0.52 * p;
  const int x0 = std::max(0, static_cast<int>(c.x - r_ring_out)), x1 = std::min(w.lab.cols - 1, static_cast<int>(c.x + r_ring_out));
  const int y0 = std::max(0, static_cast<int>(c.y - r_ring_out)), y1 = std::min(w.lab.rows - 1, static_cast<int>(c.y + r_ring_out));
  cv::Vec3d sum(0, 0, 0);
  double sum_l2 = 0, inner_grad = 0, ring_grad = 0, covered = 0, distance = 0;
  int inner = 0, ring = 0;
  // The centre's pixels of a long thin thing's colour (a pencil lying over the pion) apart: its
  // colour is the rest's when they are at least a third of the centre. Each thing's a, b from
  // the light's white and its chroma, once per cell (the pixel loop is the classify stage's).
  struct Hue {
    double a, b, chroma;
  };
  std::vector<Hue> hues;
  for (const cv::Vec3f& thing : things) {
    const double ta = thing[1] - t.white[1], tb = thing[2] - t.white[2];
    if (std::hypot(ta, tb) >= kThingMinChroma) hues.push_back({ta, tb, std::hypot(ta, tb)});
  }
  const auto of_a_thing = [&](const cv::Vec3f& lab) {
    // Of its hue (from the light's white) and at least part of its chroma: a pencil's shading
    // and its edges, mixed with the pion's colour, vary its chroma more than its hue.
    const double pa = lab[1] - t.white[1], pb = lab[2] - t.white[2];
    for (const Hue& h : hues) {
      const double along = (pa * h.a + pb * h.b) / h.chroma;  // the pixel's chroma toward it
      const double across = std::abs(pa * h.b - pb * h.a) / h.chroma;
      if (along >= kThingShare * h.chroma && across <= kThingAcross * along) return true;
    }
    return false;
  };
  cv::Vec3d clear_sum(0, 0, 0);
  int clear = 0;
  for (int y = y0; y <= y1; ++y) {
    const auto* lab = w.lab.ptr<cv::Vec3f>(y);
    const auto* grad = w.gradient.ptr<float>(y);
    const auto* m = mask.ptr<unsigned char>(y);
    const auto* d = t.distance.ptr<float>(y);
    for (int x = x0; x <= x1; ++x) {
      // Squared distances (std::hypot per pixel was a measurable share of the frame).
      const double r2 = (x - c.x) * (x - c.x) + (y - c.y) * (y - c.y);
      if (r2 <= r_inner * r_inner) {
        sum += cv::Vec3d(lab[x][0], lab[x][1], lab[x][2]);
        sum_l2 += static_cast<double>(lab[x][0]) * lab[x][0];
        inner_grad += grad[x];
        covered += m[x] ? 1 : 0;
        distance += d[x];
        ++inner;
        if (!hues.empty() && !of_a_thing(lab[x])) {
          clear_sum += cv::Vec3d(lab[x][0], lab[x][1], lab[x][2]);
          ++clear;
        }
      } else if (r2 >= r_ring_in * r_ring_in && r2 <= r_ring_out * r_ring_out) {
        ring_grad += grad[x];
        ++ring;
      }
    }
  }
  CellFeatures f{};
  if (inner == 0) return f;
  const bool beside_thing = !hues.empty() && clear < inner && 3 * clear >= inner;
  const cv::Vec3d colour = beside_thing ? clear_sum / clear : sum / inner;
  const double L = colour[0], a = colour[1], b = colour[2];
  const double da = a - t.white[1], db = b - t.white[2];
  const double chroma = std::hypot(da, db);
  const double hue = std::atan2(db, da);
  const double g = t.gradient_median;
  f = {static_cast<float>(L),
       static_cast<float>(a),
       static_cast<float>(b),
       static_cast<float>(std::sqrt(std::max(0.0, sum_l2 / inner - L * L))),
       static_cast<float>(covered / inner),
       static_cast<float>(ring > 0 ? ring_grad / ring / g : 0),
       static_cast<float>(inner_grad / inner / g),
       static_cast<float>(L - t.median[0]),
       static_cast<float>(a - t.median[1]),
       static_cast<float>(b - t.median[2]),
       static_cast<float>(da),
       static_cast<float>(db),
       static_cast<float>(L / std::max(1.0f, t.white[0])),
       static_cast<float>(chroma),
       static_cast<float>(std::sin(hue)),
       static_cast<float>(std::cos(hue)),
       static_cast<float>(distance / inner / std::max(1.0, t.threshold)),
       static_cast<float>(L - pion_lightness),
       static_cast<float>(chroma / std::max(4.0, pion_chroma)),
       static_cast<float>(chroma - pion_chroma),
       static_cast<float>(a - pale[0]),
       static_cast<float>(b - pale[1]),
       static_cast<float>(std::hypot(a - pale[0], b - pale[1]))};
  return f;
}

// The neighbourhood of cell (i, j), `cells` x `cells` lattice cells about it, rectified by the
// lattice's local affine map to a `pixels` square of `src`.
cv::Mat rectify(const cv::Mat& src, const LatticeFit& lattice, int i, int j, int pixels, double cells) {
  const double step = cells / pixels;
  const auto image_of = [&](double x, double y) {
    const cv::Point2d q = lattice.to_image(i - cells / 2 + (x + 0.5) * step, j - cells / 2 + (y + 0.5) * step);
    return cv::Point2f(static_cast<float>(q.x), static_cast<float>(q.y));
  };
  const auto last = static_cast<float>(pixels - 1);
  const cv::Point2f from[3] = {{0, 0}, {last, 0}, {0, last}};
  const cv::Point2f to[3] = {image_of(0, 0), image_of(last, 0), image_of(0, last)};
  cv::Mat patch;
  warp_linear(src, patch, cv::getAffineTransform(from, to), cv::Size(pixels, pixels), true);
  return patch;
}

// The shape features of cell (i, j): its neighbourhood rectified to a kPatchPixels square over
// kPatchCells cells, its histogram of oriented gradients (block-normalised, so independent of
// contrast), and the patch's mean gradient against the table's (the contrast the histogram
// leaves out).
void shape_features(const Working& w, const TableModel& t, const LatticeFit& lattice, int i, int j, float* out) {
  static const cv::HOGDescriptor hog(cv::Size(kPatchPixels, kPatchPixels), cv::Size(16, 16), cv::Size(8, 8),
                                     cv::Size(8, 8), 9);
  const cv::Mat patch = rectify(w.l8, lattice, i, j, kPatchPixels, kPatchCells);
  std::vector<float> descriptor;
  hog.compute(patch, descriptor);
  std::copy_n(descriptor.begin(), std::min<std::size_t>(descriptor.size(), kShapeFeatures), out);
  cv::Mat gx, gy, magnitude;
  cv::Sobel(patch, gx, CV_32F, 1, 0);
  cv::Sobel(patch, gy, CV_32F, 0, 1);
  cv::magnitude(gx, gy, magnitude);
  // The patch is 8-bit L (0..255) where the table's median gradient is in L 0..100 units.
  out[kShapeFeatures] = static_cast<float>(cv::mean(magnitude)[0] * (100.0 / 255.0) / t.gradient_median);
}

// The patch network's input for cell (i, j): its neighbourhood rectified to a kNetPatchPixels
// square over kNetPatchCells cells, in 8-bit Lab, plane by plane.
void network_patch(const Working& w, const LatticeFit& lattice, int i, int j, std::vector<unsigned char>& out) {
  const cv::Mat lab_patch = rectify(w.lab8, lattice, i, j, kNetPatchPixels, kNetPatchCells);
  out.resize(kNetPatchSize);
  std::array<cv::Mat, kPatchPlanes> planes;
  for (int c = 0; c < kPatchPlanes; ++c) {
    planes[static_cast<std::size_t>(c)] =
        cv::Mat(kNetPatchPixels, kNetPatchPixels, CV_8U, out.data() + c * kNetPatchPixels * kNetPatchPixels);
  }
  cv::split(lab_patch, planes.data());
}

// The orientation of the pieces' straight edges, modulo 90 degrees: around each candidate
// (within 0.7 of a pion's width), the gradients of L in "four times the angle" space, weighted
// by their squared magnitude — a square tile's four sides add up, a disc's rim cancels out.
// `strength` grows with the resultant's length over the total weight, from 0 (no straight
// edges) to 1 (square tiles).
void edge_orientation(const Working& w, const std::vector<Candidate>& candidates, const std::vector<bool>& crowded,
                      double width, double& angle, double& strength) {
  angle = 0;
  strength = 0;
  if (width <= 0) return;
  const int r = std::max(3, static_cast<int>(std::lround(0.7 * width)));
  double c4 = 0, s4 = 0, total = 0;
  int used = 0;
  for (std::size_t k = 0; k < candidates.size() && used < 24; ++k) {  // two dozen pieces say it well enough
    if (crowded[k]) continue;
    ++used;
    const cv::Point c(static_cast<int>(candidates[k].centre.x), static_cast<int>(candidates[k].centre.y));
    const cv::Rect box = cv::Rect(c.x - r - 1, c.y - r - 1, 2 * r + 3, 2 * r + 3) & cv::Rect(0, 0, w.gx.cols, w.gx.rows);
    if (box.width < 5 || box.height < 5) continue;
    for (int y = box.y + 1; y + 1 < box.y + box.height; ++y) {
      for (int x = box.x + 1; x + 1 < box.x + box.width; ++x) {
        if ((x - c.x) * (x - c.x) + (y - c.y) * (y - c.y) > r * r) continue;
        const double dx = w.gx.at<float>(y, x), dy = w.gy.at<float>(y, x);
        const double xx = dx * dx, yy = dy * dy, m2 = xx + yy;
        if (m2 <= 0) continue;
        // m2 (cos 4phi, sin 4phi) = (dx + i dy)^4 / m2, without trigonometry.
        c4 += (xx * xx - 6 * xx * yy + yy * yy) / m2;
        s4 += 4 * dx * dy * (xx - yy) / m2;
        total += m2;
      }
    }
  }
  if (total <= 0) return;
  // Discs measure 0.05-0.25 (a table's stripes, perspective), square tiles 0.5-0.95 on the
  // rendered sets: below 0.3 the pieces show no straight edges, above 0.7 plainly.
  strength = std::clamp((std::hypot(c4, s4) / total - 0.3) / 0.4, 0.0, 1.0);
  angle = std::atan2(s4, c4) / 4;
}

// Items 0..n-1 split into groups chained by `linked(a, b)` (a symmetric relation): `group` per
// item, numbered from 0 in the order of each group's first item; returns how many.
template <typename Linked>
int chained_groups(std::size_t n, const Linked& linked, std::vector<int>& group) {
  group.assign(n, -1);
  int groups = 0;
  for (std::size_t start = 0; start < n; ++start) {
    if (group[start] >= 0) continue;
    std::vector<std::size_t> todo{start};
    group[start] = groups;
    while (!todo.empty()) {
      const std::size_t from = todo.back();
      todo.pop_back();
      for (std::size_t other = 0; other < n; ++other) {
        if (group[other] < 0 && linked(from, other)) {
          group[other] = groups;
          todo.push_back(other);
        }
      }
    }
    ++groups;
  }
  return groups;
}

// The 8-connected groups of lattice points (one per item): `group` per item, numbered from 0 in
// the order of each group's first item; returns how many.
int point_groups(const std::vector<cv::Point>& at, std::vector<int>& group) {
  return chained_groups(
      at.size(),
      [&](std::size_t a, std::size_t b) {
        const cv::Point delta = at[b] - at[a];
        return std::abs(delta.x) <= 1 && std::abs(delta.y) <= 1;
      },
      group);
}

// The 8-connected groups of the cells `pions` (indices into `cells`): `group` per cell (-1
// for the others), numbered from 0.
int group_cells(const std::vector<Detection::Cell>& cells, const std::vector<int>& pions,
                std::vector<int>& group) {
  std::vector<cv::Point> at;
  for (const int k : pions) at.push_back(cells[static_cast<std::size_t>(k)].lattice);
  std::vector<int> of_pion;
  const int groups = point_groups(at, of_pion);
  group.assign(cells.size(), -1);
  for (std::size_t i = 0; i < pions.size(); ++i)
    group[static_cast<std::size_t>(pions[i])] = of_pion[i];
  return groups;
}

// The fixed rule used before a model is trained: foreground cells, coloured by hue.
int rule_label(const CellFeatures& f) {
  if (f[4] < 0.5) return 0;
  const double chroma = f[13];
  if (chroma < 14) return 1 + static_cast<int>(ri::Colour::White);
  const double hue = std::atan2(f[14], f[15]) * 180 / CV_PI;
  if (hue > 95 || hue < -60) return 1 + static_cast<int>(ri::Colour::Green);
  if (hue < 52) return 1 + static_cast<int>(ri::Colour::Red);
  return 1 + static_cast<int>(ri::Colour::Orange);
}

}  // namespace

// flatten_light: see detector.h.
void flatten_light(cv::Mat& bgr, const Params& params) {
  if (params.flatten_gain <= 0 || bgr.cols < 32 || bgr.rows < 32) return;
  const int band_x = std::max(2, static_cast<int>(bgr.cols * params.border_band));
  const int band_y = std::max(2, static_cast<int>(bgr.rows * params.border_band));
  struct Sample {
    std::array<double, 6> basis;
    cv::Vec3f log;
    bool border;
  };
  std::vector<Sample> samples;
  cv::Mat border_logs(0, 3, CV_32F);
  const double half_w = bgr.cols / 2.0, half_h = bgr.rows / 2.0;
  const auto basis_at = [&](double x, double y) {
    const double u = (x - half_w) / half_w, v = (y - half_h) / half_h;
    return std::array<double, 6>{1, u, v, u * u, u * v, v * v};
  };
  for (int y = 2; y < bgr.rows; y += 6) {
    const auto* row = bgr.ptr<cv::Vec3b>(y);
    for (int x = 2; x < bgr.cols; x += 6) {
      const cv::Vec3b p = row[x];
      if (p[0] < 12 || p[1] < 12 || p[2] < 12 || p[0] > 250 || p[1] > 250 || p[2] > 250) continue;
      const cv::Vec3f lg(std::log(static_cast<float>(p[0])), std::log(static_cast<float>(p[1])),
                         std::log(static_cast<float>(p[2])));
      const bool border = x < band_x || x >= bgr.cols - band_x || y < band_y || y >= bgr.rows - band_y;
      samples.push_back({basis_at(x, y), lg, border});
      if (border) border_logs.push_back(cv::Mat(1, 3, CV_32F, const_cast<float*>(&lg[0])).clone());
    }
  }
  if (border_logs.rows < 60 || samples.size() < 200) return;
  cv::Mat labels, centres;
  cv::theRNG().state = 0x2468ace;
  cv::kmeans(border_logs, std::min(params.table_clusters, border_logs.rows), labels,
             cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 10, 0.01), 1, cv::KMEANS_PP_CENTERS, centres);
  std::vector<cv::Vec3f> table;
  for (int c = 0; c < centres.rows; ++c) table.emplace_back(centres.at<float>(c, 0), centres.at<float>(c, 1), centres.at<float>(c, 2));
  const auto nearest = [&](const cv::Vec3f& lg, cv::Vec3f& centre) {
    double best = 1e18;
    for (const cv::Vec3f& c : table) {
      const cv::Vec3f e = lg - c;
      const double d = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
      if (d < best) best = d, centre = c;
    }
    return std::sqrt(best);
  };
  // How far the border's own pixels lie from their colours: the tolerance for "looks like table".
  std::vector<double> spread;
  for (int r = 0; r < border_logs.rows; ++r) {
    cv::Vec3f centre;
    spread.push_back(nearest(cv::Vec3f(border_logs.at<float>(r, 0), border_logs.at<float>(r, 1), border_logs.at<float>(r, 2)), centre));
  }
  const double tolerance = std::max(0.08, 1.5 * percentile(spread, 0.9));

  cv::Matx<double, 6, 3> coef =
      cv::Matx<double, 6, 3>::zeros();  // log gain = basis . coef, per channel
  const auto model_at = [&](const std::array<double, 6>& b, int ch) {
    double g = 0;
    for (int k = 0; k < 6; ++k) g += b[static_cast<std::size_t>(k)] * coef(k, ch);
    return g;
  };
  for (int round = 0; round < 3; ++round) {
    std::vector<const Sample*> used;
    std::vector<cv::Vec3f> targets;
    for (const Sample& s : samples) {
      const cv::Vec3f flat(static_cast<float>(s.log[0] - model_at(s.basis, 0)), static_cast<float>(s.log[1] - model_at(s.basis, 1)),
                           static_cast<float>(s.log[2] - model_at(s.basis, 2)));
      cv::Vec3f centre;
      // Widen the net in the first round: the hotspot's table is then still far from the border's.
      if (nearest(flat, centre) > (round == 0 ? 2.5 : 1.0) * tolerance) continue;
      used.push_back(&s);
      targets.push_back(s.log - centre);
    }
    if (used.size() < 100) return;
    // Least squares by the normal equations (6 unknowns per channel, the same matrix for all three).
    const auto solve = [&](const std::vector<bool>& keep) {
      // The sums in local arrays the compiler keeps in registers, and only the upper triangle
      // of the symmetric A'A (each element summed in the same order as before: the same bits).
      std::array<double, 21> upper{};
      std::array<double, 18> rhs{};
      int n = 0;
      for (std::size_t i = 0; i < used.size(); ++i) {
        if (!keep[i]) continue;
        const auto& b = used[i]->basis;
        const double t[3] = {targets[i][0], targets[i][1], targets[i][2]};
        std::size_t u = 0;
        for (std::size_t r = 0; r < 6; ++r) {
          for (std::size_t c = r; c < 6; ++c) upper[u++] += b[r] * b[c];
          for (std::size_t ch = 0; ch < 3; ++ch) rhs[r * 3 + ch] += b[r] * t[ch];
        }
        ++n;
      }
      if (n < 50) return false;
      cv::Matx<double, 6, 6> ata;
      cv::Matx<double, 6, 3> atb;
      std::size_t u = 0;
      for (int r = 0; r < 6; ++r) {
        for (int c = r; c < 6; ++c) ata(r, c) = ata(c, r) = upper[u++];
        for (int ch = 0; ch < 3; ++ch) atb(r, ch) = rhs[static_cast<std::size_t>(r * 3 + ch)];
      }
      cv::Mat solution;
      if (!cv::solve(cv::Mat(ata), cv::Mat(atb), solution, cv::DECOMP_CHOLESKY)) return false;
      coef = cv::Matx<double, 6, 3>(solution.ptr<double>());
      return true;
    };
    std::vector<bool> keep(used.size(), true);
    if (!solve(keep)) return;
    // Leave out the worst residuals (pions the table's colour, shadows) and solve again.
    std::vector<double> residuals(used.size());
    for (std::size_t i = 0; i < used.size(); ++i) {
      double r = 0;
      for (int ch = 0; ch < 3; ++ch) r += std::abs(targets[i][ch] - model_at(used[i]->basis, ch));
      residuals[i] = r;
    }
    const double cut = 2.5 * std::max(0.01, median(residuals));
    for (std::size_t i = 0; i < used.size(); ++i) keep[i] = residuals[i] <= cut;
    if (!solve(keep)) return;
  }
  // The field is 1 on average over the border band: the border's colours stay as they are.
  for (int ch = 0; ch < 3; ++ch) {
    double sum = 0;
    int n = 0;
    for (const Sample& s : samples) {
      if (s.border) sum += model_at(s.basis, ch), ++n;
    }
    if (n > 0) coef(0, ch) -= sum / n;
  }
  // The gain over a coarse grid: divide it out only when the light is uneven enough to matter.
  const int gw = 64, gh = std::max(2, static_cast<int>(std::lround(64.0 * bgr.rows / bgr.cols)));
  cv::Mat gain(gh, gw, CV_32FC3);
  double lo = 1e9, hi = -1e9;
  for (int gy = 0; gy < gh; ++gy) {
    for (int gx = 0; gx < gw; ++gx) {
      const auto b = basis_at((gx + 0.5) * bgr.cols / gw, (gy + 0.5) * bgr.rows / gh);
      cv::Vec3f g;
      for (int ch = 0; ch < 3; ++ch) {
        const double lg = model_at(b, ch);
        lo = std::min(lo, lg);
        hi = std::max(hi, lg);
        g[ch] = static_cast<float>(std::exp(-lg));
      }
      gain.at<cv::Vec3f>(gy, gx) = g;
    }
  }
  if (hi - lo < std::log1p(params.flatten_gain)) return;
  cv::resize(gain, gain, bgr.size(), 0, 0, cv::INTER_LINEAR);
  cv::Mat f;
  bgr.convertTo(f, CV_32FC3);
  f = f.mul(gain);
  f.convertTo(bgr, CV_8UC3);
}


// bridge_groups: see detector.h.
void bridge_groups(std::vector<Detection::Cell>& cells, const Params& params) {
  if (params.bridge_confidence <= 0 || params.bridge_confidence >= params.min_confidence) return;
  std::vector<int> pions, group;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    if (cells[k].label > 0) pions.push_back(static_cast<int>(k));
  }
  group_cells(cells, pions, group);
  std::vector<std::size_t> bridges;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    const Detection::Cell& cell = cells[k];
    if (cell.label > 0 || cell.likeliest == 0 || cell.presence < params.bridge_confidence) continue;
    int first = -1;
    bool joins_two = false;
    for (const int p : pions) {
      const cv::Point delta = cells[static_cast<std::size_t>(p)].lattice - cell.lattice;
      if (std::abs(delta.x) > 1 || std::abs(delta.y) > 1) continue;
      const int g = group[static_cast<std::size_t>(p)];
      if (first < 0) first = g;
      joins_two |= g != first;
    }
    if (joins_two) bridges.push_back(k);
  }
  for (const std::size_t k : bridges) {
    cells[k].label = cells[k].likeliest;
    cells[k].confidence = cells[k].presence;
  }
}

// fill_holes: see detector.h.
void fill_holes(std::vector<Detection::Cell>& cells, const Params& params) {
  if (params.hole_neighbours <= 0) return;
  std::vector<std::size_t> holes;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    const Detection::Cell& cell = cells[k];
    if (cell.label > 0 || cell.likeliest == 0 || cell.presence < params.hole_presence ||
        cell.features[16] < params.hole_contrast)
      continue;
    int beside = 0;
    for (const Detection::Cell& other : cells) {
      const cv::Point delta = other.lattice - cell.lattice;
      if (other.label > 0 && std::abs(delta.x) + std::abs(delta.y) == 1) ++beside;
    }
    if (beside >= params.hole_neighbours) holes.push_back(k);
  }
  for (const std::size_t k : holes) {
    cells[k].label = cells[k].likeliest;
    cells[k].confidence = cells[k].presence;
  }
}

namespace {

// The median of `v`: of an even count, the mean of the middle two.
double middle(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The median a, b of the cells read `colour`, leaving out cell `skip` (of an even count, the
// mean of the middle two); none when there are none.
std::optional<cv::Vec2d> colour_median(const std::vector<Detection::Cell>& cells, int colour,
                                       std::size_t skip) {
  std::vector<double> as, bs;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    if (k == skip || cells[k].label != colour) continue;
    as.push_back(cells[k].features[1]);
    bs.push_back(cells[k].features[2]);
  }
  if (as.empty()) return std::nullopt;
  return cv::Vec2d(middle(as), middle(bs));
}

}  // namespace

// drop_faint: see detector.h.
void drop_faint(std::vector<Detection::Cell>& cells, const Params& params) {
  if (params.faint_presence <= 0) return;
  constexpr int kWhite = 1 + static_cast<int>(ri::Colour::White);
  std::vector<std::size_t> dropped;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    const Detection::Cell& cell = cells[k];
    if (cell.label == 0 || cell.presence >= params.faint_presence) continue;
    bool faint = cell.features[16] < params.faint_contrast;
    if (!faint && cell.label == kWhite && params.faint_lighter > 0 &&
        cell.features[16] < params.faint_lighter_contrast) {
      // A white a little further from the table's colours, and lighter than the board's other
      // whites: the cloth's white seen between tiles, not a tile.
      std::vector<double> lightness;
      for (std::size_t o = 0; o < cells.size(); ++o) {
        if (o != k && cells[o].label == kWhite) lightness.push_back(cells[o].features[0]);
      }
      faint = !lightness.empty() && cell.features[0] - middle(lightness) > params.faint_lighter;
    }
    if (faint) dropped.push_back(k);
  }
  for (const std::size_t k : dropped) {
    cells[k].label = 0;
    cells[k].confidence = 1.0 - cells[k].presence;
  }
}

// recolour_twins: see detector.h.
void recolour_twins(std::vector<Detection::Cell>& cells, const Params& params) {
  if (params.twin_distance <= 0) return;
  std::vector<std::size_t> pions;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    if (cells[k].label > 0) pions.push_back(k);
  }
  const auto twins = [&](const Detection::Cell& a, const Detection::Cell& b) {
    return std::hypot(a.features[1] - b.features[1], a.features[2] - b.features[2]) <
               params.twin_distance &&
           std::abs(a.features[0] - b.features[0]) < params.twin_lightness;
  };
  std::vector<int> group;
  const int groups = chained_groups(
      pions.size(),
      [&](std::size_t a, std::size_t b) { return twins(cells[pions[a]], cells[pions[b]]); }, group);
  for (int g = 0; g < groups; ++g) {
    std::array<double, kCellClasses> shares{};
    std::vector<std::size_t> members;
    bool mixed = false;
    for (std::size_t k = 0; k < pions.size(); ++k) {
      if (group[k] != g) continue;
      const Detection::Cell& cell = cells[pions[k]];
      mixed = mixed || (!members.empty() && cell.label != cells[members.front()].label);
      members.push_back(pions[k]);
      for (int c = 1; c < kCellClasses; ++c)
        shares[static_cast<std::size_t>(c)] += cell.shares[static_cast<std::size_t>(c)];
    }
    if (!mixed) continue;
    const int best =
        static_cast<int>(std::max_element(shares.begin() + 1, shares.end()) - shares.begin());
    if (shares[static_cast<std::size_t>(best)] <= 0) continue;  // the fixed rule: no shares
    for (const std::size_t k : members) cells[k].label = best;
  }
}

// recolour_pale: see detector.h.
void recolour_pale(std::vector<Detection::Cell>& cells, const Params& params) {
  if (params.pale_distance <= 0) return;
  constexpr int kWhite = 1 + static_cast<int>(ri::Colour::White);
  std::vector<std::size_t> whites;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    if (cells[k].label == kWhite) whites.push_back(k);
  }
  if (whites.size() < 2) return;
  std::vector<std::pair<std::size_t, int>> recoloured;
  for (const std::size_t k : whites) {
    const Detection::Cell& cell = cells[k];
    const cv::Vec2d others = *colour_median(cells, kWhite, k);  // at least one other white
    const double distance = std::hypot(cell.features[1] - others[0], cell.features[2] - others[1]);
    if (distance < params.pale_distance) continue;
    int other = 1;
    for (int c = 2; c < kWhite; ++c) {
      if (cell.shares[static_cast<std::size_t>(c)] > cell.shares[static_cast<std::size_t>(other)]) other = c;
    }
    const double white = cell.shares[kWhite];
    // The farther from the whites, the less of the vote the other colour needs.
    const double needed = params.pale_share * (params.pale_distance / distance) * (params.pale_distance / distance);
    if (white > 0 && cell.shares[static_cast<std::size_t>(other)] >= needed * white) recoloured.emplace_back(k, other);
  }
  for (const auto& [k, colour] : recoloured) cells[k].label = colour;
}

// recolour_apart: see detector.h.
void recolour_apart(std::vector<Detection::Cell>& cells, const Params& params) {
  if (params.apart_distance <= 0) return;
  constexpr int kWhite = 1 + static_cast<int>(ri::Colour::White);
  std::vector<std::pair<std::size_t, int>> recoloured;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    const Detection::Cell& cell = cells[k];
    if (cell.label <= 0 || cell.label >= kWhite) continue;
    const cv::Vec2d ab(cell.features[1], cell.features[2]);
    const std::optional<cv::Vec2d> own = colour_median(cells, cell.label, k);
    if (!own) continue;
    const double own_distance = cv::norm(ab - *own);
    if (own_distance < params.apart_distance) continue;
    int nearest = 0;
    double nearest_distance = 0;
    for (int colour = 1; colour <= kWhite; ++colour) {
      if (colour == cell.label) continue;
      const std::optional<cv::Vec2d> other = colour_median(cells, colour, k);
      if (!other) continue;
      const double distance = cv::norm(ab - *other);
      if (nearest == 0 || distance < nearest_distance) {
        nearest = colour;
        nearest_distance = distance;
      }
    }
    if (nearest == 0 || nearest_distance > params.apart_ratio * own_distance) continue;
    if (cell.shares[static_cast<std::size_t>(nearest)] < params.apart_share * cell.shares[static_cast<std::size_t>(cell.label)]) continue;
    recoloured.emplace_back(k, nearest);
  }
  for (const auto& [k, colour] : recoloured) cells[k].label = colour;
}

namespace {

// A cell's hue from the light's white, in degrees (-180, 180].
double hue_of(const Detection::Cell& cell) {
  return std::atan2(cell.features[14], cell.features[15]) * 180 / CV_PI;
}

// The gap between two hues, in degrees [0, 180].
double hue_gap(double a, double b) {
  const double d = std::fmod(std::abs(a - b), 360.0);
  return d > 180 ? 360 - d : d;
}

// The median hue of the cells read `colour` of chroma at least `min_chroma`, leaving out cell
// `skip` (of an even count, the mean of the middle two); none when there are none. Red and orange
// hues lie far from the turn's seam at 180 degrees (that is green's side), so the median of the
// angles as numbers is their circular median.
std::optional<double> hue_median(const std::vector<Detection::Cell>& cells, int colour,
                                 std::size_t skip, double min_chroma) {
  std::vector<double> hues;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    if (k == skip || cells[k].label != colour || cells[k].features[13] < min_chroma) continue;
    hues.push_back(hue_of(cells[k]));
  }
  if (hues.empty()) return std::nullopt;
  return middle(std::move(hues));
}

}  // namespace

// recolour_hue: see detector.h.
void recolour_hue(std::vector<Detection::Cell>& cells, const Params& params) {
  if (params.hue_margin <= 0 && params.hue_alone <= 0) return;
  constexpr int kRed = 1 + static_cast<int>(ri::Colour::Red);
  constexpr int kOrange = 1 + static_cast<int>(ri::Colour::Orange);
  // One cell at a time, the one most out of place first, the medians taken again after each: a
  // misread cell must not become the reference that moves the right ones.
  for (std::size_t round = 0; round < cells.size(); ++round) {
    std::size_t worst = cells.size();
    double worst_by = 0;  // degrees beyond what recolouring asks
    for (std::size_t k = 0; k < cells.size(); ++k) {
      const Detection::Cell& cell = cells[k];
      const bool pale = cell.features[13] < params.hue_min_chroma;
      if ((cell.label != kRed && cell.label != kOrange) ||
          (pale && (params.hue_pale_margin <= 0 || cell.features[13] < params.hue_pale_chroma)))
        continue;
      const int other = cell.label == kRed ? kOrange : kRed;
      const std::optional<double> theirs = hue_median(cells, other, k, params.hue_min_chroma);
      if (!theirs) continue;
      const double hue = hue_of(cell);
      const double to_theirs = hue_gap(hue, *theirs);
      const std::optional<double> own = hue_median(cells, cell.label, k, params.hue_min_chroma);
      double by = 0;  // degrees beyond what recolouring asks
      if (own) {
        // (A pale cell's margin is on: checked above.)
        const double margin = pale ? params.hue_pale_margin : params.hue_margin;
        if (margin <= 0) continue;
        by = hue_gap(hue, *own) - to_theirs - margin;
      } else {
        // The lone rule: never for a pale cell.
        if (pale || params.hue_alone <= 0) continue;
        by = params.hue_alone - to_theirs;
      }
      if (by >= 0 && (worst == cells.size() || by > worst_by)) {
        worst = k;
        worst_by = by;
      }
    }
    if (worst == cells.size()) return;
    cells[worst].label = cells[worst].label == kRed ? kOrange : kRed;
  }
}

std::array<float, kContextFeatures> context_features(const std::vector<Detection::Cell>& cells,
                                                     std::size_t k) {
  std::array<float, kContextFeatures> x{};
  const CellFeatures& f = cells[k].features;
  std::size_t n = 0;
  for (const int i : {10, 11, 12, 13, 14, 15, 0}) x[n++] = f[static_cast<std::size_t>(i)];
  std::vector<float> as, bs;
  for (int colour = 1; colour <= 4; ++colour) {
    as.clear();
    bs.clear();
    double nearest = -1;
    float near_a = 0, near_b = 0, near_l = 0;
    for (std::size_t j = 0; j < cells.size(); ++j) {
      if (j == k || cells[j].label != colour) continue;
      const float da = cells[j].features[10] - f[10], db = cells[j].features[11] - f[11];
      const double d = std::hypot(da, db);
      if (nearest < 0 || d < nearest) {
        nearest = d;
        near_a = da;
        near_b = db;
        near_l = cells[j].features[12] - f[12];
      }
      as.push_back(da);
      bs.push_back(db);
    }
    x[n++] = static_cast<float>(std::min<std::size_t>(as.size(), 10));
    if (as.empty()) {
      for (int i = 0; i < 6; ++i) x[n++] = -999;
      continue;
    }
    // The upper median (of an even count, the higher of the middle two).
    std::nth_element(as.begin(), as.begin() + static_cast<std::ptrdiff_t>(as.size() / 2), as.end());
    std::nth_element(bs.begin(), bs.begin() + static_cast<std::ptrdiff_t>(bs.size() / 2), bs.end());
    for (const float v : {near_a, near_b, near_l, static_cast<float>(nearest), as[as.size() / 2],
                          bs[bs.size() / 2]})
      x[n++] = v;
  }
  return x;
}

void recolour_context(std::vector<Detection::Cell>& cells, const CellModel& model,
                      const Params& params) {
  if (params.context_share <= 0 || !model.context || !model.context->isTrained()) return;
  std::vector<std::size_t> pions;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    if (cells[k].label >= 1 && cells[k].label <= 4) pions.push_back(k);
  }
  if (pions.empty()) return;
  cv::Mat samples(static_cast<int>(pions.size()), kContextFeatures, CV_32F);
  for (std::size_t r = 0; r < pions.size(); ++r) {
    const auto x = context_features(cells, pions[r]);
    std::copy(x.begin(), x.end(), samples.ptr<float>(static_cast<int>(r)));
  }
  const cv::Mat votes = forest_votes(model.context, samples);  // labels 1-4, as the cells'
  for (std::size_t r = 0; r < pions.size(); ++r) {
    const int* row = votes.ptr<int>(static_cast<int>(r) + 1);
    int total = 0, best = -1;
    for (int c = 0; c < votes.cols; ++c) {
      total += row[c];
      if (best < 0 || row[c] > row[best]) best = c;
    }
    const int label = votes.at<int>(0, best);
    if (total > 0 && label >= 1 && label <= 4 && row[best] >= params.context_share * total)
      cells[pions[r]].label = label;
  }
}

std::optional<std::array<std::size_t, 4>> calibration_pions(
    const std::vector<Detection::Cell>& cells, double min_share, const Params& params) {
  std::vector<std::size_t> pions;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    if (cells[k].label > 0 && cells[k].confidence >= params.min_confidence) pions.push_back(k);
  }
  if (pions.size() != 4) return std::nullopt;
  std::array<std::size_t, 4> colour_of{0, 1, 2, 3};  // pion i takes colour colour_of[i]
  std::optional<std::array<std::size_t, 4>> best;
  double best_score = -1e18;
  do {
    double score = 0;
    bool likely = true;
    for (std::size_t i = 0; i < 4; ++i) {
      const float share = cells[pions[i]].shares[1 + colour_of[i]];
      likely &= share >= min_share;
      score += std::log(std::max(1e-6f, share));
    }
    if (likely && score > best_score) {
      best_score = score;
      best.emplace();
      for (std::size_t i = 0; i < 4; ++i) (*best)[colour_of[i]] = pions[i];
    }
  } while (std::next_permutation(colour_of.begin(), colour_of.end()));
  return best;
}

std::optional<ColourCalibration> calibration_of(const Detection& d, const Params& params) {
  const auto chosen = calibration_pions(d.cells, 0.1, params);
  if (!chosen) return std::nullopt;
  ColourCalibration calibration;
  for (std::size_t c = 0; c < 4; ++c)
    calibration.colour[c] = calibration_descriptor(d.cells[(*chosen)[c]].features);
  return calibration;
}

std::array<double, 3> calibration_descriptor(const CellFeatures& f) {
  return {100.0 * f[12], f[10], f[11]};
}

CellModel read_cell_model(const cv::FileStorage& storage) {
  CellModel m;
  if (!storage.isOpened()) return m;
  m.forest = read_forest(storage["opencv_ml_rtrees"].empty() ? storage.getFirstTopLevelNode()
                                                             : storage["opencv_ml_rtrees"]);
  if (!m.forest) return m;
  m.net = read_mlp(storage["cell_net"]);
  if (m.net.inputs() != kCellFeatures || m.net.classes() != kCellClasses) m.net = Mlp{};
  m.patch_net = read_cnn(storage["cell_patch_net"]);
  if (m.patch_net.shape.side != kNetPatchPixels || m.patch_net.shape.channels != kPatchPlanes ||
      m.patch_net.classes() != 2) {
    m.patch_net = Cnn{};
  }
  m.context = read_forest(storage["colour_context"]);
  if (m.context && m.context->getVarCount() != kContextFeatures) m.context = nullptr;
  return m;
}

CellModel load_cell_model(const std::string& path) {
  try {
    return read_cell_model(cv::FileStorage(path, cv::FileStorage::READ));
  } catch (const cv::Exception&) {
    return CellModel{};
  }
}

void save_cell_model(const std::string& path, const CellModel& model) {
  cv::FileStorage storage(path, cv::FileStorage::WRITE);
  if (model.forest) write_forest(storage, model.forest->getDefaultName(), *model.forest);
  if (!model.net.empty()) write_mlp(storage, "cell_net", model.net);
  if (!model.patch_net.empty()) write_cnn(storage, "cell_patch_net", model.patch_net);
  if (model.context && model.context->isTrained())
    write_forest(storage, "colour_context", *model.context);
}

void patch_view(const unsigned char* patch, int view, unsigned char* out) {
  constexpr int kPlane = kNetPatchPixels * kNetPatchPixels;
  for (int c = 0; c < kPatchPlanes; ++c) {
    const cv::Mat plane(kNetPatchPixels, kNetPatchPixels, CV_8U,
                        const_cast<unsigned char*>(patch) + c * kPlane);
    cv::Mat turned(kNetPatchPixels, kNetPatchPixels, CV_8U, out + c * kPlane);
    // Views 4-7 turn the mirror image: a new matrix (assigning plane.t() to `plane` would
    // transpose the patch's own bytes in place).
    const cv::Mat source = view >= 4 ? cv::Mat(plane.t()) : plane;
    // Turned 90 degrees clockwise, 180, 90 counter-clockwise.
    if (view % 4 == 0) {
      source.copyTo(turned);
    } else {
      cv::rotate(source, turned, view % 4 - 1);
    }
  }
}

double patch_presence(const Cnn& net, const std::vector<unsigned char>& patch, int views) {
  if (patch.size() != static_cast<std::size_t>(kNetPatchSize)) {
    throw std::invalid_argument("patch_presence: a patch of " + std::to_string(patch.size()) +
                                " bytes, not " + std::to_string(kNetPatchSize));
  }
  views = std::clamp(views, 1, 8);
  cv::Mat batch(views, kNetPatchSize, CV_8U);
  for (int view = 0; view < views; ++view)
    patch_view(patch.data(), view, batch.ptr<unsigned char>(view));
  const cv::Mat p = net.probabilities(batch);
  double sum = 0;
  for (int r = 0; r < p.rows; ++r) sum += p.at<float>(r, 1);
  return sum / p.rows;
}

cv::Mat cell_shares(const CellModel& model, const cv::Mat& samples, double net_weight) {
  cv::Mat forest(samples.rows, kCellClasses, CV_32F, cv::Scalar(0));
  const bool use_forest = model.trained() && (model.net.empty() || net_weight < 1);
  if (use_forest) {
    const cv::Mat votes = forest_votes(model.forest, samples);  // getVotes' counts, all rows
    for (int r = 0; r < samples.rows; ++r) {
      double total = 0;
      for (int k = 0; k < votes.cols; ++k) total += votes.at<int>(r + 1, k);
      for (int k = 0; k < votes.cols; ++k) {
        const int label = votes.at<int>(0, k);
        if (label >= 0 && label < kCellClasses && total > 0) {
          forest.at<float>(r, label) = static_cast<float>(votes.at<int>(r + 1, k) / total);
        }
      }
    }
  }
  if (model.net.empty()) return forest;
  const cv::Mat p = model.net.probabilities(samples);
  if (!use_forest) return p;
  return net_weight * p + (1 - net_weight) * forest;
}

namespace {

// The stages up to the candidates (normalise, table_model, find_candidates), which every
// lattice the board is read through shares.
struct Prepared {
  Working w;
  TableModel table;
  cv::Mat mask;
  // The Lab colours of long thin things (pencils), see thing_colours.
  std::vector<cv::Vec3f> things;
  std::vector<Rejected> rejected;
  Detection d;
};

// Candidates crowded together (closer than `min_spacing` of a pion's width), split from one blob
// and all within `merge_split` of a width of each other, are one pion cut in pieces: its blob was
// split when the pions' radius was measured short (regions cut by a patterned cloth's edges).
// They become one candidate at their centre (the lattice fit leaves crowded candidates out).
// Crowded candidates from different blobs stay apart. Returns whether any were merged.
bool merge_split(std::vector<Candidate>& candidates, double width, const Params& params) {
  const std::size_t n = candidates.size();
  std::vector<int> group;
  const int groups = chained_groups(
      n,
      [&](std::size_t a, std::size_t b) {
        return cv::norm(candidates[a].centre - candidates[b].centre) < params.min_spacing * width;
      },
      group);
  std::vector<Candidate> out;
  for (int g = 0; g < groups; ++g) {
    std::vector<std::size_t> members;
    for (std::size_t k = 0; k < n; ++k) {
      if (group[k] == g) members.push_back(k);
    }
    bool tight = members.size() > 1;
    for (const std::size_t k : members)
      tight = tight && candidates[k].core >= 0 &&
              candidates[k].core == candidates[members.front()].core;
    for (std::size_t a = 0; a < members.size() && tight; ++a) {
      for (std::size_t b = a + 1; b < members.size() && tight; ++b) {
        tight = cv::norm(candidates[members[a]].centre - candidates[members[b]].centre) <=
                params.merge_split * width;
      }
    }
    if (!tight) {
      for (const std::size_t k : members) out.push_back(candidates[k]);
      continue;
    }
    Candidate merged;
    for (const std::size_t k : members) {
      merged.centre += candidates[k].area * candidates[k].centre;
      merged.area += candidates[k].area;
    }
    merged.centre /= std::max(1e-9, merged.area);
    out.push_back(merged);
  }
  const bool any = out.size() < n;
  candidates = std::move(out);
  return any;
}

// The colours of long thin things on the table (a pencil): the foreground opened by a disc of
// `params.thing_opening` of a pion's width loses them but keeps the pions; of what it loses, a
// piece at least `params.thing_length` widths long and at most `params.thing_thickness` thick
// (its minimum-area rectangle), filling half of that rectangle, is one. Its colour is its
// pixels' median Lab. None when the width is unknown or thing_opening is 0.
std::vector<cv::Vec3f> thing_colours(const Working& w, const cv::Mat& mask, double width,
                                     const Params& params) {
  std::vector<cv::Vec3f> out;
  if (params.thing_opening <= 0 || width <= 0 || mask.empty()) return out;
  // At half the working size, a pixel there foreground when any of its four is (at full size the
  // opening and the pieces cost about 3 ms a frame).
  cv::Mat half;
  cv::resize(mask, half, {}, 0.5, 0.5, cv::INTER_AREA);
  half = half > 0;
  const double half_width = 0.5 * width;
  const int size =
      std::max(3, static_cast<int>(std::lround(params.thing_opening * half_width)) | 1);
  cv::Mat opened;
  cv::morphologyEx(half, opened, cv::MORPH_OPEN,
                   cv::getStructuringElement(cv::MORPH_ELLIPSE, {size, size}));
  const cv::Mat residue = half & ~opened;
  cv::Mat labels, stats, centroids;
  const int n = cv::connectedComponentsWithStats(residue, labels, stats, centroids, 8, CV_32S);
  for (int label = 1; label < n; ++label) {
    const int area = stats.at<int>(label, cv::CC_STAT_AREA);
    if (area < 0.1 * params.thing_length * half_width * half_width) continue;
    std::vector<cv::Point> pixels;
    const cv::Rect box(
        stats.at<int>(label, cv::CC_STAT_LEFT), stats.at<int>(label, cv::CC_STAT_TOP),
        stats.at<int>(label, cv::CC_STAT_WIDTH), stats.at<int>(label, cv::CC_STAT_HEIGHT));
    for (int y = box.y; y < box.y + box.height; ++y) {
      const int* row = labels.ptr<int>(y);
      for (int x = box.x; x < box.x + box.width; ++x) {
        if (row[x] == label) pixels.emplace_back(x, y);
      }
    }
    const cv::RotatedRect rect = cv::minAreaRect(pixels);
    const double longer = std::max(rect.size.width, rect.size.height);
    const double thinner = std::min(rect.size.width, rect.size.height);
    if (longer < params.thing_length * half_width || thinner > params.thing_thickness * half_width)
      continue;
    if (area < 0.5 * rect.size.area()) continue;
    std::vector<double> l, a, b;
    for (const cv::Point& at : pixels) {
      const cv::Vec3f& lab = w.lab.at<cv::Vec3f>(std::min(2 * at.y, w.lab.rows - 1),
                                                 std::min(2 * at.x, w.lab.cols - 1));
      l.push_back(lab[0]);
      a.push_back(lab[1]);
      b.push_back(lab[2]);
    }
    out.emplace_back(static_cast<float>(median(l)), static_cast<float>(median(a)),
                     static_cast<float>(median(b)));
  }
  return out;
}

// find_candidates and the pion's width, on a prepared image and table.
void add_candidates(Prepared& prepared, const Params& params) {
  Detection& d = prepared.d;
  const auto start = Clock::now();
  double pion_radius = 0;
  d.candidates = find_candidates(prepared.w, prepared.table, params, prepared.mask, pion_radius,
                                 prepared.rejected);
  d.pion_radius = pion_radius;
  d.pion_width = measure_pion_width(prepared.w, prepared.table, d.candidates,
                                    6.0 * std::max(4.0, pion_radius), params.width_colour_stop);
  prepared.things = thing_colours(prepared.w, prepared.mask, d.pion_width, params);
  d.timing.candidates_ms = ms_since(start);
}

Prepared prepare(const cv::Mat& bgr, const Params& params) {
  Prepared prepared;
  Detection& d = prepared.d;
  d.observation.width = bgr.cols;
  d.observation.height = bgr.rows;
  auto start = Clock::now();
  prepared.w = normalise(bgr, params);
  d.scale = prepared.w.scale;
  d.timing.normalise_ms = ms_since(start);

  start = Clock::now();
  prepared.table = table_model(prepared.w, params);
  d.timing.table_ms = ms_since(start);

  add_candidates(prepared, params);
  return prepared;
}

// Which lattice a second reading looks for (LatticeParams' fields of the same names): none
// near the first one's hypothesis, or the other mirror image of a knight's move.
struct LatticeChoice {
  double avoid_pitch = 0, avoid_angle = 0;
  int knight_mirror = 0;
  int alone = -1;  // the lattice fitted to this candidate alone (an index into the candidates)
  bool finer = false;  // the finer lattice kept, not the coarser one of the parity rule
};

// The stages from the lattice on (fit_lattice, classify_cells, constrain).
Detection finish(const Prepared& prepared, const Params& params, const CellModel& model,
                 const LatticeChoice& choice) {
  Detection d = prepared.d;
  std::vector<Rejected> rejected = prepared.rejected;
  const Working& w = prepared.w;
  const TableModel& table = prepared.table;
  const cv::Mat& mask = prepared.mask;
  const double pion_radius = d.pion_radius;
  auto start = Clock::now();
  // Pions cannot overlap: candidates closer to another than half a pion's width are clutter
  // (the rim of a cup, a patterned cloth) and stay out of the lattice fit.
  std::vector<cv::Point2d> centres;
  std::vector<bool> crowded(d.candidates.size(), false);
  if (d.pion_width > 0) {
    for (std::size_t a = 0; a < d.candidates.size(); ++a) {
      for (std::size_t b = a + 1; b < d.candidates.size(); ++b) {
        if (cv::norm(d.candidates[a].centre - d.candidates[b].centre) < params.min_spacing * d.pion_width) {
          crowded[a] = crowded[b] = true;
        }
      }
    }
  }
  std::vector<std::size_t> fitted;  // the candidates the lattice is fitted to
  for (std::size_t k = 0; k < d.candidates.size(); ++k) {
    // (A lone reading takes its candidate crowded or not: a lone pion split in two by a cloth's
    // edges is two crowded candidates and nothing else.)
    if (choice.alone >= 0
            ? k != static_cast<std::size_t>(choice.alone) || (crowded[k] && !params.lone_crowded)
            : crowded[k])
      continue;
    centres.push_back(d.candidates[k].centre);
    fitted.push_back(k);
  }
  // A pion's width bounds the pitch: pions touch (pitch = width) or leave a gap. The width
  // measured at the edges; when no edges were found, from the cores (which measure about 0.8 of
  // the width on the rendered sets).
  const double pitch_hint = d.pion_width > 0 ? d.pion_width : 2.0 * pion_radius / 0.8;
  LatticeParams lp;
  edge_orientation(w, d.candidates, crowded, pitch_hint, lp.edge_angle, lp.edge_strength);
  lp.edge_weight = params.edge_weight;
  lp.edge_knight = params.edge_knight;
  lp.parity_edges = params.parity_edges;
  lp.hint_range_low = params.pitch_range_low;
  // Many candidates say the pitch by their spacing: a width measured short (the highlights of
  // glossy discs cut their rims and regions) must not keep the pitch out of reach. A few
  // candidates are better held to the width (a pair would fit as diagonal neighbours too far
  // apart).
  lp.hint_range_high = centres.size() > kSparsePoints
                           ? std::max(params.pitch_range_high, params.pitch_range_many)
                           : params.pitch_range_high;
  lp.expected_pitch_share = params.expected_pitch_share;
  lp.parity_points = params.parity_points;
  lp.far_pairs = params.far_pairs;
  lp.hypothesis_steps = params.hypothesis_steps;
  lp.knight_mirror = choice.knight_mirror;
  if (choice.finer) lp.parity_points = 0;
  lp.avoid_pitch = choice.avoid_pitch;
  lp.avoid_angle = choice.avoid_angle;
  d.lattice = fit_lattice(centres, pitch_hint, lp);
  {
    // Back to one entry per candidate (crowded ones off the lattice).
    std::vector<cv::Point> cells(d.candidates.size(), cv::Point(INT_MIN, INT_MIN));
    std::vector<bool> inlier(d.candidates.size(), false);
    for (std::size_t f = 0; f < fitted.size(); ++f) {
      cells[fitted[f]] = d.lattice.cells[f];
      inlier[fitted[f]] = d.lattice.inlier[f];
    }
    d.lattice.cells = std::move(cells);
    d.lattice.inlier = std::move(inlier);
  }
  // Pions cannot sit closer than their own width: a finer lattice was fitted to noise.
  if (d.lattice.found && pitch_hint > 0 && d.lattice.pitch < params.min_pitch_share * pitch_hint) {
    d.lattice.found = false;
    d.lattice.inlier.assign(d.candidates.size(), false);
  }
  d.timing.lattice_ms = ms_since(start);

  start = Clock::now();
  if (d.lattice.found) {
    // The pions' typical lightness and chroma: a cell's colour is judged against the other
    // pieces in the image too (a set of pastel pions, a dim corner).
    std::vector<double> pion_lightness, pion_chroma;
    for (std::size_t k = 0; k < d.candidates.size(); ++k) {
      if (!d.lattice.inlier[k]) continue;
      const cv::Point2d c = d.candidates[k].centre;
      const cv::Vec3f lab = w.lab.at<cv::Vec3f>(static_cast<int>(c.y), static_cast<int>(c.x));
      pion_lightness.push_back(lab[0]);
      pion_chroma.push_back(std::hypot(lab[1] - table.white[1], lab[2] - table.white[2]));
    }
    const double pion_l = median(pion_lightness), pion_c = median(pion_chroma);
    // The palest pions' colour (the white pions when there are some): the local white.
    cv::Vec2d pale(table.white[1], table.white[2]);
    {
      const double limit = percentile(pion_chroma, 0.2);
      cv::Vec2d sum(0, 0);
      int n = 0;
      for (std::size_t k = 0; k < d.candidates.size(); ++k) {
        if (!d.lattice.inlier[k]) continue;
        const cv::Point2d c = d.candidates[k].centre;
        const cv::Vec3f lab = w.lab.at<cv::Vec3f>(static_cast<int>(c.y), static_cast<int>(c.x));
        if (std::hypot(lab[1] - table.white[1], lab[2] - table.white[2]) <= limit) {
          sum += cv::Vec2d(lab[1], lab[2]);
          ++n;
        }
      }
      if (n > 0) pale = sum / n;
    }
    // One cell of the lattice, examined: its features and the classifier's verdict.
    const auto examine = [&](const LatticeFit& lattice, int i, int j, Detection::Cell& cell) {
      const cv::Point2d c = lattice.to_image(i, j);
      const double p = 0.5 * (cv::norm(lattice.to_image(i + 1, j) - c) + cv::norm(lattice.to_image(i, j + 1) - c));
      if (c.x < p / 2 || c.y < p / 2 || c.x > w.lab.cols - p / 2 || c.y > w.lab.rows - p / 2) return false;
      cell.lattice = {i, j};
      cell.centre = c;
      cell.features = cell_features(w, table, mask, prepared.things, c, p, pion_l, pion_c, pale);
      shape_features(w, table, lattice, i, j, cell.features.data() + kColourFeatures);
      if (model.trained() && !model.net.empty() && params.net_weight > 0) {
        // With a network: the mean of its probabilities and the forest's vote shares, read the
        // same way (a pion when the classes other than empty hold enough; the likeliest of them).
        const cv::Mat sample(1, kCellFeatures, CV_32F, cell.features.data());
        const cv::Mat shares = cell_shares(model, sample, params.net_weight);
        const float* s = shares.ptr<float>();
        int best = 1;
        for (int k = 2; k < kCellClasses; ++k) {
          if (s[k] > s[best]) best = k;
        }
        const double presence = std::clamp(1.0 - s[0], 0.0, 1.0);
        std::copy_n(s, kCellClasses, cell.shares.begin());
        cell.presence = presence;
        cell.likeliest = s[best] > 0 ? best : 0;
        cell.label = presence >= params.net_min_confidence && cell.likeliest > 0 ? best : 0;
        cell.confidence = cell.label > 0 ? presence : 1.0 - presence;
      } else if (model.trained()) {
        const cv::Mat sample(1, kCellFeatures, CV_32F, cell.features.data());
        const cv::Mat votes = forest_votes(model.forest, sample);
        // A pion is there when most trees see one, whatever its colour (the trees that see a
        // pion may split between two colours); its colour is the one most of them see. The
        // confidence is the share of trees that agree with the verdict.
        double total = 0, empty = 0;
        int best = -1;
        for (int k = 0; k < votes.cols; ++k) {
          const int n = votes.at<int>(1, k);
          total += n;
          if (votes.at<int>(0, k) == 0) {
            empty += n;
          } else if (best < 0 || n > votes.at<int>(1, best)) {
            best = k;
          }
        }
        const double presence = total > 0 ? 1.0 - empty / total : 0;
        for (int k = 0; k < votes.cols && total > 0; ++k) {
          const int label = votes.at<int>(0, k);
          if (label >= 0 && label < kCellClasses) cell.shares[static_cast<std::size_t>(label)] = static_cast<float>(votes.at<int>(1, k) / total);
        }
        cell.presence = presence;
        cell.likeliest = best >= 0 ? votes.at<int>(0, best) : 0;
        cell.label = presence >= params.min_confidence && best >= 0 ? votes.at<int>(0, best) : 0;
        cell.confidence = cell.label > 0 ? presence : 1.0 - presence;
      } else {
        cell.label = rule_label(cell.features);
        cell.confidence = 1;
      }
      if (params.keep_patches) network_patch(w, lattice, i, j, cell.patch);
      if (model.trained() && !model.patch_net.empty() && params.patch_weight > 0 &&
          cell.presence >= params.patch_low && cell.presence <= params.patch_high) {
        // The patch network's say in the presence; the colours keep their proportions.
        if (!params.keep_patches) network_patch(w, lattice, i, j, cell.patch);
        const double pion = patch_presence(model.patch_net, cell.patch, params.patch_views);
        const double presence = (1 - params.patch_weight) * cell.presence + params.patch_weight * pion;
        const double scale = cell.presence > 0 ? presence / cell.presence : 0;
        for (int k = 1; k < kCellClasses; ++k) cell.shares[static_cast<std::size_t>(k)] *= static_cast<float>(scale);
        cell.shares[0] = static_cast<float>(1 - presence);
        cell.presence = presence;
        const bool with_net = !model.net.empty() && params.net_weight > 0;
        const double threshold = with_net ? params.net_min_confidence : params.min_confidence;
        cell.label = presence >= threshold && cell.likeliest > 0 ? cell.likeliest : 0;
        cell.confidence = cell.label > 0 ? presence : 1.0 - presence;
      }
      return true;
    };
    // One candidate alone says nothing of the lattice's angle (and the fit takes the image's
    // axes): a board of two or three pions whose other pions were not candidates (a white pion
    // on a light table) would be looked for in the wrong places. Turn the lattice about that
    // pion and keep the angle at which a neighbouring cell most surely holds a pion.
    if (d.lattice.inliers == 1 && params.single_angle_step > 0) {
      std::size_t alone = 0;
      while (alone < d.candidates.size() && !d.lattice.inlier[alone]) ++alone;
      const cv::Point at = d.lattice.cells[alone];
      const cv::Point2d c = d.candidates[alone].centre;
      const double p = d.lattice.pitch;
      // The lattice turned by t about that pion: (i, j) -> c + p * R(t) * (i - at.x, j - at.y).
      const auto turned_by = [&](double t) {
        const double ct = std::cos(t), st = std::sin(t);
        return cv::Matx33d(p * ct, -p * st, c.x - p * (ct * at.x - st * at.y),  //
                           p * st, p * ct, c.y - p * (st * at.x + ct * at.y),    //
                           0, 0, 1);
      };
      double best_presence = 0, best_angle = 0;
      bool improved = false;
      // Angles within 45 degrees of the image's axes: columns run closest to the right, rows down.
      for (double deg = -45; deg < 45; deg += params.single_angle_step) {
        const double t = deg * CV_PI / 180;
        LatticeFit turned = d.lattice;
        turned.homography = turned_by(t);
        for (int dj = -1; dj <= 1; ++dj) {
          for (int di = -1; di <= 1; ++di) {
            if (di == 0 && dj == 0) continue;
            Detection::Cell cell;
            if (!examine(turned, at.x + di, at.y + dj, cell) || cell.label == 0) continue;
            if (cell.confidence > best_presence + 1e-9) {
              best_presence = cell.confidence;
              best_angle = t;
              improved = true;
            }
          }
        }
      }
      if (improved) d.lattice.homography = turned_by(best_angle);
    }
    // Examine the cells around the candidates on the lattice, and around every cell found to
    // hold a pion, until no new pion turns up (a pion the candidates missed is found next to
    // its neighbours).
    const auto examine_board = [&] {
      d.cells.clear();
      std::vector<cv::Point> queued;
      std::queue<cv::Point> todo;
      // How many faint pions (`grow_faint`) lie between each queued cell and a pion that stands
      // out (0: queued beside one that stands out, or a candidate).
      std::vector<int> faint;
      const auto enqueue_around = [&](cv::Point centre, int faint_steps = 0) {
        for (int dj = -1; dj <= 1; ++dj) {
          for (int di = -1; di <= 1; ++di) {
            const cv::Point cell = centre + cv::Point(di, dj);
            if (std::find(queued.begin(), queued.end(), cell) != queued.end()) continue;
            queued.push_back(cell);
            faint.push_back(faint_steps);
            todo.push(cell);
          }
        }
      };
      const auto faint_steps_to = [&](cv::Point cell) {
        const auto at = std::find(queued.begin(), queued.end(), cell);
        return at == queued.end() ? 0 : faint[static_cast<std::size_t>(at - queued.begin())];
      };
      for (std::size_t k = 0; k < d.candidates.size(); ++k) {
        if (d.lattice.inlier[k]) enqueue_around(d.lattice.cells[k]);
      }
      // A candidate off the lattice within the extension's reach of a node.
      const auto off_lattice_near = [&](cv::Point node) {
        for (std::size_t k = 0; k < d.candidates.size(); ++k) {
          if (d.lattice.inlier[k]) continue;
          const cv::Point2d l = d.lattice.to_lattice(d.candidates[k].centre);
          if (std::hypot(l.x - node.x, l.y - node.y) < params.extend_reach) return true;
        }
        return false;
      };
      while (!todo.empty() && d.cells.size() < static_cast<std::size_t>(params.max_cells)) {
        const cv::Point at = todo.front();
        todo.pop();
        Detection::Cell cell;
        if (!examine(d.lattice, at.x, at.y, cell)) continue;
        if (params.recentre > 0 && cell.label == 0 && cell.presence >= params.recentre_low &&
            !off_lattice_near(at)) {
          // The lattice drifts off the board's pions far from the candidates that placed it (the
          // far rows of a tilted board, a pion diagonal to a small board): a pion there that
          // gave no candidate (white on a light table) is examined off its centre and read
          // empty. The cell is examined again at the 4 points `recentre` of a pitch from its node
          // along the diagonals (the 8 points of the axes and diagonals read the same boards on
          // the development scenes, for twice the time), and the surest of them that sees a pion
          // with at least `recentre_accept` is taken. (A candidate off the lattice near the node
          // is left to the extension below, which refits the map through it.)
          const double r = params.recentre / std::sqrt(2.0);
          for (const auto& [ox, oy] :
               {std::pair(r, r), std::pair(-r, r), std::pair(-r, -r), std::pair(r, -r)}) {
            LatticeFit shifted = d.lattice;
            shifted.homography = d.lattice.homography * cv::Matx33d(1, 0, ox, 0, 1, oy, 0, 0, 1);
            Detection::Cell other;
            if (examine(shifted, at.x, at.y, other) && other.label > 0 &&
                other.presence >= params.recentre_accept && other.presence > cell.presence) {
              cell = other;
              cell.off_node = true;
            }
          }
        }
        // Grow only from pions that stand out from the table's colours (a felt the colour of the
        // green pions must not spread the board over the whole table).
        if (cell.label > 0 && cell.confidence >= params.min_confidence && cell.features[16] > params.grow_contrast) {
          enqueue_around(at);
        } else if (const int steps = faint_steps_to(at);
                   params.grow_faint > 0 && cell.label > 0 && steps < params.faint_steps &&
                   cell.confidence >= (steps == 0 ? params.grow_faint : params.grow_faint_again)) {
          // A pion that hardly stands out (an orange tile on orange wood), found beside one that
          // does, and surely a pion: its neighbours are examined too (a white tile beside it gave
          // no candidate), but what they hold is grown from only if it stands out, or for a few
          // steps (`faint_steps`) if each is surer still (`grow_faint_again`) — not a chain across
          // a felt the colour of the pions.
          enqueue_around(at, steps + 1);
        }
        d.cells.push_back(cell);
      }
    };
    examine_board();
    // The lattice was fitted to the candidates it could place; far from them (the far rows of a
    // tilted board, past a gap) it drifts, and a pion there lies off its node. A candidate off
    // the lattice but within `extend_reach` of a node beside a pion found is taken onto that
    // node when the map refitted through it keeps every other candidate on its node and the
    // classifier, examining the node through the new map, sees a pion there; then the board is
    // examined again. Nearest first, `extend_rounds` times at most. With
    // `extend_through_pions`, "every other candidate" is every other placed candidate read as a
    // pion: those examined empty (a striped cloth's stripes) neither pull the map nor veto it.
    std::vector<bool> tried(d.candidates.size(), false);
    // The node a candidate lies nearest through a map, and how far from it (in pitches).
    const auto nearest_node = [](const LatticeFit& lattice, cv::Point2d at, double& off) {
      const cv::Point2d l = lattice.to_lattice(at);
      const cv::Point node(static_cast<int>(std::lround(l.x)), static_cast<int>(std::lround(l.y)));
      off = std::hypot(l.x - node.x, l.y - node.y);
      return node;
    };
    const auto held = [&](cv::Point node) {  // by a placed candidate
      for (std::size_t k = 0; k < d.candidates.size(); ++k) {
        if (d.lattice.inlier[k] && d.lattice.cells[k] == node) return true;
      }
      return false;
    };
    const auto is_pion = [&](cv::Point at) {
      return std::any_of(d.cells.begin(), d.cells.end(), [&](const Detection::Cell& c) { return c.lattice == at && c.label > 0; });
    };
    for (int round = 0; round < params.extend_rounds; ++round) {
      std::size_t best = d.candidates.size();
      cv::Point best_node, best_bridge;
      double best_off = 1e9;
      bool best_bridged = true;
      const auto beside_pion = [&](cv::Point node) {
        for (int dj = -1; dj <= 1; ++dj) {
          for (int di = -1; di <= 1; ++di) {
            if ((di != 0 || dj != 0) && is_pion(node + cv::Point(di, dj))) return true;
          }
        }
        return false;
      };
      for (std::size_t k = 0; k < d.candidates.size(); ++k) {
        if (d.lattice.inlier[k] || crowded[k] || tried[k]) continue;
        double off = 0;
        const cv::Point node = nearest_node(d.lattice, d.candidates[k].centre, off);
        if (off > params.extend_reach || held(node)) continue;
        bool bridged = false;
        cv::Point bridge;
        if (!beside_pion(node)) {
          // (`extend_bridge`) One cell from a pion found, across a cell read empty that the
          // refitted map must show to hold a pion too (the lattice drifted off both).
          if (!params.extend_bridge) continue;
          for (int dj = -1; dj <= 1 && !bridged; ++dj) {
            for (int di = -1; di <= 1 && !bridged; ++di) {
              const cv::Point m = node + cv::Point(di, dj);
              bridged = (di != 0 || dj != 0) && !is_pion(m) && !held(m) && beside_pion(m);
              if (bridged) bridge = m;
            }
          }
          if (!bridged) continue;
        }
        if (bridged > best_bridged || (bridged == best_bridged && off >= best_off)) continue;
        best = k;
        best_node = node;
        best_bridge = bridge;
        best_bridged = bridged;
        best_off = off;
      }
      if (best == d.candidates.size()) break;
      tried[best] = true;
      // The map through the placed candidates and this one, by least squares (none through a
      // chain of pions: it does not fix the map across it, and there is no extension then).
      std::vector<cv::Point2f> from, to;
      for (std::size_t k = 0; k < d.candidates.size(); ++k) {
        if (!d.lattice.inlier[k] && k != best) continue;
        if (k != best && params.extend_through_pions && !is_pion(d.lattice.cells[k])) continue;
        const cv::Point c = k == best ? best_node : d.lattice.cells[k];
        from.emplace_back(static_cast<float>(c.x), static_cast<float>(c.y));
        to.emplace_back(static_cast<float>(d.candidates[k].centre.x), static_cast<float>(d.candidates[k].centre.y));
      }
      LatticeFit refitted = d.lattice;
      if (!least_squares_map(from, to, refitted.homography)) continue;
      bool kept = true;
      for (std::size_t k = 0; k < from.size() && kept; ++k) {
        const cv::Point2d l = refitted.to_lattice(cv::Point2d(to[k].x, to[k].y));
        kept = std::hypot(l.x - from[k].x, l.y - from[k].y) <= lp.assign_tolerance;
      }
      if (!kept) continue;
      Detection::Cell cell;
      if (!examine(refitted, best_node.x, best_node.y, cell) || cell.label == 0) continue;
      if (best_bridged &&
          (!examine(refitted, best_bridge.x, best_bridge.y, cell) || cell.label == 0))
        continue;
      d.lattice.homography = refitted.homography;
      d.lattice.inlier[best] = true;
      d.lattice.cells[best] = best_node;
      ++d.lattice.inliers;
      // Every candidate now on a node no other holds is placed too (a node once: the first
      // candidate in order takes it).
      for (std::size_t k = 0; k < d.candidates.size(); ++k) {
        if (d.lattice.inlier[k] || crowded[k]) continue;
        double off = 0;
        const cv::Point node = nearest_node(d.lattice, d.candidates[k].centre, off);
        if (off <= lp.assign_tolerance && !held(node)) {
          d.lattice.inlier[k] = true;
          d.lattice.cells[k] = node;
          ++d.lattice.inliers;
        }
      }
      const cv::Point2d origin = d.lattice.to_image(0, 0);
      d.lattice.pitch = 0.5 * (cv::norm(d.lattice.to_image(1, 0) - origin) + cv::norm(d.lattice.to_image(0, 1) - origin));
      examine_board();
    }
  }
  for (std::size_t k = 0; k < d.candidates.size(); ++k) {
    if (!d.lattice.inlier[k]) {
      rejected.push_back({d.candidates[k].centre.x, d.candidates[k].centre.y, crowded[k] ? "crowded" : "off the lattice"});
    }
  }
  if (params.recentre_beside > 0) {
    // A pion read off its node toward pions read (`recentre_beside` of the three cells on the
    // side it was shifted to): the shifted point, in the corner between them, saw their edges
    // and the cloth between (a light square in a gap between tiles read as a white tile), not a
    // pion of its own. A board the lattice drifted off is shifted toward one pion at most there.
    std::vector<std::size_t> beside;
    for (std::size_t k = 0; k < d.cells.size(); ++k) {
      const Detection::Cell& cell = d.cells[k];
      if (!cell.off_node || cell.label == 0) continue;
      const cv::Point2d l = d.lattice.to_lattice(cell.centre);
      const int sx = l.x > cell.lattice.x ? 1 : -1, sy = l.y > cell.lattice.y ? 1 : -1;
      const auto toward =
          std::count_if(d.cells.begin(), d.cells.end(), [&](const Detection::Cell& o) {
            const cv::Point n = o.lattice - cell.lattice;
            return o.label > 0 &&
                   (n == cv::Point(sx, 0) || n == cv::Point(0, sy) || n == cv::Point(sx, sy));
          });
      if (toward >= params.recentre_beside) beside.push_back(k);
    }
    for (const std::size_t k : beside) {
      d.cells[k].label = 0;
      d.cells[k].confidence = 1 - d.cells[k].presence;
      d.cells[k].off_node = false;
    }
  }
  drop_faint(d.cells, params);
  bridge_groups(d.cells, params);
  fill_holes(d.cells, params);
  if (!params.calibration || params.calibration_sigma > 0) {
    recolour_pale(d.cells, params);
    recolour_apart(d.cells, params);
    recolour_hue(d.cells, params);
    recolour_twins(d.cells, params);
    recolour_context(d.cells, model, params);
  }
  // A calibration decides the colour of every pion found: the nearest calibrated colour, or
  // with calibration_sigma the colour of least d^2 / (2 sigma^2) - log(prior), where d is the
  // distance from the colour's calibrated look and the prior the mean of the classifier's share
  // and 1 for the colour read (by the steps above), 0 for the others.
  if (params.calibration) {
    for (Detection::Cell& cell : d.cells) {
      if (cell.label == 0) continue;
      const auto seen = calibration_descriptor(cell.features);
      const int read = cell.label;
      double best = 1e18;
      for (int c = 0; c < 4; ++c) {
        const auto& ref = params.calibration->colour[static_cast<std::size_t>(c)];
        const double dist = std::hypot(seen[0] - ref[0], seen[1] - ref[1], seen[2] - ref[2]);
        double cost = dist;
        if (params.calibration_sigma > 0) {
          const double prior =
              0.5 * cell.shares[static_cast<std::size_t>(1 + c)] + (read == 1 + c ? 0.5 : 0.0);
          cost = dist * dist / (2 * params.calibration_sigma * params.calibration_sigma) -
                 std::log(std::max(1e-3, prior));
        }
        if (cost < best) {
          best = cost;
          cell.label = 1 + c;
        }
      }
    }
  }
  // constrain: pions are one 8-connected group; keep the largest.
  std::vector<int> pion_cells;
  for (std::size_t k = 0; k < d.cells.size(); ++k) {
    if (d.cells[k].label > 0) pion_cells.push_back(static_cast<int>(k));  // every pion, bridges included
  }
  std::vector<int> group;
  const int groups = group_cells(d.cells, pion_cells, group);
  std::vector<int> group_size(static_cast<std::size_t>(groups), 0);
  for (const int k : pion_cells)
    ++group_size[static_cast<std::size_t>(group[static_cast<std::size_t>(k)])];
  int best_group = -1, best_size = 0;
  for (int g = 0; g < groups; ++g) {
    if (group_size[static_cast<std::size_t>(g)] > best_size)
      best_size = group_size[static_cast<std::size_t>(g)], best_group = g;
  }
  // A board fits a 5x7 rectangle, either way round: keep the 5x7 or 7x5 window holding the
  // most of the group (a felt the colour of the pions must not stretch it); between windows that
  // hold as much of it, the one holding the most pions of the other groups. Those other groups
  // (the board seen in parts: a pion between them missed) join it inside that window.
  const auto joins = [&](int k) {
    return group[k] == best_group ||
           (params.join_group > 0 && group_size[static_cast<std::size_t>(group[k])] >= params.join_group);
  };
  cv::Point best_corner(INT_MIN, INT_MIN);
  cv::Size best_window(7, 5);
  std::pair<int, int> best_count(-1, -1);
  for (const cv::Size window : {cv::Size(7, 5), cv::Size(5, 7)}) {
    // The window's left column and top row are those of a pion that may be kept, of the
    // largest group or of another: a group left of or above the largest one can join too.
    for (const int a : pion_cells) {
      if (!joins(a)) continue;
      for (const int b : pion_cells) {
        if (!joins(b)) continue;
        const cv::Point corner(d.cells[a].lattice.x, d.cells[b].lattice.y);
        std::pair<int, int> count(0, 0);
        for (const int k : pion_cells) {
          const cv::Point q = d.cells[k].lattice - corner;
          const bool inside = q.x >= 0 && q.x < window.width && q.y >= 0 && q.y < window.height;
          if (!inside) continue;
          if (group[k] == best_group) {
            ++count.first;
          } else if (joins(k)) {
            ++count.second;
          }
        }
        if (count > best_count) {
          best_count = count;
          best_corner = corner;
          best_window = window;
        }
      }
    }
  }
  for (const int k : pion_cells) {
    const cv::Point q = d.cells[k].lattice - best_corner;
    const bool inside = q.x >= 0 && q.x < best_window.width && q.y >= 0 && q.y < best_window.height;
    group[k] = inside && joins(k) ? best_group : -1;
  }
  int i_min = INT_MAX, j_min = INT_MAX;
  for (const int k : pion_cells) {
    if (group[k] != best_group) continue;
    i_min = std::min(i_min, d.cells[k].lattice.x);
    j_min = std::min(j_min, d.cells[k].lattice.y);
  }
  for (const int k : pion_cells) {
    const Detection::Cell& cell = d.cells[k];
    const cv::Point2d at = cell.centre / w.scale;
    if (group[k] != best_group) {
      rejected.push_back({cell.centre.x, cell.centre.y, "not connected to the board"});
      continue;
    }
    d.observation.pions.push_back({cell.lattice.y - j_min, cell.lattice.x - i_min, static_cast<ri::Colour>(cell.label - 1),
                                   at.x, at.y, cell.confidence});
    d.off_node_pions += cell.off_node ? 1 : 0;
  }
  for (Rejected& r : rejected) {
    r.x /= w.scale;
    r.y /= w.scale;
  }
  d.observation.rejected = std::move(rejected);
  d.observation.pitch = d.lattice.found ? d.lattice.pitch / w.scale : 0;
  d.timing.classify_ms = ms_since(start);
  return d;
}

// A second reading of the frame through `choice`: its stages up to the candidates are the
// first's, so only its own (the lattice and the cells) are timed.
Detection finish_again(const Prepared& prepared, const Params& params, const CellModel& model,
                       const LatticeChoice& choice) {
  Detection other = finish(prepared, params, model, choice);
  other.timing.normalise_ms = other.timing.table_ms = other.timing.candidates_ms = 0;
  return other;
}

// Of two readings of one frame, `other` replaces `d` when `better`; the frame's time is both's.
void keep(Detection& d, Detection&& other, bool better) {
  Timing both = d.timing;
  both += other.timing;
  if (better) d = std::move(other);
  d.timing = both;
}

// The pions a reading found on its lattice's nodes: those read around a node (`recentre`) do not
// count, or a wrong lattice would gain by every pion it is a fifth of a pitch off.
std::size_t pions_of(const Detection& d) {
  return d.observation.pions.size() - static_cast<std::size_t>(d.off_node_pions);
}

// How many pions a reading found on its lattice's nodes when they all lie on one colour of its
// checkerboard (i + j of one parity); 0 when they lie on both.
int one_parity_pions(const Detection& d) {
  int pions = 0, parity = -1;
  for (const Detection::Cell& cell : d.cells) {
    if (cell.label <= 0 || cell.off_node) continue;
    const int p = ((cell.lattice.x + cell.lattice.y) % 2 + 2) % 2;
    if (parity >= 0 && p != parity) return 0;
    parity = p;
    ++pions;
  }
  return pions;
}

// How many pieces the pions read make, 8-connected (an Irma board is one: every pion touches an
// earlier one, diagonals included).
int pieces_of(const Detection& d) {
  std::vector<cv::Point> at;
  for (const auto& p : d.observation.pions) at.emplace_back(p.col, p.row);
  std::vector<int> group;
  return point_groups(at, group);
}

// The board read from the candidates: through the likeliest lattice, and through another when the
// candidates cannot tell them apart (a sparse board, a knight's move) or its pions make more than
// one piece, the better reading kept.
Detection read(const Prepared& prepared, const Params& params, const CellModel& model) {
  Detection d = finish(prepared, params, model, {});
  // The board read again through the likeliest lattice other than the reading's (more than 12%
  // of pitch or 8 degrees from its hypothesis), and kept when it finds more pions, or (with
  // `fewer_pieces`) as many in fewer pieces: a board in pieces is no Irma board, and two pions
  // read two cells apart were diagonal neighbours on a lattice turned 45 degrees.
  const auto read_other = [&](bool fewer_pieces) {
    LatticeChoice avoid;
    avoid.avoid_pitch = d.lattice.hypothesis_pitch;
    avoid.avoid_angle = d.lattice.hypothesis_angle;
    Detection other = finish_again(prepared, params, model, avoid);
    const bool better =
        other.lattice.found &&
        (pions_of(other) > pions_of(d) ||
         (fewer_pieces && pions_of(other) == pions_of(d) && pieces_of(other) < pieces_of(d)));
    keep(d, std::move(other), better);
  };
  if (params.alternative_inliers > 0 && d.lattice.found && d.lattice.knight == 0 &&
      d.lattice.hypothesis_pitch > 0 &&
      (d.lattice.inliers <= params.alternative_inliers ||
       (params.alternative_pieces && pieces_of(d) > 1)))
    read_other(params.alternative_pieces);
  // The lattice was taken sqrt(2) coarser and turned 45 degrees because the candidates all lay
  // on one colour of the finer one's checkerboard: the board may be the finer one, its pions on
  // the other colour not candidates (white on a light cloth). It is read through the finer one
  // too and that kept when it finds more pions.
  if (params.finer_retry && d.lattice.found && d.lattice.coarsened) {
    LatticeChoice finer;
    finer.finer = true;
    Detection other = finish_again(prepared, params, model, finer);
    const bool better = other.lattice.found && pions_of(other) > pions_of(d);
    keep(d, std::move(other), better);
  }
  // The pions read all on one colour of the lattice's checkerboard (i + j of one parity): the
  // lattice may be the one turned 45 degrees at 1/sqrt(2) of the board's pitch, kept by a few
  // candidates that are no pions (the table seen between four of them) on the other colour,
  // which the candidates' own parity rule (fit_lattice) counts.
  if (params.read_parity_pions > 0 && d.lattice.found && d.lattice.knight == 0 &&
      d.lattice.hypothesis_pitch > 0 && one_parity_pions(d) >= params.read_parity_pions)
    read_other(false);
  // No pion read though there were candidates: the lattice went through clutter (squares of a
  // pattern that passed for pions beside a lone tile) or took a pitch no pion has (half the
  // board's, through three candidates). The board is read through the lattice of each of the
  // likeliest candidates alone (one pion's core first, the largest first: clutter leaves partial
  // cores), its pitch from the pion's width and its angle from its neighbours, and the reading
  // with the most pions kept. So too when the lattice went through few candidates
  // (`lone_inliers`: three pions in a row of the board's diagonal, the lattice through one of
  // them and two points of the cloth).
  const bool few_inliers =
      params.lone_inliers > 0 && d.lattice.found && d.lattice.inliers <= params.lone_inliers;
  if (params.lone_readings > 0 && (pions_of(d) == 0 || few_inliers) && !d.candidates.empty()) {
    std::vector<int> order(d.candidates.size());
    std::iota(order.begin(), order.end(), 0);
    const auto likeliness = [&](int k) {
      const Candidate& c = d.candidates[static_cast<std::size_t>(k)];
      return std::make_pair(!c.single, -c.area);
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return likeliness(a) < likeliness(b); });
    order.resize(std::min(order.size(), static_cast<std::size_t>(params.lone_readings)));
    for (const int k : order) {
      LatticeChoice alone;
      alone.alone = k;
      Detection other = finish_again(prepared, params, model, alone);
      const bool better = other.lattice.found && pions_of(other) > pions_of(d);
      keep(d, std::move(other), better);
    }
  }
  if (!params.knight_retry || d.lattice.knight == 0) return d;
  // The lattice came from two pions a knight's move apart, and its mirror image fits them as
  // well: the board is read through both, and the one that finds more pions (on a tie, with
  // more confidence) is kept.
  LatticeChoice mirrored;
  mirrored.knight_mirror = -d.lattice.knight;
  Detection other = finish_again(prepared, params, model, mirrored);
  const auto confidence = [](const Detection& x) {
    double sum = 0;
    for (const auto& p : x.observation.pions) sum += p.confidence;
    return sum;
  };
  const bool better = pions_of(other) > pions_of(d) ||
                      (pions_of(other) == pions_of(d) && confidence(other) > confidence(d));
  keep(d, std::move(other), better);
  return d;
}

// The table's colours that hold at most `params.object_retry_share` of the border band's samples
// and lie at least `params.object_retry_distance` from its commonest colour (weighted Lab) are
// dropped: a thing lying across the band. Returns whether any was (never all of them).
bool drop_object_colours(TableModel& t, const Params& params) {
  if (t.colours.empty()) return false;
  const auto commonest = static_cast<std::size_t>(
      std::max_element(t.shares.begin(), t.shares.end()) - t.shares.begin());
  std::vector<cv::Vec3f> kept;
  std::vector<double> kept_shares;
  for (std::size_t c = 0; c < t.colours.size(); ++c) {
    const bool object =
        t.shares[c] <= params.object_retry_share &&
        cv::norm(t.colours[c] - t.colours[commonest]) >= params.object_retry_distance;
    if (object) continue;
    kept.push_back(t.colours[c]);
    kept_shares.push_back(t.shares[c]);
  }
  if (kept.size() == t.colours.size()) return false;
  t.colours = std::move(kept);
  t.shares = std::move(kept_shares);
  return true;
}

// The candidates found anew on the prepared image against `table` (the first reading's, changed):
// the image is the same; the mask, the rejections and the candidates are the new reading's.
Prepared prepared_again(const Prepared& prepared, TableModel table, const Params& params) {
  Prepared again;
  again.w = prepared.w;
  again.table = std::move(table);
  again.d = prepared.d;
  again.d.timing = Timing{};
  add_candidates(again, params);
  return again;
}

}  // namespace

Detection detect(const cv::Mat& bgr, const Params& params, const CellModel& model) {
  const Prepared prepared = prepare(bgr, params);
  Detection d = read(prepared, params, model);
  if (params.merge_split > 0 && prepared.d.pion_width > 0) {
    // Candidates that may be one pion in pieces (merge_split): the board read with them merged
    // too, and that reading kept when it finds more pions. Merged for good, a patterned cloth's
    // motifs, each split in two, made a lattice of their own.
    std::vector<Candidate> pieces_merged = prepared.d.candidates;
    if (merge_split(pieces_merged, prepared.d.pion_width, params)) {
      Prepared merged = prepared;  // copied only for a frame with pieces to merge
      merged.d.candidates = std::move(pieces_merged);
      merged.d.timing = Timing{};
      Detection other = read(merged, params, model);
      const bool better = pions_of(other) > pions_of(d);
      keep(d, std::move(other), better);
    }
  }
  if (params.object_retry_share > 0 && static_cast<int>(pions_of(d)) <= params.object_retry_pions) {
    // A thing lying across the border band (a pencil, a cup) gave the table one of its colours,
    // and a pion of that colour is then table everywhere: a lone yellow tile beside a yellow
    // pencil was no candidate at all. The board read again without the colours that hold a small
    // share of the band and lie far from its commonest, that reading kept when it finds more
    // pions. Only then: taken for good, such a colour turns the thing itself into foreground
    // inside the image, which misleads the pion's size.
    // Not when the thing becomes a large foreground (a player's arm across the border: reading
    // its many candidates cost 25-50 ms on such frames of the demo recording).
    const auto foreground = [](const TableModel& t) {
      return static_cast<double>(cv::countNonZero(t.distance > t.threshold)) /
             static_cast<double>(std::max<std::size_t>(1, t.distance.total()));
    };
    TableModel table = prepared.table;
    if (drop_object_colours(table, params)) {
      table.distance = cv::Mat();  // its own (the copy shares the first reading's pixels)
      table_distances(prepared.w, params, table);
      if (foreground(table) - foreground(prepared.table) <= params.object_retry_grow) {
        const Prepared again = prepared_again(prepared, std::move(table), params);
        Detection other = read(again, params, model);
        const bool better = pions_of(other) > pions_of(d);
        keep(d, std::move(other), better);
      }
    }
  }
  if (params.faint_retry_noise > 0 && pions_of(d) == 0) {
    // No pion read: the candidates sought again, with the foreground threshold lowered to the
    // table's own noise (the classifier's contrast is still judged against the first threshold).
    const double lowered =
        std::max(params.faint_retry_floor,
                 params.faint_retry_noise * table_noise(prepared.w, prepared.table));
    if (lowered < prepared.table.threshold) {
      TableModel table = prepared.table;
      table.candidate_threshold = lowered;
      const Prepared again = prepared_again(prepared, std::move(table), params);
      // Read only through a few candidates: a pion the table's colour gives one or a few, an empty
      // patterned cloth at that threshold dozens.
      const auto found = static_cast<int>(again.d.candidates.size());
      if (found > 0 && found <= params.faint_retry_candidates) {
        Detection other = read(again, params, model);
        const bool sure = std::all_of(
            other.observation.pions.begin(), other.observation.pions.end(),
            [&](const PionSighting& p) { return p.confidence >= params.faint_retry_confidence; });
        keep(d, std::move(other), sure && pions_of(other) > pions_of(d));
      }
    }
  }
  if (params.white_retry <= 0 || params.calibration) return d;
  // The light's white is the brightest pixels' colour; when the brightest greyish pixels say
  // otherwise (orange pions under a warm lamp can be the brightest), the candidates' colour
  // classes are judged against those too, and that reading kept when it finds more pions.
  const cv::Vec3f& white = prepared.table.white;
  const cv::Vec3f& grey = prepared.table.grey_white;
  if (std::hypot(white[1] - grey[1], white[2] - grey[2]) < params.white_retry) return d;
  if (static_cast<int>(pions_of(d)) > params.white_retry_pions) return d;
  // The image and the table are the same: only the candidates change (found anew, with a mask
  // and rejections of their own).
  TableModel table = prepared.table;
  table.class_white = grey;
  const Prepared again = prepared_again(prepared, std::move(table), params);
  Detection other = read(again, params, model);
  const bool better = pions_of(other) > pions_of(d);
  keep(d, std::move(other), better);
  return d;
}

cv::Mat draw_overlay(const cv::Mat& bgr, const Detection& d) {
  cv::Mat out = bgr.clone();
  const double s = 1.0 / d.scale;
  for (const Detection::Cell& cell : d.cells) {
    cv::circle(out, cell.centre * s, 2, cv::Scalar(200, 200, 200), cv::FILLED);
  }
  static const cv::Scalar kInk[] = {{40, 40, 230}, {0, 140, 255}, {40, 200, 40}, {255, 255, 255}};
  static const char* kLetter[] = {"R", "O", "G", "W"};
  const int radius = std::max(4, static_cast<int>(d.observation.pitch * 0.42));
  for (const PionSighting& p : d.observation.pions) {
    const auto c = static_cast<int>(p.colour);
    cv::circle(out, {static_cast<int>(p.x), static_cast<int>(p.y)}, radius, cv::Scalar(0, 0, 0), 3);
    cv::circle(out, {static_cast<int>(p.x), static_cast<int>(p.y)}, radius, kInk[c], 1);
    const std::string label = std::string(kLetter[c]) + " " + std::to_string(p.row) + "," + std::to_string(p.col);
    cv::putText(out, label, {static_cast<int>(p.x) - radius, static_cast<int>(p.y) + 4}, cv::FONT_HERSHEY_SIMPLEX,
                0.4, cv::Scalar(0, 0, 0), 3);
    cv::putText(out, label, {static_cast<int>(p.x) - radius, static_cast<int>(p.y) + 4}, cv::FONT_HERSHEY_SIMPLEX,
                0.4, kInk[c], 1);
  }
  for (const Rejected& r : d.observation.rejected) {
    const cv::Point at(static_cast<int>(r.x), static_cast<int>(r.y));
    cv::drawMarker(out, at, cv::Scalar(255, 0, 255), cv::MARKER_TILTED_CROSS, 14, 2);
    cv::putText(out, r.why, at + cv::Point(8, -6), cv::FONT_HERSHEY_SIMPLEX, 0.35, cv::Scalar(255, 0, 255), 1);
  }
  return out;
}

}  // namespace arbitre::vision::pions
