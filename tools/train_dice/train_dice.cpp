// train_dice — trains the dice model (vision/dice/detector.h) on scenes rendered by
// `scenegen --dice`: the window detector (HOG + a linear SVM, trained by averaged stochastic
// gradient descent on the hinge loss, then twice more with the false detections it makes on the
// training scenes), and the face reader (an RTrees forest over the face crop's HOG and
// thumbnail: wrong turn, value 1..10 upright, cocked, not a die), trained on the candidates the
// finished detector finds in the training scenes, so that it learns the crops it meets in use;
// a window on a die at the wrong size is "not a die". Then the top-face locator (regression of
// the shift to the face), the digit's axis (regression of cos and sin of twice its rotation),
// the digit forest (only crops along the axis at the located face: upright, half a turn round,
// cocked), the texture forest and the flat/cocked forest.
//
//   train_dice --out dice_digits.yml [--trees 60] [--depth 16] [--digit-copies 3]
//              [--net 64 [--epochs 15] [--rate 0.01] [--decay 0.01]]
//              [--cnn [--cnn-epochs 12] [--cnn-rate 0.02] [--cnn-decay 0.0001] [--cnn-smoothing 0]
//               [--cnn-copies 4] [--cnn-jitter 0.12] [--cnn-shape 12,24,64] [--threads 1]
//               [--cnn-second]]
//              [--axis-cnn [--axis-copies 4] [--axis-jitter 0.15]]
//              [--face-cnn [--face-copies 8] [--face-target read|centre|top]]
//              [--centre-cnn [--face-copies 8]] [--centre-continue] [--top-cnn [--face-copies 8]]
//              [--cnn-clear [--clear-side 28] [--clear-colour]] [--face-clear [--face-copies 8]]
//              [--clear-continue] [--clear-second] [--digit-continue]
//              [--presence-cnn [--presence-copies 6] [--presence-hard C]]
//              [--fine-face | --fine-centre] [--fine-continue]
//              [--size-cnn [--size-copies 16]]
//              [--lean-cnn [--lean-copies 16] [--lean-side 40] [--lean-hard C] [--lean-continue]]
//              [--base MODEL.yml] DIR...
// --net also trains the digit network (vision/common/mlp.h) on the digit forest's samples, the
// reader's veto. --cnn trains the digit convolutional network (vision/common/cnn.h) on grey crops
// of its own (--cnn-copies per die, its own random draws), which then reads the digits;
// --threads only speeds its training up (the same result); with --cnn-second (and --base) it is
// trained as a second digit network, kept beside the base's (the reader takes the mean of the
// two networks' answers; trained on other scenes, it errs elsewhere). With --digit-continue
// (and --base), --cnn (or --cnn-second) starts from the base's own network of that kind (its
// shape: the same --cnn-shape) instead of random weights: more scenes taught to it. --cnn-decay (L2
// decay of the weights) and --cnn-smoothing (label smoothing, cnn.h) apply to every network this
// run trains.
// --base takes every part from
// MODEL and trains only what --net, --cnn and --axis-cnn ask for. --axis-cnn trains the axis
// network (the digit's axis modulo 180 degrees in kAxisBins bins, from the unturned grey crop at
// the top face; its own draws: --axis-copies crops per die within --axis-jitter x the radius of the
// true face, and one at the face the locator finds), which then replaces the axis forests.
// --face-cnn trains the face network (how far the top face lies from a point on the die along
// the crop's x axis, in kFaceBins bins; its own draws: --face-copies crops per die, half from
// near its centre and half from near its face, at any turn, and two from each candidate's
// centre; a cocked die's "face" is its centre; each crop with the mark toward the image's centre
// as a second plane), whose answer is then averaged with the face locator's forests'.
// --face-target teaches it another point, for measuring (docs/benchmarks.md, 2026-12-03): every
// die's centre (centre) or every die's most upward face, a cocked die's too (top); read (the
// default) is the top face of a flat die and the centre of a cocked one.
// --centre-cnn (with --base) trains the centre network: the face network's crops and draws, taught
// every die's centre (as --face-cnn --face-target centre), kept beside the base's face network;
// the reader puts each die it chooses, and reports it, where that network finds its centre.
// --top-cnn (with --base) trains the top network the same way, taught every die's most upward
// face (a cocked die's too, as --face-target top), starting from the base's face network's
// weights (which find a flat die's top face already), kept beside the others: the reader flags a
// die cocked when that face lies off where the other dice's top faces put a flat die's
// (Params::tilt_*).
// --cnn-clear (with --base) trains the clear network: the digit network's crops, draws and
// classes (--cnn-copies ...) of transparent dice alone, at --clear-side pixels (the crop spans
// the same +- kCnnRadius x the radius) and with --clear-colour from the blue, green and red
// planes instead of the lightness; --face-clear (with --base) the clear face network: the face
// network's crops and draws (--face-copies) of transparent dice alone. The reader reads a
// transparent die left unread again with both (Params::clear_*). Both refuse scenes without a
// transparent die. With --clear-continue, either starts from the base's own network of its kind
// (its shape: the same --clear-side, --clear-colour and --cnn-shape) instead of random weights:
// more scenes of transparent dice taught to the networks already trained. With --clear-second,
// --cnn-clear trains the second clear network (clear_cnn_2) and keeps the base's first: the
// reader takes the mean of the pair's answers, each from crops of its own side.
// --presence-cnn trains the presence network (a die centred at about the crop's size or not, from
// a crop spanning +- kPresenceSpan x the radius; its own draws: --presence-copies crops per die
// within 0.35 radius of its centre (along each axis) and 0.75-1.3 x its size, at any turn, and the
// candidates the detector finds on them; not a die: every other candidate, windows on a die at
// the wrong size, half off a die, between two dice and on the table), whose "not a die" is then
// averaged into a candidate's presence. With --presence-hard C (and --base) it is trained again
// from the base's presence network, with the base's whole reader's mistakes on the scenes besides
// (hard examples): each die it reports where no die lies gives C crops "not a die", each die in
// view (60% or more) it misses gives C crops "a die" (centres within 0.1 radius, 0.9-1.1 x the
// size, at any turn).
// --fine-face and --fine-centre (with --base, one at a time) train the fine face network and the
// fine centre network (detector.h: the face network's planes and classes in bins of kFineStep, the
// fine face network's crop +- kFineFaceSpan x the radius at kFineFaceSide pixels, the fine centre
// network's +- kFaceSpan at kFineCentreSide; their own draws: --face-copies crops per die, half
// within 0.08 radius of the true top face or centre and half within 0.2, at any turn; a cocked
// die's top face is its most upward face), kept beside the others: the face check places a die
// still off again with them (Params::fine_*).
// --size-cnn (with --base) trains the size network (detector.h: a grey crop +- kSizeSpan x the
// radius at kSizeSide pixels, log(the die's radius / the crop's) in kSizeBins bins of kSizeStep;
// its own draws: --size-copies crops per die, from within 0.06 radius of its centre, where the
// centre networks put it, at 0.70-1.42 x its radius, even in log, at any turn), kept beside the
// others: a die's radius measured where the window scan gives only its level (Params::size_*).
// --lean-cnn (with --base) trains the lean network (detector.h, lean_crop: a grey crop +- kLeanSpan
// x the radius at --lean-side pixels (kLeanSide, 40, unless told) round a die's centre, turned
// toward where a flat die's top face would lie, and a plane with a dot there; 0 flat, 1 leaning).
// Where a flat die's top face would lie is the fit of the scene's other flat dice's true faces
// (fit_face_shift), as the face check fits the dice read; its own draws: --lean-copies crops per
// leaning die and a quarter as many per flat one (at least one), the centre within 0.07 radius of
// the true one, the place of the flat face within 0.06, the radius 0.94-1.06 x (where the check's
// networks put them), mirrored half the time; kept beside the others (Params::lean_bound).
// With --lean-hard C, besides, C crops for each question the base's reader puts to its lean
// network on the scenes (Detection::lean_asked: where it asks from, at what radius, toward where
// the read dice put a flat die's top face; within 0.02 radius of that, mirrored half the time),
// labelled as the true die it reports there (within 0.6 of its radius, as dice_eval scores): the
// network learns from the centres, radii and faces the reader gives it, off as they may be.
// With --lean-continue it starts from the base's own lean network (the same --lean-side and
// --cnn-shape) instead of random weights: more scenes taught to it.
// --centre-continue does so for --centre-cnn (the base's own centre network, of the training's
// --cnn-shape, taught on), --fine-continue for --fine-face or --fine-centre.
//
// Deterministic: a fixed seed, one thread, scenes in name order.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/ml.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "vision/common/forest.h"
#include "vision/common/image_io.h"
#include "vision/dice/detector.h"

namespace fs = std::filesystem;
namespace vd = arbitre::vision::dice;

