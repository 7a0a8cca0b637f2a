// The lattice fit on synthetic point sets: perspective, rotation, jitter, outliers, holes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <random>

#include "vision/common/lattice.h"

namespace v = arbitre::vision;

namespace {

struct Scene {
  std::vector<cv::Point2d> points;
  std::vector<cv::Point> truth;  // lattice cell of each point; (-99, -99) for an outlier
};

// A board of `cells` seen through `h` (lattice -> image), with jitter and outliers.
Scene make_scene(const std::vector<cv::Point>& cells, const cv::Matx33d& h, double jitter, int outliers,
                 std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0, jitter);
  std::uniform_real_distribution<double> across(-4, 10), down(-4, 8);
  Scene s;
  for (const cv::Point& c : cells) {
    const cv::Vec3d q = h * cv::Vec3d(c.x, c.y, 1);
    s.points.emplace_back(q[0] / q[2] + noise(rng), q[1] / q[2] + noise(rng));
    s.truth.push_back(c);
  }
  for (int k = 0; k < outliers;) {
    // Outliers (a cup, a pencil, a stain) around the board, off the lattice points.
    const double x = std::floor(across(rng)) + 0.5, y = std::floor(down(rng)) + 0.5;
    if (x > -1.5 && x < 7.5 && y > -1.5 && y < 5.5) continue;
    ++k;
    const cv::Vec3d q = h * cv::Vec3d(x, y, 1);
    s.points.emplace_back(q[0] / q[2], q[1] / q[2]);
    s.truth.emplace_back(-99, -99);
  }
  return s;
}

// Checks the fit recovers every true cell up to one translation and rejects the outliers.
void expect_recovered(const Scene& s, const v::LatticeFit& fit) {
  ASSERT_TRUE(fit.found);
  std::map<std::pair<int, int>, int> offsets;
  for (std::size_t k = 0; k < s.points.size(); ++k) {
    if (s.truth[k].x == -99) {
      EXPECT_FALSE(fit.inlier[k]) << "outlier " << k << " taken as a pion";
      continue;
    }
    ASSERT_TRUE(fit.inlier[k]) << "point " << k << " lost";
    ++offsets[{fit.cells[k].x - s.truth[k].x, fit.cells[k].y - s.truth[k].y}];
  }
  EXPECT_EQ(offsets.size(), 1u) << "cells not consistent with one translation";
}

// A 5x7 board with a hole pattern, as pions leave on the table.
std::vector<cv::Point> board() {
  std::vector<cv::Point> cells;
  for (int j = 0; j < 5; ++j) {
    for (int i = 0; i < 7; ++i) {
      if ((i * 3 + j * 5) % 7 != 0) cells.emplace_back(i, j);
    }
  }
  return cells;
}

cv::Matx33d similarity(double pitch, double degrees, cv::Point2d origin) {
  const double a = degrees * CV_PI / 180;
  return {pitch * std::cos(a), -pitch * std::sin(a), origin.x, pitch * std::sin(a), pitch * std::cos(a), origin.y, 0, 0, 1};
}

}  // namespace

TEST(Lattice, AxisAlignedBoardIsRecovered) {
  const Scene s = make_scene(board(), similarity(40, 0, {150, 100}), 0.5, 0, 1);
  expect_recovered(s, v::fit_lattice(s.points));
  EXPECT_NEAR(v::fit_lattice(s.points).pitch, 40, 1.0);
}

TEST(Lattice, RotatedBoardIsRecoveredWithRowsDownTheImage) {
  const Scene s = make_scene(board(), similarity(36, 23, {200, 80}), 0.8, 0, 2);
  const v::LatticeFit fit = v::fit_lattice(s.points);
  expect_recovered(s, fit);
  // Rows run closest to the image's downward direction: the j axis points down.
  const cv::Point2d down = fit.to_image(0, 1) - fit.to_image(0, 0);
  EXPECT_GT(down.y, std::abs(down.x));
}

