#include "vision/common/mlp.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace arbitre::vision {

namespace {

void standardise(const Mlp& mlp, const cv::Mat& samples, cv::Mat& out) {
  samples.convertTo(out, CV_32F);
  for (int r = 0; r < out.rows; ++r) {
    float* x = out.ptr<float>(r);
    const float* m = mlp.mean.ptr<float>();
    const float* s = mlp.scale.ptr<float>();
    for (int c = 0; c < out.cols; ++c) x[c] = (x[c] - m[c]) * s[c];
  }
}

void add_bias_relu(cv::Mat& a, const cv::Mat& bias, bool relu) {
  const float* b = bias.ptr<float>();
  for (int r = 0; r < a.rows; ++r) {
    float* x = a.ptr<float>(r);
    for (int c = 0; c < a.cols; ++c) {
      x[c] += b[c];
      if (relu && x[c] < 0) x[c] = 0;
    }
  }
}

void softmax_rows(cv::Mat& z) {
  for (int r = 0; r < z.rows; ++r) {
    float* x = z.ptr<float>(r);
    const float top = *std::max_element(x, x + z.cols);
    double sum = 0;
    for (int c = 0; c < z.cols; ++c) sum += (x[c] = std::exp(x[c] - top));
    for (int c = 0; c < z.cols; ++c) x[c] = static_cast<float>(x[c] / sum);
  }
}

// out = in x w for a few rows: each input scales a row of weights into the output row (a loop
// the compiler vectorises; about twice as fast as cv::gemm for the reader's batches of tens of
// rows, and zero inputs — a ReLU's — cost nothing).
void product(const cv::Mat& in, const cv::Mat& w, cv::Mat& out) {
  out.create(in.rows, w.cols, CV_32F);
  out.setTo(0);
  const int n = w.cols;
  for (int r = 0; r < in.rows; ++r) {
    float* __restrict o = out.ptr<float>(r);
    const float* x = in.ptr<float>(r);
    for (int k = 0; k < in.cols; ++k) {
      const float a = x[k];
      if (a == 0) continue;
      const float* __restrict wk = w.ptr<float>(k);
      for (int c = 0; c < n; ++c) o[c] += a * wk[c];
    }
  }
}

// Activations of every layer (the input's, then each layer's output; the last holds the
// probabilities). Training's batches go through cv::gemm, the reader's few rows through product.
void forward(const Mlp& mlp, const cv::Mat& input, std::vector<cv::Mat>& a, bool few) {
  a.resize(mlp.weights.size() + 1);
  a[0] = input;
  for (std::size_t k = 0; k < mlp.weights.size(); ++k) {
    if (few)
      product(a[k], mlp.weights[k], a[k + 1]);
    else
      cv::gemm(a[k], mlp.weights[k], 1.0, cv::noArray(), 0.0, a[k + 1]);
    add_bias_relu(a[k + 1], mlp.biases[k], k + 1 < mlp.weights.size());
  }
  softmax_rows(a.back());
}

}  // namespace

cv::Mat Mlp::probabilities(const cv::Mat& samples) const {
  if (empty() || samples.empty()) return cv::Mat(samples.rows, classes(), CV_32F, cv::Scalar(0));
  CV_Assert(samples.cols == inputs());
  cv::Mat x;
  standardise(*this, samples, x);
  std::vector<cv::Mat> a;
  forward(*this, x, a, true);
  return a.back();
}

