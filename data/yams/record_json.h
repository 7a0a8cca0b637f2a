// Le Yams impossible — game records and advisor positions as JSON:
//   {"options": {"textures": false, "keep_rule": "free"},
//    "players": ["Anna", "Bruno"],
//    "turns": [{"player": "Anna",
//               "rolls": ["3r 5r 7r 7r 9r 1w 2w 7w 7w 10w",
//                         {"keep": [2, 3, 7, 8], "dice": "3r 1r 7r 7r 2r 4w 6w 7w 7w 7w"}],
//               "declare": "youpi-yams",          (optional, after the fifth roll)
//               "box": "chiffre-7"}, ...]}
// Dice are a string of ten dice ("7r 10w 3rg 1wt") or an array of such strings; "keep" lists the
// dice (0-9, in the order written) set aside before the roll. The last turn may be unfinished
// (no "box"). "options" may be omitted; "players" may be omitted for a solo game.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "referee/yams/yams.h"

namespace arbitre::data::yams {

namespace ry = referee::yams;

// One move of a record and where it came from in the file, for messages.
struct RecordedMove {
  ry::Move move;
  std::string where;  // e.g. "turns[3] (turn 4).rolls[1]"
  int turn = 0;       // index of its turn
};

struct GameRecord {
  ry::Options options;
  std::vector<std::string> players;
  std::vector<RecordedMove> moves;
};

// Parses a record and replays it through the referee; throws InputError naming the file, the
// turn and the field for malformed JSON, bad dice, a refused move (a box filled twice, a
// seventh roll, a kept die that changed...).
GameRecord parse_record(const std::string& text, const std::string& source);
GameRecord load_record(const std::string& path);

// The state a record leads to (the record is known to replay cleanly).
ry::State replay(const GameRecord& record);

// A position for the advisor: either a record (the player to move after it), or
//   {"options": ..., "sheet": {"chiffre-7": 28, "chiffre-1": {"score": 10, "count": 5}, ...},
//    "rolls": 2, "dice": "7r 7r ...", "declared": "youpi-yams"}
// where an integer chiffre-1 entry counts that many dice.
ry::State parse_position(const std::string& text, const std::string& source);
ry::State load_position(const std::string& path);

// Parses ten dice written as words; throws InputError "<where>: <problem>". With `whole_set`
// the ten must also be a game's set (five red and five white, textures for all or none).
ry::Dice parse_dice(const std::vector<std::string>& words, const std::string& where,
                    bool whole_set = true);
// The same from one text, the dice separated by spaces ("7r 10w 3rg ...").
ry::Dice parse_dice(const std::string& text, const std::string& where, bool whole_set = true);

nlohmann::ordered_json record_to_json(const ry::Options& options,
                                      const std::vector<std::string>& players,
                                      const std::vector<ry::Move>& moves);

// The embedded default: the bundled demonstration game (data/demo/yams-demo.json).
const std::string& demo_record_text();

}  // namespace arbitre::data::yams
