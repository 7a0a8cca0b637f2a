// `arbitre watch` and the store commands as a user runs them: JSON lines on stdout, commands on
// stdin, Ctrl-C, resuming in a new process, and games/show/records/export/import.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/cli_run.h"

using nlohmann::json;
using ::testing::HasSubstr;

using arbitre::testing::CliRun;
using arbitre::testing::run_arbitre;
using arbitre::testing::slurp;
using arbitre::testing::write_temp;

namespace {

std::string temp_db(const std::string& name) {
  const std::string path = write_temp(name, "");
  std::filesystem::remove(path);
  return path;
}

std::vector<json> lines(const std::string& out) {
  std::vector<json> events;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) events.push_back(json::parse(line));
  }
  return events;
}

std::vector<std::string> kinds(const std::vector<json>& events) {
  std::vector<std::string> out;
  for (const json& e : events) out.push_back(e["event"]);
  return out;
}

// The bundled recording of `game` played by `arbitre watch --demo` into a new store: its truth,
// the events printed and the last of them, the demo's verdict (which must say ok).
struct DemoRun {
  json truth;
  std::vector<json> events;
  json verdict;
};
void play_bundled_recording(const std::string& game, DemoRun& out) {
  const std::string dir = std::string(ARBITRE_TEST_DATA) + "/../../data/demo/recordings/" + game;
  ASSERT_TRUE(std::filesystem::exists(dir + "/0000.jpg")) << dir;
  out.truth = json::parse(slurp(dir + "/truth.json"));
  const std::string db = temp_db(game + "-recording.db");
  const CliRun run = run_arbitre("watch --demo --game " + game + " --db " + db + " < /dev/null");
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  out.events = lines(run.out);
  ASSERT_FALSE(out.events.empty());
  EXPECT_EQ(out.events[0]["event"], "demo");
  EXPECT_THAT(out.events[0]["from"].get<std::string>(),
              ::testing::EndsWith("data/demo/recordings/" + game));
  out.verdict = out.events.back();
  ASSERT_EQ(out.verdict["event"], "demo-verdict") << run.out;
  EXPECT_EQ(out.verdict["ok"], true) << out.verdict.dump();
}

// Red, orange, green (a suite), a green pion refused (not adjacent), moved under the green.
const char* kIrmaScript = R"({"game": "irma", "steps": [
  {"board": []},
  {"board": ["R"]},
  {"board": ["R."], "frames": 3},
  {"board": ["RO"]},
  {"board": ["ROG"]},
  {"board": ["ROG.G"]},
  {"board": ["ROG"], "frames": 2},
  {"board": ["ROG", "..G"]}
]})";

}  // namespace

TEST(WatchCli, ScriptPrintsOneJsonLinePerEvent) {
  const std::string db = temp_db("watch.db");
  const std::string script = write_temp("script.json", kIrmaScript);
  const CliRun run = run_arbitre("watch --game irma --players Anna --db " + db + " --script " +
                                 script + " < /dev/null");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<json> events = lines(run.out);
  // The empty table settles first (no event: nothing to say yet), then every change is news.
  EXPECT_THAT(kinds(events), ::testing::ElementsAre("started", "unstable", "accepted", "unstable",
                                                    "accepted", "unstable", "accepted", "unstable",
                                                    "refused", "unstable", "accepted", "stopped"));
  EXPECT_EQ(events[0], json::parse(R"({"event": "started", "game": 1, "kind": "irma",
      "players": ["Anna"], "to_move": "Anna", "score": 0})"));
  EXPECT_EQ(events[6], json::parse(R"({"event": "accepted", "seq": 3, "player": "Anna",
      "colour": "green", "row": 0, "col": 2, "move": 3,
      "series": [{"kind": "suite", "cells": [[0, 0], [0, 1], [0, 2]]}],
      "marker": 4, "score": 4, "pions": 3})"));
  EXPECT_EQ(events[8], json::parse(R"({"event": "refused", "seq": 4, "player": "Anna",
      "colour": "green", "row": 0, "col": 4, "reason": "not-adjacent", "cells": [[0, 4]],
      "message": "the pion must touch a pion already placed", "score": 4})"));
  EXPECT_EQ(events[10]["marker"], 1);
  EXPECT_EQ(events[10]["score"], 5);
  EXPECT_EQ(events.back(), json::parse(R"({"event": "stopped", "game": 1,
      "reason": "end-of-source", "resumable": true})"));
}

