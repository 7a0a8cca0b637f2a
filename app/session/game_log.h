// Stored games as records: replaying a game's event log through the referee (resume, show,
// export), and turning a game record file into a stored game (import).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/session/irma_game.h"
#include "app/session/yams_game.h"
#include "data/input_error.h"
#include "data/store/store.h"

namespace arbitre::app::session {

// Game options as the store keeps them (the records' "options"), read back through the record
// readers. Throw data::InputError naming `where`.
ri::Options irma_options_from_json(const nlohmann::json& options, const std::string& where);
ry::Options yams_options_from_json(const nlohmann::json& options, const std::string& where);
nlohmann::json yams_options_to_json(const ry::Options& options);

// Replays stored events through a game, checking that each one is what the referee says now
// (an accepted move is accepted, a refusal refused for the same reason). Throws
// data::InputError naming the game and the event that does not replay.
template <typename Game>
void replay_events(Game& game, const std::vector<data::store::Event>& events, GameId id) {
  for (const data::store::Event& event : events) {
    const auto fail = [&](const std::string& problem) {
      throw data::InputError("game " + std::to_string(id) + ", event " +
                             std::to_string(event.seq) + " (" +
                             std::string(data::store::to_text(event.kind)) + "): " + problem);
    };
    typename Game::Action action;
    try {
      action = Game::action_from_event(event.kind, event.payload);
    } catch (const data::InputError& e) {
      fail(e.what());
    }
    auto planned = game.plan(action);
    if (const auto* problem = std::get_if<std::string>(&planned)) fail("does not replay: " + *problem);
    auto& plan = std::get<typename Game::Plan>(planned);
    if (plan.kind != event.kind) {
      fail("does not replay: the referee now makes it a " +
           std::string(data::store::to_text(plan.kind)) +
           (plan.reason.empty() ? std::string() : " (" + plan.reason + ")"));
    }
    if (plan.kind == data::store::EventKind::Refusal &&
        event.payload.value("reason", std::string()) != plan.reason) {
      fail("does not replay: refused now for " + plan.reason);
    }
    game.commit(std::move(plan), event.seq, /*describe=*/false);
  }
}

// A stored game with its log replayed: exactly one of `irma`, `yams` is set.
struct ReplayedGame {
  data::store::Game game;
  std::optional<IrmaGame> irma;
  std::optional<YamsGame> yams;
};
ReplayedGame replay_game(data::store::Store& store, GameId id);

// The game record of a replayed game in the format the record readers take, so that `arbitre
// irma check`, `yams check` and `import` read it: Irma {"options", "players": [{"name",
// "moves"}]}, Yams {"options", "players", "turns"}.
nlohmann::json record_json(const ReplayedGame& game);

// A game record file checked and turned into the events a live session would have stored.
struct PreparedImport {
  GameKind kind = GameKind::Irma;
  nlohmann::json options;
  std::vector<std::string> players;
  std::vector<std::pair<data::store::EventKind, nlohmann::json>> events;
  bool over = false;
  std::vector<data::store::PlayerResult> results;  // when over
};

// Reads and validates a record (the record readers, then a replay through the session's game):
// throws data::InputError naming the file, the place and the problem. Touches no store.
PreparedImport prepare_import(const std::string& path);
// Stores a prepared game: created, its events appended, finished when over. On a failure part
// way (the disk full), the partial game is abandoned before the error is thrown on.
GameId store_import(data::store::Store& store, const PreparedImport& prepared);

}  // namespace arbitre::app::session
