#include "vision/stability.h"

namespace arbitre::vision {
namespace {

namespace ri = referee::irma;

// Shifts `seen` (whose cells start at 0,0) to agree best with `reference`: the translation
// with the most cells of the same colour (rows and columns are renumbered when a pion lands
// above or left of the board).
BoardView aligned(const BoardView& seen, const BoardView& reference) {
  if (seen.empty() || reference.empty()) return seen;
  int best = -1;
  ri::Cell shift{0, 0};
  for (const auto& [a, ca] : seen) {
    for (const auto& [b, cb] : reference) {
      if (ca != cb) continue;
      const ri::Cell s{b.row - a.row, b.col - a.col};
      int agree = 0;
      for (const auto& [c, colour] : seen) {
        const auto it = reference.find({c.row + s.row, c.col + s.col});
        agree += it != reference.end() && it->second == colour;
      }
      if (agree > best) {
        best = agree;
        shift = s;
      }
    }
  }
  BoardView out;
  for (const auto& [c, colour] : seen) out[{c.row + shift.row, c.col + shift.col}] = colour;
  return out;
}

std::string describe(const BoardView& now, const BoardView& before) {
  int added = 0, removed = 0, recoloured = 0;
  for (const auto& [c, colour] : now) {
    const auto it = before.find(c);
    if (it == before.end()) {
      ++added;
    } else if (it->second != colour) {
      ++recoloured;
    }
  }
  for (const auto& [c, colour] : before) removed += now.count(c) == 0;
  std::string out;
  const auto part = [&](int n, const char* what) {
    if (n == 0) return;
    if (!out.empty()) out += ", ";
    out += std::to_string(n) + " " + what;
  };
  if (added == 1 && removed == 1 && recoloured == 0) return "a pion moved";
  part(added, added == 1 ? "pion added" : "pions added");
  part(removed, removed == 1 ? "pion removed" : "pions removed");
  part(recoloured, recoloured == 1 ? "pion changed colour" : "pions changed colour");
  return out;
}

}  // namespace

BoardView board_view(const PionObservation& observation) {
  BoardView view;
  for (const PionSighting& p : observation.pions) view[{p.row, p.col}] = p.colour;
  return view;
}

StabilityUpdate StabilityFilter::feed(const PionObservation& observation, double seconds) {
  StabilityUpdate update;
  const BoardView seen = aligned(board_view(observation), accepted_);
  if (seen != current_ || frames_ == 0) {
    current_ = seen;
    since_ = seconds;
    frames_ = 1;
    reported_ = false;
    if (!unstable_) {
      unstable_ = true;
      update.event = SceneEvent::Unstable;
    }
    return update;
  }
  ++frames_;
  if (reported_ || frames_ < params_.min_frames || seconds - since_ < params_.stable_seconds) return update;
  reported_ = true;
  unstable_ = false;
  update.board = current_;
  if (current_ == accepted_) {
    update.event = SceneEvent::Stable;
    return update;
  }
  // Exactly one new pion, every other one where and as it was.
  bool others_kept = current_.size() == accepted_.size() + 1;
  std::optional<std::pair<ri::Cell, ri::Colour>> added;
  for (const auto& [c, colour] : accepted_) {
    const auto it = current_.find(c);
    others_kept = others_kept && it != current_.end() && it->second == colour;
  }
  if (others_kept) {
    for (const auto& [c, colour] : current_) {
      if (!accepted_.count(c)) added = {c, colour};
    }
  }
  if (added) {
    update.event = SceneEvent::Placement;
    update.cell = added->first;
    update.colour = added->second;
  } else {
    update.event = SceneEvent::BoardChanged;
    update.detail = describe(current_, accepted_);
  }
  return update;
}

}  // namespace arbitre::vision
