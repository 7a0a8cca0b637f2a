#include "app/session/yams_game.h"

#include <cassert>

#include "data/input_error.h"
#include "data/yams/record_json.h"
#include "scoring/yams/advisor.h"
#include "scoring/yams/sheet.h"

namespace arbitre::app::session {
namespace {

namespace sy = scoring::yams;
using data::store::EventKind;
using nlohmann::json;

std::string box_text(ry::Box box) {
  return std::string(ry::id(box));
}

std::string explain(ry::Reason reason) {
  switch (reason) {
    case ry::Reason::GameOver:
      return "every box of every sheet is filled";
    case ry::Reason::TooManyRolls:
      return "no roll is left in this turn: fill a box";
    case ry::Reason::KeepOnFirstRoll:
      return "the first roll of a turn throws all ten dice";
    case ry::Reason::KeptDieChanged:
      return "a die set aside shows another face";
    case ry::Reason::DieSwapped:
      return "a die changed colour or texture";
    case ry::Reason::DieUnkept:
      return "a die set aside stays aside (locked keep rule)";
    case ry::Reason::BadDice:
      return "not 5 red and 5 white dice, or textures not as the options say";
    case ry::Reason::NoRollYet:
      return "roll the dice first";
    case ry::Reason::DeclareAfterFifth:
      return "a sixth roll is declared after the fifth roll";
    case ry::Reason::NotDeclarable:
      return "only Yams, Suites and Combinaisons boxes may be declared";
    case ry::Reason::AlreadyDeclared:
      return "a box is already declared";
    case ry::Reason::BoxFilled:
      return "that box is already filled";
    case ry::Reason::DeclaredBoxOnly:
      return "after a declaration only the declared box may be filled";
    case ry::Reason::SixthRollPending:
      return "roll the declared sixth roll first";
    case ry::Reason::None:
      break;
  }
  return "";
}

int grand_total(const ry::State& state) {
  return sy::totals(state.sheets[static_cast<std::size_t>(state.player)]).grand;
}

}  // namespace

json dice_indices(std::uint16_t mask) {
  json out = json::array();
  for (int i = 0; i < ry::kDiceCount; ++i) {
    if ((mask >> i) & 1u) out.push_back(i);
  }
  return out;
}

YamsGame::YamsGame(const ry::Options& options, std::vector<std::string> players)
    : options_(options), players_(std::move(players)) {
  assert(!players_.empty());
  state_ = ry::initial_state(options_, static_cast<int>(players_.size()));
}

std::variant<YamsGame::Plan, std::string> YamsGame::plan(const Action& action) const {
  Plan plan;
  plan.action = action;
  ry::Move move;
  switch (action.kind) {
    case Action::Kind::Roll:
      move = ry::Move::roll(action.keep, action.dice);
      plan.kind = EventKind::Roll;
      plan.payload = {{"keep", dice_indices(action.keep)}, {"dice", ry::to_text(action.dice)}};
      if (action.seen != action.dice) plan.payload["seen"] = ry::to_text(action.seen);
      if (action.manual) plan.payload["manual"] = true;
      break;
    case Action::Kind::Declare:
      move = ry::Move::declare(action.box);
      plan.kind = EventKind::Declare;
      plan.payload = {{"box", box_text(action.box)}};
      break;
    case Action::Kind::Fill:
      move = ry::Move::fill(action.box);
      plan.kind = EventKind::Box;
      plan.payload = {{"box", box_text(action.box)}};
      if (action.automatic) plan.payload["auto"] = true;
      break;
    case Action::Kind::FixDie:
      return plan_fix(action);
    case Action::Kind::Undo:
      if (undo_.empty()) return std::string("nothing to undo");
      plan.kind = EventKind::Undo;
      plan.payload = {{"undid", undo_.back().what}};
      return plan;
    case Action::Kind::Redo:
      return plan_redo();
  }
  plan.payload["player"] = to_move();
  plan.verdict = ry::check(state_, move);
  if (!plan.verdict.legal()) {
    plan.payload["move"] = data::store::to_text(plan.kind);
    plan.kind = EventKind::Refusal;
    plan.reason = std::string(ry::to_string(plan.verdict.reason));
    plan.payload["reason"] = plan.reason;
    if (!plan.verdict.dice.empty()) plan.payload["dice_involved"] = plan.verdict.dice;
  }
  return plan;
}

std::variant<YamsGame::Plan, std::string> YamsGame::plan_fix(const Action& action) const {
  if (action.die < 0 || action.die >= ry::kDiceCount) {
    return "there is no die " + std::to_string(action.die) + " (dice are numbered 0 to 9)";
  }
  std::optional<std::size_t> roll;
  for (std::size_t i = moves_.size(); i-- > turn_begin_;) {
    if (moves_[i].kind == ry::MoveKind::Roll) {
      roll = i;
      break;
    }
  }
  if (!roll) return std::string("no roll in this turn to correct (undo the box first)");
  ry::Die value = action.value;
  const ry::Die before = moves_[*roll].dice[static_cast<std::size_t>(action.die)];
  if (options_.textures && value.texture == ry::Texture::None) value.texture = before.texture;
  if (value == before) {
    return "die " + std::to_string(action.die) + " already shows " + ry::to_text(before);
  }
  // The die shows `value` in the last roll and, when it was set aside, in every roll since the
  // one it was last rolled in: a kept die misread since it was set aside is corrected there too.
  const auto die_bit = static_cast<std::uint16_t>(1u << action.die);
  std::vector<std::pair<std::size_t, ry::Move>> fixed;
  for (std::size_t i = *roll + 1; i-- > turn_begin_;) {
    if (moves_[i].kind != ry::MoveKind::Roll) continue;
    ry::Move move = moves_[i];
    move.dice[static_cast<std::size_t>(action.die)] = value;
    fixed.emplace_back(i, move);
    if (!(moves_[i].keep & die_bit)) break;  // rolled here: its face before does not matter
  }
  ry::State state = state_;  // the sheets do not change within a turn
  state.turn = ry::Turn{};
  for (std::size_t i = turn_begin_; i < moves_.size(); ++i) {
    const auto it =
        std::find_if(fixed.begin(), fixed.end(), [&](const auto& f) { return f.first == i; });
    const ry::Move& move = it != fixed.end() ? it->second : moves_[i];
    const ry::Verdict verdict = ry::check(state, move);
    if (!verdict.legal()) {
      return "with die " + std::to_string(action.die) + " showing " + ry::to_text(value) +
             ", that roll would be refused: " + std::string(ry::to_string(verdict.reason)) + " (" +
             explain(verdict.reason) + ")";
    }
    ry::play(state, move);
  }
  Plan plan;
  plan.kind = EventKind::Correction;
  plan.action = action;
  plan.action.value = value;
  plan.payload = {
      {"player", to_move()}, {"fix", "die"}, {"die", action.die}, {"value", ry::to_text(value)}};
  plan.fixed_state = std::move(state);
  plan.fixed_moves = std::move(fixed);
  return plan;
}

std::variant<YamsGame::Plan, std::string> YamsGame::plan_redo() const {
  return session::plan_redo<Plan>(*this, redo_, to_move());
}

void YamsGame::push_undo(std::string what, const Plan& plan) {
  undo_.push_back({state_.turn,
                   state_.player,
                   std::nullopt,
                   moves_.size(),
                   turn_begin_,
                   seen_,
                   {},
                   std::move(what),
                   plan.action,
                   plan.kind});
  if (!redoing_) redo_.clear();
}

std::vector<Event> YamsGame::commit(Plan plan, std::int64_t seq, bool describe) {
  if (plan.redone) {
    // The undone action carried out again through its own plan; its first event (what it did)
    // is reported as the redo, what follows it (the sheet, the game over) as is.
    assert(!redo_.empty());
    const RedoEntry<Action> entry = std::move(redo_.back());
    redo_.pop_back();
    const std::size_t who = static_cast<std::size_t>(state_.player);
    plan.kind = *plan.redone;
    plan.redone.reset();
    redoing_ = true;
    std::vector<Event> events = commit(std::move(plan), seq, describe);
    redoing_ = false;
    events.front() = Redone{seq, players_[who], entry.what, sy::totals(state_.sheets[who]).grand};
    return events;
  }
  std::vector<Event> events;
  const Action& action = plan.action;
  const std::string player = to_move();
  if (plan.kind == EventKind::Refusal) {
    Refused refused;
    refused.seq = seq;
    refused.player = player;
    refused.yams = action.kind == Action::Kind::Roll      ? ry::Move::roll(action.keep, action.dice)
                   : action.kind == Action::Kind::Declare ? ry::Move::declare(action.box)
                                                          : ry::Move::fill(action.box);
    refused.reason = plan.reason;
    refused.dice = plan.verdict.dice;
    refused.message = explain(plan.verdict.reason);
    refused.score = grand_total(state_);
    events.emplace_back(std::move(refused));
    return events;
  }
  switch (action.kind) {
    case Action::Kind::Roll: {
      push_undo("roll " + std::to_string(state_.turn.rolls + 1), plan);
      const ry::Move move = ry::Move::roll(action.keep, action.dice);
      ry::play(state_, move);
      moves_.push_back(move);
      seen_ = action.seen;
      Rolled rolled;
      rolled.seq = seq;
      rolled.player = player;
      rolled.roll = state_.turn.rolls;
      rolled.dice = action.dice;
      rolled.keep = action.keep;
      rolled.manual = action.manual;
      if (const auto best = describe ? best_fill() : std::nullopt) {
        rolled.best = best->first;
        rolled.best_points = best->second;
      }
      events.emplace_back(std::move(rolled));
      break;
    }
    case Action::Kind::Declare:
      push_undo("declare " + box_text(action.box), plan);
      ry::play(state_, ry::Move::declare(action.box));
      moves_.push_back(ry::Move::declare(action.box));
      events.emplace_back(Declared{seq, player, action.box});
      break;
    case Action::Kind::Fill: {
      push_undo("box " + box_text(action.box), plan);
      undo_.back().filled = action.box;
      const std::size_t filler = static_cast<std::size_t>(state_.player);
      ry::play(state_, ry::Move::fill(action.box));
      moves_.push_back(ry::Move::fill(action.box));
      turn_begin_ = moves_.size();
      events.emplace_back(Filled{seq, player, action.box, plan.verdict.score,
                                 plan.verdict.first_roll, plan.verdict.sixth_success,
                                 action.automatic});
      const ry::Sheet& sheet = state_.sheets[filler];
      events.emplace_back(SheetUpdate{player, sheet, sy::totals(sheet), over() ? "" : to_move()});
      if (over()) events.emplace_back(GameOver{0, scores(), winner()});
      break;
    }
    case Action::Kind::FixDie: {
      push_undo("fix die " + std::to_string(action.die) + " " + ry::to_text(action.value), plan);
      for (const auto& [index, move] : plan.fixed_moves) {
        undo_.back().replaced.emplace_back(index, moves_[index]);
        moves_[index] = move;
      }
      state_ = std::move(*plan.fixed_state);
      Corrected corrected;
      corrected.seq = seq;
      corrected.player = player;
      corrected.fix = "die " + std::to_string(action.die) + " " + ry::to_text(action.value);
      corrected.effect = "die";
      corrected.score = grand_total(state_);
      events.emplace_back(std::move(corrected));
      break;
    }
    case Action::Kind::Undo: {
      assert(!undo_.empty());
      Snapshot snapshot = std::move(undo_.back());
      undo_.pop_back();
      state_.turn = snapshot.turn;
      state_.player = snapshot.player;
      if (snapshot.filled) {
        state_.sheets[static_cast<std::size_t>(snapshot.player)]
            .boxes[ry::index(*snapshot.filled)]
            .reset();
      }
      for (const auto& [index, move] : snapshot.replaced) moves_[index] = move;
      moves_.resize(snapshot.moves);
      turn_begin_ = snapshot.turn_begin;
      seen_ = snapshot.seen;
      redo_.push_back({snapshot.action, snapshot.kind, snapshot.what});
      events.emplace_back(Undone{seq, to_move(), snapshot.what, grand_total(state_)});
      break;
    }
    case Action::Kind::Redo:
      assert(false && "a redo plan carries the action redone");
      break;
  }
  return events;
}

std::optional<std::pair<ry::Box, int>> YamsGame::best_fill() const {
  if (over() || state_.turn.rolls == 0) return std::nullopt;
  const sy::SheetModel model(state_.sheets[static_cast<std::size_t>(state_.player)],
                             sy::default_box_values());
  std::optional<std::pair<ry::Box, int>> best;
  double best_value = 0;
  for (int b = 0; b < ry::kBoxCount; ++b) {
    const ry::Box box = ry::box_at(b);
    const ry::Verdict verdict = ry::check(state_, ry::Move::fill(box));
    if (!verdict.legal()) continue;
    const double value = model.value_after(box, ry::Entry{verdict.score, verdict.count});
    if (!best || value > best_value) {
      best = std::make_pair(box, verdict.score);
      best_value = value;
    }
  }
  return best;
}

std::vector<FinalScore> YamsGame::scores() const {
  std::vector<FinalScore> out;
  for (std::size_t p = 0; p < players_.size(); ++p) {
    out.push_back({players_[p], sy::totals(state_.sheets[p]).grand, std::nullopt});
  }
  return out;
}

std::optional<std::string> YamsGame::winner() const {
  const std::vector<FinalScore> all = scores();
  std::optional<std::size_t> best;
  bool tie = false;
  for (std::size_t p = 0; p < all.size(); ++p) {
    if (!best || all[p].score > all[*best].score) {
      best = p;
      tie = false;
    } else if (all[p].score == all[*best].score) {
      tie = true;
    }
  }
  if (!best || tie) return std::nullopt;
  return all[*best].player;
}

YamsGame::Action YamsGame::action_from_event(EventKind kind, const json& payload) {
  const std::string where = std::string(data::store::to_text(kind)) + " " + payload.dump();
  const auto fail = [&](const std::string& problem) -> Action {
    throw data::InputError(where + ": " + problem);
  };
  const auto box_of = [&](const char* key) -> ry::Box {
    const json value = payload.value(key, json());
    const auto box = value.is_string() ? ry::box_from_id(value.get<std::string>()) : std::nullopt;
    if (!box) fail(std::string("no box in ") + key);
    return *box;
  };
  const auto dice_of = [&](const char* key) -> ry::Dice {
    const json value = payload.value(key, json());
    if (!value.is_string()) fail(std::string("no dice in ") + key);
    // A refused roll's dice may be what made it refused (not five of each colour): each die
    // must be a die, the set need not be one.
    return data::yams::parse_dice(value.get<std::string>(), where + "." + key,
                                  kind != EventKind::Refusal);
  };
  if (!payload.is_object()) return fail("not an object");
  EventKind move = kind;
  if (kind == EventKind::Refusal) {
    const auto refused = data::store::event_kind_from_text(payload.value("move", ""));
    if (!refused) return fail("a refusal of what?");
    move = *refused;
  }
  switch (move) {
    case EventKind::Roll: {
      std::uint16_t keep = 0;
      const json kept = payload.value("keep", json::array());
      if (!kept.is_array()) return fail("keep is not a list of dice");
      for (const json& die : kept) {
        if (!die.is_number_integer() || die.get<int>() < 0 || die.get<int>() >= ry::kDiceCount) {
          return fail("keep names a die that does not exist");
        }
        keep = static_cast<std::uint16_t>(keep | (1u << die.get<int>()));
      }
      const ry::Dice dice = dice_of("dice");
      const ry::Dice seen = payload.contains("seen") ? dice_of("seen") : dice;
      return Action::roll(keep, dice, seen, payload.value("manual", false));
    }
    case EventKind::Declare:
      return Action::declare(box_of("box"));
    case EventKind::Box:
      return Action::fill(box_of("box"), payload.value("auto", false));
    case EventKind::Correction: {
      if (payload.value("fix", "") != "die") return fail("not a die correction");
      const json die = payload.value("die", json());
      if (!die.is_number_integer()) return fail("no die number");
      const json value = payload.value("value", json());
      std::string problem;
      const auto parsed =
          value.is_string() ? ry::die_from_text(value.get<std::string>(), &problem) : std::nullopt;
      if (!parsed) return fail("no die value: " + problem);
      return Action::fix_die(die.get<int>(), *parsed);
    }
    case EventKind::Undo:
      return Action::undo();
    case EventKind::Redo:
      return Action::redo();
    default:
      return fail("not an event of Le Yams impossible");
  }
}

json yams_sheet_json(const ry::Sheet& sheet) {
  json boxes = json::object();
  for (int b = 0; b < ry::kBoxCount; ++b) {
    const auto& entry = sheet.boxes[static_cast<std::size_t>(b)];
    boxes[box_text(ry::box_at(b))] = entry ? json(entry->score) : json(nullptr);
  }
  const sy::Totals t = sy::totals(sheet);
  return {{"boxes", boxes},
          {"totals",
           {{"chiffres", t.chiffres},
            {"bonus", t.bonus},
            {"total1", t.total1},
            {"total2", t.total2},
            {"total3", t.total3},
            {"total4", t.total4},
            {"total5", t.total5},
            {"grand", t.grand}}},
          {"filled", sheet.filled_count()}};
}

}  // namespace arbitre::app::session
