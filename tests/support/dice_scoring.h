// Scoring a dice observation against scenegen's ground truth (tools/scenegen/dice_scene.cpp),
// shared by the dice regression test and tests/bench/dice_eval.
#pragma once

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "vision/observation.h"

namespace arbitre::testing {

struct DiceScore {
  int flat = 0, flat_right = 0;        // flat dice (a value to read), read right (value and colour)
  int cocked = 0, cocked_flagged = 0;  // cocked dice, reported cocked or unreadable
  int wrong_value = 0, wrong_colour = 0, unread = 0, flat_called_cocked = 0;
  int missed = 0, doubled = 0, phantoms = 0;
  int texture_told = 0, texture_right = 0;  // dice found whose texture was reported, right
  bool roll_right() const {
    return flat_right == flat && cocked_flagged == cocked && phantoms == 0 && doubled == 0 &&
           missed == 0;
  }
  bool miss_or_double() const { return missed > 0 || doubled > 0 || phantoms > 0; }
  // For the confusion matrix: (true value 1..10, read) with read 1..10, 0 unread, -1 cocked,
  // -2 missed.
  std::vector<std::pair<int, int>> pairs;
  // For each true die, in the truth's order: right, wrong-value, wrong-colour, unread,
  // called-cocked, missed (flat dice); flagged, read (cocked dice).
  std::vector<std::string> outcome;
  // For each true die, the die seen matched to it (-1: missed); for each die seen, its true die
  // (-1: a phantom).
  std::vector<int> seen_of, truth_of;
};

// A die matches the nearest true die within 0.6 of its radius; a true die matched twice is
// doubled; an observed die matching none is a phantom.
inline DiceScore score_dice(const nlohmann::json& truth, const vision::DiceObservation& seen) {
  DiceScore s;
  const auto& dice = truth["dice"];
  std::vector<int> hits(dice.size(), 0);
  std::vector<int> by(dice.size(), -1);
  for (std::size_t k = 0; k < seen.dice.size(); ++k) {
    const auto& o = seen.dice[k];
    int best = -1;
    double best_d = 1e18;
    for (std::size_t i = 0; i < dice.size(); ++i) {
      const double d =
          std::hypot(dice[i]["x"].get<double>() - o.x, dice[i]["y"].get<double>() - o.y);
      if (d < 0.6 * dice[i]["radius_px"].get<double>() && d < best_d)
        best = static_cast<int>(i), best_d = d;
    }
    s.truth_of.push_back(best);
    if (best < 0) {
      ++s.phantoms;
      continue;
    }
    if (hits[static_cast<std::size_t>(best)]++ == 0)
      by[static_cast<std::size_t>(best)] = static_cast<int>(k);
  }
  s.seen_of = by;
  for (std::size_t i = 0; i < dice.size(); ++i) {
    const auto& t = dice[i];
    const bool cocked = t["cocked"].get<bool>();
    const int value = cocked ? 0 : t["value"].get<int>();
    if (hits[i] > 1) s.doubled += hits[i] - 1;
    if (cocked)
      ++s.cocked;
    else
      ++s.flat;
    if (by[i] < 0) {
      ++s.missed;
      s.outcome.emplace_back("missed");
      if (!cocked) s.pairs.emplace_back(value, -2);
      continue;
    }
    const auto& o = seen.dice[static_cast<std::size_t>(by[i])];
    if (o.texture) {
      const std::string texture = t["texture"];
      const auto truth_texture = texture == "frosted"       ? referee::yams::Texture::Frosted
                                 : texture == "transparent" ? referee::yams::Texture::Transparent
                                                            : referee::yams::Texture::None;
      ++s.texture_told;
      s.texture_right += *o.texture == truth_texture;
    }
    const bool red = t["colour"].get<std::string>() == "red";
    const bool colour_right = (o.colour == referee::yams::DieColour::Red) == red;
    if (cocked) {
      if (o.cocked || o.value == 0) ++s.cocked_flagged;
      s.outcome.emplace_back(o.cocked || o.value == 0 ? "flagged" : "read");
      continue;
    }
    s.pairs.emplace_back(value, o.cocked ? -1 : o.value);
    if (o.cocked)
      ++s.flat_called_cocked;
    else if (o.value == 0)
      ++s.unread;
    else if (o.value != value)
      ++s.wrong_value;
    if (!colour_right) ++s.wrong_colour;
    if (!o.cocked && o.value == value && colour_right) ++s.flat_right;
    s.outcome.emplace_back(o.cocked           ? "called-cocked"
                           : o.value == 0     ? "unread"
                           : o.value != value ? "wrong-value"
                           : !colour_right    ? "wrong-colour"
                                              : "right");
  }
  return s;
}

// Why a roll is not read exactly right: one cause for each kind of die that fails in it (its
// texture, colour and outcome: "clear white flat die unread", "leaning die read as a value"), and
// "a die invented" / "a die counted twice"; none for a roll read right. Sorted, each once.
inline std::vector<std::string> roll_failures(const nlohmann::json& truth, const DiceScore& s) {
  std::vector<std::string> causes;
  const auto& dice = truth["dice"];
  for (std::size_t i = 0; i < s.outcome.size() && i < dice.size(); ++i) {
    const std::string& o = s.outcome[i];
    if (o == "right" || o == "flagged") continue;
    const auto& t = dice[i];
    if (t["cocked"].get<bool>()) {
      causes.push_back(o == "read" ? "leaning die read as a value" : "leaning die missed");
      continue;
    }
    const std::string texture = t.value("texture", "none");
    const std::string kind = texture == "transparent" ? "clear"
                             : texture == "frosted"   ? "frosted"
                                                      : "opaque";
    const std::string what = o == "wrong-value"     ? "read as another value"
                             : o == "wrong-colour"  ? "read with the wrong colour"
                             : o == "called-cocked" ? "called cocked"
                                                    : o;  // unread, missed
    causes.push_back(kind + ' ' + t["colour"].get<std::string>() + " flat die " + what);
  }
  if (s.phantoms > 0) causes.emplace_back("a die invented");
  if (s.doubled > 0) causes.emplace_back("a die counted twice");
  std::sort(causes.begin(), causes.end());
  causes.erase(std::unique(causes.begin(), causes.end()), causes.end());
  return causes;
}

}  // namespace arbitre::testing
