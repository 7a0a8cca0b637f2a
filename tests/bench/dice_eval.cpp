// Accuracy and speed of the dice reader on scenes rendered by `scenegen --dice`:
//   build/release/tests/bench/dice_eval DIR [--model MODEL.yml] [--failures OUT_DIR]
//   [--max-failures 12] [--float-networks]
//     [--confidence C] [--margin M] [--cocked S] [--spacing S] [--presence P] [--locate-steps N]
//     [--rotations N] [--textures] [--cocked-vote V] [--face-offset F] [--face-rings N]
//     [--axis-turns N] [--axis-step DEG] [--pool] [--second N] [--examine-turns N]
//     [--deferred N] [--candidates N] [--no-veto] [--net-weight W] [--no-cnn] [--no-axis-cnn]
//     [--presence-net W] [--presence-turns N] [--full-turns N] [--answer-search 0|1]
//     [--answer-gap R] [--answer-cocked P] [--neighbour-distance R] [--neighbour-rings N]
//     [--neighbour-ring-step R] [--neighbour-directions N] [--neighbour-no-die P]
//     [--neighbour-rounds N] [--neighbour-refine-steps N] [--neighbour-keep P] [--centre-steps N]
//     [--clear-weight W] [--clear-veto P] [--clear-gate N] [--clear-confidence P]
//     [--clear-margin P] [--clear-locate N] [--leaning] [--tilt-residual R]
//     [--tilt-face-residual R] [--tilt-locate N] [--tilt-dice N] [--tilt-outlier R]
//     [--tilt-robust 0|1] [--red YELLOW THRESHOLD] (b*'s weight in the redness and its bound)
//     [--empty-crowded-presence P] [--empty-crowded-best P]
//     [--fit-unread 0|1] [--fit-ring R N (0: off)] [--fit-axis 0|1] [--redness-plane 0|1]
//     [--face-check R]
//     [--face-check-opaque R] [--refine-from R] [--scan-threshold S] [--faint S N (0: off)]
//     [--faint-presence P] [--tie-again] [--resize-reads N (0: off)] [--refine-turns N (0: off)]
//     [--fine-steps N (0: off)] [--fine FROM TURNS] [--check-reread 0|1]
//     [--check-wider F (0: off)] [--radius-spread F] [--size STEPS TURNS] [--size-bound F]
//     [--lean F (0: off)] [--lean-from F] [--lean-flat F] [--check-from-face STEPS REACH (0: off)]
//     [--size-first N (0: the level)] [--ruled LENGTH THROUGH COUNT (LENGTH 0: off)]
//     [--recall-eleventh 0|1] [--check-leave-out N (0: none)] [--give-back 0|1]
//     [--tie-apart 0|1] [--empty-recentred 0|1] [--search-faint 0|1]
//     [--check-reread-from F (0: off)] [--faces-apart F (0: off)]
//     [--check-reread-flat F (0: off)] [--check-reread-clear 0|1] [--check-second 0|1]
//     [--cnn-vector-level 0|1|2] (the networks' vector width: plain, AVX2, AVX-512; the same
//     readings at each)
//     (parameters to try on development scenes; the report uses the defaults)
//     [--dice-csv FILE] (one line per true die: its outcome and the scene's and die's variation,
//     and what the die seen matched to it gave: its likeliest value and shares, its centre, radius,
//     top face against the true ones and the digit networks' mean "cocked" share, and where the
//     face check measured its centre and top face, and how far off its faces as read and placed
//     again lay there and the lean network's answer; for breaking the failures down)
//     [--lean-csv FILE] (one line per question put to the lean network: the image, the die seen
//     and its true die (-1: a phantom), where from, the radius, the shift and the answer)
//     [--clear-at-truth] (each transparent flat die read besides at its true top face and radius
//     with the clear networks mixed in, as the reader reads one left unread: how many the networks
//     read there surely and right, surely and wrong, not surely, and whose likeliest value is
//     right; what the reader loses to where it reads against what it loses to the networks)
//   build/release/tests/bench/dice_eval --turns DIR   (scenegen --sequence output: every turn's
//     frames read and fed to the DiceTurnTracker, zones from the tray's rim in the ground truth;
//     prints the events against the script)
// Prints flat dice read right (value and colour), rolls read exactly right (all ten dice),
// cocked dice flagged, images with a die missed, doubled or invented (and those per kind of
// scene: every die opaque, or frosted or transparent), the rolls not read exactly right by cause
// (testing::roll_failures: the kind of die that fails, and how), the confusion
// matrix of values, per-frame latency (median, 90th percentile) with each stage's share, and the
// failing images; with --failures, writes each failing image's debug overlay (JPEG) there.
// DICE_EVAL_SIGHTINGS=1: every die seen, the true die it matched, its shares, place and radius.
// DICE_EVAL_MISSES=1: each image's common die radius against the true one (RADIUS), each die
// missed with the nearest die seen and the nearest candidate (presence, size, why it was not
// kept), each phantom with how far the nearest true die is; =2 also every candidate within a
// radius of a die missed; =3 instead the scan's strongest window within half a radius of it, at
// any score (under the scan's threshold: the window detector did not see the die).
#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <opencv2/imgcodecs.hpp>
#include <string>
#include <vector>

#include "tests/support/dice_scoring.h"
#include "vision/common/cnn.h"
#include "vision/common/image_io.h"
#include "vision/dice/detector.h"
#include "vision/dice/turn.h"
#include "vision/memory.h"

namespace fs = std::filesystem;
namespace vd = arbitre::vision::dice;

