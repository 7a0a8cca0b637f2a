// Where a session's observations come from: a camera read by a detector (camera_source.h), or
// a scripted list (tests, demos: script.h). One interface, so the loop does not care.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "vision/observation.h"

namespace arbitre::app::session {

// A frame's pixels, for a live view: kept only when the camera is asked to
// (CameraOptions::pictures), so that the view shows the very frame that was read.
struct Picture {
  int width = 0;
  int height = 0;
  std::vector<unsigned char> rgb;  // width x height x 3, rows top to bottom
  double captured_ms = 0;          // steady clock, when the frame came from the source
};

struct SourceStep {
  enum class Kind {
    Observation,  // `pions` or `dice` holds what one frame shows, at `seconds`
    Waiting,      // no frame yet (a live source being opened or reopened)
    Lost,         // a live source stopped delivering; `text` says why
    Reconnected,  // it is back (the next steps carry its frames)
    Ended,        // no more frames (end of a file, a sequence or a script)
    Command,      // a command line (`text`), as typed on stdin; scripts interleave them
  };
  Kind kind = Kind::Observation;
  double seconds = 0;  // monotonic time of the frame
  std::optional<vision::PionObservation> pions;
  std::optional<vision::DiceObservation> dice;
  std::string text;
  std::shared_ptr<const Picture> picture;  // Observation: the frame, when the source keeps them
};

class ObservationSource {
 public:
  virtual ~ObservationSource() = default;
  // The next step; may block for about a frame's time (a camera).
  virtual SourceStep next() = 0;
};

// Plays a fixed list of steps, then Ended.
class ScriptedSource : public ObservationSource {
 public:
  explicit ScriptedSource(std::vector<SourceStep> steps) : steps_(std::move(steps)) {}
  SourceStep next() override {
    if (next_ >= steps_.size()) {
      SourceStep ended;
      ended.kind = SourceStep::Kind::Ended;
      return ended;
    }
    return steps_[next_++];
  }
  std::size_t size() const { return steps_.size(); }

 private:
  std::vector<SourceStep> steps_;
  std::size_t next_ = 0;
};

}  // namespace arbitre::app::session
