// Following a turn of Le Yams impossible from the dice observations of a fixed camera: when a
// roll has settled (the rolled dice moved, then stayed the same for `settle_seconds`), which
// dice were set aside (the Kept zone), how many rolls were made, and whether a kept die
// changed between rolls (the referee is told). The input is the same DiceObservation stream
// app/session/dice_stability.h consumes; this tracker adds what a turn means.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "vision/observation.h"

namespace arbitre::vision::dice {

struct TurnParams {
  double settle_seconds = 0.8;  // a scene must stay the same this long to count
  int min_frames = 3;           // and for at least this many frames
  double move_pixels = 10;      // a die that moved less than this (image pixels) stayed put
  double rolled_share = 0.5;    // of the rolled dice that moved, to count a roll
  // A kept die read as another value is a change only when both settled readings are at least
  // this sure (the reader's confidence, averaged over the frames that agree): an unsure reading
  // tells nothing. A kept die gone from its place is a change only when all ten dice are seen
  // (with fewer, the reader may simply have missed it).
  double change_confidence = 0.5;
  // A settled scene's unread or unsure kept dice carry the values the last settled scene knew
  // for them (carry_known_values, with change_confidence as "sure" and move_pixels).
  bool carry_kept = true;
  // A scene is the same while every die stays put in its zone. Values may flicker from frame to
  // frame (a glint, a misread): a settled scene's dice carry the reading most of its frames
  // agree on (more than half of them; otherwise unread), and kept dice are compared only when
  // both settled readings are values, so a one-frame misread raises no alarm.
};

// What the table's physics says about two settled scenes of a turn, `before` (its dice with the
// values known for them; value 0: unknown) and `scene` (as read now). Returns `scene` with
// values filled in for dice the reader left unread or unsure (confidence below `sure`):
//  - kept dice do not change between rolls: a die in the kept zone where a die of its colour lay
//    in the kept zone before (within `pixels`) carries that die's value when the value was sure,
//    unless it is read sure as another value now (then the reading stands: the "kept die
//    changed" alarm);
//  - kept dice do not vanish: when `scene` shows fewer dice in all, and of a colour, than
//    `before` (at most as many fewer of the colour as in all), and exactly that many of before's
//    kept dice of that colour, all sure, are seen nowhere at their place, the reader missed
//    them: they are added back, at their place, with their values — unless the dice were
//    rolled (a tray die of `scene` is not where a tray die of its colour lay in `before`): a
//    player may take a kept die back to roll it, and a die missed in the tray would pass for it;
//  - setting dice aside does not change their values: the dice new in the kept zone came from
//    before's tray (those no longer at their place there); for each colour, the values of those
//    dice less the values read on the newcomers of that colour must all be one value for the
//    unread newcomers to take it (one red die left the tray as a 7: the unread red newcomer is
//    a 7); when they differ, which newcomer is which is ambiguous and the reading stands; and
//    only when both scenes show as many dice of that colour (a die missed in the tray would pass
//    for one that left it).
// A die filled in (or added back) takes the confidence of the reading it carries. Dice in the
// tray are never filled in: a roll may change them. `carried`, when given, receives the indices
// filled in (added dice come after the scene's own).
DiceObservation carry_known_values(const DiceObservation& before, const DiceObservation& scene,
                                   double sure, double pixels, std::vector<int>* carried = nullptr);

enum class TurnEventKind {
  Moving,       // the scene started changing (a roll, a hand)
  Roll,         // a roll has settled: `roll`, `rolled`, `kept`
  Kept,         // dice were set aside without a roll: `kept` is the whole kept set
  KeptChanged,  // a kept die changed or vanished between rolls: `detail`
};

struct TurnEvent {
  TurnEventKind kind = TurnEventKind::Moving;
  int roll = 0;                     // rolls made so far in this turn
  std::vector<DieSighting> rolled;  // Roll: the dice rolled (tray or table), as read
  std::vector<DieSighting> kept;    // the kept dice
  std::string detail;               // KeptChanged: what changed, e.g. "7r became 8r"
};

class DiceTurnTracker {
 public:
  explicit DiceTurnTracker(TurnParams params = {}) : params_(params) {}

  // One frame's observation at `seconds` (monotonic); the events it completes.
  std::vector<TurnEvent> feed(const DiceObservation& observation, double seconds);

  // A new turn: no roll made, nothing kept.
  void new_turn();

  int rolls() const { return rolls_; }
  // The dice of the last settled scene (rolled and kept), when every one of the ten was read
  // flat; nullopt otherwise.
  std::optional<std::vector<DieSighting>> final_dice() const;

 private:
  bool same_scene(const DiceObservation& a, const DiceObservation& b) const;
  // Adds `observation`'s readings to the current still run's tally.
  void tally(const DiceObservation& observation);
  // The run's first observation, each die with the reading most frames of the run agree on.
  DiceObservation consensus() const;

  TurnParams params_;
  std::optional<DiceObservation> previous_;  // the last frame
  std::optional<DiceObservation> accepted_;  // the last settled scene (its consensus)
  std::optional<DiceObservation> before_;    // the settled scene before it (what it carries)
  DiceObservation run_;                      // the first frame of the current still run
  // Per die of run_: how many frames read it as each reading (value * 2 + red; -1 cocked;
  // 0 unread), and the number of frames in the run.
  struct Vote {
    int key = 0, frames = 0;
    double confidence = 0;  // summed over those frames
  };
  std::vector<std::vector<Vote>> votes_;
  bool accepted_here_ = false;  // accepted_ is this run's: it goes on gathering its frames
  double since_ = 0;
  int frames_ = 0;
  bool reported_ = false;
  bool moving_ = false;
  int rolls_ = 0;
};

}  // namespace arbitre::vision::dice
