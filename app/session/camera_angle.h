// The camera's angle from overhead as the dice reader tells it frame by frame
// (DiceObservation::camera_tilt_deg, within a few degrees), steadied: the median of the last
// `frames` frames that told it, so that one frame's error does not make an advice come and go.
// The Yams session reports its crossings of vision::kDiceSurestTiltDeg (CameraAdvice); the desktop
// app's live view draws its advice from the frames it shows.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>

namespace arbitre::app::session {

class CameraAngle {
 public:
  explicit CameraAngle(std::size_t frames = 9) : frames_(frames < 1 ? 1 : frames) {}
  // A frame's angle in degrees; below 0 (the reader could not tell): ignored.
  void add(double tilt_deg);
  // The camera may have moved (a new game or source): the angle is told afresh.
  void clear() { recent_.clear(); }
  // The median of the last frames that told it; nullopt before any did.
  std::optional<double> degrees() const;
  // Past vision::kDiceSurestTiltDeg, told by at least half the frames (a first frame's error
  // alone does not advise): the dice are read surer with the camera nearer overhead.
  bool past_surest() const;

 private:
  std::size_t frames_;
  std::deque<double> recent_;
};

}  // namespace arbitre::app::session
