// The live loop's figures (docs/architecture.md, docs/benchmarks.md): replaying a long Yams log
// through the session's game, resuming it from the store, and the whole loop on the scripted
// Irma demo with and without the store.
//   session_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/session/demo.h"
#include "app/session/game_log.h"
#include "app/session/loop.h"
#include "app/session/script.h"
#include "app/session/session.h"
#include "app/session/yams_game.h"
#include "data/irma/record_json.h"
#include "tests/support/yams_log.h"

namespace {

namespace s = arbitre::app::session;
namespace ds = arbitre::data::store;
namespace fs = std::filesystem;

constexpr std::size_t kEvents = 10000;
constexpr int kPlayers = 60;

std::vector<std::string> player_names() {
  std::vector<std::string> names;
  for (int p = 0; p < kPlayers; ++p) names.push_back("player " + std::to_string(p + 1));
  return names;
}

const std::vector<ds::Event>& yams_log() {
  static const std::vector<ds::Event> log = arbitre::testing::yams::greedy_log(kEvents, kPlayers);
  return log;
}

// A store of its own in the temporary directory, removed with its journal files.
struct TempStore {
  std::string path;
  explicit TempStore(const std::string& name)
      : path((fs::temp_directory_path() /
              ("arbitre_session_bench_" + std::to_string(getpid()) + "_" + name + ".db"))
                 .string()) {
    remove();
  }
  ~TempStore() { remove(); }
  void remove() const {
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path + suffix);
  }
};

// The log replayed into a new game, in memory (what --resume does once it has read the log).
void BM_ReplayYamsLog(benchmark::State& bench) {
  const std::vector<std::string> names = player_names();
  for (auto _ : bench) {
    s::YamsGame game(arbitre::referee::yams::Options{}, names);
    s::replay_events(game, yams_log(), 1);
    benchmark::DoNotOptimize(game.moves().size());
  }
  bench.counters["events"] = static_cast<double>(yams_log().size());
}

// The whole resume: open the store (with its check), find the game, read the log, replay it.
void BM_ResumeYamsFromStore(benchmark::State& bench) {
  TempStore db("resume");
  ds::GameId game = 0;
  {
    ds::Store store = ds::Store::open(db.path);
    game = store.create_game(ds::GameKind::Yams, s::yams_options_to_json({}), player_names());
    for (const ds::Event& event : yams_log()) store.append_event(game, event.kind, event.payload);
  }
  s::SessionOptions options;
  options.kind = ds::GameKind::Yams;
  options.players = player_names();
  for (auto _ : bench) {
    ds::Store store = ds::Store::open(db.path);
    auto session = s::Session::resume(store, game, options, {});
    benchmark::DoNotOptimize(session.get());
  }
  bench.counters["events"] = static_cast<double>(yams_log().size());
}

// The loop on the scripted Irma demo (observations through the filter, the referee and, with
// the store, every event committed): frames a second of wall time (a commit waits for its
// fsync).
void BM_LoopIrmaDemo(benchmark::State& bench, bool with_store) {
  const s::Demo demo = s::make_demo(ds::GameKind::Irma);
  const s::Script script = s::irma_demo_script(
      arbitre::data::irma::parse_record(arbitre::data::irma::demo_record_text(), "demo"));
  std::size_t frames = 0;
  for (const s::SourceStep& step : script.steps)
    frames += step.kind == s::SourceStep::Kind::Observation;
  s::SessionOptions options;
  options.kind = ds::GameKind::Irma;
  options.players = demo.players;
  int run = 0;
  for (auto _ : bench) {
    bench.PauseTiming();  // the store made and removed outside the time
    {
      TempStore db("loop_" + std::to_string(run++));
      std::optional<ds::Store> store;
      if (with_store) store.emplace(ds::Store::open(db.path));
      s::ScriptedSource source(script.steps);
      auto session = s::Session::start(store ? &*store : nullptr, options, {});
      bench.ResumeTiming();
      s::run_loop(*session, source, {});
      bench.PauseTiming();
    }
    bench.ResumeTiming();
  }
  bench.counters["frames_per_second"] =
      benchmark::Counter(static_cast<double>(frames) * static_cast<double>(bench.iterations()),
                         benchmark::Counter::kIsRate);
}

BENCHMARK(BM_ReplayYamsLog)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ResumeYamsFromStore)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LoopIrmaDemo, with_store, true)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_LoopIrmaDemo, no_store, false)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