TEST(WatchCli, CommandsOnStdinCorrectAndUndoAfterTheScript) {
  const std::string db = temp_db("watch.db");
  const std::string script = write_temp("script.json", kIrmaScript);
  const std::string commands =
      write_temp("commands.txt", "fix cell 1 2 white\nfix cell 0 1 blue\nundo\nquit\nundo\n");
  const CliRun run =
      run_arbitre("watch --game irma --db " + db + " --script " + script + " < " + commands);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::vector<json> events = lines(run.out);
  ASSERT_GE(events.size(), 4u);
  events.erase(events.begin(), events.end() - 4);
  EXPECT_EQ(events[0]["event"], "corrected");
  // The last pion was white, not green (its refused try too): no pair, the score falls to 4.
  EXPECT_EQ(events[0]["fix"], "cell 1,2 white");
  EXPECT_EQ(events[0]["effect"], "recoloured");
  EXPECT_EQ(events[0]["score"], 4);
  EXPECT_EQ(events[1]["event"], "command-refused");
  EXPECT_THAT(events[1]["message"].get<std::string>(), HasSubstr("unknown colour"));
  EXPECT_EQ(events[2]["event"], "undone");
  EXPECT_EQ(events[2]["score"], 5);
  EXPECT_EQ(events[3], json::parse(R"({"event": "stopped", "game": 1, "reason": "quit",
      "resumable": true})"));
}

TEST(WatchCli, RedoOnStdinIsPrintedStoredAndResumedInANewProcess) {
  const std::string db = temp_db("watch.db");
  const std::string script = write_temp("script.json", kIrmaScript);
  // The last pion (green 1,2) undone, redone, undone again and left so; then one redo too many.
  const std::string commands = write_temp("commands.txt", "undo\nredo\nundo\nquit\n");
  const CliRun run = run_arbitre("watch --game irma --db " + db + " --script " + script + " < " + commands);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::vector<json> events = lines(run.out);
  ASSERT_GE(events.size(), 4u);
  events.erase(events.begin(), events.end() - 4);
  EXPECT_EQ(events[0]["event"], "undone");
  EXPECT_EQ(events[0]["score"], 4);
  EXPECT_EQ(events[1], json::parse(R"({"event": "redone", "seq": 7, "player": "player",
      "redid": "green 1,2", "score": 5})"));
  EXPECT_EQ(events[2]["event"], "undone");
  EXPECT_EQ(events[2]["seq"], 8);

  // A new process: the redo still pending after the replay, then nothing more to redo.
  const std::string more = write_temp("more.txt", "redo\nredo\nquit\n");
  const std::string empty = write_temp("empty.json", R"({"steps": []})");
  const CliRun two = run_arbitre("watch --resume --db " + db + " --script " + empty + " < " + more);
  ASSERT_EQ(two.exit_code, 0) << two.err;
  const std::vector<json> resumed = lines(two.out);
  ASSERT_EQ(resumed.size(), 4u) << two.out;
  EXPECT_EQ(resumed[0]["replayed"], 8);
  EXPECT_EQ(resumed[0]["score"], 4);
  EXPECT_EQ(resumed[1]["event"], "redone");
  EXPECT_EQ(resumed[1]["seq"], 9);
  EXPECT_EQ(resumed[1]["score"], 5);
  EXPECT_EQ(resumed[2]["event"], "command-refused");
  EXPECT_EQ(resumed[2]["message"], "nothing to redo");
  const CliRun show = run_arbitre("show 1 --db " + db);
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_EQ(json::parse(show.out)["players"][0]["score"], 5);  // the log read back, redo included
  const CliRun help = run_arbitre("watch --help");
  EXPECT_THAT(help.out, HasSubstr("redo"));
}

