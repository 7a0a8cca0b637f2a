// Google Benchmark of the dice reader on rendered 1280x720 scenes (ten d10 each), with each
// stage's share of the time:
//   build/release/tests/bench/dice_bench [DIR] --benchmark_repetitions=3
//   --benchmark_report_aggregates_only --benchmark_enable_random_interleaving=true
// DIR holds `scenegen --dice` output (default: tests/data/dice). Run it on one core
// (taskset -c 0) for the figure. One repetition reads every frame of DIR once; its time
// is the mean per frame, `frame_median_ms` the median per frame (the figure).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <opencv2/imgproc.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/bench/frame_times.h"
#include "tests/support/one_digit_network.h"
#include "vision/common/cnn.h"
#include "vision/common/image_io.h"
#include "vision/common/warp.h"
#include "vision/dice/detector.h"
#include "vision/dice/hog_scan.h"
#include "vision/memory.h"

namespace vd = arbitre::vision::dice;

namespace {

std::vector<cv::Mat>& frames() {
  static std::vector<cv::Mat> images;
  return images;
}

// As read (the defaults), or without one of the networks (what it costs): the top face located
// by the locator's forests alone, or the presence from the reader's forest and the digit network;
// or without the search at the face answers (answer_search); or the windows scored by OpenCV's
// HOG instead of the reader's own scan (hog_scan.h); or with the first digit network alone (at
// its thresholds: value 0.5, margin 0.3, whole circle 0.9), as the reader was until 2026-12-03;
// or without the centre network: the dice left at their candidates' centres, as until
// 2026-12-03; or without the clear network: a transparent die left unread not read again, as
// until 2026-12-03 (twentieth session); or without the faint windows and the choice again at a
// larger size, or without placing the dice again for the face check (at 0.3), as until
// 2026-12-04; or without the face check's bound for opaque dice and the places round the fitted
// one, as until 2026-12-04 (twenty-seventh session); or every die read placed again for the face
// check (refine_from 0), as until then; or without the fine networks (fine_steps 0) and with a
// die the face check finds off read again where the fit puts its face (check_reread), as until
// 2026-12-04 (twenty-eighth session); or with the networks at AVX2's width (8 floats; AVX-512's
// 16 since the twenty-ninth session, where the processor has it), the same readings, and the
// block HOG at AVX2's width too (its AVX-512 parts since the fifty-fifth session; the crops' warp
// stays at AVX-512's); or without
// placing a die the face check finds off again from wider crops (check_wider 0), as until
// 2026-12-04 (twenty-ninth session); or without reading again a die the face check finds off that
// the lean network takes for flat, nor a frosted or transparent one read again with the clear
// networks (check_reread_flat 0, check_reread_clear false), as until the forty-first session.
enum class Without {
  Nothing,
  FaceNetwork,
  PresenceNetwork,
  OwnScan,
  AnswerSearch,
  SecondDigitNet,
  CentreNetwork,
  ClearNetwork,
  FittedFaces,
  FaintWindows,
  PlacingAgain,
  OpaqueBoundAndRing,
  RefineFrom,
  FineNetworks,
  Avx512Networks,
  Avx512Hog,
  WiderCrops,
  SizeNetwork,
  LeanNetwork,
  ClearVeto,
  RedPlaces,
  FromFace,
  ClearPair,
  LeanReread,
  CommonSize,
  RuledLines,
  LeaveOut,
  GiveBack,
  QuickNetworks,
  QuickNetworksAtAvx2
};

// The reader with its networks' convolutions in floats, as before the fifty-fourth session.
const vd::Model& float_networks() {
  static const vd::Model model = vd::with_quick_networks(vd::default_model(), false);
  return model;
}

// The reader before the clear pair (fortieth session): the first clear network alone.
const vd::Model& one_clear_network() {
  static const vd::Model model = [] {
    vd::Model m = vd::default_model();
    m.clear_cnn_2 = {};
    return m;
  }();
  return model;
}

void BM_DetectDice(benchmark::State& bench, Without without) {
  vd::Params params;
  params.use_face_cnn = without != Without::FaceNetwork;
  if (without == Without::PresenceNetwork) params.presence_net = 0;
  params.answer_search = without != Without::AnswerSearch;
  params.scan_by_opencv = without == Without::OwnScan;
  if (without == Without::CentreNetwork) params.centre_steps = 0;
  if (without == Without::ClearNetwork) params.clear_weight = 0;
  if (without == Without::FittedFaces) params.fit_unread = false, params.face_check = 0;
  if (without == Without::FaintWindows) params.faint_candidates = 0, params.resize_reads = 0;
  if (without == Without::PlacingAgain) params.refine_turns = 0, params.face_check = 0.3;
  if (without == Without::OpaqueBoundAndRing) params.face_check_opaque = 0, params.fit_ring = 0;
  if (without == Without::RefineFrom) params.refine_from = 0;
  if (without == Without::FineNetworks) params.fine_steps = 0, params.check_reread = true;
  if (without == Without::WiderCrops) params.check_wider = 0;
  if (without == Without::SizeNetwork) {
    params.size_steps = 0;  // and the face check's bounds of before it
    params.face_check = 0.25;
    params.face_check_opaque = 0.22;
  }
  if (without == Without::LeanNetwork) params.lean_bound = 0;
  if (without == Without::ClearVeto)
    params.clear_veto = 0, params.clear_weight = 0.5;  // as before it
  if (without == Without::RedPlaces) params.colour_contrast = 0, params.plain_contrast = 0;
  if (without == Without::FromFace) params.check_from_face = 0, params.check_reread_from = 0;
  if (without == Without::ClearPair)
    params.clear_weight = 0.65, params.clear_confidence = 0.6;  // its share and confidence then
  if (without == Without::LeanReread)
    params.check_reread_flat = 0, params.check_reread_clear = false;
  if (without == Without::CommonSize) params.size_first = 0;  // the level, as until 2026-12-06
  if (without == Without::RuledLines) params.ruled_length = 0;
  if (without == Without::LeaveOut) params.check_leave_out = 0;
  if (without == Without::GiveBack) {
    params.empty_give_back = false;
    params.empty_tie_apart = false;
    params.search_faint = false;
  }
  if (without == Without::SecondDigitNet) arbitre::testing::as_with_one_digit_network(params);
  const vd::Model& model = without == Without::SecondDigitNet
                               ? arbitre::testing::one_digit_network()
                           : without == Without::ClearPair     ? one_clear_network()
                           : without == Without::QuickNetworks || without == Without::QuickNetworksAtAvx2
                               ? float_networks()
                               : vd::default_model();
  const int level = arbitre::vision::set_cnn_vector_level(
      without == Without::Avx512Networks || without == Without::QuickNetworksAtAvx2 ||
              without == Without::Avx512Hog
          ? 1
          : 2);
  const bool hog_avx512 = vd::set_hog_avx512(without != Without::Avx512Hog);
  std::size_t i = 0;
  vd::Timing sum;
  arbitre::bench::FrameTimes times;
  for (auto _ : bench) {
    times.start();
    const vd::Detection d = vd::detect(frames()[i], params, model);
    benchmark::DoNotOptimize(d.observation.dice.data());
    times.stop();
    sum += d.timing;
    i = (i + 1) % frames().size();
  }
  arbitre::vision::set_cnn_vector_level(level);
  vd::set_hog_avx512(hog_avx512);
  const double total = std::max(1e-9, sum.total());
  times.report(bench);
  bench.counters["candidates%"] = 100 * sum.candidates_ms / total;
  bench.counters["examine%"] = 100 * sum.examine_ms / total;
  bench.counters["read%"] = 100 * sum.read_ms / total;
  bench.counters["other%"] = 100 * sum.other_ms / total;
  bench.counters["frames"] = static_cast<double>(frames().size());
}

// The window scan alone (every level of the pyramid), by the reader's own HOG or OpenCV's.
void BM_ScanWindows(benchmark::State& bench, bool by_opencv) {
  vd::Params params;
  params.scan_by_opencv = by_opencv;
  std::size_t i = 0;
  arbitre::bench::FrameTimes times;
  for (auto _ : bench) {
    times.start();
    const auto windows = vd::scan_levels(frames()[i], params, vd::default_model(), 0, -1);
    benchmark::DoNotOptimize(windows.data());
    times.stop();
    i = (i + 1) % frames().size();
  }
  times.report(bench);
}

// The crops' bilinear warp, the readers' own or cv::warpAffine: a 48x48 colour crop (the
// forests' face crop) or a 28x28 grey one (the networks'), turned and scaled from a frame.
void BM_Warp(benchmark::State& bench, bool own, bool colour) {
  cv::Mat source = frames().front();
  if (!colour) cv::cvtColor(source, source, cv::COLOR_BGR2GRAY);
  const int side = colour ? 48 : 28;
  cv::Mat crop;
  int turn = 0;
  for (auto _ : bench) {
    // Centred on the frame's middle, as the readers centre a crop on a die.
    cv::Mat m = cv::getRotationMatrix2D(cv::Point2f(640, 360), turn++ % 360, 0.7);
    m.at<double>(0, 2) += side / 2.0 - 640;
    m.at<double>(1, 2) += side / 2.0 - 360;
    if (own) {
      arbitre::vision::warp_linear(source, crop, m, cv::Size(side, side));
    } else {
      cv::warpAffine(source, crop, m, cv::Size(side, side), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
    }
    benchmark::DoNotOptimize(crop.data);
  }
}

// The networks alone, per crop: the digit network (one plane) and the face network (two), on
// batches of 64 crops of noise (their cost does not depend on what the crops show).
void BM_Network(benchmark::State& bench, bool face) {
  const arbitre::vision::Cnn& net =
      face ? vd::default_model().face_cnn : vd::default_model().digit_cnn;
  cv::Mat crops(64, net.inputs(), CV_8U);
  cv::randu(crops, 0, 256);
  for (auto _ : bench) benchmark::DoNotOptimize(net.probabilities(crops).data);
  bench.SetItemsProcessed(bench.iterations() * crops.rows);
  bench.counters["us_per_crop"] =
      benchmark::Counter(static_cast<double>(bench.iterations() * crops.rows),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

}  // namespace

int main(int argc, char** argv) {
  arbitre::vision::keep_freed_memory();  // as arbitre runs the reader: vision/memory.h
  benchmark::Initialize(&argc, argv);
  const std::string dir = argc > 1 ? argv[1] : ARBITRE_DICE_DIR;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const auto ext = entry.path().extension();
    const std::string name = entry.path().filename().string();
    if ((ext == ".jpg" || ext == ".png") && name.find("_gt") == std::string::npos)
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) frames().push_back(arbitre::vision::load_image(f.string()));
  if (frames().empty() || vd::default_model().empty()) return 2;
  cv::setNumThreads(1);
  // The models are loaded on first use: once here, not in the first frame's time.
  vd::detect(frames().front());
  // Every frame once per repetition (a time budget would read the first few only).
  const auto every_frame = static_cast<benchmark::IterationCount>(frames().size());
  const std::pair<const char*, Without> readers[] = {
      {"as_read", Without::Nothing},
      {"float_networks", Without::QuickNetworks},
      {"float_networks_at_avx2_width", Without::QuickNetworksAtAvx2},
      {"without_face_network", Without::FaceNetwork},
      {"without_presence_network", Without::PresenceNetwork},
      {"without_answer_search", Without::AnswerSearch},
      {"one_digit_network", Without::SecondDigitNet},
      {"without_centre_network", Without::CentreNetwork},
      {"without_clear_network", Without::ClearNetwork},
      {"without_fitted_faces", Without::FittedFaces},
      {"without_faint_windows", Without::FaintWindows},
      {"without_placing_again", Without::PlacingAgain},
      {"without_opaque_bound_and_ring", Without::OpaqueBoundAndRing},
      {"placing_every_die_again", Without::RefineFrom},
      {"without_fine_networks", Without::FineNetworks},
      {"networks_at_avx2_width", Without::Avx512Networks},
      {"networks_and_hog_at_avx2_width", Without::Avx512Hog},
      {"without_wider_crops", Without::WiderCrops},
      {"before_size_network", Without::SizeNetwork},
      {"without_lean_network", Without::LeanNetwork},
      {"one_clear_network", Without::ClearPair},
      {"before_clear_veto", Without::ClearVeto},
      {"before_red_places", Without::RedPlaces},
      {"before_from_face_and_reread", Without::FromFace},
      {"before_lean_reread", Without::LeanReread},
      {"common_size_at_the_level", Without::CommonSize},
      {"without_ruled_lines", Without::RuledLines},
      {"without_leave_out", Without::LeaveOut},
      {"before_give_back", Without::GiveBack},
      {"scan_by_opencv", Without::OwnScan}};
  for (const auto& [name, without] : readers) {
    benchmark::RegisterBenchmark((std::string("BM_DetectDice/") + name).c_str(), BM_DetectDice,
                                 without)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(every_frame);
  }
  benchmark::RegisterBenchmark("BM_ScanWindows/own", BM_ScanWindows, false)
      ->Unit(benchmark::kMillisecond)
      ->Iterations(every_frame);
  benchmark::RegisterBenchmark("BM_ScanWindows/opencv", BM_ScanWindows, true)
      ->Unit(benchmark::kMillisecond)
      ->Iterations(every_frame);
  for (const bool colour : {true, false}) {
    for (const bool own : {true, false}) {
      const std::string name =
          std::string("BM_Warp/") + (colour ? "colour48/" : "grey28/") + (own ? "own" : "opencv");
      benchmark::RegisterBenchmark(name.c_str(), BM_Warp, own, colour)
          ->Unit(benchmark::kMicrosecond);
    }
  }
  benchmark::RegisterBenchmark("BM_Network/digit", BM_Network, false)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_Network/face", BM_Network, true)->Unit(benchmark::kMicrosecond);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
