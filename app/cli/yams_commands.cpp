#include "app/cli/yams_commands.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "data/input_error.h"
#include "scoring/yams/advisor.h"
#include "scoring/yams/sheet.h"

namespace arbitre::app::yams {
namespace {

namespace ry = referee::yams;
namespace sy = scoring::yams;
using json = nlohmann::ordered_json;

json dice_list(std::uint16_t mask) {
  json out = json::array();
  for (int i = 0; i < ry::kDiceCount; ++i) {
    if ((mask >> i) & 1u) out.push_back(i);
  }
  return out;
}

std::string dice_words(const ry::Dice& dice, std::uint16_t mask) {
  std::string out;
  for (int i = 0; i < ry::kDiceCount; ++i) {
    if (!((mask >> i) & 1u)) continue;
    if (!out.empty()) out += ' ';
    out += ry::to_text(dice[i]);
  }
  return out;
}

double rounded(double x) { return std::round(x * 100) / 100; }

// Pads to a width in characters, not bytes (box names have accents).
std::string padded(std::string_view text, std::size_t width) {
  std::size_t chars = 0;
  for (const char c : text) chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  std::string out(text);
  if (chars < width) out.append(width - chars, ' ');
  return out;
}

json totals_json(const sy::Totals& t) {
  return {{"chiffres", t.chiffres}, {"bonus", t.bonus}, {"total1", t.total1}, {"total2", t.total2},
          {"total3", t.total3},     {"total4", t.total4}, {"total5", t.total5}, {"grand", t.grand}};
}

json sheet_json(const ry::Sheet& sheet) {
  json boxes = json::object();
  for (int b = 0; b < ry::kBoxCount; ++b) {
    const auto& entry = sheet.boxes[b];
    boxes[std::string(ry::id(ry::box_at(b)))] = entry ? json(entry->score) : json(nullptr);
  }
  return boxes;
}

json option_json(const sy::Option& option, const ry::Dice& dice) {
  json out;
  switch (option.action) {
    case sy::Action::Roll:
      out = {{"action", "roll"}, {"keep", dice_list(option.keep)},
             {"keep_dice", dice_words(dice, option.keep)}};
      break;
    case sy::Action::Fill:
      out = {{"action", "fill"}, {"box", std::string(ry::id(option.box))}, {"points", option.points}};
      break;
    case sy::Action::Declare:
      out = {{"action", "declare"}, {"box", std::string(ry::id(option.box))},
             {"keep", dice_list(option.keep)}, {"keep_dice", dice_words(dice, option.keep)}};
      break;
  }
  out["expected"] = rounded(option.expected);
  out["std_error"] = rounded(option.std_error);
  return out;
}

}  // namespace

json score(const std::vector<std::string>& words, bool first_roll) {
  const ry::Dice dice = data::yams::parse_dice(words, "DICE");
  const ry::BoxScores scores = ry::score_all(dice, first_roll);
  json boxes = json::object();
  json choices = json::object();
  for (int b = 0; b < ry::kBoxCount; ++b) {
    const ry::Box box = ry::box_at(b);
    const std::string id(ry::id(box));
    boxes[id] = scores[b];
    if (scores[b] == 0) continue;
    const ry::Choice choice = ry::best_choice(dice, box, first_roll);
    json chosen = json::array();
    for (const int i : choice.dice) chosen.push_back(ry::to_text(dice[i]));
    choices[id] = {{"dice", chosen},          {"indices", choice.dice},
                   {"groups", choice.groups}, {"multiplier", choice.multiplier},
                   {"colour_harmony", choice.colour_harmony},
                   {"texture_harmony", choice.texture_harmony}};
  }
  return {{"dice", ry::to_text(dice)}, {"first_roll", first_roll}, {"boxes", boxes}, {"choices", choices}};
}

json check_record(const data::yams::GameRecord& record) {
  ry::State state = ry::initial_state(record.options, static_cast<int>(record.players.size()));
  json turns = json::array();
  for (const auto& recorded : record.moves) {
    const ry::Verdict verdict = ry::check(state, recorded.move);
    if (recorded.move.kind == ry::MoveKind::Fill) {
      json turn = {{"turn", recorded.turn + 1},
                   {"player", record.players[state.player]},
                   {"rolls", state.turn.rolls},
                   {"dice", ry::to_text(state.turn.dice)},
                   {"box", std::string(ry::id(recorded.move.box))},
                   {"score", verdict.score},
                   {"first_roll", verdict.first_roll}};
      if (verdict.sixth_success) {
        turn["sixth"] = {{"box", std::string(ry::id(*state.turn.declared))}, {"success", *verdict.sixth_success}};
      }
      turns.push_back(turn);
    }
    ry::play(state, recorded.move);
  }
  json players = json::array();
  int best = -1;
  bool tie = false;
  for (std::size_t p = 0; p < record.players.size(); ++p) {
    const sy::Totals totals = sy::totals(state.sheets[p]);
    players.push_back({{"name", record.players[p]},
                       {"sheet", sheet_json(state.sheets[p])},
                       {"filled", state.sheets[p].filled_count()},
                       {"totals", totals_json(totals)}});
    if (best < 0 || totals.grand > sy::totals(state.sheets[best]).grand) {
      best = static_cast<int>(p);
      tie = false;
    } else if (totals.grand == sy::totals(state.sheets[best]).grand) {
      tie = true;
    }
  }
  const bool over = ry::is_over(state);
  json out = {{"turns", turns}, {"players", players}, {"over", over}};
  out["winner"] = over && !tie ? json(record.players[best]) : json(nullptr);
  out["tie"] = over && tie;
  if (!over) {
    out["to_move"] = record.players[state.player];
    out["rolls_made"] = state.turn.rolls;
  }
  return out;
}

json advise(const ry::State& state, int samples, std::uint64_t seed) {
  if (samples < 1) throw data::InputError("--samples: must be at least 1");
  if (ry::is_over(state)) throw data::InputError("the game is over: every box is filled");
  scoring::Rng rng(seed);
  const sy::Advice advice = sy::advise(state, {samples}, rng);
  const ry::Dice& dice = state.turn.dice;
  json options = json::array();
  for (std::size_t i = 0; i < advice.options.size() && i < 10; ++i) {
    options.push_back(option_json(advice.options[i], dice));
  }
  json out = option_json(advice.best, dice);
  out["rolls_made"] = state.turn.rolls;
  out["sheet_value_now"] = rounded(sy::SheetModel(state.sheets[state.player], sy::default_box_values()).value());
  json worth = json::object();
  const sy::BoxValues& values = sy::default_box_values();
  for (int b = 0; b < ry::kBoxCount; ++b) {
    if (!state.sheets[state.player].filled(ry::box_at(b))) {
      worth[std::string(ry::id(ry::box_at(b)))] = rounded(values.mean[b]);
    }
  }
  out["worth"] = worth;
  out["samples"] = samples;
  out["seed"] = seed;
  out["alternatives"] = options;
  return out;
}

json play(const std::string& player, std::uint64_t seed, int players, int samples) {
  if (player != "greedy" && player != "advisor") {
    throw data::InputError("--player: expected greedy or advisor, not \"" + player + "\"");
  }
  if (players < 1 || players > 8) throw data::InputError("--players: expected 1 to 8");
  if (samples < 1) throw data::InputError("--samples: must be at least 1");
  scoring::Rng dice(seed);
  scoring::Rng own(seed ^ 0x9e3779b97f4a7c15ULL);
  ry::State state = ry::initial_state({}, players);
  std::vector<ry::Move> moves;
  sy::play_out(
      state, dice,
      [&](const ry::State& s) { return player == "greedy" ? sy::greedy(s) : sy::advise(s, {samples}, own).best; },
      [&](const ry::Move& move) { moves.push_back(move); });
  std::vector<std::string> names;
  for (int p = 0; p < players; ++p) names.push_back(players == 1 ? player : player + " " + std::to_string(p + 1));
  return data::yams::record_to_json({}, names, moves);
}

}  // namespace arbitre::app::yams