TEST(WatchCli, ResumesTheGameInANewProcessAndGoesOnExactly) {
  const std::string db = temp_db("watch.db");
  const std::string first = write_temp("first.json", R"({"steps": [
    {"board": ["R"]}, {"board": ["RO"]}, {"board": ["ROG"]}, {"board": ["ROG.G"]}]})");
  const CliRun one = run_arbitre("watch --game irma --db " + db + " --script " + first + " < /dev/null");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(lines(one.out).back()["resumable"], true);

  const std::string second = write_temp("second.json", R"({"steps": [
    {"board": ["ROG.G"]}, {"board": ["ROG", "..G"]}]})");
  const CliRun two = run_arbitre("watch --resume --db " + db + " --script " + second + " < /dev/null");
  ASSERT_EQ(two.exit_code, 0) << two.err;
  const std::vector<json> events = lines(two.out);
  ASSERT_GE(events.size(), 3u);
  EXPECT_EQ(events[0]["event"], "started");
  EXPECT_EQ(events[0]["resumed"], true);
  EXPECT_EQ(events[0]["replayed"], 4);
  EXPECT_EQ(events[0]["score"], 4);
  EXPECT_THAT(kinds(events), ::testing::Contains("accepted"));
  for (const json& e : events) {
    if (e["event"] != "accepted") continue;
    EXPECT_EQ(e["seq"], 5);    // the log goes on where it stopped
    EXPECT_EQ(e["move"], 5);   // the refused try is move 4
    EXPECT_EQ(e["score"], 5);  // a pair after the suite
  }
  // Nothing left to resume of yams.
  const CliRun none = run_arbitre("watch --resume --game yams --db " + db + " --script " + second + " < /dev/null");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_THAT(none.err, HasSubstr("no unfinished game of yams to resume"));
}

