// train_pions — trains the pion cell classifier from scenes made by scenegen.
//
//   train_pions --out MODEL.yml [--examine-with MODEL.yml] [--trees 60] [--depth 12] [--augment]
//               [--net H[,H...] [--epochs 15] [--rate 0.01] [--decay 0.01]]
//               [--patch-net [--patch-epochs 8] [--patch-rate 0.02] [--patch-decay 1e-4]
//               [--patch-maps 8 16]
//                            [--patch-hidden 32] [--threads 1]] [--base MODEL.yml [--context]]
//               DIR [DIR...]
//
// Every scene is read by the detector with its fixed rule (or with a first model, so that the
// cells examined are those the trained reader will examine); each cell it examines
// is labelled from the ground truth (the true pion within 0.35 pitch of the cell's centre, or
// empty) and its features become one training sample of a random forest (OpenCV ml RTrees).
// --net also trains a small neural network (vision/common/mlp.h) on the same samples, stored
// beside the forest as "cell_net" (the reader then averages the two). --patch-net trains the
// patch network (a convolutional network on each examined cell's rectified patch, empty or
// pion, each patch also turned by 90, 180 and 270 degrees), stored as "cell_patch_net".
// --base takes the forest and the network of an existing model and trains only what --net and
// --patch-net ask for; the cells are then examined with that model (without a patch network)
// unless --examine-with says otherwise.
// --context (with --base, and nothing else to train) keeps the whole model, patch network
// included, and trains only the colour-context forest (vp::recolour_context): every scene is read
// by the reader with that model (the step itself off), and every pion it reports within 0.4 pitch
// of a true pion is one sample, its context features (vp::context_features) labelled with the
// true pion's colour. Stored as "colour_context".
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/ml.hpp>
#include <string>
#include <vector>

#include "vision/common/cnn.h"
#include "vision/common/image_io.h"
#include "vision/common/mlp.h"
#include "vision/pions/detector.h"

namespace fs = std::filesystem;
namespace vp = arbitre::vision::pions;
namespace ri = arbitre::referee::irma;