namespace arbitre::app::yams {

std::string demo_text(const data::yams::GameRecord& record) {
  namespace ry = referee::yams;
  namespace sy = scoring::yams;
  std::ostringstream out;
  out << "Le Yams impossible: replaying the bundled game (" << record.players.size()
      << " players) through the referee.\n\n";
  ry::State state = ry::initial_state(record.options, static_cast<int>(record.players.size()));
  int turn = 0;
  for (const auto& recorded : record.moves) {
    if (recorded.move.kind == ry::MoveKind::Fill) {
      const ry::Verdict verdict = ry::check(state, recorded.move);
      out << std::setw(3) << ++turn << ". " << std::left << std::setw(10) << record.players[state.player]
          << std::right << state.turn.rolls << " roll" << (state.turn.rolls > 1 ? "s " : "  ")
          << std::left << std::setw(38) << ry::to_text(state.turn.dice) << std::right << "-> "
          << ry::display_name(recorded.move.box) << " " << verdict.score;
      if (verdict.first_roll && verdict.score > 0 && ry::section(recorded.move.box) != ry::Section::Chiffres &&
          ry::section(recorded.move.box) != ry::Section::Difference) {
        out << " (first roll x3)";
      }
      if (verdict.sixth_success) out << (*verdict.sixth_success ? " (sixth roll made)" : " (sixth roll missed)");
      out << "\n";
    }
    ry::play(state, recorded.move);
  }
  out << "\n" << padded("Box", 18);
  for (const auto& name : record.players) out << std::setw(12) << name;
  out << "\n";
  for (int b = 0; b < ry::kBoxCount; ++b) {
    out << padded(ry::display_name(ry::box_at(b)), 18);
    for (const auto& sheet : state.sheets) {
      const auto& entry = sheet.boxes[b];
      out << std::setw(12) << (entry ? std::to_string(entry->score) : std::string("-"));
    }
    out << "\n";
  }
  const auto row = [&](const char* label, auto field) {
    out << padded(label, 18);
    for (const auto& sheet : state.sheets) out << std::setw(12) << field(sy::totals(sheet));
    out << "\n";
  };
  row("Bonus (330)", [](const sy::Totals& t) { return t.bonus; });
  row("Total 1 chiffres", [](const sy::Totals& t) { return t.total1; });
  row("Total 2 yams", [](const sy::Totals& t) { return t.total2; });
  row("Total 3 suites", [](const sy::Totals& t) { return t.total3; });
  row("Total 4 combin.", [](const sy::Totals& t) { return t.total4; });
  row("Total 5 differ.", [](const sy::Totals& t) { return t.total5; });
  row("GRAND TOTAL", [](const sy::Totals& t) { return t.grand; });
  return out.str();
}

}  // namespace arbitre::app::yams
