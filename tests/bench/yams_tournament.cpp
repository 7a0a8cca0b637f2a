// The Yams players' tournament: N seeded solo games for the greedy player and for the advisor,
// game g rolling its dice from the same seed for both. Prints the mean and spread of the
// grand total and the time per decision as JSON; exits 1 when the advisor's mean does not beat
// greedy's by the required margin.
//
//   yams_tournament [--games 300] [--seed 1] [--samples 48] [--margin 0.15]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/bench/stats.h"

#include "scoring/yams/advisor.h"

namespace ry = arbitre::referee::yams;
namespace sy = arbitre::scoring::yams;

namespace {

struct Tally {
  const char* name;
  std::vector<double> totals;
  std::vector<double> decision_ms;
  int bonus = 0;
};

using arbitre::bench::mean;
using arbitre::bench::percentile;
using arbitre::bench::stdev;

template <typename Decide>
void play_game(Tally& tally, std::uint64_t seed, Decide&& decide) {
  arbitre::scoring::Rng dice(seed);
  ry::State state = ry::initial_state({});
  sy::play_out(state, dice, [&](const ry::State& s) {
    const auto start = std::chrono::steady_clock::now();
    const sy::Option option = decide(s);
    const auto stop = std::chrono::steady_clock::now();
    if (s.turn.rolls > 0) {  // the first roll of a turn is no decision
      tally.decision_ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
    }
    return option;
  });
  const sy::Totals totals = sy::totals(state.sheets[0]);
  tally.totals.push_back(totals.grand);
  if (totals.bonus > 0) ++tally.bonus;
}

}  // namespace

int main(int argc, char** argv) {
  int games = 300;
  std::uint64_t seed = 1;
  int samples = sy::AdvisorParams{}.samples;
  double margin = 0.15;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const char* value = argv[i + 1];
    if (flag == "--games") games = std::atoi(value);
    else if (flag == "--seed") seed = std::strtoull(value, nullptr, 10);
    else if (flag == "--samples") samples = std::atoi(value);
    else if (flag == "--margin") margin = std::atof(value);
    else {
      std::fprintf(stderr, "unknown flag %s\n", flag.c_str());
      return 2;
    }
  }
  Tally greedy{"greedy", {}, {}, 0};
  Tally advisor{"advisor", {}, {}, 0};
  const sy::AdvisorParams params{samples};
  for (int g = 0; g < games; ++g) {
    const std::uint64_t game_seed = seed * 1000003ULL + static_cast<std::uint64_t>(g);
    play_game(greedy, game_seed, [](const ry::State& s) { return sy::greedy(s); });
    arbitre::scoring::Rng own(game_seed ^ 0x9e3779b97f4a7c15ULL);
    play_game(advisor, game_seed, [&](const ry::State& s) { return sy::advise(s, params, own).best; });
    if ((g + 1) % 10 == 0) {
      std::fprintf(stderr, "%d games: greedy %.1f advisor %.1f (median %.1f ms)\n", g + 1,
                   mean(greedy.totals), mean(advisor.totals), percentile(advisor.decision_ms, 0.5));
    }
  }
  std::printf("{\"games\": %d, \"seed\": %llu, \"samples\": %d, \"players\": [\n", games,
              static_cast<unsigned long long>(seed), samples);
  const Tally* tallies[] = {&greedy, &advisor};
  for (int i = 0; i < 2; ++i) {
    const Tally& t = *tallies[i];
    std::printf(
        "  {\"player\": \"%s\", \"mean\": %.2f, \"stdev\": %.2f, \"min\": %.0f, \"max\": %.0f, "
        "\"bonus_rate\": %.4f, \"decision_ms_median\": %.4f, \"decision_ms_p95\": %.4f, "
        "\"decisions\": %zu}%s\n",
        t.name, mean(t.totals), stdev(t.totals), percentile(t.totals, 0), percentile(t.totals, 1),
        static_cast<double>(t.bonus) / games, percentile(t.decision_ms, 0.5),
        percentile(t.decision_ms, 0.95), t.decision_ms.size(), i < 1 ? "," : "");
  }
  const double gain = mean(advisor.totals) / mean(greedy.totals) - 1.0;
  std::printf("], \"advisor_over_greedy\": %.4f, \"required\": %.4f}\n", gain, margin);
  return gain >= margin ? 0 : 1;
}
