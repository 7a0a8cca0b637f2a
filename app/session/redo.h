// Redo, the same for every game of a live session (IrmaGame, YamsGame): an undo puts the undone
// action on a redo stack; a redo plans that action again on the game as the undo left it — the
// same position, so the referee must say the same again — and stores it as a Redo event that
// carries the kind of the event redone.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "data/store/store.h"

namespace arbitre::app::session {

// An undone action, to be done again, and the event it had stored.
template <class Action>
struct RedoEntry {
  Action action;
  data::store::EventKind kind = data::store::EventKind::Move;
  std::string what;  // in words, as the undo said it
};

// The plan of a redo of the last entry of `redo`, made by `game.plan(action)`, or why it cannot
// be done. `Plan` has the fields kind, redone, reason and payload.
template <class Plan, class Game, class Action>
std::variant<Plan, std::string> plan_redo(const Game& game, const std::vector<RedoEntry<Action>>& redo,
                                          const std::string& player) {
  if (redo.empty()) return std::string("nothing to redo");
  const RedoEntry<Action>& entry = redo.back();
  auto planned = game.plan(entry.action);
  if (const auto* problem = std::get_if<std::string>(&planned)) return "cannot redo " + entry.what + ": " + *problem;
  Plan plan = std::move(std::get<Plan>(planned));
  if (plan.kind != entry.kind) {
    return "cannot redo " + entry.what + ": the referee now makes it a " + std::string(data::store::to_text(plan.kind));
  }
  plan.redone = plan.kind;
  plan.kind = data::store::EventKind::Redo;
  plan.reason.clear();
  plan.payload = {{"player", player}, {"redid", entry.what}};
  return plan;
}

}  // namespace arbitre::app::session
