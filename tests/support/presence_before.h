// The dice reader's presence network as it was until the thirty-second session (2026-12-04),
// before it was trained again with the reader's mistakes (train_dice --presence-hard): the
// committed model with that network in place of its own (tests/data/dice/models). For the tests
// whose scene was chosen on that reader: with the network trained again, some of the dice their
// steps find are found before those steps (docs/vision.md, "The presence network").
#pragma once

#include <opencv2/core/persistence.hpp>
#include <string>

#include "tests/support/networks_as_trained.h"
#include "vision/common/cnn.h"
#include "vision/dice/detector.h"

namespace arbitre::testing {

inline const vision::dice::Model& presence_as_before() {
  static const vision::dice::Model model = [] {
    vision::dice::Model m = networks_as_trained();  // and its networks in floats, as then
    const cv::FileStorage storage(
        std::string(ARBITRE_TEST_DATA) + "/dice/models/presence-before.yml.gz",
        cv::FileStorage::READ);
    m.presence_cnn = vision::read_cnn(storage["presence_cnn"]);
    return m;
  }();
  return model;
}

// The clear network as it was until the thirty-third session (2026-12-05), before it was trained
// anew, wider, on more transparent dice (tests/data/dice/models/clear-before.yml.gz), with the
// presence network as before too: for the tests whose scene was chosen on that reader (the wider
// network reads some of their dice at a step before theirs).
inline const vision::dice::Model& presence_and_clear_as_before() {
  static const vision::dice::Model model = [] {
    vision::dice::Model m = presence_as_before();
    const cv::FileStorage storage(
        std::string(ARBITRE_TEST_DATA) + "/dice/models/clear-before.yml.gz", cv::FileStorage::READ);
    m.clear_cnn = vision::read_cnn(storage["clear_cnn"]);
    m.clear_cnn_2 = {};  // one clear network then (the pair since the fortieth session)
    return m;
  }();
  return model;
}

}  // namespace arbitre::testing
