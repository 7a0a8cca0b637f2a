// Google Benchmark for the Irma engine and advisor:
//   build/release/tests/bench/irma_bench --benchmark_repetitions=5
//   --benchmark_report_aggregates_only
#include <benchmark/benchmark.h>

#include "scoring/irma/advisor.h"
#include "scoring/irma/score.h"

namespace ri = arbitre::referee::irma;
namespace si = arbitre::scoring::irma;

namespace {

// A position reached by a seeded greedy game after `pions` placements (or its end).
ri::State midgame(int pions, std::uint64_t seed = 42) {
  si::Rng rng(seed);
  ri::State state = ri::initial_state();
  std::vector<ri::Placement> legal;
  while (!ri::is_over(state) && state.board.size() < pions) {
    const ri::Colour colour = si::draw(state, rng);
    ri::legal_placements(state, colour, legal);
    if (legal.empty()) break;
    ri::play(state, ri::Move::place(colour, si::choose_greedy(state, colour, legal)));
  }
  return state;
}

void BM_Check(benchmark::State& bench) {
  const ri::State state = midgame(static_cast<int>(bench.range(0)));
  std::vector<ri::Move> moves;
  for (const ri::Colour colour : ri::kAllColours) {
    for (const ri::Cell cell : ri::legal_cells(state, colour))
      moves.push_back(ri::Move::place(colour, cell));
  }
  std::size_t i = 0;
  for (auto _ : bench) {
    benchmark::DoNotOptimize(ri::check(state, moves[i]));
    i = (i + 1) % moves.size();
  }
}
BENCHMARK(BM_Check)->Arg(12)->Arg(24);

void BM_LegalCells(benchmark::State& bench) {
  const ri::State state = midgame(static_cast<int>(bench.range(0)));
  int k = 0;
  for (auto _ : bench) {
    benchmark::DoNotOptimize(ri::legal_cells(state, ri::kAllColours[k]));
    k = (k + 1) % ri::kColourCount;
  }
}
BENCHMARK(BM_LegalCells)->Arg(12)->Arg(24);

void BM_AdvisorDecision(benchmark::State& bench) {
  const ri::State state = midgame(static_cast<int>(bench.range(0)));
  si::Rng rng(7);
  const si::AdvisorParams params;
  for (auto _ : bench) {
    benchmark::DoNotOptimize(si::advise(state, ri::Colour::Green, params, rng));
  }
  bench.counters["cells"] = static_cast<double>(ri::legal_cells(state, ri::Colour::Green).size());
}
BENCHMARK(BM_AdvisorDecision)->Arg(1)->Arg(12)->Arg(24)->Unit(benchmark::kMillisecond);

// Whole solo games with the advisor's playout policy (highest marker first): the rate the
// advisor's playouts run at.
void BM_SimulatedGame(benchmark::State& bench) {
  si::Rng rng(11);
  std::int64_t games = 0;
  for (auto _ : bench) {
    ri::State state = ri::initial_state();
    si::play_out(
        state, rng,
        [](const ri::State&, ri::Colour, const std::vector<ri::Placement>& legal, si::Rng&) {
          const auto best =
              std::max_element(legal.begin(), legal.end(), [](const auto& a, const auto& b) {
                return (a.marker ? ri::marker_value(*a.marker) : 0) <
                       (b.marker ? ri::marker_value(*b.marker) : 0);
              });
          return best->cell;
        });
    benchmark::DoNotOptimize(si::score(state));
    ++games;
  }
  bench.SetItemsProcessed(games);
}
BENCHMARK(BM_SimulatedGame)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
