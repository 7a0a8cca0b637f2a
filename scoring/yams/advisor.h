// Le Yams impossible — what a box is worth to the rest of the game, the greedy player and the
// keep-advisor. Every score comes from the referee's own score_all / best_choice.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "referee/yams/yams.h"
#include "scoring/common/random.h"
#include "scoring/yams/sheet.h"

namespace arbitre::scoring::yams {

// What each box is worth when a whole turn is spent on it: the mean (and variance) of its
// score over simulated turns that chase it (chase_keep on every roll, stopping on the first
// roll when that box is made there, for its x3). `ones_count` is the mean number of dice
// chiffre-1 counts when chased (the différence multiplier).
struct BoxValues {
  std::array<double, ry::kBoxCount> mean{};
  std::array<double, ry::kBoxCount> variance{};
  double ones_count = 0;
};

// The table the advisor uses: estimate_box_values with the seed and turn count recorded in
// box_values.cpp (a test checks the committed numbers against a fresh estimate).
const BoxValues& default_box_values();
BoxValues estimate_box_values(Rng& rng, int turns_per_box);

// The dice to set aside when pursuing a box: the dice that make it when they already do, else
// the most promising start (all dice of the face; the most frequent value; one die per value
// of the fullest window; the most frequent values for each group; high dice for plus, low
// dice for moins). Bit i = die i.
std::uint16_t chase_keep(const ry::Dice& dice, ry::Box box);

// Rerolls every die not in `keep`.
void reroll(ry::Dice& dice, std::uint16_t keep, Rng& rng);

// The expected grand total of a sheet: the filled boxes, plus each empty box's worth, plus the
// chance of the chiffres bonus (normal approximation from the boxes' variances) and the
// différence from Plus, Moins and chiffre-1 (filled values, or their worth).
class SheetModel {
 public:
  SheetModel(const ry::Sheet& sheet, const BoxValues& values);
  double value() const { return value_with(std::nullopt, {}); }
  // The value after writing `entry` in the empty `box`.
  double value_after(ry::Box box, const ry::Entry& entry) const { return value_with(box, entry); }

 private:
  double value_with(std::optional<ry::Box> box, const ry::Entry& entry) const;
  const BoxValues* values_;
  std::array<bool, ry::kBoxCount> filled_{};
  double chiffres_known_ = 0, chiffres_mean_ = 0, chiffres_var_ = 0;
  double others_ = 0;  // Yams, Suites, Combinaisons: filled scores plus empty boxes' worth
  double plus_ = 0, moins_ = 0, ones_ = 0;
};

enum class Action : std::uint8_t { Roll, Fill, Declare };

struct Option {
  Action action = Action::Roll;
  std::uint16_t keep = 0;         // Roll, Declare: the dice to set aside
  ry::Box box = ry::Box::Chiffre1;  // Fill, Declare
  double expected = 0;            // expected grand total of the sheet at the end of the game
  double std_error = 0;           // sampling error of `expected` (0 when exact)
  int points = 0;                 // Fill: the points written now
};

struct AdvisorParams {
  int samples = 128;          // sampled rerolls per candidate keep (the same rerolls for every keep)
  int exact_outcomes = 1000;  // a turn-ending roll with at most this many outcomes is enumerated
};

struct Advice {
  Option best;
  std::vector<Option> options;  // every option weighed, best first
};

// The advice for the player to move: which dice to keep for the next roll, or which box to
// fill (or to declare for a sixth roll after the fifth). Fill options are exact. A roll that
// ends the turn (the fifth, or a declared sixth) is enumerated exactly when its rerolled dice
// have at most `exact_outcomes` outcomes (three dice or fewer by default); other rolls are
// sampled, continuing the turn by filling (on the last roll) or chasing (before it) the box
// that raises the sheet's value most.
Advice advise(const ry::State& state, const AdvisorParams& params, Rng& rng,
              const BoxValues& values = default_box_values());

// The greedy player: after each roll, the empty box that scores most now; it keeps that
// box's dice and rolls again while rolls remain (stopping early only when the box uses all
// ten dice), then fills it.
Option greedy(const ry::State& state);

// Ten dice as they come out of the box: 5 red (dice 0-4), 5 white, no texture, all showing 1.
ry::Dice fresh_dice();

// Plays the game to its end: each decision from `decide(state) -> Option`, every roll drawn
// from `dice_rng`; `observe(move)` sees every move played.
template <typename Decide, typename Observe>
void play_out(ry::State& state, Rng& dice_rng, Decide&& decide, Observe&& observe) {
  while (!ry::is_over(state)) {
    const Option option = decide(state);
    ry::Move move;
    switch (option.action) {
      case Action::Roll: {
        ry::Dice dice = state.turn.rolls == 0 ? fresh_dice() : state.turn.dice;
        reroll(dice, option.keep, dice_rng);
        move = ry::Move::roll(option.keep, dice);
        break;
      }
      case Action::Declare:
        move = ry::Move::declare(option.box);
        break;
      case Action::Fill:
        move = ry::Move::fill(option.box);
        break;
    }
    ry::play(state, move);
    observe(move);
  }
}

template <typename Decide>
void play_out(ry::State& state, Rng& dice_rng, Decide&& decide) {
  play_out(state, dice_rng, decide, [](const ry::Move&) {});
}

}  // namespace arbitre::scoring::yams
