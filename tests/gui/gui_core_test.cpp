// The GUI's core without a window: the Runner plays a session on its worker thread, holds it at
// a chosen event, takes commands while held, and resumes a stored game; the overlay's geometry
// lays the game's cells on the picture.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <thread>

#include "app/gui/overlay.h"
#include "app/gui/preferences.h"
#include "app/gui/runner.h"
#include "app/session/demo.h"
#include "app/session/game_log.h"
#include "data/store/store.h"
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

// The bundled Yams record played as scripted observations (fast; the rendered recording is the
// GUI self-test's and WatchCli's).
RunnerSetup yams_demo_setup(std::vector<s::FinalScore>& expected) {
  const std::string none = (std::filesystem::temp_directory_path() / "arbitre-no-recordings").string();
  setenv("ARBITRE_DEMO_RECORDINGS", none.c_str(), 1);
  s::Demo demo = s::make_demo(s::GameKind::Yams);
  unsetenv("ARBITRE_DEMO_RECORDINGS");
  RunnerSetup setup;
  setup.table = demo.table;
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
  std::string dice_fixed;
  {
    std::lock_guard lock(seen.mutex);
    dice_fixed = s::ry::to_text(seen.view->yams->turn.dice);
    EXPECT_TRUE(seen.view->can_undo);
    EXPECT_FALSE(seen.view->can_redo);
  }
  runner.send("undo");
  ASSERT_TRUE(wait_for([&] { return seen.count<s::Undone>() == 1; }));
  {
    std::lock_guard lock(seen.mutex);
    EXPECT_EQ(s::ry::to_text(seen.view->yams->turn.dice), dice_before);
    EXPECT_TRUE(seen.view->can_redo);  // the window enables Redo from this
  }
  // Redo carries the correction out again; undo it once more to play on as the demo was filmed.
  runner.send("redo");
  ASSERT_TRUE(wait_for([&] { return seen.count<s::Redone>() == 1; }));
  {
    std::lock_guard lock(seen.mutex);
    EXPECT_EQ(s::ry::to_text(seen.view->yams->turn.dice), dice_fixed);
    EXPECT_FALSE(seen.view->can_redo);
  }
  runner.send("undo");
  ASSERT_TRUE(wait_for([&] { return seen.count<s::Undone>() == 2; }));
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

TEST(GuiPreferences, SavedAndReadBackAndTheirVariantsReachTheNextGame) {
  Preferences prefs;
  prefs.language = "de";
  prefs.source = "url";
  prefs.source_spec = "http://192.168.1.20:8080/video";
  prefs.appearance = "dark";
  prefs.irma.bag = {10, 14, 16, 12};
  prefs.irma.marker_stock = {20, 12, 11};
  prefs.irma.repeat_rule = s::ri::RepeatRule::PreviousTurn;
  prefs.yams.keep_rule = s::ry::KeepRule::Locked;
  prefs.yams.textures = true;
  const auto entries = prefs.entries();
  EXPECT_EQ(entries.at("irma/repeat_rule"), "previous-turn");
  EXPECT_EQ(entries.at("yams/keep_rule"), "locked");
  std::vector<std::string> problems;
  EXPECT_EQ(Preferences::from_entries(entries, &problems), prefs);
  EXPECT_TRUE(problems.empty());

  // A hand-edited file: what cannot be read keeps its default and is reported.
  auto edited = entries;
  edited["yams/keep_rule"] = "sticky";
  edited["irma/bag_white"] = "many";
  edited["language"] = "it";
  const Preferences read = Preferences::from_entries(edited, &problems);
  EXPECT_EQ(problems.size(), 3u);
  EXPECT_EQ(read.yams.keep_rule, s::ry::KeepRule::Free);
  EXPECT_EQ(read.irma.bag[3], 10);  // the default white count; red stays 10 as saved
  EXPECT_EQ(read.irma.bag[0], 10);
  EXPECT_EQ(read.language, "");
  // Options the referee refuses (an empty bag) fall back to the defaults whole.
  problems.clear();
  auto empty_bag = entries;
  for (const char* colour : {"red", "orange", "green", "white"}) empty_bag[std::string("irma/bag_") + colour] = "0";
  EXPECT_EQ(Preferences::from_entries(empty_bag, &problems).irma, s::ri::Options{});
  EXPECT_EQ(problems.size(), 1u);

  // The next game starts with the variants: the store keeps them as the game's options.
  for (const s::GameKind kind : {s::GameKind::Irma, s::GameKind::Yams}) {
    TempStore store;
    Seen seen;
    RunnerSetup setup;
    setup.options.kind = kind;
    prefs.apply(setup.options);
    setup.store_path = store.path();
    setup.source = std::make_unique<s::ScriptedSource>(std::vector<s::SourceStep>{});
    {
      Runner runner(std::move(setup), seen.callbacks());
      ASSERT_TRUE(wait_for([&] { return seen.ended.load(); }));
    }
    auto db = data::store::Store::open(store.path());
    const auto games = db.list_games();
    ASSERT_EQ(games.size(), 1u);
    const nlohmann::json& options = games[0].options;
    if (kind == s::GameKind::Irma) {
      EXPECT_EQ(options["repeat_rule"], "previous-turn");
      EXPECT_EQ(options["bag"]["white"], 12);
      EXPECT_EQ(options["markers"]["1"], 20);
      const s::ReplayedGame replayed = s::replay_game(db, games[0].id);
      EXPECT_EQ(replayed.irma->options(), prefs.irma);
    } else {
      EXPECT_EQ(options["keep_rule"], "locked");
      EXPECT_EQ(options["textures"], true);
      const s::ReplayedGame replayed = s::replay_game(db, games[0].id);
      EXPECT_EQ(replayed.yams->state().options, prefs.yams);
    }
  }
}

TEST(GuiPreferences, ThePanelsColoursReadInTheLightAndTheDarkAppearance) {
  EXPECT_FALSE(dark_appearance("system", false));
  EXPECT_TRUE(dark_appearance("system", true));
  EXPECT_TRUE(dark_appearance("dark", false));
  EXPECT_FALSE(dark_appearance("light", true));
  for (const bool dark : {false, true}) {
    SCOPED_TRACE(dark ? "dark" : "light");
    const Palette p = palette(dark);
    EXPECT_GE(contrast(p.text, p.background), 4.5);
    EXPECT_GE(contrast(p.text, p.total_row), 4.5);
    EXPECT_GE(contrast(p.text, p.current_column), 4.5);
    EXPECT_GE(contrast(p.dim_text, p.background), 3.0);
    EXPECT_GE(contrast(p.dim_text, p.current_column), 3.0);
    EXPECT_GE(contrast(p.highlight, p.background), 3.0);
  }
  EXPECT_GT(contrast(palette(false).background, palette(true).background), 10.0);  // really dark
}

TEST(GuiOverlay, AClickOnTheLiveViewFindsThePionThroughTheViewsScaling) {
  // A 1280x720 frame in a 1000x600 view: scaled by 0.78125, letterboxed 19 pixels top and bottom.
  const ViewFit fit = fit_view(1000, 600, 1280, 720);
  EXPECT_DOUBLE_EQ(fit.scale, 0.78125);
  EXPECT_EQ(fit.w, 1000);
  EXPECT_EQ(fit.h, 562);
  EXPECT_EQ(fit.ox, 0);
  EXPECT_EQ(fit.oy, 19);
  EXPECT_FALSE(fit.inside(500, 10));  // in the black band above the picture
  EXPECT_TRUE(fit.inside(500, 300));
  // Taller than wide: the bands are at the sides.
  const ViewFit narrow = fit_view(400, 600, 640, 480);
  EXPECT_DOUBLE_EQ(narrow.scale, 0.625);
  EXPECT_EQ(narrow.ox, 0);
  EXPECT_EQ(narrow.oy, 150);

  // Three pions 60 pixels apart (pitch 60: drawn with a radius of 25.2 frame pixels), the
  // game's frame shifted by (+2, -1) from the detector's.
  vision::PionObservation seen;
  seen.width = 1280;
  seen.height = 720;
  seen.pitch = 60;
  seen.pions = {{0, 0, ri::Colour::Red, 600, 300, 0.9},
                {0, 1, ri::Colour::Green, 660, 300, 0.9},
                {1, 1, ri::Colour::White, 660, 360, 0.9}};
  const std::vector<std::pair<ri::Cell, ri::Colour>> board = {
      {{2, -1}, ri::Colour::Red}, {{2, 0}, ri::Colour::Green}, {{3, 0}, ri::Colour::White}};
  for (std::size_t i = 0; i < seen.pions.size(); ++i) {
    // Where the view draws pion i, a few view pixels off its centre, back to the frame.
    const auto [vx, vy] = fit.to_view(seen.pions[i].x, seen.pions[i].y);
    const auto [x, y] = fit.to_frame(vx + 7, vy - 5);
    EXPECT_NEAR(x, seen.pions[i].x + 7 / fit.scale, 1.0 / fit.scale);
    const auto hit = pion_at(seen, x, y);
    ASSERT_EQ(hit, i);
    EXPECT_EQ(game_cell(seen, *hit, board), (ri::Cell{seen.pions[i].row + 2, seen.pions[i].col - 1}));
  }
  // Between two pions, farther than the radius from both: nothing; the nearer one when within.
  EXPECT_FALSE(pion_at(seen, 630, 300));
  EXPECT_EQ(pion_at(seen, 638, 300), 1u);
  // A tiny view: the drawn radius (a minimum in view pixels, given in frame pixels) wins.
  EXPECT_FALSE(pion_at(seen, 632, 300));
  EXPECT_EQ(pion_at(seen, 632, 300, 40), 1u);
  // No game pion to align to: no cell.
  EXPECT_FALSE(game_cell(seen, 0, {}));
  EXPECT_FALSE(game_cell(seen, 7, board));
}

TEST(GuiOverlay, AClickOnADieFindsItsNumberInTheGame) {
  vision::DiceObservation seen;
  seen.width = 1280;
  seen.height = 720;
  const auto sighting = [](int value, ry::DieColour colour, double x, double y, vision::DieZone zone) {
    vision::DieSighting d;
    d.value = value;
    d.colour = colour;
    d.x = x;
    d.y = y;
    d.zone = zone;
    d.confidence = 1;
    return d;
  };
  seen.dice = {sighting(7, ry::DieColour::Red, 200, 200, vision::DieZone::Tray),
               sighting(7, ry::DieColour::Red, 300, 650, vision::DieZone::Kept),
               sighting(4, ry::DieColour::White, 400, 200, vision::DieZone::Tray)};
  EXPECT_EQ(die_at(seen, 220, 190, 56), 0u);
  EXPECT_FALSE(die_at(seen, 240, 200, 56));  // 40 pixels right of a 56-pixel die
  EXPECT_EQ(die_at(seen, 310, 640, 56), 1u);

  // The roll as the camera read it: dice 0 and 1 both 7 red, die 1 set aside; die 7 a 4 white.
  ry::Dice roll{};
  for (int i = 0; i < ry::kDiceCount; ++i) {
    roll[static_cast<std::size_t>(i)] = {static_cast<std::uint8_t>(1 + i), i < 5 ? ry::DieColour::Red : ry::DieColour::White,
                                         ry::Texture::None};
  }
  roll[0].value = 7;
  roll[1].value = 7;
  roll[7].value = 4;
  const std::uint16_t aside = 1u << 1;
  EXPECT_EQ(die_number(seen.dice[0], roll, aside), 0);  // the 7 red on the tray
  EXPECT_EQ(die_number(seen.dice[1], roll, aside), 1);  // the 7 red set aside
  EXPECT_EQ(die_number(seen.dice[2], roll, aside), 7);
  EXPECT_EQ(die_number(seen.dice[0], roll, aside, 1u << 0), 1);  // die 0 taken: the other 7 red
  // A die moved to the kept area after the roll is still the die it was.
  EXPECT_EQ(die_number(seen.dice[1], roll, 0), 0);
  // A face no die of the roll shows: the dice moved since.
  EXPECT_FALSE(die_number(sighting(8, ry::DieColour::Red, 0, 0, vision::DieZone::Tray), roll, aside));
}

}  // namespace
}  // namespace arbitre::gui