namespace {

// Reads every frame of every scripted turn under `dir` and follows it; returns the number of
// turns whose rolls and keeps came out exactly as scripted.
int follow_turns(const std::string& dir, const vd::Params& base, const vd::Model& model) {
  std::vector<fs::path> turns;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.is_directory()) turns.push_back(e.path());
  }
  std::sort(turns.begin(), turns.end());
  int right = 0;
  for (const fs::path& turn : turns) {
    std::vector<fs::path> frames;
    for (const auto& e : fs::directory_iterator(turn)) {
      if (e.path().extension() == ".json") frames.push_back(e.path());
    }
    std::sort(frames.begin(), frames.end());
    vd::DiceTurnTracker tracker;
    double t = 0;
    int rolls = 0, keeps = 0, script_rolls = 0, script_keeps = 0, changed = 0;
    std::string log;
    for (const fs::path& file : frames) {
      const auto truth = nlohmann::json::parse(std::ifstream(file));
      const std::string event = truth["event"];
      script_rolls += event.rfind("roll", 0) == 0;
      script_keeps += event.rfind("keep", 0) == 0;
      vd::Params params = base;
      if (truth["tray"].is_object()) {
        for (const auto& p : truth["tray"]["rim_corners"])
          params.zones.tray.emplace_back(p[0].get<double>(), p[1].get<double>());
      }
      const cv::Mat image = arbitre::vision::load_image(
          (file.parent_path() / truth["image"].get<std::string>()).string());
      const arbitre::vision::DiceObservation seen = vd::detect(image, params, model).observation;
      arbitre::vision::DiceObservation hand;  // a hand over the dice between events
      std::vector<vd::TurnEvent> events;
      for (double end = t + 0.3; t < end; t += 0.1) {
        for (auto& e : tracker.feed(hand, t)) events.push_back(e);
      }
      for (double end = t + 1.2; t < end; t += 0.1) {
        for (auto& e : tracker.feed(seen, t)) events.push_back(e);
      }
      log += "  " + event + " ->";
      for (const auto& e : events) {
        if (e.kind == vd::TurnEventKind::Roll) ++rolls, log += " roll " + std::to_string(e.roll);
        if (e.kind == vd::TurnEventKind::Kept)
          ++keeps, log += " kept " + std::to_string(e.kept.size());
        if (e.kind == vd::TurnEventKind::KeptChanged) ++changed, log += " [" + e.detail + "]";
      }
      log += "\n";
    }
    const bool ok = rolls == script_rolls && keeps == script_keeps && changed == 0;
    right += ok;
    std::printf("%s: script %d rolls %d keeps; followed %d rolls %d keeps %d kept-changed: %s\n%s",
                turn.filename().string().c_str(), script_rolls, script_keeps, rolls, keeps, changed,
                ok ? "right" : "WRONG", log.c_str());
  }
  std::printf("turns followed exactly: %d/%zu\n", right, turns.size());
  return right;
}

}  // namespace