// The homography of a pinhole camera (focal length f pixels, image centre c) looking at the
// board's centre from `distance` pitches away, tilted `tilt` degrees from vertical and turned
// `yaw` degrees about the vertical: lattice (i, j) -> pixels.
cv::Matx33d camera(double tilt, double yaw, double distance, double f, cv::Point2d c) {
  const double t = tilt * CV_PI / 180, y = yaw * CV_PI / 180;
  const cv::Vec3d target(3, 2, 0);  // the centre of the 7x5 board, in pitches
  const cv::Vec3d eye = target + distance * cv::Vec3d(std::sin(t) * std::sin(y), std::sin(t) * std::cos(y), -std::cos(t));
  const cv::Vec3d forward = cv::normalize(target - eye);
  const cv::Vec3d right = cv::normalize(cv::Vec3d(std::cos(y), -std::sin(y), 0));
  const cv::Vec3d down = forward.cross(right);
  const cv::Matx33d r(right[0], right[1], right[2], down[0], down[1], down[2], forward[0], forward[1], forward[2]);
  const cv::Vec3d tr = -(r * eye);
  const cv::Matx33d k(f, 0, c.x, 0, f, c.y, 0, 0, 1);
  // Columns: the world x and y axes in camera coordinates, and the translation.
  const cv::Matx33d rt(r(0, 0), r(0, 1), tr[0], r(1, 0), r(1, 1), tr[1], r(2, 0), r(2, 1), tr[2]);
  return k * rt;
}

TEST(Lattice, PerspectiveOfThirtyFiveDegreesIsRecovered) {
  for (const double yaw : {0.0, 15.0, -25.0}) {
    const Scene s = make_scene(board(), camera(35, yaw, 14, 600, {320, 240}), 0.6, 3, 3);
    SCOPED_TRACE("yaw " + std::to_string(yaw));
    expect_recovered(s, v::fit_lattice(s.points));
  }
}

TEST(Lattice, OutliersAreRejected) {
  const Scene s = make_scene(board(), similarity(42, -12, {160, 120}), 0.8, 6, 4);
  expect_recovered(s, v::fit_lattice(s.points));
}

TEST(Lattice, FewPointsStillGetCells) {
  const Scene s = make_scene({{0, 0}, {1, 0}, {1, 1}}, similarity(50, 5, {300, 200}), 0.3, 0, 5);
  expect_recovered(s, v::fit_lattice(s.points));
  const Scene one = make_scene({{0, 0}}, similarity(50, 0, {300, 200}), 0, 0, 6);
  const v::LatticeFit fit = v::fit_lattice(one.points, 50);
  EXPECT_TRUE(fit.found);
  EXPECT_EQ(fit.inliers, 1);
}

// Two pions whose neighbours between them were not seen, 48-pixel pitch, 40 pixels wide (the
// pitches considered: 34-72, the likeliest 50). Two steps along a row they are 96 apart: before,
// only a lattice through them as diagonal neighbours (68) fitted; two steps along a diagonal, 136
// apart, none did, and the pitch became their distance. Now pairs two steps apart propose
// lattices too, and the one at the pitch the size predicts wins.
TEST(Lattice, TwoPointsTwoStepsApartGetThePitchTheirSizeAllows) {
  v::LatticeParams params;
  params.expected_pitch_share = 1.25;
  for (const cv::Point far : {cv::Point(2, 0), cv::Point(2, 2)}) {
    const Scene s = make_scene({{0, 0}, far}, similarity(48, 10, {300, 200}), 0.3, 0, 7);
    params.far_pairs = 0;
    const v::LatticeFit before = v::fit_lattice(s.points, 40, params);
    EXPECT_GT(before.pitch, 60)
        << "without far pairs: the pitch is the pair's distance or its diagonal";
    params.far_pairs = 2;
    const v::LatticeFit fit = v::fit_lattice(s.points, 40, params);
    EXPECT_NEAR(fit.pitch, 48, 2) << far;
    expect_recovered(s, fit);
  }
}