TEST(WatchCli, CtrlCEndsCleanlyAndTheGameStaysResumable) {
  const std::string db = temp_db("watch.db");
  const std::string script = write_temp("script.json", kIrmaScript);
  const std::string out_path = write_temp("out.jsonl", "");
  int to_child[2];
  ASSERT_EQ(pipe(to_child), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    dup2(to_child[0], STDIN_FILENO);
    close(to_child[1]);
    const int out = open(out_path.c_str(), O_WRONLY | O_TRUNC);
    dup2(out, STDOUT_FILENO);
    execl(ARBITRE_BINARY, ARBITRE_BINARY, "watch", "--game", "irma", "--db", db.c_str(),
          "--script", script.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(to_child[0]);  // stdin stays open: after the script the program waits for commands
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (slurp(out_path).find("\"refused\"") == std::string::npos ||
         lines(slurp(out_path)).size() < 10) {
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << slurp(out_path);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  close(to_child[1]);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  const std::vector<json> events = lines(slurp(out_path));
  EXPECT_EQ(events.back(), json::parse(R"({"event": "stopped", "game": 1,
      "reason": "interrupted", "resumable": true})"));
  const CliRun games = run_arbitre("games --db " + db);
  ASSERT_EQ(games.exit_code, 0) << games.err;
  EXPECT_EQ(json::parse(games.out)["games"][0]["status"], "running");
}

// Sets an environment variable for the arbitre processes a test starts, until the end of scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) { setenv(name, value.c_str(), 1); }
  ~ScopedEnv() { unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
};

TEST(WatchCli, DemoPlaysTheBundledGamesThroughTheLoopToTheirScores) {
  // No recordings: both games are played from their records, as a camera would see them.
  const ScopedEnv no_recordings("ARBITRE_DEMO_RECORDINGS", write_temp("no-recordings", ""));
  const std::string db = temp_db("demo.db");
  const CliRun run = run_arbitre("watch --demo --db " + db + " < /dev/null");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<json> events = lines(run.out);
  std::vector<json> verdicts;
  for (const json& e : events) {
    if (e["event"] == "demo-verdict") verdicts.push_back(e);
  }
  ASSERT_EQ(verdicts.size(), 2u);
  EXPECT_EQ(verdicts[0]["kind"], "irma");
  EXPECT_EQ(verdicts[0]["ok"], true);
  EXPECT_EQ(verdicts[0]["got"][0]["score"], 54);
  EXPECT_EQ(verdicts[1]["kind"], "yams");
  EXPECT_EQ(verdicts[1]["ok"], true);
  EXPECT_EQ(verdicts[1]["got"], verdicts[1]["expected"]);
  EXPECT_THAT(kinds(events), ::testing::Contains("camera-lost"));
  EXPECT_THAT(kinds(events), ::testing::Contains("sheet"));

  // Both games are in the store, finished, with their scores.
  const CliRun games = run_arbitre("games --db " + db);
  ASSERT_EQ(games.exit_code, 0) << games.err;
  const json list = json::parse(games.out)["games"];
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["kind"], "yams");  // newest first
  EXPECT_EQ(list[1]["kind"], "irma");
  EXPECT_EQ(list[1]["status"], "finished");
  EXPECT_EQ(list[1]["players"][0]["score"], 54);
}

TEST(WatchCli, DemoPlaysTheBundledIrmaRecordingThroughThePionReader) {
  // data/demo/recordings/irma: rendered frames of the whole bundled game (tools/
  // make_demo_recordings.sh), read by the pion reader, settled by the stability filter, refereed
  // and stored; the final score must be the recording's ground truth.
  DemoRun demo;
  ASSERT_NO_FATAL_FAILURE(play_bundled_recording("irma", demo));
  const json& truth = demo.truth;
  const std::vector<json>& events = demo.events;
  const json& verdict = demo.verdict;
  ASSERT_EQ(truth["players"].size(), 1u);
  const std::string player = truth["players"][0];
  ASSERT_EQ(verdict["got"].size(), 1u);
  EXPECT_EQ(verdict["got"][0]["player"], player);
  EXPECT_EQ(verdict["got"][0]["score"], truth["scores"][player]);
  EXPECT_EQ(verdict["got"][0]["plus"], truth["plus"][player]);
  // Every placement was seen and accepted, the game ended with the frames' last board.
  int accepted = 0;
  for (const json& e : events) accepted += e["event"] == "accepted";
  EXPECT_EQ(accepted, static_cast<int>(truth["shots"].back()["pions"].size()));
  EXPECT_THAT(kinds(events), ::testing::Contains("game-over"));
  EXPECT_THAT(kinds(events), ::testing::Contains("unstable"));
}

TEST(StoreCli, GamesShowRecordsExportAndImportRoundTrip) {
  const std::string db = temp_db("played.db");
  ASSERT_EQ(run_arbitre("watch --demo --game irma --db " + db + " < /dev/null").exit_code, 0);

  const CliRun show = run_arbitre("show 1 --db " + db);
  ASSERT_EQ(show.exit_code, 0) << show.err;
  const json game = json::parse(show.out);
  EXPECT_EQ(game["status"], "finished");
  EXPECT_EQ(game["winner"], "player");
  EXPECT_EQ(game["players"][0]["score"], 54);
  EXPECT_EQ(game["players"][0]["bonus"], 5);
  EXPECT_EQ(game["players"][0]["board"].size(), 5u);

  // The export is a record the referee reads back to the same score...
  const CliRun exported = run_arbitre("export 1 --format json --db " + db);
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const std::string record = write_temp("game1.json", exported.out);
  const CliRun checked = run_arbitre("irma check " + record);
  ASSERT_EQ(checked.exit_code, 0) << checked.err;
  EXPECT_EQ(json::parse(checked.out)["score"], 54);  // one player: checked as a solo game

  // ... and imports into another store as the same game.
  const std::string other = temp_db("other.db");
  const CliRun imported = run_arbitre("import " + record + " --db " + other);
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  const json summary = json::parse(imported.out);
  EXPECT_EQ(summary["imported"], 1);
  EXPECT_EQ(summary["finished"], true);
  EXPECT_EQ(summary["scores"][0]["score"], 54);
  const json again = json::parse(run_arbitre("show 1 --db " + other).out);
  EXPECT_EQ(again["record"], game["record"]);
  EXPECT_EQ(again["players"], game["players"]);

  // Records per player and game.
  ASSERT_EQ(run_arbitre("import " + record + " --db " + other).exit_code, 0);
  const CliRun records = run_arbitre("records --db " + other);
  ASSERT_EQ(records.exit_code, 0) << records.err;
  EXPECT_EQ(json::parse(records.out)["records"][0],
            json::parse(R"({"player": "player", "game": "irma", "games": 2, "finished": 2,
                            "best": 54, "average": 54.0, "completion_rate": 1.0})"));

  // CSV: a header and one row per move of the record.
  const CliRun csv = run_arbitre("export 1 --format csv --db " + db);
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  std::istringstream rows(csv.out);
  std::string header;
  std::getline(rows, header);
  EXPECT_EQ(header, "player,move,colour,row,col,blocked,legal,reason,marker,score");
  int count = 0;
  std::string last;
  for (std::string row; std::getline(rows, row);) {
    ++count;
    last = row;
  }
  EXPECT_EQ(count, static_cast<int>(game["record"]["players"][0]["moves"].size()));
  EXPECT_THAT(last, ::testing::EndsWith(",54"));
}

TEST(WatchCli, DemoPlaysTheBundledYamsRecordingThroughTheDiceReader) {
  // data/demo/recordings/yams: rendered frames of a whole one-player game (tools/
  // make_demo_recordings.sh), read by the dice reader, settled by the stability filter, refereed
  // and stored. The recording's players type what the camera could not read and correct what it
  // read wrong, as players at the table would; the final score must be the ground truth's.
  DemoRun demo;
  ASSERT_NO_FATAL_FAILURE(play_bundled_recording("yams", demo));
  const json& truth = demo.truth;
  const std::vector<json>& events = demo.events;
  const json& verdict = demo.verdict;
  ASSERT_EQ(truth["scores"].size(), 1u);
  ASSERT_EQ(verdict["got"].size(), 1u);
  EXPECT_EQ(verdict["got"][0]["player"], truth["scores"][0]["player"]);
  EXPECT_EQ(verdict["got"][0]["score"], truth["scores"][0]["score"]);
  EXPECT_THAT(kinds(events), ::testing::Contains("game-over"));
  // Every roll of the recording was counted, and the camera did most of the work: the players
  // corrected or undid at most one roll in ten, and typed in at most one settled scene in three
  // (on 2026-11-30: 9 and 30, for 157 rolls).
  int rolls = 0;
  for (const json& shot : truth["shots"]) rolls += shot["kind"] == "rolled";
  const json& typed = verdict["players_typed"];
  EXPECT_EQ(typed["rolls"].get<int>() - typed["rolls_undone"].get<int>(), rolls) << typed.dump();
  EXPECT_LE(typed["rolls_corrected"].get<int>() + typed["rolls_undone"].get<int>(), rolls / 10) << typed.dump();
  EXPECT_LE(typed["scenes_typed"].get<int>(), rolls / 3) << typed.dump();
}

TEST(StoreCli, AYamsGameExportsAndImportsToo) {
  // The bundled two-player record, played as scripted observations (fast).
  const ScopedEnv no_recordings("ARBITRE_DEMO_RECORDINGS", write_temp("no-recordings", ""));
  const std::string db = temp_db("played.db");
  ASSERT_EQ(run_arbitre("watch --demo --game yams --db " + db + " < /dev/null").exit_code, 0);
  const CliRun exported = run_arbitre("export 1 --db " + db);
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const std::string record = write_temp("yams.json", exported.out);
  const CliRun checked = run_arbitre("yams check " + record);
  ASSERT_EQ(checked.exit_code, 0) << checked.err;
  const CliRun imported = run_arbitre("import " + record + " --db " + db);
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  const json shown = json::parse(run_arbitre("show 2 --db " + db).out);
  EXPECT_EQ(shown["players"], json::parse(run_arbitre("show 1 --db " + db).out)["players"]);
  EXPECT_EQ(shown["players"][0]["totals"]["grand"], 3487);
  const CliRun csv = run_arbitre("export 2 --format csv --db " + db);
  EXPECT_THAT(csv.out, ::testing::StartsWith("player,turn,move,kind,keep,dice,box,points,total\n"));
}

TEST(StoreCli, AnIllegalOrMalformedRecordIsRefusedAndTheStoreUntouched) {
  const std::string db = temp_db("store.db");
  ASSERT_EQ(run_arbitre("watch --demo --game irma --db " + db + " < /dev/null").exit_code, 0);
  const std::string before = slurp(db);
  // A bag of one red pion, and a record that draws two.
  const std::string illegal = write_temp("illegal.json", R"({"options": {"bag": {"red": 1, "orange": 14, "green": 16, "white": 10}},
    "moves": [{"colour": "red", "row": 0, "col": 0}, {"colour": "green", "row": 0, "col": 1},
              {"colour": "red", "row": 1, "col": 1}]})");
  const CliRun refused = run_arbitre("import " + illegal + " --db " + db);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_THAT(refused.err, HasSubstr(illegal + ": moves[2] (move 3).colour"));
  EXPECT_THAT(refused.err, HasSubstr("bag holds only 1"));

  const std::string broken = write_temp("broken.json", "{\"turns\": [\n  {\"rolls\": [}\n]}");
  const CliRun malformed = run_arbitre("import " + broken + " --db " + db);
  EXPECT_EQ(malformed.exit_code, 2);
  EXPECT_THAT(malformed.err, HasSubstr(broken + ": line 2"));

  const std::string twice = write_temp("twice.json", R"({"turns": [
    {"rolls": ["5r 5r 5r 1r 2r 5w 3w 4w 6w 7w"], "box": "carre"},
    {"rolls": ["5r 5r 5r 1r 2r 5w 3w 4w 6w 7w"], "box": "carre"}]})");
  const CliRun box = run_arbitre("import " + twice + " --db " + db);
  EXPECT_EQ(box.exit_code, 2);
  EXPECT_THAT(box.err, HasSubstr("turns[1] (turn 2).box: box-filled"));

  EXPECT_EQ(slurp(db), before);  // not a byte changed
  EXPECT_EQ(json::parse(run_arbitre("games --db " + db).out)["games"].size(), 1u);
}