int main(int argc, char** argv) {
  arbitre::vision::keep_freed_memory();  // as arbitre runs the reader: vision/memory.h
  std::string dir, model_file, failures, turns_dir, dice_csv, lean_csv;
  bool clear_at_truth = false;
  bool float_networks = false;  // --float-networks: the networks' convolutions in floats
  // --clear-at-truth: per colour (0 red, 1 white), the transparent flat dice: how many, read
  // surely and right, surely and wrong, and with the likeliest value right.
  std::array<std::array<int, 4>, 2> at_truth{};
  int max_failures = 12;
  vd::Params params;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--model" && i + 1 < argc)
      model_file = argv[++i];
    else if (a == "--float-networks")
      float_networks = true;
    else if (a == "--failures" && i + 1 < argc)
      failures = argv[++i];
    else if (a == "--max-failures" && i + 1 < argc)
      max_failures = std::atoi(argv[++i]);
    else if (a == "--confidence" && i + 1 < argc)
      params.min_confidence = params.cnn_confidence = std::atof(argv[++i]);
    else if (a == "--margin" && i + 1 < argc)
      params.min_margin = params.cnn_margin = std::atof(argv[++i]);
    else if (a == "--cocked" && i + 1 < argc)
      params.cocked_share = std::atof(argv[++i]);
    else if (a == "--spacing" && i + 1 < argc)
      params.min_spacing = std::atof(argv[++i]);
    else if (a == "--scan-by-opencv")
      params.scan_by_opencv = true;
    else if (a == "--full-turns" && i + 1 < argc)
      params.full_turns = std::atoi(argv[++i]);
    else if (a == "--answer-search" && i + 1 < argc)
      params.answer_search = std::atoi(argv[++i]) != 0;
    else if (a == "--answer-gap" && i + 1 < argc)
      params.answer_gap = std::atof(argv[++i]);
    else if (a == "--answer-cocked" && i + 1 < argc)
      params.answer_cocked = std::atof(argv[++i]);
    else if (a == "--full-confidence" && i + 1 < argc)
      params.full_confidence = std::atof(argv[++i]);
    else if (a == "--search-unsure" && i + 1 < argc)
      params.search_unsure = std::atof(argv[++i]);
    else if (a == "--respace-from" && i + 1 < argc)
      params.respace_from = std::atof(argv[++i]);
    else if (a == "--presence" && i + 1 < argc)
      params.min_presence = std::atof(argv[++i]);
    else if (a == "--locate-steps" && i + 1 < argc)
      params.locate_steps = std::atoi(argv[++i]);
    else if (a == "--rotations" && i + 1 < argc)
      params.rotations = std::atoi(argv[++i]);
    else if (a == "--turns" && i + 1 < argc)
      turns_dir = argv[++i];
    else if (a == "--median-size")
      params.size_vote = false;
    else if (a == "--examine-turns" && i + 1 < argc)
      params.examine_turns = std::atoi(argv[++i]);
    else if (a == "--deferred" && i + 1 < argc)
      params.deferred_levels = std::atoi(argv[++i]);
    else if (a == "--candidates" && i + 1 < argc)
      params.max_candidates = std::atoi(argv[++i]);
    else if (a == "--refine-turns" && i + 1 < argc)
      params.refine_turns = std::atoi(argv[++i]);
    else if (a == "--resize-reads" && i + 1 < argc)
      params.resize_reads = std::atoi(argv[++i]);
    else if (a == "--tie-again")
      params.empty_tie_first = false;
    else if (a == "--give-back" && i + 1 < argc)
      params.empty_give_back = std::atoi(argv[++i]) != 0;
    else if (a == "--tie-apart" && i + 1 < argc)
      params.empty_tie_apart = std::atoi(argv[++i]) != 0;
    else if (a == "--empty-recentred" && i + 1 < argc)
      params.empty_recentred = std::atoi(argv[++i]) != 0;
    else if (a == "--search-faint" && i + 1 < argc)
      params.search_faint = std::atoi(argv[++i]) != 0;
    else if (a == "--scan-threshold" && i + 1 < argc)
      params.scan_threshold = std::atof(argv[++i]);
    else if (a == "--faint" && i + 2 < argc) {
      params.faint_threshold = std::atof(argv[++i]);
      params.faint_candidates = std::atoi(argv[++i]);
    } else if (a == "--faint-presence" && i + 1 < argc)
      params.faint_presence = std::atof(argv[++i]);
    else if (a == "--pool")
      params.pool = true;
    else if (a == "--axis-turns" && i + 1 < argc)
      params.axis_turns = std::atoi(argv[++i]);
    else if (a == "--axis-step" && i + 1 < argc)
      params.axis_step = std::atof(argv[++i]);
    else if (a == "--second" && i + 1 < argc)
      params.second_candidates = std::atoi(argv[++i]);
    else if (a == "--textures")
      params.textures = true;
    else if (a == "--clear-gate" && i + 1 < argc)
      params.clear_gate = std::atoi(argv[++i]);
    else if (a == "--clear-veto" && i + 1 < argc)
      params.clear_veto = std::atof(argv[++i]);
    else if (a == "--faces-apart" && i + 1 < argc)
      params.faces_apart = std::atof(argv[++i]);
    else if (a == "--clear-weight" && i + 1 < argc)
      params.clear_weight = std::atof(argv[++i]);
    else if (a == "--clear-confidence" && i + 1 < argc)
      params.clear_confidence = std::atof(argv[++i]);
    else if (a == "--clear-margin" && i + 1 < argc)
      params.clear_margin = std::atof(argv[++i]);
    else if (a == "--fit-unread" && i + 1 < argc)
      params.fit_unread = std::atoi(argv[++i]) != 0;
    else if (a == "--face-check" && i + 1 < argc)
      params.face_check = std::atof(argv[++i]);
    else if (a == "--refine-from" && i + 1 < argc)
      params.refine_from = std::atof(argv[++i]);
    else if (a == "--fine-steps" && i + 1 < argc)
      params.fine_steps = std::atoi(argv[++i]);
    else if (a == "--check-reread" && i + 1 < argc)
      params.check_reread = std::atoi(argv[++i]) != 0;
    else if (a == "--check-wider" && i + 1 < argc)
      params.check_wider = std::atof(argv[++i]);
    else if (a == "--size" && i + 2 < argc) {
      params.size_steps = std::atoi(argv[++i]);
      params.size_turns = std::atoi(argv[++i]);
    } else if (a == "--size-bound" && i + 1 < argc)
      params.size_bound = std::atof(argv[++i]);
    else if (a == "--lean" && i + 1 < argc)
      params.lean_bound = std::atof(argv[++i]);
    else if (a == "--lean-from" && i + 1 < argc)
      params.lean_from = std::atof(argv[++i]);
    else if (a == "--check-reread-clear" && i + 1 < argc)
      params.check_reread_clear = std::atoi(argv[++i]) != 0;
    else if (a == "--size-first" && i + 1 < argc)
      params.size_first = std::atoi(argv[++i]);
    else if (a == "--check-second" && i + 1 < argc)
      params.check_second = std::atoi(argv[++i]) != 0;
    else if (a == "--check-leave-out" && i + 1 < argc)
      params.check_leave_out = std::atoi(argv[++i]);
    else if (a == "--recall-eleventh" && i + 1 < argc)
      params.recall_eleventh = std::atoi(argv[++i]) != 0;
    else if (a == "--ruled" && i + 3 < argc) {
      params.ruled_length = std::atof(argv[++i]);
      params.ruled_through = std::atof(argv[++i]);
      params.ruled_count = std::atoi(argv[++i]);
    } else if (a == "--check-reread-flat" && i + 1 < argc)
      params.check_reread_flat = std::atof(argv[++i]);
    else if (a == "--lean-flat" && i + 1 < argc)
      params.lean_flat = std::atof(argv[++i]);
    else if (a == "--radius-spread" && i + 1 < argc)
      params.radius_spread = std::atof(argv[++i]);
    else if (a == "--cnn-vector-level" && i + 1 < argc)
      arbitre::vision::set_cnn_vector_level(std::atoi(argv[++i]));
    else if (a == "--fine" && i + 2 < argc)
      params.fine_from = std::atof(argv[++i]), params.fine_turns = std::atoi(argv[++i]);
    else if (a == "--fit-axis" && i + 1 < argc)
      params.fit_axis = std::atoi(argv[++i]) != 0;
    else if (a == "--redness-plane" && i + 1 < argc)
      params.redness_plane = std::atoi(argv[++i]) != 0;
    else if (a == "--fit-ring" && i + 2 < argc)
      params.fit_ring = std::atof(argv[++i]), params.fit_ring_places = std::atoi(argv[++i]);
    else if (a == "--face-check-opaque" && i + 1 < argc)
      params.face_check_opaque = std::atof(argv[++i]);
    else if (a == "--clear-locate" && i + 1 < argc)
      params.clear_locate = std::atoi(argv[++i]);
    else if (a == "--leaning")
      params.tilt_residual = vd::kLeaningResidual;
    else if (a == "--tilt-residual" && i + 1 < argc)
      params.tilt_residual = std::atof(argv[++i]);
    else if (a == "--tilt-locate" && i + 1 < argc)
      params.tilt_locate = std::atoi(argv[++i]);
    else if (a == "--tilt-dice" && i + 1 < argc)
      params.tilt_dice = std::atoi(argv[++i]);
    else if (a == "--tilt-outlier" && i + 1 < argc)
      params.tilt_outlier = std::atof(argv[++i]);
    else if (a == "--tilt-robust" && i + 1 < argc)
      params.tilt_robust = std::atoi(argv[++i]) != 0;
    else if (a == "--red" && i + 2 < argc) {
      params.red_yellow = std::atof(argv[++i]);
      params.red_threshold = std::atof(argv[++i]);
    } else if (a == "--tilt-face-residual" && i + 1 < argc)
      params.tilt_face_residual = std::atof(argv[++i]);
    else if (a == "--face-offset" && i + 1 < argc)
      params.face_offset = std::atof(argv[++i]);
    else if (a == "--face-rings" && i + 1 < argc)
      params.face_rings = std::atoi(argv[++i]);
    else if (a == "--cocked-vote" && i + 1 < argc)
      params.cocked_vote = std::atof(argv[++i]);
    else if (a == "--part-size" && i + 1 < argc)
      params.part_size = std::atof(argv[++i]);
    else if (a == "--veto")
      params.net_veto = true;
    else if (a == "--colour-contrast" && i + 1 < argc)
      params.colour_contrast = std::atof(argv[++i]);
    else if (a == "--colour-surround" && i + 1 < argc)
      params.colour_surround = std::atof(argv[++i]);
    else if (a == "--stretch" && i + 2 < argc)
      params.stretch_low = std::atof(argv[++i]), params.stretch_high = std::atof(argv[++i]);
    else if (a == "--plain-contrast" && i + 1 < argc)
      params.plain_contrast = std::atof(argv[++i]);
    else if (a == "--plain-gradient" && i + 1 < argc)
      params.plain_gradient = std::atof(argv[++i]);
    else if (a == "--check-reread-from" && i + 1 < argc)
      params.check_reread_from = std::atof(argv[++i]);
    else if (a == "--check-from-face" && i + 2 < argc)
      params.check_from_face = std::atoi(argv[++i]),
      params.check_from_face_reach = std::atof(argv[++i]);
    else if (a == "--colour-presence" && i + 1 < argc)
      params.colour_presence = std::atof(argv[++i]);
    else if (a == "--colour-places" && i + 1 < argc)
      params.colour_places = std::atoi(argv[++i]);
    else if (a == "--no-veto")
      params.net_veto = false;
    else if (a == "--cnn-cocked" && i + 1 < argc)
      params.cnn_cocked = std::atof(argv[++i]);
    else if (a == "--presence-net" && i + 1 < argc)
      params.presence_net = std::atof(argv[++i]);
    else if (a == "--presence-turns" && i + 1 < argc)
      params.presence_turns = std::atoi(argv[++i]);
    else if (a == "--cnn-presence" && i + 1 < argc)
      params.cnn_presence = std::atof(argv[++i]);
    else if (a == "--no-neighbours")
      params.neighbour_search = false;
    else if (a == "--neighbour-distance" && i + 1 < argc)
      params.neighbour_distance = std::atof(argv[++i]);
    else if (a == "--neighbour-refine-steps" && i + 1 < argc)
      params.neighbour_refine_steps = std::atoi(argv[++i]);
    else if (a == "--neighbour-keep" && i + 1 < argc)
      params.neighbour_keep = std::atof(argv[++i]);
    else if (a == "--neighbour-rounds" && i + 1 < argc)
      params.neighbour_rounds = std::atoi(argv[++i]);
    else if (a == "--neighbour-rings" && i + 1 < argc)
      params.neighbour_rings = std::atoi(argv[++i]);
    else if (a == "--neighbour-ring-step" && i + 1 < argc)
      params.neighbour_ring_step = std::atof(argv[++i]);
    else if (a == "--neighbour-directions" && i + 1 < argc)
      params.neighbour_directions = std::atoi(argv[++i]);
    else if (a == "--neighbour-no-die" && i + 1 < argc)
      params.neighbour_no_die = std::atof(argv[++i]);
    else if (a == "--no-cnn")
      params.use_cnn = false;
    else if (a == "--net-weight" && i + 1 < argc)
      params.net_weight = std::atof(argv[++i]);
    else if (a == "--no-resized")
      params.search_resized = false;
    else if (a == "--empty-crowded-presence" && i + 1 < argc)
      params.empty_crowded_presence = std::atof(argv[++i]);
    else if (a == "--empty-crowded-best" && i + 1 < argc)
      params.empty_crowded_best = std::atof(argv[++i]);
    else if (a == "--empty-presence" && i + 1 < argc)
      params.empty_presence = std::atof(argv[++i]);
    else if (a == "--empty-best" && i + 1 < argc)
      params.empty_best = std::atof(argv[++i]);
    else if (a == "--respace-after" && i + 1 < argc)
      params.respace_after = std::atof(argv[++i]);
    else if (a == "--no-empty-again")
      params.empty_again = false;
    else if (a == "--no-face-cnn")
      params.use_face_cnn = false;
    else if (a == "--face-steps" && i + 1 < argc)
      params.face_steps = std::atoi(argv[++i]);
    else if (a == "--centre-steps" && i + 1 < argc)
      params.centre_steps = std::atoi(argv[++i]);
    else if (a == "--colour-gap" && i + 1 < argc)
      params.colour_gap = std::atof(argv[++i]);
    else if (a == "--no-axis-cnn")
      params.use_axis_cnn = false;
    else if (a == "--dice-csv" && i + 1 < argc)
      dice_csv = argv[++i];
    else if (a == "--clear-at-truth")
      clear_at_truth = true;
    else if (a == "--lean-csv" && i + 1 < argc)
      lean_csv = argv[++i];
    else if (a == "--tolerance" && i + 1 < argc)
      params.size_tolerance = std::atof(argv[++i]);
    else
      dir = a;
  }
  if (dir.empty() && turns_dir.empty()) {
    std::fprintf(
        stderr,
        "usage: dice_eval DIR [--model MODEL.yml] [--float-networks] [--failures OUT_DIR] | "
        "--turns DIR\n");
    return 2;
  }
  const vd::Model model = vd::with_quick_networks(
      model_file.empty() ? vd::default_model() : vd::load_model(model_file), !float_networks);
  if (model.empty()) {
    std::fprintf(stderr, "dice_eval: no model\n");
    return 2;
  }
  if (!(turns_dir.empty() ? fs::is_directory(dir) : fs::is_directory(turns_dir))) {
    std::fprintf(stderr, "dice_eval: %s is not a directory\n",
                 (turns_dir.empty() ? dir : turns_dir).c_str());
    return 2;
  }
  if (!turns_dir.empty()) {
    follow_turns(turns_dir, params, model);
    return 0;
  }
  if (!failures.empty()) fs::create_directories(failures);
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  arbitre::testing::DiceScore total;
  int images = 0, rolls_right = 0, miss_double = 0, written = 0;
  // The same figures per kind of scene: [0] every die opaque, [1] frosted or transparent dice
  // (scenegen --textured-share): images, flat dice, read right, rolls right, cocked, flagged,
  // images with a die missed, doubled or invented.
  std::array<std::array<int, 7>, 2> by_kind{};
  // The opaque scenes by the camera's angle from overhead (0-10, 10-20, 20-30, 30 and more
  // degrees), and how far the reader's own estimate of that angle lies off the truth (degrees).
  std::array<std::array<int, 7>, 4> by_tilt{};
  std::vector<double> tilt_error;
  int tilt_unknown = 0;
  std::vector<double> latency;
  vd::Timing sum;
  std::map<std::pair<int, int>, int> confusion;
  std::vector<std::string> failing;
  // Each cause of a roll not read exactly right: the rolls it is among, and those it is alone in.
  std::map<std::string, std::pair<int, int>> failed_by;
  std::ofstream csv;
  if (!dice_csv.empty()) {
    csv.open(dice_csv);
    csv << "image,die,value,cocked,outcome,colour,texture,finish,marking,font,radius,visible,"
           "table,layout,light,tilt,jpeg,noise,read_as,best,second,face_error,axis_error,redness,"
           "seen_x,seen_y,seen_radius,face_x,face_y,true_x,true_y,true_face_x,true_face_y,"
           "cocked_share,tilt,top_x,top_y,"
           "check_centre_x,check_centre_y,check_face_x,check_face_y,off_read,off_placed,leans,"
           "camera_tilt\n";
  }
  std::ofstream leans;
  if (!lean_csv.empty()) {
    leans.open(lean_csv);
    leans << "image,die,truth,x,y,radius,shift_x,shift_y,leans\n";
  }
  for (const fs::path& file : files) {
    const auto truth = nlohmann::json::parse(std::ifstream(file));
    if (!truth.contains("dice")) continue;
    const cv::Mat image = arbitre::vision::load_image(
        (file.parent_path() / truth["image"].get<std::string>()).string());
    const vd::Detection d = vd::detect(image, params, model);
    latency.push_back(d.timing.total());
    sum += d.timing;
    const auto s = arbitre::testing::score_dice(truth, d.observation);
    if (clear_at_truth) {
      for (const auto& t : truth["dice"]) {
        if (t["cocked"].get<bool>() || t.value("texture", "") != "transparent") continue;
        const vd::CircleReading r = vd::read_whole_circle(
            image, {t["face"]["x"].get<double>(), t["face"]["y"].get<double>()},
            t["radius_px"].get<double>(), t["face"]["digit_rotation_deg"].get<double>(), true,
            params, model);
        const bool sure = vd::clear_reading_taken(r.best, r.second, params);
        const bool right = r.value == t["value"].get<int>();
        auto& tally = at_truth[t["colour"] == "white" ? 1 : 0];
        ++tally[0];
        tally[1] += sure && right;
        tally[2] += sure && !right;
        tally[3] += right;
      }
    }
    if (std::getenv("DICE_EVAL_SIGHTINGS")) {
      // Every die seen: the true die it matched (flat, cocked or none), and its shares.
      for (std::size_t k = 0; k < d.observation.dice.size(); ++k) {
        const auto& o = d.observation.dice[k];
        std::string near = "phantom";
        int true_value = 0;
        if (const int i = s.truth_of[k]; i >= 0) {
          const auto& t = truth["dice"][static_cast<std::size_t>(i)];
          near = t["cocked"].get<bool>() ? "cocked" : "flat";
          true_value = t["value"].is_number() ? t["value"].get<int>() : 0;
        }
        const vd::Candidate& c = d.candidates[static_cast<std::size_t>(d.die_candidate[k])];
        std::printf("SIGHT %s %s %d %d %.4f %.4f %.3f %.3f %.3f %d %d %.1f %.1f %.1f\n",
                    file.stem().string().c_str(), near.c_str(), o.value, o.cocked ? 1 : 0,
                    d.cocked_evidence[k][2], d.cocked_evidence[k][3], c.presence,
                    d.cocked_evidence[k][0], d.cocked_evidence[k][1], d.best_value[k], true_value,
                    o.x, o.y, c.radius);
      }
    }
    if (const char* misses = std::getenv("DICE_EVAL_MISSES")) {
      // Every true die missed: the nearest die seen and the nearest candidate examined (radii),
      // with that candidate's presence and why it was not kept; then every phantom.
      const auto& dice = truth["dice"];
      std::vector<double> radii;
      for (const auto& t : dice) radii.push_back(t["radius_px"].get<double>());
      std::nth_element(radii.begin(), radii.begin() + radii.size() / 2, radii.end());
      if (!radii.empty())
        std::printf("RADIUS %s %.3f\n", file.stem().string().c_str(),
                    d.die_radius / radii[radii.size() / 2]);
      for (std::size_t i = 0; i < dice.size(); ++i) {
        if (s.seen_of[i] >= 0) continue;
        const cv::Point2d at(dice[i]["x"].get<double>(), dice[i]["y"].get<double>());
        const double r = dice[i]["radius_px"].get<double>();
        double seen = 1e9;
        for (const auto& o : d.observation.dice)
          seen = std::min(seen, std::hypot(o.x - at.x, o.y - at.y) / r);
        int near = -1;
        double cand = 1e9;
        for (std::size_t k = 0; k < d.candidates.size(); ++k) {
          const double dist = cv::norm(d.candidates[k].centre - at) / r;
          if (dist < cand) cand = dist, near = static_cast<int>(k);
        }
        const auto* c = near >= 0 ? &d.candidates[static_cast<std::size_t>(near)] : nullptr;
        if (misses[0] == '2') {
          for (const auto& other : d.candidates) {
            const double dist = cv::norm(other.centre - at) / r;
            if (dist < 1.0)
              std::printf("  near %.2f radius %.2f presence %.2f neighbour %d why %s\n", dist,
                          other.radius / r, other.presence, other.neighbour ? 1 : 0,
                          other.why.c_str());
          }
        }
        if (misses[0] == '3') {
          // The scan's strongest window within half a radius (before suppression).
          vd::Params any = params;
          any.scan_threshold = -5;
          const std::vector<vd::Candidate> windows = vd::scan_windows(image, any, model);
          for (const vd::Candidate& w : windows) {
            if (cv::norm(w.centre - at) < 0.5 * r) {
              std::printf("  window score %.2f radius %.2f\n", w.score, w.radius / r);
              break;
            }
          }
        }
        std::printf(
            "MISS %s die %zu cocked %d texture %s visible %.2f: seen %.2f, candidate %.2f "
            "presence %.2f radius %.2f kept %d why %s\n",
            file.stem().string().c_str(), i, dice[i]["cocked"].get<bool>() ? 1 : 0,
            dice[i].value("texture", "").c_str(), dice[i].value("visible", 1.0), seen, cand,
            c ? c->presence : 0.0, c ? c->radius / r : 0.0, c ? c->kept : 0,
            c ? c->why.c_str() : "-");
      }
      for (std::size_t k = 0; k < d.observation.dice.size(); ++k) {
        if (s.truth_of[k] >= 0) continue;
        const auto& o = d.observation.dice[k];
        double nearest = 1e9, face = 1e9;
        std::size_t at = 0;
        for (std::size_t i = 0; i < dice.size(); ++i) {
          const auto& t = dice[i];
          const double r = t["radius_px"].get<double>();
          const double to = std::hypot(t["x"].get<double>() - o.x, t["y"].get<double>() - o.y) / r;
          if (to < nearest) nearest = to, at = i;
        }
        const auto& t = dice[at];
        if (t.contains("face"))
          face =
              std::hypot(t["face"]["x"].get<double>() - o.x, t["face"]["y"].get<double>() - o.y) /
              t["radius_px"].get<double>();
        std::printf(
            "PHANTOM %s at %.0f,%.0f: nearest true die %.2f radii (its top face %.2f; die %zu, "
            "value %d, cocked %d, visible %.2f, missed %d), value %d presence %.2f best %.2f "
            "(value %d)\n",
            file.stem().string().c_str(), o.x, o.y, nearest, face, at,
            t["value"].is_number() ? t["value"].get<int>() : 0, t["cocked"].get<bool>() ? 1 : 0,
            t.value("visible", 1.0), s.seen_of[at] < 0 ? 1 : 0, o.value,
            d.candidates[static_cast<std::size_t>(d.die_candidate[k])].presence,
            d.cocked_evidence[k][2], d.best_value[k]);
      }
    }
    for (const vd::Detection::LeanAsk& a : d.lean_asked) {
      if (!leans.is_open()) break;
      leans << file.stem().string() << ',' << a.die << ',' << s.truth_of[a.die] << ',' << a.centre.x
            << ',' << a.centre.y << ',' << a.radius << ',' << a.shift.x << ',' << a.shift.y << ','
            << a.leans << '\n';
    }
    if (csv.is_open()) {
      const auto& sc = truth["scene"];
      for (std::size_t i = 0; i < s.outcome.size(); ++i) {
        const auto& t = truth["dice"][i];
        csv << file.stem().string() << ',' << i << ',' << t["value"] << ',' << t["cocked"] << ','
            << s.outcome[i] << ',' << t.value("colour", "") << ',' << t.value("texture", "") << ','
            << t.value("finish", "") << ',' << t.value("marking", "") << ',' << t.value("font", "")
            << ',' << t["radius_px"] << ',' << t.value("visible", 1.0) << ','
            << sc.value("table", "") << ',' << sc.value("layout", "") << ','
            << sc.value("light", "") << ',' << sc.value("tilt_deg", 0.0) << ','
            << sc.value("jpeg_quality", 0) << ',' << sc.value("noise_sigma", 0.0);
        // The die seen matched to it: its likeliest value, the shares it was decided on, how
        // far its top face was read from the true one (radii) and how far its digit's axis from
        // the true one (degrees, modulo 180).
        const double r = t["radius_px"].get<double>();
        const int near = s.seen_of[i];
        if (near >= 0 && t.contains("face")) {
          const auto& f = t["face"];
          const auto k = static_cast<std::size_t>(near);
          const double face_error =
              std::hypot(d.face[k].x - f["x"].get<double>(), d.face[k].y - f["y"].get<double>()) /
              r;
          double axis_error =
              std::fmod(std::abs(d.rotation_deg[k] - f["digit_rotation_deg"].get<double>()), 180.0);
          axis_error = std::min(axis_error, 180.0 - axis_error);
          csv << ',' << d.best_value[k] << ',' << d.cocked_evidence[k][2] << ','
              << d.cocked_evidence[k][3] << ',' << face_error << ',' << axis_error << ','
              << d.redness[k] << ',' << d.observation.dice[k].x << ',' << d.observation.dice[k].y
              << ',' << d.candidates[static_cast<std::size_t>(d.die_candidate[k])].radius << ','
              << d.face[k].x << ',' << d.face[k].y << ',' << t["x"] << ',' << t["y"] << ','
              << f["x"] << ',' << f["y"] << ',' << d.cocked_evidence[k][1] << ','
              << (k < d.tilt.size() ? d.tilt[k] : -1.0) << ','
              << (k < d.top.size() ? d.top[k].x : -1.0) << ','
              << (k < d.top.size() ? d.top[k].y : -1.0) << ','
              << (k < d.check_centre.size() ? d.check_centre[k].x : -1.0) << ','
              << (k < d.check_centre.size() ? d.check_centre[k].y : -1.0) << ','
              << (k < d.check_face.size() ? d.check_face[k].x : -1.0) << ','
              << (k < d.check_face.size() ? d.check_face[k].y : -1.0) << ','
              << (k < d.check_first.size() ? d.check_first[k][0] : -1.0) << ','
              << (k < d.check_first.size() ? d.check_first[k][1] : -1.0) << ','
              << (k < d.check_first.size() ? d.check_first[k][2] : -1.0) << ','
              << d.observation.camera_tilt_deg << '\n';
        } else {
          csv << ",,,,,,,,,,,,,,,,,,,,,,,,,,," << d.observation.camera_tilt_deg << '\n';
        }
      }
    }
    ++images;
    total.flat += s.flat, total.flat_right += s.flat_right, total.cocked += s.cocked;
    total.cocked_flagged += s.cocked_flagged, total.wrong_value += s.wrong_value;
    total.wrong_colour += s.wrong_colour, total.unread += s.unread;
    total.flat_called_cocked += s.flat_called_cocked, total.missed += s.missed;
    total.doubled += s.doubled, total.phantoms += s.phantoms;
    total.texture_told += s.texture_told, total.texture_right += s.texture_right;
    for (const auto& p : s.pairs) ++confusion[p];
    rolls_right += s.roll_right();
    miss_double += s.miss_or_double();
    const bool textured =
        std::any_of(truth["dice"].begin(), truth["dice"].end(),
                    [](const auto& t) { return t.value("texture", "none") != "none"; });
    auto& kind = by_kind[textured ? 1 : 0];
    const std::array<int, 7> counts = {1,
                                       s.flat,
                                       s.flat_right,
                                       s.roll_right() ? 1 : 0,
                                       s.cocked,
                                       s.cocked_flagged,
                                       s.miss_or_double() ? 1 : 0};
    for (std::size_t k = 0; k < kind.size(); ++k) kind[k] += counts[k];
    const double true_tilt = truth["scene"].value("tilt_deg", -1.0);
    if (true_tilt >= 0) {
      if (!textured) {
        auto& bin = by_tilt[static_cast<std::size_t>(std::clamp(int(true_tilt / 10), 0, 3))];
        for (std::size_t k = 0; k < bin.size(); ++k) bin[k] += counts[k];
      }
      if (d.observation.camera_tilt_deg >= 0)
        tilt_error.push_back(std::abs(d.observation.camera_tilt_deg - true_tilt));
      else
        ++tilt_unknown;
    }
    if (!s.roll_right()) {
      const std::vector<std::string> causes = arbitre::testing::roll_failures(truth, s);
      for (const std::string& c : causes) {
        ++failed_by[c].first;
        if (causes.size() == 1) ++failed_by[c].second;
      }
      char line[256];
      std::snprintf(
          line, sizeof line,
          "%s: %d/%d flat right, %d/%d cocked flagged, %d missed, %d doubled, %d phantoms",
          file.lexically_relative(dir).string().c_str(), s.flat_right, s.flat, s.cocked_flagged,
          s.cocked, s.missed, s.doubled, s.phantoms);
      failing.push_back(line);
      if (!failures.empty() && written < max_failures) {
        const std::string name = file.lexically_relative(dir).replace_extension("").string();
        std::string flat = name;
        std::replace(flat.begin(), flat.end(), '/', '_');
        cv::imwrite((fs::path(failures) / (flat + "_overlay.jpg")).string(),
                    vd::draw_overlay(image, d, params), {cv::IMWRITE_JPEG_QUALITY, 80});
        ++written;
      }
    }
  }
  if (images == 0) {
    std::fprintf(stderr, "dice_eval: no scenes in %s\n", dir.c_str());
    return 2;
  }
  std::sort(latency.begin(), latency.end());
  const double all = sum.candidates_ms + sum.examine_ms + sum.read_ms + sum.other_ms;
  std::printf("images %d, dice %d (flat %d, cocked %d)\n", images, total.flat + total.cocked,
              total.flat, total.cocked);
  std::printf("flat dice read right (value and colour): %d/%d = %.2f%%\n", total.flat_right,
              total.flat, 100.0 * total.flat_right / std::max(1, total.flat));
  std::printf("  wrong value %d, wrong colour %d, unread %d, flat called cocked %d, missed %d\n",
              total.wrong_value, total.wrong_colour, total.unread, total.flat_called_cocked,
              total.missed);
  if (params.textures) {
    std::printf("textures (none, frosted, transparent) right: %d/%d\n", total.texture_right,
                total.texture_told);
  }
  std::printf("rolls read exactly right (all ten): %d/%d = %.1f%%\n", rolls_right, images,
              100.0 * rolls_right / images);
  std::printf("cocked dice flagged (cocked or unread): %d/%d\n", total.cocked_flagged,
              total.cocked);
  std::printf(
      "images with a die missed, doubled or invented: %d/%d = %.1f%% (missed %d, doubled %d, "
      "phantoms %d)\n",
      miss_double, images, 100.0 * miss_double / images, total.missed, total.doubled,
      total.phantoms);
  // One kind of scene's figures (`n`: images, flat dice, read right, rolls read exactly, cocked
  // dice, flagged, images with a die missed, doubled or invented).
  const auto print_scenes = [](const char* what, const std::array<int, 7>& n) {
    if (n[0] == 0) return;
    std::printf(
        "  %s: images %d, flat dice read right %d/%d = %.2f%%, rolls read exactly right %d = "
        "%.1f%%, cocked dice flagged %d/%d, images with a die missed, doubled or invented %d\n",
        what, n[0], n[2], n[1], 100.0 * n[2] / std::max(1, n[1]), n[3], 100.0 * n[3] / n[0], n[5],
        n[4], n[6]);
  };
  print_scenes("opaque scenes", by_kind[0]);
  print_scenes("textured (frosted or transparent) scenes", by_kind[1]);
  const char* const angles[] = {"0-10", "10-20", "20-30", "30+"};
  for (std::size_t b = 0; b < by_tilt.size(); ++b) {
    const std::string what =
        std::string("opaque scenes, camera ") + angles[b] + " degrees from overhead";
    print_scenes(what.c_str(), by_tilt[b]);
  }
  if (!tilt_error.empty()) {
    std::sort(tilt_error.begin(), tilt_error.end());
    const auto at = [&](double q) {
      return tilt_error[static_cast<std::size_t>(q * (tilt_error.size() - 1))];
    };
    std::printf(
        "camera's angle from the dice read: %zu images (%d too few dice read), off the truth by "
        "%.1f degrees (median), %.1f (90th percentile), %.1f (99th)\n",
        tilt_error.size(), tilt_unknown, at(0.5), at(0.9), at(0.99));
  }
  for (int c = 0; clear_at_truth && c < 2; ++c) {
    const auto& t = at_truth[static_cast<std::size_t>(c)];
    std::printf(
        "transparent %s flat dice read at their true top face: %d, surely and right %d, surely "
        "and wrong %d, not surely %d; likeliest value right %d\n",
        c == 1 ? "white" : "red", t[0], t[1], t[2], t[0] - t[1] - t[2], t[3]);
  }
  // The causes, the most frequent first.
  std::vector<std::pair<std::string, std::pair<int, int>>> causes(failed_by.begin(),
                                                                  failed_by.end());
  std::stable_sort(causes.begin(), causes.end(),
                   [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
  std::printf(
      "rolls not read exactly right, by cause (a roll counts under each of its causes;"
      " alone: its only one): %d\n",
      images - rolls_right);
  for (const auto& [cause, n] : causes)
    std::printf("  %s: %d (alone %d)\n", cause.c_str(), n.first, n.second);
  std::printf(
      "latency per frame: median %.1f ms, 90th percentile %.1f ms; stages: candidates %.0f%%, "
      "examine %.0f%%, "
      "read %.0f%%, other %.0f%%\n",
      latency[latency.size() / 2], latency[latency.size() * 9 / 10], 100 * sum.candidates_ms / all,
      100 * sum.examine_ms / all, 100 * sum.read_ms / all, 100 * sum.other_ms / all);
  std::printf(
      "\nconfusion (rows: true value; columns: read; ? unread, c called cocked, - missed)\n\n");
  std::printf("| true |");
  for (int v = 1; v <= 10; ++v) std::printf(" %d |", v);
  std::printf(" ? | c | - |\n|---|");
  for (int v = 0; v < 13; ++v) std::printf("---|");
  std::printf("\n");
  for (int t = 1; t <= 10; ++t) {
    std::printf("| %d |", t);
    for (int r : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, -1, -2}) {
      const auto it = confusion.find({t, r});
      std::printf(" %s |", it == confusion.end() ? "." : std::to_string(it->second).c_str());
    }
    std::printf("\n");
  }
  std::printf("\nfailing images (%zu):\n", failing.size());
  for (const std::string& f : failing) std::printf("  %s\n", f.c_str());
  return 0;
}
