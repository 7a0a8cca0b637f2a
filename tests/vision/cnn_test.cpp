#include "vision/common/cnn.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <string>
#include <vector>

namespace arbitre::vision {
namespace {

// 16x16 grey images: a small plus sign (class 0), a small cross (class 1) or a hollow square
// (class 2), drawn anywhere, at any brightness and contrast, on noise. The position varies, so
// a model must find the shape wherever it is; the contrast varies, so the standardisation counts.
void make_shapes(int n, unsigned seed, cv::Mat& images, std::vector<int>& labels) {
  cv::RNG rng(seed);
  images.create(n, 16 * 16, CV_8U);
  labels.clear();
  for (int i = 0; i < n; ++i) {
    const int label = i % 3;
    const double background = rng.uniform(20.0, 200.0);
    const double ink = background + (rng.uniform(0, 2) ? 1 : -1) * rng.uniform(40.0, 55.0);
    cv::Mat image(16, 16, CV_64F, cv::Scalar(background));
    const int cx = rng.uniform(4, 12), cy = rng.uniform(4, 12);
    if (label == 0) {
      cv::line(image, {cx - 3, cy}, {cx + 3, cy}, cv::Scalar(ink));
      cv::line(image, {cx, cy - 3}, {cx, cy + 3}, cv::Scalar(ink));
    } else if (label == 1) {
      cv::line(image, {cx - 2, cy - 2}, {cx + 2, cy + 2}, cv::Scalar(ink));
      cv::line(image, {cx - 2, cy + 2}, {cx + 2, cy - 2}, cv::Scalar(ink));
    } else {
      cv::rectangle(image, {cx - 2, cy - 2}, {cx + 2, cy + 2}, cv::Scalar(ink));
    }
    cv::Mat noise(16, 16, CV_64F);
    rng.fill(noise, cv::RNG::NORMAL, 0, 8);
    image += noise;
    image.reshape(1, 1).convertTo(images.row(i), CV_8U);
    labels.push_back(label);
  }
}

// The tests' network, trained for `epochs` (0: the initial weights).
CnnTraining small_training(int epochs) {
  CnnTraining t;
  t.shape.side = 16;
  t.shape.kernel1 = 3;  // 14 -> 7
  t.shape.maps1 = 6;
  t.shape.kernel2 = 2;  // 6 -> 3
  t.shape.maps2 = 8;
  t.shape.hidden = 16;
  t.shape.classes = 3;
  t.epochs = epochs;
  t.rate = 0.02;
  return t;
}

double accuracy(const Cnn& cnn, const cv::Mat& images, const std::vector<int>& labels) {
  const cv::Mat p = cnn.probabilities(images);
  int right = 0;
  for (int i = 0; i < p.rows; ++i) {
    cv::Point best;
    cv::minMaxLoc(p.row(i), nullptr, nullptr, nullptr, &best);
    right += best.x == labels[static_cast<std::size_t>(i)];
  }
  return static_cast<double>(right) / p.rows;
}

TEST(Cnn, ShapesFitOnlyWhenEveryConvolutionPoolsEvenly) {
  CnnShape s;  // 28: 24 -> 12 -> 10 -> 5
  EXPECT_TRUE(s.valid());
  EXPECT_EQ(s.flat(), 24 * 5 * 5);
  s.side = 27;  // 23: odd
  EXPECT_FALSE(s.valid());
  s.side = 28;
  s.kernel2 = 4;  // 9: odd
  EXPECT_FALSE(s.valid());
  s.kernel2 = 3;
  s.classes = 1;
  EXPECT_FALSE(s.valid());
  s.classes = 2;
  s.channels = 0;
  EXPECT_FALSE(s.valid());
  s.channels = 3;
  EXPECT_TRUE(s.valid());
}

// Images of `planes` planes: the shapes of make_shapes in the last plane, noise of the same
// spread in the others (a network reading only the first plane cannot tell the classes apart).
void make_planes(int n, unsigned seed, int planes, cv::Mat& images, std::vector<int>& labels) {
  cv::Mat shapes;
  make_shapes(n, seed, shapes, labels);
  if (planes == 1) {
    images = shapes;
    return;
  }
  cv::RNG rng(seed + 100);
  images.create(n, planes * 16 * 16, CV_8U);
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c + 1 < planes; ++c) {
      cv::Mat noise = images.row(i).colRange(c * 256, (c + 1) * 256);
      rng.fill(noise, cv::RNG::NORMAL, 120, 20);
    }
    shapes.row(i).copyTo(images.row(i).colRange((planes - 1) * 256, planes * 256));
  }
}