// Two pions a knight's move apart (one row and two columns), too far apart to be neighbours:
// two lattices at the likeliest pitch fit them, mirror images of each other, 53 degrees apart.
// The fit says which it took, and takes the other when asked.
TEST(Lattice, AKnightsMoveHasTwoMirrorImages) {
  const Scene s = make_scene({{0, 0}, {2, 1}}, similarity(50, 12, {300, 200}), 0.3, 0, 8);
  v::LatticeParams
      params;  // as the pion reader sets them: pitches 34-72 for a 40-pixel pion, 50 likeliest
  params.expected_pitch_share = 1.25;
  params.hint_range_low = 0.85;
  params.hint_range_high = 1.8;
  const v::LatticeFit first = v::fit_lattice(s.points, 40, params);
  ASSERT_NE(first.knight, 0);
  params.knight_mirror = -first.knight;
  const v::LatticeFit second = v::fit_lattice(s.points, 40, params);
  EXPECT_EQ(second.knight, -first.knight);
  int recovered = 0;
  for (const v::LatticeFit* fit : {&first, &second}) {
    EXPECT_EQ(fit->inliers, 2);
    EXPECT_NEAR(fit->pitch, 50, 2);
    const cv::Point step = fit->cells[1] - fit->cells[0];
    EXPECT_EQ(std::abs(step.x) + std::abs(step.y), 3) << "a knight's move either way";
    recovered += step == cv::Point(2, 1);
  }
  EXPECT_EQ(recovered, 1) << "one of the two is the board's lattice";
}

namespace {

// The lattice fit's settings as the pion reader sets them, with square tiles' edges showing
// plainly at `degrees`.
v::LatticeParams square_tiles(double degrees) {
  v::LatticeParams params;
  params.expected_pitch_share = 1.25;
  params.hint_range_low = 0.85;
  params.hint_range_high = 1.8;
  params.edge_weight = 6;
  params.edge_angle = degrees * CV_PI / 180;
  params.edge_strength = 1;
  return params;
}

}  // namespace

// Two touching square tiles a knight's move apart (the tile between them not seen), 40-pixel
// pitch, 38 pixels wide: they fit as diagonal neighbours at a pitch of 63 or as two steps along
// an axis at 45 (both within the 32-68 the width allows), and a knight's move was tried only when
// no pair fitted nearer. The tiles' own edges say the lattice runs at 10 degrees, 18 and 27
// degrees from those two: a knight's move along them is proposed too (`edge_knight`), and wins.
TEST(Lattice, AKnightsMoveAlongTheTilesEdgesIsProposedBesideNearerPairs) {
  const Scene s = make_scene({{0, 0}, {2, 1}}, similarity(40, 10, {300, 200}), 0.3, 0, 11);
  v::LatticeParams params = square_tiles(10);
  const v::LatticeFit before = v::fit_lattice(s.points, 38, params);
  EXPECT_GT(before.pitch, 44) << "without: diagonal neighbours, or two steps along an axis";
  params.edge_knight = 0.3;
  const v::LatticeFit fit = v::fit_lattice(s.points, 38, params);
  EXPECT_NEAR(fit.pitch, 40, 2);
  EXPECT_EQ(fit.cells[1] - fit.cells[0], cv::Point(2, 1)) << "the mirror image along the edges";
  // Edges too faint (discs, or a cloth's pattern) leave the knight's move a last resort.
  params.edge_strength = 0.2;
  EXPECT_GT(v::fit_lattice(s.points, 38, params).pitch, 44);
}

// The likeliest other lattice: with the first one's hypothesis avoided (two pions two steps
// apart along a row), the fit takes another of a different pitch or angle that holds them both.
TEST(Lattice, TheLikeliestOtherLatticeAvoidsTheFirst) {
  const Scene s = make_scene({{0, 0}, {2, 0}}, similarity(50, 10, {300, 200}), 0.3, 0, 9);
  v::LatticeParams params;
  params.expected_pitch_share = 1.25;
  params.hint_range_low = 0.85;
  params.hint_range_high = 1.8;
  const v::LatticeFit first = v::fit_lattice(s.points, 40, params);
  ASSERT_TRUE(first.found);
  EXPECT_NEAR(first.pitch, 50, 2);
  params.avoid_pitch = first.hypothesis_pitch;
  params.avoid_angle = first.hypothesis_angle;
  const v::LatticeFit other = v::fit_lattice(s.points, 40, params);
  ASSERT_TRUE(other.found);
  const double turn =
      std::abs(std::remainder(other.hypothesis_angle - first.hypothesis_angle, CV_PI / 2));
  EXPECT_TRUE(std::abs(std::log(other.hypothesis_pitch / first.hypothesis_pitch)) >= 0.12 ||
              turn >= 8 * CV_PI / 180);
  EXPECT_EQ(other.inliers, 2);
}

