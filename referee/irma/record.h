// Le jeu d'Irma — game records: the options plus every move tried, in order. Replaying a
// record through the engine reproduces the game exactly; it also checks that the record could
// have happened (pions the bag holds, a refused pion tried again).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "referee/irma/irma.h"

namespace arbitre::referee::irma {

struct Record {
  Options options;
  std::vector<Move> moves;
  bool operator==(const Record&) const = default;
};

// A record that cannot describe a real game: which move, which field, and why.
struct RecordError {
  std::size_t move = 0;  // index in the record's moves
  std::string field;
  std::string message;
};

// Called for every move: the move, the referee's verdict and the state after it (unchanged
// when the move was refused).
using ReplayVisitor = std::function<void(const Move&, const Verdict&, const State&)>;

// Replays the record from the initial state into `state`. Stops at the first move that cannot
// have happened: a colour whose pions are all out of the bag, or a colour other than that of the
// refused pion the player must place again. Moves after the end are refused with game-over,
// not errors.
std::optional<RecordError> replay(const Record& record, State& state,
                                  const ReplayVisitor& visit = {});

// The sequence of drawn pions a replay takes from the bag: accepted placements and a true
// blocking, in order.
std::vector<Colour> draws(const Record& record);

// Problems with the options themselves (negative counts, a bag too small to fill the
// rectangle). The field names the option.
std::optional<RecordError> validate(const Options& options);

}  // namespace arbitre::referee::irma
