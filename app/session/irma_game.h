// Le jeu d'Irma as a live session plays it: a sequence of actions (a pion placed, a blocking
// claim, a correction, an undo, a redo), each planned against the current game, stored, then
// committed.
//
// Undo and redo: every action that changes the game (an accepted placement or blocking, a
// refused try kept in the record, a correction) can be undone; an undo puts the action on the
// redo stack, and a redo plans it again on the game as the undo left it (the same plan: the
// referee sees the same position) and carries it out. Any new action that can be undone clears
// the redo stack; a refusal that leaves the game as it was (another pion than the one in hand)
// does not.
// Pure game logic over the referee: no vision, no store, nothing printed.
//
// Two players (RULINGS.md §1, rule 11): the players play one after the other, each on his own
// board under the camera; the colours player one drew (his accepted placements and a true
// blocking, in order) are the draws player two must place, in the same order. Once player two
// has placed all of them (player one blocked early) he draws from the bag himself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/session/events.h"
#include "app/session/redo.h"
#include "data/store/store.h"
#include "referee/irma/record.h"

namespace arbitre::app::session {

class IrmaGame {
 public:
  struct Action {
    enum class Kind { Place, Block, Fix, Undo, Redo };
    Kind kind = Kind::Place;
    ri::Colour colour = ri::Colour::Red;  // Place, Block, Fix (unless `empty`)
    ri::Cell cell;                        // Place, Fix
    bool empty = false;                   // Fix: there is no pion at the cell

    static Action place(ri::Colour colour, ri::Cell cell) { return {Kind::Place, colour, cell, false}; }
    static Action block(ri::Colour colour) { return {Kind::Block, colour, {}, false}; }
    static Action fix(ri::Cell cell, std::optional<ri::Colour> colour) {
      return {Kind::Fix, colour.value_or(ri::Colour::Red), cell, !colour};
    }
    static Action undo() { return {Kind::Undo, ri::Colour::Red, {}, false}; }
    static Action redo() { return {Kind::Redo, ri::Colour::Red, {}, false}; }
  };

  // One player's game: the referee's record (refused tries included) and state, the refused
  // pion still in hand, and the cells a correction settled (the camera's view of them is
  // replaced by the game's).
  struct Player {
    std::string name;
    ri::Record record;
    ri::State state;
    std::optional<ri::Colour> in_hand;
    std::set<ri::Cell> corrected;
    bool operator==(const Player&) const = default;
  };

  // What an action does, worked out before anything is stored: the event to store and, inside,
  // everything commit() needs.
  struct Plan {
    data::store::EventKind kind = data::store::EventKind::Move;
    nlohmann::json payload;
    std::string reason;  // Refusal: the reason code

    Action action;
    ri::Verdict verdict;            // Place, Block (referee's verdict)
    std::string message;            // a session refusal in words
    std::optional<Player> fixed;    // Fix: the player's corrected game
    std::string effect;             // Fix: "recoloured", "removed", "added"
    std::optional<ri::Verdict> fixed_verdict;  // Fix: the verdict of the corrected move
    // Redo: the kind of the event redone (`action` and the fields above are its plan, made
    // again); `kind` is then Redo.
    std::optional<data::store::EventKind> redone;
  };

  IrmaGame(const ri::Options& options, std::vector<std::string> players);

  // The plan of an action on the current game, or why it cannot be carried out (a message;
  // nothing is stored then). A placement the referee refuses is a plan (a Refusal event).
  std::variant<Plan, std::string> plan(const Action& action) const;
  // Carries out a plan made by plan() on the current game; returns what happened, the stored
  // event's number given as `seq` (`describe` is for the uniform surface with YamsGame).
  std::vector<Event> commit(Plan plan, std::int64_t seq, bool describe = true);

  // The action a stored event records. Throws data::InputError for a payload that is not one.
  static Action action_from_event(data::store::EventKind kind, const nlohmann::json& payload);

  const ri::Options& options() const { return options_; }
  const std::vector<Player>& players() const { return players_; }
  // The player at the table (the last one once the game is over).
  std::size_t current() const { return current_; }
  const Player& player() const { return players_[current_]; }
  bool over() const;
  // The colours player one drew, in order (rule 11).
  const std::vector<ri::Colour>& draws() const { return draws_; }
  // The colour the current player must place next, when it is known: the refused pion in hand,
  // or player one's draw.
  std::optional<ri::Colour> expected_colour() const;
  std::vector<FinalScore> scores() const;
  std::optional<std::string> winner() const;
  bool can_undo() const { return !undo_.empty(); }
  bool can_redo() const { return !redo_.empty(); }

 private:
  struct Snapshot {
    std::size_t player = 0;
    ri::State state;
    std::size_t record_size = 0;
    std::optional<std::vector<ri::Move>> moves;  // corrections rewrite the record
    std::optional<ri::Colour> in_hand;
    std::set<ri::Cell> corrected;
    std::size_t draws = 0;
    std::string what;
    Action action;                                             // what was done, for a redo
    data::store::EventKind kind = data::store::EventKind::Move;  // and the event it stored
  };

  std::variant<Plan, std::string> plan_move(const Action& action) const;
  std::variant<Plan, std::string> plan_fix(const Action& action) const;
  std::variant<Plan, std::string> plan_redo() const;
  // Keeps what an action changes, to undo it; a new action (not a redo) clears the redo stack.
  void push_undo(Snapshot snapshot);
  void push_undo(const std::string& what, const Plan& plan);
  void recompute_draws();
  // Moves past players who are done; the events that says so.
  void advance(std::vector<Event>& events);

  ri::Options options_;
  std::vector<Player> players_;
  std::size_t current_ = 0;
  std::vector<ri::Colour> draws_;
  std::vector<Snapshot> undo_;
  std::vector<RedoEntry<Action>> redo_;
  bool redoing_ = false;  // commit() is carrying out a redo
};

// A state's totals: score, markers, bonus, plus, completed, blocked, pions (the CLI's
// summaries and the store's sheets start from them).
nlohmann::json irma_totals_json(const ri::State& state);
// A player's result as the store keeps it in the scores table: the totals and the marker pile.
nlohmann::json irma_sheet_json(const ri::State& state);

}  // namespace arbitre::app::session
