// The dice reader's shortcuts give the numbers of the plain computation they replace
// (docs/vision.md, "Reading dice"; the speed figures are in docs/benchmarks.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <opencv2/imgproc.hpp>

#include "vision/common/image_io.h"
#include "vision/dice/detector.h"

namespace vd = arbitre::vision::dice;

namespace {

cv::Mat committed_scene(const char* name) {
  return arbitre::vision::load_image(
      (std::filesystem::path(ARBITRE_TEST_DATA) / "dice" / name).string());
}

// refine_centre as it was: the window detector's HOG over every window of the neighbourhood.
cv::Point2d refine_by_windows(const cv::Mat& grey, cv::Point2d centre, double radius,
                              const vd::Params& params, const vd::Model& model) {
  const double f = vd::kWindowRadius / radius;
  const int reach = params.refine_steps * 2;
  const int side = vd::kWindow + 2 * reach + 16;
  const cv::Mat patch = vd::refine_neighbourhood(grey, centre, radius, reach);
  if (patch.empty()) return centre;
  std::vector<cv::Point> at;
  for (int dy = -reach; dy <= reach; dy += 2) {
    for (int dx = -reach; dx <= reach; dx += 2)
      at.emplace_back(side / 2 - vd::kWindow / 2 + dx, side / 2 - vd::kWindow / 2 + dy);
  }
  std::vector<float> descriptors;
  vd::window_hog().compute(patch, descriptors, cv::Size(8, 8), cv::Size(), at);
  const float* w = model.window_weights.ptr<float>();
  double best = -1e18;
  cv::Point2d out = centre;
  for (std::size_t k = 0; k < at.size(); ++k) {
    double s = w[vd::kWindowFeatures];
    for (int i = 0; i < vd::kWindowFeatures; ++i)
      s += w[i] * descriptors[k * vd::kWindowFeatures + static_cast<std::size_t>(i)];
    if (s > best) {
      best = s;
      out = centre + cv::Point2d(at[k].x + vd::kWindow / 2.0 - side / 2.0,
                                 at[k].y + vd::kWindow / 2.0 - side / 2.0) /
                         f;
    }
  }
  return out;
}

}  // namespace

TEST(DiceSpeed, RefineCentreFindsTheSamePeakAsEveryWindowsHog) {
  const vd::Model& model = vd::default_model();
  if (model.empty()) GTEST_SKIP() << "no dice model built in";
  cv::Mat grey;
  cv::cvtColor(committed_scene("0001.jpg"), grey, cv::COLOR_BGR2GRAY);
  cv::RNG rng(11);
  for (int steps : {4, 2, 1}) {
    vd::Params params;
    params.refine_steps = steps;
    for (int i = 0; i < 60; ++i) {
      // Anywhere, near the borders too, at every scan size.
      const cv::Point2d at(rng.uniform(-10.0, grey.cols + 10.0),
                           rng.uniform(-10.0, grey.rows + 10.0));
      const double radius = rng.uniform(15.0, 100.0);
      const cv::Point2d fast = vd::refine_centre(grey, at, radius, params, model);
      const cv::Point2d plain = refine_by_windows(grey, at, radius, params, model);
      EXPECT_EQ(fast.x, plain.x) << at << " r " << radius;
      EXPECT_EQ(fast.y, plain.y) << at << " r " << radius;
    }
  }
}

