#include "vision/common/forest.h"

#include <algorithm>
#include <cfloat>
#include <map>
#include <mutex>

namespace arbitre::vision {

FlatForest::FlatForest(const cv::ml::RTrees& forest) {
  if (!forest.isTrained() || !forest.isClassifier()) return;
  const std::vector<cv::ml::DTrees::Node>& nodes = forest.getNodes();
  const std::vector<cv::ml::DTrees::Split>& splits = forest.getSplits();
  const std::vector<int>& roots = forest.getRoots();
  vars_ = forest.getVarCount();
  if (roots.empty() || vars_ <= 0 || !forest.getSubsets().empty()) return;  // categorical
  // The labels, in getVotes' order, from its first row.
  cv::Mat probe(1, vars_, CV_32F, cv::Scalar(0)), votes;
  forest.getVotes(probe, votes, 0);
  if (votes.type() != CV_32S || votes.rows != 2) return;
  labels_.assign(votes.ptr<int>(0), votes.ptr<int>(0) + votes.cols);
  // A node's class index is the index in the forest's labels, which are getVotes' columns.
  for (int root : roots) {
    roots_.push_back(static_cast<int>(nodes_.size()));
    // Depth first, the left child right after its parent.
    std::vector<std::pair<int, int>> stack{{root, -1}};  // (OpenCV node, parent slot to patch)
    while (!stack.empty()) {
      const auto [at, patch] = stack.back();
      stack.pop_back();
      const int slot = static_cast<int>(nodes_.size());
      if (patch >= 0) nodes_[static_cast<std::size_t>(patch)].right = slot;
      const cv::ml::DTrees::Node& n = nodes.at(static_cast<std::size_t>(at));
      Node flat{-1, 0, 0, 0};
      if (n.split < 0) {
        if (n.classIdx < 0 || n.classIdx >= static_cast<int>(labels_.size())) return;
        flat.left = n.classIdx;
        nodes_.push_back(flat);
        continue;
      }
      const cv::ml::DTrees::Split& s = splits.at(static_cast<std::size_t>(n.split));
      if (s.varIdx < 0 || s.varIdx >= vars_) return;
      flat.var = s.varIdx;
      flat.c = s.c;
      nodes_.push_back(flat);
      // The right child is visited after the whole left subtree; the left child comes next.
      stack.push_back({n.right, slot});
      stack.push_back({n.left, -1});
      nodes_.back().left = slot + 1;
    }
  }
  usable_ = true;
  // A check against OpenCV on a few samples drawn from the split thresholds.
  cv::RNG rng(12345);
  cv::Mat check(16, vars_, CV_32F);
  for (int r = 0; r < check.rows; ++r) {
    for (int v = 0; v < vars_; ++v) {
      const Node& pick =
          nodes_[static_cast<std::size_t>(rng.uniform(0, static_cast<int>(nodes_.size())))];
      check.at<float>(r, v) = (pick.var >= 0 ? pick.c : 0.f) + (rng.uniform(0, 3) - 1) * 1e-3f;
    }
  }
  cv::Mat expected;
  forest.getVotes(check, expected, 0);
  const cv::Mat got = this->votes(check);
  usable_ = expected.size() == got.size() && cv::countNonZero(expected != got) == 0;
}

cv::Mat FlatForest::votes(const cv::Mat& samples) const {
  CV_Assert(usable_ && samples.type() == CV_32F && samples.cols == vars_);
  cv::Mat out(samples.rows + 1, static_cast<int>(labels_.size()), CV_32S, cv::Scalar(0));
  std::copy(labels_.begin(), labels_.end(), out.ptr<int>(0));
  const Node* nodes = nodes_.data();
  // Eight samples walk each tree side by side: their nodes' loads overlap instead of waiting
  // for each other (a walk is a chain of dependent loads, mostly cache misses).
  constexpr int kLanes = 8;
  for (int r0 = 0; r0 < samples.rows; r0 += kLanes) {
    const int lanes = std::min(kLanes, samples.rows - r0);
    const float* x[kLanes];
    for (int l = 0; l < lanes; ++l) x[l] = samples.ptr<float>(r0 + l);
    for (int root : roots_) {
      const Node* n[kLanes];
      for (int l = 0; l < lanes; ++l) n[l] = nodes + root;
      for (bool walking = true; walking;) {
        walking = false;
        for (int l = 0; l < lanes; ++l) {
          if (n[l]->var < 0) continue;
          const float v = x[l][n[l]->var];
          n[l] = nodes + (v <= n[l]->c ? n[l]->left : n[l]->right);
          walking = true;
        }
      }
      for (int l = 0; l < lanes; ++l) ++out.ptr<int>(r0 + l + 1)[n[l]->left];
    }
  }
  return out;
}

cv::Mat forest_votes(const cv::Ptr<cv::ml::RTrees>& forest, const cv::Mat& samples) {
  struct Entry {
    std::weak_ptr<cv::ml::RTrees> owner;
    std::shared_ptr<const FlatForest> flat;
  };
  static std::mutex mutex;
  static std::map<const cv::ml::RTrees*, Entry> cache;
  std::shared_ptr<const FlatForest> flat;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    Entry& e = cache[forest.get()];
    if (e.owner.expired() || e.owner.lock() != forest) {
      e.owner = forest;
      e.flat = std::make_shared<const FlatForest>(*forest);
    }
    flat = e.flat;
  }
  // OpenCV takes FLT_MAX for a missing value, which it replaces in ways the flat trees do not
  // know: such samples go to OpenCV.
  bool missing = false;
  if (samples.type() == CV_32F) {
    for (int r = 0; r < samples.rows && !missing; ++r) {
      const float* x = samples.ptr<float>(r);
      missing = std::find(x, x + samples.cols, FLT_MAX) != x + samples.cols;
    }
  }
  cv::Mat votes;
  if (flat->usable() && !missing && samples.type() == CV_32F &&
      samples.cols == forest->getVarCount()) {
    votes = flat->votes(samples);
  } else {
    forest->getVotes(samples, votes, 0);
  }
  return votes;
}

cv::Ptr<cv::ml::RTrees> read_forest(const cv::FileNode& node) {
  if (node.empty()) return nullptr;
  cv::Ptr<cv::ml::RTrees> forest = cv::ml::RTrees::create();
  forest->read(node);
  if (!forest->isTrained()) return nullptr;
  return forest;
}

void write_forest(cv::FileStorage& storage, const std::string& name, const cv::ml::RTrees& forest) {
  storage << name << "{";
  forest.write(storage);
  storage << "}";
}

}  // namespace arbitre::vision