TEST(WatchCli, TheCameraAdviceIsALineWhenTheAngleCrossesTheSurest) {
  // The dice of a scripted Yams table as the reader would tell them, the camera 26 degrees from
  // overhead, then moved back to 12: one line each way, and the roll is counted all the same.
  const std::string script = write_temp("tilt.json", R"({"game": "yams", "steps": [
    {"dice": "1r 2r 3r 4r 5r 1w 2w 3w 4w 5w", "camera_tilt_deg": 26, "frames": 12},
    {"dice": "1r 2r 3r 4r 5r 1w 2w 3w 4w 5w", "camera_tilt_deg": 12, "frames": 12}
  ]})");
  const CliRun run = run_arbitre("watch --game yams --players Anna --db " + temp_db("tilt.db") +
                                 " --script " + script + " < /dev/null");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<json> events = lines(run.out);
  EXPECT_THAT(kinds(events), ::testing::ElementsAre("started", "camera-advice", "rolled",
                                                    "camera-advice", "stopped"))
      << run.out;
  EXPECT_EQ(events[1], json::parse(R"({"event": "camera-advice", "degrees": 26,
      "surest_within": 20, "past": true})"));
  EXPECT_EQ(events[3], json::parse(R"({"event": "camera-advice", "degrees": 12,
      "surest_within": 20, "past": false})"));

  // An angle out of range, or given to a step that has no dice: bad input, named.
  for (const auto& [step, problem] : std::vector<std::pair<std::string, std::string>>{
           {R"({"dice": "1r 2r 3r 4r 5r 1w 2w 3w 4w 5w", "camera_tilt_deg": 95})",
            "steps[0] (step 1).camera_tilt_deg: expected the camera's angle from overhead"},
           {R"({"dice": "1r 2r 3r 4r 5r 1w 2w 3w 4w 5w", "camera_tilt_deg": "steep"})",
            "steps[0] (step 1).camera_tilt_deg: expected the camera's angle from overhead"},
           {R"({"board": ["R"], "camera_tilt_deg": 10})",
            "steps[0] (step 1).camera_tilt_deg: goes with \"dice\""}}) {
    const std::string bad = write_temp("tilt-bad.json", "{\"steps\": [" + step + "]}");
    const CliRun refused = run_arbitre("watch --game yams --db " + temp_db("tilt-bad.db") +
                                       " --script " + bad + " < /dev/null");
    EXPECT_EQ(refused.exit_code, 2) << step;
    EXPECT_THAT(refused.err, HasSubstr(bad + ": " + problem)) << step;
  }
}

