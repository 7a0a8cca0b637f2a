#include "data/yams/record_json.h"

#include <algorithm>
#include <sstream>

#include "data/input_error.h"
#include "data/json_reader.h"

namespace arbitre::data::yams {
namespace {

using nlohmann::json;

std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  std::string word;
  while (in >> word) words.push_back(word);
  return words;
}

class Parser : public JsonReader {
 public:
  using JsonReader::JsonReader;

  ry::Options options(const json& value) const {
    ry::Options options;
    if (!value.is_object()) fail("options", "expected an object");
    only_keys(value, {"textures", "keep_rule"}, "options");
    if (const auto it = value.find("textures"); it != value.end()) {
      if (!it->is_boolean()) fail("options.textures", "expected true or false");
      options.textures = it->get<bool>();
    }
    if (const auto it = value.find("keep_rule"); it != value.end()) {
      const auto rule =
          it->is_string() ? ry::keep_rule_from_string(it->get<std::string>()) : std::nullopt;
      if (!rule) fail("options.keep_rule", "expected \"free\" or \"locked\"");
      options.keep_rule = *rule;
    }
    return options;
  }

  ry::Dice dice(const json& value, const std::string& where) const {
    std::vector<std::string> words;
    if (value.is_string()) {
      words = words_of(value.get<std::string>());
    } else if (value.is_array()) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        words.push_back(string(value[i], where + "[" + std::to_string(i) + "]"));
      }
    } else {
      fail(where, "expected ten dice like \"7r 10w 3rg ...\"");
    }
    try {
      return parse_dice(words, where);
    } catch (const InputError& e) {
      fail(where, e.what());
    }
  }

  std::uint16_t keep(const json& value, const std::string& where) const {
    if (!value.is_array()) fail(where, "expected an array of dice numbers 0-9");
    std::uint16_t mask = 0;
    for (std::size_t i = 0; i < value.size(); ++i) {
      const int die =
          integer(value[i], where + "[" + std::to_string(i) + "]", 0, ry::kDiceCount - 1);
      if ((mask >> die) & 1u) fail(where, "die " + std::to_string(die) + " is listed twice");
      mask |= static_cast<std::uint16_t>(1u << die);
    }
    return mask;
  }

  ry::Box box(const json& value, const std::string& where) const {
    const std::string id = string(value, where);
    const auto box = ry::box_from_id(id);
    if (!box)
      fail(where, "unknown box \"" + id + "\" (chiffre-1 ... chiffre-10, brelan, ..., moins)");
    return *box;
  }

  std::vector<std::string> players(const json& root) const {
    std::vector<std::string> names;
    const auto it = root.find("players");
    if (it == root.end()) return {"player"};
    if (!it->is_array() || it->empty()) fail("players", "expected a non-empty array of names");
    for (std::size_t i = 0; i < it->size(); ++i) {
      const std::string name = string((*it)[i], "players[" + std::to_string(i) + "]");
      if (name.empty()) fail("players[" + std::to_string(i) + "]", "a name cannot be empty");
      names.push_back(name);
    }
    return names;
  }

  GameRecord record(const json& root) const {
    if (!root.is_object()) fail("top level", "expected an object with \"turns\"");
    only_keys(root, {"options", "players", "turns", "comment"}, "top level");
    GameRecord record;
    if (const auto it = root.find("options"); it != root.end()) record.options = options(*it);
    record.players = players(root);
    const json& turns = field(root, "turns", "top level");
    if (!turns.is_array()) fail("turns", "expected an array of turns");
    for (std::size_t t = 0; t < turns.size(); ++t) {
      const std::string where = element("turns", t, "turn");
      const json& turn = turns[t];
      if (!turn.is_object()) fail(where, "expected an object {\"rolls\", \"box\"}");
      only_keys(turn, {"player", "rolls", "declare", "box"}, where);
      const std::string& expected = record.players[t % record.players.size()];
      if (const auto it = turn.find("player");
          it != turn.end() && string(*it, where + ".player") != expected) {
        fail(where + ".player",
             "it is " + expected + "'s turn, not " + it->get<std::string>() + "'s");
      }
      const json& rolls = field(turn, "rolls", where);
      if (!rolls.is_array() || rolls.empty())
        fail(where + ".rolls", "expected a non-empty array of rolls");
      const auto add = [&](const ry::Move& move, std::string at) {
        record.moves.push_back({move, std::move(at), static_cast<int>(t)});
      };
      for (std::size_t r = 0; r < rolls.size(); ++r) {
        const std::string at = where + ".rolls[" + std::to_string(r) + "]";
        if (r == ry::kMaxRolls) {
          if (!turn.contains("declare")) {
            fail(at, "a sixth roll needs a declared box (\"declare\")");
          }
          add(ry::Move::declare(box(turn["declare"], where + ".declare")), where + ".declare");
        }
        const json& roll = rolls[r];
        if (roll.is_object()) {
          only_keys(roll, {"keep", "dice"}, at);
          const std::uint16_t kept = roll.contains("keep") ? keep(roll["keep"], at + ".keep") : 0;
          add(ry::Move::roll(kept, dice(field(roll, "dice", at), at + ".dice")), at);
        } else {
          add(ry::Move::roll(0, dice(roll, at)), at);
        }
      }
      if (turn.contains("declare") && rolls.size() <= static_cast<std::size_t>(ry::kMaxRolls)) {
        if (rolls.size() < static_cast<std::size_t>(ry::kMaxRolls)) {
          fail(where + ".declare",
               "a sixth roll is declared after the fifth roll, not after roll " +
                   std::to_string(rolls.size()));
        }
        add(ry::Move::declare(box(turn["declare"], where + ".declare")), where + ".declare");
      }
      if (turn.contains("box")) {
        add(ry::Move::fill(box(turn["box"], where + ".box")), where + ".box");
      } else if (t + 1 != turns.size()) {
        fail(where + ".box", "missing field (only the last turn may be unfinished)");
      }
    }
    check_replay(record);
    return record;
  }

  // Every move must be one the referee accepts: a refused one cannot be in a record.
  void check_replay(const GameRecord& record) const {
    ry::State state = ry::initial_state(record.options, static_cast<int>(record.players.size()));
    for (const RecordedMove& recorded : record.moves) {
      const ry::Verdict verdict = ry::check(state, recorded.move);
      if (!verdict.legal()) fail(recorded.where, explain(state, recorded.move, verdict));
      ry::play(state, recorded.move);
    }
  }

  static std::string explain(const ry::State& state, const ry::Move& move,
                             const ry::Verdict& verdict) {
    std::string text(ry::to_string(verdict.reason));
    std::string dice_list;
    for (const int d : verdict.dice) {
      if (!dice_list.empty()) dice_list += ", ";
      dice_list += std::to_string(d);
    }
    switch (verdict.reason) {
      case ry::Reason::GameOver:
        return text + ": every box of every sheet is filled";
      case ry::Reason::TooManyRolls:
        return text +
               (state.turn.declared ? ": the sixth roll was the last" : ": five rolls at most");
      case ry::Reason::KeptDieChanged:
        return text + ": die " + dice_list + " was set aside";
      case ry::Reason::DieSwapped:
        return text + ": die " + dice_list + " changed colour or texture";
      case ry::Reason::DieUnkept:
        return text + ": die " + dice_list + " stays aside (keep_rule locked)";
      case ry::Reason::BadDice:
        return text + (state.options.textures
                           ? ": options.textures is true, every die needs g or t"
                           : ": options.textures is false, no die may have g or t");
      case ry::Reason::BoxFilled:
        return text + ": " + std::string(ry::id(move.box)) + " is already filled on this sheet";
      case ry::Reason::DeclaredBoxOnly:
        return text + ": the sixth roll was declared for " +
               std::string(ry::id(*state.turn.declared));
      case ry::Reason::NotDeclarable:
        return text + ": only Yams, Suites and Combinaisons boxes may be declared";
      default:
        return text;
    }
  }
};

}  // namespace