// The gradient of backpropagation is the loss's slope: central differences on weights of every
// layer agree with it, for grey images and for images of two planes.
void check_gradient(int planes) {
  cv::Mat images;
  std::vector<int> labels;
  make_planes(6, 3, planes, images, labels);
  CnnTraining t = small_training(0);  // the initial weights
  t.shape.channels = planes;
  Cnn net = train_cnn(images, labels, t);
  // Biases away from zero, so that every unit is somewhere along its slope.
  cv::RNG rng(5);
  for (auto* b : {&net.b1, &net.b2, &net.b3, &net.b4})
    for (float& v : *b) v = static_cast<float>(rng.uniform(-0.2, 0.2));
  Cnn gradient;
  cnn_gradient(net, images, labels, gradient);
  const auto loss = [&](const Cnn& n) {
    Cnn unused;
    return cnn_gradient(n, images, labels, unused);
  };
  int checked = 0, agreed = 0;
  const std::array<std::pair<std::vector<float> Cnn::*, const char*>, 8> layers{{{&Cnn::w1, "w1"},
                                                                                 {&Cnn::b1, "b1"},
                                                                                 {&Cnn::w2, "w2"},
                                                                                 {&Cnn::b2, "b2"},
                                                                                 {&Cnn::w3, "w3"},
                                                                                 {&Cnn::b3, "b3"},
                                                                                 {&Cnn::w4, "w4"},
                                                                                 {&Cnn::b4, "b4"}}};
  for (const auto& [member, name] : layers) {
    const std::vector<float>& g = gradient.*member;
    ASSERT_EQ(g.size(), (net.*member).size()) << name;
    for (int k = 0; k < 6; ++k) {
      const auto i = static_cast<std::size_t>(rng.uniform(0, static_cast<int>(g.size())));
      Cnn plus = net, minus = net;
      const float h = 1e-3f;
      (plus.*member)[i] += h;
      (minus.*member)[i] -= h;
      const double numeric = (loss(plus) - loss(minus)) / (2 * h);
      ++checked;
      // A max-pooling switch inside the step can bend the difference: most, not all, must agree.
      if (std::abs(numeric - g[i]) <= 0.03 + 0.05 * std::abs(numeric))
        ++agreed;
      else
        ADD_FAILURE() << planes << " planes, " << name << "[" << i << "]: backprop " << g[i]
                      << ", numeric " << numeric;
    }
  }
  EXPECT_EQ(agreed, checked);
}

TEST(Cnn, GradientMatchesFiniteDifferences) {
  check_gradient(1);
  check_gradient(2);
}

// A network of three planes reads the shape drawn in the third alone; its first convolution
// has a kernel per plane.
TEST(Cnn, ReadsEveryPlaneOfItsImages) {
  cv::Mat images, test_images;
  std::vector<int> labels, test_labels;
  make_planes(2400, 1, 3, images, labels);
  make_planes(600, 2, 3, test_images, test_labels);
  CnnTraining t = small_training(20);
  t.shape.channels = 3;
  const Cnn cnn = train_cnn(images, labels, t);
  EXPECT_EQ(cnn.inputs(), 3 * 16 * 16);
  EXPECT_EQ(cnn.w1.size(), static_cast<std::size_t>(6 * 3 * 3 * 3));
  EXPECT_GE(accuracy(cnn, test_images, test_labels), 0.95);
  // The first plane alone (the shapes' plane replaced by noise) says nothing.
  cv::Mat blind = test_images.clone();
  cv::RNG rng(9);
  for (int i = 0; i < blind.rows; ++i) {
    cv::Mat last = blind.row(i).colRange(2 * 256, 3 * 256);
    rng.fill(last, cv::RNG::NORMAL, 120, 20);
  }
  EXPECT_LT(accuracy(cnn, blind, test_labels), 0.6);
  // Each plane is standardised by its own mean and spread: one plane brightened and its
  // contrast doubled, the others left alone, reads the same.
  cv::Mat as_float, changed;
  test_images.rowRange(0, 20).convertTo(as_float, CV_32F);
  changed = as_float.clone();
  cv::Mat first = changed.colRange(0, 256);
  first = first * 2 + 30;
  EXPECT_LT(cv::norm(cnn.probabilities(as_float), cnn.probabilities(changed), cv::NORM_INF), 1e-4);
}

