#include "referee/yams/yams.h"

#include <cassert>

namespace arbitre::referee::yams {
namespace {

constexpr std::uint16_t kAllDice = (1u << kDiceCount) - 1;

Verdict refuse(Reason reason, std::vector<int> dice = {}) {
  Verdict verdict;
  verdict.reason = reason;
  verdict.dice = std::move(dice);
  return verdict;
}

Verdict check_roll(const State& state, const Move& move) {
  const Turn& turn = state.turn;
  const int limit = turn.declared ? kSixthRoll : kMaxRolls;
  if (turn.rolls >= limit) return refuse(Reason::TooManyRolls);
  if (validate(move.dice) || has_textures(move.dice) != state.options.textures) {
    return refuse(Reason::BadDice);
  }
  if ((move.keep & ~kAllDice) != 0) return refuse(Reason::BadDice);
  if (turn.rolls == 0) {
    if (move.keep != 0) return refuse(Reason::KeepOnFirstRoll);
    return {};
  }
  std::vector<int> swapped;
  std::vector<int> changed;
  std::vector<int> unkept;
  for (int i = 0; i < kDiceCount; ++i) {
    const Die& before = turn.dice[i];
    const Die& after = move.dice[i];
    if (before.colour != after.colour || before.texture != after.texture) swapped.push_back(i);
    const bool kept = (move.keep >> i) & 1u;
    if (kept && after.value != before.value) changed.push_back(i);
    const bool was_aside = (turn.aside >> i) & 1u;
    if (state.options.keep_rule == KeepRule::Locked && was_aside && !kept) unkept.push_back(i);
  }
  if (!swapped.empty()) return refuse(Reason::DieSwapped, swapped);
  if (!changed.empty()) return refuse(Reason::KeptDieChanged, changed);
  if (!unkept.empty()) return refuse(Reason::DieUnkept, unkept);
  return {};
}

}  // namespace

std::string_view to_string(KeepRule rule) { return rule == KeepRule::Free ? "free" : "locked"; }

std::optional<KeepRule> keep_rule_from_string(std::string_view text) {
  if (text == "free") return KeepRule::Free;
  if (text == "locked") return KeepRule::Locked;
  return std::nullopt;
}

std::string_view to_string(Reason reason) {
  switch (reason) {
    case Reason::None: return "legal";
    case Reason::GameOver: return "game-over";
    case Reason::TooManyRolls: return "too-many-rolls";
    case Reason::KeepOnFirstRoll: return "keep-on-first-roll";
    case Reason::KeptDieChanged: return "kept-die-changed";
    case Reason::DieSwapped: return "die-swapped";
    case Reason::DieUnkept: return "die-unkept";
    case Reason::BadDice: return "bad-dice";
    case Reason::NoRollYet: return "no-roll-yet";
    case Reason::DeclareAfterFifth: return "declare-after-fifth-roll";
    case Reason::NotDeclarable: return "not-declarable";
    case Reason::AlreadyDeclared: return "already-declared";
    case Reason::BoxFilled: return "box-filled";
    case Reason::DeclaredBoxOnly: return "declared-box-only";
    case Reason::SixthRollPending: return "sixth-roll-pending";
  }
  return "?";
}

int Sheet::filled_count() const {
  int n = 0;
  for (const auto& entry : boxes) n += entry.has_value();
  return n;
}

State initial_state(const Options& options, int players) {
  assert(players >= 1);
  State state;
  state.options = options;
  state.sheets.resize(static_cast<std::size_t>(players));
  return state;
}

bool is_over(const State& state) {
  for (const Sheet& sheet : state.sheets) {
    if (!sheet.complete()) return false;
  }
  return true;
}

Verdict check(const State& state, const Move& move) {
  if (is_over(state)) return refuse(Reason::GameOver);
  const Turn& turn = state.turn;
  const Sheet& sheet = state.sheets[state.player];
  switch (move.kind) {
    case MoveKind::Roll:
      return check_roll(state, move);
    case MoveKind::Declare:
      if (turn.rolls == 0) return refuse(Reason::NoRollYet);
      if (turn.declared) return refuse(Reason::AlreadyDeclared);
      if (turn.rolls != kMaxRolls) return refuse(Reason::DeclareAfterFifth);
      if (!declarable(move.box)) return refuse(Reason::NotDeclarable);
      if (sheet.filled(move.box)) return refuse(Reason::BoxFilled);
      return {};
    case MoveKind::Fill: {
      if (turn.rolls == 0) return refuse(Reason::NoRollYet);
      if (sheet.filled(move.box)) return refuse(Reason::BoxFilled);
      Verdict verdict;
      if (turn.declared) {
        if (move.box != *turn.declared) return refuse(Reason::DeclaredBoxOnly);
        if (turn.rolls != kSixthRoll) return refuse(Reason::SixthRollPending);
        const bool made = qualifies(turn.dice, move.box);
        verdict.sixth_success = made;
        verdict.score = made ? base_value(move.box) : -base_value(move.box);
        return verdict;
      }
      verdict.first_roll = turn.rolls == 1;
      const Choice choice = best_choice(turn.dice, move.box, verdict.first_roll);
      verdict.score = choice.score;
      if (section(move.box) == Section::Chiffres) verdict.count = static_cast<int>(choice.dice.size());
      return verdict;
    }
  }
  return refuse(Reason::BadDice);
}

void play(State& state, const Move& move) {
  const Verdict verdict = check(state, move);
  assert(verdict.legal());
  Turn& turn = state.turn;
  switch (move.kind) {
    case MoveKind::Roll:
      turn.dice = move.dice;
      turn.aside = move.keep;
      ++turn.rolls;
      break;
    case MoveKind::Declare:
      turn.declared = move.box;
      break;
    case MoveKind::Fill:
      state.sheets[state.player].boxes[index(move.box)] = Entry{verdict.score, verdict.count};
      state.turn = Turn{};
      state.player = (state.player + 1) % static_cast<int>(state.sheets.size());
      break;
  }
}

State apply(State state, const Move& move) {
  play(state, move);
  return state;
}

bool can_roll(const State& state) {
  if (is_over(state)) return false;
  return state.turn.rolls < (state.turn.declared ? kSixthRoll : kMaxRolls);
}

std::vector<Move> legal_moves(const State& state) {
  std::vector<Move> moves;
  if (is_over(state) || state.turn.rolls == 0) return moves;
  for (int b = 0; b < kBoxCount; ++b) {
    for (const Move move : {Move::fill(box_at(b)), Move::declare(box_at(b))}) {
      if (check(state, move).legal()) moves.push_back(move);
    }
  }
  return moves;
}

}  // namespace arbitre::referee::yams
