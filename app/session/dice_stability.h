// Temporal stability of the dice, the counterpart of vision::StabilityFilter for Le Yams
// impossible: a stream of dice observations becomes "unstable" (dice rolling, a hand picking
// them up) and "settled" (the dice still for a while). A settled scene is readable when it shows
// exactly ten dice, five red and five white, every one read with enough confidence and none
// cocked; otherwise it is reported unreadable with the reason. Whether a settled scene is a new
// roll is the session's question (yams_session.h), not this filter's.
//
// When the observations give positions (a width above 0, as the camera's always do), stillness is
// told by where the dice lie, not by what is read on them: a frame is still when every die lies
// within `still_distance` of where it first lay in the period, give or take `flicker` dice missed,
// or seen in excess or elsewhere within `flicker_reach` of a die that lay there (the reader's
// flicker); a die seen further from them in two frames in a row came there, and a change within
// the flicker that lasts `stable_seconds` (a die that came and stayed, or went and stayed away)
// is the table's. Either way the new still period begins where the change began (the frames of
// the last 2 x `stable_seconds` are kept for that), so a change of one die settles as soon as a
// change of all ten.
//
// A webcam's noise makes a die near the reader's doubt read differently from frame to frame: on
// 100 rendered tables with noise of 3 grey levels added to each of six frames, 43 had a die whose
// reading changed, and of four sets of 100 such tables the filter by readings alone settled on
// 56-66 within three seconds (tests/bench/dice_still.cpp, docs/benchmarks.md). So the settled scene
// is the vote of the period's frames, die by die (`vote`): its colour and texture as most frames
// saw them; cocked when a third of the frames or more (or as many as read its likeliest face)
// called it cocked; else the face with the most confidence summed over the frames that read it,
// with the confidence (that sum less the other faces' sums) / frames that saw the die, and unsure
// (under `min_confidence`) when fewer than two frames in three read that face. A die seen in fewer
// than half the frames is left out. Without positions (a scripted scene without "xy"), stillness is
// the same dice, zones and faces for a while, and the scene is the last frame's.
//
// What the table's physics says fills in what the reader left unread or unsure
// (vision::dice::carry_known_values, with `min_confidence` as "sure"): a die in the kept area
// where a kept die lay at the last settled scene is that die, with its value; dice newly set
// aside carry the values they showed in the tray when those tell them apart. Each settled scene
// is completed from the last settled scene, then from the last readable one (only when the
// observations give positions).
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "vision/observation.h"

namespace arbitre::app::session {

struct DiceStabilityParams {
  double stable_seconds = 0.8;  // the scene must stay the same this long
  int min_frames = 3;           // and for at least this many frames
  double min_confidence = 0.5;  // a die read with less is unread
  bool carry_kept = true;       // fill in kept dice from the settled scenes before
  double same_place = 0.02;     // a kept die within this share of the image's width stayed put
  // With positions: a die within this share of the image's width of where it lay is still.
  double still_distance = 0.01;
  int flicker = 2;              // dice a still frame may miss, see in excess or see elsewhere
  double flicker_reach = 0.05;  // ... within this share of the width of a die that lay there
};

enum class DiceEvent {
  None,        // nothing new
  Unstable,    // the scene started changing
  Settled,     // settled and readable: `scene`
  Unreadable,  // settled but not readable: `reason`, `dice`
};

struct DiceUpdate {
  DiceEvent event = DiceEvent::None;
  vision::DiceObservation scene;
  std::string reason;        // Unreadable: "count", "cocked", "unread" or "colours"
  std::vector<int> dice;     // Unreadable: the dice concerned (indices in the scene)
  std::vector<int> carried;  // dice of `scene` whose values were carried, not read
};

class DiceStability {
 public:
  explicit DiceStability(DiceStabilityParams params = {}) : params_(params) {}

  // One frame's observation at `seconds` (monotonic).
  DiceUpdate feed(const vision::DiceObservation& observation, double seconds);
  // The period's frames voted die by die (positions known), as the scene reported when it settles;
  // `last` gives everything but the dice.
  vision::DiceObservation vote(const vision::DiceObservation& last) const;
  // Whether a scene is not readable: the reason ("cocked", "unread", "count" or "colours": ten
  // dice, not five of each colour) and the dice concerned (none for "count"; for "colours" the
  // dice of the colour seen more than five times).
  bool why_unreadable(const vision::DiceObservation& scene, std::string& reason,
                      std::vector<int>& dice) const;
  // An unreadable settled scene that the players completed by typing what the camera could not
  // read: what the physics carries from, as a settled readable scene would be.
  void typed(const vision::DiceObservation& scene);

 private:
  using Signature = std::vector<std::tuple<int, int, int, int, bool>>;
  Signature signature(const vision::DiceObservation& observation) const;
  // Whether the observation is still: the same dice as the period's (readings without positions,
  // places with them); with positions, a still frame's sightings are added to the period's.
  bool still_readings(const vision::DiceObservation& observation);
  bool still_places(const vision::DiceObservation& observation, double seconds);
  // Each die's track (-1: none within still_distance of where one first lay).
  std::vector<int> match(const vision::DiceObservation& observation) const;
  // A frame's sightings added to their tracks, or as new tracks (but the `skip`ped ones).
  void add(const vision::DiceObservation& observation, double seconds, long frame,
           const std::vector<int>& track_of, const std::vector<bool>& skip);
  // A new still period from `frame` on (the frames since are in `history_`): whether the frame
  // fed is not its first.
  bool begin(long frame);
  // The scene reported when the period has lasted long enough: completed, and judged readable.
  DiceUpdate settle(const vision::DiceObservation& observation);

  // A die through the still period: where it first lay, when and in how many frames it was seen,
  // and every frame's sighting of it until the scene is reported.
  struct Track {
    double x = 0, y = 0;
    long first_frame = 0, last_frame = 0;
    double first_seconds = 0, last_seconds = 0;
    int frames = 0;
    std::vector<vision::DieSighting> seen;
  };

  DiceStabilityParams params_;
  Signature current_;
  std::vector<Track> tracks_;
  double since_ = 0;
  int frames_ = 0;         // frames of the still period
  long frame_ = 0;         // frames fed
  long period_first_ = 0;  // the still period's first frame
  bool places_ = false;    // the period's frames give positions
  bool far_before_ = false;  // the last frame saw a die far from the period's dice
  // The last frames fed (positions known), for a period that began before the frame that tells it.
  struct Frame {
    vision::DiceObservation observation;
    double seconds = 0;
    long frame = 0;
  };
  std::deque<Frame> history_;
  bool unstable_ = false;
  bool reported_ = false;
  std::optional<vision::DiceObservation> last_;      // the last settled scene, completed
  std::optional<vision::DiceObservation> readable_;  // the last readable one
};

}  // namespace arbitre::app::session
