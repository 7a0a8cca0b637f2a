// The live session on scripted observations: the stability filter, the referee, corrections,
// undo, the store and resuming, for Le jeu d'Irma and Le Yams impossible.
#include "app/session/session.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "app/session/camera_angle.h"
#include "app/session/camera_source.h"
#include "app/session/demo.h"
#include "app/session/dice_stability.h"
#include "app/session/game_log.h"
#include "app/session/irma_game.h"
#include "app/session/loop.h"
#include "app/session/script.h"
#include "app/session/yams_game.h"
#include "app/session/yams_session.h"
#include "data/irma/record_json.h"
#include "scoring/irma/advisor.h"
#include "scoring/irma/score.h"
#include "scoring/yams/advisor.h"
#include "tests/support/yams_log.h"
#include "vision/dice.h"

namespace s = arbitre::app::session;
namespace ds = arbitre::data::store;
namespace ri = arbitre::referee::irma;
namespace ry = arbitre::referee::yams;
namespace sy = arbitre::scoring::yams;
using ::testing::ElementsAre;

namespace {

std::string temp_db(const std::string& name) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string path = ::testing::TempDir() + "session_" + test->test_suite_name() + "." +
                           test->name() + "_" + name + ".db";
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
  return path;
}

// Every event a session emits, in order.
struct Recorder {
  std::vector<s::Event> events;
  s::Listener listener() {
    return [this](const s::Event& event) { events.push_back(event); };
  }
  template <typename T>
  std::vector<T> all() const {
    std::vector<T> out;
    for (const s::Event& event : events) {
      if (const T* e = std::get_if<T>(&event)) out.push_back(*e);
    }
    return out;
  }
  template <typename T>
  int count() const {
    return static_cast<int>(all<T>().size());
  }
  void clear() { events.clear(); }
};

// Feeds a script (JSON steps) to a session, as the loop does.
void play(s::Session& session, const std::string& steps, double fps = 10) {
  const s::Script script =
      s::parse_script("{\"fps\": " + std::to_string(fps) + ", \"steps\": " + steps + "}", "test");
  s::ScriptedSource source(script.steps);
  s::run_loop(session, source, {});
}

// Shifts the script's clock: a session that goes on after a pause sees later times.
void play_at(s::Session& session, const std::string& steps, double start) {
  s::Script script = s::parse_script("{\"steps\": " + steps + "}", "test");
  for (s::SourceStep& step : script.steps) step.seconds += start;
  s::ScriptedSource source(script.steps);
  s::run_loop(session, source, {});
}

std::vector<ds::EventKind> stored_kinds(const std::string& db, ds::GameId game) {
  ds::Store store = ds::Store::open(db);
  std::vector<ds::EventKind> kinds;
  for (const ds::Event& event : store.events(game)) kinds.push_back(event.kind);
  return kinds;
}

s::SessionOptions irma_options(std::vector<std::string> players = {"Anna"}) {
  s::SessionOptions options;
  options.kind = ds::GameKind::Irma;
  options.players = std::move(players);
  return options;
}

}  // namespace

TEST(IrmaSession, PlacementsAreRefereedAndARefusedPionCountsOnceMovedToALegalCell) {
  const std::string db = temp_db("game");
  ds::Store store = ds::Store::open(db);
  Recorder recorder;
  auto session = s::Session::start(&store, irma_options(), recorder.listener());
  play(*session, R"([
    {"board": []},
    {"board": ["R"]},
    {"board": ["R."], "frames": 3},
    {"board": ["RO"]},
    {"board": ["ROG"]},
    {"board": ["ROG.G"]},
    {"board": ["ROG"], "frames": 2},
    {"board": ["ROG", "..G"]}
  ])");
  const auto accepted = recorder.all<s::Accepted>();
  ASSERT_EQ(accepted.size(), 4u);
  EXPECT_EQ(accepted[0].move, ri::Move::place(ri::Colour::Red, {0, 0}));
  EXPECT_EQ(accepted[1].move, ri::Move::place(ri::Colour::Orange, {0, 1}));
  EXPECT_EQ(accepted[2].marker, ri::SeriesKind::Suite);  // R O G
  EXPECT_EQ(accepted[2].score, 4);
  const auto refused = recorder.all<s::Refused>();
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].reason, "not-adjacent");
  EXPECT_EQ(refused[0].cells, std::vector<ri::Cell>({{0, 4}}));
  EXPECT_EQ(refused[0].seq, 4);
  // The same green pion, moved below the green one: a vertical pair after the suite.
  EXPECT_EQ(accepted[3].move, ri::Move::place(ri::Colour::Green, {1, 2}));
  EXPECT_EQ(accepted[3].marker, ri::SeriesKind::Pair);
  EXPECT_EQ(accepted[3].score, 5);
  EXPECT_EQ(accepted[3].number, 5);  // the refused try is move 4 of the record
  EXPECT_EQ(accepted[3].seq, 5);
  EXPECT_THAT(stored_kinds(db, session->game()),
              ElementsAre(ds::EventKind::Move, ds::EventKind::Move, ds::EventKind::Move,
                          ds::EventKind::Refusal, ds::EventKind::Move));
  EXPECT_GT(recorder.count<s::Unstable>(), 0);
}

TEST(IrmaSession, TheRefusedPionMustBePlacedAgainAndAHandDoesNotMakeASecondTry) {
  Recorder recorder;
  auto session = s::Session::start(nullptr, irma_options(), recorder.listener());
  play(*session, R"([
    {"board": ["R"]}, {"board": ["RO"]},
    {"board": ["RO.O"]}, {"board": ["RO"], "frames": 2}, {"board": ["RO.O"]},
    {"board": ["RO", ".R"]},
    {"board": ["RO", ".O"]}
  ])");
  const auto refused = recorder.all<s::Refused>();
  ASSERT_EQ(refused.size(), 2u);
  EXPECT_EQ(refused[0].reason, "not-adjacent");  // once, though it settled twice
  EXPECT_EQ(refused[1].reason, "pion-in-hand");  // a red pion instead of the refused orange
  EXPECT_EQ(refused[1].message, "the refused orange pion must be placed again, not a red one");
  const auto accepted = recorder.all<s::Accepted>();
  ASSERT_EQ(accepted.size(), 3u);
  EXPECT_EQ(accepted[2].move, ri::Move::place(ri::Colour::Orange, {1, 1}));
  EXPECT_EQ(accepted[2].marker, ri::SeriesKind::Pair);
  // The session's refusal is not a try of the record: the referee's record has 4 moves.
  EXPECT_EQ(session->irma()->player().record.moves.size(), 4u);
}

TEST(IrmaSession, AHandOverTheBoardIsUnstableAndNeverAMove) {
  Recorder recorder;
  auto session = s::Session::start(nullptr, irma_options(), recorder.listener());
  play(*session, R"([
    {"board": ["R"]}, {"board": ["RO"]}, {"board": ["ROG"]}
  ])");
  ASSERT_EQ(recorder.count<s::Accepted>(), 3);
  recorder.clear();
  // A hand hides the board for half a second, then leaves: unstable, then the same board.
  play_at(*session, R"([
    {"board": [], "frames": 2}, {"board": ["R"], "frames": 2}, {"board": ["RG"], "frames": 1},
    {"board": ["ROG"]}
  ])",
          10);
  EXPECT_EQ(recorder.count<s::Accepted>(), 0);
  EXPECT_EQ(recorder.count<s::Refused>(), 0);
  ASSERT_FALSE(recorder.events.empty());
  EXPECT_TRUE(std::holds_alternative<s::Unstable>(recorder.events.front()));
  EXPECT_TRUE(std::holds_alternative<s::Stable>(recorder.events.back()));
  recorder.clear();
  // A hand that rests long enough to settle hides two pions: the board changed, no move.
  play_at(*session, R"([{"board": ["R"], "frames": 12}, {"board": ["ROG"]}])", 20);
  const auto changed = recorder.all<s::BoardChanged>();
  ASSERT_EQ(changed.size(), 1u);
  EXPECT_EQ(changed[0].removed.size(), 2u);
  EXPECT_EQ(changed[0].detail, "2 pions removed");
  EXPECT_EQ(recorder.count<s::Accepted>(), 0);
  EXPECT_EQ(session->irma()->player().state.board.size(), 3);
}

TEST(IrmaSession, ACorrectionIsReRefereedStoredAndUndoable) {
  const std::string db = temp_db("game");
  ds::Store store = ds::Store::open(db);
  Recorder recorder;
  auto session = s::Session::start(&store, irma_options(), recorder.listener());
  play(*session, R"([{"board": ["R"]}, {"board": ["RO"]}, {"board": ["ROG"]}])");
  ASSERT_EQ(recorder.all<s::Accepted>().back().score, 4);  // the suite R O G

  // The middle pion was green, not orange: then the third placement made a pair, not a suite.
  session->command("fix cell 0 1 green");
  auto corrected = recorder.all<s::Corrected>();
  ASSERT_EQ(corrected.size(), 1u);
  EXPECT_EQ(corrected[0].effect, "recoloured");
  EXPECT_EQ(corrected[0].score, 1);
  EXPECT_EQ(session->irma()->player().state.board.at({0, 1}), ri::Colour::Green);

  // The camera still reads orange there; the next pion is a placement all the same.
  play_at(*session, R"([{"board": ["ROG", "W.."]}])", 10);
  ASSERT_EQ(recorder.count<s::Accepted>(), 4);
  EXPECT_EQ(recorder.count<s::BoardChanged>(), 0);
  EXPECT_EQ(recorder.all<s::Accepted>().back().score, 1);

  session->command("undo");  // the white pion
  session->command("undo");  // the correction
  const auto undone = recorder.all<s::Undone>();
  ASSERT_EQ(undone.size(), 2u);
  EXPECT_EQ(undone[0].undid, "white 1,0");
  EXPECT_EQ(undone[1].undid, "fix cell 0,1 green");
  EXPECT_EQ(undone[1].score, 4);
  EXPECT_EQ(session->irma()->player().state.board.at({0, 1}), ri::Colour::Orange);
  EXPECT_EQ(session->irma()->player().state.board.size(), 3);

  // Bad commands are refused with a message and not stored.
  session->command("fix cell 0 1 purple");
  session->command("fix cell 5 5 empty");
  session->command("dance");
  EXPECT_EQ(recorder.count<s::CommandRefused>(), 3);
  EXPECT_THAT(stored_kinds(db, session->game()),
              ElementsAre(ds::EventKind::Move, ds::EventKind::Move, ds::EventKind::Move,
                          ds::EventKind::Correction, ds::EventKind::Move, ds::EventKind::Undo,
                          ds::EventKind::Undo));
}

