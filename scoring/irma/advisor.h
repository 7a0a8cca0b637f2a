// Le jeu d'Irma — players and the advisor. Every player decides with the referee's own
// legal_placements(); nothing here restates a rule.
#pragma once

#include <cstdint>
#include <vector>

#include "referee/irma/irma.h"
#include "scoring/common/random.h"

namespace arbitre::scoring::irma {

namespace ri = referee::irma;

using scoring::Rng;
using scoring::uniform_below;

// Draws a pion at random among those left in the bag (the bag must not be empty).
ri::Colour draw(const ri::State& state, Rng& rng);

// (a) Any legal cell, uniformly.
ri::Cell choose_random(const std::vector<ri::Placement>& legal, Rng& rng);

// (b) Greedy: the highest immediate marker; ties go to the cell after which the fewest pions
// left in the bag would have no legal cell (counted over the colours still in the bag,
// weighted by how many of each remain), then to the first such cell.
ri::Cell choose_greedy(const ri::State& state, ri::Colour colour,
                       const std::vector<ri::Placement>& legal);

struct AdvisorParams {
  int simulations = 128;  // playouts per legal cell; the same draw sequences for every cell
};

struct CellValue {
  ri::Cell cell;
  std::optional<ri::SeriesKind> marker;  // earned at once
  double expected = 0;                   // expected final score (markers + bonus)
  double std_error = 0;                  // standard error of that estimate
  double completion = 0;                 // share of playouts that completed the rectangle
};

// (c) The advisor: every legal cell for the drawn pion, best first, valued by the mean final
// score of playouts that draw the rest of the bag at random (common draw sequences across
// cells) and place each pion by a fast greedy policy. Empty when the pion is blocked.
std::vector<CellValue> advise(const ri::State& state, ri::Colour colour,
                              const AdvisorParams& params, Rng& rng);

// One solo game from `state` to its end: draws from the bag with `rng`, each pion placed by
// `choose(state, colour, legal, rng) -> Cell`, a blocking claim when no cell is legal;
// `observe(move)` sees every move played.
template <typename Choose, typename Observe>
void play_out(ri::State& state, Rng& rng, Choose&& choose, Observe&& observe) {
  std::vector<ri::Placement> legal;
  while (!ri::is_over(state) && state.bag_size() > 0) {
    const ri::Colour colour = draw(state, rng);
    ri::legal_placements(state, colour, legal);
    const ri::Move move = legal.empty() ? ri::Move::block_claim(colour)
                                        : ri::Move::place(colour, choose(state, colour, legal, rng));
    ri::play(state, move);
    observe(move);
  }
}

template <typename Choose>
void play_out(ri::State& state, Rng& rng, Choose&& choose) {
  play_out(state, rng, choose, [](const ri::Move&) {});
}

}  // namespace arbitre::scoring::irma
