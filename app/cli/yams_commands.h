// `arbitre yams ...`: the Yams commands of the command line. Bad input throws data::InputError.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "data/yams/record_json.h"

namespace arbitre::app::yams {

// Every box's score for ten dice, with the dice behind each non-zero one.
nlohmann::ordered_json score(const std::vector<std::string>& dice, bool first_roll);

// Every turn's verdict and every sheet with its totals.
nlohmann::ordered_json check_record(const data::yams::GameRecord& record);

// What to do now: the dice to keep, or the box to fill or declare, with its expected value.
nlohmann::ordered_json advise(const referee::yams::State& state, int samples, std::uint64_t seed);

// A whole game by the greedy player or the advisor, as a record.
nlohmann::ordered_json play(const std::string& player, std::uint64_t seed, int players, int samples);

// The embedded demonstration: the bundled record replayed, in words, with the final sheets.
std::string demo_text(const data::yams::GameRecord& record);

}  // namespace arbitre::app::yams
