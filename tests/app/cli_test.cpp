// The `arbitre` command line as a user runs it: JSON on stdout, a clear message on stderr and
// exit code 2 for bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli_run.h"

using nlohmann::json;
using ::testing::HasSubstr;

using arbitre::testing::run_arbitre;
using arbitre::testing::CliRun;
using arbitre::testing::write_temp;

namespace {

const std::string kSeedExample = std::string(ARBITRE_TEST_DATA) + "/irma/seed-example.json";

}  // namespace

TEST(Cli, CheckGivesEveryVerdictAndTheScore) {
  const CliRun run = run_arbitre("irma check " + kSeedExample);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json out = json::parse(run.out);
  ASSERT_EQ(out["moves"].size(), 10u);
  EXPECT_EQ(out["moves"][3]["marker"], 4);  // the suite G O R on the anti-diagonal
  EXPECT_EQ(out["moves"][7]["marker"], 2);  // the orange brelan
  const json& refused = out["moves"][8];
  EXPECT_EQ(refused["legal"], false);
  EXPECT_EQ(refused["reason"], "repeated-series");
  EXPECT_EQ(refused["cells"], json::parse("[[0,2],[1,2],[2,2]]"));
  EXPECT_EQ(out["moves"][9]["legal"], true);
  EXPECT_EQ(out["score"], 9);
  EXPECT_EQ(out["completed"], false);
  EXPECT_EQ(out["blocked"], false);
  EXPECT_EQ(out["bonus"], 0);
}

TEST(Cli, LegalListsTheCellsForTheNextPion) {
  const CliRun run = run_arbitre("irma legal " + kSeedExample + " white");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json out = json::parse(run.out);
  EXPECT_EQ(out["colour"], "white");
  EXPECT_GT(out["count"].get<int>(), 0);
  for (const auto& cell : out["cells"]) {  // none touches the white at (0,1)
    EXPECT_FALSE(std::abs(cell["row"].get<int>() - 0) <= 1 &&
                 std::abs(cell["col"].get<int>() - 1) <= 1);
  }
}

TEST(Cli, AdviseRanksCellsReproducibly) {
  const CliRun a = run_arbitre("irma advise " + kSeedExample + " red --simulations 16 --seed 4");
  const CliRun b = run_arbitre("irma advise " + kSeedExample + " red --simulations 16 --seed 4");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  const json out = json::parse(a.out);
  const CliRun legal = run_arbitre("irma legal " + kSeedExample + " red");
  EXPECT_EQ(out["ranking"].size(), json::parse(legal.out)["count"].get<std::size_t>());
}

TEST(Cli, PlayWritesARecordThatChecksToTheSameScore) {
  const CliRun played = run_arbitre("irma play --player greedy --seed 8");
  ASSERT_EQ(played.exit_code, 0) << played.err;
  const std::string path = write_temp("played.json", played.out);
  const CliRun checked = run_arbitre("irma check " + path);
  ASSERT_EQ(checked.exit_code, 0) << checked.err;
  const json record = json::parse(played.out);
  const json verdicts = json::parse(checked.out);
  EXPECT_THAT(record["comment"].get<std::string>(),
              HasSubstr(std::to_string(verdicts["score"].get<int>()) + " points"));
  EXPECT_TRUE(verdicts["over"].get<bool>());
}

TEST(Cli, DemoReplaysTheEmbeddedRecord) {
  const CliRun run = run_arbitre("demo");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("REFUSED"));
  EXPECT_THAT(run.out, HasSubstr("Score:"));
}

TEST(Cli, NotJsonIsBadInput) {
  const CliRun run = run_arbitre("irma check " + write_temp("bad.json", "moves: red 0 0\n"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("bad.json: line 1, column 1: not valid JSON"));
  EXPECT_TRUE(run.out.empty());
}

TEST(Cli, UnknownColourIsBadInput) {
  const CliRun run = run_arbitre(
      "irma check " +
      write_temp(
          "purple.json",
          R"({"moves": [{"colour": "red", "row": 0, "col": 0}, {"colour": "purple", "row": 0, "col": 1}]})"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("moves[1] (move 2).colour: unknown colour \"purple\""));
  EXPECT_EQ(run_arbitre("irma legal " + kSeedExample + " blue").exit_code, 2);
}

TEST(Cli, MissingFieldIsBadInput) {
  const CliRun run = run_arbitre(
      "irma check " + write_temp("missing.json", R"({"moves": [{"colour": "red", "col": 0}]})"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("moves[0] (move 1).row: missing field"));
}

TEST(Cli, TooManyPionsOfAColourIsBadInput) {
  // A bag of two whites, and a third white drawn.
  const CliRun run = run_arbitre("irma check " + write_temp("whites.json", R"({
    "options": {"bag": {"white": 2, "red": 20}},
    "moves": [{"colour": "white", "row": 0, "col": 0}, {"colour": "red", "row": 0, "col": 1},
              {"colour": "white", "row": 0, "col": 2}, {"colour": "white", "row": 1, "col": 4}]})"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("whites.json: moves[3] (move 4).colour: pion 3 of colour white, "
                                 "but the bag holds only 2"));
}

TEST(Cli, MissingFileAndBadArgumentsAreBadInput) {
  const CliRun missing = run_arbitre("irma check /nonexistent/game.json");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("/nonexistent/game.json: cannot open"));
  EXPECT_EQ(run_arbitre("irma advise " + kSeedExample + " red --simulations 0").exit_code, 2);
  EXPECT_EQ(run_arbitre("irma frobnicate").exit_code, 2);
  EXPECT_EQ(run_arbitre("irma play --player oracle").exit_code, 2);
}

TEST(Cli, HelpListsTheCommands) {
  const CliRun run = run_arbitre("--help");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_THAT(run.out, HasSubstr("irma"));
  EXPECT_THAT(run.out, HasSubstr("demo"));
}

TEST(Cli, DetectPionsOnBadFilesIsBadInput) {
  EXPECT_EQ(run_arbitre("detect pions /nonexistent/table.jpg").exit_code, 2);
  const CliRun text = run_arbitre("detect pions " + write_temp("notes.jpg", "not an image at all\n"));
  EXPECT_EQ(text.exit_code, 2);
  EXPECT_THAT(text.err, HasSubstr("not a readable image"));
  const std::string image = std::string(ARBITRE_TEST_DATA) + "/pions/0003.jpg";
  const CliRun calibration = run_arbitre("detect pions " + image + " --calibration " +
                                         write_temp("calibration.json", R"({"red": [1, 2]})"));
  EXPECT_EQ(calibration.exit_code, 2);
  EXPECT_THAT(calibration.err, HasSubstr("red: expected three numbers"));
}

TEST(Cli, DetectPionsPrintsCellsAndColours) {
  const CliRun run = run_arbitre("detect pions " + std::string(ARBITRE_TEST_DATA) + "/pions/0003.jpg");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json out = json::parse(run.out);
  EXPECT_EQ(out["width"], 1280);
  EXPECT_EQ(out["pions"].size(), 30u);
  EXPECT_TRUE(out["pions"][0].contains("confidence"));
}

TEST(Cli, MatIsWrittenAsPdf) {
  const std::string path = testing::TempDir() + "mat.pdf";
  EXPECT_EQ(run_arbitre("mat --out " + path).exit_code, 0);
  EXPECT_EQ(run_arbitre("mat --out " + path + " --size letter").exit_code, 2);
}
