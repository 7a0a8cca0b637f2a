// `arbitre games`, `show`, `records`, `export`, `import`: the game store from the command line.
// `db` is the store's file ("" for data::store::default_store_path()). Bad input (an unknown
// game, a record that is malformed or cannot have happened) throws data::InputError; the store
// is then left as it was.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace arbitre::app::store_cli {

// Every game, newest first: id, kind, status, times, players with their scores, events.
nlohmann::ordered_json games(const std::string& db);

// One game: its record, every player's sheet (board and markers for Irma, boxes and totals for
// Yams) and score, who is to move or who won.
nlohmann::ordered_json show(const std::string& db, std::int64_t game);

// Per player and game: games, finished, best score, average, completion rate.
nlohmann::ordered_json records(const std::string& db);

// The game as a record (json: importable, and readable by `irma check` / `yams check`) or a
// table of its moves (csv).
std::string export_game(const std::string& db, std::int64_t game, const std::string& format);

// Stores a game record file (validated through the record readers and a referee replay first).
nlohmann::ordered_json import_file(const std::string& db, const std::string& path);

}  // namespace arbitre::app::store_cli
