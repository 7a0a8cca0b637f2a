// Temporal stability for live use: turns a stream of pion observations into events. A
// placement is an event only when the scene has been stable for a while and differs from the
// accepted board by exactly one new pion; a hand over the table, a moved, recoloured or removed
// pion gives an "unstable" or "board changed" state, never a false move.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "referee/irma/irma.h"
#include "vision/observation.h"

namespace arbitre::vision {

using BoardView = std::map<referee::irma::Cell, referee::irma::Colour>;

// The cells an observation shows.
BoardView board_view(const PionObservation& observation);

struct StabilityParams {
  double stable_seconds = 0.8;  // the scene must stay the same this long
  int min_frames = 3;           // and for at least this many frames
};

enum class SceneEvent {
  None,          // nothing new
  Unstable,      // the scene started changing (a hand, a die rolling, a pion being placed)
  Stable,        // the scene settled back to the accepted board
  Placement,     // settled with exactly one new pion: `cell`, `colour`
  BoardChanged,  // settled different from the accepted board otherwise: `detail` says how
};

struct StabilityUpdate {
  SceneEvent event = SceneEvent::None;
  referee::irma::Cell cell;                // Placement: in the accepted board's frame
  referee::irma::Colour colour = referee::irma::Colour::Red;
  BoardView board;                         // the settled board (accepted board's frame)
  std::string detail;                      // BoardChanged: what differs
};

class StabilityFilter {
 public:
  explicit StabilityFilter(StabilityParams params = {}) : params_(params) {}

  // One frame's observation at `seconds` (monotonic).
  StabilityUpdate feed(const PionObservation& observation, double seconds);

  // The board the game has accepted (after the referee accepted a placement, or a correction).
  const BoardView& accepted() const { return accepted_; }
  void accept(const BoardView& board) { accepted_ = board; }

 private:
  StabilityParams params_;
  BoardView accepted_;
  BoardView current_;         // the scene as last seen, aligned to accepted_
  double since_ = 0;          // when current_ was first seen
  int frames_ = 0;            // frames it has been seen in
  bool unstable_ = false;     // an Unstable event was sent and no settle since
  bool reported_ = true;      // current_ has been reported since it settled
};

}  // namespace arbitre::vision
