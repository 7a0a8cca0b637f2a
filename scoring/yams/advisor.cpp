#include "scoring/yams/advisor.h"

#include <algorithm>
#include <cmath>

namespace arbitre::scoring::yams {
namespace {

constexpr std::uint16_t kAllDice = (1u << ry::kDiceCount) - 1;

bool triples_on_first_roll(ry::Box box) {
  const ry::Section s = ry::section(box);
  return s == ry::Section::Yams || s == ry::Section::Suites || s == ry::Section::Combinaisons;
}

std::uint16_t mask_of(const std::vector<int>& dice) {
  std::uint16_t mask = 0;
  for (const int i : dice) mask |= static_cast<std::uint16_t>(1u << i);
  return mask;
}

std::array<int, ry::kFaces + 1> counts(const ry::Dice& dice) {
  std::array<int, ry::kFaces + 1> count{};
  for (const ry::Die& die : dice) ++count[die.value];
  return count;
}

// The entry a box would get from these dice (score and, for chiffres, the dice counted).
ry::Entry entry_for(const ry::Dice& dice, ry::Box box, int score) {
  ry::Entry entry{score, 0};
  if (box == ry::Box::Chiffre1) entry.count = ry::chiffre_count(dice, box);
  return entry;
}

// The empty box whose filling raises the sheet's value most, and that value.
std::pair<ry::Box, double> best_fill(const ry::Sheet& sheet, const SheetModel& model,
                                     const ry::Dice& dice, bool first_roll) {
  const ry::BoxScores scores = ry::score_all(dice, first_roll);
  ry::Box best = ry::Box::Chiffre1;
  double best_value = -1e18;
  for (int b = 0; b < ry::kBoxCount; ++b) {
    const ry::Box box = ry::box_at(b);
    if (sheet.filled(box)) continue;
    const double value = model.value_after(box, entry_for(dice, box, scores[b]));
    if (value > best_value) {
      best_value = value;
      best = box;
    }
  }
  return {best, best_value};
}

// Faces for the sampled rerolls: the same faces for every candidate (common random numbers).
using RollFaces = std::array<std::uint8_t, ry::kDiceCount>;
using TurnFaces = std::array<RollFaces, ry::kSixthRoll>;
using Faces = std::vector<TurnFaces>;

// Outcomes of rolling the dice not in `keep`: 10 to the number of dice rolled.
std::uint64_t outcome_count(std::uint16_t keep) {
  std::uint64_t count = 1;
  for (int i = 0; i < ry::kDiceCount; ++i) {
    if (!((keep >> i) & 1u)) count *= ry::kFaces;
  }
  return count;
}

// Visits every equally likely outcome of rolling the dice not in `keep`.
template <typename Visit>
void for_each_outcome(std::uint16_t keep, Visit&& visit) {
  RollFaces roll;
  roll.fill(1);
  std::vector<int> rolled;
  for (int i = 0; i < ry::kDiceCount; ++i) {
    if (!((keep >> i) & 1u)) rolled.push_back(i);
  }
  while (true) {
    visit(roll);
    std::size_t k = 0;
    while (k < rolled.size() && roll[rolled[k]] == ry::kFaces) roll[rolled[k++]] = 1;
    if (k == rolled.size()) return;
    ++roll[rolled[k]];
  }
}

Faces draw_faces(int samples, Rng& rng) {
  Faces faces(static_cast<std::size_t>(samples));
  for (auto& sample : faces) {
    for (auto& roll : sample) {
      for (auto& face : roll) face = static_cast<std::uint8_t>(1 + uniform_below(rng, ry::kFaces));
    }
  }
  return faces;
}

void reroll_with(ry::Dice& dice, std::uint16_t keep, const RollFaces& faces) {
  for (int i = 0; i < ry::kDiceCount; ++i) {
    if (!((keep >> i) & 1u)) dice[i].value = faces[i];
  }
}

// The rest of a turn after setting `keep` aside with `rolls_made` rolls made: roll, then chase
// the box that would raise the sheet most, until the fifth roll (or a first roll whose best
// box earns the x3); the value of the sheet after the best fill.
double continue_turn(const ry::Sheet& sheet, const SheetModel& model, ry::Dice dice,
                     std::uint16_t keep, int rolls_made, const TurnFaces& faces) {
  int step = 0;
  reroll_with(dice, keep, faces[step++]);
  int rolls = rolls_made + 1;
  while (true) {
    const auto [box, value] = best_fill(sheet, model, dice, rolls == 1);
    if (rolls >= ry::kMaxRolls || (rolls == 1 && triples_on_first_roll(box) &&
                                   ry::score_box(dice, box, true) > 0)) {
      return value;
    }
    reroll_with(dice, chase_keep(dice, box), faces[step++]);
    ++rolls;
  }
}

struct Stats {
  double mean = 0;
  double std_error = 0;
};

Stats stats(const std::vector<double>& xs) {
  Stats s;
  if (xs.empty()) return s;
  double sum = 0;
  for (const double x : xs) sum += x;
  s.mean = sum / static_cast<double>(xs.size());
  if (xs.size() > 1) {
    double sq = 0;
    for (const double x : xs) sq += (x - s.mean) * (x - s.mean);
    s.std_error = std::sqrt(sq / static_cast<double>(xs.size() - 1) / static_cast<double>(xs.size()));
  }
  return s;
}

}  // namespace

// --- chasing a box -------------------------------------------------------------------------

std::uint16_t chase_keep(const ry::Dice& dice, ry::Box box) {
  const ry::Section section = ry::section(box);
  if (section != ry::Section::Chiffres && section != ry::Section::Difference) {
    const ry::Choice made = ry::best_choice(dice, box, false);
    if (made.score > 0) return mask_of(made.dice);
  }
  const auto count = counts(dice);
  std::uint16_t keep = 0;
  const auto keep_value = [&](int value, int how_many) {
    for (int i = 0; i < ry::kDiceCount && how_many > 0; ++i) {
      if (dice[i].value == value && !((keep >> i) & 1u)) {
        keep |= static_cast<std::uint16_t>(1u << i);
        --how_many;
      }
    }
  };
  switch (section) {
    case ry::Section::Chiffres:
      keep_value(ry::face(box), ry::kDiceCount);
      break;
    case ry::Section::Yams: {
      int best = ry::kFaces;
      for (int v = ry::kFaces; v >= 1; --v) {
        if (count[v] > count[best]) best = v;
      }
      keep_value(best, ry::kDiceCount);
      break;
    }
    case ry::Section::Suites: {
      const int length = ry::size(box);
      int best_first = 1;
      int best_present = -1;
      for (int first = 1; first + length - 1 <= ry::kFaces; ++first) {
        int present = 0;
        for (int v = first; v < first + length; ++v) present += count[v] > 0;
        if (present >= best_present) {
          best_present = present;
          best_first = first;
        }
      }
      for (int v = best_first; v < best_first + length; ++v) keep_value(v, 1);
      break;
    }
    case ry::Section::Combinaisons: {
      auto left = count;
      for (const int group : ry::group_sizes(box)) {
        int best = ry::kFaces;
        for (int v = ry::kFaces; v >= 1; --v) {
          if (left[v] > left[best]) best = v;
        }
        const int take = std::min(left[best], group);
        if (take < 2) break;  // a single die is no start for a group
        keep_value(best, take);
        left[best] -= take;
      }
      break;
    }
    case ry::Section::Difference:
      for (int i = 0; i < ry::kDiceCount; ++i) {
        const bool high = dice[i].value > ry::kFaces / 2;
        if (high == (box == ry::Box::Plus)) keep |= static_cast<std::uint16_t>(1u << i);
      }
      break;
  }
  return keep;
}

void reroll(ry::Dice& dice, std::uint16_t keep, Rng& rng) {
  for (int i = 0; i < ry::kDiceCount; ++i) {
    if (!((keep >> i) & 1u)) dice[i].value = static_cast<std::uint8_t>(1 + uniform_below(rng, ry::kFaces));
  }
}

ry::Dice fresh_dice() {
  ry::Dice dice{};
  for (int i = 0; i < ry::kDiceCount; ++i) {
    dice[i].colour = i < ry::kDicePerColour ? ry::DieColour::Red : ry::DieColour::White;
  }
  return dice;
}

BoxValues estimate_box_values(Rng& rng, int turns_per_box) {
  BoxValues values;
  const ry::Dice start = fresh_dice();
  double ones_total = 0;
  for (int b = 0; b < ry::kBoxCount; ++b) {
    const ry::Box box = ry::box_at(b);
    double sum = 0;
    double sum_sq = 0;
    for (int t = 0; t < turns_per_box; ++t) {
      ry::Dice dice = start;
      reroll(dice, 0, rng);
      int rolls = 1;
      while (rolls < ry::kMaxRolls && !(triples_on_first_roll(box) && ry::qualifies(dice, box))) {
        reroll(dice, chase_keep(dice, box), rng);
        ++rolls;
      }
      const ry::Choice choice = ry::best_choice(dice, box, rolls == 1);
      sum += choice.score;
      sum_sq += static_cast<double>(choice.score) * choice.score;
      if (box == ry::Box::Chiffre1) ones_total += static_cast<double>(choice.dice.size());
    }
    const double n = turns_per_box;
    values.mean[b] = sum / n;
    values.variance[b] = std::max(0.0, sum_sq / n - values.mean[b] * values.mean[b]);
  }
  values.ones_count = ones_total / turns_per_box;
  return values;
}

// --- the value of a sheet -----------------------------------------------------------------

SheetModel::SheetModel(const ry::Sheet& sheet, const BoxValues& values) : values_(&values) {
  plus_ = values.mean[ry::index(ry::Box::Plus)];
  moins_ = values.mean[ry::index(ry::Box::Moins)];
  ones_ = values.ones_count;
  for (int b = 0; b < ry::kBoxCount; ++b) {
    const ry::Box box = ry::box_at(b);
    const auto& entry = sheet.boxes[b];
    filled_[b] = entry.has_value();
    switch (ry::section(box)) {
      case ry::Section::Chiffres:
        if (entry) {
          chiffres_known_ += entry->score;
          if (box == ry::Box::Chiffre1) ones_ = entry->count;
        } else {
          chiffres_mean_ += values.mean[b];
          chiffres_var_ += values.variance[b];
        }
        break;
      case ry::Section::Difference:
        if (entry) (box == ry::Box::Plus ? plus_ : moins_) = entry->score;
        break;
      default:
        others_ += entry ? entry->score : values.mean[b];
    }
  }
}

double SheetModel::value_with(std::optional<ry::Box> box, const ry::Entry& entry) const {
  double known = chiffres_known_, mean = chiffres_mean_, var = chiffres_var_;
  double others = others_, plus = plus_, moins = moins_, ones = ones_;
  if (box) {
    const int b = ry::index(*box);
    switch (ry::section(*box)) {
      case ry::Section::Chiffres:
        known += entry.score;
        mean -= values_->mean[b];
        var -= values_->variance[b];
        if (*box == ry::Box::Chiffre1) ones = entry.count;
        break;
      case ry::Section::Difference:
        (*box == ry::Box::Plus ? plus : moins) = entry.score;
        break;
      default:
        others += entry.score - values_->mean[b];
    }
  }
  const double chiffres = known + mean;
  double p_bonus;
  if (var <= 1e-9) {
    p_bonus = chiffres >= kChiffresThreshold ? 1.0 : 0.0;
  } else {
    p_bonus = 0.5 * std::erfc((kChiffresThreshold - 0.5 - chiffres) / std::sqrt(2.0 * var));
  }
  return chiffres + kChiffresBonus * p_bonus + others + (plus - moins) * ones;
}

// --- decisions -----------------------------------------------------------------------------

Advice advise(const ry::State& state, const AdvisorParams& params, Rng& rng, const BoxValues& values) {
  Advice advice;
  if (ry::is_over(state)) return advice;
  const ry::Turn& turn = state.turn;
  const ry::Sheet& sheet = state.sheets[state.player];
  const SheetModel model(sheet, values);
  const int samples = std::max(1, params.samples);
  const Faces faces = draw_faces(samples, rng);

  // Rolls whose outcome ends the turn (the fifth, or a sixth) are enumerated exactly when the
  // rerolled dice have few enough outcomes; the others are sampled.
  const auto exact = [&](std::uint16_t keep) {
    return outcome_count(keep) <= static_cast<std::uint64_t>(std::max(0, params.exact_outcomes));
  };
  const auto sampled_roll = [&](std::uint16_t keep) {
    std::vector<double> outcomes;
    if (turn.rolls == ry::kMaxRolls - 1 && exact(keep)) {
      for_each_outcome(keep, [&](const RollFaces& roll) {
        outcomes.push_back(continue_turn(sheet, model, turn.dice, keep, turn.rolls, {roll}));
      });
      return Option{Action::Roll, keep, ry::Box::Chiffre1, stats(outcomes).mean, 0, 0};
    }
    for (const auto& sample : faces) {
      outcomes.push_back(continue_turn(sheet, model, turn.dice, keep, turn.rolls, sample));
    }
    const Stats s = stats(outcomes);
    return Option{Action::Roll, keep, ry::Box::Chiffre1, s.mean, s.std_error, 0};
  };
  const auto sixth_roll = [&](ry::Box box) {
    const std::uint16_t keep = chase_keep(turn.dice, box);
    const int base = ry::base_value(box);
    const double made = model.value_after(box, {base, 0});
    const double missed = model.value_after(box, {-base, 0});
    std::vector<double> outcomes;
    const auto outcome = [&](const RollFaces& roll) {
      ry::Dice dice = turn.dice;
      reroll_with(dice, keep, roll);
      outcomes.push_back(ry::qualifies(dice, box) ? made : missed);
    };
    if (exact(keep)) {
      for_each_outcome(keep, outcome);
      return Option{Action::Declare, keep, box, stats(outcomes).mean, 0, 0};
    }
    for (const auto& sample : faces) outcome(sample[0]);
    const Stats s = stats(outcomes);
    return Option{Action::Declare, keep, box, s.mean, s.std_error, 0};
  };

  if (turn.rolls == 0) {
    advice.options.push_back(sampled_roll(0));
  } else if (turn.declared) {
    if (turn.rolls < ry::kSixthRoll) {
      Option option = sixth_roll(*turn.declared);
      option.action = Action::Roll;
      advice.options.push_back(option);
    } else {
      const int points = ry::check(state, ry::Move::fill(*turn.declared)).score;
      advice.options.push_back({Action::Fill, 0, *turn.declared,
                                model.value_after(*turn.declared, {points, 0}), 0, points});
    }
  } else {
    const ry::BoxScores scores = ry::score_all(turn.dice, turn.rolls == 1);
    std::vector<std::uint16_t> keeps = {0};
    for (int b = 0; b < ry::kBoxCount; ++b) {
      const ry::Box box = ry::box_at(b);
      if (sheet.filled(box)) continue;
      advice.options.push_back({Action::Fill, 0, box,
                                model.value_after(box, entry_for(turn.dice, box, scores[b])), 0,
                                scores[b]});
      if (turn.rolls < ry::kMaxRolls) {
        const std::uint16_t keep = chase_keep(turn.dice, box);
        if (keep != kAllDice && std::find(keeps.begin(), keeps.end(), keep) == keeps.end()) {
          keeps.push_back(keep);
        }
      } else if (ry::declarable(box)) {
        advice.options.push_back(sixth_roll(box));
      }
    }
    if (turn.rolls < ry::kMaxRolls) {
      for (const std::uint16_t keep : keeps) advice.options.push_back(sampled_roll(keep));
    }
  }
  std::stable_sort(advice.options.begin(), advice.options.end(),
                   [](const Option& a, const Option& b) { return a.expected > b.expected; });
  advice.best = advice.options.front();
  return advice;
}

Option greedy(const ry::State& state) {
  const ry::Turn& turn = state.turn;
  if (turn.rolls == 0) return {Action::Roll, 0, ry::Box::Chiffre1, 0, 0, 0};
  const ry::Sheet& sheet = state.sheets[state.player];
  const ry::BoxScores scores = ry::score_all(turn.dice, turn.rolls == 1);
  int best = -1;
  for (int b = 0; b < ry::kBoxCount; ++b) {
    if (!sheet.filled(ry::box_at(b)) && (best < 0 || scores[b] > scores[best])) best = b;
  }
  const ry::Box box = ry::box_at(best);
  const std::uint16_t keep = chase_keep(turn.dice, box);
  if (turn.rolls >= ry::kMaxRolls || keep == kAllDice) {
    return {Action::Fill, 0, box, 0, 0, scores[best]};
  }
  return {Action::Roll, keep, box, 0, 0, 0};
}

}  // namespace arbitre::scoring::yams
