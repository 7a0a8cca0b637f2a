// Fitting a square lattice seen in perspective to a set of points (pion centres): the
// homography from lattice coordinates (i, j) to image pixels, and the lattice cell of each
// point, with outliers rejected.
#pragma once

#include <opencv2/core.hpp>

#include <cstddef>
#include <vector>

namespace arbitre::vision {

// A board of at most this many points is sparse: its pairs two steps apart propose lattices too
// (LatticeParams::far_pairs 2), and the pion reader holds its pitch nearer its pions' width.
inline constexpr std::size_t kSparsePoints = 8;

struct LatticeParams {
  double assign_tolerance = 0.3;  // a point is on its cell when within this share of the pitch
  int min_points = 3;             // fewer points: no perspective fit, an axis-aligned guess
  int iterations = 4;             // grow-and-refit rounds
  double hint_range_low = 1.0;   // with a pitch hint: the pitches considered, as shares of it
  double hint_range_high = 2.2;
  double expected_pitch_share = 1.45;  // the likeliest pitch, as a share of the hint
  int parity_points = 6;          // from this many points all on one parity of i + j, the lattice sqrt(2) coarser and turned 45 degrees is taken (0: never)
  // Sparse boards whose pions between were not seen: pairs two steps apart along an axis or a
  // diagonal propose lattices too (1: only when no pair is one step apart for a pitch the hint
  // allows; 2: also whenever there are at most kSparsePoints), and a knight's move (both mirror
  // images) when no pair is one step apart. 0: never.
  int far_pairs = 2;
  double avoid_pitch = 0, avoid_angle = 0;  // hypotheses within 12% of this pitch and 8 degrees of
                                            // this angle are out (0: none)
  int knight_mirror = 0;  // only the knight's moves of this mirror image (+1 or -1; 0: both)
  // The cells grown with the hypothesis' own pitch too when the axes' steps measured between
  // neighbours differ from it, and that fit kept when it holds more points, or as many with
  // steps more even over the board.
  bool hypothesis_steps = true;
  int refined = 12;               // the best hypotheses refitted by least squares before the choice
  double pitch_prior = 10;        // score points a hypothesis loses per unit of |ln(pitch / expected)|
  // The pieces' own edges, when they have straight ones (square tiles): the angle of their
  // sides modulo 90 degrees (radians) and how clearly they show one, 0 (discs) to 1. A
  // hypothesis turned away from it loses up to edge_weight x edge_strength points (at 45
  // degrees: a lattice through diagonal neighbours).
  double edge_angle = 0;
  double edge_strength = 0;
  double edge_weight = 8;
  // A pair a knight's move apart proposes a lattice beside nearer pairs too when the tiles' edges
  // show at least this strength and the lattice lies within edge_knight_turn (radians) of their
  // angle: two tiles a knight's move apart also fit as diagonal neighbours at a pitch 1.58 times
  // larger, 18 degrees off their edges (0: only as a last resort).
  double edge_knight = 0;
  double edge_knight_turn = 0.1;
  // Square tiles touching at their corners (a checkerboard of pions) also have every point on
  // one parity: the finer lattice is kept when the tiles' edges show at least this strength and
  // it lies within edge_knight_turn of their angle (0: the parity rule regardless of edges), and
  // it holds at most parity_edges_points points (a board's cells of one parity: 18 of a 5 x 7
  // board; more, and they are a checkered cloth's squares, whose edges are as straight).
  double parity_edges = 0;
  int parity_edges_points = 18;
};

struct LatticeFit {
  bool found = false;
  cv::Matx33d homography = cv::Matx33d::eye();  // lattice (i = column, j = row) -> image
  double pitch = 0;                             // pixels between neighbours near the centre
  std::vector<cv::Point> cells;                 // per input point: (i, j), or (INT_MIN, INT_MIN)
  std::vector<bool> inlier;                     // per input point
  int inliers = 0;
  // The hypothesis it grew from (pitch and angle before the refit).
  double hypothesis_pitch = 0, hypothesis_angle = 0;
  // Whether the fit took the lattice sqrt(2) coarser and turned 45 degrees because every point
  // lay on one colour of the finer one's checkerboard (LatticeParams::parity_points).
  bool coarsened = false;
  // It came from a pair a knight's move apart: which mirror image (+1 or -1; 0: not so).
  int knight = 0;

  cv::Point2d to_image(double i, double j) const;
  cv::Point2d to_lattice(cv::Point2d image) const;
};

// How far cells spread over the plane: the smaller eigenvalue of their covariance (0 for cells
// along one line, or fewer than 3). A map through cells and their points is a homography only
// from 8 cells spread more than kHomographySpread, an affine map only from 3 spread more than
// kAffineSpread: flatter cells do not fix the map across their line.
inline constexpr double kHomographySpread = 0.4;
inline constexpr double kAffineSpread = 0.15;
double cell_spread(const std::vector<cv::Point2f>& cells);

// The map from lattice cells to their points by least squares over all of them: a homography
// from 8 cells spread more than kHomographySpread, else an affine map from 3 spread more than
// kAffineSpread. False (and `map` untouched) when the cells fix neither.
bool least_squares_map(const std::vector<cv::Point2f>& cells, const std::vector<cv::Point2f>& points,
                       cv::Matx33d& map);

// Fits the lattice. `pitch_hint` (pixels, 0 = unknown) helps with very few points. Axes are
// chosen so that j (rows) runs closest to the image's downward direction and i (columns) to
// its right.
LatticeFit fit_lattice(const std::vector<cv::Point2d>& points, double pitch_hint = 0,
                       const LatticeParams& params = {});

}  // namespace arbitre::vision
