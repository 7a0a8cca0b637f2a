#include "app/cli/store_commands.h"

#include <cmath>
#include <filesystem>
#include <sstream>

#include "app/cli/irma_commands.h"
#include "app/session/game_log.h"
#include "data/input_error.h"
#include "data/irma/record_json.h"
#include "data/store/store.h"
#include "scoring/irma/score.h"
#include "scoring/yams/sheet.h"

namespace arbitre::app::store_cli {
namespace {

namespace ds = data::store;
namespace s = session;
namespace ri = referee::irma;
namespace ry = referee::yams;
namespace si = scoring::irma;
namespace sy = scoring::yams;
using json = nlohmann::ordered_json;

// The store to read: the default one (created when missing), or the file given, which must exist.
ds::Store open_existing(const std::string& db) {
  if (db.empty()) return ds::Store::open(ds::default_store_path());
  if (!std::filesystem::exists(db)) throw data::InputError(db + ": no such game store");
  return ds::Store::open(db);
}

json ordered(const nlohmann::json& value) { return json::parse(value.dump()); }

json or_null(const std::optional<std::string>& text) { return text ? json(*text) : json(nullptr); }


std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string irma_csv(const s::IrmaGame& game) {
  std::ostringstream out;
  out << "player,move,colour,row,col,blocked,legal,reason,marker,score\n";
  for (const s::IrmaGame::Player& player : game.players()) {
    ri::State state;
    int number = 0;
    ri::replay(player.record, state,
               [&](const ri::Move& move, const ri::Verdict& verdict, const ri::State& after) {
                 out << csv_field(player.name) << ',' << ++number << ',' << ri::to_string(move.colour)
                     << ',' << (move.cell ? std::to_string(move.cell->row) : "") << ','
                     << (move.cell ? std::to_string(move.cell->col) : "") << ','
                     << (move.cell ? "false" : "true") << ',' << (verdict.legal() ? "true" : "false")
                     << ',' << (verdict.legal() ? "" : std::string(ri::to_string(verdict.reason)))
                     << ',' << (verdict.marker ? std::to_string(ri::marker_value(*verdict.marker)) : "")
                     << ',' << si::score(after) << '\n';
               });
  }
  return out.str();
}

std::string yams_csv(const s::YamsGame& game) {
  std::ostringstream out;
  out << "player,turn,move,kind,keep,dice,box,points,total\n";
  ry::State state = ry::initial_state(game.state().options, static_cast<int>(game.players().size()));
  std::vector<int> turns(game.players().size(), 1);
  int move_number = 0;
  for (const ry::Move& move : game.moves()) {
    const auto p = static_cast<std::size_t>(state.player);
    const ry::Verdict verdict = ry::check(state, move);
    ry::play(state, move);
    ++move_number;
    std::string keep;
    for (int i = 0; i < ry::kDiceCount; ++i) {
      if (move.kind == ry::MoveKind::Roll && ((move.keep >> i) & 1u)) {
        if (!keep.empty()) keep += ' ';
        keep += std::to_string(i);
      }
    }
    const char* kind = move.kind == ry::MoveKind::Roll      ? "roll"
                       : move.kind == ry::MoveKind::Declare ? "declare"
                                                            : "box";
    out << csv_field(game.players()[p]) << ',' << turns[p] << ',' << move_number << ',' << kind
        << ',' << keep << ',' << (move.kind == ry::MoveKind::Roll ? ry::to_text(move.dice) : "")
        << ',' << (move.kind == ry::MoveKind::Roll ? "" : std::string(ry::id(move.box))) << ','
        << (move.kind == ry::MoveKind::Fill ? std::to_string(verdict.score) : "") << ','
        << sy::totals(state.sheets[p]).grand << '\n';
    if (move.kind == ry::MoveKind::Fill) ++turns[p];
  }
  return out.str();
}

}  // namespace

json games(const std::string& db) {
  ds::Store store = open_existing(db);
  json list = json::array();
  for (const ds::Game& game : store.list_games()) {
    json players = json::array();
    for (const ds::Seat& seat : game.seats) {
      players.push_back({{"name", seat.name}, {"score", seat.score ? json(*seat.score) : json(nullptr)}});
    }
    list.push_back({{"id", game.id},
                    {"kind", std::string(ds::to_text(game.kind))},
                    {"status", std::string(ds::to_text(game.status))},
                    {"started_at", game.started_at},
                    {"ended_at", or_null(game.ended_at)},
                    {"events", game.event_count},
                    {"players", players}});
  }
  return {{"db", store.path()}, {"games", list}};
}

json show(const std::string& db, std::int64_t id) {
  ds::Store store = open_existing(db);
  const s::ReplayedGame replayed = s::replay_game(store, id);
  const ds::Game& game = replayed.game;
  json players = json::array();
  std::optional<std::string> to_move;
  std::optional<std::string> winner;
  if (replayed.irma) {
    for (const s::IrmaGame::Player& player : replayed.irma->players()) {
      json entry = {{"name", player.name}};
      const nlohmann::json sheet = s::irma_sheet_json(player.state);
      for (const auto& [key, value] : sheet.items()) entry[key] = ordered(value);
      entry["moves"] = player.record.moves.size();
      entry["board"] = irma::board_json(player.state.board);
      players.push_back(entry);
    }
    if (!replayed.irma->over()) to_move = replayed.irma->player().name;
    winner = replayed.irma->winner();
  } else {
    const s::YamsGame& yams = *replayed.yams;
    for (std::size_t p = 0; p < yams.players().size(); ++p) {
      const ry::Sheet& sheet = yams.state().sheets[p];
      json boxes = json::object();
      for (int b = 0; b < ry::kBoxCount; ++b) {
        const auto& entry = sheet.boxes[static_cast<std::size_t>(b)];
        boxes[std::string(ry::id(ry::box_at(b)))] = entry ? json(entry->score) : json(nullptr);
      }
      const nlohmann::json both = s::yams_sheet_json(sheet);
      players.push_back({{"name", yams.players()[p]},
                         {"score", sy::totals(sheet).grand},
                         {"boxes", boxes},
                         {"totals", ordered(both["totals"])},
                         {"filled", sheet.filled_count()}});
    }
    if (!yams.over()) to_move = yams.to_move();
    winner = yams.winner();
  }
  json out = {{"id", game.id},
              {"kind", std::string(ds::to_text(game.kind))},
              {"status", std::string(ds::to_text(game.status))},
              {"started_at", game.started_at},
              {"ended_at", or_null(game.ended_at)},
              {"events", game.event_count},
              {"players", players}};
  if (game.status == ds::GameStatus::Running) out["to_move"] = or_null(to_move);
  if (game.status == ds::GameStatus::Finished) out["winner"] = or_null(winner);
  out["record"] = ordered(s::record_json(replayed));
  return out;
}

json records(const std::string& db) {
  ds::Store store = open_existing(db);
  json list = json::array();
  for (const ds::PlayerRecord& record : store.records()) {
    list.push_back({{"player", record.player},
                    {"game", std::string(ds::to_text(record.kind))},
                    {"games", record.games},
                    {"finished", record.finished},
                    {"best", record.best ? json(*record.best) : json(nullptr)},
                    {"average", record.average ? json(std::round(*record.average * 100) / 100) : json(nullptr)},
                    {"completion_rate", std::round(record.completion_rate * 1000) / 1000}});
  }
  return {{"db", store.path()}, {"records", list}};
}

std::string export_game(const std::string& db, std::int64_t id, const std::string& format) {
  if (format != "json" && format != "csv") {
    throw data::InputError("--format: expected json or csv, not \"" + format + "\"");
  }
  ds::Store store = open_existing(db);
  const s::ReplayedGame replayed = s::replay_game(store, id);
  if (format == "csv") return replayed.irma ? irma_csv(*replayed.irma) : yams_csv(*replayed.yams);
  nlohmann::json record = s::record_json(replayed);
  record["comment"] = "Arbitre game " + std::to_string(id) + " (" +
                      std::string(ds::to_text(replayed.game.kind)) + "), started " +
                      replayed.game.started_at + ", " +
                      std::string(ds::to_text(replayed.game.status));
  return record.dump(2) + "\n";
}

json import_file(const std::string& db, const std::string& path) {
  const s::PreparedImport prepared = s::prepare_import(path);  // before the store is touched
  ds::Store store = ds::Store::open(db.empty() ? ds::default_store_path() : db);
  const ds::GameId id = s::store_import(store, prepared);
  json scores = json::array();
  for (const ds::PlayerResult& result : prepared.results) {
    scores.push_back({{"player", result.player}, {"score", result.score}});
  }
  return {{"imported", id},
          {"kind", std::string(ds::to_text(prepared.kind))},
          {"players", prepared.players},
          {"events", prepared.events.size()},
          {"finished", prepared.over},
          {"scores", scores}};
}

}  // namespace arbitre::app::store_cli