TEST(IrmaSession, RedoCarriesOutAgainWhatUndoUndidAndResumeReplaysIt) {
  const std::string db = temp_db("game");
  ds::GameId game = 0;
  s::IrmaGame::Player done;  // after a placement, a refused try and a correction
  {
    ds::Store store = ds::Store::open(db);
    Recorder recorder;
    auto session = s::Session::start(&store, irma_options(), recorder.listener());
    play(*session,
         R"([{"board": ["R"]}, {"board": ["RO"]}, {"board": ["ROG"]}, {"board": ["ROG.G"]}])");
    ASSERT_EQ(recorder.count<s::Refused>(), 1);  // the green pion at 0,4 is in hand
    session->command("fix cell 0 0 orange");
    ASSERT_EQ(recorder.count<s::Corrected>(), 1);
    done = session->irma()->player();
    const int score = arbitre::scoring::irma::score(done.state);
    EXPECT_FALSE(session->can_redo());
    session->command("redo");  // nothing undone yet
    ASSERT_EQ(recorder.count<s::CommandRefused>(), 1);
    EXPECT_EQ(recorder.all<s::CommandRefused>()[0].message, "nothing to redo");

    for (int i = 0; i < 3; ++i)
      session->command("undo");  // the correction, the try, the green pion
    EXPECT_EQ(session->irma()->player().state.board.size(), 2);
    EXPECT_FALSE(session->irma()->player().in_hand);
    EXPECT_TRUE(session->can_redo());
    for (int i = 0; i < 3; ++i) session->command("redo");
    const auto redone = recorder.all<s::Redone>();
    ASSERT_EQ(redone.size(), 3u);
    EXPECT_EQ(redone[0].redid, "green 0,2");
    EXPECT_EQ(redone[0].score, 4);  // the suite R O G again
    EXPECT_EQ(redone[1].redid, "refused green 0,4");
    EXPECT_EQ(redone[2].redid, "fix cell 0,0 orange");
    EXPECT_EQ(redone[2].score, score);
    EXPECT_EQ(redone[2].player, "Anna");
    EXPECT_GT(redone[2].seq, redone[1].seq);
    // Record, state, pion in hand and corrected cells: exactly as before the undos.
    EXPECT_EQ(session->irma()->player(), done);
    EXPECT_FALSE(session->can_redo());
    EXPECT_TRUE(session->can_undo());

    // Undo the correction again and leave it undone: a redo is pending when the process ends.
    session->command("undo");
    EXPECT_TRUE(session->can_redo());
    game = session->game();
  }
  EXPECT_THAT(stored_kinds(db, game),
              ElementsAre(ds::EventKind::Move, ds::EventKind::Move, ds::EventKind::Move,
                          ds::EventKind::Refusal, ds::EventKind::Correction, ds::EventKind::Undo,
                          ds::EventKind::Undo, ds::EventKind::Undo, ds::EventKind::Redo,
                          ds::EventKind::Redo, ds::EventKind::Redo, ds::EventKind::Undo));
  ds::Store store = ds::Store::open(db);
  Recorder recorder;
  auto session = s::Session::resume(store, game, irma_options(), recorder.listener());
  EXPECT_TRUE(session->can_redo());  // the replay rebuilt the redo stack too
  session->command("redo");
  ASSERT_EQ(recorder.count<s::Redone>(), 1);
  EXPECT_EQ(session->irma()->player(), done);
  // The resumed log, redo included, replays to the same game in `arbitre show`'s path.
  const s::ReplayedGame replayed = s::replay_game(store, game);
  EXPECT_EQ(replayed.irma->player(), done);
}

TEST(IrmaSession, ANewMoveOrCorrectionClearsWhatCouldBeRedone) {
  Recorder recorder;
  auto session = s::Session::start(nullptr, irma_options(), recorder.listener());
  play(*session, R"([{"board": ["R"]}, {"board": ["RO"]}, {"board": ["ROG"]}])");
  session->command("undo");  // the green pion
  ASSERT_TRUE(session->can_redo());
  // The camera still sees the green pion: a placement again, a new move: nothing to redo.
  play_at(*session, R"([{"board": ["RO"], "frames": 12}, {"board": ["ROW"]}])", 10);
  ASSERT_EQ(recorder.count<s::Accepted>(), 4);
  EXPECT_FALSE(session->can_redo());
  session->command("redo");
  ASSERT_EQ(recorder.count<s::CommandRefused>(), 1);
  EXPECT_EQ(recorder.all<s::CommandRefused>()[0].message, "nothing to redo");
  // A correction clears it as well.
  session->command("undo");
  ASSERT_TRUE(session->can_redo());
  session->command("fix cell 0 1 green");
  ASSERT_EQ(recorder.count<s::Corrected>(), 1);
  EXPECT_FALSE(session->can_redo());
  EXPECT_EQ(recorder.count<s::Redone>(), 0);
}

TEST(IrmaSession, CorrectionsAddAMissedPionAndRemoveAPhantom) {
  Recorder recorder;
  auto session = s::Session::start(nullptr, irma_options(), recorder.listener());
  play(*session, R"([{"board": ["R"]}, {"board": ["RO"]}, {"board": ["ROG"]}])");
  session->command("fix cell 1 0 green");  // the camera missed it
  ASSERT_EQ(recorder.count<s::Corrected>(), 1);
  EXPECT_EQ(recorder.all<s::Corrected>()[0].effect, "added");
  EXPECT_TRUE(recorder.all<s::Corrected>()[0].legal);
  EXPECT_EQ(session->irma()->player().state.board.size(), 4);
  // Without the orange pion the green one at 0,2 would touch nothing: refused, nothing stored.
  session->command("fix cell 0 1 empty");
  EXPECT_EQ(recorder.count<s::Corrected>(), 1);
  ASSERT_EQ(recorder.count<s::CommandRefused>(), 1);
  EXPECT_EQ(recorder.all<s::CommandRefused>()[0].message,
            "with that correction, move 3 (green 0,2) would be refused (not-adjacent): undo the "
            "moves after it first");
  session->command("fix cell 1 0 empty");  // it was a shadow after all
  ASSERT_EQ(recorder.count<s::Corrected>(), 2);
  EXPECT_EQ(recorder.all<s::Corrected>()[1].effect, "removed");
  EXPECT_FALSE(session->irma()->player().state.board.at({1, 0}));
  EXPECT_EQ(session->irma()->player().record.moves.size(), 3u);
}

TEST(IrmaSession, ResumingAfterTheProcessEndsReplaysTheLogToTheSameGame) {
  const std::string db = temp_db("game");
  s::IrmaGame::Player before;
  ds::GameId game = 0;
  {
    ds::Store store = ds::Store::open(db);
    Recorder recorder;
    auto session = s::Session::start(&store, irma_options({"Anna", "Bruno"}), recorder.listener());
    play(*session,
         R"([{"board": ["R"]}, {"board": ["RO"]}, {"board": ["ROG"]}, {"board": ["ROG.G"]}])");
    ASSERT_EQ(recorder.count<s::Refused>(), 1);  // the green pion is in hand
    session->command("fix cell 0 0 orange");     // O O G: a pair, then nothing
    ASSERT_EQ(recorder.count<s::Corrected>(), 1);
    before = session->irma()->player();
    game = session->game();
    ASSERT_EQ(before.in_hand, ri::Colour::Green);
  }  // the process ends: the game is neither finished nor abandoned
  ds::Store store = ds::Store::open(db);
  ASSERT_EQ(store.unfinished_games().size(), 1u);
  Recorder recorder;
  auto session = s::Session::resume(store, game, irma_options(), recorder.listener());
  const auto started = recorder.all<s::Started>();
  ASSERT_EQ(started.size(), 1u);
  EXPECT_TRUE(started[0].resumed);
  EXPECT_EQ(started[0].replayed, 5);
  EXPECT_EQ(started[0].players, std::vector<std::string>({"Anna", "Bruno"}));
  EXPECT_EQ(started[0].score, 1);
  EXPECT_EQ(session->irma()->player(), before);  // record, state, pion in hand, corrections

  // The camera sees the table as it was (still reading red at 0,0), then the green pion moved to
  // a legal cell: the game goes on exactly.
  play_at(*session, R"([{"board": ["ROG.G"]}, {"board": ["ROG", "G.."]}])", 100);
  ASSERT_EQ(recorder.count<s::Accepted>(), 1);
  EXPECT_EQ(recorder.all<s::Accepted>()[0].move, ri::Move::place(ri::Colour::Green, {1, 0}));
  EXPECT_EQ(recorder.all<s::Accepted>()[0].number, 5);
  EXPECT_EQ(recorder.all<s::Accepted>()[0].seq, 6);
  EXPECT_EQ(recorder.count<s::BoardChanged>(), 0);
}

