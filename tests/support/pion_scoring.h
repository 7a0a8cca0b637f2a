// Scores a pion observation against a scene's ground truth (tools/scenegen's JSON): the true
// pions are matched to the reported ones by position (within 0.4 pitch); a matched pion is
// read right when its colour is right and its cell is right up to the board's translation.
#pragma once

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "vision/observation.h"

namespace arbitre::testing {

struct SceneScore {
  int truth = 0;
  int right = 0;
  int missed = 0;
  int phantoms = 0;
  int wrong_colour = 0;
  int wrong_cell = 0;
  // confusion[true colour][read colour, or 4 = missed]
  std::array<std::array<int, 5>, 4> confusion{};
  bool board_right() const { return right == truth && phantoms == 0; }
};

inline SceneScore score_scene(const nlohmann::json& truth, const vision::PionObservation& seen) {
  namespace ri = referee::irma;
  SceneScore score;
  const double radius = 0.4 * truth["scene"]["pitch_px"].get<double>();
  const auto& pions = seen.pions;
  const auto& real = truth["pions"];
  std::vector<int> match(real.size(), -1);
  std::vector<bool> used(pions.size(), false);
  for (std::size_t t = 0; t < real.size(); ++t) {
    double best = radius;
    for (std::size_t k = 0; k < pions.size(); ++k) {
      const double d = std::hypot(pions[k].x - real[t]["x"].get<double>(), pions[k].y - real[t]["y"].get<double>());
      if (!used[k] && d < best) {
        best = d;
        match[t] = static_cast<int>(k);
      }
    }
    if (match[t] >= 0) used[static_cast<std::size_t>(match[t])] = true;
  }
  // The board's translation: the commonest offset between read and true cells.
  std::map<std::pair<int, int>, int> offsets;
  for (std::size_t t = 0; t < real.size(); ++t) {
    if (match[t] < 0) continue;
    ++offsets[{pions[match[t]].row - real[t]["row"].get<int>(), pions[match[t]].col - real[t]["col"].get<int>()}];
  }
  std::pair<int, int> offset{0, 0};
  int votes = 0;
  for (const auto& [o, n] : offsets) {
    if (n > votes) {
      votes = n;
      offset = o;
    }
  }
  for (std::size_t t = 0; t < real.size(); ++t) {
    const int colour = static_cast<int>(*ri::colour_from_string(real[t]["colour"].get<std::string>()));
    ++score.truth;
    if (match[t] < 0) {
      ++score.missed;
      ++score.confusion[colour][4];
      continue;
    }
    const auto& p = pions[match[t]];
    ++score.confusion[colour][static_cast<int>(p.colour)];
    const bool cell_ok = p.row - real[t]["row"].get<int>() == offset.first && p.col - real[t]["col"].get<int>() == offset.second;
    const bool colour_ok = static_cast<int>(p.colour) == colour;
    if (cell_ok && colour_ok) ++score.right;
    if (!colour_ok) ++score.wrong_colour;
    if (!cell_ok) ++score.wrong_cell;
  }
  for (const bool u : used) score.phantoms += !u;
  return score;
}

}  // namespace arbitre::testing
