// The live session of Le jeu d'Irma: pion observations -> vision::StabilityFilter -> the
// referee (IrmaGame) -> the store.
//
// Each time the table settles, its pions (aligned to the game's frame by the filter) are
// compared with the current player's board, where a corrected cell shows what the correction
// says whatever the camera sees there:
//   - the same pions: "stable";
//   - one pion more: a placement, refereed: accepted, or refused with its reason (the pion is
//     then in hand: the game goes on when the table settles with that pion on a legal cell);
//   - anything else: "board changed" with the cells that differ, and no move.
#pragma once

#include <optional>

#include "app/session/irma_game.h"
#include "app/session/session.h"
#include "vision/stability.h"

namespace arbitre::app::session {

class IrmaSession : public Session {
 public:
  IrmaSession(data::store::Store* store, GameId game, const ri::Options& options,
              std::vector<std::string> players, const SessionOptions& session, Listener listener);

  GameKind kind() const override { return GameKind::Irma; }
  const IrmaGame* irma() const override { return &game_; }
  bool can_undo() const override { return game_.can_undo(); }
  bool can_redo() const override { return game_.can_redo(); }

 protected:
  void observe(const SourceStep& step) override;
  bool game_command(const std::vector<std::string>& words, const std::string& line) override;
  void undo(const std::string& line) override;
  void redo(const std::string& line) override;
  bool game_over() const override { return game_.over(); }
  std::vector<data::store::PlayerResult> results() const override;
  void replay(const std::vector<data::store::Event>& events) override;
  Started summary() const override;
  std::vector<FinalScore> scores() const override { return game_.scores(); }
  std::optional<std::string> winner() const override { return game_.winner(); }
  std::string commands() const override;

 private:
  void settled(const vision::BoardView& raw);
  // The current player's board as the camera should see it.
  vision::BoardView game_view() const;
  // Runs an action; afterwards the filter expects the game's board (or `seen` when given).
  bool run(const IrmaGame::Action& action, const std::string& line,
           const std::optional<vision::BoardView>& seen = std::nullopt);

  IrmaGame game_;
  vision::StabilityFilter filter_;
  bool settled_once_ = false;
  std::optional<vision::BoardView> refused_view_;  // the table when the last try was refused
};

}  // namespace arbitre::app::session
