#include "app/session/irma_game.h"

#include <cassert>
#include <numeric>

#include "data/input_error.h"
#include "data/irma/record_json.h"
#include "scoring/irma/score.h"

namespace arbitre::app::session {
namespace {

namespace si = scoring::irma;
using data::store::EventKind;
using nlohmann::json;

std::string text(ri::Colour colour) { return std::string(ri::to_string(colour)); }
std::string text(ri::Cell cell) { return referee::to_text(cell); }

json cells_json(const std::vector<ri::Cell>& cells) {
  json out = json::array();
  for (const ri::Cell cell : cells) out.push_back({cell.row, cell.col});
  return out;
}

// The referee's verdict on every move of a record and the state it leads to.
struct Replayed {
  ri::State state;
  std::vector<ri::Verdict> verdicts;
  std::optional<ri::RecordError> error;
};

Replayed replay_all(const ri::Record& record) {
  Replayed out;
  out.error = ri::replay(record, out.state, [&](const ri::Move&, const ri::Verdict& verdict,
                                               const ri::State&) { out.verdicts.push_back(verdict); });
  return out;
}

bool refused_try(const ri::Verdict& verdict) {
  return !verdict.legal() && verdict.reason != ri::Reason::GameOver;
}

// The cells a verdict names: the refusal's, or those of every series formed.
std::vector<ri::Cell> verdict_cells(const ri::Verdict& verdict) {
  if (!verdict.legal()) return verdict.cells;
  std::vector<ri::Cell> cells;
  for (const ri::Series& series : verdict.series) {
    cells.insert(cells.end(), series.cells.begin(), series.cells.end());
  }
  return cells;
}

int drawn(const ri::State& state) {
  return std::accumulate(state.drawn.begin(), state.drawn.end(), 0);
}

// A refusal in words, for people at the table.
std::string explain(ri::Reason reason) {
  switch (reason) {
    case ri::Reason::NotAdjacent: return "the pion must touch a pion already placed";
    case ri::Reason::Occupied: return "that cell already holds a pion";
    case ri::Reason::OutsideRectangle: return "the pions would no longer fit in a 5x7 rectangle";
    case ri::Reason::Carre: return "four in a row of one colour (a carre) is never allowed";
    case ri::Reason::RepeatedSeries: return "the same kind of series as the last one scored";
    case ri::Reason::WhiteNextToWhite: return "a white pion may not touch another white pion";
    case ri::Reason::GameOver: return "the game is over";
    case ri::Reason::NotBlocked: return "the pion has legal cells";
    case ri::Reason::None: break;
  }
  return "";
}

}  // namespace

IrmaGame::IrmaGame(const ri::Options& options, std::vector<std::string> players)
    : options_(options) {
  assert(!players.empty());
  for (std::string& name : players) {
    Player player;
    player.name = std::move(name);
    player.record.options = options;
    player.state = ri::initial_state(options);
    players_.push_back(std::move(player));
  }
}

bool IrmaGame::over() const {
  return current_ + 1 == players_.size() && ri::is_over(players_.back().state);
}

std::optional<ri::Colour> IrmaGame::expected_colour() const {
  const Player& p = player();
  if (p.in_hand) return p.in_hand;
  if (current_ == 0) return std::nullopt;
  const auto k = static_cast<std::size_t>(drawn(p.state));
  if (k < draws_.size()) return draws_[k];
  return std::nullopt;
}

std::variant<IrmaGame::Plan, std::string> IrmaGame::plan(const Action& action) const {
  switch (action.kind) {
    case Action::Kind::Place:
    case Action::Kind::Block:
      return plan_move(action);
    case Action::Kind::Fix:
      return plan_fix(action);
    case Action::Kind::Undo: {
      if (undo_.empty()) return std::string("nothing to undo");
      Plan plan;
      plan.kind = EventKind::Undo;
      plan.action = action;
      plan.payload = {{"player", players_[undo_.back().player].name}, {"undid", undo_.back().what}};
      return plan;
    }
    case Action::Kind::Redo:
      return plan_redo();
  }
  return std::string("unknown action");
}

std::variant<IrmaGame::Plan, std::string> IrmaGame::plan_redo() const {
  return session::plan_redo<Plan>(*this, redo_, player().name);
}

std::variant<IrmaGame::Plan, std::string> IrmaGame::plan_move(const Action& action) const {
  const Player& p = player();
  Plan plan;
  plan.action = action;
  const ri::Move move = action.kind == Action::Kind::Place
                            ? ri::Move::place(action.colour, action.cell)
                            : ri::Move::block_claim(action.colour);
  plan.payload = data::irma::move_to_json(move);
  plan.payload["player"] = p.name;

  // What the table cannot do, before the rules: another pion than the one in hand or drawn.
  if (!ri::is_over(p.state)) {
    const std::string colour = text(action.colour);
    if (p.in_hand && *p.in_hand != action.colour) {
      plan.reason = "pion-in-hand";
      plan.message = "the refused " + text(*p.in_hand) + " pion must be placed again, not a " +
                     colour + " one";
    } else if (const auto draw = expected_colour(); draw && *draw != action.colour) {
      plan.reason = "not-the-draw";
      plan.message = players_.front().name + "'s draw " + std::to_string(drawn(p.state) + 1) +
                     " was " + text(*draw) + ": place a " + text(*draw) + " pion, not a " +
                     colour + " one";
    } else if (p.state.remaining(action.colour) <= 0) {
      plan.reason = "bag-empty";
      plan.message = "no " + colour + " pion is left in the bag";
    }
  }
  if (!plan.reason.empty()) {
    plan.kind = EventKind::Refusal;
    plan.payload["reason"] = plan.reason;
    plan.payload["message"] = plan.message;
    return plan;
  }
  plan.verdict = ri::check(p.state, move);
  if (plan.verdict.legal()) {
    plan.kind = EventKind::Move;
  } else {
    plan.kind = EventKind::Refusal;
    plan.reason = std::string(ri::to_string(plan.verdict.reason));
    plan.payload["reason"] = plan.reason;
    plan.payload["cells"] = cells_json(plan.verdict.cells);
  }
  return plan;
}

std::variant<IrmaGame::Plan, std::string> IrmaGame::plan_fix(const Action& action) const {
  const Player& p = player();
  const std::string cell = text(action.cell);
  if (ri::is_over(p.state)) return p.name + "'s game is over";
  const Replayed old = replay_all(p.record);
  const std::vector<ri::Move>& moves = p.record.moves;
  const std::size_t n = moves.size();
  if (old.error || old.verdicts.size() != n) return "the game's record does not replay";

  // The pion at the cell: an accepted placement, or the refused pion still in hand there.
  std::optional<std::size_t> target;
  for (std::size_t i = n; i-- > 0;) {
    if (!moves[i].cell || *moves[i].cell != action.cell) continue;
    if (old.verdicts[i].legal() || (i + 1 == n && p.in_hand)) {
      target = i;
      break;
    }
  }
  std::vector<ri::Move> fixed = moves;
  std::size_t first = n, last = n;  // the pion's tries and its placement, in the old record
  std::string effect;
  if (target) {
    first = last = *target;
    while (first > 0 && refused_try(old.verdicts[first - 1])) --first;  // the same pion's tries
    if (action.empty) {
      fixed.erase(fixed.begin() + static_cast<std::ptrdiff_t>(first),
                  fixed.begin() + static_cast<std::ptrdiff_t>(last + 1));
      effect = "removed";
    } else {
      if (moves[last].colour == action.colour) {
        return "the pion at " + cell + " is already " + text(action.colour);
      }
      for (std::size_t i = first; i <= last; ++i) fixed[i].colour = action.colour;
      effect = "recoloured";
    }
  } else {
    if (action.empty) return "there is no pion at " + cell;
    fixed.push_back(ri::Move::place(action.colour, action.cell));
    effect = "added";
  }

  const ri::Record record{p.record.options, fixed};
  const Replayed now = replay_all(record);
  if (now.error) {
    return "with that correction, move " + std::to_string(now.error->move + 1) +
           " cannot have happened: " + now.error->message;
  }
  // Every other move keeps its verdict; the corrected one may change only when it is the last.
  for (std::size_t j = 0; j < fixed.size(); ++j) {
    std::optional<std::size_t> i = j;
    if (effect == "removed" && j >= first) i = j + (last - first + 1);
    if (effect == "added" && j == n) i.reset();
    if (!i || old.verdicts[*i].legal() == now.verdicts[j].legal()) continue;
    if (*i == last && j + 1 == fixed.size()) continue;
    const ri::Verdict& verdict = now.verdicts[j];
    return "with that correction, move " + std::to_string(*i + 1) + " (" + ri::to_text(fixed[j]) +
           ") would be " +
           (verdict.legal() ? std::string("accepted")
                            : "refused (" + std::string(ri::to_string(verdict.reason)) + ")") +
           ": undo the moves after it first";
  }
  if (current_ > 0) {
    const std::vector<ri::Colour> mine = ri::draws(record);
    for (std::size_t k = 0; k < std::min(mine.size(), draws_.size()); ++k) {
      if (mine[k] != draws_[k]) {
        return "with that correction, draw " + std::to_string(k + 1) + " would be " +
               text(mine[k]) + " but " + players_.front().name + " drew " + text(draws_[k]);
      }
    }
  }

  Plan plan;
  plan.kind = EventKind::Correction;
  plan.action = action;
  plan.effect = effect;
  plan.payload = {{"player", p.name},
                  {"fix", "cell"},
                  {"row", action.cell.row},
                  {"col", action.cell.col},
                  {"colour", action.empty ? std::string("empty") : text(action.colour)}};
  Player corrected = p;
  corrected.record = record;
  corrected.state = now.state;
  corrected.in_hand.reset();
  if (!fixed.empty() && refused_try(now.verdicts.back())) corrected.in_hand = fixed.back().colour;
  corrected.corrected.insert(action.cell);
  if (effect != "removed") {
    plan.fixed_verdict = now.verdicts[effect == "added" ? fixed.size() - 1 : last];
  }
  plan.fixed = std::move(corrected);
  return plan;
}

void IrmaGame::push_undo(Snapshot snapshot) {
  undo_.push_back(std::move(snapshot));
  if (!redoing_) redo_.clear();
}

void IrmaGame::push_undo(const std::string& what, const Plan& plan) {
  const Player& p = player();
  push_undo(Snapshot{current_, p.state, p.record.moves.size(), std::nullopt, p.in_hand, p.corrected,
                     draws_.size(), what, plan.action, plan.kind});
}

void IrmaGame::recompute_draws() { draws_ = ri::draws(players_.front().record); }

std::vector<Event> IrmaGame::commit(Plan plan, std::int64_t seq, bool describe) {
  if (plan.redone) {
    // The undone action carried out again through its own plan; its first event (what it did)
    // is reported as the redo, what follows it (a player's game over, the game over) as is.
    assert(!redo_.empty());
    const RedoEntry<Action> entry = std::move(redo_.back());
    redo_.pop_back();
    const std::size_t who = current_;
    plan.kind = *plan.redone;
    plan.redone.reset();
    redoing_ = true;
    std::vector<Event> events = commit(std::move(plan), seq, describe);
    redoing_ = false;
    const Player& p = players_[who];
    events.front() = Redone{seq, p.name, entry.what, si::score(p.state)};
    return events;
  }
  std::vector<Event> events;
  const Action& action = plan.action;
  switch (action.kind) {
    case Action::Kind::Place:
    case Action::Kind::Block: {
      Player& p = players_[current_];
      const ri::Move move = action.kind == Action::Kind::Place
                                ? ri::Move::place(action.colour, action.cell)
                                : ri::Move::block_claim(action.colour);
      if (plan.kind == EventKind::Move) {
        push_undo(ri::to_text(move), plan);
        p.record.moves.push_back(move);
        ri::play(p.state, move);
        p.in_hand.reset();
        if (current_ == 0) draws_.push_back(move.colour);
        Accepted accepted;
        accepted.seq = seq;
        accepted.player = p.name;
        accepted.number = static_cast<int>(p.record.moves.size());
        accepted.move = move;
        accepted.series = plan.verdict.series;
        accepted.marker = plan.verdict.marker;
        if (plan.verdict.marker) {
          if (const auto warning = si::stock_warning(p.state, *plan.verdict.marker)) {
            accepted.warning = warning->message;
          }
        }
        accepted.score = si::score(p.state);
        accepted.pions = p.state.board.size();
        events.emplace_back(std::move(accepted));
        advance(events);
        break;
      }
      Refused refused;
      refused.seq = seq;
      refused.player = p.name;
      refused.irma = move;
      refused.reason = plan.reason;
      if (plan.message.empty()) {  // the referee's refusal: a try in the record
        push_undo("refused " + ri::to_text(move), plan);
        p.record.moves.push_back(move);
        p.in_hand = move.colour;
        refused.cells = plan.verdict.cells;
        refused.message = explain(plan.verdict.reason);
      } else {
        if (action.kind == Action::Kind::Place) refused.cells = {action.cell};
        refused.message = plan.message;
      }
      refused.score = si::score(p.state);
      events.emplace_back(std::move(refused));
      break;
    }
    case Action::Kind::Fix: {
      Player& p = players_[current_];
      const std::string colour = action.empty ? "empty" : text(action.colour);
      push_undo(Snapshot{current_, p.state, p.record.moves.size(), p.record.moves, p.in_hand, p.corrected,
                         draws_.size(), "fix cell " + text(action.cell) + " " + colour, action, plan.kind});
      p = std::move(*plan.fixed);
      if (current_ == 0) recompute_draws();
      Corrected corrected;
      corrected.seq = seq;
      corrected.player = p.name;
      corrected.fix = "cell " + text(action.cell) + " " + colour;
      corrected.effect = plan.effect;
      if (plan.fixed_verdict) {
        corrected.legal = plan.fixed_verdict->legal();
        if (!corrected.legal) corrected.reason = std::string(ri::to_string(plan.fixed_verdict->reason));
        corrected.cells = verdict_cells(*plan.fixed_verdict);
      }
      corrected.score = si::score(p.state);
      events.emplace_back(std::move(corrected));
      advance(events);
      break;
    }
    case Action::Kind::Undo: {
      assert(!undo_.empty());
      Snapshot snapshot = std::move(undo_.back());
      undo_.pop_back();
      Player& p = players_[snapshot.player];
      p.state = std::move(snapshot.state);
      if (snapshot.moves) {
        p.record.moves = std::move(*snapshot.moves);
      } else {
        p.record.moves.resize(snapshot.record_size);
      }
      p.in_hand = snapshot.in_hand;
      p.corrected = std::move(snapshot.corrected);
      current_ = snapshot.player;
      if (current_ == 0) recompute_draws();
      redo_.push_back({snapshot.action, snapshot.kind, snapshot.what});
      events.emplace_back(Undone{seq, p.name, snapshot.what, si::score(p.state)});
      break;
    }
    case Action::Kind::Redo:
      assert(false && "a redo plan carries the action redone");
      break;
  }
  return events;
}

void IrmaGame::advance(std::vector<Event>& events) {
  while (ri::is_over(players_[current_].state)) {
    const Player& p = players_[current_];
    PlayerOver over;
    over.player = p.name;
    over.score = si::score(p.state);
    over.markers = si::markers_total(p.state);
    over.bonus = si::bonus(p.state);
    over.plus = si::has_plus(p.state);
    over.completed = p.state.status == ri::Status::Completed;
    over.blocked = p.state.status == ri::Status::Blocked;
    const bool last = current_ + 1 == players_.size();
    if (!last) {
      over.next = players_[current_ + 1].name;
      over.draws = static_cast<int>(draws_.size());
    }
    events.emplace_back(std::move(over));
    if (last) {
      events.emplace_back(GameOver{0, scores(), winner()});
      return;
    }
    ++current_;
  }
}

std::vector<FinalScore> IrmaGame::scores() const {
  std::vector<FinalScore> out;
  for (const Player& p : players_) out.push_back({p.name, si::score(p.state), si::has_plus(p.state)});
  return out;
}

std::optional<std::string> IrmaGame::winner() const {
  std::vector<si::PlayerResult> results;
  for (const Player& p : players_) {
    results.push_back({p.name, si::score(p.state), si::has_plus(p.state)});
  }
  const auto index = si::winner(results);
  if (!index) return std::nullopt;
  return players_[*index].name;
}

IrmaGame::Action IrmaGame::action_from_event(EventKind kind, const json& payload) {
  const auto fail = [&](const std::string& problem) -> IrmaGame::Action {
    throw data::InputError(std::string(data::store::to_text(kind)) + " " + payload.dump() + ": " +
                           problem);
  };
  const auto colour_of = [&](const json& value) -> std::optional<ri::Colour> {
    return value.is_string() ? ri::colour_from_string(value.get<std::string>()) : std::nullopt;
  };
  const auto integer = [&](const char* key) -> int {
    const auto it = payload.find(key);
    if (it == payload.end() || !it->is_number_integer()) fail(std::string("no integer ") + key);
    return it->get<int>();
  };
  if (!payload.is_object()) return fail("not an object");
  switch (kind) {
    case EventKind::Move:
    case EventKind::Refusal: {
      const auto colour = colour_of(payload.value("colour", json()));
      if (!colour) return fail("no colour");
      if (payload.value("blocked", false)) return Action::block(*colour);
      return Action::place(*colour, {integer("row"), integer("col")});
    }
    case EventKind::Correction: {
      if (payload.value("fix", "") != "cell") return fail("not a cell correction");
      const json colour = payload.value("colour", json());
      if (colour == "empty") return Action::fix({integer("row"), integer("col")}, std::nullopt);
      const auto c = colour_of(colour);
      if (!c) return fail("no colour");
      return Action::fix({integer("row"), integer("col")}, *c);
    }
    case EventKind::Undo:
      return Action::undo();
    case EventKind::Redo:
      return Action::redo();
    default:
      return fail("not an event of Le jeu d'Irma");
  }
}

json irma_totals_json(const ri::State& state) {
  return {{"score", si::score(state)},
          {"markers", si::markers_total(state)},
          {"bonus", si::bonus(state)},
          {"plus", si::has_plus(state)},
          {"completed", state.status == ri::Status::Completed},
          {"blocked", state.status == ri::Status::Blocked},
          {"pions", state.board.size()}};
}

json irma_sheet_json(const ri::State& state) {
  json pile = json::array();
  for (const ri::SeriesKind kind : state.pile) pile.push_back(ri::marker_value(kind));
  json out = irma_totals_json(state);
  out["pile"] = pile;
  return out;
}

}  // namespace arbitre::app::session
