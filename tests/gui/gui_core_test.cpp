// The GUI's core without a window: the Runner plays a session on its worker thread, holds it at
// a chosen event, takes commands while held, and resumes a stored game; the overlay's geometry
// lays the game's cells on the picture.
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <thread>
#include <unistd.h>

#include <gtest/gtest.h>

#include "app/gui/overlay.h"
#include "app/gui/runner.h"
#include "app/session/demo.h"
#include "scoring/yams/sheet.h"

namespace arbitre::gui {
namespace {

namespace fs = std::filesystem;

// What a Runner reported, as the window would have received it.
struct Seen {
  std::mutex mutex;
  std::vector<s::Event> events;
  std::shared_ptr<const GameView> view;
  std::atomic<int> frames{0};
  std::atomic<bool> ended{false};
  std::string reason, error;

  RunnerCallbacks callbacks() {
    RunnerCallbacks c;
    c.on_event = [this](const s::Event& e, std::shared_ptr<const GameView> v) {
      std::lock_guard lock(mutex);
      events.push_back(e);
      view = std::move(v);
    };
    c.on_frame = [this](FrameSeen) { ++frames; };
    c.on_end = [this](std::string r, std::string e) {
      std::lock_guard lock(mutex);
      reason = std::move(r);
      error = std::move(e);
      ended = true;
    };
    return c;
  }
  template <typename E>
  int count() {
    std::lock_guard lock(mutex);
    int n = 0;
    for (const s::Event& e : events) n += std::holds_alternative<E>(e);
    return n;
  }
};

// Waits (at most 30 s) until `done` holds.
template <typename Done>
bool wait_for(Done done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

RunnerSetup yams_demo_setup(std::vector<s::FinalScore>& expected) {
  s::Demo demo = s::make_demo(s::GameKind::Yams);
  RunnerSetup setup;
  setup.options.kind = s::GameKind::Yams;
  setup.options.players = demo.players;
  setup.options.yams = demo.yams;
  setup.source = std::move(demo.source);
  expected = demo.expected;
  return setup;
}

std::vector<int> grand_totals(const GameView& view) {
  std::vector<int> totals;
  for (const auto& sheet : view.yams->sheets) totals.push_back(scoring::yams::totals(sheet).grand);
  return totals;
}

std::vector<int> scores(const std::vector<s::FinalScore>& expected) {
  std::vector<int> out;
  for (const auto& score : expected) out.push_back(score.score);
  return out;
}

class TempStore {
 public:
  TempStore() : path_(fs::temp_directory_path() / ("gui_core_test-" + std::to_string(::getpid()) + ".db")) {
    remove();
  }
  ~TempStore() { remove(); }
  std::string path() const { return path_.string(); }

 private:
  void remove() {
    std::error_code error;
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path_.string() + suffix, error);
  }
  fs::path path_;
};

TEST(GuiRunner, PlaysTheYamsDemoToTheEndWithTheDemosScores) {
  std::vector<s::FinalScore> expected;
  Seen seen;
  Runner runner(yams_demo_setup(expected), seen.callbacks());
  ASSERT_TRUE(wait_for([&] { return seen.ended.load(); }));
  EXPECT_EQ(seen.reason, "game-over") << seen.error;
  std::lock_guard lock(seen.mutex);
  ASSERT_TRUE(seen.view && seen.view->yams);
  EXPECT_TRUE(seen.view->over);
  EXPECT_EQ(grand_totals(*seen.view), scores(expected));
  EXPECT_TRUE(std::holds_alternative<s::GameOver>(seen.events.back()));
  EXPECT_GT(seen.frames.load(), 100);
}

TEST(GuiRunner, HoldsRightAfterTheChosenEventAndTakesCommandsWhileHeld) {
  std::vector<s::FinalScore> expected;
  Seen seen;
  RunnerSetup setup = yams_demo_setup(expected);
  setup.pause_when = [](const s::Event& e, const GameView&) { return std::holds_alternative<s::Rolled>(e); };
  Runner runner(std::move(setup), seen.callbacks());
  ASSERT_TRUE(wait_for([&] { return runner.idle(); }));
  ASSERT_EQ(seen.count<s::Rolled>(), 1);
  std::string dice_before;
  {
    std::lock_guard lock(seen.mutex);
    EXPECT_TRUE(std::holds_alternative<s::Rolled>(seen.events.back()));  // nothing after it
    dice_before = s::ry::to_text(seen.view->yams->turn.dice);
  }
  // Held: the source is not read, but a correction and its undo go through.
  const int frames = seen.frames;
  runner.send("fix die 0 " + std::string(dice_before.front() == '1' && dice_before[1] == ' ' ? "2" : "1") +
              dice_before.substr(dice_before.find_first_of("rw"), 1));
  ASSERT_TRUE(wait_for([&] { return seen.count<s::Corrected>() + seen.count<s::CommandRefused>() == 1; }));
  ASSERT_EQ(seen.count<s::Corrected>(), 1);
  {
    std::lock_guard lock(seen.mutex);
    EXPECT_NE(s::ry::to_text(seen.view->yams->turn.dice), dice_before);
  }
  runner.send("undo");
  ASSERT_TRUE(wait_for([&] { return seen.count<s::Undone>() == 1; }));
  {
    std::lock_guard lock(seen.mutex);
    EXPECT_EQ(s::ry::to_text(seen.view->yams->turn.dice), dice_before);
  }
  EXPECT_EQ(seen.frames, frames);
  runner.set_paused(false);
  ASSERT_TRUE(wait_for([&] { return seen.ended.load(); }));
  EXPECT_EQ(seen.reason, "game-over");
  std::lock_guard lock(seen.mutex);
  EXPECT_EQ(grand_totals(*seen.view), scores(expected));
}

TEST(GuiRunner, ResumesAStoppedGameFromTheStore) {
  TempStore store;
  std::vector<s::FinalScore> expected;
  Seen first;
  s::GameId game = 0;
  std::vector<int> totals;
  {
    RunnerSetup setup = yams_demo_setup(expected);
    setup.store_path = store.path();
    setup.pause_when = [](const s::Event& e, const GameView&) { return std::holds_alternative<s::SheetUpdate>(e); };
    Runner runner(std::move(setup), first.callbacks());
    ASSERT_TRUE(wait_for([&] { return runner.idle(); }));
    runner.request_stop();
    ASSERT_TRUE(wait_for([&] { return first.ended.load(); }));
    EXPECT_EQ(first.reason, "interrupted");
    std::lock_guard lock(first.mutex);
    game = std::get<s::Started>(first.events.front()).game;
    totals = grand_totals(*first.view);
  }
  Seen second;
  RunnerSetup setup;
  setup.options.kind = s::GameKind::Yams;
  setup.store_path = store.path();
  setup.resume = game;
  setup.source = std::make_unique<s::ScriptedSource>(std::vector<s::SourceStep>{});
  Runner runner(std::move(setup), second.callbacks());
  ASSERT_TRUE(wait_for([&] { return second.ended.load(); }));
  EXPECT_EQ(second.reason, "end-of-source") << second.error;
  std::lock_guard lock(second.mutex);
  const auto& started = std::get<s::Started>(second.events.front());
  EXPECT_TRUE(started.resumed);
  EXPECT_EQ(started.game, game);
  EXPECT_GT(started.replayed, 0);
  EXPECT_EQ(grand_totals(*second.view), totals);
  std::vector<std::string> players;
  for (const s::FinalScore& score : expected) players.push_back(score.player);
  EXPECT_EQ(second.view->players, players);
}

TEST(GuiOverlay, FitsTheLatticeAndLaysTheGamesCellsOnThePicture) {
  // A lattice seen tilted: x = 100 + 40 col + 5 row, y = 50 + 42 row - 3 col.
  const auto pixel = [](int row, int col) { return std::make_pair(100.0 + 40 * col + 5 * row, 50.0 + 42 * row - 3 * col); };
  std::vector<vision::PionSighting> seen;
  std::vector<std::pair<ri::Cell, ri::Colour>> board;
  const ri::Colour colours[] = {ri::Colour::Red, ri::Colour::Green, ri::Colour::White, ri::Colour::Orange};
  int i = 0;
  for (const auto& [row, col] : {std::pair{0, 0}, {0, 1}, {1, 1}, {2, 0}}) {
    const auto [x, y] = pixel(row, col);
    seen.push_back({row, col, colours[i], x, y, 0.9});
    board.push_back({{row - 3, col + 7}, colours[i]});  // the game's frame: shifted by (-3, +7)
    ++i;
  }
  const auto fit = fit_lattice(seen);
  ASSERT_TRUE(fit);
  const auto [x, y] = (*fit)(3, 4);
  EXPECT_NEAR(x, pixel(3, 4).first, 1e-6);
  EXPECT_NEAR(y, pixel(3, 4).second, 1e-6);
  const auto shift = align_to_game(seen, board);
  ASSERT_TRUE(shift);
  EXPECT_EQ(*shift, (ri::Cell{-3, 7}));
  seen.resize(2);  // two pions: no plane to fit
  EXPECT_FALSE(fit_lattice(seen));
}

}  // namespace
}  // namespace arbitre::gui