TEST(StoreCli, BadArgumentsAreRefusedWithExitCodeTwo) {
  const std::string db = temp_db("store.db");
  const CliRun no_game = run_arbitre("watch --db " + db + " < /dev/null");
  EXPECT_EQ(no_game.exit_code, 2);
  EXPECT_THAT(no_game.err, HasSubstr("--game"));

  const CliRun calibration =
      run_arbitre("watch --game yams --calibration " + db + ".zones.json --db " + db + " < /dev/null");
  EXPECT_EQ(calibration.exit_code, 2);
  EXPECT_THAT(calibration.err, HasSubstr(db + ".zones.json"));

  const std::string script = write_temp("bad.json", R"({"steps": [{"board": ["RX"]}]})");
  const CliRun bad = run_arbitre("watch --game irma --db " + db + " --script " + script + " < /dev/null");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr(script + ": steps[0] (step 1).board[0]: unknown pion 'X'"));

  const CliRun missing = run_arbitre("games --db " + db + ".nothing");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("no such game store"));

  ASSERT_EQ(run_arbitre("watch --demo --game irma --db " + db + " < /dev/null").exit_code, 0);
  const CliRun unknown = run_arbitre("show 7 --db " + db);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("there is no game 7"));
  const CliRun format = run_arbitre("export 1 --format xml --db " + db);
  EXPECT_EQ(format.exit_code, 2);
  EXPECT_THAT(format.err, HasSubstr("--format"));
}

