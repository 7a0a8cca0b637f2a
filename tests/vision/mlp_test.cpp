#include "vision/common/mlp.h"

#include <gtest/gtest.h>

#include <cmath>
#include <opencv2/core.hpp>

namespace arbitre::vision {
namespace {

// Two classes no straight line separates (XOR of the signs of x and y), in 6 dimensions of
// which 4 are noise at very different scales (the standardisation's job), and a third class
// near the origin.
void make_data(int n, unsigned seed, cv::Mat& x, std::vector<int>& y) {
  cv::RNG rng(seed);
  x.create(n, 6, CV_32F);
  y.clear();
  for (int i = 0; i < n; ++i) {
    float* r = x.ptr<float>(i);
    const int label = i % 3;
    double a, b;
    if (label == 2) {
      a = rng.gaussian(0.15), b = rng.gaussian(0.15);
    } else {
      const int quadrant = rng.uniform(0, 2);
      const double sa = quadrant ? 1 : -1, sb = label == 0 ? sa : -sa;
      a = sa * rng.uniform(0.5, 1.5), b = sb * rng.uniform(0.5, 1.5);
    }
    r[0] = static_cast<float>(a * 1000);  // a feature in other units
    r[1] = static_cast<float>(b);
    r[2] = static_cast<float>(rng.gaussian(50));
    r[3] = static_cast<float>(rng.gaussian(0.01));
    r[4] = 7;  // constant
    r[5] = static_cast<float>(rng.uniform(-1.0, 1.0));
    y.push_back(label);
  }
}

double accuracy(const Mlp& mlp, const cv::Mat& x, const std::vector<int>& y) {
  const cv::Mat p = mlp.probabilities(x);
  int right = 0;
  for (int i = 0; i < x.rows; ++i) {
    cv::Point best;
    cv::minMaxLoc(p.row(i), nullptr, nullptr, nullptr, &best);
    right += best.x == y[static_cast<std::size_t>(i)];
  }
  return static_cast<double>(right) / x.rows;
}

TEST(Mlp, LearnsClassesNoLineSeparates) {
  cv::Mat x, test_x;
  std::vector<int> y, test_y;
  make_data(1500, 1, x, y);
  make_data(600, 2, test_x, test_y);
  MlpTraining training;
  training.hidden = {16};
  training.epochs = 40;
  training.rate = 0.02;
  const Mlp mlp = train_mlp(x, y, 3, training);
  EXPECT_EQ(mlp.inputs(), 6);
  EXPECT_EQ(mlp.classes(), 3);
  EXPECT_GT(accuracy(mlp, test_x, test_y), 0.95);
  // Without a hidden layer it is a linear classifier: XOR is out of its reach.
  training.hidden.clear();
  EXPECT_LT(accuracy(train_mlp(x, y, 3, training), test_x, test_y), 0.8);
}

TEST(Mlp, ProbabilitiesSumToOne) {
  cv::Mat x;
  std::vector<int> y;
  make_data(300, 3, x, y);
  MlpTraining training;
  training.hidden = {8, 8};
  training.epochs = 5;
  const cv::Mat p = train_mlp(x, y, 3, training).probabilities(x);
  ASSERT_EQ(p.rows, x.rows);
  for (int i = 0; i < p.rows; ++i) {
    EXPECT_NEAR(cv::sum(p.row(i))[0], 1.0, 1e-5);
    for (int c = 0; c < 3; ++c) EXPECT_GE(p.at<float>(i, c), 0.0f);
  }
}

TEST(Mlp, SameSeedSameNetworkAndStorageRoundTrip) {
  cv::Mat x;
  std::vector<int> y;
  make_data(300, 4, x, y);
  MlpTraining training;
  training.hidden = {8};
  training.epochs = 3;
  const Mlp a = train_mlp(x, y, 3, training), b = train_mlp(x, y, 3, training);
  EXPECT_EQ(cv::norm(a.probabilities(x), b.probabilities(x), cv::NORM_INF), 0.0);
  cv::FileStorage out(".yml", cv::FileStorage::WRITE | cv::FileStorage::MEMORY);
  write_mlp(out, "net", a);
  const std::string text = out.releaseAndGetString();
  cv::FileStorage in(text, cv::FileStorage::READ | cv::FileStorage::MEMORY);
  const Mlp back = read_mlp(in["net"]);
  ASSERT_FALSE(back.empty());
  EXPECT_LT(cv::norm(a.probabilities(x), back.probabilities(x), cv::NORM_INF), 1e-6);
}

TEST(Mlp, AMalformedNodeReadsAsNoNetwork) {
  cv::FileStorage in("%YAML:1.0\nnet: {mean: 3, layers: [1]}\nthird: {mean: 3, layers: [{w: 1}]}\nother: [1, 2]\n",
                     cv::FileStorage::READ | cv::FileStorage::MEMORY);
  EXPECT_TRUE(read_mlp(in["net"]).empty());
  EXPECT_TRUE(read_mlp(in["third"]).empty());
  EXPECT_TRUE(read_mlp(in["other"]).empty());
  EXPECT_TRUE(read_mlp(in["absent"]).empty());
  // Layers whose shapes do not chain.
  cv::FileStorage out(".yml", cv::FileStorage::WRITE | cv::FileStorage::MEMORY);
  Mlp bad;
  bad.mean = cv::Mat::zeros(1, 4, CV_32F);
  bad.scale = cv::Mat::ones(1, 4, CV_32F);
  bad.weights = {cv::Mat::zeros(4, 5, CV_32F), cv::Mat::zeros(6, 2, CV_32F)};
  bad.biases = {cv::Mat::zeros(1, 5, CV_32F), cv::Mat::zeros(1, 2, CV_32F)};
  write_mlp(out, "net", bad);
  cv::FileStorage again(out.releaseAndGetString(), cv::FileStorage::READ | cv::FileStorage::MEMORY);
  EXPECT_TRUE(read_mlp(again["net"]).empty());
}

}  // namespace
}  // namespace arbitre::vision
