#include "app/session/irma_session.h"

#include <charconv>

#include "app/session/game_log.h"
#include "scoring/irma/score.h"

namespace arbitre::app::session {
namespace {

namespace si = scoring::irma;

std::string describe(const BoardChanged& change) {
  if (change.added.size() == 1 && change.removed.size() == 1 && change.recoloured.empty()) {
    return "a pion moved";
  }
  std::string out;
  const auto part = [&](std::size_t n, const char* one, const char* many) {
    if (n == 0) return;
    if (!out.empty()) out += ", ";
    out += std::to_string(n) + " " + (n == 1 ? one : many);
  };
  part(change.added.size(), "pion added", "pions added");
  part(change.removed.size(), "pion removed", "pions removed");
  part(change.recoloured.size(), "pion changed colour", "pions changed colour");
  return out;
}

std::optional<int> parse_int(const std::string& word) {
  int value = 0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (error != std::errc() || end != word.data() + word.size()) return std::nullopt;
  return value;
}

}  // namespace

IrmaSession::IrmaSession(data::store::Store* store, GameId game, const ri::Options& options,
                         std::vector<std::string> players, const SessionOptions& session,
                         Listener listener)
    : Session(store, game, std::move(listener)),
      game_(options, std::move(players)),
      filter_(session.stability) {}

void IrmaSession::observe(const SourceStep& step) {
  if (!step.pions) return;
  const vision::StabilityUpdate update = filter_.feed(*step.pions, step.seconds);
  switch (update.event) {
    case vision::SceneEvent::None:
      return;
    case vision::SceneEvent::Unstable:
      if (settled_once_) emit(Unstable{});
      return;
    case vision::SceneEvent::Stable:
    case vision::SceneEvent::Placement:
    case vision::SceneEvent::BoardChanged:
      settled(update.board);
      return;
  }
}

vision::BoardView IrmaSession::game_view() const {
  vision::BoardView view;
  for (const auto& [cell, colour] : game_.player().state.board.pions()) view[cell] = colour;
  return view;
}

void IrmaSession::settled(const vision::BoardView& raw) {
  const bool first = !settled_once_;
  settled_once_ = true;
  const IrmaGame::Player& player = game_.player();
  vision::BoardView seen = raw;
  for (const ri::Cell cell : player.corrected) {
    seen.erase(cell);
    if (const auto colour = player.state.board.at(cell)) seen[cell] = *colour;
  }
  const vision::BoardView board = game_view();
  BoardChanged change;
  for (const auto& [cell, colour] : seen) {
    const auto it = board.find(cell);
    if (it == board.end()) {
      change.added.push_back(cell);
    } else if (it->second != colour) {
      change.recoloured.push_back(cell);
    }
  }
  for (const auto& [cell, colour] : board) {
    if (!seen.contains(cell)) change.removed.push_back(cell);
  }
  if (change.added.empty() && change.removed.empty() && change.recoloured.empty()) {
    refused_view_.reset();
    filter_.accept(raw);
    if (!first) emit(Stable{});
    return;
  }
  if (change.added.size() == 1 && change.removed.empty() && change.recoloured.empty()) {
    const ri::Cell cell = change.added.front();
    // The refused try, seen again (after a hand passed, or a resume): not a new try.
    if (refused_view_ == seen) return;
    const auto& moves = player.record.moves;
    if (player.in_hand && !moves.empty() && moves.back() == ri::Move::place(seen.at(cell), cell)) {
      return;
    }
    if (!run(IrmaGame::Action::place(seen.at(cell), cell), "", raw)) refused_view_ = seen;
    return;
  }
  change.detail = describe(change);
  emit(change);
}

bool IrmaSession::run(const IrmaGame::Action& action, const std::string& line,
                      const std::optional<vision::BoardView>& seen) {
  const std::size_t before = game_.current();
  const bool accepted = act(game_, action, line);
  if (accepted) {
    refused_view_.reset();
    filter_.accept(seen && game_.current() == before ? *seen : game_view());
  }
  return accepted;
}

bool IrmaSession::game_command(const std::vector<std::string>& words, const std::string& line) {
  const auto colour_word = [&](const std::string& word) -> std::optional<ri::Colour> {
    const auto colour = ri::colour_from_string(word);
    if (!colour) refuse(line, "unknown colour \"" + word + "\" (red, orange, green or white)");
    return colour;
  };
  if (words[0] == "fix") {
    if (words.size() != 5 || words[1] != "cell") {
      refuse(line, "expected: fix cell ROW COL COLOUR (or empty)");
      return true;
    }
    const auto row = parse_int(words[2]);
    const auto col = parse_int(words[3]);
    if (!row || !col) {
      refuse(line, "ROW and COL are whole numbers, as the events give them");
      return true;
    }
    if (words[4] == "empty" || words[4] == "none") {
      run(IrmaGame::Action::fix({*row, *col}, std::nullopt), line);
    } else if (const auto colour = colour_word(words[4])) {
      run(IrmaGame::Action::fix({*row, *col}, *colour), line);
    }
    return true;
  }
  if (words[0] == "blocked") {
    if (words.size() != 2) {
      refuse(line, "expected: blocked COLOUR");
    } else if (const auto colour = colour_word(words[1])) {
      run(IrmaGame::Action::block(*colour), line);
    }
    return true;
  }
  return false;
}

std::string IrmaSession::commands() const {
  return "fix cell ROW COL COLOUR, blocked COLOUR, undo, redo, abandon, quit";
}

void IrmaSession::undo(const std::string& line) { run(IrmaGame::Action::undo(), line); }

void IrmaSession::redo(const std::string& line) { run(IrmaGame::Action::redo(), line); }

std::vector<data::store::PlayerResult> IrmaSession::results() const {
  std::vector<data::store::PlayerResult> out;
  for (const IrmaGame::Player& player : game_.players()) {
    out.push_back({player.name, si::score(player.state), irma_sheet_json(player.state)});
  }
  return out;
}

void IrmaSession::replay(const std::vector<data::store::Event>& events) {
  replay_events(game_, events, game());
  filter_.accept(game_view());
}

Started IrmaSession::summary() const {
  Started started;
  started.game = game();
  started.kind = GameKind::Irma;
  for (const IrmaGame::Player& player : game_.players()) started.players.push_back(player.name);
  started.to_move = game_.player().name;
  started.score = si::score(game_.player().state);
  return started;
}

}  // namespace arbitre::app::session