TEST(Lattice, EmptyInputFindsNothing) { EXPECT_FALSE(v::fit_lattice({}).found); }

// Two tiles touching corner to corner, 50 pixels apart along the diagonal, with a size that
// makes a lattice through them as axis neighbours (pitch 70.7, turned 45 degrees) the likelier
// pitch: the tiles' own straight edges along the image's axes say the lattice is not turned, so
// they are diagonal neighbours of a 50-pixel lattice.
TEST(Lattice, SquareTilesEdgesSayWhetherNeighboursAreDiagonal) {
  const std::vector<cv::Point2d> points{{400, 300}, {450, 350}};
  v::LatticeParams params;
  params.expected_pitch_share = 1.45;
  const double hint = 48;  // likeliest pitch 69.6
  const v::LatticeFit plain = v::fit_lattice(points, hint, params);
  ASSERT_TRUE(plain.found);
  EXPECT_NEAR(plain.pitch, 70.7, 3);
  EXPECT_EQ(std::abs(plain.cells[1].x - plain.cells[0].x) + std::abs(plain.cells[1].y - plain.cells[0].y), 1);

  params.edge_angle = 0;
  params.edge_strength = 1;
  const v::LatticeFit squares = v::fit_lattice(points, hint, params);
  ASSERT_TRUE(squares.found);
  EXPECT_NEAR(squares.pitch, 50, 3);
  EXPECT_EQ(squares.cells[1] - squares.cells[0], cv::Point(1, 1));

  // Edges turned 45 degrees agree with the axis neighbours.
  params.edge_angle = CV_PI / 4;
  EXPECT_NEAR(v::fit_lattice(points, hint, params).pitch, 70.7, 3);
  // Discs (no straight edges) leave the choice to the pitch.
  params.edge_strength = 0;
  params.edge_angle = 0;
  EXPECT_NEAR(v::fit_lattice(points, hint, params).pitch, 70.7, 3);
}

// A board with pions on both parities of i + j, its pion width measured short (the likeliest
// pitch about 1/sqrt(2) of the true one): the lattice turned 45 degrees at pitch / sqrt(2) has a
// node on every pion and wins on the pitch, with every pion on one parity of its cells. The
// parity says it is the coarser one; with the rule off, the finer lattice stays.
TEST(Lattice, AllPointsOnOneParityMeanTheCoarserLatticeTurned) {
  const Scene s = make_scene(board(), similarity(40, 30, {300, 120}), 0.5, 0, 8);
  v::LatticeParams params;
  params.expected_pitch_share = 1.25;
  const double hint = 22;  // likeliest pitch 27.5, near 40 / sqrt(2) = 28.3
  params.parity_points = 0;
  const v::LatticeFit fine = v::fit_lattice(s.points, hint, params);
  ASSERT_TRUE(fine.found);
  EXPECT_NEAR(fine.pitch, 28.3, 1.5) << "without the rule the finer lattice wins";
  EXPECT_FALSE(fine.coarsened);
  std::set<int> parities;
  for (std::size_t k = 0; k < s.points.size(); ++k) {
    if (fine.inlier[k]) parities.insert(((fine.cells[k].x + fine.cells[k].y) % 2 + 2) % 2);
  }
  EXPECT_EQ(parities.size(), 1u);

  params.parity_points = 6;
  const v::LatticeFit fit = v::fit_lattice(s.points, hint, params);
  EXPECT_NEAR(fit.pitch, 40, 1.5);
  EXPECT_TRUE(fit.coarsened) << "the fit says the parity rule made it coarser";
  expect_recovered(s, fit);
  const cv::Point2d down = fit.to_image(0, 1) - fit.to_image(0, 0);
  EXPECT_GT(down.y, std::abs(down.x)) << "rows still run down the image";

  // A diagonal chain of five pions (all on one parity of the true lattice too) stays diagonal:
  // the rule needs six (a longer chain would be read as a straight line: the known price).
  const Scene chain = make_scene({{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}}, similarity(40, 0, {300, 120}), 0.3, 0, 9);
  const v::LatticeFit diagonal = v::fit_lattice(chain.points, 32, params);
  expect_recovered(chain, diagonal);
  EXPECT_NEAR(diagonal.pitch, 40, 1.5);
  EXPECT_FALSE(diagonal.coarsened);
}

