// A trained cv::ml::RTrees classifier flattened for voting: the same votes as
// RTrees::getVotes (flags 0), several times faster (each tree's nodes packed in 16 bytes and
// walked for every sample in turn while they are in cache, no per-tree allocation). Forests
// with categorical splits, or whose flat votes disagree with getVotes on a check at build
// time, and samples with a missing value (FLT_MAX), are left to OpenCV.
#pragma once

#include <memory>
#include <opencv2/core.hpp>
#include <opencv2/ml.hpp>
#include <string>
#include <vector>

namespace arbitre::vision {

class FlatForest {
 public:
  explicit FlatForest(const cv::ml::RTrees& forest);

  bool usable() const { return usable_; }
  int trees() const { return static_cast<int>(roots_.size()); }
  // The class labels, in the order of getVotes' columns.
  const std::vector<int>& labels() const { return labels_; }
  // getVotes' result: (samples.rows + 1) x labels CV_32S, the first row the labels, then per
  // sample the number of trees voting for each label. `samples`: CV_32F rows.
  cv::Mat votes(const cv::Mat& samples) const;

 private:
  struct Node {
    int var;   // feature index; -1 on a leaf
    float c;   // go left when the feature <= c
    int left;  // on a leaf: the label's column
    int right;
  };
  std::vector<Node> nodes_;
  std::vector<int> roots_;
  std::vector<int> labels_;
  int vars_ = 0;
  bool usable_ = false;
};

// getVotes(samples, votes, 0) of `forest`, through a FlatForest kept for it (built on first
// use; rebuilt for another forest object) when it is usable.
cv::Mat forest_votes(const cv::Ptr<cv::ml::RTrees>& forest, const cv::Mat& samples);

// A forest stored under one node of a model file (as `write_forest` writes it): none (null) when
// the node is empty or holds no trained forest.
cv::Ptr<cv::ml::RTrees> read_forest(const cv::FileNode& node);
// Writes `forest` under the node `name` of `storage`.
void write_forest(cv::FileStorage& storage, const std::string& name, const cv::ml::RTrees& forest);

}  // namespace arbitre::vision
