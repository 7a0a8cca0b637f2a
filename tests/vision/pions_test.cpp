// The pion reader on the committed labelled scenes (tests/data/pions, made by tools/scenegen
// with seed 77, never used for training or tuning). These are regression floors for the
// current detector, below the targets (see docs/benchmarks.md for the 200-image set).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/support/pion_scoring.h"
#include "vision/pions.h"

namespace fs = std::filesystem;

namespace {

struct Totals {
  int truth = 0, right = 0, phantoms = 0, matched = 0, wrong_colour = 0, boards = 0, boards_right = 0;
};

Totals read_committed_scenes() {
  Totals t;
  const fs::path dir = fs::path(ARBITRE_TEST_DATA) / "pions";
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    const auto truth = nlohmann::json::parse(std::ifstream(entry.path()));
    const auto seen = arbitre::vision::detect_pions_file((dir / truth["image"].get<std::string>()).string());
    const auto score = arbitre::testing::score_scene(truth, seen);
    t.truth += score.truth;
    t.right += score.right;
    t.phantoms += score.phantoms;
    t.matched += score.truth - score.missed;
    t.wrong_colour += score.wrong_colour;
    ++t.boards;
    t.boards_right += score.board_right();
  }
  return t;
}

}  // namespace

TEST(PionReader, CommittedScenesAboveTheRegressionFloor) {
  const Totals t = read_committed_scenes();
  ASSERT_EQ(t.boards, 8);
  EXPECT_GE(t.right, 0.95 * t.truth) << t.right << " of " << t.truth;
  EXPECT_LE(t.phantoms, 0.01 * t.truth);
  // Colour is read right for every pion that is found, bar one in a hundred.
  EXPECT_LE(t.wrong_colour, 0.01 * t.matched + 1);
}

TEST(PionReader, ReportsCellsFromZeroAndConfidences) {
  const fs::path image = fs::path(ARBITRE_TEST_DATA) / "pions" / "0003.jpg";  // 30 pions, all read
  const auto seen = arbitre::vision::detect_pions_file(image.string());
  ASSERT_FALSE(seen.pions.empty());
  int min_row = 99, min_col = 99;
  for (const auto& p : seen.pions) {
    min_row = std::min(min_row, p.row);
    min_col = std::min(min_col, p.col);
    EXPECT_GE(p.confidence, 0.5);
    EXPECT_LE(p.confidence, 1.0);
  }
  EXPECT_EQ(min_row, 0);
  EXPECT_EQ(min_col, 0);
  EXPECT_EQ(seen.width, 1280);
  EXPECT_EQ(seen.height, 720);
}
