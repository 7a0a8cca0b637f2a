// A small convolutional network for the readers' learned parts, written here: a grey image, or
// an image of a few planes (each plane standardised: its own mean and spread), two stages of convolution + ReLU + 2x2 max-pooling,
// a fully connected ReLU layer, a softmax over the classes. Trained here (train_cnn: minibatch
// stochastic gradient descent with momentum on the cross-entropy, deterministic for a seed),
// stored in the model's YAML beside the forests.
#pragma once

#include <cstdint>
#include <memory>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

namespace arbitre::vision {

struct CnnShape {
  int side = 28;                // the input image is side x side
  int channels = 1;             // planes of the input image (1: grey; at most 4)
  int kernel1 = 5, maps1 = 12;  // first convolution: kernel1 x kernel1, maps1 output maps
  int kernel2 = 3, maps2 = 24;  // second: kernel2 x kernel2 over maps1 maps, maps2 outputs
  int hidden = 64;              // units of the fully connected layer
  int classes = 2;
  // The sizes after each stage (0 when the shape does not fit: each convolution's output must
  // have an even side for the pooling).
  int conv1() const { return side - kernel1 + 1; }
  int pool1() const { return conv1() / 2; }
  int conv2() const { return pool1() - kernel2 + 1; }
  int pool2() const { return conv2() / 2; }
  int flat() const { return maps2 * pool2() * pool2(); }
  bool valid() const;
  bool operator==(const CnnShape&) const = default;
};

// A network's two convolutions in 8 bits (Cnn::quicken).
struct CnnQuick;

struct Cnn {
  CnnShape shape;
  // Weights, row-major: conv1 maps1 x k1 x k1; conv2 maps2 x maps1 x k2 x k2; dense flat x
  // hidden (input-major); out classes x hidden. Biases one per output.
  std::vector<float> w1, b1, w2, b2, w3, b3, w4, b4;

  bool empty() const { return w4.empty(); }
  int inputs() const { return shape.channels * shape.side * shape.side; }
  int classes() const { return shape.classes; }
  // One row of class probabilities (summing to 1) per row of `images` (float or 8-bit,
  // single-channel, each row an image of side x side pixels, row by row, plane after plane).
  cv::Mat probabilities(const cv::Mat& images) const;

  // The convolutions in 8 bits, when set (quicken): each convolution's weights rounded to 8 bits
  // (per output map and input plane, over the largest of them) and its input to 8 bits (per
  // image and plane, over its range), the products summed exactly in integers, then scaled back
  // plane by plane. probabilities then runs them (with AVX-512 VNNI four products an instruction
  // where the float path makes one); the rest of the network stays in floats. Its probabilities
  // differ from the float network's in about the second decimal at worst, and are the same bytes
  // on every processor. Inference only: training and cnn_gradient use the float weights.
  std::shared_ptr<const CnnQuick> quick;
  // Builds `quick` from the weights as they are now (an empty network: none).
  void quicken();
};

struct CnnTraining {
  CnnShape shape;
  int epochs = 12;
  int batch = 32;
  double rate = 0.02;  // learning rate at the start, cosine-annealed to zero
  double momentum = 0.9;
  double decay = 1e-4;  // L2 weight decay (weights, not biases)
  // Label smoothing: the target gives the label's class 1 - smoothing and spreads `smoothing`
  // evenly over all the classes (0: the label alone; a network so trained is less sure of what it
  // has learnt by heart). The loss logged is the label's alone either way.
  double smoothing = 0;
  std::uint64_t seed = 20261130;
  // Weights to start from instead of random ones (fine-tuning a trained network on other
  // targets; its shape must be the training's), or none.
  const Cnn* start = nullptr;
};

// Trains on `images` (rows as in Cnn::probabilities) with `labels` (0 .. classes-1); the
// shape's classes are taken from `training`. Deterministic for a seed, whatever the number of
// threads. `log`, when set, is told the mean training loss after each epoch.
Cnn train_cnn(const cv::Mat& images, const std::vector<int>& labels, const CnnTraining& training,
              void (*log)(int epoch, double loss) = nullptr);

// The widest vectors inference and training use: 2 AVX-512, 1 AVX2, 0 plain x86-64 (by default
// the widest this processor has; a level above it is taken as it). Every level gives the same
// bytes; tests set it to compare them. Returns the level before. Not thread-safe: set it only
// while no network runs.
int set_cnn_vector_level(int level);

// Storage as a map node `name` in an opened YAML/XML storage, and back (empty when absent or
// malformed).
void write_cnn(cv::FileStorage& storage, const std::string& name, const Cnn& cnn);
Cnn read_cnn(const cv::FileNode& node);

// Internal to training, exposed for the gradient test: the summed gradient of the
// cross-entropy of `labels` over `images`, in the layout of the weights (a Cnn holding
// gradients); returns the summed loss.
double cnn_gradient(const Cnn& cnn, const cv::Mat& images, const std::vector<int>& labels,
                    Cnn& gradient);

}  // namespace arbitre::vision
