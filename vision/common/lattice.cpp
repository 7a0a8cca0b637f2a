#include "vision/common/lattice.h"

#include <opencv2/calib3d.hpp>

#include <algorithm>
#include <climits>
#include <cmath>

namespace arbitre::vision {
namespace {

constexpr int kNoCell = INT_MIN;

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

cv::Point2d apply(const cv::Matx33d& h, cv::Point2d p) {
  const cv::Vec3d q = h * cv::Vec3d(p.x, p.y, 1.0);
  return {q[0] / q[2], q[1] / q[2]};
}

// Nearest-neighbour distances: the pitch of a lattice is the commonest short distance.
double estimate_pitch(const std::vector<cv::Point2d>& points) {
  std::vector<double> nearest;
  for (std::size_t a = 0; a < points.size(); ++a) {
    double best = 1e18;
    for (std::size_t b = 0; b < points.size(); ++b) {
      if (a != b) best = std::min(best, cv::norm(points[a] - points[b]));
    }
    nearest.push_back(best);
  }
  return median(nearest);
}

// The lattice direction modulo 90 degrees, from neighbour vectors about one pitch long.
double estimate_angle(const std::vector<cv::Point2d>& points, double pitch) {
  double s = 0, c = 0;
  for (std::size_t a = 0; a < points.size(); ++a) {
    for (std::size_t b = a + 1; b < points.size(); ++b) {
      const cv::Point2d v = points[b] - points[a];
      const double length = cv::norm(v);
      if (length < 0.75 * pitch || length > 1.3 * pitch) continue;
      const double angle = std::atan2(v.y, v.x);
      s += std::sin(4 * angle);
      c += std::cos(4 * angle);
    }
  }
  return std::atan2(s, c) / 4;  // in (-45, 45] degrees: the axis closest to the image x axis
}

// A fit of `n` points that found nothing: no cells, no inliers.
LatticeFit unfitted(std::size_t n) {
  LatticeFit fit;
  fit.cells.assign(n, {kNoCell, kNoCell});
  fit.inlier.assign(n, false);
  return fit;
}

LatticeFit complete_fit(const std::vector<cv::Point2d>& points, double pitch, double angle, std::size_t best_point,
                        const LatticeParams& params);
LatticeFit grow_fit(const std::vector<cv::Point2d>& points, double angle, double pitch_u,
                    double pitch_v, std::size_t seed, const LatticeParams& params);

// How much the map's steps vary over the cells of its inliers: the largest ratio of the longest to
// the shortest step along one axis (1 for an affine map).
double step_ratio(const LatticeFit& fit) {
  double worst = 1;
  for (const bool along_i : {true, false}) {
    double lo = 1e18, hi = 0;
    for (std::size_t k = 0; k < fit.cells.size(); ++k) {
      if (!fit.inlier[k]) continue;
      const cv::Point c = fit.cells[k];
      const double step = cv::norm(fit.to_image(c.x + (along_i ? 1 : 0), c.y + (along_i ? 0 : 1)) -
                                   fit.to_image(c.x, c.y));
      lo = std::min(lo, step);
      hi = std::max(hi, step);
    }
    if (hi > 0 && lo > 0) worst = std::max(worst, hi / lo);
  }
  return worst;
}

}  // namespace

cv::Point2d LatticeFit::to_image(double i, double j) const { return apply(homography, {i, j}); }

cv::Point2d LatticeFit::to_lattice(cv::Point2d image) const { return apply(homography.inv(), image); }

double cell_spread(const std::vector<cv::Point2f>& cells) {
  if (cells.size() < 3) return 0;
  cv::Point2d mean(0, 0);
  for (const auto& c : cells) mean += cv::Point2d(c.x, c.y);
  mean *= 1.0 / static_cast<double>(cells.size());
  double sxx = 0, syy = 0, sxy = 0;
  for (const auto& f : cells) {
    sxx += (f.x - mean.x) * (f.x - mean.x);
    syy += (f.y - mean.y) * (f.y - mean.y);
    sxy += (f.x - mean.x) * (f.y - mean.y);
  }
  const double m = static_cast<double>(cells.size());
  sxx /= m;
  syy /= m;
  sxy /= m;
  return 0.5 * (sxx + syy) - std::sqrt(0.25 * (sxx - syy) * (sxx - syy) + sxy * sxy);
}

bool least_squares_map(const std::vector<cv::Point2f>& cells, const std::vector<cv::Point2f>& points,
                       cv::Matx33d& map) {
  const double spread = cell_spread(cells);
  if (cells.size() >= 8 && spread > kHomographySpread) {
    const cv::Mat h = cv::findHomography(cells, points, 0);
    if (!h.empty()) {
      map = cv::Matx33d(h);
      return true;
    }
  }
  if (cells.size() < 3 || spread <= kAffineSpread) return false;
  cv::Mat a(0, 3, CV_64F), bx(0, 1, CV_64F), by(0, 1, CV_64F);
  for (std::size_t k = 0; k < cells.size(); ++k) {
    const double row[3] = {cells[k].x, cells[k].y, 1};
    a.push_back(cv::Mat(1, 3, CV_64F, const_cast<double*>(row)).clone());
    bx.push_back(static_cast<double>(points[k].x));
    by.push_back(static_cast<double>(points[k].y));
  }
  cv::Mat x, y;
  if (!cv::solve(a, bx, x, cv::DECOMP_SVD) || !cv::solve(a, by, y, cv::DECOMP_SVD)) return false;
  map = cv::Matx33d(x.at<double>(0), x.at<double>(1), x.at<double>(2), y.at<double>(0), y.at<double>(1), y.at<double>(2),
                    0, 0, 1);
  return true;
}

LatticeFit fit_lattice(const std::vector<cv::Point2d>& points, double pitch_hint,
                       const LatticeParams& params) {
  const std::size_t n = points.size();
  LatticeFit fit = unfitted(n);
  if (n == 0) return fit;

  // One point says nothing of the pitch: the likeliest one for the pion's size (pions leave
  // small gaps if any), not the size itself.
  double pitch = n >= 2 ? estimate_pitch(points) : params.expected_pitch_share * pitch_hint;
  double angle = n >= 2 ? estimate_angle(points, pitch) : 0.0;
  // How well the lattice (a, p, t) explains the points near `a`: two for every node holding a
  // point (within a fifth of a pitch; a node counts once), minus one for every point between
  // nodes — a dense cloud of clutter fills the nodes of any lattice but leaves most of its
  // points off them. "Near" is the same disc for every hypothesis, so that coarser lattices
  // do not count more points.
  const double reach = 3.2 * (pitch_hint > 0 ? params.expected_pitch_share * pitch_hint : pitch);
  std::vector<cv::Point> nodes;
  // In pixels, the same for every hypothesis (a coarser lattice must not catch more points by
  // its coarseness): a fifth of the likeliest pitch.
  const double tolerance = 0.22 * (pitch_hint > 0 ? params.expected_pitch_share * pitch_hint : pitch);
  const auto score_at = [&](cv::Point2d origin, double p, double t) {
    const double ct = std::cos(t), st = std::sin(t);
    nodes.clear();
    int off = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const cv::Point2d e = points[k] - origin;
      if (cv::norm(e) > reach) continue;
      const double u = (e.x * ct + e.y * st) / p, v = (-e.x * st + e.y * ct) / p;
      const double ru = std::round(u), rv = std::round(v);
      if (std::hypot(u - ru, v - rv) * p < std::min(tolerance, 0.22 * p)) {
        const cv::Point node(static_cast<int>(ru), static_cast<int>(rv));
        if (std::find(nodes.begin(), nodes.end(), node) == nodes.end()) nodes.push_back(node);
      } else {
        ++off;
      }
    }
    return 2 * static_cast<int>(nodes.size()) - off;
  };
  const auto score = [&](std::size_t a, double p, double t) { return score_at(points[a], p, t); };
  // A hypothesis made from one pair carries that pair's jitter: refit the similarity (pitch,
  // angle, origin) by least squares to the points near enough to its nodes, twice.
  const auto refine = [&](cv::Point2d& origin, double& p, double& t) {
    for (int round = 0; round < 2; ++round) {
      const double ct = std::cos(t), st = std::sin(t);
      cv::Mat a(0, 4, CV_64F), b(0, 1, CV_64F);
      for (std::size_t k = 0; k < n; ++k) {
        const cv::Point2d e = points[k] - origin;
        if (cv::norm(e) > reach) continue;
        const double u = (e.x * ct + e.y * st) / p, v = (-e.x * st + e.y * ct) / p;
        const double ru = std::round(u), rv = std::round(v);
        if (std::hypot(u - ru, v - rv) > 0.35) continue;
        // image = origin-free similarity of the node (ru, rv) in the hypothesis' own axes.
        const double nu = ru * ct - rv * st, nv = ru * st + rv * ct;
        const double row_x[4] = {nu, -nv, 1, 0}, row_y[4] = {nv, nu, 0, 1};
        a.push_back(cv::Mat(1, 4, CV_64F, const_cast<double*>(row_x)).clone());
        a.push_back(cv::Mat(1, 4, CV_64F, const_cast<double*>(row_y)).clone());
        b.push_back(points[k].x);
        b.push_back(points[k].y);
      }
      if (a.rows < 6) return;
      cv::Mat x;
      if (!cv::solve(a, b, x, cv::DECOMP_SVD)) return;
      // x = (s cos d, s sin d, tx, ty): the nodes' unit step scaled by s and turned by d.
      const double sc = x.at<double>(0), ss = x.at<double>(1);
      const double scale = std::hypot(sc, ss);
      if (scale < 0.7 * p || scale > 1.4 * p) return;
      p = scale;
      t = t + std::atan2(ss, sc);
      origin = {x.at<double>(2), x.at<double>(3)};
    }
  };
  // The hypotheses (pitch, angle, the point whose neighbourhood scored it); the best goes first.
  struct Hypothesis {
    int score;
    double pitch, angle;
    std::size_t point;
    int knight = 0;  // from a pair a knight's move apart: which mirror image (+1 or -1)
  };
  std::vector<Hypothesis> hypotheses;
  const double expected = params.expected_pitch_share * pitch_hint;
  if (pitch_hint > 0 && n >= 2) {
    // Other hypotheses from every pair about a pitch apart, as axis or diagonal neighbours:
    // sparse boards have few axis neighbours, and their nearest neighbours may be diagonal.
    // The nearest-neighbour hypothesis competes only when the pion's size allows it (a dense
    // cluster of clutter must not set a lattice finer than a pion).
    if (pitch >= params.hint_range_low * pitch_hint && pitch <= params.hint_range_high * pitch_hint) {
      for (std::size_t a = 0; a < n; ++a) hypotheses.push_back({score(a, pitch, angle), pitch, angle, a});
    }
    for (std::size_t a = 0; a < n; ++a) {
      for (std::size_t b = 0; b < n; ++b) {
        if (a == b) continue;
        const cv::Point2d d = points[b] - points[a];
        const double length = cv::norm(d);
        for (const auto& [steps, turn] : {std::pair{1.0, 0.0}, std::pair{std::sqrt(2.0), CV_PI / 4}}) {
          const double p = length / steps;
          if (p < params.hint_range_low * pitch_hint || p > params.hint_range_high * pitch_hint) continue;
          const double t = std::atan2(d.y, d.x) - turn;
          hypotheses.push_back({score(a, p, t), p, std::remainder(t, CV_PI / 2), a});
        }
      }
    }
    // A sparse board whose pions between were not seen: pairs two steps apart along an axis or
    // a diagonal; when no pair is one step apart, a knight's move too (both mirror images: the
    // pair cannot tell which, so only as a last resort).
    const bool none_near = hypotheses.empty();
    if ((none_near && params.far_pairs > 0) || (params.far_pairs > 1 && n <= kSparsePoints)) {
      const double knight = std::atan2(1.0, 2.0);
      for (std::size_t a = 0; a < n; ++a) {
        for (std::size_t b = 0; b < n; ++b) {
          if (a == b) continue;
          const cv::Point2d d = points[b] - points[a];
          const double length = cv::norm(d);
          for (const auto& [steps, turn] :
               {std::pair{2.0, 0.0}, std::pair{2 * std::sqrt(2.0), CV_PI / 4},
                std::pair{std::sqrt(5.0), knight}, std::pair{std::sqrt(5.0), -knight}}) {
            const double p = length / steps;
            if (p < params.hint_range_low * pitch_hint || p > params.hint_range_high * pitch_hint)
              continue;
            const int mirror = turn == knight ? 1 : turn == -knight ? -1 : 0;
            const double t = std::atan2(d.y, d.x) - turn;
            // A knight's move only as a last resort, or along the square tiles' own edges.
            const bool along_edges = params.edge_knight > 0 &&
                                     params.edge_strength >= params.edge_knight &&
                                     std::abs(std::remainder(t - params.edge_angle, CV_PI / 2)) <
                                         params.edge_knight_turn;
            if (mirror != 0 && !none_near && !along_edges) continue;
            if (mirror != 0 && params.knight_mirror != 0 && mirror != params.knight_mirror)
              continue;
            hypotheses.push_back({score(a, p, t), p, std::remainder(t, CV_PI / 2), a, mirror});
          }
        }
      }
    }
    // Lattices at p and at p*sqrt(2) turned 45 degrees explain a sparse board alike: on a tie,
    // the pitch nearer what the pion's size predicts.
    // A hypothesis is worth its score less a prior on its pitch: pions leave small gaps if any,
    // so a pitch far from the expected one (a 45-degree lattice through diagonal neighbours)
    // must explain clearly more points.
    // Hypotheses of the lattice to avoid (the one read first, when the reader asks for the
    // likeliest other one) are out.
    if (params.avoid_pitch > 0) {
      std::erase_if(hypotheses, [&](const Hypothesis& h) {
        const double turn = std::abs(std::remainder(h.angle - params.avoid_angle, CV_PI / 2));
        return std::abs(std::log(h.pitch / params.avoid_pitch)) < 0.12 && turn < 8 * CV_PI / 180;
      });
    }
    const auto value = [&](const Hypothesis& h) {
      const double turned = 0.5 * (1 - std::cos(4 * (h.angle - params.edge_angle)));
      return h.score - params.pitch_prior * std::abs(std::log(h.pitch / expected)) -
             params.edge_weight * params.edge_strength * turned;
    };
    const auto better = [&](const Hypothesis& x, const Hypothesis& y) {
      if (value(x) != value(y)) return value(x) > value(y);
      return std::abs(x.pitch - expected) < std::abs(y.pitch - expected);
    };
    // The best few, refined and scored again; the best of those goes first.
    const std::size_t keep = std::min<std::size_t>(hypotheses.size(), static_cast<std::size_t>(params.refined));
    std::partial_sort(hypotheses.begin(), hypotheses.begin() + static_cast<std::ptrdiff_t>(keep), hypotheses.end(), better);
    for (std::size_t k = 0; k < keep; ++k) {
      Hypothesis& h = hypotheses[k];
      cv::Point2d origin = points[h.point];
      double p = h.pitch, t = h.angle;
      refine(origin, p, t);
      if (p < params.hint_range_low * pitch_hint || p > params.hint_range_high * pitch_hint) continue;
      const int refined = score_at(origin, p, t);
      if (refined >= h.score) h = {refined, p, std::remainder(t, CV_PI / 2), h.point, h.knight};
    }
    if (keep > 0) {
      std::iter_swap(hypotheses.begin(),
                     std::min_element(hypotheses.begin(), hypotheses.begin() + static_cast<std::ptrdiff_t>(keep), better));
    }
  }
  if (hypotheses.empty() && params.avoid_pitch > 0) return fit;
  if (hypotheses.empty()) hypotheses.push_back({0, pitch, angle, n});
  const Hypothesis& h = hypotheses.front();
  LatticeFit best = complete_fit(points, h.pitch, h.angle, h.point, params);
  best.knight = h.knight;
  best.hypothesis_pitch = h.pitch;
  best.hypothesis_angle = h.angle;
  // A lattice turned 45 degrees at 1/sqrt(2) of the pitch has a node on every node of the true
  // one (and one in the middle of each of its cells): it explains the same points as well, and
  // wins when the pion's width was measured short. Its tell: every point on one colour of its
  // checkerboard (i + j of one parity). Then the coarser lattice through them is the board's,
  // when it keeps as many points. Neither the pitch the width allows nor the edges' angle bound
  // it: the width measured short is what made the finer lattice win, and the edges measured on
  // a checkered cloth are the cloth's.
  if (params.parity_points > 0 && best.inliers >= params.parity_points) {
    int parity = -1;
    bool one_colour = true;
    for (std::size_t k = 0; k < n && one_colour; ++k) {
      if (!best.inlier[k]) continue;
      const int p = ((best.cells[k].x + best.cells[k].y) % 2 + 2) % 2;
      one_colour = parity < 0 || p == parity;
      parity = p;
    }
    const bool along_edges =
        params.parity_edges > 0 && best.inliers <= params.parity_edges_points &&
        params.edge_strength >= params.parity_edges &&
        std::abs(std::remainder(h.angle - params.edge_angle, CV_PI / 2)) < params.edge_knight_turn;
    if (one_colour && !along_edges) {
      const double coarse_angle = std::remainder(h.angle + CV_PI / 4, CV_PI / 2);  // (the axes nearest the image's)
      LatticeFit coarse = complete_fit(points, h.pitch * std::sqrt(2.0), coarse_angle, h.point, params);
      if (coarse.inliers >= best.inliers) {
        coarse.coarsened = true;
        return coarse;
      }
    }
  }
  return best;
}