TEST(Cnn, LearnsShapesWhereverTheyAre) {
  cv::Mat images, test_images;
  std::vector<int> labels, test_labels;
  make_shapes(2400, 1, images, labels);
  make_shapes(600, 2, test_images, test_labels);
  const Cnn untrained = [&] { return train_cnn(images, labels, small_training(0)); }();
  const Cnn cnn = train_cnn(images, labels, small_training(20));
  EXPECT_LT(accuracy(untrained, test_images, test_labels), 0.6);
  EXPECT_GE(accuracy(cnn, test_images, test_labels), 0.95);
  const cv::Mat p = cnn.probabilities(test_images.rowRange(0, 10));
  for (int r = 0; r < p.rows; ++r) EXPECT_NEAR(cv::sum(p.row(r))[0], 1.0, 1e-5);
  // 8-bit and float rows are the same images.
  cv::Mat as_float;
  test_images.rowRange(0, 10).convertTo(as_float, CV_32F);
  EXPECT_LT(cv::norm(p, cnn.probabilities(as_float), cv::NORM_INF), 1e-5);
}

// Label smoothing: the target gives the label 1 - s + s / 3 (three classes), so a network that
// has learnt its shapes is about that sure of them (on its training images) and no surer on
// others, where one trained on the label alone is nearly certain; it still reads them right.
TEST(Cnn, LabelSmoothingHoldsTheNetworkToTheSmoothedTarget) {
  cv::Mat images, test_images;
  std::vector<int> labels, test_labels;
  make_shapes(2400, 1, images, labels);
  make_shapes(600, 2, test_images, test_labels);
  const auto mean_top = [](const Cnn& cnn, const cv::Mat& shapes) {
    const cv::Mat p = cnn.probabilities(shapes);
    double sum = 0;
    for (int r = 0; r < p.rows; ++r) {
      double top = 0;
      cv::minMaxLoc(p.row(r), nullptr, &top);
      sum += top;
    }
    return sum / p.rows;
  };
  CnnTraining t = small_training(20);
  const Cnn sharp = train_cnn(images, labels, t);
  t.smoothing = 0.3;
  t.epochs = 40;
  const Cnn smooth = train_cnn(images, labels, t);
  EXPECT_GE(accuracy(smooth, test_images, test_labels), 0.95);
  EXPECT_GT(mean_top(sharp, test_images), 0.95);
  EXPECT_NEAR(mean_top(smooth, images), 1 - 0.3 + 0.3 / 3, 0.03);
  EXPECT_LT(mean_top(smooth, test_images), 1 - 0.3 + 0.3 / 3);
  t.smoothing = 1;  // nothing left of the label
  EXPECT_THROW(train_cnn(images, labels, t), cv::Exception);
}

// Inference (Cnn::probabilities) reads each convolution's input in place, where training
// copies its patches first (im2col): the same products in the same order, so the very same
// probabilities. Training's forward pass is seen through the loss it returns for one image and
// one label, -log of that label's probability (as a float); checked on the readers' shape
// with one and two planes, and on a shape whose first convolution has outputs past a whole
// block of four, 8-bit and float images.
void check_inference(CnnShape shape, bool as_float) {
  cv::RNG rng(11);
  cv::Mat images(5, shape.channels * shape.side * shape.side, CV_8U);
  rng.fill(images, cv::RNG::UNIFORM, 0, 256);
  std::vector<int> labels(static_cast<std::size_t>(images.rows), 0);
  CnnTraining t;
  t.shape = shape;
  t.epochs = 0;  // the initial weights
  Cnn net = train_cnn(images, labels, t);
  for (auto* b : {&net.b1, &net.b2, &net.b3, &net.b4})
    for (float& v : *b) v = static_cast<float>(rng.uniform(-0.3, 0.3));
  if (as_float) images.convertTo(images, CV_32F, 1.0 / 255);
  const cv::Mat p = net.probabilities(images);
  ASSERT_EQ(p.rows, images.rows);
  Cnn unused;
  for (int i = 0; i < images.rows; ++i) {
    for (int c = 0; c < shape.classes; ++c) {
      const double loss = cnn_gradient(net, images.row(i), {c}, unused);
      EXPECT_EQ(loss, -std::log(std::max(1e-12f, p.at<float>(i, c))))
          << "side " << shape.side << ", " << shape.channels << " planes, image " << i << ", class "
          << c;
    }
  }
}

