#include "scoring/irma/score.h"

#include <algorithm>

namespace arbitre::scoring::irma {

int markers_total(const ri::State& state) {
  int total = 0;
  for (const ri::SeriesKind kind : state.pile) total += ri::marker_value(kind);
  return total;
}

int bonus(const ri::State& state) {
  return state.status == ri::Status::Completed ? ri::kCompletionBonus : 0;
}

bool has_plus(const ri::State& state) {
  return state.status == ri::Status::Completed;
}

int score(const ri::State& state) {
  return markers_total(state) + bonus(state);
}

std::optional<StockWarning> stock_warning(const ri::State& after, ri::SeriesKind kind) {
  const int earned = static_cast<int>(std::count(after.pile.begin(), after.pile.end(), kind));
  const int stock = after.options.marker_stock[static_cast<int>(kind)];
  if (earned < stock) return std::nullopt;
  const std::string value = std::to_string(ri::marker_value(kind));
  StockWarning warning{kind, earned, stock, {}};
  if (earned == stock) {
    warning.message =
        "last marker " + value + " taken from the box (" + std::to_string(stock) + " in all)";
  } else {
    warning.message = "no marker " + value + " left in the box: " + std::to_string(earned) +
                      " earned for " + std::to_string(stock) + " markers, keep count on paper";
  }
  return warning;
}

std::optional<std::size_t> winner(const std::vector<PlayerResult>& players) {
  if (players.empty()) return std::nullopt;
  const auto better = [](const PlayerResult& a, const PlayerResult& b) {
    return a.score != b.score ? a.score > b.score : (a.plus && !b.plus);
  };
  std::size_t best = 0;
  for (std::size_t i = 1; i < players.size(); ++i) {
    if (better(players[i], players[best])) best = i;
  }
  for (std::size_t i = 0; i < players.size(); ++i) {
    if (i != best && !better(players[best], players[i])) return std::nullopt;
  }
  return best;
}

}  // namespace arbitre::scoring::irma
