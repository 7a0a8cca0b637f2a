#include "app/session/camera_angle.h"

#include <algorithm>
#include <vector>

#include "vision/dice.h"

namespace arbitre::app::session {

void CameraAngle::add(double tilt_deg) {
  if (!(tilt_deg >= 0)) return;
  recent_.push_back(tilt_deg);
  while (recent_.size() > frames_) recent_.pop_front();
}

std::optional<double> CameraAngle::degrees() const {
  if (recent_.empty()) return std::nullopt;
  std::vector<double> sorted(recent_.begin(), recent_.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

bool CameraAngle::past_surest() const {
  if (recent_.size() < (frames_ + 1) / 2) return false;
  const auto angle = degrees();
  return angle && *angle > vision::kDiceSurestTiltDeg;
}

}  // namespace arbitre::app::session
