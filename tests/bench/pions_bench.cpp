// Google Benchmark of the pion reader on rendered 1280x720 scenes, per stage:
//   taskset -c 1 build/release/tests/bench/pions_bench DIR --benchmark_repetitions=3
//   --benchmark_report_aggregates_only
// DIR holds tools/scenegen output (default: tests/data/pions). One repetition reads every frame
// of DIR once; its time is the mean per frame, `frame_median_ms` the median per frame (the
// issue's figure), each stage's share of the time beside them.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <opencv2/core.hpp>
#include <vector>

#include "tests/bench/frame_times.h"
#include "vision/common/image_io.h"
#include "vision/memory.h"
#include "vision/pions/detector.h"

namespace vp = arbitre::vision::pions;

namespace {

std::vector<cv::Mat>& frames() {
  static std::vector<cv::Mat> images;
  return images;
}

void BM_DetectPions(benchmark::State& bench) {
  std::size_t i = 0;
  vp::Timing sum;
  arbitre::bench::FrameTimes times;
  for (auto _ : bench) {
    times.start();
    const vp::Detection d = vp::detect(frames()[i]);
    benchmark::DoNotOptimize(d.observation.pions.data());
    times.stop();
    sum += d.timing;
    i = (i + 1) % frames().size();
  }
  const double total = sum.normalise_ms + sum.table_ms + sum.candidates_ms + sum.lattice_ms + sum.classify_ms;
  times.report(bench);
  bench.counters["normalise%"] = 100 * sum.normalise_ms / total;
  bench.counters["table%"] = 100 * sum.table_ms / total;
  bench.counters["candidates%"] = 100 * sum.candidates_ms / total;
  bench.counters["lattice%"] = 100 * sum.lattice_ms / total;
  bench.counters["classify%"] = 100 * sum.classify_ms / total;
  bench.counters["frames"] = static_cast<double>(frames().size());
}

}  // namespace

int main(int argc, char** argv) {
  arbitre::vision::keep_freed_memory();  // as arbitre runs the reader: vision/memory.h
  benchmark::Initialize(&argc, argv);
  const std::string dir = argc > 1 ? argv[1] : ARBITRE_PIONS_DIR;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const auto ext = entry.path().extension();
    if (ext == ".jpg" || ext == ".png") frames().push_back(arbitre::vision::load_image(entry.path().string()));
  }
  if (frames().empty()) return 2;
  cv::setNumThreads(1);  // one core: OpenCV's own thread pool would only contend for it
  // The models are loaded on first use: once here, not in the first frame's time.
  vp::detect(frames().front());
  // Every frame once per repetition (a time budget would read the first few dozen only).
  benchmark::RegisterBenchmark("BM_DetectPions", BM_DetectPions)
      ->Unit(benchmark::kMillisecond)
      ->Iterations(static_cast<benchmark::IterationCount>(frames().size()));
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
