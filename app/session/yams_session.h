// The live session of Le Yams impossible: dice observations -> DiceStability -> the referee
// (YamsGame) -> the store.
//
// A settled, readable scene (ten dice read, none cocked) is a new roll when a die outside the
// kept area is not one of the dice that lay there before: no die of the same colour and face,
// or (when positions are known) none within `roll_distance` of it. Dice moved to the kept area,
// a hand passing, the dice of the last turn still lying: no roll. The dice in the kept area are
// the dice set aside; the referee checks that they did not change. Physical dice have no names,
// so the session numbers them: at a turn's first roll the red dice are 0-4 and the white 5-9
// (left to right); afterwards a kept die keeps the number of the die it was, a rolled die takes a
// free number of its colour. A die corrected with `fix die` keeps its corrected face while it
// stays aside, whatever the camera reads on it.
//
// A settled scene that is not readable (a die cocked, unread, missed or invented) waits for the
// players: they reroll, or type what the camera could not read (`die N VALUE`, `die + VALUE`,
// `die - N`); once the scene as typed is readable it is taken as if it had settled so.
//
// A roll refused for a reason a misread die can cause (a die set aside shows another face, the
// dice are not five of each colour, ...) may be the camera's error: its dice are offered for
// typing the same way (reason "refused"), or `fix die N VALUE` right after it says what die N
// really shows; the dice are numbered again and the roll is refereed again.
//
// At the end of a turn the box comes as a command (`box chiffre-7`); with `automatic`, the
// advisor's best box is filled as soon as no roll is left (after the fifth roll, or a declared
// sixth). The sheet is emitted after each turn.
//
// The camera's angle as the reader tells it is followed over the frames (CameraAngle); when it
// goes past vision::kDiceSurestTiltDeg, or comes back within it, a CameraAdvice says so.
#pragma once

#include <array>
#include <optional>

#include "app/session/camera_angle.h"
#include "app/session/dice_stability.h"
#include "app/session/session.h"
#include "app/session/yams_game.h"

namespace arbitre::app::session {

class YamsSession : public Session {
 public:
  YamsSession(data::store::Store* store, GameId game, const ry::Options& options,
              std::vector<std::string> players, const SessionOptions& session, Listener listener);

  GameKind kind() const override { return GameKind::Yams; }
  const YamsGame* yams() const override { return &game_; }
  bool can_undo() const override { return game_.can_undo(); }
  bool can_redo() const override { return game_.can_redo(); }

  // The ten dice of a settled scene as a roll: the dice set aside and every die's number.
  struct Mapped {
    std::uint16_t keep = 0;
    ry::Dice dice{};  // as refereed: a die kept aside keeps its (corrected) face
    ry::Dice seen{};  // as read
    std::array<int, ry::kDiceCount> sighting{};  // each die's index in the scene (-1: none)
  };
  Mapped map_dice(const vision::DiceObservation& scene) const;
  // Is the scene a new roll after `before` (the dice as they lay)?
  bool rolled(const vision::DiceObservation& before, const vision::DiceObservation& scene) const;

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
  void settled(const vision::DiceObservation& scene);
  // The scene as a roll, refereed; refused, it is kept for `fix die` and offered for typing.
  void roll(const vision::DiceObservation& scene, bool manual, const std::string& line);
  void fill_best(const std::string& line);
  // `die N VALUE`, `die + VALUE [kept|tray]`, `die - N`: what the players type of an unreadable
  // settled scene; once it is readable it is taken as a settled scene.
  void type_die(const std::vector<std::string>& words, const std::string& line);
  // The dice the game knows, as a scene without positions (after a resume).
  vision::DiceObservation known_scene() const;

  YamsGame game_;
  DiceStability stability_;
  CameraAngle camera_angle_;     // told by every observation's dice
  bool camera_advised_ = false;  // the last CameraAdvice said `past`
  bool automatic_;
  double roll_distance_;
  bool settled_once_ = false;
  std::optional<vision::DiceObservation> scene_;  // the last readable settled scene
  // The unreadable settled scene (or the refused roll's: refereed again once typed), as typed so far.
  struct Pending {
    vision::DiceObservation scene;
    bool refused = false;
  };
  std::optional<Pending> pending_;
  // The roll the referee just refused (its scene, as mapped): `fix die` corrects it.
  struct Refusal {
    vision::DiceObservation scene;
    Mapped mapped;
    bool manual = false;
  };
  std::optional<Refusal> refused_;
  vision::DiceObservation reference_;             // the dice as they lay at the last settle
};

}  // namespace arbitre::app::session