TEST(IrmaSession, AStoredGameThatNoLongerReplaysIsRefusedWithTheEvent) {
  const std::string db = temp_db("game");
  ds::Store store = ds::Store::open(db);
  const ds::GameId game = store.create_game(ds::GameKind::Irma, nlohmann::json::object(), {"Anna"});
  store.append_event(game, ds::EventKind::Move, {{"colour", "red"}, {"row", 0}, {"col", 0}});
  store.append_event(game, ds::EventKind::Move, {{"colour", "red"}, {"row", 5}, {"col", 5}});
  Recorder recorder;
  try {
    s::Session::resume(store, game, irma_options(), recorder.listener());
    FAIL() << "resumed a log the referee refuses";
  } catch (const arbitre::data::InputError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("event 2 (move)"));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("not-adjacent"));
  }
}

// Anna's whole game by the greedy player, as a record.
arbitre::data::irma::GameRecord greedy_game(std::uint64_t seed) {
  namespace si = arbitre::scoring::irma;
  ri::State state = ri::initial_state();
  si::Rng rng(seed);
  arbitre::data::irma::GameRecord record;
  record.players.push_back({"Anna", {}});
  si::play_out(
      state, rng,
      [](const ri::State& st, ri::Colour colour, const std::vector<ri::Placement>& legal,
         si::Rng&) { return si::choose_greedy(st, colour, legal); },
      [&](const ri::Move& move) { record.players[0].record.moves.push_back(move); });
  return record;
}

TEST(IrmaSession, PlayerTwoPlacesTheColoursPlayerOneDrewInTheSameOrder) {
  const auto anna = greedy_game(3);
  const std::vector<ri::Colour> draws = ri::draws(anna.players[0].record);
  Recorder recorder;
  auto session = s::Session::start(nullptr, irma_options({"Anna", "Bruno"}), recorder.listener());
  s::ScriptedSource anna_plays(s::irma_demo_script(anna).steps);
  s::run_loop(*session, anna_plays, {});
  const auto over = recorder.all<s::PlayerOver>();
  ASSERT_EQ(over.size(), 1u);
  EXPECT_EQ(over[0].player, "Anna");
  EXPECT_EQ(over[0].next, "Bruno");
  EXPECT_EQ(over[0].draws, static_cast<int>(draws.size()));
  EXPECT_EQ(session->irma()->current(), 1u);
  EXPECT_EQ(session->irma()->expected_colour(), draws[0]);
  recorder.clear();

  // Bruno clears the table and puts down a pion of another colour than Anna's first draw.
  const ri::Colour wrong = draws[0] == ri::Colour::Red ? ri::Colour::Green : ri::Colour::Red;
  const std::string letter(1, wrong == ri::Colour::Red ? 'R' : 'G');
  const std::string right(1, std::string("ROGW")[static_cast<std::size_t>(draws[0])]);
  play_at(*session,
          "[{\"board\": []}, {\"board\": [\"" + letter + "\"]}, {\"board\": []}, {\"board\": [\"" +
              right + "\"]}]",
          1000);
  const auto refused = recorder.all<s::Refused>();
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].reason, "not-the-draw");
  EXPECT_EQ(refused[0].player, "Bruno");
  ASSERT_EQ(recorder.count<s::Accepted>(), 1);
  EXPECT_EQ(recorder.all<s::Accepted>()[0].player, "Bruno");
  EXPECT_EQ(session->irma()->expected_colour(), draws[1]);
}

TEST(IrmaSession, TheBundledGamePlayedToTheCameraEndsWithTheRecordsScore) {
  const std::string db = temp_db("demo");
  ds::Store store = ds::Store::open(db);
  // The record seen as a camera would see it (the rendered recording, when there is one, is
  // WatchCli.DemoPlaysTheBundledIrmaRecordingThroughThePionReader's).
  setenv("ARBITRE_DEMO_RECORDINGS", temp_db("no-recordings").c_str(), 1);
  s::Demo demo = s::make_demo(ds::GameKind::Irma);
  unsetenv("ARBITRE_DEMO_RECORDINGS");
  ASSERT_EQ(demo.expected.size(), 1u);
  s::SessionOptions options = irma_options(demo.players);
  options.irma = demo.irma;
  Recorder recorder;
  auto session = s::Session::start(&store, options, recorder.listener());
  EXPECT_EQ(s::run_loop(*session, *demo.source, {}), s::LoopEnd::Over);
  const auto over = recorder.all<s::GameOver>();
  ASSERT_EQ(over.size(), 1u);
  EXPECT_EQ(over[0].scores[0].score, demo.expected[0].score);
  EXPECT_EQ(recorder.count<s::CameraLost>(), 1);
  EXPECT_EQ(recorder.count<s::CameraReconnected>(), 1);
  // The refusals the camera can see, with the referee's reasons.
  std::vector<std::string> reasons;
  for (const auto& refused : recorder.all<s::Refused>()) reasons.push_back(refused.reason);
  EXPECT_THAT(reasons, ElementsAre("not-adjacent", "repeated-series", "carre", "outside-rectangle",
                                   "white-next-to-white"));
  // A pion put on an occupied cell is a changed board, not a move.
  EXPECT_EQ(recorder.count<s::BoardChanged>(), 1);
  const ds::Game stored = store.game(session->game());
  EXPECT_EQ(stored.status, ds::GameStatus::Finished);
  EXPECT_EQ(stored.seats[0].score, demo.expected[0].score);
}

// --- Le Yams impossible.

namespace {

// A dice scene as JSON: the dice (in the order written), those in the kept area (shown in a row
// at the front), the others in the tray, left (region 0) or right (1); `only_kept`: the others
// are in the player's hand.
std::string dice(const std::string& words, const std::vector<int>& kept, int region,
                 bool only_kept = false, int frames = 10) {
  std::istringstream in(words);
  std::vector<std::string> all;
  for (std::string w; in >> w;) all.push_back(w);
  nlohmann::json xy = nlohmann::json::array();
  nlohmann::json kept_out = nlohmann::json::array();
  std::string shown;
  int n = 0;
  for (int i = 0; i < static_cast<int>(all.size()); ++i) {
    const bool aside = std::find(kept.begin(), kept.end(), i) != kept.end();
    if (only_kept && !aside) continue;
    shown += (shown.empty() ? "" : " ") + all[static_cast<std::size_t>(i)];
    if (aside) {
      kept_out.push_back(n);
      xy.push_back({100 + 100 * i, 650});
    } else {
      xy.push_back({100 + 600 * region + 90 * (i % 5), 200 + 120 * (i / 5)});
    }
    ++n;
  }
  nlohmann::json step = {{"dice", shown}, {"kept", kept_out}, {"frames", frames}};
  if (n > 0) step["xy"] = xy;
  return step.dump();
}

s::SessionOptions yams_options(bool automatic, std::vector<std::string> players = {"Anna"}) {
  s::SessionOptions options;
  options.kind = ds::GameKind::Yams;
  options.players = std::move(players);
  options.automatic = automatic;
  return options;
}

std::string steps(std::initializer_list<std::string> parts) {
  std::string out = "[";
  for (const std::string& part : parts) out += (out.size() > 1 ? ", " : "") + part;
  return out + "]";
}

}  // namespace

TEST(YamsSession, ATurnOfRollsWithKeptDiceEndsWithTheAdvisorsBox) {
  const std::string db = temp_db("game");
  ds::Store store = ds::Store::open(db);
  Recorder recorder;
  auto session = s::Session::start(&store, yams_options(true), recorder.listener());
  const std::string r1 = "1r 2r 3r 4r 5r 1w 2w 3w 4w 5w";
  const std::string r2 = "1r 1r 7r 4r 9r 1w 6w 1w 8w 2w";
  const std::string r3 = "1r 1r 1r 3r 9r 1w 6w 1w 1w 2w";
  const std::string r4 = "1r 1r 1r 3r 9r 1w 1w 1w 1w 2w";  // the same rerolled faces would
  const std::string r5 = "1r 1r 1r 3r 9r 1w 1w 1w 1w 2w";  // still be a roll: the dice moved
  play(*session,
       steps({dice(r1, {}, 0, true, 3), dice(r1, {}, 0), dice(r1, {0, 5}, 0),
              dice(r1, {0, 5}, 0, true, 3), dice(r2, {0, 5}, 1), dice(r2, {0, 1, 5, 7}, 1),
              dice(r2, {0, 1, 5, 7}, 1, true, 3), dice(r3, {0, 1, 5, 7}, 0),
              dice(r3, {0, 1, 2, 5, 7, 8}, 0), dice(r3, {0, 1, 2, 5, 7, 8}, 0, true, 3),
              dice(r4, {0, 1, 2, 5, 7, 8}, 1), dice(r4, {0, 1, 2, 5, 6, 7, 8}, 1),
              dice(r4, {0, 1, 2, 5, 6, 7, 8}, 1, true, 3), dice(r5, {0, 1, 2, 5, 6, 7, 8}, 0)}));
  const auto rolled = recorder.all<s::Rolled>();
  ASSERT_EQ(rolled.size(), 5u);
  for (int r = 0; r < 5; ++r) EXPECT_EQ(rolled[static_cast<std::size_t>(r)].roll, r + 1);
  EXPECT_EQ(rolled[0].keep, 0u);
  EXPECT_EQ(rolled[1].keep, (1u << 0) | (1u << 5));  // the red and the white 1 set aside
  EXPECT_EQ(ry::to_text(rolled[4].dice), "1r 1r 1r 3r 9r 1w 1w 1w 1w 2w");
  EXPECT_EQ(recorder.count<s::Refused>(), 0);
  // No roll left: the advisor's best box is filled, and the sheet follows.
  const auto filled = recorder.all<s::Filled>();
  ASSERT_EQ(filled.size(), 1u);
  EXPECT_TRUE(filled[0].automatic);
  ASSERT_TRUE(rolled[4].best);
  EXPECT_EQ(filled[0].box, *rolled[4].best);
  EXPECT_EQ(filled[0].points, rolled[4].best_points);
  EXPECT_GT(filled[0].points, 0);
  const auto sheets = recorder.all<s::SheetUpdate>();
  ASSERT_EQ(sheets.size(), 1u);
  EXPECT_EQ(sheets[0].player, "Anna");
  EXPECT_EQ(sheets[0].totals.grand, filled[0].points);
  EXPECT_TRUE(sheets[0].sheet.filled(filled[0].box));
  std::vector<ds::EventKind> expected(5, ds::EventKind::Roll);
  expected.push_back(ds::EventKind::Box);
  EXPECT_EQ(stored_kinds(db, session->game()), expected);
}

