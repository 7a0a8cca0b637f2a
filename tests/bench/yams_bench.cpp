// Google Benchmark for the Yams scorer and advisor:
//   build/release/tests/bench/yams_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only
#include <benchmark/benchmark.h>

#include <vector>

#include "scoring/yams/advisor.h"

namespace ry = arbitre::referee::yams;
namespace sy = arbitre::scoring::yams;

namespace {

// Rolls with few distinct values (the ones with combinations) and uniform ones, half textured.
std::vector<ry::Dice> sample_rolls(int n) {
  arbitre::scoring::Rng rng(17);
  std::vector<ry::Dice> rolls;
  for (int k = 0; k < n; ++k) {
    ry::Dice dice = sy::fresh_dice();
    const int distinct = 1 + static_cast<int>(arbitre::scoring::uniform_below(rng, 10));
    for (int i = 0; i < ry::kDiceCount; ++i) {
      dice[i].value = static_cast<std::uint8_t>(1 + arbitre::scoring::uniform_below(rng, distinct));
      if (k % 2) dice[i].texture = (rng() & 1) ? ry::Texture::Frosted : ry::Texture::Transparent;
    }
    rolls.push_back(dice);
  }
  return rolls;
}

void BM_ScoreAllBoxes(benchmark::State& bench) {
  const auto rolls = sample_rolls(4096);
  std::size_t i = 0;
  for (auto _ : bench) {
    benchmark::DoNotOptimize(ry::score_all(rolls[i], (i & 7) == 0));
    i = (i + 1) % rolls.size();
  }
  bench.SetItemsProcessed(bench.iterations());
}
BENCHMARK(BM_ScoreAllBoxes);

void BM_BestChoiceOneBox(benchmark::State& bench) {
  const auto rolls = sample_rolls(4096);
  std::size_t i = 0;
  for (auto _ : bench) {
    benchmark::DoNotOptimize(ry::best_choice(rolls[i], ry::box_at(static_cast<int>(i % ry::kBoxCount)), false));
    i = (i + 1) % rolls.size();
  }
}
BENCHMARK(BM_BestChoiceOneBox);

// One advisor decision after the given number of rolls, halfway through a game.
void BM_AdvisorDecision(benchmark::State& bench) {
  arbitre::scoring::Rng dice_rng(5);
  ry::State state = ry::initial_state({});
  // Fill half the sheet with a greedy game, then play the given number of rolls.
  while (state.sheets[0].filled_count() < ry::kBoxCount / 2) {
    const sy::Option option = sy::greedy(state);
    if (option.action == sy::Action::Fill) {
      ry::play(state, ry::Move::fill(option.box));
    } else {
      ry::Dice dice = state.turn.rolls == 0 ? sy::fresh_dice() : state.turn.dice;
      sy::reroll(dice, option.keep, dice_rng);
      ry::play(state, ry::Move::roll(option.keep, dice));
    }
  }
  for (int r = 0; r < bench.range(0); ++r) {
    ry::Dice dice = state.turn.rolls == 0 ? sy::fresh_dice() : state.turn.dice;
    sy::reroll(dice, 0, dice_rng);
    ry::play(state, ry::Move::roll(0, dice));
  }
  arbitre::scoring::Rng rng(9);
  const sy::AdvisorParams params;
  for (auto _ : bench) benchmark::DoNotOptimize(sy::advise(state, params, rng));
}
BENCHMARK(BM_AdvisorDecision)->Arg(1)->Arg(3)->Arg(5)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