TEST(Cnn, InferenceIsTrainingsForward) {
  CnnShape digits;  // 28: 24 -> 12 -> 10 -> 5
  digits.classes = 13;
  check_inference(digits, false);
  check_inference(digits, true);
  CnnShape two = digits;
  two.channels = 2;
  two.classes = 15;
  check_inference(two, false);
  CnnShape small = small_training(0).shape;  // 16: 14 -> 7 -> 6 -> 3, 6 maps
  check_inference(small, false);
}

// The digit network's shape (28: 24 -> 12 -> 10 -> 5; 12 and 24 maps, 64 hidden units: whole
// blocks of 8 and 4 outputs, whole chunks of vectors), and one with outputs and hidden units past
// them (three planes, 10 and 6 maps, 40 hidden units).
CnnShape digits_shape() {
  CnnShape s;
  s.classes = 13;
  return s;
}
CnnShape odd_shape() {
  CnnShape s = digits_shape();
  s.channels = 3;
  s.maps1 = 10;
  s.maps2 = 6;
  s.hidden = 40;
  s.classes = 4;
  return s;
}

// Inference and training use this processor's widest vectors (AVX-512, AVX2) or plain x86-64
// code: each sums the same products in the same order, so every level gives the very same
// probabilities and the very same trained weights. Checked on the readers' shapes (12 and 24
// maps, 64 hidden units: whole blocks of 8 and 4 outputs, whole chunks of vectors) and on shapes
// with outputs and hidden units past them (10 and 6 maps, 40 and 16 hidden units), at every level
// this machine has (on a machine without AVX-512 the levels above its own are its own).
TEST(Cnn, EveryVectorWidthGivesTheSameBytes) {
  struct Reset {
    int level = set_cnn_vector_level(2);
    ~Reset() { set_cnn_vector_level(level); }
  } reset;
  const auto bytes_equal = [](const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
  };
  const CnnShape digits = digits_shape(), odd = odd_shape();
  for (const CnnShape& shape : {digits, odd, small_training(0).shape}) {
    cv::RNG rng(23);
    cv::Mat images(40, shape.channels * shape.side * shape.side, CV_8U);
    rng.fill(images, cv::RNG::UNIFORM, 0, 256);
    std::vector<int> labels;
    for (int i = 0; i < images.rows; ++i) labels.push_back(i % shape.classes);
    CnnTraining t;
    t.shape = shape;
    t.epochs = 2;
    t.batch = 8;
    std::vector<cv::Mat> read;
    std::vector<Cnn> trained;
    for (int level : {0, 1, 2}) {
      set_cnn_vector_level(level);
      trained.push_back(train_cnn(images, labels, t));
      read.push_back(trained.back().probabilities(images));
    }
    for (std::size_t level = 1; level < read.size(); ++level) {
      const std::string what = "side " + std::to_string(shape.side) + ", " +
                               std::to_string(shape.maps1) + " maps, level " +
                               std::to_string(level);
      EXPECT_EQ(cv::norm(read[0], read[level], cv::NORM_INF), 0.0) << what;
      EXPECT_TRUE(bytes_equal(trained[0].w1, trained[level].w1)) << what;
      EXPECT_TRUE(bytes_equal(trained[0].w2, trained[level].w2)) << what;
      EXPECT_TRUE(bytes_equal(trained[0].w3, trained[level].w3)) << what;
      EXPECT_TRUE(bytes_equal(trained[0].w4, trained[level].w4)) << what;
    }
  }
}