ry::Dice parse_dice(const std::vector<std::string>& words, const std::string& where,
                    bool whole_set) {
  if (words.size() != static_cast<std::size_t>(ry::kDiceCount)) {
    throw InputError(where + ": expected ten dice, got " + std::to_string(words.size()));
  }
  ry::Dice dice{};
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string problem;
    const auto die = ry::die_from_text(words[i], &problem);
    if (!die) throw InputError(where + ": die " + std::to_string(i) + ": " + problem);
    dice[i] = *die;
  }
  if (!whole_set) return dice;
  if (const auto problem = ry::validate(dice)) throw InputError(where + ": " + *problem);
  return dice;
}

ry::Dice parse_dice(const std::string& text, const std::string& where, bool whole_set) {
  return parse_dice(words_of(text), where, whole_set);
}

GameRecord parse_record(const std::string& text, const std::string& source) {
  const Parser parser(source);
  return parser.record(parser.parse(text));
}

GameRecord load_record(const std::string& path) {
  return parse_record(read_text_file(path), path);
}

ry::State replay(const GameRecord& record) {
  ry::State state = ry::initial_state(record.options, static_cast<int>(record.players.size()));
  for (const RecordedMove& recorded : record.moves) ry::play(state, recorded.move);
  return state;
}

ry::State parse_position(const std::string& text, const std::string& source) {
  const Parser parser(source);
  const json root = parser.parse(text);
  if (root.is_object() && root.contains("turns")) return replay(parser.record(root));
  if (!root.is_object()) parser.fail("top level", "expected an object");
  parser.only_keys(root, {"options", "sheet", "rolls", "dice", "declared", "comment"}, "top level");
  ry::State state = ry::initial_state(
      root.contains("options") ? parser.options(root["options"]) : ry::Options{}, 1);
  if (const auto it = root.find("sheet"); it != root.end()) {
    if (!it->is_object()) parser.fail("sheet", "expected an object {\"box-id\": score, ...}");
    for (const auto& item : it->items()) {
      const std::string where = "sheet." + item.key();
      const auto box = ry::box_from_id(item.key());
      if (!box) parser.fail(where, "unknown box");
      ry::Entry entry;
      if (item.value().is_object()) {
        parser.only_keys(item.value(), {"score", "count"}, where);
        entry.score = parser.integer(parser.field(item.value(), "score", where), where + ".score",
                                     -100000, 100000);
        if (item.value().contains("count")) {
          entry.count = parser.integer(item.value()["count"], where + ".count", 0, ry::kDiceCount);
        }
      } else {
        entry.score = parser.integer(item.value(), where, -100000, 100000);
        if (*box == ry::Box::Chiffre1) entry.count = std::clamp(entry.score, 0, ry::kDiceCount);
      }
      state.sheets[0].boxes[ry::index(*box)] = entry;
    }
    if (state.sheets[0].complete()) parser.fail("sheet", "every box is filled: the game is over");
  }
  const int rolls =
      root.contains("rolls") ? parser.integer(root["rolls"], "rolls", 0, ry::kSixthRoll) : 0;
  if (rolls > 0) {
    state.turn.rolls = rolls;
    state.turn.dice = parser.dice(parser.field(root, "dice", "top level"), "dice");
    if (ry::has_textures(state.turn.dice) != state.options.textures) {
      parser.fail("dice", state.options.textures
                              ? "options.textures is true, every die needs g or t"
                              : "options.textures is false, no die may have g or t");
    }
  } else if (root.contains("dice")) {
    parser.fail("rolls", "dice are given, so at least one roll was made");
  }
  if (const auto it = root.find("declared"); it != root.end()) {
    const ry::Box box = parser.box(*it, "declared");
    if (rolls < ry::kMaxRolls)
      parser.fail("declared", "a sixth roll is declared after the fifth roll");
    if (!ry::declarable(box))
      parser.fail("declared", "only Yams, Suites and Combinaisons boxes may be declared");
    if (state.sheets[0].filled(box))
      parser.fail("declared", std::string(ry::id(box)) + " is already filled");
    state.turn.declared = box;
  } else if (rolls == ry::kSixthRoll) {
    parser.fail("rolls", "a sixth roll needs a declared box (\"declared\")");
  }
  return state;
}

