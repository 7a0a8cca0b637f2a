// Google Benchmark of the pion reader on rendered 1280x720 scenes, per stage:
//   build/release/tests/bench/pions_bench DIR --benchmark_repetitions=3 --benchmark_report_aggregates_only
// DIR holds tools/scenegen output (default: tests/data/pions).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <vector>

#include "vision/common/image_io.h"
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
  std::int64_t n = 0;
  for (auto _ : bench) {
    const vp::Detection d = vp::detect(frames()[i]);
    benchmark::DoNotOptimize(d.observation.pions.data());
    sum.normalise_ms += d.timing.normalise_ms;
    sum.table_ms += d.timing.table_ms;
    sum.candidates_ms += d.timing.candidates_ms;
    sum.lattice_ms += d.timing.lattice_ms;
    sum.classify_ms += d.timing.classify_ms;
    ++n;
    i = (i + 1) % frames().size();
  }
  const double total = sum.normalise_ms + sum.table_ms + sum.candidates_ms + sum.lattice_ms + sum.classify_ms;
  bench.counters["normalise%"] = 100 * sum.normalise_ms / total;
  bench.counters["table%"] = 100 * sum.table_ms / total;
  bench.counters["candidates%"] = 100 * sum.candidates_ms / total;
  bench.counters["lattice%"] = 100 * sum.lattice_ms / total;
  bench.counters["classify%"] = 100 * sum.classify_ms / total;
  bench.counters["frames"] = static_cast<double>(frames().size());
}
BENCHMARK(BM_DetectPions)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  const std::string dir = argc > 1 ? argv[1] : ARBITRE_PIONS_DIR;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const auto ext = entry.path().extension();
    if (ext == ".jpg" || ext == ".png") frames().push_back(arbitre::vision::load_image(entry.path().string()));
  }
  if (frames().empty()) return 2;
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
