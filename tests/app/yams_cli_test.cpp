// `arbitre yams ...` as a user runs it: every box of a roll, whole records, advice, bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli_run.h"

using arbitre::testing::run_arbitre;
using arbitre::testing::CliRun;
using arbitre::testing::write_temp;
using nlohmann::json;
using ::testing::HasSubstr;

namespace {

const std::string kShortGame = std::string(ARBITRE_TEST_DATA) + "/yams/short-game.json";

std::string one_turn_game(const std::string& turns) {
  return R"({"players": ["Anna"], "turns": [)" + turns + "]}";
}

}  // namespace

TEST(YamsCli, ScoreGivesEveryBoxAndTheDiceBehindIt) {
  const CliRun run = run_arbitre("yams score 4r 4r 4r 4r 9r 6w 6w 6w 6w 1w");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json out = json::parse(run.out);
  EXPECT_EQ(out["boxes"].size(), 34u);
  EXPECT_EQ(out["boxes"]["double-carre"], 200);
  EXPECT_EQ(out["boxes"]["chiffre-4"], 16);
  EXPECT_EQ(out["boxes"]["tout-en-paires"], 0);
  EXPECT_EQ(out["choices"]["double-carre"]["indices"], json::parse("[0,1,2,3,5,6,7,8]"));
  EXPECT_EQ(out["choices"]["double-carre"]["colour_harmony"], true);
  EXPECT_FALSE(out["choices"].contains("tout-en-paires"));
  // The keys come in sheet order.
  EXPECT_EQ(nlohmann::ordered_json::parse(run.out)["boxes"].begin().key(), "chiffre-1");
  const json first = json::parse(run_arbitre("yams score 4r 4r 4r 4r 9r 6w 6w 6w 6w 1w --first-roll").out);
  EXPECT_EQ(first["boxes"]["double-carre"], 600);
  EXPECT_EQ(first["boxes"]["chiffre-4"], 16);
}

TEST(YamsCli, CheckReplaysTurnsAndSheets) {
  const CliRun run = run_arbitre("yams check " + kShortGame);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json out = json::parse(run.out);
  ASSERT_EQ(out["turns"].size(), 5u);
  EXPECT_EQ(out["turns"][0]["score"], 30);
  EXPECT_EQ(out["turns"][0]["first_roll"], true);
  EXPECT_EQ(out["turns"][1]["score"], 25);
  EXPECT_EQ(out["turns"][1]["sixth"]["success"], true);
  EXPECT_EQ(out["turns"][2]["score"], 10);
  EXPECT_EQ(out["turns"][3]["score"], -10);
  EXPECT_EQ(out["turns"][3]["sixth"]["success"], false);
  EXPECT_EQ(out["turns"][4]["score"], 69);
  EXPECT_EQ(out["players"][0]["totals"]["grand"], 40);
  EXPECT_EQ(out["players"][0]["totals"]["total5"], 0);  // Moins not filled yet
  EXPECT_EQ(out["players"][1]["totals"]["grand"], 15);
  EXPECT_EQ(out["over"], false);
  EXPECT_EQ(out["winner"], nullptr);
  EXPECT_EQ(out["to_move"], "Bruno");
}

TEST(YamsCli, WholeGameRecordsReplayToTheSameSheets) {
  const CliRun played = run_arbitre("yams play --player greedy --players 2 --seed 12");
  ASSERT_EQ(played.exit_code, 0) << played.err;
  const std::string path = write_temp("game.json", played.out);
  const CliRun a = run_arbitre("yams check " + path);
  const CliRun b = run_arbitre("yams check " + path);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  const json out = json::parse(a.out);
  EXPECT_EQ(out["over"], true);
  EXPECT_EQ(out["turns"].size(), 68u);
  for (const auto& player : out["players"]) {
    EXPECT_EQ(player["filled"], 34);
    const json& t = player["totals"];
    EXPECT_EQ(t["grand"], t["total1"].get<int>() + t["total2"].get<int>() + t["total3"].get<int>() +
                              t["total4"].get<int>() + t["total5"].get<int>());
  }
  EXPECT_NE(out["winner"], nullptr);
}