TEST(YamsSession, DiceSetAsideOrLeftLyingAreNotARoll) {
  Recorder recorder;
  auto session =
      s::Session::start(nullptr, yams_options(false, {"Anna", "Bruno"}), recorder.listener());
  const std::string r1 = "1r 2r 3r 4r 5r 1w 2w 3w 4w 5w";
  play(*session, steps({dice(r1, {}, 0), dice(r1, {0, 5}, 0), dice(r1, {}, 0, true, 2),
                        dice(r1, {0, 5}, 0)}));
  EXPECT_EQ(recorder.count<s::Rolled>(), 1);
  session->command("box chiffre-5");
  ASSERT_EQ(recorder.count<s::Filled>(), 1);
  EXPECT_EQ(recorder.all<s::Filled>()[0].points, 10);
  EXPECT_EQ(recorder.all<s::SheetUpdate>()[0].next, "Bruno");
  // The dice of Anna's turn still lie there: a hand passes, no roll for Bruno.
  play_at(*session,
          steps({dice(r1, {0, 5}, 0, false, 2), dice(r1, {0, 5}, 0, true, 2), dice(r1, {0, 5}, 0)}),
          50);
  EXPECT_EQ(recorder.count<s::Rolled>(), 1);
  // A cocked die is reported, and is no roll either.
  play_at(*session, R"([{"dice": "3r 2r 3r 4r 5r 1w 2w 3w 4w 5w", "cocked": [0]}])", 60);
  ASSERT_EQ(recorder.count<s::DiceUnreadable>(), 1);
  EXPECT_EQ(recorder.all<s::DiceUnreadable>()[0].reason, "cocked");
  EXPECT_EQ(recorder.count<s::Rolled>(), 1);
}

TEST(YamsSession, AKeptDieThatChangedFaceIsRefused) {
  Recorder recorder;
  auto session = s::Session::start(nullptr, yams_options(false), recorder.listener());
  play(*session, steps({dice("1r 2r 3r 4r 5r 1w 2w 3w 4w 5w", {}, 0),
                        dice("9r 2r 3r 4r 5r 1w 2w 3w 4w 5w", {0}, 1)}));
  const auto refused = recorder.all<s::Refused>();
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].reason, "kept-die-changed");
  EXPECT_EQ(refused[0].dice, std::vector<int>({0}));
  EXPECT_EQ(session->yams()->state().turn.rolls, 1);
}

// One picture of ten dice as objects: "7r" read sure, "?r" unread, at the given places (tray).
std::string dice_objects(const std::vector<std::string>& faces, int frames = 10) {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < faces.size(); ++i) {
    const std::string& f = faces[i];
    const bool unread = f[0] == '?';
    out.push_back({{"value", unread ? 0 : std::stoi(f)},
                   {"colour", f.back() == 'r' ? "red" : "white"},
                   {"zone", "tray"},
                   {"x", 100 + 90 * static_cast<int>(i)},
                   {"y", 200},
                   {"confidence", unread ? 0.2 : 0.9}});
  }
  return nlohmann::json{{"dice", out}, {"frames", frames}}.dump();
}

TEST(YamsSession, ThePlayersTypeWhatTheCameraCouldNotReadAndTheSceneBecomesARoll) {
  Recorder recorder;
  auto session = s::Session::start(nullptr, yams_options(false), recorder.listener());
  // Die 2 unread, and a white die missed: the scene waits for the players.
  play(*session, steps({dice_objects({"1r", "2r", "?r", "4r", "5r", "1w", "2w", "3w", "4w"})}));
  ASSERT_EQ(recorder.count<s::DiceUnreadable>(), 1);
  const s::DiceUnreadable first = recorder.all<s::DiceUnreadable>()[0];
  EXPECT_EQ(first.reason, "unread");
  EXPECT_EQ(first.dice, std::vector<int>({2}));
  ASSERT_EQ(first.scene.size(), 9u);
  EXPECT_EQ(recorder.count<s::Rolled>(), 0);
  session->command("die 2 3r");  // still a die short: reported again, no roll
  ASSERT_EQ(recorder.count<s::DiceUnreadable>(), 2);
  EXPECT_EQ(recorder.all<s::DiceUnreadable>()[1].reason, "count");
  EXPECT_EQ(recorder.count<s::Rolled>(), 0);
  session->command("die + 5w tray");
  ASSERT_EQ(recorder.count<s::Rolled>(), 1);
  // The die typed in has no place: it is numbered first of its colour.
  EXPECT_EQ(ry::to_text(recorder.all<s::Rolled>()[0].dice), "1r 2r 3r 4r 5r 5w 1w 2w 3w 4w");
  // Nothing pending any more: typing is refused with the reason.
  recorder.clear();
  session->command("die 0 9r");
  EXPECT_EQ(recorder.count<s::CommandRefused>(), 1);
}

TEST(YamsSession, ADieSeenThatIsNoneIsTypedAwayAndBadTypingIsRefused) {
  Recorder recorder;
  auto session = s::Session::start(nullptr, yams_options(false), recorder.listener());
  play(*session,
       steps({dice_objects({"1r", "2r", "3r", "4r", "5r", "1w", "2w", "3w", "4w", "5w", "6w"})}));
  ASSERT_EQ(recorder.count<s::DiceUnreadable>(), 1);
  EXPECT_EQ(recorder.all<s::DiceUnreadable>()[0].reason, "count");
  for (const char* bad : {"die 11 3r", "die 0 11r", "die + 3r shelf", "die", "die - x"}) {
    recorder.clear();
    session->command(bad);
    EXPECT_EQ(recorder.count<s::CommandRefused>(), 1) << bad;
    EXPECT_EQ(recorder.count<s::Rolled>(), 0) << bad;
  }
  session->command("die - 10");
  ASSERT_EQ(recorder.count<s::Rolled>(), 1);
  EXPECT_EQ(ry::to_text(recorder.all<s::Rolled>()[0].dice), "1r 2r 3r 4r 5r 1w 2w 3w 4w 5w");
}

TEST(YamsSession, ARollRefusedForAKeptDieReadWrongIsRefereedAgainOnceFixed) {
  Recorder recorder;
  auto session = s::Session::start(nullptr, yams_options(false), recorder.listener());
  play(*session, steps({dice("1r 2r 3r 4r 5r 1w 2w 3w 4w 5w", {}, 0),
                        dice("9r 2r 3r 4r 5r 1w 2w 3w 4w 5w", {0}, 1)}));
  ASSERT_EQ(recorder.count<s::Refused>(), 1);  // the camera read the kept 1 as a 9
  session->command("fix die 0 1r");
  const auto rolled = recorder.all<s::Rolled>();
  ASSERT_EQ(rolled.size(), 2u);
  EXPECT_EQ(rolled[1].roll, 2);
  EXPECT_EQ(rolled[1].keep, 1u);
  EXPECT_EQ(rolled[1].dice[0], (ry::Die{1, ry::DieColour::Red, ry::Texture::None}));
  EXPECT_EQ(session->yams()->state().turn.rolls, 2);
}

TEST(YamsSession, TheDiceOfARefusedRollCanBeTypedLikeAnUnreadableScene) {
  Recorder recorder;
  auto session = s::Session::start(nullptr, yams_options(false), recorder.listener());
  play(*session, steps({dice("1r 2r 3r 4r 5r 1w 2w 3w 4w 5w", {}, 0),
                        dice("9r 2r 3r 4r 5r 1w 2w 3w 4w 5w", {0}, 1)}));
  ASSERT_EQ(recorder.count<s::Refused>(), 1);
  const auto typing = recorder.all<s::DiceUnreadable>();
  ASSERT_EQ(typing.size(), 1u);
  EXPECT_EQ(typing[0].reason, "refused");
  EXPECT_FALSE(typing[0].again);
  ASSERT_EQ(typing[0].scene.size(), 10u);
  ASSERT_EQ(typing[0].dice.size(), 1u);  // the kept die the referee names, as seen
  const int k = typing[0].dice[0];
  EXPECT_EQ(typing[0].scene[static_cast<std::size_t>(k)].value, 9);
  session->command("die " + std::to_string(k) + " 1r");
  const auto rolled = recorder.all<s::Rolled>();
  ASSERT_EQ(rolled.size(), 2u);
  EXPECT_EQ(rolled[1].roll, 2);
  EXPECT_EQ(rolled[1].dice[0], (ry::Die{1, ry::DieColour::Red, ry::Texture::None}));
}

