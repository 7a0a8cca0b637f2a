#include "data/irma/record_json.h"

#include <limits>

#include "data/input_error.h"
#include "data/json_reader.h"

namespace arbitre::data::irma {
namespace {

using nlohmann::json;

class Parser : public JsonReader {
 public:
  using JsonReader::JsonReader;

  ri::Options options(const json& value) const {
    ri::Options options;
    if (!value.is_object()) fail("options", "expected an object");
    only_keys(value, {"bag", "markers", "repeat_rule"}, "options");
    if (const auto it = value.find("bag"); it != value.end()) {
      if (!it->is_object()) fail("options.bag", "expected an object of pion counts per colour");
      for (const auto& [key, count] : it->items()) {
        const auto colour = ri::colour_from_string(key);
        if (!colour) fail("options.bag." + key, "unknown colour");
        options.bag[static_cast<int>(*colour)] = integer(count, "options.bag." + key, 0, 1000);
      }
    }
    if (const auto it = value.find("markers"); it != value.end()) {
      if (!it->is_object()) fail("options.markers", "expected an object {\"1\": 15, ...}");
      for (const auto& [key, count] : it->items()) {
        int kind = key == "1" ? 0 : key == "2" ? 1 : key == "4" ? 2 : -1;
        if (kind < 0) fail("options.markers." + key, "markers are worth 1, 2 or 4");
        options.marker_stock[kind] = integer(count, "options.markers." + key, 0, 1000);
      }
    }
    if (const auto it = value.find("repeat_rule"); it != value.end()) {
      const auto rule =
          it->is_string() ? ri::repeat_rule_from_string(it->get<std::string>()) : std::nullopt;
      if (!rule) fail("options.repeat_rule", "expected \"last-scored\" or \"previous-turn\"");
      options.repeat_rule = *rule;
    }
    if (const auto error = ri::validate(options)) fail(error->field, error->message);
    return options;
  }

  ri::Move move(const json& value, const std::string& where) const {
    if (!value.is_object()) fail(where, "expected an object {\"colour\", \"row\", \"col\"}");
    only_keys(value, {"colour", "row", "col", "blocked"}, where);
    const json& colour_value = field(value, "colour", where);
    const auto colour = colour_value.is_string()
                            ? ri::colour_from_string(colour_value.get<std::string>())
                            : std::nullopt;
    if (!colour) {
      fail(where + ".colour",
           "unknown colour " + colour_value.dump() + " (expected red, orange, green or white)");
    }
    if (const auto it = value.find("blocked"); it != value.end()) {
      if (!it->is_boolean()) fail(where + ".blocked", "expected true or false");
      if (it->get<bool>()) {
        if (value.contains("row") || value.contains("col")) {
          fail(where, "a blocking claim has no row or col");
        }
        return ri::Move::block_claim(*colour);
      }
    }
    constexpr int kLimit = 1'000'000;
    const int row = integer(field(value, "row", where), where + ".row", -kLimit, kLimit);
    const int col = integer(field(value, "col", where), where + ".col", -kLimit, kLimit);
    return ri::Move::place(*colour, {row, col});
  }

  std::vector<ri::Move> moves(const json& value, const std::string& where) const {
    if (!value.is_array()) fail(where, "expected an array of moves");
    std::vector<ri::Move> out;
    for (std::size_t i = 0; i < value.size(); ++i) {
      out.push_back(move(value[i], element(where, i, "move")));
    }
    return out;
  }

  // Replays each player's record so that impossible records are refused at load time.
  void check_replay(const PlayerRecord& player, const std::string& where) const {
    ri::State state;
    if (const auto error = ri::replay(player.record, state)) {
      fail(element(where, error->move, "move") + "." + error->field, error->message);
    }
  }

  GameRecord game(const std::string& text) const {
    const json root = parse(text);
    if (!root.is_object()) fail("top level", "expected an object with \"moves\" or \"players\"");
    only_keys(root, {"options", "moves", "players", "comment"}, "top level");
    GameRecord game;
    if (const auto it = root.find("options"); it != root.end()) game.options = options(*it);
    const bool has_moves = root.contains("moves");
    const bool has_players = root.contains("players");
    if (has_moves == has_players)
      fail("top level", "expected exactly one of \"moves\" or \"players\"");
    if (has_moves) {
      game.players.push_back({"player", {game.options, moves(root["moves"], "moves")}});
      check_replay(game.players.back(), "moves");
      return game;
    }
    const json& players = root["players"];
    if (!players.is_array() || players.empty()) fail("players", "expected a non-empty array");
    for (std::size_t p = 0; p < players.size(); ++p) {
      const std::string where = "players[" + std::to_string(p) + "]";
      if (!players[p].is_object()) fail(where, "expected an object {\"name\", \"moves\"}");
      only_keys(players[p], {"name", "moves"}, where);
      const json& name = field(players[p], "name", where);
      if (!name.is_string() || name.get<std::string>().empty()) {
        fail(where + ".name", "expected a non-empty string");
      }
      game.players.push_back(
          {name.get<std::string>(),
           {game.options, moves(field(players[p], "moves", where), where + ".moves")}});
      check_replay(game.players.back(), where + ".moves");
    }
    // Rule 11: every player places the same sequence of drawn pions.
    const std::vector<ri::Colour> reference = ri::draws(game.players.front().record);
    for (std::size_t p = 1; p < game.players.size(); ++p) {
      const std::vector<ri::Colour> other = ri::draws(game.players[p].record);
      for (std::size_t d = 0; d < std::min(reference.size(), other.size()); ++d) {
        if (reference[d] != other[d]) {
          fail("players[" + std::to_string(p) + "].moves",
               "draw " + std::to_string(d + 1) + " is " + std::string(ri::to_string(other[d])) +
                   " but " + game.players.front().name + " drew " +
                   std::string(ri::to_string(reference[d])) +
                   ": both players place the same draws");
        }
      }
    }
    return game;
  }
};

}  // namespace

GameRecord parse_record(const std::string& text, const std::string& source) {
  return Parser(source).game(text);
}

GameRecord load_record(const std::string& path) {
  return parse_record(read_text_file(path), path);
}

nlohmann::json options_to_json(const ri::Options& options) {
  json bag = json::object();
  for (const ri::Colour colour : ri::kAllColours) {
    bag[std::string(ri::to_string(colour))] = options.bag[static_cast<int>(colour)];
  }
  return {{"bag", bag},
          {"markers",
           {{"1", options.marker_stock[0]},
            {"2", options.marker_stock[1]},
            {"4", options.marker_stock[2]}}},
          {"repeat_rule", std::string(ri::to_string(options.repeat_rule))}};
}

nlohmann::json move_to_json(const ri::Move& move) {
  json out = {{"colour", std::string(ri::to_string(move.colour))}};
  if (move.cell) {
    out["row"] = move.cell->row;
    out["col"] = move.cell->col;
  } else {
    out["blocked"] = true;
  }
  return out;
}

nlohmann::json record_to_json(const ri::Record& record) {
  json moves = json::array();
  for (const ri::Move& move : record.moves) moves.push_back(move_to_json(move));
  return {{"options", options_to_json(record.options)}, {"moves", moves}};
}

}  // namespace arbitre::data::irma
