// The dice reader with its networks as trained, in floats: the reader as it was until the
// fifty-fourth session (2026-12-07), before its networks' convolutions ran in 8 bits
// (Cnn::quicken). For the tests whose scene was chosen on that reader: the 8-bit networks answer
// within about a hundredth of the float ones, and some of those scenes' dice were chosen because
// an answer lay just past a rule's bound (docs/vision.md, "The networks in 8 bits").
#pragma once

#include "vision/dice/detector.h"

namespace arbitre::testing {

inline const vision::dice::Model& networks_as_trained() {
  static const vision::dice::Model model =
      vision::dice::with_quick_networks(vision::dice::default_model(), false);
  return model;
}

}  // namespace arbitre::testing