TEST(YamsSession, AFixedRefusedRollIsNumberedAgainFromTheCorrectedFace) {
  Recorder recorder;
  auto session = s::Session::start(nullptr, yams_options(false), recorder.listener());
  // The 3r and the 4r (dice 2 and 3) set aside; the 4r read as a 9r, which no die showed: the
  // roll numbers it as die 0 (the first free red) and is refused for die 0.
  play(*session, steps({dice("1r 2r 3r 4r 5r 1w 2w 3w 4w 5w", {}, 0),
                        dice("8r 6r 3r 9r 5r 1w 2w 3w 4w 5w", {2, 3}, 1)}));
  const auto refused = recorder.all<s::Refused>();
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].dice, std::vector<int>({0}));
  // The player says die 0 shows a 4: the 4r is die 3 again, kept, and the roll is accepted.
  session->command("fix die 0 4r");
  const auto rolled = recorder.all<s::Rolled>();
  ASSERT_EQ(rolled.size(), 2u);
  EXPECT_EQ(rolled[1].keep, (1u << 2) | (1u << 3));
  EXPECT_EQ(ry::to_text(rolled[1].dice).substr(0, 14), "8r 6r 3r 4r 5r");
}

TEST(YamsSession, AKeptDieReadAsAnotherFaceDoesNotTakeTheNumberOfADieAnotherShows) {
  Recorder recorder;
  auto session = s::Session::start(nullptr, yams_options(false), recorder.listener());
  // Roll 1 numbers the white dice 1w..5w as dice 5..9. Two white dice are set aside for roll 2;
  // in its picture one is read 9w (a face no die showed) and comes first, the other shows 1w,
  // die 5's face. The 9w must not take die 5's number: only one die is said to have changed.
  play(*session, steps({dice("1r 2r 3r 4r 5r 1w 2w 3w 4w 5w", {}, 0),
                        dice("1r 2r 3r 4r 5r 9w 2w 1w 4w 5w", {5, 7}, 1)}));
  const auto refused = recorder.all<s::Refused>();
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].reason, "kept-die-changed");
  EXPECT_EQ(refused[0].dice, std::vector<int>({6}));
}

TEST(YamsSession, FixingAKeptDieCorrectsItBackToTheRollItWasSetAsideFrom) {
  const std::string db = temp_db("game");
  ds::Store store = ds::Store::open(db);
  Recorder recorder;
  auto session = s::Session::start(&store, yams_options(false), recorder.listener());
  // Die 0 read 1 in roll 1, set aside, and still read 1 in roll 2: it shows a 6 all along.
  play(*session, steps({dice("1r 2r 3r 4r 5r 1w 2w 3w 4w 5w", {}, 0),
                        dice("1r 7r 7r 7r 7r 1w 2w 3w 4w 5w", {0}, 1)}));
  ASSERT_EQ(recorder.count<s::Rolled>(), 2);
  session->command("fix die 0 6r");
  ASSERT_EQ(recorder.count<s::Corrected>(), 1)
      << "a kept die is corrected in every roll since it was set aside";
  const auto& moves = session->yams()->moves();
  ASSERT_EQ(moves.size(), 2u);
  EXPECT_EQ(moves[0].dice[0].value, 6);
  EXPECT_EQ(moves[1].dice[0].value, 6);
  EXPECT_EQ(session->yams()->state().turn.dice[0].value, 6);
  // Undone: both rolls as they were; and the log replays to the same game.
  session->command("undo");
  EXPECT_EQ(session->yams()->moves()[0].dice[0].value, 1);
  EXPECT_EQ(session->yams()->moves()[1].dice[0].value, 1);
  session->command("redo");
  const std::vector<ry::Move> fixed = session->yams()->moves();
  const ds::GameId game = session->game();
  session.reset();
  auto resumed = s::Session::resume(store, game, yams_options(false), recorder.listener());
  EXPECT_EQ(resumed->yams()->moves(), fixed);
}

TEST(YamsSession, FixingADieIsRefereedStoredUndoableAndSurvivesAResume) {
  const std::string db = temp_db("game");
  ds::GameId game = 0;
  ry::State before_state;
  std::vector<ry::Move> before_moves;
  ry::Dice before_seen{};
  {
    ds::Store store = ds::Store::open(db);
    Recorder recorder;
    auto session = s::Session::start(&store, yams_options(false), recorder.listener());
    play(*session, steps({dice("1r 2r 3r 4r 5r 1w 2w 3w 4w 5w", {}, 0)}));
    session->command("fix die 0 6r");  // the camera read 1, the die shows 6
    ASSERT_EQ(recorder.count<s::Corrected>(), 1);
    EXPECT_EQ(recorder.all<s::Corrected>()[0].fix, "die 0 6r");
    EXPECT_EQ(session->yams()->state().turn.dice[0].value, 6);
    session->command("fix die 0 6w");  // a white die would make six white dice
    ASSERT_EQ(recorder.count<s::CommandRefused>(), 1);
    EXPECT_THAT(recorder.all<s::CommandRefused>()[0].message, ::testing::HasSubstr("bad-dice"));
    session->command("undo");
    EXPECT_EQ(session->yams()->state().turn.dice[0].value, 1);
    session->command("fix die 0 6r");
    // Die 0 set aside: the camera still reads 1 on it, the game keeps its corrected 6.
    play_at(*session,
            steps({dice("1r 2r 3r 4r 5r 1w 2w 3w 4w 5w", {0}, 0),
                   dice("1r 7r 7r 7r 7r 1w 2w 3w 4w 5w", {0}, 1)}),
            10);
    const auto rolled = recorder.all<s::Rolled>();
    ASSERT_EQ(rolled.size(), 2u);
    EXPECT_EQ(ry::to_text(rolled[1].dice), "6r 7r 7r 7r 7r 1w 2w 3w 4w 5w");
    before_state = session->yams()->state();
    before_moves = session->yams()->moves();
    before_seen = session->yams()->seen();
    game = session->game();
  }
  ds::Store store = ds::Store::open(db);
  EXPECT_THAT(stored_kinds(db, game),
              ElementsAre(ds::EventKind::Roll, ds::EventKind::Correction, ds::EventKind::Undo,
                          ds::EventKind::Correction, ds::EventKind::Roll));
  Recorder recorder;
  auto session = s::Session::resume(store, game, yams_options(false), recorder.listener());
  EXPECT_EQ(session->yams()->state(), before_state);
  EXPECT_EQ(session->yams()->moves(), before_moves);
  EXPECT_EQ(session->yams()->seen(), before_seen);
  // The dice as they lie: no roll; then a third roll keeping die 0: still a 6.
  play_at(*session,
          steps({dice("1r 7r 7r 7r 7r 1w 2w 3w 4w 5w", {0}, 1),
                 dice("1r 7r 7r 7r 8r 1w 2w 3w 4w 5w", {0}, 0)}),
          100);
  const auto rolled = recorder.all<s::Rolled>();
  ASSERT_EQ(rolled.size(), 1u);
  EXPECT_EQ(rolled[0].roll, 3);
  EXPECT_EQ(rolled[0].dice[0], (ry::Die{6, ry::DieColour::Red, ry::Texture::None}));
}

TEST(YamsSession, RedoRestoresTheExactSheetAndResumeReplaysIt) {
  const std::string db = temp_db("game");
  ds::GameId game = 0;
  ry::State filled_state;
  std::vector<ry::Move> filled_moves;
  ry::Dice filled_seen{};
  {
    ds::Store store = ds::Store::open(db);
    Recorder recorder;
    auto session =
        s::Session::start(&store, yams_options(false, {"Anna", "Bruno"}), recorder.listener());
    play(*session, steps({dice("7r 7r 3r 4r 5r 7w 2w 3w 4w 5w", {}, 0)}));
    session->command("fix die 2 7r");
    session->command("box chiffre-7");
    ASSERT_EQ(recorder.count<s::Filled>(), 1);
    EXPECT_EQ(recorder.all<s::Filled>()[0].points, 28);
    filled_state = session->yams()->state();
    filled_moves = session->yams()->moves();
    filled_seen = session->yams()->seen();
    EXPECT_EQ(filled_state.player, 1);  // Bruno's turn

    for (int i = 0; i < 3; ++i) session->command("undo");  // the box, the correction, the roll
    EXPECT_EQ(session->yams()->state().turn.rolls, 0);
    EXPECT_EQ(session->yams()->state().player, 0);
    EXPECT_FALSE(session->yams()->state().sheets[0].filled(ry::Box::Chiffre7));
    recorder.clear();
    for (int i = 0; i < 3; ++i) session->command("redo");
    const auto redone = recorder.all<s::Redone>();
    ASSERT_EQ(redone.size(), 3u);
    EXPECT_EQ(redone[0].redid, "roll 1");
    EXPECT_EQ(redone[1].redid, "fix die 2 7r");
    EXPECT_EQ(redone[2].redid, "box chiffre-7");
    EXPECT_EQ(redone[2].player, "Anna");
    EXPECT_EQ(redone[2].score, 28);
    // The box's redo brings its sheet and the next player, as the first time.
    ASSERT_EQ(recorder.count<s::SheetUpdate>(), 1);
    EXPECT_EQ(recorder.all<s::SheetUpdate>()[0].next, "Bruno");
    EXPECT_EQ(recorder.all<s::SheetUpdate>()[0].totals.grand, 28);
    EXPECT_EQ(session->yams()->state(), filled_state);
    EXPECT_EQ(session->yams()->moves(), filled_moves);
    EXPECT_EQ(session->yams()->seen(), filled_seen);
    EXPECT_FALSE(session->can_redo());
    session->command("undo");  // the box, left undone: a redo pending at the end
    game = session->game();
  }
  EXPECT_THAT(stored_kinds(db, game),
              ElementsAre(ds::EventKind::Roll, ds::EventKind::Correction, ds::EventKind::Box,
                          ds::EventKind::Undo, ds::EventKind::Undo, ds::EventKind::Undo,
                          ds::EventKind::Redo, ds::EventKind::Redo, ds::EventKind::Redo,
                          ds::EventKind::Undo));
  ds::Store store = ds::Store::open(db);
  Recorder recorder;
  auto session = s::Session::resume(store, game, yams_options(false), recorder.listener());
  EXPECT_TRUE(session->can_redo());
  session->command("redo");
  ASSERT_EQ(recorder.count<s::Redone>(), 1);
  EXPECT_EQ(session->yams()->state(), filled_state);
  EXPECT_EQ(session->yams()->moves(), filled_moves);
}