// Coarse to fine (Params::deferred_levels): the finest level waits for the common die size of
// the others; when dice of its size are possible (always, with a wide size tolerance) the
// reading is the same as scanning all at once, window for window; otherwise none of its
// windows is a candidate.
TEST(DiceSpeed, DeferredFinestLevelIsScannedOnlyForDiceOfItsSize) {
  if (vd::default_model().empty()) GTEST_SKIP() << "no dice model built in";
  const auto expect_same = [](const vd::Detection& a, const vd::Detection& d, const char* name) {
    ASSERT_EQ(d.candidates.size(), a.candidates.size()) << name;
    for (std::size_t k = 0; k < d.candidates.size(); ++k) {
      EXPECT_EQ(d.candidates[k].centre, a.candidates[k].centre) << name;
      EXPECT_EQ(d.candidates[k].presence, a.candidates[k].presence) << name;
      EXPECT_EQ(d.candidates[k].why, a.candidates[k].why) << name;
    }
    ASSERT_EQ(d.observation.dice.size(), a.observation.dice.size()) << name;
    for (std::size_t k = 0; k < d.observation.dice.size(); ++k) {
      EXPECT_EQ(d.observation.dice[k].value, a.observation.dice[k].value) << name;
      EXPECT_EQ(d.observation.dice[k].x, a.observation.dice[k].x) << name;
      EXPECT_EQ(d.observation.dice[k].confidence, a.observation.dice[k].confidence) << name;
    }
  };
  const double finest = vd::Params{}.min_radius * 1280;
  int fallback = 0, skipped = 0;
  for (const char* name :
       {"0000.jpg", "0001.jpg", "0002.jpg", "0003.jpg", "0004.jpg", "0005.jpg"}) {
    const cv::Mat image = committed_scene(name);
    ASSERT_EQ(image.cols, 1280);
    vd::Params all, deferred;
    deferred.deferred_levels = 1;
    const vd::Detection a = vd::detect(image, all), d = vd::detect(image, deferred);
    bool finest_window = false;
    for (const vd::Candidate& c : d.candidates) finest_window |= c.radius < finest * 1.01;
    if (finest_window) {
      ++fallback;
      expect_same(a, d, name);
    } else {
      ++skipped;
    }
    // Any die size goes: the finest level is always scanned, and nothing changes.
    all.size_tolerance = deferred.size_tolerance = 10;
    expect_same(vd::detect(image, all), vd::detect(image, deferred), name);
  }
  std::printf("deferred: %d scenes scanned at every level, %d without the finest\n", fallback,
              skipped);
  EXPECT_GT(skipped, 0);
}

TEST(DiceSpeed, ShrinkAreaIsOpenCVsAreaResizeToTheByte) {
  cv::Mat grey;
  cv::cvtColor(committed_scene("0002.jpg"), grey, cv::COLOR_BGR2GRAY);
  cv::Mat half, quarter;
  cv::resize(grey, half, cv::Size(640, 360), 0, 0, cv::INTER_AREA);
  cv::resize(half, quarter, cv::Size(320, 180), 0, 0, cv::INTER_AREA);
  const auto expect_same = [](const cv::Mat& src, cv::Size size) {
    cv::Mat expected, got;
    cv::resize(src, expected, size, 0, 0, cv::INTER_AREA);
    vd::shrink_area(src, size, got);
    ASSERT_EQ(got.size(), expected.size());
    ASSERT_EQ(got.type(), expected.type());
    EXPECT_EQ(cv::norm(got, expected, cv::NORM_INF), 0) << src.size() << " -> " << size;
  };
  // The scan's levels, from the frame and its half and quarter.
  for (double r = 0.0135 * 1280; r <= 0.075 * 1280 * 1.0001; r *= 1.25) {
    const double f = vd::kWindowRadius / r;
    const cv::Size size(static_cast<int>(std::lround(1280 * f)),
                        static_cast<int>(std::lround(720 * f)));
    expect_same(f <= 0.25 ? quarter : f <= 0.5 ? half : grey, size);
  }
  // Random images and sizes, whole factors (OpenCV's) and colour (OpenCV's) too.
  cv::RNG rng(17);
  for (int i = 0; i < 200; ++i) {
    cv::Mat src(rng.uniform(20, 500), rng.uniform(20, 500), i % 20 == 0 ? CV_8UC3 : CV_8UC1);
    rng.fill(src, cv::RNG::UNIFORM, 0, 256);
    const cv::Size size =
        i % 10 == 0 ? cv::Size(src.cols / 2, src.rows / 2)
                    : cv::Size(rng.uniform(1, src.cols + 1), rng.uniform(1, src.rows + 1));
    expect_same(src, size);
  }
  // Given a factor (the networks' crops: a part of the frame shrunk before it is turned), where
  // OpenCV takes the scale from the factor, not from the sizes.
  for (int i = 0; i < 200; ++i) {
    const cv::Rect part(rng.uniform(0, 600), rng.uniform(0, 300), rng.uniform(60, 300),
                        rng.uniform(60, 300));
    const cv::Mat src = grey(part & cv::Rect(0, 0, grey.cols, grey.rows));
    const double factor = i % 25 == 0 ? 0.5 : rng.uniform(0.05, 0.99);
    cv::Mat expected, got;
    cv::resize(src, expected, cv::Size(), factor, factor, cv::INTER_AREA);
    vd::shrink_area(src, factor, got);
    ASSERT_EQ(got.size(), expected.size()) << src.size() << " x " << factor;
    EXPECT_EQ(cv::norm(got, expected, cv::NORM_INF), 0) << src.size() << " x " << factor;
  }
}
