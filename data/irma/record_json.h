// Le jeu d'Irma — game records as JSON files:
//   {"options": {"bag": {"red": 12, ...}, "markers": {"1": 15, "2": 12, "4": 11},
//                "repeat_rule": "last-scored"},
//    "moves": [{"colour": "red", "row": 0, "col": 0}, {"colour": "white", "blocked": true}]}
// or, for two players placing the same draws: {"options": ..., "players": [{"name": "Anna",
// "moves": [...]}, ...]}. "options" may be omitted (all defaults).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "referee/irma/record.h"

namespace arbitre::data::irma {

namespace ri = referee::irma;

struct PlayerRecord {
  std::string name;
  ri::Record record;  // shares the game's options
};

struct GameRecord {
  ri::Options options;
  std::vector<PlayerRecord> players;  // one for a solo game
  bool solo() const { return players.size() == 1; }
};

// Parses a record; throws InputError "<source>: <where>: <problem>", where is a line and
// column for malformed JSON, or the path of the field (moves[3].colour) for bad content.
GameRecord parse_record(const std::string& text, const std::string& source);
GameRecord load_record(const std::string& path);

nlohmann::json options_to_json(const ri::Options& options);
nlohmann::json move_to_json(const ri::Move& move);
nlohmann::json record_to_json(const ri::Record& record);

// The embedded default: the bundled demonstration game record (data/demo/irma-demo.json).
const std::string& demo_record_text();

}  // namespace arbitre::data::irma
