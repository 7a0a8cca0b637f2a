// Ten dice from their text form ("7r 7r 3w ..."), for the Yams tests. The roll must be valid:
// ten dice, 5 red and 5 white.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "referee/yams/dice.h"

namespace arbitre::testing::yams {

inline referee::yams::Dice dice(const std::string& text) {
  namespace ry = referee::yams;
  std::istringstream in(text);
  ry::Dice out{};
  std::string token;
  int i = 0;
  while (in >> token) {
    std::string error;
    const auto die = ry::die_from_text(token, &error);
    EXPECT_TRUE(die.has_value()) << error;
    if (die && i < ry::kDiceCount) out[i] = *die;
    ++i;
  }
  EXPECT_EQ(i, ry::kDiceCount) << text;
  const auto problem = ry::validate(out);
  EXPECT_FALSE(problem.has_value()) << text << ": " << problem.value_or("");
  return out;
}

}  // namespace arbitre::testing::yams
