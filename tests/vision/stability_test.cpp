// The stability filter on scripted frame sequences (30 frames per second).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "vision/stability.h"

namespace v = arbitre::vision;
namespace ri = arbitre::referee::irma;
using v::SceneEvent;

namespace {

constexpr double kFrame = 1.0 / 30;

// An observation from a picture: rows of R O G W and '.', the top-left cell at 0,0 as the
// detector reports it.
v::PionObservation frame(const std::vector<std::string>& rows) {
  v::PionObservation o;
  for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
    for (int c = 0; c < static_cast<int>(rows[r].size()); ++c) {
      const char ch = rows[r][c];
      if (ch == '.') continue;
      const ri::Colour colour = ch == 'R' ? ri::Colour::Red : ch == 'O' ? ri::Colour::Orange
                                : ch == 'G' ? ri::Colour::Green : ri::Colour::White;
      o.pions.push_back({r, c, colour, 0, 0, 1});
    }
  }
  return o;
}

struct Script {
  v::StabilityFilter filter;
  double t = 0;
  std::vector<v::StabilityUpdate> events;  // every update other than None

  // Shows the same picture for `seconds`.
  void show(const std::vector<std::string>& rows, double seconds) {
    for (double end = t + seconds; t < end; t += kFrame) {
      const v::StabilityUpdate u = filter.feed(frame(rows), t);
      if (u.event != SceneEvent::None) events.push_back(u);
    }
  }
  std::vector<SceneEvent> kinds() const {
    std::vector<SceneEvent> out;
    for (const auto& e : events) out.push_back(e.event);
    return out;
  }
};

}  // namespace

TEST(Stability, OnePionPlacedIsAPlacementOnceTheSceneSettles) {
  Script s;
  s.show({}, 1.0);
  s.show({"R"}, 0.5);  // not long enough
  EXPECT_THAT(s.kinds(), ::testing::ElementsAre(SceneEvent::Unstable, SceneEvent::Stable, SceneEvent::Unstable));
  s.show({"R"}, 0.5);
  ASSERT_EQ(s.events.back().event, SceneEvent::Placement);
  EXPECT_EQ(s.events.back().colour, ri::Colour::Red);
  s.filter.accept(s.events.back().board);
  s.show({"R"}, 2.0);  // nothing more while the board stays
  EXPECT_EQ(s.events.size(), 4u);
}

TEST(Stability, PionPlacedAboveTheBoardIsFoundDespiteRenumbering) {
  Script s;
  s.filter.accept(v::board_view(frame({"RO", ".G"})));
  s.show({"RO", ".G"}, 1.0);
  s.show({"..W", "RO.", ".G."}, 1.0);  // the new pion takes row 0: every other row shifts
  ASSERT_EQ(s.events.back().event, SceneEvent::Placement);
  EXPECT_EQ(s.events.back().cell, (ri::Cell{-1, 2}));
  EXPECT_EQ(s.events.back().colour, ri::Colour::White);
}

TEST(Stability, HandPassingOverTheBoardIsNoMove) {
  Script s;
  s.filter.accept(v::board_view(frame({"RO", "GW"})));
  s.show({"RO", "GW"}, 1.0);
  // A hand hides pions and shows skin-coloured blobs for a third of a second, changing every frame.
  s.show({"R.", ".."}, 0.1);
  s.show({"RR", "O."}, 0.1);
  s.show({"..", "O."}, 0.1);
  s.show({"RO", "GW"}, 1.0);
  EXPECT_THAT(s.kinds(), ::testing::ElementsAre(SceneEvent::Unstable, SceneEvent::Stable, SceneEvent::Unstable,
                                                SceneEvent::Stable));
}

TEST(Stability, MovedRemovedRecolouredOrTwoNewPionsAreBoardChanges) {
  const auto settle_on = [](const std::vector<std::string>& after) {
    Script s;
    s.filter.accept(v::board_view(frame({"RO.", "G.."})));
    s.show({"RO.", "G.."}, 1.0);
    s.show(after, 1.0);
    return s.events.back();
  };
  const v::StabilityUpdate moved = settle_on({"RO.", "..G"});
  EXPECT_EQ(moved.event, SceneEvent::BoardChanged);
  EXPECT_EQ(moved.detail, "a pion moved");
  EXPECT_EQ(settle_on({"R..", "G.."}).event, SceneEvent::BoardChanged);
  EXPECT_THAT(settle_on({"R..", "G.."}).detail, ::testing::HasSubstr("1 pion removed"));
  EXPECT_THAT(settle_on({"RW.", "G.."}).detail, ::testing::HasSubstr("changed colour"));
  EXPECT_THAT(settle_on({"ROW", "G.W"}).detail, ::testing::HasSubstr("2 pions added"));
}

TEST(Stability, RefusedPlacementIsProposedAgainWhenThePionIsMoved) {
  Script s;
  s.filter.accept(v::board_view(frame({"RR"})));
  s.show({"RR"}, 1.0);
  s.show({"RRR"}, 1.0);  // the referee refuses this one: the app does not accept it
  ASSERT_EQ(s.events.back().event, SceneEvent::Placement);
  s.show({"RR", "..R"}, 1.0);  // the player moves the pion to another cell
  ASSERT_EQ(s.events.back().event, SceneEvent::Placement);
  EXPECT_EQ(s.events.back().cell, (ri::Cell{1, 2}));
}
