// The flattened forest (vision/common/forest.h) votes exactly as cv::ml::RTrees::getVotes: on a
// small forest trained here, and on the dice model's forests with crops of a committed scene.
#include "vision/common/forest.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <opencv2/imgproc.hpp>

#include "vision/common/image_io.h"
#include "vision/dice/detector.h"

namespace arbitre::vision {
namespace {

void expect_same_votes(const cv::Ptr<cv::ml::RTrees>& forest, const cv::Mat& samples) {
  cv::Mat expected;
  forest->getVotes(samples, expected, 0);
  const cv::Mat got = forest_votes(forest, samples);
  ASSERT_EQ(got.size(), expected.size());
  ASSERT_EQ(got.type(), expected.type());
  EXPECT_EQ(cv::countNonZero(got != expected), 0);
}

TEST(DiceFlatForest, VotesAsOpenCVOnASmallForest) {
  cv::RNG rng(3);
  cv::Mat x(600, 5, CV_32F);
  std::vector<int> y;
  for (int i = 0; i < x.rows; ++i) {
    for (int j = 0; j < x.cols; ++j) x.at<float>(i, j) = static_cast<float>(rng.uniform(-1.0, 1.0));
    const float* r = x.ptr<float>(i);
    y.push_back(r[0] * r[1] > 0 ? 3 : r[2] > 0.3f ? 7 : 1);  // labels not 0..n-1
  }
  cv::Ptr<cv::ml::RTrees> forest = cv::ml::RTrees::create();
  forest->setMaxDepth(8);
  forest->setTermCriteria(cv::TermCriteria(cv::TermCriteria::MAX_ITER, 15, 0));
  forest->train(cv::ml::TrainData::create(x, cv::ml::ROW_SAMPLE, cv::Mat(y, true)));
  ASSERT_TRUE(FlatForest(*forest).usable());
  cv::Mat test(97, 5, CV_32F);
  rng.fill(test, cv::RNG::UNIFORM, -1.2, 1.2);
  test.at<float>(5, 0) = FLT_MAX;  // a missing value goes the node's default way
  expect_same_votes(forest, test);
  expect_same_votes(forest, test.rowRange(0, 1).clone());
  // Another forest at the same place is not answered from the first one's cache.
  cv::Ptr<cv::ml::RTrees> other = cv::ml::RTrees::create();
  other->setMaxDepth(3);
  other->setTermCriteria(cv::TermCriteria(cv::TermCriteria::MAX_ITER, 5, 0));
  other->train(cv::ml::TrainData::create(x, cv::ml::ROW_SAMPLE, cv::Mat(y, true)));
  expect_same_votes(other, test);
  forest.release();
  expect_same_votes(other, test);
}

TEST(DiceFlatForest, VotesAsOpenCVOnTheDiceModel) {
  const dice::Model& model = dice::default_model();
  if (model.empty()) GTEST_SKIP() << "no dice model built in";
  const cv::Mat image =
      load_image((std::filesystem::path(ARBITRE_TEST_DATA) / "dice" / "0000.jpg").string());
  cv::Mat samples(60, dice::kFaceFeatures, CV_32F);
  cv::RNG rng(5);
  for (int r = 0; r < samples.rows; ++r) {
    const cv::Point2d at(rng.uniform(40.0, image.cols - 40.0),
                         rng.uniform(40.0, image.rows - 40.0));
    dice::face_features(
        dice::face_crop(image, at, rng.uniform(15.0, 80.0), rng.uniform(0.0, 360.0)),
        samples.ptr<float>(r));
  }
  for (const auto* forest : {&model.reader, &model.digits, &model.cocked}) {
    if (!*forest) continue;
    EXPECT_TRUE(FlatForest(**forest).usable());
    expect_same_votes(*forest, samples);
  }
}

}  // namespace
}  // namespace arbitre::vision
