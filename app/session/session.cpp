#include "app/session/session.h"

#include <chrono>
#include <sstream>

#include "app/session/game_log.h"
#include "app/session/irma_session.h"
#include "app/session/yams_session.h"
#include "data/input_error.h"
#include "data/irma/record_json.h"

namespace arbitre::app::session {
namespace {

std::unique_ptr<Session> make(data::store::Store* store, GameId game, GameKind kind,
                              const ri::Options& irma, const ry::Options& yams,
                              std::vector<std::string> players, const SessionOptions& options,
                              Listener listener) {
  if (kind == GameKind::Irma) {
    return std::make_unique<IrmaSession>(store, game, irma, std::move(players), options,
                                         std::move(listener));
  }
  return std::make_unique<YamsSession>(store, game, yams, std::move(players), options,
                                       std::move(listener));
}

}  // namespace

Session::Session(data::store::Store* store, GameId game, Listener listener)
    : store_(store), game_(game), listener_(std::move(listener)) {}

std::unique_ptr<Session> Session::start(data::store::Store* store, const SessionOptions& options,
                                        Listener listener) {
  if (options.players.empty()) throw data::InputError("--players: a game needs a player");
  for (std::size_t i = 0; i < options.players.size(); ++i) {
    if (options.players[i].find_first_not_of(" \t") == std::string::npos) {
      throw data::InputError("--players: a player's name must not be blank");
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (options.players[j] == options.players[i]) {
        throw data::InputError("--players: " + options.players[i] + " is named twice");
      }
    }
  }
  nlohmann::json stored;
  if (options.kind == GameKind::Irma) {
    if (const auto error = ri::validate(options.irma)) {
      throw data::InputError("options." + error->field + ": " + error->message);
    }
    stored = data::irma::options_to_json(options.irma);
  } else {
    stored = yams_options_to_json(options.yams);
  }
  const GameId game = store ? store->create_game(options.kind, stored, options.players) : 0;
  auto session = make(store, game, options.kind, options.irma, options.yams, options.players,
                      options, std::move(listener));
  session->emit(session->summary());
  return session;
}

std::unique_ptr<Session> Session::resume(data::store::Store& store, GameId id,
                                         const SessionOptions& options, Listener listener) {
  const data::store::Game game = store.game(id);
  if (game.status != data::store::GameStatus::Running) {
    throw data::InputError(store.path() + ": game " + std::to_string(id) + " is " +
                           std::string(data::store::to_text(game.status)) +
                           ": only a running game can be resumed");
  }
  std::vector<std::string> players;
  for (const data::store::Seat& seat : game.seats) players.push_back(seat.name);
  const std::string where = store.path() + ": game " + std::to_string(id) + ": options";
  const ri::Options irma =
      game.kind == GameKind::Irma ? irma_options_from_json(game.options, where) : ri::Options{};
  const ry::Options yams =
      game.kind == GameKind::Yams ? yams_options_from_json(game.options, where) : ry::Options{};
  auto session = make(&store, id, game.kind, irma, yams, players, options, std::move(listener));
  const std::vector<data::store::Event> events = store.events(id);
  const auto start = std::chrono::steady_clock::now();
  session->replay(events);
  Started started = session->summary();
  started.resumed = true;
  started.replayed = static_cast<std::int64_t>(events.size());
  started.replay_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  session->emit(started);
  if (session->game_over()) {  // the last move was stored but the game not yet finished
    session->emit_all({GameOver{id, session->scores(), session->winner()}});
  }
  return session;
}

void Session::emit(const Event& event) {
  if (listener_) listener_(event);
}

void Session::refuse(const std::string& line, const std::string& message) {
  emit(CommandRefused{line, message});
}

void Session::emit_all(std::vector<Event> events) {
  for (Event& event : events) {
    if (auto* over = std::get_if<GameOver>(&event)) {
      over->game = game_;
      finish_if_over();
    }
  }
  for (const Event& event : events) emit(event);
}

void Session::finish_if_over() {
  if (finished_ || !game_over()) return;
  if (store_) store_->finish_game(game_, results());
  finished_ = true;
}

void Session::step(const SourceStep& step) {
  if (over()) return;
  switch (step.kind) {
    case SourceStep::Kind::Observation:
      observe(step);
      return;
    case SourceStep::Kind::Lost:
      emit(CameraLost{step.text});
      return;
    case SourceStep::Kind::Reconnected:
      emit(CameraReconnected{});
      return;
    case SourceStep::Kind::Command:
      command(step.text);
      return;
    case SourceStep::Kind::Waiting:
    case SourceStep::Kind::Ended:
      return;
  }
}

void Session::command(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  std::string word;
  while (in >> word) words.push_back(word);
  if (words.empty()) return;
  if (over()) {
    refuse(line, "the game is over");
    return;
  }
  if (words.size() == 1 && words[0] == "undo") {
    undo(line);
    return;
  }
  if (words.size() == 1 && words[0] == "redo") {
    redo(line);
    return;
  }
  if (words.size() == 1 && words[0] == "abandon") {
    if (store_) store_->abandon_game(game_);
    abandoned_ = true;
    return;
  }
  if (!game_command(words, line)) refuse(line, "unknown command; the commands are " + commands());
}

}  // namespace arbitre::app::session
