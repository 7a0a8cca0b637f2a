// The dice reader as it was until 2026-12-03: the committed model's first digit network alone,
// at the thresholds it was read with (a value's mean 0.5 and 0.3 over the next, the whole
// circle 0.9), its networks in floats as then. For tests whose scene was chosen on that reader
// and for the speed it is compared with (dice_bench's one_digit_network: against as_read, the
// 8-bit networks' saving counts in the difference too).
#pragma once

#include "tests/support/networks_as_trained.h"
#include "vision/dice/detector.h"

namespace arbitre::testing {

inline const vision::dice::Model& one_digit_network() {
  static const vision::dice::Model model = [] {
    vision::dice::Model m = networks_as_trained();  // its networks in floats, as then
    m.digit_cnn_2 = {};
    return m;
  }();
  return model;
}

inline void as_with_one_digit_network(vision::dice::Params& p) {
  p.cnn_confidence = 0.5;
  p.cnn_margin = 0.3;
  p.full_confidence = 0.9;
}

}  // namespace arbitre::testing
