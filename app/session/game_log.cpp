#include "app/session/game_log.h"

#include "data/irma/record_json.h"
#include "data/json_reader.h"
#include "data/yams/record_json.h"
#include "scoring/irma/score.h"
#include "scoring/yams/sheet.h"

namespace arbitre::app::session {
namespace {

using data::store::EventKind;
using nlohmann::json;

std::vector<std::string> seat_names(const data::store::Game& game) {
  std::vector<std::string> names;
  for (const data::store::Seat& seat : game.seats) names.push_back(seat.name);
  return names;
}

// Plans and commits an action, returning its event; throws when it is not what the record says.
template <typename Game>
void import_action(Game& game, const typename Game::Action& action, bool legal,
                   const std::string& where, PreparedImport& out) {
  auto planned = game.plan(action);
  if (const auto* problem = std::get_if<std::string>(&planned)) {
    throw data::InputError(where + ": " + *problem);
  }
  auto& plan = std::get<typename Game::Plan>(planned);
  if ((plan.kind != EventKind::Refusal) != legal) {
    throw data::InputError(where + ": the live referee " +
                           (legal ? "refuses it (" + plan.reason + ")" : std::string("accepts it")));
  }
  out.events.emplace_back(plan.kind, plan.payload);
  game.commit(std::move(plan), static_cast<std::int64_t>(out.events.size()));
}

PreparedImport prepare_irma(const std::string& text, const std::string& path) {
  const data::irma::GameRecord record = data::irma::parse_record(text, path);
  PreparedImport out;
  out.kind = GameKind::Irma;
  out.options = data::irma::options_to_json(record.options);
  for (const auto& player : record.players) out.players.push_back(player.name);
  IrmaGame game(record.options, out.players);
  for (std::size_t p = 0; p < record.players.size(); ++p) {
    const ri::Record& moves = record.players[p].record;
    const std::string where = record.solo() ? path + ": moves" : path + ": players[" + std::to_string(p) + "].moves";
    std::vector<ri::Verdict> verdicts;
    ri::State state;
    ri::replay(moves, state, [&](const ri::Move&, const ri::Verdict& v, const ri::State&) {
      verdicts.push_back(v);
    });
    if (p > 0 && !moves.moves.empty() && game.current() != p) {
      throw data::InputError(where + ": " + record.players[p - 1].name +
                             "'s game is not over: at the table the players play one after the "
                             "other, so the next player cannot have moves yet");
    }
    for (std::size_t m = 0; m < moves.moves.size(); ++m) {
      const std::string at = where + "[" + std::to_string(m) + "] (move " + std::to_string(m + 1) + ")";
      if (verdicts[m].reason == ri::Reason::GameOver) {
        throw data::InputError(at + ": game-over: the move comes after the end of the game");
      }
      const ri::Move& move = moves.moves[m];
      const IrmaGame::Action action = move.cell ? IrmaGame::Action::place(move.colour, *move.cell)
                                                : IrmaGame::Action::block(move.colour);
      import_action(game, action, verdicts[m].legal(), at, out);
    }
  }
  out.over = game.over();
  if (out.over) {
    for (const auto& player : game.players()) {
      out.results.push_back({player.name, scoring::irma::score(player.state), irma_sheet_json(player.state)});
    }
  }
  return out;
}

PreparedImport prepare_yams(const std::string& text, const std::string& path) {
  const data::yams::GameRecord record = data::yams::parse_record(text, path);
  PreparedImport out;
  out.kind = GameKind::Yams;
  out.options = yams_options_to_json(record.options);
  out.players = record.players;
  YamsGame game(record.options, out.players);
  for (const data::yams::RecordedMove& recorded : record.moves) {
    const ry::Move& move = recorded.move;
    const std::string at = path + ": " + recorded.where;
    switch (move.kind) {
      case ry::MoveKind::Roll:
        import_action(game, YamsGame::Action::roll(move.keep, move.dice, move.dice, false), true, at, out);
        break;
      case ry::MoveKind::Declare:
        import_action(game, YamsGame::Action::declare(move.box), true, at, out);
        break;
      case ry::MoveKind::Fill:
        import_action(game, YamsGame::Action::fill(move.box, false), true, at, out);
        break;
    }
  }
  out.over = game.over();
  if (out.over) {
    const std::vector<FinalScore> scores = game.scores();
    for (std::size_t p = 0; p < scores.size(); ++p) {
      out.results.push_back({scores[p].player, scores[p].score, yams_sheet_json(game.state().sheets[p])});
    }
  }
  return out;
}

}  // namespace

ri::Options irma_options_from_json(const json& options, const std::string& where) {
  const json record = {{"options", options}, {"moves", json::array()}};
  return data::irma::parse_record(record.dump(), where).options;
}

ry::Options yams_options_from_json(const json& options, const std::string& where) {
  const json record = {{"options", options}, {"turns", json::array()}};
  return data::yams::parse_record(record.dump(), where).options;
}

json yams_options_to_json(const ry::Options& options) {
  return {{"textures", options.textures},
          {"keep_rule", std::string(ry::to_string(options.keep_rule))}};
}

ReplayedGame replay_game(data::store::Store& store, GameId id) {
  ReplayedGame out{store.game(id), std::nullopt, std::nullopt};
  const std::string where = store.path() + ": game " + std::to_string(id) + ": options";
  const std::vector<data::store::Event> events = store.events(id);
  if (out.game.kind == GameKind::Irma) {
    out.irma.emplace(irma_options_from_json(out.game.options, where), seat_names(out.game));
    replay_events(*out.irma, events, id);
  } else {
    out.yams.emplace(yams_options_from_json(out.game.options, where), seat_names(out.game));
    replay_events(*out.yams, events, id);
  }
  return out;
}

json record_json(const ReplayedGame& game) {
  if (game.irma) {
    json players = json::array();
    for (const IrmaGame::Player& player : game.irma->players()) {
      json moves = json::array();
      for (const ri::Move& move : player.record.moves) moves.push_back(data::irma::move_to_json(move));
      players.push_back({{"name", player.name}, {"moves", moves}});
    }
    return {{"options", data::irma::options_to_json(game.irma->options())}, {"players", players}};
  }
  const YamsGame& yams = *game.yams;
  return json::parse(
      data::yams::record_to_json(yams.state().options, yams.players(), yams.moves()).dump());
}

PreparedImport prepare_import(const std::string& path) {
  const std::string text = data::read_text_file(path);
  const data::JsonReader reader(path);
  const json root = reader.parse(text);
  if (!root.is_object()) {
    reader.fail("top level", "expected a game record: an object with \"moves\", \"players\" or \"turns\"");
  }
  // Yams records have turns; Irma records moves, or players each with moves.
  if (root.contains("turns")) return prepare_yams(text, path);
  return prepare_irma(text, path);
}

GameId store_import(data::store::Store& store, const PreparedImport& prepared) {
  const GameId game = store.create_game(prepared.kind, prepared.options, prepared.players);
  try {
    for (const auto& [kind, payload] : prepared.events) store.append_event(game, kind, payload);
    if (prepared.over) store.finish_game(game, prepared.results);
  } catch (const data::store::StoreError&) {
    try {
      store.abandon_game(game);
    } catch (const data::store::StoreError&) {
    }
    throw;
  }
  return game;
}

}  // namespace arbitre::app::session