TEST(YamsSession, ANewRollOrBoxClearsWhatCouldBeRedoneButARefusalDoesNot) {
  Recorder recorder;
  auto session = s::Session::start(nullptr, yams_options(false), recorder.listener());
  play(*session, steps({dice("7r 7r 3r 4r 5r 7w 2w 3w 4w 5w", {}, 0)}));
  session->command("box chiffre-7");
  session->command("undo");
  ASSERT_TRUE(session->can_redo());
  session->command("declare chiffre-7");  // refused by the referee: the game is unchanged
  ASSERT_EQ(recorder.count<s::Refused>(), 1);
  EXPECT_TRUE(session->can_redo());
  session->command("box chiffre-3");  // another box: a new move
  ASSERT_EQ(recorder.count<s::Filled>(), 2);
  EXPECT_FALSE(session->can_redo());
  session->command("redo");
  ASSERT_EQ(recorder.count<s::CommandRefused>(), 1);
  EXPECT_EQ(recorder.all<s::CommandRefused>()[0].message, "nothing to redo");
  EXPECT_TRUE(session->yams()->state().sheets[0].filled(ry::Box::Chiffre3));
  EXPECT_FALSE(session->yams()->state().sheets[0].filled(ry::Box::Chiffre7));
}

TEST(YamsSession, BoxesAndDeclarationsComeAsCommands) {
  Recorder recorder;
  auto session = s::Session::start(nullptr, yams_options(false), recorder.listener());
  session->command("box chiffre-7");  // before any roll
  ASSERT_EQ(recorder.count<s::Refused>(), 1);
  EXPECT_EQ(recorder.all<s::Refused>()[0].reason, "no-roll-yet");
  play(*session, steps({dice("7r 7r 3r 4r 5r 7w 2w 3w 4w 5w", {}, 0)}));
  session->command("declare youpi-yams");  // only after the fifth roll
  EXPECT_EQ(recorder.all<s::Refused>().back().reason, "declare-after-fifth-roll");
  session->command("box nonsense");
  EXPECT_EQ(recorder.count<s::CommandRefused>(), 1);
  session->command("box chiffre-7");
  ASSERT_EQ(recorder.count<s::Filled>(), 1);
  EXPECT_EQ(recorder.all<s::Filled>()[0].points, 21);
  EXPECT_FALSE(recorder.all<s::Filled>()[0].automatic);
  session->command("undo");
  EXPECT_FALSE(session->yams()->state().sheets[0].filled(ry::Box::Chiffre7));
  EXPECT_EQ(session->yams()->state().turn.rolls, 1);
  session->command("box");  // the advisor's choice
  ASSERT_EQ(recorder.count<s::Filled>(), 2);
  EXPECT_TRUE(recorder.all<s::Filled>()[1].automatic);
}

TEST(YamsSession, TheBundledGamePlayedToTheCameraEndsWithTheRecordsScores) {
  // The record seen as a camera would see it (the rendered recording, when there is one, is
  // WatchCli.DemoPlaysTheBundledYamsRecordingThroughTheDiceReader's).
  setenv("ARBITRE_DEMO_RECORDINGS", temp_db("no-recordings").c_str(), 1);
  s::Demo demo = s::make_demo(ds::GameKind::Yams);
  unsetenv("ARBITRE_DEMO_RECORDINGS");
  s::SessionOptions options = yams_options(false, demo.players);
  options.yams = demo.yams;
  Recorder recorder;
  auto session = s::Session::start(nullptr, options, recorder.listener());
  EXPECT_EQ(s::run_loop(*session, *demo.source, {}), s::LoopEnd::Over);
  const auto over = recorder.all<s::GameOver>();
  ASSERT_EQ(over.size(), 1u);
  ASSERT_EQ(over[0].scores.size(), demo.expected.size());
  for (std::size_t p = 0; p < demo.expected.size(); ++p) {
    EXPECT_EQ(over[0].scores[p].player, demo.expected[p].player);
    EXPECT_EQ(over[0].scores[p].score, demo.expected[p].score);
  }
  EXPECT_EQ(recorder.count<s::Refused>(), 0);
}

TEST(CameraAngle, AdvisesOnTheMedianOfTheLastFramesThatToldIt) {
  s::CameraAngle angle(5);
  EXPECT_FALSE(angle.degrees());
  EXPECT_FALSE(angle.past_surest());
  angle.add(-1);  // the reader could not tell: ignored
  EXPECT_FALSE(angle.degrees());
  angle.add(25);
  EXPECT_EQ(angle.degrees(), 25);
  EXPECT_FALSE(angle.past_surest());  // one frame is not enough to advise: three of five are
  angle.add(12);
  EXPECT_EQ(angle.degrees(), 18.5);  // an even count: the mean of the two middle ones
  angle.add(24);
  EXPECT_EQ(angle.degrees(), 24);
  EXPECT_TRUE(angle.past_surest());
  // Two frames nearer overhead bring the median of the five back within the bound.
  angle.add(13);
  angle.add(14);
  EXPECT_EQ(angle.degrees(), 14);
  EXPECT_FALSE(angle.past_surest());
  // Only the last five count: after five frames at 24 the old ones are gone.
  for (int i = 0; i < 5; ++i) angle.add(24);
  EXPECT_EQ(angle.degrees(), 24);
  EXPECT_TRUE(angle.past_surest());
  // The bound itself is not past it.
  for (int i = 0; i < 5; ++i) angle.add(arbitre::vision::kDiceSurestTiltDeg);
  EXPECT_FALSE(angle.past_surest());
  angle.clear();
  EXPECT_FALSE(angle.degrees());
}

TEST(YamsSession, TheCameraIsAdvisedWhenItsAngleGoesPastTheSurestAndWhenItComesBack) {
  Recorder recorder;
  auto session = s::Session::start(nullptr, yams_options(false), recorder.listener());
  const std::string r1 = "1r 2r 3r 4r 5r 1w 2w 3w 4w 5w";
  const auto at = [&](double tilt, int frames, const std::string& words) {
    nlohmann::json step = nlohmann::json::parse(dice(words, {}, 0, false, frames));
    step["camera_tilt_deg"] = tilt;
    return step.dump();
  };
  // Within 20 degrees, and one frame's error past it (three at 40 among nine): no advice.
  play(*session, steps({at(14, 10, r1), at(40, 3, r1), at(13, 10, r1)}));
  EXPECT_EQ(recorder.count<s::CameraAdvice>(), 0);
  EXPECT_EQ(recorder.count<s::Rolled>(), 1);  // the advice does not stop the game
  // The camera moved to 26 degrees: advised once, when the median of the last nine frames
  // passes 20 (the fifth frame at 26), not on every frame.
  recorder.clear();
  play_at(*session, steps({at(26, 4, r1)}), 10);
  EXPECT_EQ(recorder.count<s::CameraAdvice>(), 0);
  play_at(*session, steps({at(26, 1, r1)}), 11);
  ASSERT_EQ(recorder.count<s::CameraAdvice>(), 1);
  const s::CameraAdvice past = recorder.all<s::CameraAdvice>()[0];
  EXPECT_EQ(past.degrees, 26);
  EXPECT_EQ(past.surest_within, 20);
  EXPECT_TRUE(past.past);
  play_at(*session, steps({at(26, 20, r1)}), 12);
  EXPECT_EQ(recorder.count<s::CameraAdvice>(), 1);
  // Moved back overhead: the advice is withdrawn, once.
  play_at(*session, steps({at(11, 20, r1)}), 20);
  ASSERT_EQ(recorder.count<s::CameraAdvice>(), 2);
  const s::CameraAdvice back = recorder.all<s::CameraAdvice>()[1];
  EXPECT_EQ(back.degrees, 11);
  EXPECT_FALSE(back.past);
  // Frames whose angle the reader could not tell (dice without the face fit) change nothing.
  play_at(*session, steps({dice(r1, {}, 0, false, 20)}), 30);
  EXPECT_EQ(recorder.count<s::CameraAdvice>(), 2);
}

