#include "scoring/irma/advisor.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <limits>

#include "scoring/irma/score.h"

namespace arbitre::scoring::irma {
namespace {

int marker_rank(const std::optional<ri::SeriesKind>& marker) {
  return marker ? ri::marker_value(*marker) : 0;
}

// The rollout policy: the highest immediate marker, ties broken by `tie` (a per-playout seed,
// so every candidate cell meets the same tie-breaks on the same draw sequence).
ri::Cell choose_fast(const std::vector<ri::Placement>& legal, std::uint64_t& tie) {
  int best = -1;
  int ties = 0;
  std::size_t chosen = 0;
  for (std::size_t i = 0; i < legal.size(); ++i) {
    const int rank = marker_rank(legal[i].marker);
    if (rank > best) {
      best = rank;
      ties = 1;
      chosen = i;
    } else if (rank == best) {
      // Reservoir choice among equals, from a splitmix64 stream.
      tie += 0x9e3779b97f4a7c15ULL;
      std::uint64_t z = tie;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      z ^= z >> 31;
      ++ties;
      if (z % static_cast<std::uint64_t>(ties) == 0) chosen = i;
    }
  }
  return legal[chosen].cell;
}

}  // namespace

ri::Colour draw(const ri::State& state, Rng& rng) {
  const int size = state.bag_size();
  assert(size > 0);
  int pick = static_cast<int>(uniform_below(rng, static_cast<std::uint64_t>(size)));
  for (const ri::Colour colour : ri::kAllColours) {
    pick -= state.remaining(colour);
    if (pick < 0) return colour;
  }
  return ri::Colour::White;
}

ri::Cell choose_random(const std::vector<ri::Placement>& legal, Rng& rng) {
  return legal[uniform_below(rng, legal.size())].cell;
}

ri::Cell choose_greedy(const ri::State& state, ri::Colour colour,
                       const std::vector<ri::Placement>& legal) {
  int best_rank = -1;
  for (const ri::Placement& placement : legal) {
    best_rank = std::max(best_rank, marker_rank(placement.marker));
  }
  ri::Cell chosen = legal.front().cell;
  int fewest_blocked = std::numeric_limits<int>::max();
  std::vector<ri::Placement> next;
  for (const ri::Placement& placement : legal) {
    if (marker_rank(placement.marker) != best_rank) continue;
    const ri::State after = ri::apply(state, ri::Move::place(colour, placement.cell));
    int blocked = 0;
    if (!ri::is_over(after)) {
      for (const ri::Colour other : ri::kAllColours) {
        if (after.remaining(other) == 0) continue;
        ri::legal_placements(after, other, next);
        if (next.empty()) blocked += after.remaining(other);
      }
    }
    if (blocked < fewest_blocked) {
      fewest_blocked = blocked;
      chosen = placement.cell;
    }
  }
  return chosen;
}

std::vector<CellValue> advise(const ri::State& state, ri::Colour colour,
                              const AdvisorParams& params, Rng& rng) {
  std::vector<ri::Placement> legal;
  ri::legal_placements(state, colour, legal);
  std::vector<CellValue> values;
  if (legal.empty()) return values;

  // Common random numbers: one shuffled rest-of-bag and one tie-break seed per playout.
  ri::State drawn_state = state;
  ++drawn_state.drawn[static_cast<int>(colour)];
  std::vector<ri::Colour> bag;
  for (const ri::Colour c : ri::kAllColours) bag.insert(bag.end(), drawn_state.remaining(c), c);
  const int playouts = std::max(1, params.simulations);
  std::vector<std::vector<ri::Colour>> sequences(playouts, bag);
  std::vector<std::uint64_t> tie_seeds(playouts);
  for (int k = 0; k < playouts; ++k) {
    auto& sequence = sequences[k];
    for (std::size_t i = sequence.size(); i > 1; --i) {
      std::swap(sequence[i - 1], sequence[uniform_below(rng, i)]);
    }
    tie_seeds[k] = rng();
  }

  std::vector<ri::Placement> options;
  for (const ri::Placement& placement : legal) {
    const ri::State after = ri::apply(state, ri::Move::place(colour, placement.cell));
    double sum = 0;
    double sum_sq = 0;
    int completed = 0;
    for (int k = 0; k < playouts; ++k) {
      ri::State sim = after;
      std::uint64_t tie = tie_seeds[k];
      for (std::size_t i = 0; i < sequences[k].size() && !ri::is_over(sim); ++i) {
        const ri::Colour next = sequences[k][i];
        ri::legal_placements(sim, next, options);
        if (options.empty()) {
          ri::play(sim, ri::Move::block_claim(next));
        } else {
          ri::play(sim, ri::Move::place(next, choose_fast(options, tie)));
        }
      }
      const double final_score = score(sim);
      sum += final_score;
      sum_sq += final_score * final_score;
      if (sim.status == ri::Status::Completed) ++completed;
    }
    const double mean = sum / playouts;
    const double variance = playouts > 1 ? (sum_sq - playouts * mean * mean) / (playouts - 1) : 0;
    values.push_back({placement.cell, placement.marker, mean,
                      std::sqrt(std::max(0.0, variance) / playouts),
                      static_cast<double>(completed) / playouts});
  }
  std::stable_sort(values.begin(), values.end(),
                   [](const CellValue& a, const CellValue& b) { return a.expected > b.expected; });
  return values;
}

}  // namespace arbitre::scoring::irma
