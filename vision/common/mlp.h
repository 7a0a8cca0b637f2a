// A small multi-layer perceptron for the learned parts of the readers: standardised inputs,
// fully connected hidden layers with ReLU, a softmax over the classes. Trained here (train_mlp,
// minibatch stochastic gradient descent with momentum on the cross-entropy), stored in the
// model's YAML beside the forests, evaluated with OpenCV's matrix product.
#pragma once

#include <opencv2/core.hpp>
#include <string>
#include <vector>

namespace arbitre::vision {

struct Mlp {
  cv::Mat mean, scale;           // 1 x inputs, float: x' = (x - mean) * scale
  std::vector<cv::Mat> weights;  // layer k: inputs_k x outputs_k, float
  std::vector<cv::Mat> biases;   // layer k: 1 x outputs_k, float

  bool empty() const { return weights.empty(); }
  int inputs() const { return weights.empty() ? 0 : weights.front().rows; }
  int classes() const { return weights.empty() ? 0 : weights.back().cols; }
  // One row of class probabilities (summing to 1) per row of `samples` (float, inputs wide).
  cv::Mat probabilities(const cv::Mat& samples) const;
};

struct MlpTraining {
  // The defaults are the dice digit network's (docs/vision.md): 0.001-0.003 of decay learnt the
  // training crops by heart (confident wrong readings), 0.03 too little; 0.05 of rate diverged.
  std::vector<int> hidden{64};  // units per hidden layer
  int epochs = 15;
  int batch = 64;
  double rate = 0.01;  // learning rate at the start, cosine-annealed to zero
  double momentum = 0.9;
  double decay = 0.01;  // L2 weight decay
  unsigned seed = 20261130;
};

// Trains on `samples` (float rows) with `labels` (0 .. classes-1). Deterministic for a seed.
// `log`, when set, is told the mean training loss after each epoch.
Mlp train_mlp(const cv::Mat& samples, const std::vector<int>& labels, int classes,
              const MlpTraining& training, void (*log)(int epoch, double loss) = nullptr);

// Storage as a map node `name` in an opened YAML/XML storage, and back (empty when absent or
// malformed).
void write_mlp(cv::FileStorage& storage, const std::string& name, const Mlp& mlp);
Mlp read_mlp(const cv::FileNode& node);

}  // namespace arbitre::vision