Mlp train_mlp(const cv::Mat& samples, const std::vector<int>& labels, int classes,
              const MlpTraining& training, void (*log)(int, double)) {
  CV_Assert(samples.type() == CV_32F && samples.rows == static_cast<int>(labels.size()) &&
            samples.rows > 0 && classes > 1);
  Mlp mlp;
  const int n = samples.rows, d = samples.cols;
  // Standardisation from the training samples (a constant feature keeps scale 1).
  cv::Mat mean, var;
  cv::reduce(samples, mean, 0, cv::REDUCE_AVG, CV_64F);
  cv::Mat sq;
  cv::multiply(samples, samples, sq, 1.0, CV_64F);
  cv::reduce(sq, var, 0, cv::REDUCE_AVG, CV_64F);
  mlp.mean.create(1, d, CV_32F);
  mlp.scale.create(1, d, CV_32F);
  for (int c = 0; c < d; ++c) {
    const double m = mean.at<double>(0, c);
    const double sd = std::sqrt(std::max(0.0, var.at<double>(0, c) - m * m));
    mlp.mean.at<float>(0, c) = static_cast<float>(m);
    mlp.scale.at<float>(0, c) = static_cast<float>(sd > 1e-6 ? 1.0 / sd : 1.0);
  }
  cv::Mat x;
  standardise(mlp, samples, x);

  cv::RNG rng(training.seed);
  std::vector<int> sizes{d};
  sizes.insert(sizes.end(), training.hidden.begin(), training.hidden.end());
  sizes.push_back(classes);
  std::vector<cv::Mat> vw, vb;
  for (std::size_t k = 0; k + 1 < sizes.size(); ++k) {
    cv::Mat w(sizes[k], sizes[k + 1], CV_32F);
    rng.fill(w, cv::RNG::NORMAL, 0.0, std::sqrt(2.0 / sizes[k]));  // He
    mlp.weights.push_back(w);
    mlp.biases.push_back(cv::Mat::zeros(1, sizes[k + 1], CV_32F));
    vw.push_back(cv::Mat::zeros(w.size(), CV_32F));
    vb.push_back(cv::Mat::zeros(1, sizes[k + 1], CV_32F));
  }

  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  const int batches = (n + training.batch - 1) / training.batch;
  const long steps = static_cast<long>(batches) * training.epochs;
  long step = 0;
  std::vector<cv::Mat> a;
  cv::Mat batch(training.batch, d, CV_32F);
  for (int epoch = 0; epoch < training.epochs; ++epoch) {
    for (int i = n; i > 1; --i)
      std::swap(order[static_cast<std::size_t>(i - 1)],
                order[static_cast<std::size_t>(rng.uniform(0, i))]);
    double loss = 0;
    for (int b0 = 0; b0 < n; b0 += training.batch, ++step) {
      const int m = std::min(training.batch, n - b0);
      cv::Mat in = batch.rowRange(0, m);
      for (int r = 0; r < m; ++r) x.row(order[static_cast<std::size_t>(b0 + r)]).copyTo(in.row(r));
      forward(mlp, in, a, false);
      // Cross-entropy's gradient at the logits: p - onehot, over the batch.
      cv::Mat g = a.back().clone();
      for (int r = 0; r < m; ++r) {
        const int y = labels[static_cast<std::size_t>(order[static_cast<std::size_t>(b0 + r)])];
        loss -= std::log(std::max(1e-12f, g.at<float>(r, y)));
        g.at<float>(r, y) -= 1.0f;
      }
      g /= static_cast<double>(m);
      const double rate =
          training.rate * 0.5 * (1 + std::cos(M_PI * static_cast<double>(step) / steps));
      for (int k = static_cast<int>(mlp.weights.size()) - 1; k >= 0; --k) {
        const auto kk = static_cast<std::size_t>(k);
        cv::Mat dw, db;
        cv::gemm(a[kk], g, 1.0, cv::noArray(), 0.0, dw, cv::GEMM_1_T);
        cv::reduce(g, db, 0, cv::REDUCE_SUM, CV_32F);
        if (k > 0) {
          cv::Mat back;
          cv::gemm(g, mlp.weights[kk], 1.0, cv::noArray(), 0.0, back, cv::GEMM_2_T);
          // Through the ReLU: no gradient where the unit was off.
          for (int r = 0; r < back.rows; ++r) {
            float* gb = back.ptr<float>(r);
            const float* act = a[kk].ptr<float>(r);
            for (int c = 0; c < back.cols; ++c)
              if (act[c] <= 0) gb[c] = 0;
          }
          g = back;
        }
        dw += training.decay * mlp.weights[kk];
        vw[kk] = training.momentum * vw[kk] - rate * dw;
        vb[kk] = training.momentum * vb[kk] - rate * db;
        mlp.weights[kk] += vw[kk];
        mlp.biases[kk] += vb[kk];
      }
    }
    if (log) log(epoch + 1, loss / n);
  }
  return mlp;
}

void write_mlp(cv::FileStorage& storage, const std::string& name, const Mlp& mlp) {
  storage << name << "{";
  storage << "mean" << mlp.mean << "scale" << mlp.scale;
  storage << "layers"
          << "[";
  for (std::size_t k = 0; k < mlp.weights.size(); ++k)
    storage << "{"
            << "w" << mlp.weights[k] << "b" << mlp.biases[k] << "}";
  storage << "]";
  storage << "}";
}

Mlp read_mlp(const cv::FileNode& node) {
  Mlp mlp;
  if (node.empty() || !node.isMap() || !node["layers"].isSeq()) return mlp;
  try {  // a node of the wrong kind where a matrix is expected throws
    node["mean"] >> mlp.mean;
    node["scale"] >> mlp.scale;
    for (const cv::FileNode& layer : node["layers"]) {
      if (!layer.isMap()) return Mlp{};
      cv::Mat w, b;
      layer["w"] >> w;
      layer["b"] >> b;
      mlp.weights.push_back(w);
      mlp.biases.push_back(b);
    }
  } catch (const cv::Exception&) {
    return Mlp{};
  }
  // Every shape must chain: inputs = mean's width, each layer's outputs the next one's inputs.
  bool ok = !mlp.weights.empty() && mlp.mean.type() == CV_32F && mlp.scale.type() == CV_32F &&
            mlp.mean.rows == 1 && mlp.scale.size() == mlp.mean.size();
  int width = mlp.mean.cols;
  for (std::size_t k = 0; ok && k < mlp.weights.size(); ++k) {
    ok = mlp.weights[k].type() == CV_32F && mlp.biases[k].type() == CV_32F &&
         mlp.weights[k].rows == width && mlp.biases[k].rows == 1 &&
         mlp.biases[k].cols == mlp.weights[k].cols;
    width = mlp.weights[k].cols;
  }
  return ok ? mlp : Mlp{};
}

}  // namespace arbitre::vision
