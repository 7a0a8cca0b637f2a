// Irma game records as JSON: what is accepted, and bad input named by file, place and field.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "data/input_error.h"
#include "data/irma/record_json.h"

namespace ri = arbitre::referee::irma;
namespace di = arbitre::data::irma;
using arbitre::data::InputError;
using ::testing::HasSubstr;

namespace {

// The message of the InputError the text raises, or "" when it parses.
std::string error_of(const std::string& text) {
  try {
    di::parse_record(text, "game.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(IrmaRecordJson, Rule14OptionsMayBeOmitted) {
  const auto game = di::parse_record(R"({"moves": [{"colour": "red", "row": 0, "col": 0}]})", "g");
  ASSERT_TRUE(game.solo());
  EXPECT_EQ(game.options, ri::Options{});
  EXPECT_EQ(game.players[0].record.moves[0], ri::Move::place(ri::Colour::Red, {0, 0}));
}

TEST(IrmaRecordJson, OptionsAndBlockingClaimsAreRead) {
  const auto game = di::parse_record(R"({
    "options": {"bag": {"red": 13, "white": 9}, "markers": {"4": 20}, "repeat_rule": "previous-turn"},
    "moves": [{"colour": "white", "row": 0, "col": 0}, {"colour": "red", "blocked": true}]})",
                                     "g");
  EXPECT_EQ(game.options.bag, (std::array<int, 4>{13, 14, 16, 9}));
  EXPECT_EQ(game.options.marker_stock[2], 20);
  EXPECT_EQ(game.options.repeat_rule, ri::RepeatRule::PreviousTurn);
  EXPECT_TRUE(game.players[0].record.moves[1].is_block_claim());
}

TEST(IrmaRecordJson, RoundTripsThroughJson) {
  ri::Record record;
  record.options.repeat_rule = ri::RepeatRule::PreviousTurn;
  record.moves = {ri::Move::place(ri::Colour::Green, {-2, 5}),
                  ri::Move::place(ri::Colour::Orange, {-1, 5})};
  const auto game = di::parse_record(di::record_to_json(record).dump(), "g");
  EXPECT_EQ(game.players[0].record, record);
}

TEST(IrmaRecordJson, MalformedJsonNamesLineAndColumn) {
  const std::string message = error_of("{\n  \"moves\": [\n    {\"colour\": \"red\",, }\n]}");
  EXPECT_THAT(message, HasSubstr("game.json: line 3"));
  EXPECT_THAT(message, HasSubstr("not valid JSON"));
}

TEST(IrmaRecordJson, UnknownColourNamesMoveAndField) {
  const std::string message = error_of(
      R"({"moves": [{"colour": "red", "row": 0, "col": 0}, {"colour": "purple", "row": 0, "col": 1}]})");
  EXPECT_THAT(message, HasSubstr("moves[1] (move 2).colour"));
  EXPECT_THAT(message, HasSubstr("unknown colour \"purple\""));
}

TEST(IrmaRecordJson, MissingFieldIsNamed) {
  EXPECT_THAT(error_of(R"({"moves": [{"colour": "red", "row": 0}]})"),
              HasSubstr("moves[0] (move 1).col: missing field"));
  EXPECT_THAT(error_of(R"({"moves": [{"row": 0, "col": 0}]})"),
              HasSubstr("moves[0] (move 1).colour: missing field"));
  EXPECT_THAT(error_of(R"({"options": {}})"), HasSubstr("exactly one of \"moves\" or \"players\""));
}

TEST(IrmaRecordJson, WrongTypesAndUnknownFieldsAreRefused) {
  EXPECT_THAT(error_of(R"({"moves": [{"colour": "red", "row": "0", "col": 0}]})"),
              HasSubstr("moves[0] (move 1).row: expected an integer"));
  EXPECT_THAT(error_of(R"({"moves": [{"colour": "red", "row": 0, "col": 0, "colr": 1}]})"),
              HasSubstr("moves[0] (move 1).colr: unknown field"));
  EXPECT_THAT(error_of(R"({"options": {"bag": {"blue": 3}}, "moves": []})"),
              HasSubstr("options.bag.blue: unknown colour"));
  EXPECT_THAT(error_of(R"({"options": {"repeat_rule": "never"}, "moves": []})"),
              HasSubstr("options.repeat_rule"));
  EXPECT_THAT(error_of(R"({"options": {"bag": {"red": 0, "orange": 0}}, "moves": []})"),
              HasSubstr("options.bag: the bag holds 26 pions"));
  EXPECT_THAT(error_of("[1, 2]"), HasSubstr("top level"));
}

TEST(IrmaRecordJson, MorePionsThanTheBagHoldsNamesTheMove) {
  std::string moves =
      R"({"options": {"bag": {"white": 1, "red": 21}}, "moves": [)"
      R"({"colour": "white", "row": 0, "col": 0}, {"colour": "red", "row": 0, "col": 1},)"
      R"({"colour": "white", "row": 0, "col": 2}]})";
  const std::string message = error_of(moves);
  EXPECT_THAT(message, HasSubstr("moves[2] (move 3).colour"));
  EXPECT_THAT(message, HasSubstr("bag holds only 1"));
}

TEST(IrmaRecordJson, TwoPlayersMustPlaceTheSameDraws) {
  const std::string ok = R"({"players": [
      {"name": "Anna", "moves": [{"colour": "red", "row": 0, "col": 0}, {"colour": "green", "row": 0, "col": 1}]},
      {"name": "Bruno", "moves": [{"colour": "red", "row": 5, "col": 5}, {"colour": "green", "row": 6, "col": 6}]}]})";
  const auto game = di::parse_record(ok, "g");
  EXPECT_EQ(game.players.size(), 2u);
  EXPECT_EQ(game.players[1].name, "Bruno");
  const std::string diverging = R"({"players": [
      {"name": "Anna", "moves": [{"colour": "red", "row": 0, "col": 0}, {"colour": "green", "row": 0, "col": 1}]},
      {"name": "Bruno", "moves": [{"colour": "red", "row": 5, "col": 5}, {"colour": "orange", "row": 6, "col": 6}]}]})";
  const std::string message = error_of(diverging);
  EXPECT_THAT(message, HasSubstr("players[1].moves: draw 2 is orange but Anna drew green"));
}

TEST(IrmaRecordJson, DemoRecordIsValid) {
  const auto game = di::parse_record(di::demo_record_text(), "irma-demo.json");
  EXPECT_TRUE(game.solo());
  EXPECT_GE(game.players[0].record.moves.size(), 35u);
}
