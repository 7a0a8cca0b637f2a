// Frames from a camera, a video file, an image sequence or a network camera, read by the
// game's detector: the live ObservationSource. No OpenCV type in this header.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "app/session/source.h"
#include "data/store/store.h"
#include "vision/dice.h"
#include "vision/observation.h"

namespace arbitre::app::session {

struct CameraOptions {
  // The clock of a video file or an image sequence, in frames per second (their frames are
  // timed by their number, not by the wall clock, so that a recording settles the same however
  // fast it is read). 0: 30 for a video file, 10 for an image sequence.
  double fps = 0;
  std::optional<vision::ColourCalibration> calibration;  // Irma: decide colours by it
  vision::DiceZones zones;  // Yams: where the tray and the kept area are (none: all on the table)
  bool textures = false;    // Yams: the dice have textures (frosted / transparent)
  bool pictures = false;    // each observation carries its frame (SourceStep::picture), for a live view
};

// Opens `spec` as vision::parse_source reads it ("0", "video.mp4", "frames/%04d.jpg",
// "http://...") and reads its frames with the game's reader: the pion reader for Irma, the d10
// reader for Le Yams impossible. Throws data::InputError for a spec that cannot be a source.
std::unique_ptr<ObservationSource> open_camera(const std::string& spec, data::store::GameKind kind,
                                               const CameraOptions& options = {});

}  // namespace arbitre::app::session