TEST(WatchCli, AnImageSequenceGoesThroughThePionReaderToTheSession) {
  // Twenty frames of one rendered table: it settles as a board of several pions at once, which
  // is no placement on an empty game.
  const std::string dir = write_temp("frames", "");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directory(dir);
  for (int i = 0; i < 20; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "/%04d.jpg", i);
    std::filesystem::copy_file(std::string(ARBITRE_TEST_DATA) + "/pions/0001.jpg", dir + name);
  }
  const std::string db = temp_db("camera.db");
  const CliRun run = run_arbitre("watch --game irma --source " + dir + "/%04d.jpg --fps 10 --db " +
                                 db + " < /dev/null");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<json> events = lines(run.out);
  ASSERT_EQ(events.size(), 3u) << run.out;
  EXPECT_EQ(events[1]["event"], "board-changed");
  EXPECT_GE(events[1]["added"].size(), 5u);
  EXPECT_EQ(events[2]["reason"], "end-of-source");
}

namespace {

// The dice frames of one rendered table, a second at 10 fps: `watch --game yams --source` reads
// them with the d10 reader; the settled scene is the game's first roll, the dice the reader
// reports for that image.
std::string dice_frames(const std::string& image, int count) {
  const std::string dir = write_temp("dice-frames-" + image.substr(0, 4), "");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directory(dir);
  for (int i = 0; i < count; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "/%04d.jpg", i);
    std::filesystem::copy_file(std::string(ARBITRE_TEST_DATA) + "/dice/" + image, dir + name);
  }
  return dir;
}

}  // namespace

TEST(WatchCli, AnImageSequenceGoesThroughTheDiceReaderToTheYamsSession) {
  // Frames of a table whose ten dice the reader reads (the first of the regression images it
  // reads whole: the test is about the loop, not the reader's accuracy) settle as the first
  // roll, with the dice `detect dice` gives; frames of one it does not read whole settle as
  // "dice-unreadable", never as a roll. A camera `detect dice` finds past 20 degrees from overhead
  // is advised first ("camera-advice"), with the angle it tells.
  std::string whole, partial;
  std::map<std::string, json> tilt;
  std::multiset<std::string> expected;
  for (int i = 0; i < 6 && (whole.empty() || partial.empty()); ++i) {
    const std::string image = "000" + std::to_string(i) + ".jpg";
    const CliRun read = run_arbitre("detect dice " + std::string(ARBITRE_TEST_DATA) + "/dice/" + image);
    ASSERT_EQ(read.exit_code, 0) << read.err;
    const json seen = json::parse(read.out);
    tilt[image] = seen["camera_tilt_deg"];
    std::multiset<std::string> dice;
    bool all_read = seen["dice"].size() == 10;
    for (const json& die : seen["dice"]) {
      if (die["value"].is_null()) {
        all_read = false;
      } else {
        dice.insert(std::to_string(die["value"].get<int>()) + (die["colour"] == "red" ? "r" : "w"));
      }
    }
    if (all_read && whole.empty()) {
      whole = image;
      expected = dice;
    } else if (!all_read && partial.empty()) {
      partial = image;
    }
  }
  ASSERT_FALSE(whole.empty()) << "the reader reads none of the regression images whole";
  // The events `watch` prints for frames of `image`, the advice first when its angle is past 20.
  const auto expected_kinds = [&](const std::string& image, const std::string& settled) {
    std::vector<std::string> out{"started"};
    if (tilt[image].is_number() && tilt[image].get<double>() > 20) out.push_back("camera-advice");
    out.push_back(settled);
    out.push_back("stopped");
    return out;
  };
  const auto check_advice = [&](const std::string& image, const std::vector<json>& events) {
    if (events.size() < 2 || events[1]["event"] != "camera-advice") return;
    EXPECT_EQ(events[1]["degrees"], std::lround(tilt[image].get<double>())) << image;
    EXPECT_EQ(events[1]["past"], true) << image;
  };

  const std::string db = temp_db("dice-camera.db");
  const std::string dir = dice_frames(whole, 15);
  const CliRun run = run_arbitre("watch --game yams --source " + dir + "/%04d.jpg --fps 10 --db " +
                                 db + " < /dev/null");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<json> events = lines(run.out);
  ASSERT_EQ(kinds(events), expected_kinds(whole, "rolled")) << run.out;
  check_advice(whole, events);
  const json& rolled = events[events.size() - 2];
  EXPECT_EQ(rolled["roll"], 1);
  std::multiset<std::string> got;
  std::istringstream words(rolled["dice"].get<std::string>());
  for (std::string word; words >> word;) got.insert(word);
  EXPECT_EQ(got, expected) << whole << ": " << run.out;
  EXPECT_EQ(events.back()["reason"], "end-of-source");

  if (partial.empty()) return;  // every image read whole: nothing unreadable to show
  const std::string other = dice_frames(partial, 15);
  const CliRun unread = run_arbitre("watch --game yams --source " + other + "/%04d.jpg --fps 10 --db " +
                                    temp_db("dice-unread.db") + " < /dev/null");
  ASSERT_EQ(unread.exit_code, 0) << unread.err;
  EXPECT_EQ(kinds(lines(unread.out)), expected_kinds(partial, "dice-unreadable"))
      << partial << ": " << unread.out;
  check_advice(partial, lines(unread.out));
}

