// Le Yams impossible as a live session plays it: rolls read from the table, declarations and
// box choices given as commands, corrections of a die and undos, each planned against the
// current game, stored, then committed. Pure game logic over the referee: no vision, no store.
//
// Undo and redo: a roll, a declaration, a box filled and a correction can be undone; an undo puts
// the action on the redo stack, and a redo plans it again on the game as the undo left it and
// carries it out. Any new action that can be undone clears the redo stack; a move the referee
// refuses (the game unchanged) does not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/session/events.h"
#include "app/session/redo.h"
#include "data/store/store.h"
#include "referee/yams/yams.h"

namespace arbitre::app::session {

class YamsGame {
 public:
  struct Action {
    enum class Kind { Roll, Declare, Fill, FixDie, Undo, Redo };
    Kind kind = Kind::Roll;
    std::uint16_t keep = 0;  // Roll: dice set aside (bit i = die i)
    ry::Dice dice{};         // Roll: the ten dice as refereed
    ry::Dice seen{};         // Roll: as the camera read them (differs after a correction)
    bool manual = false;     // Roll: announced with the `roll` command
    ry::Box box = ry::Box::Chiffre1;  // Declare, Fill
    bool automatic = false;           // Fill: chosen by the advisor
    int die = 0;                      // FixDie: which die (0-9)
    ry::Die value{};                  // FixDie: what it really shows

    static Action roll(std::uint16_t keep, const ry::Dice& dice, const ry::Dice& seen, bool manual) {
      Action a;
      a.kind = Kind::Roll;
      a.keep = keep;
      a.dice = dice;
      a.seen = seen;
      a.manual = manual;
      return a;
    }
    static Action declare(ry::Box box) {
      Action a;
      a.kind = Kind::Declare;
      a.box = box;
      return a;
    }
    static Action fill(ry::Box box, bool automatic) {
      Action a;
      a.kind = Kind::Fill;
      a.box = box;
      a.automatic = automatic;
      return a;
    }
    static Action fix_die(int die, ry::Die value) {
      Action a;
      a.kind = Kind::FixDie;
      a.die = die;
      a.value = value;
      return a;
    }
    static Action undo() {
      Action a;
      a.kind = Kind::Undo;
      return a;
    }
    static Action redo() {
      Action a;
      a.kind = Kind::Redo;
      return a;
    }
  };

  struct Plan {
    data::store::EventKind kind = data::store::EventKind::Roll;
    nlohmann::json payload;
    std::string reason;  // Refusal: the reason code

    Action action;
    ry::Verdict verdict;
    std::optional<ry::State> fixed_state;  // FixDie: the turn replayed with the die corrected
    std::vector<std::pair<std::size_t, ry::Move>> fixed_moves;  // the rolls corrected (index, move)
    // Redo: the kind of the event redone (`action` and the fields above are its plan, made
    // again); `kind` is then Redo.
    std::optional<data::store::EventKind> redone;
  };

  YamsGame(const ry::Options& options, std::vector<std::string> players);

  // The plan of an action on the current game, or why it cannot be carried out (nothing is
  // stored then). A move the referee refuses is a plan (a Refusal event).
  std::variant<Plan, std::string> plan(const Action& action) const;
  // Carries out a plan made by plan() on the current game; returns what happened (with
  // `describe` false, as a replay wants, the advisor's suggestion after a roll is not worked out).
  std::vector<Event> commit(Plan plan, std::int64_t seq, bool describe = true);

  // The action a stored event records. Throws data::InputError for a payload that is not one.
  static Action action_from_event(data::store::EventKind kind, const nlohmann::json& payload);

  const ry::State& state() const { return state_; }
  const std::vector<std::string>& players() const { return players_; }
  const std::string& to_move() const { return players_[static_cast<std::size_t>(state_.player)]; }
  // The accepted moves, in order: the game's record.
  const std::vector<ry::Move>& moves() const { return moves_; }
  // The dice as the camera read them at the last roll (die i at index i).
  const ry::Dice& seen() const { return seen_; }
  bool over() const { return ry::is_over(state_); }
  // The box the advisor would fill now (the fill that raises the sheet's expected final total
  // most, the same valuation as scoring::yams::advise) and its points; nullopt when no box may
  // be filled now.
  std::optional<std::pair<ry::Box, int>> best_fill() const;
  std::vector<FinalScore> scores() const;
  std::optional<std::string> winner() const;
  bool can_undo() const { return !undo_.empty(); }
  bool can_redo() const { return !redo_.empty(); }

 private:
  // What a move changes, to undo it: the turn, whose turn it is, and a box filled (on the
  // sheet of `player`); copying whole states would cost a sheet per player per event.
  struct Snapshot {
    ry::Turn turn;
    int player = 0;
    std::optional<ry::Box> filled;
    std::size_t moves = 0;
    std::size_t turn_begin = 0;
    ry::Dice seen{};
    std::vector<std::pair<std::size_t, ry::Move>> replaced;  // the corrected rolls, as they were
    std::string what;
    Action action;  // what was done, for a redo
    data::store::EventKind kind = data::store::EventKind::Roll;  // and the event it stored
  };
  std::variant<Plan, std::string> plan_fix(const Action& action) const;
  std::variant<Plan, std::string> plan_redo() const;
  // Keeps what an action changes, to undo it; a new action (not a redo) clears the redo stack.
  void push_undo(std::string what, const Plan& plan);

  ry::Options options_;
  std::vector<std::string> players_;
  ry::State state_;
  std::vector<ry::Move> moves_;
  std::size_t turn_begin_ = 0;   // index in moves_ of the current turn's first move
  ry::Dice seen_{};
  std::vector<Snapshot> undo_;
  std::vector<RedoEntry<Action>> redo_;
  bool redoing_ = false;  // commit() is carrying out a redo
};

// A sheet as the store keeps it in the scores table: every box (null when empty) and the totals.
nlohmann::json yams_sheet_json(const ry::Sheet& sheet);

// The dice set aside, as a list of indices.
nlohmann::json dice_indices(std::uint16_t mask);

}  // namespace arbitre::app::session
