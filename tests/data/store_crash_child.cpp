// The child process of the store's crash test (tests/data/store_test.cpp, StoreCrash): plays a
// scripted session of TOTAL events into one Yams game of the store at DB, printing "ack N" on
// stdout (flushed) once append_event has returned event N, then "done" once the game is
// finished. The parent kills it with SIGKILL at random moments and starts it again: each run
// resumes the unfinished game, first checking that the log holds exactly the script's first
// events in order, then appending from where the log ends.
//
//   store_crash_child DB [TOTAL]        exit 0 when done, 3 when the stored log is not the script
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "data/store/store.h"

namespace ds = arbitre::data::store;

namespace {

// A deterministic mix of the event number (splitmix64), so that every event differs.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Event n of the script: a Yams-like stream of rolls, boxes and now and then a refusal or a
// correction, each with ten dice drawn from n.
struct Scripted {
  ds::EventKind kind;
  nlohmann::json payload;
};

Scripted script(std::int64_t n) {
  static constexpr ds::EventKind kCycle[] = {ds::EventKind::Roll,    ds::EventKind::Roll,
                                             ds::EventKind::Move,    ds::EventKind::Box,
                                             ds::EventKind::Refusal, ds::EventKind::Correction};
  std::uint64_t bits = mix(static_cast<std::uint64_t>(n));
  std::string dice;
  for (int i = 0; i < 10; ++i) {
    if (i > 0) dice += ' ';
    dice += std::to_string(1 + bits % 10) + (i < 5 ? "r" : "w");
    bits = mix(bits);
  }
  return {kCycle[n % 6], {{"n", n}, {"dice", dice}}};
}

int fail(const std::string& message) {
  std::fprintf(stderr, "store_crash_child: %s\n", message.c_str());
  return 3;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: store_crash_child DB [TOTAL]\n");
    return 2;
  }
  const std::int64_t total = argc > 2 ? std::atoll(argv[2]) : 1000;
  try {
    ds::Store store = ds::Store::open(argv[1]);
    ds::GameId game = 0;
    if (const auto running = store.unfinished_games(); !running.empty()) {
      if (running.size() > 1) return fail("more than one unfinished game");
      game = running.front().id;
    } else if (const auto games = store.list_games(); !games.empty()) {
      game = games.front().id;  // finished: verify the log once more, append nothing
    } else {
      game = store.create_game(ds::GameKind::Yams, {{"textures", false}, {"keep_rule", "free"}},
                               {"Anna", "Bruno"});
    }

    // Resume: the log must be exactly the beginning of the script.
    const std::vector<ds::Event> log = store.events(game);
    for (std::size_t i = 0; i < log.size(); ++i) {
      const auto n = static_cast<std::int64_t>(i) + 1;
      const Scripted expected = script(n);
      if (log[i].seq != n || log[i].kind != expected.kind || log[i].payload != expected.payload) {
        return fail("event " + std::to_string(n) +
                    " is not the script's: " + log[i].payload.dump());
      }
    }
    if (static_cast<std::int64_t>(log.size()) > total) return fail("more events than the script");

    for (auto n = static_cast<std::int64_t>(log.size()) + 1; n <= total; ++n) {
      const Scripted next = script(n);
      const std::int64_t seq = store.append_event(game, next.kind, next.payload);
      if (seq != n) return fail("append_event returned " + std::to_string(seq));
      std::printf("ack %lld\n", static_cast<long long>(seq));
      std::fflush(stdout);
    }
    if (store.game(game).status == ds::GameStatus::Running) {
      store.finish_game(game, {{"Anna", 312, {{"total", 312}}}, {"Bruno", 287, {{"total", 287}}}});
    }
    std::printf("done\n");
    std::fflush(stdout);
  } catch (const ds::StoreError& e) {
    return fail(e.what());
  }
  return 0;
}
