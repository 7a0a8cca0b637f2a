#include "referee/irma/record.h"

namespace arbitre::referee::irma {

std::optional<RecordError> validate(const Options& options) {
  int total = 0;
  for (const Colour colour : kAllColours) {
    const int count = options.bag[static_cast<int>(colour)];
    if (count < 0) {
      return RecordError{0, "options.bag." + std::string(to_string(colour)),
                         "a pion count cannot be negative"};
    }
    total += count;
  }
  if (total < kRectCells) {
    return RecordError{0, "options.bag",
                       "the bag holds " + std::to_string(total) + " pions, fewer than the " +
                           std::to_string(kRectCells) + " that fill the rectangle"};
  }
  for (int kind = 0; kind < kSeriesKindCount; ++kind) {
    if (options.marker_stock[kind] < 0) {
      return RecordError{
          0, "options.markers." + std::to_string(marker_value(static_cast<SeriesKind>(kind))),
          "a marker count cannot be negative"};
    }
  }
  return std::nullopt;
}

std::optional<RecordError> replay(const Record& record, State& state, const ReplayVisitor& visit) {
  if (auto error = validate(record.options)) return error;
  state = initial_state(record.options);
  int in_hand = -1;  // the colour of a refused pion the player must place again
  for (std::size_t i = 0; i < record.moves.size(); ++i) {
    const Move& move = record.moves[i];
    if (!is_over(state)) {
      if (in_hand >= 0 && in_hand != static_cast<int>(move.colour)) {
        return RecordError{i, "colour",
                           "the refused " + std::string(to_string(static_cast<Colour>(in_hand))) +
                               " pion must be placed again, not a " +
                               std::string(to_string(move.colour)) + " one"};
      }
      if (state.remaining(move.colour) <= 0) {
        const int count = state.options.bag[static_cast<int>(move.colour)];
        return RecordError{i, "colour",
                           "pion " +
                               std::to_string(state.drawn[static_cast<int>(move.colour)] + 1) +
                               " of colour " + std::string(to_string(move.colour)) +
                               ", but the bag holds only " + std::to_string(count)};
      }
    }
    const Verdict verdict = check(state, move);
    if (verdict.legal()) {
      play(state, move);
      in_hand = -1;
    } else if (verdict.reason != Reason::GameOver) {
      in_hand = static_cast<int>(move.colour);
    }
    if (visit) visit(move, verdict, state);
  }
  return std::nullopt;
}

std::vector<Colour> draws(const Record& record) {
  std::vector<Colour> out;
  State state;
  replay(record, state, [&](const Move& move, const Verdict& verdict, const State&) {
    if (verdict.legal()) out.push_back(move.colour);
  });
  return out;
}

}  // namespace arbitre::referee::irma