namespace {

// The ground-truth files of a directory of scenes, in order.
std::vector<fs::path> scene_files(const std::string& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// --context: see the header comment.
int train_context(const std::string& base_file, const std::string& out,
                  const std::vector<std::string>& dirs) {
  vp::CellModel model = vp::load_cell_model(base_file);
  if (!model.trained()) {
    std::fprintf(stderr, "%s: no forest\n", base_file.c_str());
    return 1;
  }
  model.context = nullptr;
  vp::Params params;
  params.context_share = 0;
  cv::Mat samples(0, vp::kContextFeatures, CV_32F);
  cv::Mat labels(0, 1, CV_32S);
  std::array<int, 5> per_class{};
  int scenes = 0, misread = 0;
  for (const std::string& dir : dirs) {
    for (const fs::path& file : scene_files(dir)) {
      const nlohmann::json truth = nlohmann::json::parse(std::ifstream(file));
      const cv::Mat image =
          arbitre::vision::load_image((fs::path(dir) / truth["image"].get<std::string>()).string());
      const double reach = 0.4 * truth["scene"]["pitch_px"].get<double>();
      const vp::Detection d = vp::detect(image, params, model);
      for (std::size_t k = 0; k < d.cells.size(); ++k) {
        if (d.cells[k].label < 1) continue;
        const cv::Point2d at = d.cells[k].centre / d.scale;
        int label = 0;
        for (const auto& p : truth["pions"]) {
          if (cv::norm(cv::Point2d(p["x"].get<double>(), p["y"].get<double>()) - at) < reach)
            label = 1 + static_cast<int>(*ri::colour_from_string(p["colour"].get<std::string>()));
        }
        if (label == 0) continue;  // a phantom: no colour to learn
        const auto x = vp::context_features(d.cells, k);
        samples.push_back(
            cv::Mat(1, vp::kContextFeatures, CV_32F, const_cast<float*>(x.data())).clone());
        labels.push_back(label);
        ++per_class[static_cast<std::size_t>(label)];
        misread += label != d.cells[k].label;
      }
      ++scenes;
    }
  }
  std::fprintf(stderr, "%d scenes, %d pions (%d misread): red %d, orange %d, green %d, white %d\n",
               scenes, samples.rows, misread, per_class[1], per_class[2], per_class[3],
               per_class[4]);
  cv::Ptr<cv::ml::RTrees> trees = cv::ml::RTrees::create();
  trees->setMaxDepth(12);
  trees->setMinSampleCount(5);
  trees->setCalculateVarImportance(false);
  trees->setActiveVarCount(0);
  trees->setTermCriteria(cv::TermCriteria(cv::TermCriteria::MAX_ITER, 100, 0));
  cv::theRNG().state = 20261202;
  trees->train(cv::ml::TrainData::create(samples, cv::ml::ROW_SAMPLE, labels));
  cv::Mat predicted;
  trees->predict(samples, predicted);
  int right = 0;
  for (int r = 0; r < samples.rows; ++r)
    right += static_cast<int>(predicted.at<float>(r)) == labels.at<int>(r);
  std::fprintf(stderr, "colour-context forest: training accuracy %.2f%%\n",
               100.0 * right / std::max(1, samples.rows));
  model.context = trees;
  vp::save_cell_model(out, model);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out;
  std::vector<std::string> dirs;
  int trees_count = 60, depth = 12;
  bool augment = false;
  vp::CellModel examiner;  // the model that chooses the cells to examine (none: the rule)
  bool examiner_given = false;
  std::string base_file;
  arbitre::vision::MlpTraining net;
  net.hidden.clear();
  net.epochs = 15;
  net.rate = 0.01;
  net.decay = 0.01;
  bool patch_net = false;
  bool context = false;
  arbitre::vision::CnnTraining patch_training;
  patch_training.epochs = 8;
  patch_training.shape.side = vp::kNetPatchPixels;
  patch_training.shape.channels = vp::kPatchPlanes;
  patch_training.shape.kernel1 = 5;
  patch_training.shape.maps1 = 8;
  patch_training.shape.kernel2 = 3;
  patch_training.shape.maps2 = 16;
  patch_training.shape.hidden = 32;
  patch_training.shape.classes = 2;
  int threads = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--out" && i + 1 < argc) {
      out = argv[++i];
    } else if (arg == "--augment") {
      augment = true;
    } else if (arg == "--trees" && i + 1 < argc) {
      trees_count = std::atoi(argv[++i]);
    } else if (arg == "--depth" && i + 1 < argc) {
      depth = std::atoi(argv[++i]);
    } else if (arg == "--examine-with" && i + 1 < argc) {
      examiner = vp::CellModel(vp::load_cell_model(argv[++i]).forest);
      examiner_given = true;
    } else if (arg == "--base" && i + 1 < argc) {
      base_file = argv[++i];
    } else if (arg == "--net" && i + 1 < argc) {
      const std::string widths = argv[++i];
      net.hidden.clear();
      for (std::size_t at = 0; at < widths.size();) {
        const std::size_t comma = std::min(widths.find(',', at), widths.size());
        net.hidden.push_back(std::atoi(widths.substr(at, comma - at).c_str()));
        at = comma + 1;
      }
    } else if (arg == "--epochs" && i + 1 < argc) {
      net.epochs = std::atoi(argv[++i]);
    } else if (arg == "--rate" && i + 1 < argc) {
      net.rate = std::atof(argv[++i]);
    } else if (arg == "--decay" && i + 1 < argc) {
      net.decay = std::atof(argv[++i]);
    } else if (arg == "--batch" && i + 1 < argc) {
      net.batch = std::atoi(argv[++i]);
    } else if (arg == "--patch-net") {
      patch_net = true;
    } else if (arg == "--context") {
      context = true;
    } else if (arg == "--patch-epochs" && i + 1 < argc) {
      patch_training.epochs = std::atoi(argv[++i]);
    } else if (arg == "--patch-rate" && i + 1 < argc) {
      patch_training.rate = std::atof(argv[++i]);
    } else if (arg == "--patch-maps" && i + 2 < argc) {
      patch_training.shape.maps1 = std::atoi(argv[++i]);
      patch_training.shape.maps2 = std::atoi(argv[++i]);
    } else if (arg == "--patch-hidden" && i + 1 < argc) {
      patch_training.shape.hidden = std::atoi(argv[++i]);
    } else if (arg == "--patch-decay" && i + 1 < argc) {
      patch_training.decay = std::atof(argv[++i]);
    } else if (arg == "--threads" && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else {
      dirs.push_back(arg);
    }
  }
  if (out.empty() || dirs.empty() ||
      (!base_file.empty() && net.hidden.empty() && !patch_net && !context) ||
      (context && (base_file.empty() || !net.hidden.empty() || patch_net)) ||
      patch_training.epochs < 1 || patch_training.rate <= 0 || patch_training.decay < 0 ||
      !patch_training.shape.valid() || threads < 1) {
    std::fprintf(
        stderr,
        "usage: train_pions --out MODEL.yml [--examine-with MODEL.yml] [--trees N] [--depth N] "
        "[--augment]\n"
        "                   [--net H[,H...] [--epochs E] [--rate R] [--decay D] [--batch B]]\n"
        "                   [--patch-net [--patch-epochs E] [--patch-rate R] [--patch-decay D] "
        "[--patch-maps M1 M2]\n"
        "                                [--patch-hidden H] [--threads T]] [--base MODEL.yml "
        "[--context]]\n"
        "                   DIR [DIR...]   (--base needs --net, --patch-net or --context: only "
        "those are trained;\n"
        "                                   --context alone)\n");
    return 2;
  }
  vp::CellModel model;
  if (context) return train_context(base_file, out, dirs);
  if (!base_file.empty()) {
    model = vp::load_cell_model(base_file);
    model.patch_net = {};
    if (!model.trained()) {
      std::fprintf(stderr, "%s: no forest\n", base_file.c_str());
      return 1;
    }
    if (!examiner_given) examiner = model;
    if (!net.hidden.empty()) model.net = {};
  }
  cv::Mat samples(0, vp::kCellFeatures, CV_32F);
  cv::Mat labels(0, 1, CV_32S);
  std::vector<unsigned char> patches;  // with --patch-net: each cell's patch, in four turns
  std::vector<int> patch_labels;       // 0 empty, 1 pion
  std::array<int, vp::kCellClasses> per_class{};
  int scenes = 0;
  for (const std::string& dir : dirs) {
    for (const fs::path& file : scene_files(dir)) {
      const nlohmann::json truth = nlohmann::json::parse(std::ifstream(file));
      const cv::Mat original = arbitre::vision::load_image((fs::path(dir) / truth["image"].get<std::string>()).string());
      const double radius = 0.35 * truth["scene"]["pitch_px"].get<double>();
      // The scene as rendered, then (with --augment) mirrored left to right and top to bottom:
      // the same pions under light from the other side, new cells for the same cost.
      for (int view = 0; view < (augment ? 3 : 1); ++view) {
        cv::Mat image;  // (not a header on `original`: flip would write into it)
        if (view == 0) {
          image = original;
        } else {
          cv::flip(original, image, view == 1 ? 1 : 0);
        }
        const auto seen_at = [&](double x, double y) {
          if (view == 1) x = original.cols - 1 - x;
          if (view == 2) y = original.rows - 1 - y;
          return cv::Point2d(x, y);
        };
        vp::Params params;
        params.keep_patches = patch_net;
        const vp::Detection d = vp::detect(image, params, examiner);
        for (const vp::Detection::Cell& cell : d.cells) {
          const cv::Point2d at = cell.centre / d.scale;
          int label = 0;
          for (const auto& p : truth["pions"]) {
            if (cv::norm(seen_at(p["x"].get<double>(), p["y"].get<double>()) - at) < radius) {
              label = 1 + static_cast<int>(*ri::colour_from_string(p["colour"].get<std::string>()));
            }
          }
          samples.push_back(cv::Mat(1, vp::kCellFeatures, CV_32F, const_cast<float*>(cell.features.data())).clone());
          if (patch_net) {
            for (int turn = 0; turn < 4; ++turn) {  // turned 0, 90, 180, 270 degrees
              patches.resize(patches.size() + vp::kNetPatchSize);
              vp::patch_view(cell.patch.data(), turn,
                             patches.data() + patches.size() - vp::kNetPatchSize);
              patch_labels.push_back(label > 0 ? 1 : 0);
            }
          }
          labels.push_back(label);
          ++per_class[static_cast<std::size_t>(label)];
        }
      }
      ++scenes;
    }
  }
  std::fprintf(stderr, "%d scenes, %d cells: empty %d, red %d, orange %d, green %d, white %d\n", scenes, samples.rows,
               per_class[0], per_class[1], per_class[2], per_class[3], per_class[4]);
  if (!model.trained()) {
    cv::Ptr<cv::ml::RTrees> trees = cv::ml::RTrees::create();
    trees->setMaxDepth(depth);
    trees->setMinSampleCount(4);
    trees->setCalculateVarImportance(false);
    trees->setActiveVarCount(0);
    trees->setTermCriteria(cv::TermCriteria(cv::TermCriteria::MAX_ITER, trees_count, 0));
    cv::theRNG().state = 20261129;
    trees->train(cv::ml::TrainData::create(samples, cv::ml::ROW_SAMPLE, labels));
    model.forest = trees;
  }
  const auto accuracy = [&](const cv::Mat& shares) {
    int right = 0;
    for (int r = 0; r < samples.rows; ++r) {
      cv::Point best;
      cv::minMaxLoc(shares.row(r), nullptr, nullptr, nullptr, &best);
      right += best.x == labels.at<int>(r);
    }
    return 100.0 * right / std::max(1, samples.rows);
  };
  if (base_file.empty()) {
    cv::Mat predicted;
    model.forest->predict(samples, predicted);
    int right = 0;
    for (int r = 0; r < samples.rows; ++r) right += static_cast<int>(predicted.at<float>(r)) == labels.at<int>(r);
    std::fprintf(stderr, "forest: training accuracy %.2f%%\n", 100.0 * right / std::max(1, samples.rows));
  }
  if (!net.hidden.empty()) {
    std::fprintf(stderr, "cell network:");
    for (int h : net.hidden) std::fprintf(stderr, " %d", h);
    std::fprintf(stderr, " hidden, %d epochs, rate %g, decay %g, batch %d\n", net.epochs, net.rate, net.decay,
                 net.batch);
    model.net = arbitre::vision::train_mlp(samples, std::vector<int>(labels.begin<int>(), labels.end<int>()),
                                           vp::kCellClasses, net, [](int epoch, double loss) {
                                             std::fprintf(stderr, "  epoch %d: loss %.4f\n", epoch, loss);
                                           });
    std::fprintf(stderr, "network: training accuracy %.2f%%; with the forest, half and half: %.2f%%\n",
                 accuracy(model.net.probabilities(samples)), accuracy(vp::cell_shares(model, samples, 0.5)));
  }
  if (patch_net) {
    std::fprintf(stderr, "patch network: %zu patches (%d with a pion), %d epochs, %d threads\n", patch_labels.size(),
                 static_cast<int>(std::count(patch_labels.begin(), patch_labels.end(), 1)), patch_training.epochs,
                 threads);
    cv::setNumThreads(threads);
    const cv::Mat images(static_cast<int>(patch_labels.size()),
                         vp::kNetPatchSize, CV_8U, patches.data());
    model.patch_net = arbitre::vision::train_cnn(images, patch_labels, patch_training, [](int epoch, double loss) {
      std::fprintf(stderr, "  epoch %d: loss %.4f\n", epoch, loss);
    });
    cv::setNumThreads(1);
    const cv::Mat p = model.patch_net.probabilities(images);
    int right = 0;
    for (int r = 0; r < p.rows; ++r) right += (p.at<float>(r, 1) >= 0.5) == (patch_labels[static_cast<std::size_t>(r)] == 1);
    std::fprintf(stderr, "patch network: training accuracy %.2f%%\n", 100.0 * right / std::max(1, p.rows));
  }
  vp::save_cell_model(out, model);
  return 0;
}