// Square tiles touching only at their corners (a checkerboard of pions, 40-pixel pitch and
// tiles as wide, turned 12 degrees): every pion is on one parity of the true lattice, and the
// parity rule took the lattice sqrt(2) coarser and turned 45 degrees. When the tiles' edges show
// plainly along the finer lattice (`parity_edges`), it is the board's.
TEST(Lattice, TilesTouchingAtTheirCornersKeepTheLatticeAlongTheirEdges) {
  const Scene s = make_scene({{1, 0}, {3, 0}, {0, 1}, {2, 1}, {1, 2}, {3, 2}, {0, 3}, {2, 3}},
                             similarity(40, 12, {300, 200}), 0.3, 0, 8);
  v::LatticeParams params = square_tiles(12);
  EXPECT_NEAR(v::fit_lattice(s.points, 40, params).pitch, 56.6, 2.5)
      << "without: the coarser lattice";
  params.parity_edges = 0.7;
  const v::LatticeFit fit = v::fit_lattice(s.points, 40, params);
  EXPECT_NEAR(fit.pitch, 40, 1.5);
  expect_recovered(s, fit);
  // Edges fainter than that (discs, a cloth's pattern) leave the parity rule as it was.
  params.edge_strength = 0.5;
  EXPECT_NEAR(v::fit_lattice(s.points, 40, params).pitch, 56.6, 2.5);
  // More points on one parity than a 5 x 7 board holds (18) are a checkered cloth's squares,
  // whose edges are as straight: the parity rule stands (seed 64's scene 32, 35 phantoms).
  params.edge_strength = 1;
  std::vector<cv::Point> squares;
  for (int j = 0; j < 5; ++j) {
    for (int i = 0; i < 8; ++i) {
      if ((i + j) % 2 == 0) squares.emplace_back(i, j);
    }
  }
  const Scene cloth = make_scene(squares, similarity(40, 12, {300, 200}), 0.3, 0, 8);
  ASSERT_EQ(cloth.points.size(), 20u);
  EXPECT_NEAR(v::fit_lattice(cloth.points, 40, params).pitch, 56.6, 2.5);
}

// A sparse board seen 34 degrees from vertical (seed 30's scene 51 of the rendered sets: four
// pions, the candidates' centres as the pion reader found them at half size; pitch 38 across,
// 31.5 down the image, pions 28 wide). The hypothesis has the right pitch, but the cells were
// grown with the steps measured between neighbours: down the image one pair is a step apart
// (30.4, foreshortened), across none is, and that axis borrowed the other's step: the two pions
// one row below and one column to either side fell between cells and were lost. Grown with the
// hypothesis' own pitch too, the fit that holds more points is kept.
TEST(Lattice, CellsAreGrownWithTheHypothesisPitchWhenTheNeighboursStepsHoldFewerPoints) {
  Scene s;
  s.points = {{272.4, 122.5}, {279.6, 152.0}, {330.9, 180.8}, {242.9, 193.6}};
  s.truth = {{1, 1}, {1, 2}, {2, 3}, {0, 3}};
  v::LatticeParams params;  // as the pion reader sets them
  params.expected_pitch_share = 1.25;
  params.hint_range_low = 0.85;
  params.hint_range_high = 1.8;
  params.hypothesis_steps = false;
  const v::LatticeFit before = v::fit_lattice(s.points, 28, params);
  ASSERT_TRUE(before.found);
  EXPECT_EQ(before.inliers, 2) << "grown with the neighbours' steps only, two pions are lost";
  params.hypothesis_steps = true;
  const v::LatticeFit fit = v::fit_lattice(s.points, 28, params);
  expect_recovered(s, fit);
  EXPECT_NEAR(fit.hypothesis_pitch, 38, 2);
}