ry::State load_position(const std::string& path) {
  return parse_position(read_text_file(path), path);
}

nlohmann::ordered_json record_to_json(const ry::Options& options,
                                      const std::vector<std::string>& players,
                                      const std::vector<ry::Move>& moves) {
  using ojson = nlohmann::ordered_json;
  ojson turns = ojson::array();
  ojson turn = {{"player", nullptr}, {"rolls", ojson::array()}};
  std::size_t t = 0;
  for (const ry::Move& move : moves) {
    switch (move.kind) {
      case ry::MoveKind::Roll: {
        const std::string dice = ry::to_text(move.dice);
        if (move.keep == 0) {
          turn["rolls"].push_back(dice);
        } else {
          ojson kept = ojson::array();
          for (int i = 0; i < ry::kDiceCount; ++i) {
            if ((move.keep >> i) & 1u) kept.push_back(i);
          }
          turn["rolls"].push_back({{"keep", kept}, {"dice", dice}});
        }
        break;
      }
      case ry::MoveKind::Declare:
        turn["declare"] = std::string(ry::id(move.box));
        break;
      case ry::MoveKind::Fill:
        turn["player"] = players[t++ % players.size()];
        turn["box"] = std::string(ry::id(move.box));
        turns.push_back(turn);
        turn = {{"player", nullptr}, {"rolls", ojson::array()}};
        break;
    }
  }
  if (!turn["rolls"].empty()) {
    turn["player"] = players[t % players.size()];
    turns.push_back(turn);
  }
  return {{"options",
           {{"textures", options.textures},
            {"keep_rule", std::string(ry::to_string(options.keep_rule))}}},
          {"players", players},
          {"turns", turns}};
}

}  // namespace arbitre::data::yams
