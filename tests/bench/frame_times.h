// The time of each frame a reader's benchmark reads, and the per-frame counters it reports
// (the issues' figure is the median per frame, which Google Benchmark's mean does not give).
#pragma once

#include <benchmark/benchmark.h>

#include <chrono>
#include <vector>

#include "tests/bench/stats.h"

namespace arbitre::bench {

class FrameTimes {
 public:
  void start() { start_ = std::chrono::steady_clock::now(); }
  void stop() {
    ms_.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
            .count());
  }
  // frame_median_ms and frame_p95_ms.
  void report(benchmark::State& bench) const {
    bench.counters["frame_median_ms"] = percentile(ms_, 0.5);
    bench.counters["frame_p95_ms"] = percentile(ms_, 0.95);
  }

 private:
  std::chrono::steady_clock::time_point start_;
  std::vector<double> ms_;
};

}  // namespace arbitre::bench
