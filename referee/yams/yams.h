// Le Yams impossible — the turn and game referee (RULINGS.md §2, rules 1, 4, 5).
//
// Ten d10 (5 red, 5 white). A turn is up to five rolls; before each reroll the player sets
// dice aside and rolls the rest. After the fifth roll he may declare one Yams, Suites or
// Combinaisons box and roll a sixth time: the box then scores its base value if the dice make
// it, minus that value otherwise, and no other box may be filled. Every turn ends by filling
// exactly one empty box, with a zero if nothing fits. Players take turns; the game ends when
// every sheet is full.
//
// Chance is an input: a roll move carries the dice observed after it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "referee/yams/boxes.h"
#include "referee/yams/dice.h"

namespace arbitre::referee::yams {

inline constexpr int kMaxRolls = 5;
inline constexpr int kSixthRoll = 6;

// Which dice may be rolled again (the seed text does not say).
enum class KeepRule : std::uint8_t {
  Free,    // default: before each roll the player chooses again which dice to set aside
  Locked,  // variant: a die set aside stays aside for the rest of the turn
};
std::string_view to_string(KeepRule rule);
std::optional<KeepRule> keep_rule_from_string(std::string_view text);

struct Options {
  bool textures = false;                 // dice are frosted or transparent (texture harmony)
  KeepRule keep_rule = KeepRule::Free;   // variant
  bool operator==(const Options&) const = default;
};

// One filled box: its points and, for a chiffres box, how many dice it counted (chiffre-1's
// count multiplies the différence).
struct Entry {
  int score = 0;
  int count = 0;
  bool operator==(const Entry&) const = default;
};

struct Sheet {
  std::array<std::optional<Entry>, kBoxCount> boxes{};
  bool filled(Box box) const { return boxes[index(box)].has_value(); }
  int filled_count() const;
  bool complete() const { return filled_count() == kBoxCount; }
  bool operator==(const Sheet&) const = default;
};

struct Turn {
  int rolls = 0;                  // rolls made so far, the sixth included
  Dice dice{};                    // on the table after the last roll
  std::uint16_t aside = 0;        // dice set aside before the last roll (bit i = die i)
  std::optional<Box> declared;    // the box a sixth roll is declared for
  bool operator==(const Turn&) const = default;
};

struct State {
  Options options;
  std::vector<Sheet> sheets;  // one per player, in turn order
  int player = 0;             // whose turn it is
  Turn turn;
  bool operator==(const State&) const = default;
};

State initial_state(const Options& options, int players = 1);
bool is_over(const State& state);

enum class MoveKind : std::uint8_t { Roll, Declare, Fill };

struct Move {
  MoveKind kind = MoveKind::Roll;
  std::uint16_t keep = 0;  // Roll: dice set aside, not rolled (bit i = die i)
  Dice dice{};             // Roll: all ten dice after the roll
  Box box = Box::Chiffre1; // Declare, Fill

  static Move roll(std::uint16_t keep, const Dice& dice) { return {MoveKind::Roll, keep, dice, Box::Chiffre1}; }
  static Move declare(Box box) { return {MoveKind::Declare, 0, {}, box}; }
  static Move fill(Box box) { return {MoveKind::Fill, 0, {}, box}; }
  bool operator==(const Move&) const = default;
};

enum class Reason : std::uint8_t {
  None,
  GameOver,
  TooManyRolls,        // a sixth roll without a declaration, or a seventh
  KeepOnFirstRoll,     // the first roll throws all ten dice
  KeptDieChanged,      // a die set aside shows another face after the roll
  DieSwapped,          // a die changed colour or texture: not the same physical die
  DieUnkept,           // KeepRule::Locked: a die set aside was rolled again
  BadDice,             // not 5 red and 5 white, or textures not matching the options
  NoRollYet,           // filling or declaring before the first roll
  DeclareAfterFifth,   // a sixth roll is declared after the fifth roll only
  NotDeclarable,       // chiffres and différence boxes cannot be declared
  AlreadyDeclared,
  BoxFilled,
  DeclaredBoxOnly,     // after a declaration, only that box may be filled
  SixthRollPending,    // declared but not rolled yet
};
std::string_view to_string(Reason reason);

struct Verdict {
  Reason reason = Reason::None;
  std::vector<int> dice;        // refused: the dice involved (indices)
  int score = 0;                // Fill: the points written in the box
  int count = 0;                // Fill: the dice the box counted (chiffres)
  bool first_roll = false;      // Fill: scored on the turn's first roll (x3)
  std::optional<bool> sixth_success;  // Fill after a sixth roll: did the dice make the box
  bool legal() const { return reason == Reason::None; }
};

Verdict check(const State& state, const Move& move);
// Plays a move check() accepts (asserted): a Fill writes the box and passes the turn on.
void play(State& state, const Move& move);
State apply(State state, const Move& move);

// Decisions open to the player now (rolls are chance events and not listed): every box he may
// fill and every box he may declare a sixth roll for.
std::vector<Move> legal_moves(const State& state);
// May the player roll now (with the turn's rules)?
bool can_roll(const State& state);

}  // namespace arbitre::referee::yams
