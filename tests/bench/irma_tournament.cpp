// The Irma players' tournament: N seeded solo games for each of the random, greedy and advisor
// players, the same draws for all three (each game's pions come from one seed). Prints mean
// score, spread, completion rate and time per decision, as JSON, and exits 1 when the advisor's
// mean does not beat greedy's by the required margin.
//
//   irma_tournament [--games 1000] [--seed 1] [--simulations 48] [--first 0] [--margin 0.10]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tests/bench/stats.h"

#include "scoring/irma/advisor.h"
#include "scoring/irma/score.h"

namespace ri = arbitre::referee::irma;
namespace si = arbitre::scoring::irma;

namespace {

struct Tally {
  const char* name;
  std::vector<double> scores;
  int completed = 0;
  std::vector<double> decision_ms;  // only decisions with a choice (two cells or more)
};

using arbitre::bench::mean;
using arbitre::bench::percentile;
using arbitre::bench::stdev;

// Plays one game whose draws come from `seed`; the player's own randomness from another stream.
template <typename Choose>
void play_game(Tally& tally, std::uint64_t seed, Choose&& choose) {
  si::Rng draws(seed);
  si::Rng own(seed ^ 0x5bd1e995ULL);
  ri::State state = ri::initial_state();
  std::vector<ri::Placement> legal;
  while (!ri::is_over(state)) {
    const ri::Colour colour = si::draw(state, draws);
    ri::legal_placements(state, colour, legal);
    if (legal.empty()) {
      ri::play(state, ri::Move::block_claim(colour));
      break;
    }
    const auto start = std::chrono::steady_clock::now();
    const ri::Cell cell = choose(state, colour, legal, own);
    const auto stop = std::chrono::steady_clock::now();
    if (legal.size() > 1) {
      tally.decision_ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
    }
    ri::play(state, ri::Move::place(colour, cell));
  }
  tally.scores.push_back(si::score(state));
  if (state.status == ri::Status::Completed) ++tally.completed;
}

}  // namespace

int main(int argc, char** argv) {
  int games = 1000;
  std::uint64_t seed = 1;
  int simulations = si::AdvisorParams{}.simulations;
  double margin = 0.10;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const char* value = argv[i + 1];
    if (flag == "--games")
      games = std::atoi(value);
    else if (flag == "--seed")
      seed = std::strtoull(value, nullptr, 10);
    else if (flag == "--simulations")
      simulations = std::atoi(value);
    else if (flag == "--margin")
      margin = std::atof(value);
    else {
      std::fprintf(stderr, "unknown flag %s\n", flag.c_str());
      return 2;
    }
  }
  Tally random{"random", {}, 0, {}}, greedy{"greedy", {}, 0, {}}, advisor{"advisor", {}, 0, {}};
  const si::AdvisorParams params{simulations};
  for (int g = 0; g < games; ++g) {
    const std::uint64_t game_seed = seed * 1000003ULL + static_cast<std::uint64_t>(g);
    play_game(random, game_seed,
              [](const ri::State&, ri::Colour, const std::vector<ri::Placement>& legal,
                 si::Rng& rng) { return si::choose_random(legal, rng); });
    play_game(greedy, game_seed,
              [](const ri::State& state, ri::Colour colour, const std::vector<ri::Placement>& legal,
                 si::Rng&) { return si::choose_greedy(state, colour, legal); });
    play_game(advisor, game_seed,
              [&](const ri::State& state, ri::Colour colour, const std::vector<ri::Placement>&,
                  si::Rng& rng) { return si::advise(state, colour, params, rng).front().cell; });
    if ((g + 1) % 50 == 0) {
      std::fprintf(stderr, "%d games: random %.2f greedy %.2f advisor %.2f\n", g + 1,
                   mean(random.scores), mean(greedy.scores), mean(advisor.scores));
    }
  }
  std::printf("{\"games\": %d, \"seed\": %llu, \"simulations\": %d, \"players\": [\n", games,
              static_cast<unsigned long long>(seed), simulations);
  const Tally* tallies[] = {&random, &greedy, &advisor};
  for (int i = 0; i < 3; ++i) {
    const Tally& t = *tallies[i];
    std::printf(
        "  {\"player\": \"%s\", \"mean\": %.3f, \"stdev\": %.3f, \"completion\": %.4f, "
        "\"decision_ms_median\": %.4f, \"decision_ms_p95\": %.4f, \"decisions\": %zu}%s\n",
        t.name, mean(t.scores), stdev(t.scores), static_cast<double>(t.completed) / games,
        percentile(t.decision_ms, 0.5), percentile(t.decision_ms, 0.95), t.decision_ms.size(),
        i < 2 ? "," : "");
  }
  const double gain = mean(advisor.scores) / mean(greedy.scores) - 1.0;
  std::printf("], \"advisor_over_greedy\": %.4f, \"required\": %.4f}\n", gain, margin);
  return gain >= margin ? 0 : 1;
}