TEST(DiceStability, SettlesOnceTheDiceStayTheSameAndSaysWhyAScenIsUnreadable) {
  s::DiceStability filter;
  const auto scene = [](const std::string& words, bool cocked) {
    arbitre::vision::DiceObservation o;
    std::istringstream in(words);
    for (std::string w; in >> w;) {
      const auto die = ry::die_from_text(w);
      arbitre::vision::DieSighting s;
      s.value = die->value;
      s.colour = die->colour;
      s.confidence = 1;
      o.dice.push_back(s);
    }
    if (cocked) o.dice[2].cocked = true;
    return o;
  };
  std::vector<s::DiceEvent> events;
  double t = 0;
  const auto show = [&](const arbitre::vision::DiceObservation& o, int frames) {
    for (int f = 0; f < frames; ++f, t += 0.1) {
      const s::DiceUpdate u = filter.feed(o, t);
      if (u.event != s::DiceEvent::None) events.push_back(u.event);
    }
  };
  show(scene("1r 2r 3r 4r 5r 1w 2w 3w 4w 5w", false), 5);  // half a second: not yet
  EXPECT_THAT(events, ElementsAre(s::DiceEvent::Unstable));
  show(scene("1r 2r 3r 4r 5r 1w 2w 3w 4w 5w", false), 10);
  EXPECT_THAT(events, ElementsAre(s::DiceEvent::Unstable, s::DiceEvent::Settled));
  show(scene("1r 2r 3r 4r 5r 1w 2w 3w 4w 5w", true), 10);
  EXPECT_EQ(events.back(), s::DiceEvent::Unreadable);
  show(scene("1r 2r 3r 4r 5r 1w 2w 3w 4w", false), 10);
  EXPECT_EQ(events.back(), s::DiceEvent::Unreadable);
  EXPECT_EQ(events.size(), 6u);
}

// --- Replaying a long log (what --resume does after reading it; timed by session_bench).

namespace {

// Ten dice at fixed places of a 1280-wide frame, read as `words` ("?" unread, "c" cocked).
arbitre::vision::DiceObservation placed_dice(const std::string& words) {
  arbitre::vision::DiceObservation o;
  o.width = 1280;
  o.height = 720;
  std::istringstream in(words);
  int i = 0;
  for (std::string w; in >> w; ++i) {
    arbitre::vision::DieSighting d;
    d.colour = w.back() == 'r' ? ry::DieColour::Red : ry::DieColour::White;
    d.cocked = w[0] == 'c';
    d.value = w[0] == '?' || d.cocked ? 0 : std::stoi(w);
    d.confidence = d.value > 0 ? 0.9 : 0.2;
    d.x = 200 + 90 * (i % 5);
    d.y = 200 + 120 * (i / 5);
    o.dice.push_back(d);
  }
  return o;
}

// Feeds frames at 8 a second from `t` (the filter settles at the eighth frame, 0.875 s), cycling
// through `cycle`; the updates that say something.
std::vector<s::DiceUpdate> feed(s::DiceStability& filter, double& t,
                                const std::vector<arbitre::vision::DiceObservation>& cycle,
                                int frames) {
  std::vector<s::DiceUpdate> out;
  for (int f = 0; f < frames; ++f, t += 0.125) {
    s::DiceUpdate u = filter.feed(cycle[static_cast<std::size_t>(f) % cycle.size()], t);
    if (u.event != s::DiceEvent::None) out.push_back(std::move(u));
  }
  return out;
}

}  // namespace

TEST(DiceStability, AFaceTheCameraReadsDifferentlyFromFrameToFrameSettlesOnTheFramesVote) {
  // Die 3 read as a 4 in two frames of three and left unread in the third (a webcam's noise on a
  // die near the reader's doubt): the dice do not move, so the table settles, and die 3 is the
  // 4 most frames read, its confidence 0.9 x (6 frames of 8 that read it surely, less 0 that read
  // another face) / 8.
  const auto sure = placed_dice("1r 2r 3r 4r 5r 1w 2w 3w 4w 5w");
  const auto doubt = placed_dice("1r 2r 3r ?r 5r 1w 2w 3w 4w 5w");
  s::DiceStability filter;
  double t = 0;
  const auto updates = feed(filter, t, {sure, sure, doubt}, 12);
  ASSERT_EQ(updates.size(), 2u);
  EXPECT_EQ(updates[0].event, s::DiceEvent::Unstable);
  ASSERT_EQ(updates[1].event, s::DiceEvent::Settled);
  ASSERT_EQ(updates[1].scene.dice.size(), 10u);
  EXPECT_EQ(updates[1].scene.dice[3].value, 4);
  EXPECT_NEAR(updates[1].scene.dice[3].confidence, 0.9 * 6 / 8, 1e-9);
  EXPECT_NEAR(updates[1].scene.dice[0].confidence, 0.9, 1e-9);  // read alike in every frame
  // Given no positions (a script without "xy"), a face read differently is a change: the same
  // frames never settle.
  s::DiceStability by_readings;
  std::vector<arbitre::vision::DiceObservation> unplaced{sure, sure, doubt};
  for (auto& o : unplaced) o.width = o.height = 0;
  t = 0;
  const auto never = feed(by_readings, t, unplaced, 30);
  ASSERT_EQ(never.size(), 1u);
  EXPECT_EQ(never[0].event, s::DiceEvent::Unstable);
}

TEST(DiceStability, FramesThatDisagreeOnAFaceOrCallADieCockedLeaveItForThePlayers) {
  // A 6 in half the frames and a 9 in the other half is no face: unread (confidence 0), never
  // guessed.
  s::DiceStability split;
  double t = 0;
  const auto six_nine = feed(
      split, t,
      {placed_dice("1r 2r 3r 6r 5r 1w 2w 3w 4w 5w"), placed_dice("1r 2r 3r 9r 5r 1w 2w 3w 4w 5w")},
      12);
  ASSERT_EQ(six_nine.size(), 2u);
  ASSERT_EQ(six_nine[1].event, s::DiceEvent::Unreadable);
  EXPECT_EQ(six_nine[1].reason, "unread");
  EXPECT_THAT(six_nine[1].dice, ElementsAre(3));
  EXPECT_EQ(six_nine[1].scene.dice[3].confidence, 0);  // 4 x 0.9 for the 6, less 4 x 0.9 for the 9
  // Read as a 7 in five frames of eight and left unread in three: fewer than two in three, unsure.
  s::DiceStability unsure;
  t = 0;
  const auto seven_or_none = feed(
      unsure, t,
      {placed_dice("1r 2r 3r 7r 5r 1w 2w 3w 4w 5w"), placed_dice("1r 2r 3r ?r 5r 1w 2w 3w 4w 5w"),
       placed_dice("1r 2r 3r 7r 5r 1w 2w 3w 4w 5w")},
      8);
  ASSERT_EQ(seven_or_none.size(), 2u);
  EXPECT_EQ(seven_or_none[1].reason, "unread");
  EXPECT_EQ(seven_or_none[1].scene.dice[3].value, 7);
  EXPECT_LT(seven_or_none[1].scene.dice[3].confidence, 0.5);
  // Called cocked in three frames of eight, read as a 7 in the others: cocked (a third is enough).
  const auto seven = placed_dice("1r 2r 3r 7r 5r 1w 2w 3w 4w 5w");
  const auto leans = placed_dice("1r 2r 3r cr 5r 1w 2w 3w 4w 5w");
  s::DiceStability leaning;
  t = 0;
  const auto cocked = feed(leaning, t, {seven, leans, seven}, 12);
  ASSERT_EQ(cocked.size(), 2u);
  ASSERT_EQ(cocked[1].event, s::DiceEvent::Unreadable);
  EXPECT_EQ(cocked[1].reason, "cocked");
  EXPECT_TRUE(cocked[1].scene.dice[3].cocked);
  // Called cocked in two frames of eight: read, the 7.
  s::DiceStability once;
  t = 0;
  const auto read = feed(once, t, {seven, seven, seven, leans}, 12);
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[1].event, s::DiceEvent::Settled);
  EXPECT_EQ(read[1].scene.dice[3].value, 7);
}

TEST(DiceStability, ADieMovedOrGoneIsAChangeAndADieMissedOrInventedInAFrameIsNot) {
  const auto table = placed_dice("1r 2r 3r 4r 5r 1w 2w 3w 4w 5w");
  s::DiceStability filter;
  double t = 0;
  ASSERT_EQ(feed(filter, t, {table}, 10).back().event, s::DiceEvent::Settled);
  // One frame misses die 2, another sees die 4 twice (a second die 40 pixels off it): the
  // reader's flicker.
  auto missing = table;
  missing.dice.erase(missing.dice.begin() + 2);
  auto doubled = table;
  doubled.dice.push_back(doubled.dice[4]);
  doubled.dice.back().x += 40;
  EXPECT_TRUE(feed(filter, t, {table, missing, table, doubled, table}, 20).empty());
  // A die seen far from every die that lay there came there: a change at once (and eleven dice
  // settled are no roll).
  auto eleven = table;
  eleven.dice.push_back(eleven.dice[0]);
  eleven.dice.back().x = 900;
  const auto came = feed(filter, t, {eleven}, 10);
  ASSERT_EQ(came.size(), 2u);
  EXPECT_EQ(came[0].event, s::DiceEvent::Unstable);
  EXPECT_EQ(came[1].reason, "count");
  // Gone again: a die missed may be flicker, so the ten settle once it has been away for the
  // settling time, and as long again.
  const auto away = feed(filter, t, {table}, 20);
  ASSERT_EQ(away.size(), 2u);
  EXPECT_EQ(away[1].event, s::DiceEvent::Settled);
  // Die 2 nudged by 2% of the frame's width: one die elsewhere is no more than the reader's
  // flicker at first, but once it has stayed there for the settling time the table moved, and
  // settles again.
  auto nudged = table;
  nudged.dice[2].x += 26;
  auto moved = feed(filter, t, {nudged}, 20);
  ASSERT_EQ(moved.size(), 2u);
  EXPECT_EQ(moved[0].event, s::DiceEvent::Unstable);
  EXPECT_EQ(moved[1].event, s::DiceEvent::Settled);
  // Die 2 picked up and held out of sight: once it has been away for the settling time (0.8 s),
  // the nine dice left settle in as long again, unreadable ("count").
  auto held = nudged;
  held.dice.erase(held.dice.begin() + 2);
  const auto gone = feed(filter, t, {held}, 20);
  ASSERT_EQ(gone.size(), 2u);
  EXPECT_EQ(gone[0].event, s::DiceEvent::Unstable);
  EXPECT_EQ(gone[1].event, s::DiceEvent::Unreadable);
  EXPECT_EQ(gone[1].reason, "count");
  // Put back where it was: it stays, and the ten settle again.
  const auto back = feed(filter, t, {nudged}, 20);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[1].event, s::DiceEvent::Settled);
  EXPECT_EQ(back[1].scene.dice.size(), 10u);
}