// The 8-bit convolutions (Cnn::quicken) sum integers: every level (AVX-512 VNNI where the
// processor has it, AVX2's 16-bit multiply-adds, plain code) gives the same probabilities to the
// byte. Checked on the readers' shapes (kernels of 5 and 3 on 28 and 12 pixels: groups of four
// taps across kernel rows, the last padded; 12 and 24 maps: blocks of 8 and 4), on odd ones (10
// and 6 maps, three planes), on the clear network's (56 pixels: a group per kernel row, and 26
// pooled values a row, more than a vector's 16) and the tests' small one (kernels of 3 and 2),
// from 8-bit and float rows.
TEST(Cnn, QuickInferenceGivesTheSameBytesAtEveryWidth) {
  struct Reset {
    int level = set_cnn_vector_level(2);
    ~Reset() { set_cnn_vector_level(level); }
  } reset;
  const CnnShape digits = digits_shape(), odd = odd_shape();
  CnnShape wide = digits;  // the clear network's: 56 pixels, 3 planes, 16 and 32 maps
  wide.side = 56;
  wide.channels = 3;
  wide.maps1 = 16;
  wide.maps2 = 32;
  for (const CnnShape& shape : {digits, odd, wide, small_training(0).shape}) {
    cv::RNG rng(29);
    cv::Mat images(12, shape.channels * shape.side * shape.side, CV_8U);
    rng.fill(images, cv::RNG::UNIFORM, 0, 256);
    CnnTraining t;
    t.shape = shape;
    t.epochs = 0;
    Cnn net = train_cnn(images, std::vector<int>(12, 0), t);
    for (auto* b : {&net.b1, &net.b2, &net.b3, &net.b4})
      for (float& v : *b) v = static_cast<float>(rng.uniform(-0.3, 0.3));
    net.quicken();
    ASSERT_TRUE(net.quick);
    cv::Mat as_float;
    images.convertTo(as_float, CV_32F, 1.0 / 255);
    for (const cv::Mat& rows : {images, as_float}) {
      set_cnn_vector_level(0);
      const cv::Mat plain = net.probabilities(rows);
      for (int level : {1, 2}) {
        set_cnn_vector_level(level);
        EXPECT_EQ(cv::norm(plain, net.probabilities(rows), cv::NORM_INF), 0.0)
            << "side " << shape.side << ", " << shape.maps1 << " maps, depth " << rows.depth()
            << ", level " << level;
      }
    }
  }
}

// The 8-bit convolutions read as the float network does: on a trained network, the same class
// for all but a few images in a thousand, the probabilities a few thousandths off on average.
// Each output map's weights have their own step, and each input plane of a convolution its own
// range: with one map a thousand times larger (and what reads it a thousand times smaller: the
// same network), the quick network reads as before, where a step or a range shared by the layer
// would round the other maps' weights, or inputs, to zero.
TEST(Cnn, QuickInferenceReadsAsTheFloatNetwork) {
  cv::Mat images, test_images;
  std::vector<int> labels, test_labels;
  make_shapes(2400, 1, images, labels);
  make_shapes(1000, 3, test_images, test_labels);
  Cnn net = train_cnn(images, labels, small_training(12));
  const auto quick = [&](Cnn n) {
    n.quicken();
    return n.probabilities(test_images);
  };
  const cv::Mat floats = net.probabilities(test_images), quick_read = quick(net);
  int same = 0;
  for (int r = 0; r < floats.rows; ++r) {
    cv::Point x, y;
    cv::minMaxLoc(floats.row(r), nullptr, nullptr, nullptr, &x);
    cv::minMaxLoc(quick_read.row(r), nullptr, nullptr, nullptr, &y);
    same += x == y;
    EXPECT_NEAR(cv::sum(quick_read.row(r))[0], 1.0, 1e-5);
  }
  EXPECT_GE(same, 995);
  const double mean_off = cv::norm(floats, quick_read, cv::NORM_L1) / floats.total();
  EXPECT_LT(mean_off, 0.005);
  EXPECT_GT(mean_off, 0.0) << "the quick path was not taken";
  EXPECT_LT(cv::norm(floats, quick_read, cv::NORM_INF), 0.1);
  // The second convolution's map 0 a thousand times larger, its bias too, and the dense layer's
  // weights that read it a thousand times smaller: the weights' steps.
  Cnn scaled = net;
  const int taps2 = net.shape.kernel2 * net.shape.kernel2 * net.shape.maps1;
  for (int t = 0; t < taps2; ++t) scaled.w2[static_cast<std::size_t>(t)] *= 1e3f;
  scaled.b2[0] *= 1e3f;
  const int read = net.shape.pool2() * net.shape.pool2() * net.shape.hidden;
  for (int i = 0; i < read; ++i) scaled.w3[static_cast<std::size_t>(i)] *= 1e-3f;
  EXPECT_LT(cv::norm(quick(scaled), quick_read, cv::NORM_INF), 1e-4);
  // The first convolution's map 0 a thousand times larger, and the second's weights that read it
  // a thousand times smaller: the inputs' ranges (that map is one of the second's input planes).
  Cnn louder = net;
  const int taps1 = net.shape.kernel1 * net.shape.kernel1 * net.shape.channels;
  for (int t = 0; t < taps1; ++t) louder.w1[static_cast<std::size_t>(t)] *= 1e3f;
  louder.b1[0] *= 1e3f;
  const int k2 = net.shape.kernel2 * net.shape.kernel2;
  for (int co = 0; co < net.shape.maps2; ++co)
    for (int t = 0; t < k2; ++t)
      louder.w2[static_cast<std::size_t>(co * net.shape.maps1 * k2 + t)] *= 1e-3f;
  EXPECT_LT(cv::norm(quick(louder), quick_read, cv::NORM_INF), 1e-4);
  Cnn empty;
  empty.quicken();
  EXPECT_FALSE(empty.quick);
}

