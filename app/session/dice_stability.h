// Temporal stability of the dice, the counterpart of vision::StabilityFilter for Le Yams
// impossible: a stream of dice observations becomes "unstable" (dice rolling, a hand picking
// them up) and "settled" (the same dice, zones and faces for a while). A settled scene is
// readable when it shows exactly ten dice, five red and five white, every one read with enough
// confidence and none cocked; otherwise it is reported unreadable with the reason. Whether a
// settled scene is a new roll is the session's question (yams_session.h), not this filter's.
//
// What the table's physics says fills in what the reader left unread or unsure
// (vision::dice::carry_known_values, with `min_confidence` as "sure"): a die in the kept area
// where a kept die lay at the last settled scene is that die, with its value; dice newly set
// aside carry the values they showed in the tray when those tell them apart. Each settled scene
// is completed from the last settled scene, then from the last readable one (only when the
// observations give positions: a width above 0).
#pragma once

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

  DiceStabilityParams params_;
  Signature current_;
  double since_ = 0;
  int frames_ = 0;
  bool unstable_ = false;
  bool reported_ = false;
  std::optional<vision::DiceObservation> last_;      // the last settled scene, completed
  std::optional<vision::DiceObservation> readable_;  // the last readable one
};

}  // namespace arbitre::app::session