TEST(SessionReplay, TenThousandEventsReplayToEveryMove) {
  const std::vector<ds::Event> log = arbitre::testing::yams::greedy_log(10000, 60);
  ASSERT_EQ(log.size(), 10000u);
  std::vector<std::string> names;
  for (int p = 0; p < 60; ++p) names.push_back("player " + std::to_string(p + 1));
  s::YamsGame game(ry::Options{}, names);
  s::replay_events(game, log, 1);
  EXPECT_EQ(game.moves().size(), 10000u);
}

TEST(CameraSource, AskedForPicturesEachObservationCarriesItsFrame) {
  // An image sequence of one rendered table: with `pictures`, every observation carries the
  // frame it was read from (for a live view: the very frame whose pions it reports); without,
  // none does (no copy of every frame for the CLI).
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "arbitre-camera-pictures";
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (int i = 0; i < 2; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "%04d.jpg", i);
    fs::copy_file(std::string(ARBITRE_TEST_DATA) + "/pions/0001.jpg", dir / name);
  }
  const std::string pattern = (dir / "%04d.jpg").string();
  s::CameraOptions options;
  options.pictures = true;
  auto source = s::open_camera(pattern, ds::GameKind::Irma, options);
  for (int i = 0; i < 2; ++i) {
    const s::SourceStep step = source->next();
    ASSERT_EQ(step.kind, s::SourceStep::Kind::Observation);
    ASSERT_TRUE(step.pions);
    ASSERT_TRUE(step.picture);
    EXPECT_EQ(step.picture->width, step.pions->width);
    EXPECT_EQ(step.picture->height, step.pions->height);
    EXPECT_EQ(step.picture->rgb.size(),
              static_cast<std::size_t>(step.picture->width) * step.picture->height * 3);
    EXPECT_GT(step.picture->captured_ms, 0);
  }
  EXPECT_EQ(source->next().kind, s::SourceStep::Kind::Ended);
  auto plain = s::open_camera(pattern, ds::GameKind::Irma);
  const s::SourceStep step = plain->next();
  ASSERT_EQ(step.kind, s::SourceStep::Kind::Observation);
  EXPECT_FALSE(step.picture);
}

TEST(RecordedPlayers, TypeAnUnreadableSceneSoThatOnlyTheLastLineMakesItReadable) {
  // The table: a red 3, a white 5, a kept red 7 and a white 2. The camera read the 3, misread
  // the 5 as a 6, could not read the 7, saw a die where there is none and missed the 2.
  s::RecordedPlayers::Shot shot;
  shot.first = 0;
  shot.last = 2;
  shot.rolled = true;
  const auto face = [](const char* text) { return *ry::die_from_text(text); };
  shot.dice = {{face("3r"), false, 100, 200},
               {face("5w"), false, 200, 200},
               {face("7r"), true, 300, 400},
               {face("2w"), false, 400, 200}};
  s::RecordedPlayers players({shot}, 640);
  players.at_frame(2);
  const auto sighting = [](int value, bool red, double x, double y, double confidence) {
    arbitre::vision::DieSighting d;
    d.value = value;
    d.colour = red ? ry::DieColour::Red : ry::DieColour::White;
    d.x = x;
    d.y = y;
    d.confidence = confidence;
    return d;
  };
  s::DiceUnreadable event;
  event.reason = "unread";
  event.scene = {sighting(3, true, 101, 200, 0.9), sighting(0, true, 300, 401, 0.1),
                 sighting(9, false, 520, 200, 0.9), sighting(6, false, 201, 199, 0.9)};
  event.dice = {1};
  event.seen = 4;
  players.hear(event);
  event.again = true;  // reported again as typed: answered once
  players.hear(event);
  std::vector<std::string> lines;
  while (const auto line = players.answer()) lines.push_back(*line);
  // Read wrong, none, missed, then the unread die, numbered once die 2 is gone (still 1).
  EXPECT_EQ(lines, (std::vector<std::string>{"die 3 5w", "die - 2", "die + 2w tray", "die 1 7r"}));
  EXPECT_EQ(players.tally().scenes_typed, 1);
  EXPECT_EQ(players.tally().typed, 2);
  EXPECT_EQ(players.tally().added, 1);
  EXPECT_EQ(players.tally().removed, 1);
}

ry::Dice ten_dice(const std::string& text) {
  std::istringstream in(text);
  ry::Dice dice{};
  for (ry::Die& d : dice) {
    std::string word;
    in >> word;
    d = *ry::die_from_text(word);
  }
  return dice;
}

TEST(RecordedPlayers, CorrectARollReadWrongAndUndoARollThatWasNone) {
  s::RecordedPlayers::Shot rolled;
  rolled.first = 0;
  rolled.last = 2;
  rolled.rolled = true;
  const ry::Dice truth = ten_dice("1r 2r 3r 4r 5r 1w 2w 3w 4w 5w");
  for (const ry::Die& d : truth) rolled.dice.push_back({d, false, 0, 0});
  s::RecordedPlayers::Shot aside = rolled;
  aside.first = 3;
  aside.last = 5;
  aside.rolled = false;
  s::RecordedPlayers players({rolled, aside}, 640);
  players.at_frame(1);
  s::Rolled read;
  read.roll = 1;
  read.dice = ten_dice("1r 2r 8r 4r 5r 1w 2w 3w 4w 5w");  // the 3 read as an 8
  players.hear(read);
  EXPECT_EQ(players.answer(), std::optional<std::string>("fix die 2 3r"));
  EXPECT_EQ(players.answer(), std::nullopt);
  players.at_frame(4);  // the dice were only set aside, and the session counted a roll
  read.dice = truth;
  players.hear(read);
  EXPECT_EQ(players.answer(), std::optional<std::string>("undo"));
  EXPECT_EQ(players.tally().rolls, 2);
  EXPECT_EQ(players.tally().rolls_fixed, 1);
  EXPECT_EQ(players.tally().undone, 1);
}

// Ten dice read, six of them red: the referee would refuse the roll (five of each colour), so
// the scene waits for the players, who say which die is white.
TEST(YamsSession, TenDiceThatAreNotFiveOfEachColourWaitForThePlayers) {
  Recorder recorder;
  auto session = s::Session::start(nullptr, yams_options(false), recorder.listener());
  play(*session,
       steps({dice_objects({"1r", "2r", "3r", "4r", "5r", "6r", "2w", "3w", "4w", "5w"})}));
  ASSERT_EQ(recorder.count<s::DiceUnreadable>(), 1);
  const s::DiceUnreadable first = recorder.all<s::DiceUnreadable>()[0];
  EXPECT_EQ(first.reason, "colours");
  EXPECT_EQ(first.dice, std::vector<int>({0, 1, 2, 3, 4, 5})) << "the six red dice";
  EXPECT_EQ(recorder.count<s::Rolled>(), 0);
  EXPECT_EQ(recorder.count<s::Refused>(), 0) << "nothing put to the referee";
  session->command("die 5 6w");
  ASSERT_EQ(recorder.count<s::Rolled>(), 1);
  EXPECT_EQ(ry::to_text(recorder.all<s::Rolled>()[0].dice), "1r 2r 3r 4r 5r 6w 2w 3w 4w 5w");
}

// A refused roll is stored with the dice it was refused for, which need not be a game's set
// (here four red and six white): the log still replays.
TEST(YamsSession, ALogWithARollRefusedForItsDiceReplays) {
  const std::string db = temp_db("refused-dice");
  ds::GameId game = 0;
  {
    ds::Store store = ds::Store::open(db);
    Recorder recorder;
    auto session = s::Session::start(&store, yams_options(false), recorder.listener());
    play(*session, steps({dice("1r 2r 3r 4r 5r 1w 2w 3w 4w 5w", {}, 0)}));
    ASSERT_EQ(recorder.count<s::Rolled>(), 1);
    game = session->game();
  }
  {
    ds::Store store = ds::Store::open(db);
    store.append_event(game, ds::EventKind::Refusal,
                       {{"move", "roll"},
                        {"player", "Anna"},
                        {"dice", "10r 10r 7r 4r 9w 5w 1w 6w 6w 7w"},
                        {"keep", nlohmann::json::array()},
                        {"reason", "bad-dice"}});
  }
  ds::Store store = ds::Store::open(db);
  Recorder recorder;
  std::unique_ptr<s::Session> session;
  ASSERT_NO_THROW(session =
                      s::Session::resume(store, game, yams_options(false), recorder.listener()));
  EXPECT_EQ(session->yams()->state().turn.rolls, 1);
  EXPECT_EQ(ry::to_text(session->yams()->state().turn.dice), "1r 2r 3r 4r 5r 1w 2w 3w 4w 5w");
}