TEST(Cnn, TrainingIsTheSameOnAnyNumberOfThreads) {
  cv::Mat images;
  std::vector<int> labels;
  make_shapes(300, 4, images, labels);
  CnnTraining t = small_training(2);
  const int threads = cv::getNumThreads();
  cv::setNumThreads(1);
  const Cnn one = train_cnn(images, labels, t);
  cv::setNumThreads(4);
  const Cnn four = train_cnn(images, labels, t);
  cv::setNumThreads(threads);
  EXPECT_EQ(one.w1, four.w1);
  EXPECT_EQ(one.w3, four.w3);
  EXPECT_EQ(one.b4, four.b4);
  t.seed += 1;
  EXPECT_NE(train_cnn(images, labels, t).w1, one.w1);
}

// The network written as node "net" of a YAML text in memory.
std::string written(const Cnn& cnn) {
  cv::FileStorage out("cnn.yml", cv::FileStorage::WRITE | cv::FileStorage::MEMORY);
  write_cnn(out, "net", cnn);
  return out.releaseAndGetString();
}

Cnn read_back(const std::string& text) {
  cv::FileStorage in(text, cv::FileStorage::READ | cv::FileStorage::MEMORY);
  return read_cnn(in["net"]);
}

TEST(Cnn, StorageRoundTripAndMalformedNodes) {
  cv::Mat images;
  std::vector<int> labels;
  make_shapes(90, 6, images, labels);
  CnnTraining t = small_training(1);
  const Cnn cnn = train_cnn(images, labels, t);
  const std::string text = written(cnn);
  cv::FileStorage in(text, cv::FileStorage::READ | cv::FileStorage::MEMORY);
  const Cnn back = read_cnn(in["net"]);
  ASSERT_FALSE(back.empty());
  EXPECT_EQ(back.shape.side, 16);
  EXPECT_EQ(cv::norm(cnn.probabilities(images), back.probabilities(images), cv::NORM_INF), 0);
  EXPECT_TRUE(read_cnn(in["absent"]).empty());

  const auto broken = [&](const std::string& from, const std::string& to) {
    std::string changed = text;
    const std::size_t at = changed.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    changed.replace(at, from.size(), to);
    return read_back(changed).empty();
  };
  EXPECT_TRUE(broken("side: 16", "side: 17"));        // a shape that does not pool evenly
  EXPECT_TRUE(broken("classes: 3", "classes: 4"));    // the output layer's size disagrees
  EXPECT_TRUE(broken("hidden: 16", "hidden: many"));  // not a number
  EXPECT_TRUE(broken("w2:", "w9:"));                  // a layer missing
  EXPECT_EQ(text.find("channels"), std::string::npos) << "a grey network is written as before";

  // A network of two planes keeps its planes.
  cv::Mat planes;
  make_planes(90, 6, 2, planes, labels);
  t.shape.channels = 2;
  const Cnn two = train_cnn(planes, labels, t);
  const std::string text2 = written(two);
  const Cnn two_back = read_back(text2);
  ASSERT_FALSE(two_back.empty());
  EXPECT_EQ(two_back.shape.channels, 2);
  EXPECT_EQ(cv::norm(two.probabilities(planes), two_back.probabilities(planes), cv::NORM_INF), 0);
  std::string five = text2;
  five.replace(five.find("channels: 2"), 11, "channels: 5");
  EXPECT_TRUE(read_back(five).empty()) << "at most four planes";
}

}  // namespace
}  // namespace arbitre::vision
