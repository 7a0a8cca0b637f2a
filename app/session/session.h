// A live game at the table: observations (from a camera and a detector, or a script) go through
// the stability filter to the referee; commands (typed on stdin, or clicked in the GUI) correct,
// undo, redo, choose boxes. Every accepted move, refusal, correction, undo and redo is appended to the game
// store and committed before the event that reports it is emitted, so a game can always be
// resumed by replaying its log. Shared by the CLI (`arbitre watch`) and the GUI: nothing here
// prints; events go to the listener, synchronously, on the caller's thread.
//
// Commands (one line each, words separated by spaces):
//   undo                      undo the last move, refused try or correction
//   redo                      carry out again the last thing undone (a new move or correction
//                             clears what can be redone)
//   abandon                   end the game without a result (it cannot be resumed)
//   Irma:  fix cell R C COLOUR    the pion at R,C is COLOUR (red, orange, green, white), or
//                                 `empty`: there is none; re-refereed, undoable
//          blocked COLOUR         the drawn pion has no legal cell (the referee checks it)
//   Yams:  box ID                 fill a box (chiffre-7, brelan, ...); `box` alone: the
//                                 advisor's best box
//          declare ID             declare a sixth roll for a box, after the fifth roll
//          roll                   the dice as they lie now are a new roll (when the camera
//                                 cannot tell, e.g. every die kept)
//          fix die N VALUE        die N (0-9) of the last roll shows VALUE (7r, 10w, 3rg)
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "app/session/dice_stability.h"
#include "app/session/events.h"
#include "app/session/source.h"
#include "data/store/store.h"
#include "vision/stability.h"

namespace arbitre::app::session {

class IrmaGame;
class YamsGame;

struct SessionOptions {
  GameKind kind = GameKind::Irma;
  std::vector<std::string> players = {"player"};
  bool automatic = false;  // Yams: fill the advisor's best box when no roll is left
  ri::Options irma;
  ry::Options yams;
  vision::StabilityParams stability;
  DiceStabilityParams dice_stability;
  // Yams: a die that lies farther than this share of the image width from every die of the
  // same face before is a rolled die (when the positions are known).
  double roll_distance = 0.02;
};

class Session {
 public:
  virtual ~Session() = default;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // A new game, created in the store (no store: nothing is kept, for tests and previews).
  // Emits Started. Throws StoreError when the store refuses the game.
  static std::unique_ptr<Session> start(data::store::Store* store, const SessionOptions& options,
                                        Listener listener);
  // A running game of the store, its log replayed through the referee. Emits Started (with the
  // replay's figures). Throws data::InputError for a game that is over or whose log does not
  // replay. Options other than the stability parameters and `automatic` come from the store.
  static std::unique_ptr<Session> resume(data::store::Store& store, GameId game,
                                         const SessionOptions& options, Listener listener);

  // One step of the source: an observation, the camera lost or back, a command.
  void step(const SourceStep& step);
  // One command line (see above). Problems are CommandRefused events, never exceptions (a
  // store failure still throws).
  void command(const std::string& line);

  bool over() const { return abandoned_ || game_over(); }
  bool abandoned() const { return abandoned_; }
  GameId game() const { return game_; }
  virtual GameKind kind() const = 0;
  virtual const IrmaGame* irma() const { return nullptr; }
  virtual const YamsGame* yams() const { return nullptr; }
  virtual bool can_undo() const = 0;
  virtual bool can_redo() const = 0;

 protected:
  Session(data::store::Store* store, GameId game, Listener listener);

  virtual void observe(const SourceStep& step) = 0;
  // A game command; false when the command is not one of the game's.
  virtual bool game_command(const std::vector<std::string>& words, const std::string& line) = 0;
  virtual void undo(const std::string& line) = 0;
  virtual void redo(const std::string& line) = 0;
  virtual bool game_over() const = 0;
  virtual std::vector<data::store::PlayerResult> results() const = 0;
  virtual void replay(const std::vector<data::store::Event>& events) = 0;
  virtual Started summary() const = 0;
  virtual std::vector<FinalScore> scores() const = 0;
  virtual std::optional<std::string> winner() const = 0;
  // The game's commands, for the message about an unknown one.
  virtual std::string commands() const = 0;

  // Plans an action, stores its event (committed), commits it and emits what happened; a plan
  // that cannot be carried out is a CommandRefused for `line`. True when the move was accepted
  // (not a refusal).
  template <typename Game>
  bool act(Game& game, const typename Game::Action& action, const std::string& line);

  void emit(const Event& event);
  void refuse(const std::string& line, const std::string& message);

 private:
  // Finishes the game in the store before a GameOver is emitted.
  void emit_all(std::vector<Event> events);
  void finish_if_over();

  data::store::Store* store_;
  GameId game_;
  Listener listener_;
  bool abandoned_ = false;
  bool finished_ = false;
};

template <typename Game>
bool Session::act(Game& game, const typename Game::Action& action, const std::string& line) {
  auto planned = game.plan(action);
  if (const auto* problem = std::get_if<std::string>(&planned)) {
    refuse(line, *problem);
    return false;
  }
  auto& plan = std::get<typename Game::Plan>(planned);
  const bool accepted = plan.kind != data::store::EventKind::Refusal;
  const std::int64_t seq = store_ ? store_->append_event(game_, plan.kind, plan.payload) : 0;
  emit_all(game.commit(std::move(plan), seq));
  return accepted;
}

}  // namespace arbitre::app::session
