// Le jeu d'Irma — points: the marker pile, the completion bonus, the marker stock and the
// two-player comparison (RULINGS.md §1, rules 6, 9-11, 13).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "referee/irma/irma.h"

namespace arbitre::scoring::irma {

namespace ri = referee::irma;

// Sum of the markers on the pile.
int markers_total(const ri::State& state);
// +5 when the 35th pion completed the rectangle, else 0.
int bonus(const ri::State& state);
// The "plus" mark of a completed game (the two-player tie-breaker).
bool has_plus(const ri::State& state);
// Markers plus bonus.
int score(const ri::State& state);

// The physical marker stock does not limit scoring (rule 10); the referee says when the box
// runs short so the players can keep count on paper.
struct StockWarning {
  ri::SeriesKind kind;
  int earned = 0;  // markers of that kind on the pile, the new one included
  int stock = 0;   // markers of that kind in the box
  std::string message;
};
// Call after a placement that earned `kind`: a warning when it took the last marker of that
// value or when the box had none left.
std::optional<StockWarning> stock_warning(const ri::State& after, ri::SeriesKind kind);

struct PlayerResult {
  std::string name;
  int score = 0;
  bool plus = false;
};
// Index of the winner of a game played on one draw sequence: the highest score, the "plus"
// breaking ties. nullopt for a tie nobody breaks.
std::optional<std::size_t> winner(const std::vector<PlayerResult>& players);

}  // namespace arbitre::scoring::irma
