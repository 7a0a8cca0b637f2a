// Figures of the game store, printed as JSON: the latency of append_event (one committed
// transaction, WAL with synchronous=FULL) and what resuming a game costs: opening the store
// (with its quick_check), finding the unfinished game and reading back its 10,000-event log.
//
//   store_bench [--dir DIR] [--appends 2000] [--log 10000] [--repeats 5]
//
// DIR (default: a new directory under $TMPDIR or /tmp) should be on the disk to measure: the
// commit latency is mostly the fsync of the WAL.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "data/store/store.h"
#include "tests/bench/stats.h"

namespace ds = arbitre::data::store;
namespace fs = std::filesystem;
using arbitre::bench::mean;
using arbitre::bench::percentile;
using Clock = std::chrono::steady_clock;

namespace {

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// A Yams roll as the watcher would record it.
nlohmann::json roll(int n) {
  return {{"n", n}, {"dice", "7r 10w 3r 3r 5w 1r 2r 9w 9w 4r"}, {"keep", {2, 3, 7, 8}}};
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir;
  int appends = 2000, log_size = 10000, repeats = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--dir")
      dir = argv[i + 1];
    else if (flag == "--appends")
      appends = std::atoi(argv[i + 1]);
    else if (flag == "--log")
      log_size = std::atoi(argv[i + 1]);
    else if (flag == "--repeats")
      repeats = std::atoi(argv[i + 1]);
    else {
      std::fprintf(stderr,
                   "usage: store_bench [--dir DIR] [--appends N] [--log N] [--repeats N]\n");
      return 2;
    }
  }
  bool own_dir = false;
  if (dir.empty()) {
    std::string pattern = (fs::temp_directory_path() / "arbitre-store-bench-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) return 1;
    dir = pattern;
    own_dir = true;
  }
  try {
    // Commit latency: every append_event is a transaction made durable before it returns.
    std::vector<double> latency_ms;
    {
      ds::Store store = ds::Store::open(dir + "/latency.db");
      const ds::GameId game = store.create_game(ds::GameKind::Yams, {}, {"Anna", "Bruno"});
      for (int i = 1; i <= appends; ++i) {
        const auto start = Clock::now();
        store.append_event(game, ds::EventKind::Roll, roll(i));
        latency_ms.push_back(ms_since(start));
      }
    }

    // Resuming: a game with a long log, then (repeatedly) open, find it, read its log.
    const std::string path = dir + "/resume.db";
    {
      ds::Store store = ds::Store::open(path);
      const ds::GameId game = store.create_game(ds::GameKind::Yams, {}, {"Anna", "Bruno"});
      for (int i = 1; i <= log_size; ++i) store.append_event(game, ds::EventKind::Roll, roll(i));
    }
    std::vector<double> open_ms, read_ms, total_ms;
    for (int r = 0; r < repeats; ++r) {
      const auto start = Clock::now();
      ds::Store store = ds::Store::open(path);
      open_ms.push_back(ms_since(start));
      const auto read_start = Clock::now();
      const std::vector<ds::Game> games = store.unfinished_games();
      const std::vector<ds::Event> events = store.events(games.at(0).id);
      read_ms.push_back(ms_since(read_start));
      total_ms.push_back(ms_since(start));
      if (static_cast<int>(events.size()) != log_size) return 1;
    }
    const auto size = fs::file_size(path);

    std::printf(
        "{\"append_event_ms\": {\"count\": %d, \"median\": %.3f, \"p99\": %.3f, \"mean\": %.3f, "
        "\"max\": %.3f},\n \"resume\": {\"events\": %d, \"file_bytes\": %llu, "
        "\"open_ms_median\": %.2f, \"read_log_ms_median\": %.2f, \"total_ms_median\": %.2f}}\n",
        appends, percentile(latency_ms, 0.5), percentile(latency_ms, 0.99), mean(latency_ms),
        percentile(latency_ms, 1.0), log_size, static_cast<unsigned long long>(size),
        percentile(open_ms, 0.5), percentile(read_ms, 0.5), percentile(total_ms, 0.5));
  } catch (const ds::StoreError& e) {
    std::fprintf(stderr, "store_bench: %s\n", e.what());
    return 2;
  }
  if (own_dir) fs::remove_all(dir);
  return 0;
}