namespace {

// From a hypothesis (pitch, angle and the point to grow from; n for the most central one),
// the cells of the points and the perspective map through them.
LatticeFit complete_fit(const std::vector<cv::Point2d>& points, double pitch, double angle,
                        std::size_t best_point, const LatticeParams& params) {
  const std::size_t n = points.size();
  if (pitch <= 0) return unfitted(n);

  // The pitch along each axis (foreshortening makes them differ): for each point, the shortest
  // step to another point within 20 degrees of the axis.
  const double ca = std::cos(angle), sa = std::sin(angle);
  const auto axis_pitch = [&](double ux, double uy) {
    std::vector<double> steps;
    for (std::size_t a = 0; a < n; ++a) {
      double best = 1e18;
      for (std::size_t b = 0; b < n; ++b) {
        const cv::Point2d d = points[b] - points[a];
        const double length = cv::norm(d);
        // One step only (a sparse board's axis neighbours may all be two cells away).
        if (a == b || length < 0.7 * pitch || length > 1.45 * pitch) continue;
        if (std::abs(d.x * ux + d.y * uy) / length > std::cos(20 * CV_PI / 180)) best = std::min(best, length);
      }
      if (best < 1e17) steps.push_back(best);
    }
    return steps.empty() ? 0.0 : median(steps);
  };
  double axis_u = axis_pitch(ca, sa);
  double axis_v = axis_pitch(-sa, ca);
  if (axis_u <= 0) axis_u = axis_v > 0 ? axis_v : pitch;
  if (axis_v <= 0) axis_v = axis_u;
  // The cells grow from the point that chose the lattice, or else the most central one.
  std::vector<double> xs, ys;
  for (const auto& p : points) {
    xs.push_back(p.x);
    ys.push_back(p.y);
  }
  const cv::Point2d centre(median(xs), median(ys));
  std::size_t seed = 0;
  for (std::size_t k = 1; k < n; ++k) {
    if (cv::norm(points[k] - centre) < cv::norm(points[seed] - centre)) seed = k;
  }
  if (best_point < n) seed = best_point;
  LatticeFit fit = grow_fit(points, angle, axis_u, axis_v, seed, params);
  // The steps between neighbours can mislead on a sparse board: an axis with no pair a step
  // apart borrows the other's (foreshortened) step, and pions jittered together make a step
  // short; pions a few cells off the seed then fall between cells or are counted a cell too
  // far. The hypothesis' pitch (refitted to all the points near its nodes) grows the cells too,
  // and the fit that holds more points is kept; on a tie, the one whose steps vary less over
  // the board (a wrong count of steps needs a stretched map to hold its points).
  const double apart =
      std::max(std::abs(std::log(axis_u / pitch)), std::abs(std::log(axis_v / pitch)));
  if (params.hypothesis_steps && apart > 0.01) {
    LatticeFit other = grow_fit(points, angle, pitch, pitch, seed, params);
    if (other.inliers > fit.inliers ||
        (other.inliers == fit.inliers && step_ratio(other) < step_ratio(fit))) {
      return other;
    }
  }
  return fit;
}

// Grows the cells from the seed with these steps along the lattice's axes, then fits the map.
LatticeFit grow_fit(const std::vector<cv::Point2d>& points, double angle, double pitch_u,
                    double pitch_v, std::size_t seed, const LatticeParams& params) {
  const std::size_t n = points.size();
  LatticeFit fit = unfitted(n);
  const double ca = std::cos(angle), sa = std::sin(angle);

  // Breadth-first from the seed: a neighbour one step along an axis or a diagonal (by its
  // direction relative to the lattice angle and its length relative to the local pitch) gets
  // the neighbouring cell.
  std::vector<cv::Point> cell(n, {kNoCell, kNoCell});
  std::vector<std::size_t> order = {seed};
  cell[seed] = {0, 0};
  for (std::size_t head = 0; head < order.size(); ++head) {
    const std::size_t a = order[head];
    for (std::size_t b = 0; b < n; ++b) {
      if (cell[b].x != kNoCell) continue;
      const cv::Point2d d = points[b] - points[a];
      // In lattice units, rotated back by the lattice angle.
      const double u = (d.x * ca + d.y * sa) / pitch_u;
      const double v = (-d.x * sa + d.y * ca) / pitch_v;
      const double ru = std::round(u), rv = std::round(v);
      if (std::abs(ru) > 1 || std::abs(rv) > 1 || (ru == 0 && rv == 0)) continue;
      if (std::hypot(u - ru, v - rv) > 0.3) continue;
      cell[b] = {cell[a].x + static_cast<int>(ru), cell[a].y + static_cast<int>(rv)};
      order.push_back(b);
    }
  }

  // Perspective: a homography from the cells to the points, robust to wrong assignments; then
  // every point is (re)assigned to the cell the homography puts nearest, if near enough.
  const auto assign_all = [&] {
    fit.inliers = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const cv::Point2d l = fit.to_lattice(points[k]);
      const cv::Point c(static_cast<int>(std::lround(l.x)), static_cast<int>(std::lround(l.y)));
      const cv::Point2d predicted = fit.to_image(c.x, c.y);
      const double step = 0.5 * (cv::norm(fit.to_image(c.x + 1, c.y) - predicted) +
                                 cv::norm(fit.to_image(c.x, c.y + 1) - predicted));
      fit.inlier[k] = cv::norm(predicted - points[k]) <= params.assign_tolerance * step;
      fit.cells[k] = fit.inlier[k] ? c : cv::Point(kNoCell, kNoCell);
    }
    // Two points on one cell: keep the nearer.
    for (std::size_t a = 0; a < n; ++a) {
      for (std::size_t b = a + 1; b < n; ++b) {
        if (!fit.inlier[a] || !fit.inlier[b] || fit.cells[a] != fit.cells[b]) continue;
        const cv::Point2d c = fit.to_image(fit.cells[a].x, fit.cells[a].y);
        const std::size_t worse = cv::norm(points[a] - c) > cv::norm(points[b] - c) ? a : b;
        fit.inlier[worse] = false;
        fit.cells[worse] = {kNoCell, kNoCell};
      }
    }
    for (std::size_t k = 0; k < n; ++k) fit.inliers += fit.inlier[k];
  };
  // The model through the assigned points, as rich as they allow: a homography when they
  // spread over the plane (8 or more, not along one line), an affine map for fewer, the
  // similarity of the estimated pitches and angle for points along one line (a chain of pions:
  // perspective cannot be told from it).
  const auto refit = [&](const std::vector<cv::Point>& cells) {
    std::vector<cv::Point2f> from, to;
    for (std::size_t k = 0; k < n; ++k) {
      if (cells[k].x == kNoCell) continue;
      from.emplace_back(static_cast<float>(cells[k].x), static_cast<float>(cells[k].y));
      to.emplace_back(static_cast<float>(points[k].x), static_cast<float>(points[k].y));
    }
    const double spread = cell_spread(from);
    const double tolerance = params.assign_tolerance * std::min(pitch_u, pitch_v);
    if (from.size() >= 8 && spread > kHomographySpread) {
      const cv::Mat h = cv::findHomography(from, to, cv::RANSAC, tolerance, cv::noArray(), 500);
      if (!h.empty()) {
        fit.homography = cv::Matx33d(h);
        return;
      }
    }
    if (from.size() >= 3 && spread > kAffineSpread) {
      const cv::Mat a = cv::estimateAffine2D(from, to, cv::noArray(), cv::RANSAC, tolerance);
      if (!a.empty()) {
        fit.homography = cv::Matx33d(a.at<double>(0, 0), a.at<double>(0, 1), a.at<double>(0, 2), a.at<double>(1, 0),
                                     a.at<double>(1, 1), a.at<double>(1, 2), 0, 0, 1);
        return;
      }
    }
    const cv::Point2d u(ca * pitch_u, sa * pitch_u), v(-sa * pitch_v, ca * pitch_v);
    cv::Point2d shift(0, 0);
    for (std::size_t k = 0; k < from.size(); ++k) {
      shift += cv::Point2d(to[k].x, to[k].y) - (u * from[k].x + v * from[k].y);
    }
    if (!from.empty()) shift *= 1.0 / static_cast<double>(from.size());
    fit.homography = cv::Matx33d(u.x, v.x, shift.x, u.y, v.y, shift.y, 0, 0, 1);
  };
  refit(cell);
  for (int round = 0; round < params.iterations; ++round) {
    assign_all();
    refit(fit.cells);
  }
  assign_all();
  fit.found = fit.inliers >= 1;
  // Name the cells from 0 at the top left of the inliers.
  const cv::Point2d at = fit.to_image(0, 0);
  fit.pitch = 0.5 * (cv::norm(fit.to_image(1, 0) - at) + cv::norm(fit.to_image(0, 1) - at));
  return fit;
}

}  // namespace

}  // namespace arbitre::vision
