// `arbitre irma ...` and `arbitre demo`: the Irma commands of the command line. Each returns
// the JSON (or text) it prints; bad input throws data::InputError.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "data/irma/record_json.h"

namespace arbitre::app::irma {

// Every move's verdict and the running score, then the final score (one object per player for a
// two-player record, with the winner).
// The board as rows of letters R, O, G, W and '.', over its bounding box.
nlohmann::json board_json(const referee::irma::Board& board);

nlohmann::json check_record(const data::irma::GameRecord& game);

// The legal cells for the next pion of `colour` after the record.
nlohmann::json legal(const data::irma::GameRecord& game, const std::string& colour);

// The legal cells for the next pion, ranked by the advisor.
nlohmann::json advise(const data::irma::GameRecord& game, const std::string& colour,
                      int simulations, std::uint64_t seed);

// A whole solo game by one of the players (random, greedy, advisor), as a record.
nlohmann::json play(const std::string& player, std::uint64_t seed, int simulations);

// The embedded demonstration: the bundled record replayed, in words.
std::string demo_text(const data::irma::GameRecord& game);

}  // namespace arbitre::app::irma