TEST(WatchCli, ACalibrationFileIsKeptInTheStoreForItsCamera) {
  // Dice zones given once with --calibration are saved for that source; the next session on
  // the same source starts with them, a session on another source does not.
  const std::string dir = dice_frames("0004.jpg", 2);
  const std::string zones = write_temp("zones.json", R"({"tray": [[0, 0], [1280, 0], [1280, 720], [0, 720]]})");
  const std::string db = temp_db("calibrated.db");
  const std::string source = " --source " + dir + "/%04d.jpg --db " + db + " < /dev/null";
  const CliRun first = run_arbitre("watch --game yams --calibration " + zones + source);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  std::vector<json> events = lines(first.out);
  ASSERT_GE(events.size(), 2u);
  EXPECT_EQ(events[0]["event"], "calibration") << first.out;
  EXPECT_EQ(events[0]["kind"], "zones");
  EXPECT_EQ(events[0]["from"], "file");
  EXPECT_EQ(events[1]["event"], "started");

  const CliRun again = run_arbitre("watch --game yams" + source);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  events = lines(again.out);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events[0]["event"], "calibration") << again.out;
  EXPECT_EQ(events[0]["from"], "store");

  const std::string other = dice_frames("0003.jpg", 2);
  const CliRun elsewhere =
      run_arbitre("watch --game yams --source " + other + "/%04d.jpg --db " + db + " < /dev/null");
  ASSERT_EQ(elsewhere.exit_code, 0) << elsewhere.err;
  EXPECT_EQ(lines(elsewhere.out).at(0)["event"], "started") << elsewhere.out;
}

TEST(WatchCli, ABadCalibrationFileIsBadInputAndNothingIsSaved) {
  const std::string dir = dice_frames("0004.jpg", 2);
  const std::string zones = write_temp("bad-zones.json", R"({"tray": [[0, 0], [1280, "x"], [0, 720]]})");
  const std::string db = temp_db("bad-calibration.db");
  const std::string source = " --source " + dir + "/%04d.jpg --db " + db + " < /dev/null";
  const CliRun run = run_arbitre("watch --game yams --calibration " + zones + source);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("bad-zones.json"));
  EXPECT_THAT(run.err, HasSubstr("tray[1] (point 2)"));
  const CliRun again = run_arbitre("watch --game yams" + source);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(lines(again.out).at(0)["event"], "started") << "no calibration was saved: " << again.out;
  EXPECT_EQ(lines(again.out).at(0)["game"], 1) << "the refused run created no game";
}