TEST(YamsCli, AdviseGivesAnActionAndItsExpectedValue) {
  const std::string state = write_temp("state.json", R"({
    "sheet": {"chiffre-1": {"score": 3, "count": 3}, "brelan": 10},
    "rolls": 2, "dice": "7r 7r 7r 1r 2r 7w 3w 4w 5w 9w"})");
  const CliRun run = run_arbitre("yams advise " + state + " --samples 16 --seed 2");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json out = json::parse(run.out);
  EXPECT_THAT(out["action"].get<std::string>(), ::testing::AnyOf("roll", "fill", "declare"));
  EXPECT_GT(out["expected"].get<double>(), 0.0);
  EXPECT_FALSE(out["alternatives"].empty());
  EXPECT_EQ(run.out, run_arbitre("yams advise " + state + " --samples 16 --seed 2").out);
  // Ten equal dice on the first roll: fill the Yams impossible, x3.
  const std::string ten = write_temp("ten.json", R"({"rolls": 1, "dice": "6r 6r 6r 6r 6r 6w 6w 6w 6w 6w"})");
  const json best = json::parse(run_arbitre("yams advise " + ten + " --samples 8").out);
  EXPECT_EQ(best["action"], "fill");
  EXPECT_EQ(best["points"], 2400);
}

TEST(YamsCli, NineDiceIsBadInput) {
  const CliRun run = run_arbitre("yams score 1r 2r 3r 4r 5r 6w 7w 8w 9w");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("DICE: expected ten dice, got 9"));
}

TEST(YamsCli, ValueElevenIsBadInput) {
  const CliRun run = run_arbitre("yams score 11r 2r 3r 4r 5r 6w 7w 8w 9w 10w");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("DICE: die 0: value 11 is not a face of a d10"));
}

TEST(YamsCli, UnknownColourIsBadInput) {
  const CliRun run = run_arbitre("yams score 1r 2r 3r 4r 5b 6w 7w 8w 9w 10w");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("die 4: unknown colour 'b'"));
  const CliRun six_red = run_arbitre("yams score 1r 2r 3r 4r 5r 6r 7w 8w 9w 10w");
  EXPECT_EQ(six_red.exit_code, 2);
  EXPECT_THAT(six_red.err, HasSubstr("5 red and 5 white"));
}

TEST(YamsCli, BoxFilledTwiceIsBadInput) {
  const CliRun run = run_arbitre("yams check " + write_temp("twice.json", one_turn_game(R"(
    {"rolls": ["5r 5r 5r 1r 2r 5w 3w 4w 6w 7w"], "box": "carre"},
    {"rolls": ["5r 5r 5r 1r 2r 5w 3w 4w 6w 7w"], "box": "carre"})")));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("turns[1] (turn 2).box: box-filled: carre is already filled"));
}

TEST(YamsCli, SeventhRollIsBadInput) {
  const std::string roll = R"("1r 2r 3r 4r 6r 1w 2w 7w 8w 9w")";
  std::string rolls = roll;
  for (int i = 1; i < 7; ++i) rolls += "," + roll;
  const CliRun run = run_arbitre("yams check " + write_temp("seven.json", one_turn_game(
      R"({"rolls": [)" + rolls + R"(], "declare": "brelan", "box": "brelan"})")));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("turns[0] (turn 1).rolls[6]: too-many-rolls"));
  std::string six = roll;
  for (int i = 1; i < 6; ++i) six += "," + roll;
  const CliRun undeclared = run_arbitre("yams check " + write_temp("six.json", one_turn_game(
      R"({"rolls": [)" + six + R"(], "box": "brelan"})")));
  EXPECT_EQ(undeclared.exit_code, 2);
  EXPECT_THAT(undeclared.err, HasSubstr("rolls[5]: a sixth roll needs a declared box"));
}

TEST(YamsCli, KeptDieThatChangedIsBadInput) {
  const CliRun run = run_arbitre("yams check " + write_temp("kept.json", one_turn_game(R"(
    {"rolls": ["5r 5r 5r 1r 2r 5w 3w 4w 6w 7w", {"keep": [0, 1], "dice": "5r 6r 5r 1r 2r 5w 3w 4w 6w 7w"}],
     "box": "carre"})")));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("rolls[1]: kept-die-changed: die 1 was set aside"));
}

TEST(YamsCli, MalformedRecordsNameTheField) {
  EXPECT_THAT(run_arbitre("yams check " + write_temp("a.json", one_turn_game(R"({"rolls": ["1r"], "box": "brelan"})"))).err,
              HasSubstr("turns[0] (turn 1).rolls[0]: expected ten dice, got 1"));
  EXPECT_THAT(run_arbitre("yams check " + write_temp("b.json", one_turn_game(
                  R"({"rolls": ["1r 2r 3r 4r 6r 1w 2w 7w 8w 9w"], "box": "chiffre-11"})"))).err,
              HasSubstr("turns[0] (turn 1).box: unknown box \"chiffre-11\""));
  EXPECT_THAT(run_arbitre("yams check " + write_temp("c.json", "{\"turns\": [}")).err, HasSubstr("line 1"));
  EXPECT_EQ(run_arbitre("yams advise " + write_temp("d.json", R"({"rolls": 2})")).exit_code, 2);
  EXPECT_EQ(run_arbitre("yams play --player oracle").exit_code, 2);
}
