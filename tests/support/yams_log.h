// A long Yams game log for the session's replay test and benchmark: greedy players, as the
// session would have logged their rolls and boxes.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "app/session/yams_game.h"
#include "data/store/store.h"
#include "scoring/yams/advisor.h"

namespace arbitre::testing::yams {

// The first `size` events of a game between `players` greedy players (fewer if it ends first).
inline std::vector<data::store::Event> greedy_log(std::size_t size, int players) {
  namespace s = app::session;
  namespace ry = referee::yams;
  namespace sy = scoring::yams;
  std::vector<std::string> names;
  for (int p = 0; p < players; ++p) names.push_back("player " + std::to_string(p + 1));
  s::YamsGame game(ry::Options{}, names);
  scoring::Rng rng(11);
  std::vector<data::store::Event> log;
  while (log.size() < size && !game.over()) {
    const sy::Option option = sy::greedy(game.state());
    s::YamsGame::Action action;
    if (option.action == sy::Action::Roll) {
      ry::Dice dice = game.state().turn.rolls == 0 ? sy::fresh_dice() : game.state().turn.dice;
      sy::reroll(dice, option.keep, rng);
      action = s::YamsGame::Action::roll(option.keep, dice, dice, false);
    } else if (option.action == sy::Action::Fill) {
      action = s::YamsGame::Action::fill(option.box, false);
    } else {
      action = s::YamsGame::Action::declare(option.box);
    }
    auto plan = std::get<s::YamsGame::Plan>(game.plan(action));
    log.push_back({static_cast<std::int64_t>(log.size()) + 1, plan.kind, plan.payload, ""});
    game.commit(std::move(plan), log.back().seq);
  }
  return log;
}

}  // namespace arbitre::testing::yams