namespace {

struct TruthDie {
  cv::Point2d centre;
  double radius = 0;
  int value = 0;  // 0 when cocked
  bool cocked = false;
  double visible = 0;
  double rotation = 0;  // digit's up direction, clockwise from image-up
  cv::Point2d face;     // the top face's centre
  int texture = 0;      // 0 none, 1 frosted, 2 transparent
};

// The face network's class (and the fine networks', in bins of `step`) of a crop at `from`
// turned by `turn` degrees: the bin of `target`'s shift along the crop's x axis (x `radius`).
int shift_bin(cv::Point2d target, cv::Point2d from, double radius, double turn, double step) {
  const double a = turn * M_PI / 180.0;
  const cv::Point2d shift = (target - from) / radius;
  const double along = std::cos(a) * shift.x + std::sin(a) * shift.y;
  return std::clamp(static_cast<int>(std::lround(along / step)) + vd::kFaceBins / 2, 0,
                    vd::kFaceBins - 1);
}

// A face-shaped network's input appended to `images`: the grey crop at `from` turned by `turn`
// degrees (+- `span` x `radius`, `side` pixels), then its mark toward the image's centre.
void append_crop_and_mark(std::vector<unsigned char>& images, const cv::Mat& grey, cv::Point2d from,
                          double radius, double turn, double span, int side) {
  cv::Mat row(1, side * side, CV_8U);
  vd::cnn_crops(grey, from, radius, {turn}, row, 0, span, side);
  images.insert(images.end(), row.data, row.data + row.cols);
  vd::face_mark(grey.size(), from, turn, row.data, side);
  images.insert(images.end(), row.data, row.data + row.cols);
}

// 0 and 8 read the same half a turn round.
bool same_upside_down(const TruthDie& d) { return d.value == 10 || d.value == 8; }

// The label of a flat die's crop half a turn round from upright.
int half_turn_label(const TruthDie& d) { return same_upside_down(d) ? d.value : vd::kWrongTurn; }

struct Scene {
  cv::Mat image, grey;
  std::vector<TruthDie> dice;
};

std::vector<Scene> load_scenes(const std::vector<std::string>& dirs) {
  std::vector<fs::path> files;
  for (const std::string& dir : dirs) {
    std::error_code error;
    if (!fs::is_directory(dir, error))
      throw std::runtime_error(dir + ": not a directory of scenes (scenegen --dice --out DIR)");
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string name = entry.path().filename().string();
      if (entry.path().extension() == ".json" && name.find("_gt") == std::string::npos)
        files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<Scene> scenes;
  for (const fs::path& file : files) {
    try {
      const auto truth = nlohmann::json::parse(std::ifstream(file));
      if (!truth.contains("dice")) continue;
      Scene scene;
      scene.image = arbitre::vision::load_image(
          (file.parent_path() / truth.at("image").get<std::string>()).string());
      cv::cvtColor(scene.image, scene.grey, cv::COLOR_BGR2GRAY);
      for (const auto& d : truth.at("dice")) {
        TruthDie die;
        die.centre = {d.at("x").get<double>(), d.at("y").get<double>()};
        die.radius = d.at("radius_px").get<double>();
        die.cocked = d.at("cocked").get<bool>();
        die.value = d.at("value").is_null() ? 0 : d.at("value").get<int>();
        die.visible = d.at("visible").get<double>();
        die.rotation = d.at("face").at("digit_rotation_deg").get<double>();
        die.face = {d.at("face").at("x").get<double>(), d.at("face").at("y").get<double>()};
        const std::string texture = d.at("texture");
        die.texture = texture == "frosted" ? 1 : texture == "transparent" ? 2 : 0;
        scene.dice.push_back(die);
      }
      scenes.push_back(std::move(scene));
    } catch (const nlohmann::json::exception& e) {
      throw std::runtime_error(file.string() + ": " + e.what());
    }
  }
  return scenes;
}

// The window descriptor of a die-sized window at `centre` whose die radius is `radius`,
// turned by `angle` degrees: the level is cut 48 px wide around it so that the gradients at
// the window's edge are those of the scan.
std::vector<float> window_descriptor(const cv::Mat& grey, cv::Point2d centre, double radius,
                                     double angle) {
  constexpr int kSide = vd::kWindow + 16;
  const double f = vd::kWindowRadius / radius;
  // Only the neighbourhood is resampled (averaged first when shrinking, as the scan's
  // INTER_AREA pyramid does).
  const double half = kSide / f + 4;
  const cv::Rect roi =
      cv::Rect(static_cast<int>(centre.x - half), static_cast<int>(centre.y - half),
               static_cast<int>(2 * half), static_cast<int>(2 * half)) &
      cv::Rect(0, 0, grey.cols, grey.rows);
  cv::Mat source;
  cv::Point2d at = centre - cv::Point2d(roi.x, roi.y);
  double pre = 1;
  if (roi.area() == 0) {
    source = cv::Mat(kSide, kSide, CV_8U, cv::Scalar(0));
  } else if (f < 0.75) {
    pre = std::min(1.0, f * 1.5);
    cv::resize(grey(roi), source, cv::Size(), pre, pre, cv::INTER_AREA);
    at *= pre;
  } else {
    source = grey(roi);
  }
  cv::Mat m = cv::getRotationMatrix2D(
      cv::Point2f(static_cast<float>(at.x), static_cast<float>(at.y)), angle, f / pre);
  m.at<double>(0, 2) += kSide / 2.0 - at.x;
  m.at<double>(1, 2) += kSide / 2.0 - at.y;
  cv::Mat patch;
  cv::warpAffine(source, patch, m, cv::Size(kSide, kSide), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  const cv::HOGDescriptor hog = vd::window_hog();
  std::vector<float> descriptor;
  hog.compute(patch, descriptor, cv::Size(8, 8), cv::Size(),
              std::vector<cv::Point>{cv::Point(8, 8)});
  return descriptor;
}

// Linear SVM by averaged SGD on the hinge loss (Pegasos step sizes), classes weighted to balance.
cv::Mat train_linear(const std::vector<std::vector<float>>& x, const std::vector<int>& y,
                     double lambda, int epochs) {
  const std::size_t dims = x.front().size();
  std::vector<double> w(dims + 1, 0.0), avg(dims + 1, 0.0);
  const double positives = static_cast<double>(std::count(y.begin(), y.end(), 1));
  const double negatives = static_cast<double>(y.size()) - positives;
  cv::RNG rng(20261129);
  std::vector<int> order(x.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  long t = 0, averaged = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (std::size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[rng.uniform(0, static_cast<int>(i))]);
    for (int i : order) {
      ++t;
      const double eta = 1.0 / (lambda * (static_cast<double>(t) + 1000.0));
      const auto& xi = x[static_cast<std::size_t>(i)];
      const double yi = y[static_cast<std::size_t>(i)] > 0 ? 1.0 : -1.0;
      const double weight = yi > 0 ? 0.5 * static_cast<double>(y.size()) / positives
                                   : 0.5 * static_cast<double>(y.size()) / negatives;
      double s = w[dims];
      for (std::size_t k = 0; k < dims; ++k) s += w[k] * xi[k];
      for (std::size_t k = 0; k < dims; ++k) w[k] *= 1.0 - eta * lambda;
      if (yi * s < 1) {
        for (std::size_t k = 0; k < dims; ++k) w[k] += eta * weight * yi * xi[k];
        w[dims] += eta * weight * yi;
      }
      if (epoch >= epochs / 2) {
        ++averaged;
        for (std::size_t k = 0; k <= dims; ++k) avg[k] += w[k];
      }
    }
  }
  cv::Mat out(1, static_cast<int>(dims + 1), CV_32F);
  for (std::size_t k = 0; k <= dims; ++k)
    out.at<float>(0, static_cast<int>(k)) = static_cast<float>(avg[k] / std::max(1L, averaged));
  return out;
}

// A regression forest of 20 trees of at most `depth` levels (the face locator's, the axis').
cv::Ptr<cv::ml::RTrees> regression_forest(const cv::Mat& features, const std::vector<float>& target,
                                          int depth) {
  cv::Ptr<cv::ml::RTrees> forest = cv::ml::RTrees::create();
  forest->setMaxDepth(depth);
  forest->setMinSampleCount(8);
  forest->setRegressionAccuracy(0.001f);
  forest->setActiveVarCount(0);
  forest->setTermCriteria(cv::TermCriteria(cv::TermCriteria::MAX_ITER, 20, 0));
  forest->train(cv::ml::TrainData::create(features, cv::ml::ROW_SAMPLE, cv::Mat(target, true)));
  return forest;
}

// A classification forest of `trees` trees of at most `depth` levels, leaves of at least
// `min_samples`, trained with OpenCV's generator at `seed` (the reader's, the digits', the
// texture's and the flat/cocked forests).
cv::Ptr<cv::ml::RTrees> class_forest(const cv::Mat& features, const std::vector<int>& labels,
                                     int trees, int depth, int min_samples, std::uint64_t seed) {
  cv::Ptr<cv::ml::RTrees> forest = cv::ml::RTrees::create();
  forest->setMaxDepth(depth);
  forest->setMinSampleCount(min_samples);
  forest->setCalculateVarImportance(false);
  forest->setActiveVarCount(0);
  forest->setTermCriteria(cv::TermCriteria(cv::TermCriteria::MAX_ITER, trees, 0));
  cv::theRNG().state = seed;
  forest->train(cv::ml::TrainData::create(features, cv::ml::ROW_SAMPLE, cv::Mat(labels, true)));
  return forest;
}

// The true die a candidate lies on (within 0.5 of its radius), or -1.
int match(const Scene& scene, cv::Point2d centre) {
  int best = -1;
  double best_d = 1e18;
  for (std::size_t i = 0; i < scene.dice.size(); ++i) {
    const double d = cv::norm(scene.dice[i].centre - centre);
    if (d < 0.5 * scene.dice[i].radius && d < best_d) best = static_cast<int>(i), best_d = d;
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out;
  int trees = 60, depth = 16, digit_copies = 3;
  std::string base_file;
  arbitre::vision::MlpTraining net;
  net.hidden.clear();
  bool cnn = false, cnn_second = false;
  // The digit network's training on transparent dice alone, kept as clear_cnn.
  bool cnn_clear = false, clear_second = false;
  int clear_side = vd::kCnnSide, clear_planes = 1;  // its crops' side and planes (1 grey, 3 colour)
  arbitre::vision::CnnTraining cnn_training;
  int cnn_copies = 4, threads = 1;
  double cnn_jitter = 0.12;  // x radius, the CNN's crops around the true top face
  bool axis_cnn = false;
  int axis_copies = 4;
  double axis_jitter = 0.15;
  bool face_cnn = false;
  bool centre_cnn = false;  // the face network's training, taught centres, kept as centre_cnn
  bool centre_continue = false;  // --centre-cnn from the base's own centre network
  bool fine_continue = false;    // --fine-face / --fine-centre from the base's own network
  bool clear_continue = false;  // --cnn-clear / --face-clear from the base's own network
  bool digit_continue = false;  // --cnn / --cnn-second from the base's own network
  bool top_cnn = false;     // the same, taught every die's most upward face: kept as top_cnn
  bool face_clear = false;  // the face network's training on transparent dice alone: clear_face_cnn
  int face_copies = 8;
  std::string face_target = "read";  // what the face network is taught to find (see --face-target)
  bool presence_cnn = false;
  int presence_copies = 6;
  int presence_hard = 0;  // --presence-hard: crops per mistake of the base's reader (0: none)
  bool fine_face = false, fine_centre = false;  // the fine networks' training (one at a time)
  bool size_cnn = false;
  int size_copies = 16;
  bool lean_cnn = false;
  int lean_copies = 16;
  int lean_side = vd::kLeanSide;
  int lean_hard = 0;  // --lean-hard: crops per question the base's reader asks (0: none)
  bool lean_continue = false;  // --lean-cnn from the base's own lean network
  std::vector<std::string> dirs;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--out" && i + 1 < argc)
      out = argv[++i];
    else if (a == "--trees" && i + 1 < argc)
      trees = std::atoi(argv[++i]);
    else if (a == "--depth" && i + 1 < argc)
      depth = std::atoi(argv[++i]);
    else if (a == "--digit-copies" && i + 1 < argc)
      digit_copies = std::atoi(argv[++i]);
    else if (a == "--base" && i + 1 < argc)
      base_file = argv[++i];
    else if (a == "--net" && i + 1 < argc) {
      // Hidden layers' widths, e.g. 128 or 256,64.
      net.hidden.clear();
      for (std::string w = argv[++i]; !w.empty();) {
        const std::size_t comma = w.find(',');
        net.hidden.push_back(std::atoi(w.substr(0, comma).c_str()));
        w = comma == std::string::npos ? "" : w.substr(comma + 1);
      }
    } else if (a == "--epochs" && i + 1 < argc)
      net.epochs = std::atoi(argv[++i]);
    else if (a == "--decay" && i + 1 < argc)
      net.decay = std::atof(argv[++i]);
    else if (a == "--rate" && i + 1 < argc)
      net.rate = std::atof(argv[++i]);
    else if (a == "--cnn")
      cnn = true;
    else if (a == "--cnn-second")
      cnn = cnn_second = true;
    else if (a == "--cnn-clear")
      cnn = cnn_clear = true;
    else if (a == "--clear-side" && i + 1 < argc)
      clear_side = std::atoi(argv[++i]);
    else if (a == "--clear-colour")
      clear_planes = 3;
    else if (a == "--clear-second")
      clear_second = true;
    else if (a == "--cnn-epochs" && i + 1 < argc)
      cnn_training.epochs = std::atoi(argv[++i]);
    else if (a == "--cnn-rate" && i + 1 < argc)
      cnn_training.rate = std::atof(argv[++i]);
    else if (a == "--cnn-decay" && i + 1 < argc)
      cnn_training.decay = std::atof(argv[++i]);
    else if (a == "--cnn-smoothing" && i + 1 < argc)
      cnn_training.smoothing = std::atof(argv[++i]);
    else if (a == "--cnn-copies" && i + 1 < argc)
      cnn_copies = std::atoi(argv[++i]);
    else if (a == "--cnn-shape" && i + 1 < argc) {
      // MAPS1,MAPS2,HIDDEN: the networks' widths (default 12,24,64).
      if (std::sscanf(argv[++i], "%d,%d,%d", &cnn_training.shape.maps1, &cnn_training.shape.maps2,
                      &cnn_training.shape.hidden) != 3 ||
          cnn_training.shape.maps1 < 1 || cnn_training.shape.maps2 < 1 ||
          cnn_training.shape.hidden < 1) {
        std::fprintf(stderr,
                     "train_dice: --cnn-shape takes MAPS1,MAPS2,HIDDEN (at least 1 each), "
                     "got %s\n",
                     argv[i]);
        return 2;
      }
    } else if (a == "--cnn-jitter" && i + 1 < argc)
      cnn_jitter = std::atof(argv[++i]);
    else if (a == "--axis-cnn")
      axis_cnn = true;
    else if (a == "--axis-copies" && i + 1 < argc)
      axis_copies = std::atoi(argv[++i]);
    else if (a == "--axis-jitter" && i + 1 < argc)
      axis_jitter = std::atof(argv[++i]);
    else if (a == "--face-cnn")
      face_cnn = true;
    else if (a == "--centre-cnn")
      centre_cnn = true;
    else if (a == "--top-cnn")
      top_cnn = true;
    else if (a == "--clear-continue")
      clear_continue = true;
    else if (a == "--digit-continue")
      digit_continue = true;
    else if (a == "--face-clear")
      face_clear = true;
    else if (a == "--face-target" && i + 1 < argc)
      face_target = argv[++i];
    else if (a == "--face-copies" && i + 1 < argc)
      face_copies = std::atoi(argv[++i]);
    else if (a == "--presence-cnn")
      presence_cnn = true;
    else if (a == "--fine-face")
      fine_face = true;
    else if (a == "--fine-centre")
      fine_centre = true;
    else if (a == "--size-cnn")
      size_cnn = true;
    else if (a == "--size-copies" && i + 1 < argc)
      size_copies = std::atoi(argv[++i]);
    else if (a == "--lean-cnn")
      lean_cnn = true;
    else if (a == "--lean-copies" && i + 1 < argc)
      lean_copies = std::atoi(argv[++i]);
    else if (a == "--lean-side" && i + 1 < argc)
      lean_side = std::atoi(argv[++i]);
    else if (a == "--lean-hard" && i + 1 < argc)
      lean_hard = std::atoi(argv[++i]);
    else if (a == "--lean-continue")
      lean_continue = true;
    else if (a == "--centre-continue")
      centre_continue = true;
    else if (a == "--fine-continue")
      fine_continue = true;
    else if (a == "--presence-copies" && i + 1 < argc)
      presence_copies = std::atoi(argv[++i]);
    else if (a == "--presence-hard" && i + 1 < argc)
      presence_hard = std::atoi(argv[++i]);
    else if (a == "--threads" && i + 1 < argc)
      threads = std::atoi(argv[++i]);
    else
      dirs.push_back(a);
  }
  for (int h : net.hidden) {
    if (h < 1 || h > 4096) {
      std::fprintf(stderr, "train_dice: --net: a hidden layer of %d units (1 to 4096)\n", h);
      return 2;
    }
  }
  if (!net.hidden.empty() && (net.epochs < 1 || net.rate <= 0 || net.decay < 0)) {
    std::fprintf(stderr,
                 "train_dice: --epochs must be at least 1, --rate above 0, --decay 0 or more\n");
    return 2;
  }
  if (cnn && (cnn_training.epochs < 1 || cnn_training.rate <= 0 || cnn_training.decay < 0 ||
              !(cnn_training.smoothing >= 0 && cnn_training.smoothing < 1) || cnn_copies < 1 ||
              threads < 1 || cnn_jitter < 0 || cnn_jitter > 0.5)) {
    std::fprintf(stderr,
                 "train_dice: --cnn-epochs, --cnn-copies and --threads must be at least 1, "
                 "--cnn-rate above 0, --cnn-decay 0 or more, --cnn-smoothing 0 to below 1, "
                 "--cnn-jitter 0 to 0.5\n");
    return 2;
  }
  if (axis_cnn && (axis_copies < 1 || axis_jitter < 0 || axis_jitter > 0.5 || threads < 1)) {
    std::fprintf(stderr,
                 "train_dice: --axis-copies and --threads must be at least 1, --axis-jitter 0 to "
                 "0.5\n");
    return 2;
  }
  if (face_target != "read" && face_target != "centre" && face_target != "top") {
    std::fprintf(stderr, "train_dice: --face-target is read, centre or top, not '%s'\n",
                 face_target.c_str());
    return 2;
  }
  // Any network of the face network's shape and crops (each trained on its own targets).
  const bool face_shaped = face_cnn || centre_cnn || face_clear || top_cnn;
  if (face_shaped && (face_copies < 1 || threads < 1)) {
    std::fprintf(stderr, "train_dice: --face-copies and --threads must be at least 1\n");
    return 2;
  }
  if (presence_cnn && (presence_copies < 1 || threads < 1)) {
    std::fprintf(stderr, "train_dice: --presence-copies and --threads must be at least 1\n");
    return 2;
  }
  if (presence_hard != 0 && (!presence_cnn || base_file.empty() || presence_hard < 1)) {
    std::fprintf(stderr,
                 "train_dice: --presence-hard goes with --presence-cnn and --base, and is at "
                 "least 1\n");
    return 2;
  }
  if ((cnn_second || cnn_clear) && base_file.empty()) {
    std::fprintf(stderr,
                 "train_dice: --cnn-second and --cnn-clear need --base (the first digit "
                 "network's model)\n");
    return 2;
  }
  if (cnn_clear) {
    arbitre::vision::CnnShape shape = cnn_training.shape;
    shape.side = clear_side;
    if (clear_side > 64 || !shape.valid()) {
      std::fprintf(stderr,
                   "train_dice: --clear-side %d does not fit the network (at most 64 pixels, and "
                   "each convolution's output even: 28, 32, 36, 40, ...)\n",
                   clear_side);
      return 2;
    }
  }
  if (clear_second && (!cnn_clear || clear_continue)) {
    std::fprintf(stderr,
                 "train_dice: --clear-second goes with --cnn-clear (not --clear-continue): it "
                 "trains the second clear network from random weights\n");
    return 2;
  }
  if (cnn_second && cnn_clear) {
    std::fprintf(stderr,
                 "train_dice: --cnn-second and --cnn-clear train one network each: "
                 "one at a time\n");
    return 2;
  }
  if (face_clear && (base_file.empty() || face_cnn || centre_cnn)) {
    std::fprintf(stderr,
                 "train_dice: --face-clear needs --base, and goes without --face-cnn and "
                 "--centre-cnn\n");
    return 2;
  }
  if (centre_cnn && (base_file.empty() || face_cnn || face_target != "read")) {
    std::fprintf(stderr,
                 "train_dice: --centre-cnn needs --base, and goes without --face-cnn and "
                 "--face-target\n");
    return 2;
  }
  if ((fine_face || fine_centre) &&
      (base_file.empty() || (fine_face && fine_centre) || face_copies < 1 || threads < 1)) {
    std::fprintf(stderr,
                 "train_dice: --fine-face and --fine-centre need --base, one at a time, and "
                 "--face-copies and --threads at least 1\n");
    return 2;
  }
  if (size_cnn && (base_file.empty() || size_copies < 1 || threads < 1)) {
    std::fprintf(stderr,
                 "train_dice: --size-cnn needs --base, and --size-copies and --threads at least "
                 "1\n");
    return 2;
  }
  if (lean_cnn && (base_file.empty() || lean_copies < 1 || threads < 1 ||
                   !arbitre::vision::CnnShape{lean_side, vd::kLeanPlanes}.valid())) {
    std::fprintf(stderr,
                 "train_dice: --lean-cnn needs --base, --lean-copies and --threads at least 1, and "
                 "a --lean-side the network's layers fit (a multiple of 4: each convolution's "
                 "side even)\n");
    return 2;
  }
  if (lean_hard != 0 && (!lean_cnn || lean_hard < 1)) {
    std::fprintf(stderr, "train_dice: --lean-hard goes with --lean-cnn, and is at least 1\n");
    return 2;
  }
  if (top_cnn &&
      (base_file.empty() || face_cnn || centre_cnn || face_clear || face_target != "read")) {
    std::fprintf(stderr,
                 "train_dice: --top-cnn needs --base, and goes without --face-cnn, --centre-cnn, "
                 "--face-clear and --face-target\n");
    return 2;
  }
  if (out.empty() || dirs.empty()) {
    std::fprintf(
        stderr,
        "usage: train_dice --out MODEL.yml [--trees N] [--depth D] [--digit-copies C] "
        "[--net H[,H...]] [--epochs E] [--rate R] [--decay L2] [--cnn [--cnn-epochs E] "
        "[--cnn-rate R] [--cnn-decay D] [--cnn-smoothing S] [--cnn-copies C] [--cnn-jitter J] "
        "[--cnn-shape M1,M2,H] [--threads T] "
        "[--cnn-second]] "
        "[--axis-cnn [--axis-copies C] [--axis-jitter J]] [--face-cnn [--face-copies C] "
        "[--face-target read|centre|top]] [--centre-cnn [--face-copies C]] "
        "[--centre-continue] [--top-cnn [--face-copies C]] "
        "[--cnn-clear [--clear-side S] [--clear-colour]] [--face-clear [--face-copies C]] "
        "[--clear-continue] [--clear-second] [--digit-continue] "
        "[--presence-cnn [--presence-copies C] [--presence-hard C]] [--fine-face | --fine-centre] "
        "[--fine-continue] "
        "[--size-cnn [--size-copies C]] "
        "[--lean-cnn [--lean-copies C] [--lean-side S] [--lean-hard C] [--lean-continue]] "
        "[--base MODEL.yml] DIR...\n");
    return 2;
  }
  cv::setNumThreads(1);
  cv::theRNG().state = 7;
  std::vector<Scene> scenes;
  try {
    scenes = load_scenes(dirs);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "train_dice: %s\n", e.what());
    return 2;
  }
  std::fprintf(stderr, "%zu scenes\n", scenes.size());
  if (scenes.empty()) return 2;
  const vd::Params params;
  cv::RNG rng(1234);
  // --base: every part is taken from that model but the networks asked for (only they are
  // trained; the samples are gathered the same way, with the base's detector and locator).
  // The reader's questions asked with the networks as trained, in floats: the committed model was
  // trained so, and so tools/train_dice.sh reproduces it.
  const vd::Model base =
      base_file.empty() ? vd::Model{} : vd::with_quick_networks(vd::load_model(base_file), false);
  if (!base_file.empty() && (base.empty() || !base.face_x || !base.digits || !base.axis_c ||
                             !base.cocked || !base.texture)) {
    std::fprintf(stderr, "%s: not a complete dice model\n", base_file.c_str());
    return 2;
  }
  // Whether the base has `from` trained in the shape this training gives a network of that input
  // and classes (train_grey), so that the training can start from it.
  const auto fits = [&](const arbitre::vision::Cnn& from, int side, int channels, int classes) {
    arbitre::vision::CnnShape want = cnn_training.shape;
    want.side = side, want.channels = channels, want.classes = classes;
    return !from.empty() && from.shape == want;
  };
  if (top_cnn && !fits(base.face_cnn, vd::kCnnSide, vd::kFacePlanes, vd::kFaceBins)) {
    std::fprintf(stderr,
                 "%s: --top-cnn starts from the model's face network: it has none of the "
                 "training's shape (--cnn-shape)\n",
                 base_file.c_str());
    return 2;
  }
  // A --...-continue flag without its training, or whose base network has another shape than
  // the training gives: refused, naming the flag.
  const auto cannot_continue = [&](const char* flag, const char* goes_with,
                                   const char* shape_flags) {
    std::fprintf(stderr,
                 "%s: %s goes with %s and starts from the model's network of that kind: it has "
                 "none of the training's shape (%s)\n",
                 base_file.c_str(), flag, goes_with, shape_flags);
    return 2;
  };
  if (clear_continue &&
      ((!cnn_clear && !face_clear) ||
       (cnn_clear && !fits(base.clear_cnn, clear_side, clear_planes, vd::kReaderClasses)) ||
       (face_clear && !fits(base.clear_face_cnn, vd::kCnnSide, vd::kFacePlanes, vd::kFaceBins))))
    return cannot_continue("--clear-continue", "--cnn-clear or --face-clear",
                           "--clear-side, --clear-colour, --cnn-shape");
  if (centre_continue &&
      (!centre_cnn || !fits(base.centre_cnn, vd::kCnnSide, vd::kFacePlanes, vd::kFaceBins)))
    return cannot_continue("--centre-continue", "--centre-cnn", "--cnn-shape");
  if (fine_continue &&
      (fine_face ? !fits(base.fine_face_cnn, vd::kFineFaceSide, vd::kFacePlanes, vd::kFaceBins)
                 : !fine_centre || !fits(base.fine_centre_cnn, vd::kFineCentreSide, vd::kFacePlanes,
                                         vd::kFaceBins)))
    return cannot_continue("--fine-continue", "--fine-face or --fine-centre", "--cnn-shape");
  if (lean_continue && (!lean_cnn || !fits(base.lean_cnn, lean_side, vd::kLeanPlanes, 2)))
    return cannot_continue("--lean-continue", "--lean-cnn", "--lean-side, --cnn-shape");
  if (digit_continue && (!cnn || cnn_clear ||
                         !fits(cnn_second ? base.digit_cnn_2 : base.digit_cnn, vd::kCnnSide, 1,
                               vd::kReaderClasses)))
    return cannot_continue("--digit-continue", "--cnn (or --cnn --cnn-second)", "--cnn-shape");
  if ((cnn_second || cnn_clear) && base.digit_cnn.empty()) {
    std::fprintf(stderr, "%s: %s: the model has no first digit network\n", base_file.c_str(),
                 cnn_second ? "--cnn-second" : "--cnn-clear");
    return 2;
  }
  if (clear_second && (base.clear_cnn.empty() || base.clear_cnn.shape.channels != clear_planes)) {
    std::fprintf(stderr,
                 "%s: --clear-second: the model has no first clear network of these planes "
                 "(--clear-colour)\n",
                 base_file.c_str());
    return 2;
  }
  vd::Model model;
  if (!base.empty()) {
    model = base;
    if (!net.hidden.empty()) model.digit_net = {};
    if (cnn)
      (cnn_second     ? model.digit_cnn_2
       : clear_second ? model.clear_cnn_2
       : cnn_clear    ? model.clear_cnn
                      : model.digit_cnn) = {};
    if (axis_cnn) model.axis_cnn = {};
    if (face_cnn) model.face_cnn = {};
    if (centre_cnn) model.centre_cnn = {};
    if (top_cnn) model.top_cnn = {};
    if (face_clear) model.clear_face_cnn = {};
    if (presence_cnn) model.presence_cnn = {};
    if (size_cnn) model.size_cnn = {};
    if (lean_cnn) model.lean_cnn = {};
  } else {
    // 1. The window detector: dice at every turn against the table, the tray, the other dice.
    std::vector<std::vector<float>> x;
    std::vector<int> y;
    for (const Scene& s : scenes) {
      const double width = s.image.cols;
      for (const TruthDie& d : s.dice) {
        if (d.visible < 0.25) continue;
        for (int k = 0; k < 4; ++k) {
          const cv::Point2d off(rng.uniform(-2.5, 2.5) * d.radius / vd::kWindowRadius,
                                rng.uniform(-2.5, 2.5) * d.radius / vd::kWindowRadius);
          x.push_back(window_descriptor(s.grey, d.centre + off, d.radius * rng.uniform(0.88, 1.13),
                                        rng.uniform(0.0, 360.0)));
          y.push_back(1);
        }
        // Beside the die, and the die at the wrong size.
        const double a = rng.uniform(0.0, 2 * M_PI), r = d.radius * rng.uniform(0.75, 1.4);
        x.push_back(window_descriptor(
            s.grey, d.centre + cv::Point2d(r * std::cos(a), r * std::sin(a)), d.radius, 0));
        y.push_back(-1);
        x.push_back(
            window_descriptor(s.grey, d.centre, d.radius * (rng.uniform(0, 2) ? 1.8 : 0.55), 0));
        y.push_back(-1);
        const cv::Point2d part(rng.uniform(-0.5, 0.5) * d.radius,
                               rng.uniform(-0.5, 0.5) * d.radius);
        x.push_back(window_descriptor(s.grey, d.centre + part, d.radius * rng.uniform(0.25, 0.5),
                                      rng.uniform(0.0, 360.0)));
        y.push_back(-1);
      }
      for (int k = 0; k < 30; ++k) {
        const double r = width * params.min_radius *
                         std::pow(params.max_radius / params.min_radius, rng.uniform(0.0, 1.0));
        const cv::Point2d c(rng.uniform(0.0, width),
                            rng.uniform(0.0, static_cast<double>(s.image.rows)));
        const bool on_die = std::any_of(s.dice.begin(), s.dice.end(), [&](const TruthDie& d) {
          return cv::norm(d.centre - c) < 0.7 * d.radius && r < 1.4 * d.radius &&
                 r > 0.7 * d.radius;
        });
        if (on_die) continue;
        x.push_back(window_descriptor(s.grey, c, r, 0));
        y.push_back(-1);
      }
    }
    model.window_weights = train_linear(x, y, 1e-4, 12);
    // 2. Twice: the false detections on the training scenes become negatives.
    for (int round = 0; round < 2; ++round) {
      int added = 0;
      vd::Params scan = params;
      scan.max_candidates = 60;
      for (const Scene& s : scenes) {
        int here = 0;
        for (const vd::Candidate& c : vd::find_candidates(s.image, scan, model)) {
          const int m = match(s, c.centre);
          if (m >= 0 && c.radius < 1.4 * s.dice[static_cast<std::size_t>(m)].radius &&
              c.radius > 0.7 * s.dice[static_cast<std::size_t>(m)].radius)
            continue;
          x.push_back(window_descriptor(s.grey, c.centre, c.radius, 0));
          y.push_back(-1);
          if (++here >= 25) break;
        }
        added += here;
      }
      std::fprintf(stderr, "round %d: %d hard negatives\n", round + 1, added);
      model.window_weights = train_linear(x, y, 1e-4, 12);
    }
  }  // the window detector

  // 3. The face reader, on the candidates the detector finds (and on every true die). From here
  // on the random draws are the same with or without --base.
  rng = cv::RNG(4321);
  std::vector<float> samples;
  std::vector<int> labels;
  std::vector<float> row(vd::kFaceFeatures);
  const double half_step = 180.0 / params.rotations;
  const double upright = params.axis_step;  // degrees either way still read as upright
  const auto add = [&](const cv::Mat& image, cv::Point2d centre, double radius, double angle,
                       int label) {
    vd::face_features(vd::face_crop(image, centre, radius, angle), row.data());
    samples.insert(samples.end(), row.begin(), row.end());
    labels.push_back(label);
  };
  const auto add_die = [&](const cv::Mat& image, const TruthDie& d, cv::Point2d centre,
                           double radius, int copies) {
    for (int k = 0; k < copies; ++k) {
      const double r = radius * rng.uniform(0.92, 1.08);
      if (d.cocked) {
        add(image, centre, r, rng.uniform(0.0, 360.0), vd::kCockedClass);
        continue;
      }
      // Upright within the reader's search step around the predicted axis.
      add(image, centre, r, d.rotation + rng.uniform(-upright, upright), d.value);
      // The same die turned wrong (every other copy: the reader mostly sees the digit along its
      // axis); 0 and 8 look alike upside down, so not near 180 degrees.
      if (k % 2 == 0) {
        double turn = rng.uniform(2.5 * half_step, 360.0 - 2.5 * half_step);
        if (same_upside_down(d) && std::abs(turn - 180.0) < 2.5 * half_step) turn += 90;
        add(image, centre, r, d.rotation + turn, vd::kWrongTurn);
      }
      // Half a turn round (the other way along the digit's axis, which the reader always tries):
      // a wrong turn, except for 0 and 8, which read the same either way.
      const double back = 180.0 + rng.uniform(-upright, upright);
      add(image, centre, r, d.rotation + back,
          half_turn_label(d));
    }
  };
  // The digit forest: only what the reader meets along the predicted axis at the located face:
  // the digit upright (its value) or half a turn round (a wrong turn, or the value for 0 and 8),
  // and cocked dice; no windows off the dice, no random turns.
  std::vector<float> digit_samples;
  std::vector<int> digit_labels;
  const auto add_digit = [&](const cv::Mat& image, const TruthDie& d, cv::Point2d centre,
                             double radius, int copies, double jitter) {
    for (int k = 0; k < copies; ++k) {
      const cv::Point2d at = centre + cv::Point2d(rng.uniform(-jitter, jitter) * radius,
                                                  rng.uniform(-jitter, jitter) * radius);
      const double r = radius * rng.uniform(0.92, 1.08);
      const auto put = [&](double angle, int label) {
        vd::face_features(vd::face_crop(image, at, r, angle), row.data());
        digit_samples.insert(digit_samples.end(), row.begin(), row.end());
        digit_labels.push_back(label);
      };
      if (d.cocked) {
        put(rng.uniform(0.0, 360.0), vd::kCockedClass);
        continue;
      }
      put(d.rotation + rng.uniform(-upright, upright), d.value);
      put(d.rotation + 180.0 + rng.uniform(-upright, upright),
          half_turn_label(d));
    }
  };
  // 4. The face locator (two regression forests): from near the die's centre to its top
  // face's centre, x radius; its samples are gathered with the reader's.
  std::vector<float> locate;
  std::vector<float> shift_x, shift_y;
  std::vector<float> locate_row(vd::kLocateFeatures);
  const auto add_locate = [&](const cv::Mat& image, const TruthDie& d, cv::Point2d from,
                              double radius) {
    vd::locate_features(image, from, radius, locate_row.data());
    locate.insert(locate.end(), locate_row.begin(), locate_row.end());
    shift_x.push_back(static_cast<float>((d.face.x - from.x) / radius));
    shift_y.push_back(static_cast<float>((d.face.y - from.y) / radius));
  };
  // The digit's axis regressor: cos and sin of twice the digit's rotation, from the locator's
  // features at (near) the top face.
  std::vector<float> axis;
  std::vector<float> axis_c, axis_s;
  const auto add_axis = [&](const cv::Mat& image, const TruthDie& d, cv::Point2d at,
                            double radius) {
    vd::locate_features(image, at, radius, locate_row.data());
    axis.insert(axis.end(), locate_row.begin(), locate_row.end());
    const double a = 2 * d.rotation * M_PI / 180.0;
    axis_c.push_back(static_cast<float>(std::cos(a)));
    axis_s.push_back(static_cast<float>(std::sin(a)));
  };
  vd::Params scan = params;
  for (const Scene& s : scenes) {
    std::vector<bool> seen(s.dice.size(), false);
    int background = 0;
    for (const vd::Candidate& c : vd::find_candidates(s.image, scan, model)) {
      const int m = match(s, c.centre);
      if (m < 0) {
        if (background++ < 12) {
          for (int k = 0; k < 2; ++k)
            add(s.image, c.centre, c.radius, rng.uniform(0.0, 360.0), vd::kNoDie);
        }
        continue;
      }
      const TruthDie& d = s.dice[static_cast<std::size_t>(m)];
      // A window on a die at the wrong size (a face, a digit, a cluster) is not a die: the
      // presence tells the die's size apart.
      if (c.radius < 0.72 * d.radius || c.radius > 1.4 * d.radius) {
        if (background++ < 12)
          add(s.image, c.centre, c.radius, rng.uniform(0.0, 360.0), vd::kNoDie);
        continue;
      }
      if (d.visible < 0.6 || seen[static_cast<std::size_t>(m)]) continue;
      seen[static_cast<std::size_t>(m)] = true;
      add_die(s.image, d, c.centre, c.radius, 4);
      if (!d.cocked) {
        for (int k = 0; k < 2; ++k) {
          const cv::Point2d jitter(rng.uniform(-0.1, 0.1) * d.radius,
                                   rng.uniform(-0.1, 0.1) * d.radius);
          add_locate(s.image, d, c.centre + jitter, c.radius * rng.uniform(0.92, 1.08));
        }
      }
    }
    for (const TruthDie& d : s.dice) {
      if (d.visible < 0.6) continue;
      if (!d.cocked) {
        // From the die's centre, and from on the way to the face (the locator's second step).
        const cv::Point2d jitter(rng.uniform(-0.1, 0.1) * d.radius,
                                 rng.uniform(-0.1, 0.1) * d.radius);
        add_locate(s.image, d, d.centre + jitter, d.radius * rng.uniform(0.92, 1.08));
        const cv::Point2d near(rng.uniform(-0.2, 0.2) * d.radius,
                               rng.uniform(-0.2, 0.2) * d.radius);
        add_locate(s.image, d, d.face + near, d.radius * rng.uniform(0.92, 1.08));
        for (int k = 0; k < 2; ++k) {
          const cv::Point2d off(rng.uniform(-0.1, 0.1) * d.radius,
                                rng.uniform(-0.1, 0.1) * d.radius);
          add_axis(s.image, d, d.face + off, d.radius * rng.uniform(0.92, 1.08));
        }
      }
      for (int k = 0; k < 3; ++k) {
        const cv::Point2d off(rng.uniform(-0.08, 0.08) * d.radius,
                              rng.uniform(-0.08, 0.08) * d.radius);
        add_die(s.image, d, (d.cocked ? d.centre : d.face) + off, d.radius, 1);
      }
      add_digit(s.image, d, d.cocked ? d.centre : d.face, d.radius, digit_copies, 0.1);
      // The die at the wrong size: not a die.
      add(s.image, d.centre,
          d.radius * (rng.uniform(0, 2) ? rng.uniform(0.45, 0.65) : rng.uniform(1.6, 2.2)),
          rng.uniform(0.0, 360.0), vd::kNoDie);
    }
  }
  std::fprintf(stderr, "locator: %zu samples\n", shift_x.size());
  const cv::Mat locate_features(static_cast<int>(shift_x.size()), vd::kLocateFeatures, CV_32F,
                                locate.data());
  cv::theRNG().state = 13;
  if (base.empty()) {
    model.face_x = regression_forest(locate_features, shift_x, 9);
    model.face_y = regression_forest(locate_features, shift_y, 9);
  }

  // The digit convolutional network's crops, with draws of their own (the forests' samples are
  // the same with or without it): the digit upright and half a turn round as for the digit
  // forest, and (every other copy) turned off the axis, a wrong turn.
  cv::RNG cnn_rng(777);
  std::vector<unsigned char> cnn_images;
  std::vector<int> cnn_labels;
  std::vector<unsigned char> cnn_row(vd::kCnnSide * vd::kCnnSide);
  // The clear network's crops: its own side and planes (the scene's colour planes found by its
  // lightness).
  arbitre::vision::Cnn clear_shape;
  clear_shape.shape.side = clear_side;
  clear_shape.shape.channels = clear_planes;
  std::vector<std::vector<cv::Mat>> scene_planes;
  for (const Scene& s : scenes)
    scene_planes.push_back(cnn_clear ? vd::clear_planes(s.image, s.grey, clear_shape)
                                     : std::vector<cv::Mat>{});
  cv::Mat clear_rows;
  const auto keep_crop = [&](const cv::Mat& grey, cv::Point2d centre, double radius, double angle,
                             int label) {
    if (cnn_clear) {
      const auto s = std::find_if(scenes.begin(), scenes.end(),
                                  [&](const Scene& x) { return x.grey.data == grey.data; });
      vd::clear_crops(scene_planes[static_cast<std::size_t>(s - scenes.begin())], centre, radius,
                      {angle}, clear_shape, clear_rows);
      cnn_images.insert(cnn_images.end(), clear_rows.data, clear_rows.data + clear_rows.total());
    } else {
      vd::cnn_crop(grey, centre, radius, angle, cnn_row.data());
      cnn_images.insert(cnn_images.end(), cnn_row.begin(), cnn_row.end());
    }
    cnn_labels.push_back(label);
  };
  const auto add_cnn = [&](const cv::Mat& grey, const TruthDie& d, cv::Point2d centre,
                           double radius, int copies, double jitter) {
    if (!cnn || (cnn_clear && d.texture != 2)) return;
    for (int k = 0; k < copies; ++k) {
      const cv::Point2d at = centre + cv::Point2d(cnn_rng.uniform(-jitter, jitter) * radius,
                                                  cnn_rng.uniform(-jitter, jitter) * radius);
      const double r = radius * cnn_rng.uniform(0.9, 1.1);
      const auto put = [&](double angle, int label) { keep_crop(grey, at, r, angle, label); };
      if (d.cocked) {
        // As the reader meets it (along its digit's axis, either way), and at any turn: as many
        // crops as a flat die gives, so that a leaning digit read upright is learnt as cocked.
        put(d.rotation + cnn_rng.uniform(-upright, upright), vd::kCockedClass);
        put(d.rotation + 180.0 + cnn_rng.uniform(-upright, upright), vd::kCockedClass);
        if (k % 2 == 0) put(cnn_rng.uniform(0.0, 360.0), vd::kCockedClass);
        continue;
      }
      put(d.rotation + cnn_rng.uniform(-upright, upright), d.value);
      put(d.rotation + 180.0 + cnn_rng.uniform(-upright, upright),
          half_turn_label(d));
      if (k % 2 == 0)
        put(d.rotation + cnn_rng.uniform(40.0, 140.0) + (cnn_rng.uniform(0, 2) ? 180.0 : 0.0),
            vd::kWrongTurn);
    }
  };
  // Not a die (a window off the dice, or on a die at the wrong size), at any turn.
  const auto add_cnn_none = [&](const cv::Mat& grey, cv::Point2d centre, double radius) {
    if (cnn && !cnn_clear) keep_crop(grey, centre, radius, cnn_rng.uniform(0.0, 360.0), vd::kNoDie);
  };
  // A die seen from a candidate's centre at any turn (what the examine stage sees): its value
  // within the reader's step of upright, else a wrong turn (0 and 8 also half a turn round).
  const auto add_cnn_any_turn = [&](const cv::Mat& grey, const TruthDie& d, cv::Point2d centre,
                                    double radius) {
    if (!cnn || (cnn_clear && d.texture != 2)) return;
    const double turn = cnn_rng.uniform(0.0, 360.0);
    int label = vd::kWrongTurn;
    const double off = std::fmod(turn + 360.0, 360.0);
    if (d.cocked)
      label = vd::kCockedClass;
    else if (off < upright || off > 360.0 - upright)
      label = d.value;
    else if (std::abs(off - 180.0) < upright && same_upside_down(d))
      label = d.value;
    keep_crop(grey, centre, radius, d.rotation + turn, label);
  };

  // The axis network's crops, with draws of their own: near the top face, turned at random half
  // the time (the digit's axis in the crop turns with it), labelled with the axis's bin.
  cv::RNG axis_rng(4242);
  std::vector<unsigned char> axis_images;
  std::vector<int> axis_labels;
  const auto add_axis_crop = [&](const cv::Mat& grey, const TruthDie& d, cv::Point2d centre,
                                 double radius, int copies, double jitter) {
    if (!axis_cnn || d.cocked) return;
    for (int k = 0; k < copies; ++k) {
      const cv::Point2d at = centre + cv::Point2d(axis_rng.uniform(-jitter, jitter) * radius,
                                                  axis_rng.uniform(-jitter, jitter) * radius);
      const double r = radius * axis_rng.uniform(0.9, 1.1);
      const double turn = k % 2 == 0 ? 0.0 : axis_rng.uniform(0.0, 360.0);
      vd::cnn_crop(grey, at, r, turn, cnn_row.data());
      axis_images.insert(axis_images.end(), cnn_row.begin(), cnn_row.end());
      const double axis = std::fmod(std::fmod(d.rotation - turn, 180.0) + 360.0, 180.0);
      axis_labels.push_back(static_cast<int>(std::lround(axis / (180.0 / vd::kAxisBins))) %
                            vd::kAxisBins);
    }
  };

  // The face network's crops, with draws of their own: from a point on the die at any turn,
  // with the mark toward the image's centre turned the same way (a second plane), labelled with
  // the bin of the top face's shift along the crop's x axis (x radius).
  cv::RNG face_rng(9090);
  std::vector<unsigned char> face_images;
  std::vector<int> face_labels;
  const auto add_face_crop = [&](const cv::Mat& grey, const TruthDie& d, cv::Point2d from,
                                 double radius) {
    if (!face_shaped || (face_clear && d.texture != 2)) return;
    const double turn = face_rng.uniform(0.0, 360.0);
    append_crop_and_mark(face_images, grey, from, radius, turn, vd::kFaceSpan, vd::kCnnSide);
    // A cocked die has no top face to read: its centre, where the digit network learnt it
    // (--face-target read); or every die's centre (centre), or its most upward face (top, and
    // the top network).
    const cv::Point2d target = face_target == "centre" || centre_cnn ? d.centre
                               : face_target == "top" || top_cnn     ? d.face
                               : d.cocked                            ? d.centre
                                                                     : d.face;
    face_labels.push_back(shift_bin(target, from, radius, turn, vd::kFaceStep));
  };

  // The fine networks' crops, with draws of their own: from a point near the die's top face (its
  // most upward face when cocked: --fine-face) or its centre (--fine-centre), half within 0.08
  // radius of it and half within 0.2 (where the face and centre networks put them, and their
  // slips), at any turn and 0.9-1.1 x the radius, with the mark; labelled with the bin of the
  // point's shift along the crop's x axis in steps of kFineStep x the radius.
  cv::RNG fine_rng(7171);
  std::vector<unsigned char> fine_images;
  std::vector<int> fine_labels;
  const int fine_side = fine_face ? vd::kFineFaceSide : vd::kFineCentreSide;
  const double fine_span = fine_face ? vd::kFineFaceSpan : vd::kFaceSpan;
  const auto add_fine_crop = [&](const cv::Mat& grey, const TruthDie& d, int k) {
    const cv::Point2d target = fine_face ? d.face : d.centre;
    const double jitter = k % 2 == 0 ? 0.08 : 0.2;
    const cv::Point2d from = target + d.radius * cv::Point2d(fine_rng.uniform(-jitter, jitter),
                                                             fine_rng.uniform(-jitter, jitter));
    const double radius = d.radius * fine_rng.uniform(0.9, 1.1);
    const double turn = fine_rng.uniform(0.0, 360.0);
    append_crop_and_mark(fine_images, grey, from, radius, turn, fine_span, fine_side);
    fine_labels.push_back(shift_bin(target, from, radius, turn, vd::kFineStep));
  };

  // The size network's crops, with draws of their own: from within 0.06 radius of a die's centre
  // at 0.70-1.42 x its radius (even in log) and any turn, labelled with the bin of log(its
  // radius / the crop's) in steps of kSizeStep.
  cv::RNG size_rng(6262);
  std::vector<unsigned char> size_images;
  std::vector<int> size_labels;
  cv::Mat size_row(1, vd::kSizeSide * vd::kSizeSide, CV_8U);
  const auto add_size_crop = [&](const cv::Mat& grey, const TruthDie& d) {
    const cv::Point2d from = d.centre + d.radius * cv::Point2d(size_rng.uniform(-0.06, 0.06),
                                                               size_rng.uniform(-0.06, 0.06));
    const double log_ratio = size_rng.uniform(-0.35, 0.35);  // log(true / crop)
    vd::cnn_crops(grey, from, d.radius * std::exp(-log_ratio), {size_rng.uniform(0.0, 360.0)},
                  size_row, 0, vd::kSizeSpan, vd::kSizeSide);
    size_images.insert(size_images.end(), size_row.data, size_row.data + size_row.cols);
    size_labels.push_back(
        std::clamp(static_cast<int>(std::lround(log_ratio / vd::kSizeStep)) + vd::kSizeBins / 2, 0,
                   vd::kSizeBins - 1));
  };

  // The lean network's crops, with draws of their own: each die from near its centre, toward
  // near where `fit` (the scene's other flat dice's faces) puts a flat die's top face, at about
  // its radius, mirrored half the time; labelled 1 when it leans.
  cv::RNG lean_rng(8484);
  std::vector<unsigned char> lean_images;
  std::vector<int> lean_labels;
  std::vector<unsigned char> lean_row(vd::kLeanPlanes * lean_side * lean_side);
  int lean_hard_asked = 0;  // the base reader's questions matched to a true die (--lean-hard)
  const auto add_lean_crops = [&](const Scene& s, std::size_t i) {
    const TruthDie& d = s.dice[i];
    const double width = s.image.cols;
    std::vector<cv::Point2d> places, shifts;
    std::vector<std::size_t> use;
    for (std::size_t j = 0; j < s.dice.size(); ++j) {
      const TruthDie& e = s.dice[j];
      if (j == i || e.cocked || e.visible < 0.6) continue;
      use.push_back(places.size());
      places.push_back(e.centre / width);
      shifts.push_back((e.face - e.centre) / e.radius);
    }
    cv::Vec3d fit;
    if (!vd::fit_face_shift(places, shifts, use, params.tilt_dice, params.tilt_outlier, fit))
      return;
    const cv::Point2d flat = vd::face_shift(fit, d.centre / width);
    const int copies = d.cocked ? lean_copies : std::max(1, lean_copies / 4);
    for (int k = 0; k < copies; ++k) {
      const auto near = [&](double by) {
        return cv::Point2d(lean_rng.uniform(-by, by), lean_rng.uniform(-by, by));
      };
      const cv::Point2d centre = d.centre + d.radius * near(0.07);
      const cv::Point2d shift = flat + near(0.06);
      const double radius = d.radius * std::exp(lean_rng.uniform(-0.06, 0.06));
      vd::lean_crop(s.grey, centre, radius, shift, lean_rng.uniform(0, 2) == 1, lean_row.data(),
                    lean_side);
      lean_images.insert(lean_images.end(), lean_row.begin(), lean_row.end());
      lean_labels.push_back(d.cocked ? 1 : 0);
    }
  };

  // The presence network's crops, with draws of their own: 1 a die centred at about the crop's
  // size, 0 anything else, at any turn.
  int hard_phantoms = 0, hard_missed = 0;  // the base reader's mistakes (--presence-hard)
  cv::RNG presence_rng(5151);
  std::vector<unsigned char> presence_images;
  std::vector<int> presence_labels;
  const auto add_presence = [&](const cv::Mat& grey, cv::Point2d centre, double radius, int label) {
    if (!presence_cnn) return;
    vd::cnn_crop(grey, centre, radius, presence_rng.uniform(0.0, 360.0), cnn_row.data(),
                 vd::kPresenceSpan);
    presence_images.insert(presence_images.end(), cnn_row.begin(), cnn_row.end());
    presence_labels.push_back(label);
  };
  // Whether a point is within 0.6 radius of a die's centre (a window there may be on it).
  const auto near_a_die = [](const Scene& s, cv::Point2d p) {
    return std::any_of(s.dice.begin(), s.dice.end(),
                       [&](const TruthDie& d) { return cv::norm(d.centre - p) < 0.6 * d.radius; });
  };

  std::vector<float> textures, texture_row(vd::kTextureFeatures);
  std::vector<int> texture_labels;
  std::vector<float> leaning;
  std::vector<int> leaning_labels;
  // 5. The reader once more on the crops the locator leads to (where it reads in use), and
  // cocked dice seen from more turns (they are few).
  for (const Scene& s : scenes) {
    std::vector<bool> seen(s.dice.size(), false);
    int none = 0;
    for (const vd::Candidate& c : vd::find_candidates(s.image, scan, model)) {
      const int m = match(s, c.centre);
      if (m < 0) {
        for (int k = 0; k < 2 && none < 16; ++k, ++none) add_cnn_none(s.grey, c.centre, c.radius);
        add_presence(s.grey, c.centre, c.radius, 0);
        continue;
      }
      const TruthDie& d = s.dice[static_cast<std::size_t>(m)];
      if (c.radius < 0.72 * d.radius || c.radius > 1.4 * d.radius) {
        if (none++ < 16) add_cnn_none(s.grey, c.centre, c.radius);
        add_presence(s.grey, c.centre, c.radius, 0);
        continue;
      }
      if (d.visible >= 0.6) add_presence(s.grey, c.centre, c.radius, 1);
      if (d.visible < 0.6 || seen[static_cast<std::size_t>(m)]) continue;
      seen[static_cast<std::size_t>(m)] = true;
      add_cnn_any_turn(s.grey, d, c.centre, c.radius);
      for (int k = 0; k < 2; ++k) add_face_crop(s.grey, d, c.centre, c.radius);
      const cv::Point2d located =
          vd::locate_face(s.image, c.centre, c.radius, params.locate_steps, model);
      add_die(s.image, d, located, c.radius, d.cocked ? 4 : 2);
      add_digit(s.image, d, located, c.radius, d.cocked ? 2 : digit_copies, 0.06);
      add_cnn(s.grey, d, located, c.radius, (cnn_copies + 1) / 2, 0.06);
      add_axis_crop(s.grey, d, located, c.radius, 1, 0.03);
      if (!d.cocked) add_axis(s.image, d, located, c.radius);
      // Flat or cocked, from the crops the examine stage sees (the candidate's centre, any turn);
      // cocked dice are few, so each gives eight turns.
      for (int k = 0; k < (d.cocked ? 8 : 1); ++k) {
        vd::face_features(vd::face_crop(s.image, c.centre, c.radius, rng.uniform(0.0, 360.0)),
                          row.data());
        leaning.insert(leaning.end(), row.begin(), row.end());
        leaning_labels.push_back(d.cocked ? 1 : 0);
      }
      vd::texture_features(vd::face_crop(s.image, located, c.radius, 0), texture_row.data());
      textures.insert(textures.end(), texture_row.begin(), texture_row.end());
      texture_labels.push_back(d.texture);
    }
    for (const TruthDie& d : s.dice) {
      if (d.visible < 0.6) continue;
      add_cnn(s.grey, d, d.cocked ? d.centre : d.face, d.radius, cnn_copies, cnn_jitter);
      add_axis_crop(s.grey, d, d.face, d.radius, axis_copies, axis_jitter);
      for (int k = 0; k < (face_shaped ? face_copies : 0); ++k) {
        const double jitter = k % 2 == 0 ? 0.15 : 0.25;
        const cv::Point2d from = (k % 2 == 0 || d.cocked ? d.centre : d.face) +
                                 cv::Point2d(face_rng.uniform(-jitter, jitter) * d.radius,
                                             face_rng.uniform(-jitter, jitter) * d.radius);
        add_face_crop(s.grey, d, from, d.radius * face_rng.uniform(0.9, 1.1));
      }
      for (int k = 0; k < (fine_face || fine_centre ? face_copies : 0); ++k)
        add_fine_crop(s.grey, d, k);
      for (int k = 0; k < (size_cnn ? size_copies : 0); ++k) add_size_crop(s.grey, d);
      if (lean_cnn) add_lean_crops(s, static_cast<std::size_t>(&d - s.dice.data()));
      add_cnn_none(s.grey, d.centre,
                   d.radius * (cnn_rng.uniform(0, 2) ? cnn_rng.uniform(0.45, 0.65)
                                                     : cnn_rng.uniform(1.6, 2.2)));
      if (presence_cnn) {
        for (int k = 0; k < presence_copies; ++k) {
          add_presence(s.grey,
                       d.centre + cv::Point2d(presence_rng.uniform(-0.35, 0.35) * d.radius,
                                              presence_rng.uniform(-0.35, 0.35) * d.radius),
                       d.radius * presence_rng.uniform(0.75, 1.3), 1);
        }
        // The die at the wrong size; a window half off it; between it and a die near it.
        add_presence(s.grey, d.centre,
                     d.radius * (presence_rng.uniform(0, 2) ? presence_rng.uniform(0.4, 0.65)
                                                            : presence_rng.uniform(1.6, 2.4)),
                     0);
        const double a = presence_rng.uniform(0.0, 2 * M_PI);
        const cv::Point2d off = d.centre + d.radius * presence_rng.uniform(0.8, 1.2) *
                                               cv::Point2d(std::cos(a), std::sin(a));
        if (!near_a_die(s, off))
          add_presence(s.grey, off, d.radius * presence_rng.uniform(0.9, 1.1), 0);
        for (const TruthDie& e : s.dice) {
          if (&e <= &d || cv::norm(e.centre - d.centre) > 2.6 * d.radius) continue;
          const cv::Point2d between = 0.5 * (d.centre + e.centre);
          if (!near_a_die(s, between)) add_presence(s.grey, between, d.radius, 0);
        }
      }
    }
    // Not a die: the windows the detector finds off the dice, three times as many as it
    // examines in use (the sheet's squares, the tray's corners, the cloth's pattern) ...
    if (presence_cnn) {
      vd::Params wide = params;
      wide.max_candidates = 3 * params.max_candidates;
      for (const vd::Candidate& c : vd::find_candidates(s.image, wide, model)) {
        if (!near_a_die(s, c.centre)) add_presence(s.grey, c.centre, c.radius, 0);
      }
    }
    // ... and windows anywhere off the dice, at their scale.
    for (int k = 0; presence_cnn && k < 16 && !s.dice.empty(); ++k) {
      const cv::Point2d p(presence_rng.uniform(0.0, static_cast<double>(s.image.cols)),
                          presence_rng.uniform(0.0, static_cast<double>(s.image.rows)));
      if (!near_a_die(s, p))
        add_presence(s.grey, p, s.dice[0].radius * presence_rng.uniform(0.85, 1.18), 0);
    }
    // The base reader's questions to its lean network (--lean-hard), each labelled as the true
    // die reported there.
    std::optional<vd::Detection> seen_by_base;
    const auto base_sees = [&]() -> const vd::Detection& {
      if (!seen_by_base) seen_by_base = vd::detect(s.image, vd::Params{}, base);
      return *seen_by_base;
    };
    if (lean_hard > 0) {
      const vd::Detection& seen = base_sees();
      for (const vd::Detection::LeanAsk& ask : seen.lean_asked) {
        const cv::Point2d at(seen.observation.dice[ask.die].x, seen.observation.dice[ask.die].y);
        const auto d = std::find_if(s.dice.begin(), s.dice.end(), [&](const TruthDie& e) {
          return cv::norm(e.centre - at) < 0.6 * e.radius;
        });
        if (d == s.dice.end()) continue;
        ++lean_hard_asked;
        for (int k = 0; k < lean_hard; ++k) {
          const auto near = [&](double by) {
            return cv::Point2d(lean_rng.uniform(-by, by), lean_rng.uniform(-by, by));
          };
          vd::lean_crop(s.grey, ask.centre + ask.radius * near(0.02), ask.radius,
                        ask.shift + near(0.02), lean_rng.uniform(0, 2) == 1, lean_row.data(),
                        lean_side);
          lean_images.insert(lean_images.end(), lean_row.begin(), lean_row.end());
          lean_labels.push_back(d->cocked ? 1 : 0);
        }
      }
    }
    // The base reader's mistakes (--presence-hard): a die reported where none lies (within 0.6
    // of a true die's radius, as dice_eval scores), a die in view missed.
    if (presence_hard > 0) {
      const vd::Detection& seen = base_sees();
      const auto hard = [&](cv::Point2d centre, double radius, int label) {
        for (int k = 0; k < presence_hard; ++k) {
          add_presence(s.grey,
                       centre + cv::Point2d(presence_rng.uniform(-0.1, 0.1) * radius,
                                            presence_rng.uniform(-0.1, 0.1) * radius),
                       radius * presence_rng.uniform(0.9, 1.1), label);
        }
      };
      for (std::size_t k = 0; k < seen.observation.dice.size(); ++k) {
        const cv::Point2d at(seen.observation.dice[k].x, seen.observation.dice[k].y);
        if (std::none_of(s.dice.begin(), s.dice.end(), [&](const TruthDie& d) {
              return cv::norm(d.centre - at) < 0.6 * d.radius;
            })) {
          ++hard_phantoms;
          hard(at, seen.candidates[static_cast<std::size_t>(seen.die_candidate[k])].radius, 0);
        }
      }
      for (const TruthDie& d : s.dice) {
        if (d.visible < 0.6 || std::any_of(seen.observation.dice.begin(),
                                           seen.observation.dice.end(), [&](const auto& o) {
                                             return cv::norm(d.centre - cv::Point2d(o.x, o.y)) <
                                                    0.6 * d.radius;
                                           }))
          continue;
        ++hard_missed;
        hard(d.centre, d.radius, 1);
      }
    }
  }

  std::fprintf(stderr, "axis: %zu samples\n", axis_c.size());
  const cv::Mat axis_features(static_cast<int>(axis_c.size()), vd::kLocateFeatures, CV_32F,
                              axis.data());
  cv::theRNG().state = 23;
  if (base.empty()) {
    model.axis_c = regression_forest(axis_features, axis_c, 10);
    model.axis_s = regression_forest(axis_features, axis_s, 10);
  }

  const cv::Mat features(static_cast<int>(labels.size()), vd::kFaceFeatures, CV_32F,
                         samples.data());
  std::array<int, vd::kReaderClasses> counts{};
  for (int l : labels) ++counts[static_cast<std::size_t>(l)];
  std::fprintf(stderr, "reader: %zu samples:", labels.size());
  for (int c : counts) std::fprintf(stderr, " %d", c);
  std::fprintf(stderr, "\n");
  if (base.empty()) {
    model.reader = class_forest(features, labels, trees, depth, 2, 11);

    std::fprintf(stderr, "digits: %zu samples\n", digit_labels.size());
    model.digits = class_forest(cv::Mat(static_cast<int>(digit_labels.size()), vd::kFaceFeatures,
                                        CV_32F, digit_samples.data()),
                                digit_labels, trees, depth, 2, 29);

    // 6. Textures (none, frosted, transparent) from the colour and sharpness of the face crop.
    model.texture = class_forest(cv::Mat(static_cast<int>(texture_labels.size()),
                                         vd::kTextureFeatures, CV_32F, textures.data()),
                                 texture_labels, 30, 8, 4, 17);

    // 7. Cocked or flat: a forest of its own, the classes balanced by the eight turns above.
    std::fprintf(stderr, "cocked: %zu samples, %d cocked\n", leaning_labels.size(),
                 static_cast<int>(std::count(leaning_labels.begin(), leaning_labels.end(), 1)));
    model.cocked = class_forest(
        cv::Mat(static_cast<int>(leaning_labels.size()), vd::kFaceFeatures, CV_32F, leaning.data()),
        leaning_labels, 30, 10, 4, 19);
  }  // the forests

  // 8. The digit network (optional): the digit forest's samples and classes.
  if (!net.hidden.empty()) {
    std::fprintf(stderr, "digit network:");
    for (int h : net.hidden) std::fprintf(stderr, " %d", h);
    std::fprintf(stderr, " hidden, %d epochs, %zu samples\n", net.epochs, digit_labels.size());
    model.digit_net = arbitre::vision::train_mlp(
        cv::Mat(static_cast<int>(digit_labels.size()), vd::kFaceFeatures, CV_32F,
                digit_samples.data()),
        digit_labels, vd::kReaderClasses, net, [](int epoch, double loss) {
          std::fprintf(stderr, "  epoch %d: loss %.4f\n", epoch, loss);
        });
  }

  // 9, 10 and 11. The digit, axis and face convolutional networks (optional), with the same
  // training settings (--cnn-epochs, --cnn-rate, --cnn-decay, --cnn-smoothing) and their own
  // classes (and planes).
  const auto train_grey = [&](const char* what, std::vector<unsigned char>& images,
                              const std::vector<int>& labels, int classes, int planes = 1,
                              int side = vd::kCnnSide,
                              const arbitre::vision::Cnn* start = nullptr) {
    arbitre::vision::CnnTraining training = cnn_training;
    training.start = start;
    training.shape.side = side;
    training.shape.channels = planes;
    training.shape.classes = classes;
    std::fprintf(stderr, "%s: %zu crops, %d epochs, %d threads\n", what, labels.size(),
                 training.epochs, threads);
    cv::setNumThreads(threads);
    arbitre::vision::Cnn net = arbitre::vision::train_cnn(
        cv::Mat(static_cast<int>(labels.size()), side * side * planes, CV_8U, images.data()),
        labels, training, [](int epoch, double loss) {
          std::fprintf(stderr, "  epoch %d: loss %.4f\n", epoch, loss);
        });
    cv::setNumThreads(1);
    return net;
  };
  if ((cnn_clear && cnn_labels.empty()) || (face_clear && face_labels.empty())) {
    std::fprintf(stderr, "train_dice: %s: no transparent die in the scenes\n",
                 cnn_clear ? "--cnn-clear" : "--face-clear");
    return 2;
  }
  if (cnn && cnn_second) {
    model.digit_cnn_2 = train_grey("second digit cnn", cnn_images, cnn_labels, vd::kReaderClasses,
                                   1, vd::kCnnSide, digit_continue ? &base.digit_cnn_2 : nullptr);
  } else if (cnn && cnn_clear) {
    (clear_second ? model.clear_cnn_2 : model.clear_cnn) =
        train_grey("clear digit cnn", cnn_images, cnn_labels, vd::kReaderClasses, clear_planes,
                   clear_side, clear_continue ? &base.clear_cnn : nullptr);
  } else if (cnn) {
    model.digit_cnn = train_grey("digit cnn", cnn_images, cnn_labels, vd::kReaderClasses, 1,
                                 vd::kCnnSide, digit_continue ? &base.digit_cnn : nullptr);
  }
  if (axis_cnn) model.axis_cnn = train_grey("axis cnn", axis_images, axis_labels, vd::kAxisBins);
  if (face_cnn)
    model.face_cnn =
        train_grey("face cnn", face_images, face_labels, vd::kFaceBins, vd::kFacePlanes);
  if (centre_cnn)
    model.centre_cnn =
        train_grey("centre cnn", face_images, face_labels, vd::kFaceBins, vd::kFacePlanes,
                   vd::kCnnSide, centre_continue ? &base.centre_cnn : nullptr);
  if (top_cnn)
    model.top_cnn = train_grey("top cnn (from the face network)", face_images, face_labels,
                               vd::kFaceBins, vd::kFacePlanes, vd::kCnnSide, &base.face_cnn);
  if (face_clear)
    model.clear_face_cnn =
        train_grey("clear face cnn", face_images, face_labels, vd::kFaceBins, vd::kFacePlanes,
                   vd::kCnnSide, clear_continue ? &base.clear_face_cnn : nullptr);

  if (fine_face)
    model.fine_face_cnn =
        train_grey("fine face cnn", fine_images, fine_labels, vd::kFaceBins, vd::kFacePlanes,
                   vd::kFineFaceSide, fine_continue ? &base.fine_face_cnn : nullptr);
  if (fine_centre)
    model.fine_centre_cnn =
        train_grey("fine centre cnn", fine_images, fine_labels, vd::kFaceBins, vd::kFacePlanes,
                   vd::kFineCentreSide, fine_continue ? &base.fine_centre_cnn : nullptr);

  if (size_cnn)
    model.size_cnn =
        train_grey("size cnn", size_images, size_labels, vd::kSizeBins, 1, vd::kSizeSide);

  if (lean_cnn) {
    std::fprintf(stderr, "lean: %d leaning among the crops\n",
                 static_cast<int>(std::count(lean_labels.begin(), lean_labels.end(), 1)));
    if (lean_hard > 0)
      std::fprintf(stderr, "lean: the base reader's questions: %d\n", lean_hard_asked);
    model.lean_cnn = train_grey("lean cnn", lean_images, lean_labels, 2, vd::kLeanPlanes, lean_side,
                                lean_continue ? &base.lean_cnn : nullptr);
  }

  if (presence_cnn) {
    std::fprintf(stderr, "presence: %d dice among the crops\n",
                 static_cast<int>(std::count(presence_labels.begin(), presence_labels.end(), 1)));
    if (presence_hard > 0)
      std::fprintf(stderr,
                   "presence: the base reader's mistakes: %d dice where none lies, %d missed\n",
                   hard_phantoms, hard_missed);
    model.presence_cnn = train_grey("presence cnn", presence_images, presence_labels, 2, 1,
                                    vd::kCnnSide, presence_hard > 0 ? &base.presence_cnn : nullptr);
  }

  cv::FileStorage storage(out, cv::FileStorage::WRITE);
  storage << "window_weights" << model.window_weights;
  const auto put = [&](const char* name, const cv::Ptr<cv::ml::RTrees>& forest) {
    arbitre::vision::write_forest(storage, name, *forest);
  };
  put("reader", model.reader);
  put("face_x", model.face_x);
  put("face_y", model.face_y);
  put("digits", model.digits);
  put("axis_c", model.axis_c);
  put("axis_s", model.axis_s);
  put("cocked", model.cocked);
  put("texture", model.texture);
  if (!model.digit_net.empty()) arbitre::vision::write_mlp(storage, "digit_net", model.digit_net);
  if (!model.digit_cnn.empty()) arbitre::vision::write_cnn(storage, "digit_cnn", model.digit_cnn);
  if (!model.digit_cnn_2.empty())
    arbitre::vision::write_cnn(storage, "digit_cnn_2", model.digit_cnn_2);
  if (!model.clear_cnn.empty()) arbitre::vision::write_cnn(storage, "clear_cnn", model.clear_cnn);
  if (!model.axis_cnn.empty()) arbitre::vision::write_cnn(storage, "axis_cnn", model.axis_cnn);
  if (!model.face_cnn.empty()) arbitre::vision::write_cnn(storage, "face_cnn", model.face_cnn);
  if (!model.centre_cnn.empty())
    arbitre::vision::write_cnn(storage, "centre_cnn", model.centre_cnn);
  if (!model.clear_face_cnn.empty())
    arbitre::vision::write_cnn(storage, "clear_face_cnn", model.clear_face_cnn);
  if (!model.presence_cnn.empty())
    arbitre::vision::write_cnn(storage, "presence_cnn", model.presence_cnn);
  if (!model.top_cnn.empty()) arbitre::vision::write_cnn(storage, "top_cnn", model.top_cnn);
  if (!model.fine_face_cnn.empty())
    arbitre::vision::write_cnn(storage, "fine_face_cnn", model.fine_face_cnn);
  if (!model.fine_centre_cnn.empty())
    arbitre::vision::write_cnn(storage, "fine_centre_cnn", model.fine_centre_cnn);
  if (!model.size_cnn.empty()) arbitre::vision::write_cnn(storage, "size_cnn", model.size_cnn);
  if (!model.lean_cnn.empty()) arbitre::vision::write_cnn(storage, "lean_cnn", model.lean_cnn);
  // Last: a model written before the second clear network was (fortieth session) is, with
  // it, the same file with its node added at the end.
  if (!model.clear_cnn_2.empty())
    arbitre::vision::write_cnn(storage, "clear_cnn_2", model.clear_cnn_2);
  storage.release();
  std::fprintf(stderr, "wrote %s\n", out.c_str());
  return 0;
}
