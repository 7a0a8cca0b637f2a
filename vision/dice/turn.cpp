#include "vision/dice/turn.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace arbitre::vision::dice {

namespace {

bool rolled_zone(DieZone zone) {
  return zone != DieZone::Kept;
}

// The same die in two observations: the same place and zone. Values are not compared: a
// reading may come and go from frame to frame (an unread die, a glint) while the die lies still.
bool same_die(const DieSighting& a, const DieSighting& b, double pixels) {
  return std::hypot(a.x - b.x, a.y - b.y) <= pixels && a.zone == b.zone;
}

bool read(const DieSighting& d) {
  return !d.cocked && d.value > 0;
}

// Index of a die of `dice` that is `die` (same place, value, colour), or -1.
int find(const std::vector<DieSighting>& dice, const DieSighting& die, double pixels,
         std::vector<bool>& used) {
  for (std::size_t i = 0; i < dice.size(); ++i) {
    if (!used[i] && same_die(dice[i], die, pixels)) {
      used[i] = true;
      return static_cast<int>(i);
    }
  }
  return -1;
}

std::vector<DieSighting> in_zone(const DiceObservation& o, bool rolled) {
  std::vector<DieSighting> out;
  for (const DieSighting& d : o.dice) {
    if (rolled_zone(d.zone) == rolled) out.push_back(d);
  }
  return out;
}

std::string text(const DieSighting& d) {
  const std::string colour = d.colour == referee::yams::DieColour::Red ? "r" : "w";
  if (d.cocked) return "cocked " + colour;
  return (d.value == 0 ? std::string("?") : std::to_string(d.value)) + colour;
}

bool sure(const DieSighting& d, double confidence) { return read(d) && d.confidence >= confidence; }

}  // namespace

DiceObservation carry_known_values(const DiceObservation& before, const DiceObservation& scene,
                                   double sure_confidence, double pixels, std::vector<int>* carried) {
  DiceObservation out = scene;
  const auto known = [&](const DieSighting& d) { return sure(d, sure_confidence); };
  const auto fill = [&](std::size_t i, const DieSighting& from) {
    DieSighting& d = out.dice[i];
    d.value = from.value;
    d.cocked = false;
    d.confidence = from.confidence;
    if (carried) carried->push_back(static_cast<int>(i));
  };
  // Kept dice at a kept die's place: the same die.
  std::vector<bool> before_used(before.dice.size(), false);
  std::vector<bool> newcomer(out.dice.size(), false);
  for (std::size_t i = 0; i < out.dice.size(); ++i) {
    const DieSighting& d = out.dice[i];
    if (d.zone != DieZone::Kept) continue;
    int at = -1;
    double best = pixels;
    for (std::size_t j = 0; j < before.dice.size(); ++j) {
      const DieSighting& b = before.dice[j];
      if (before_used[j] || b.zone != DieZone::Kept || b.colour != d.colour) continue;
      const double distance = std::hypot(b.x - d.x, b.y - d.y);
      if (distance <= best) best = distance, at = static_cast<int>(j);
    }
    if (at < 0) {
      newcomer[i] = true;
      continue;
    }
    before_used[static_cast<std::size_t>(at)] = true;
    const DieSighting& b = before.dice[static_cast<std::size_t>(at)];
    if (!d.cocked && !known(d) && known(b)) fill(i, b);
  }
  // Kept dice do not vanish either: when fewer dice are seen than before, and fewer of a colour
  // (by no more than in all), and exactly that many of before's kept dice of that colour, all
  // read sure, are seen nowhere at their place, the reader missed them: they are back at their
  // place with their values. Not after a roll (a tray die not where a tray die lay before): a
  // player may pick a kept die up to roll it again, and a die missed in the tray would pass for
  // it.
  const bool tray_still = std::all_of(out.dice.begin(), out.dice.end(), [&](const DieSighting& d) {
    return d.zone == DieZone::Kept ||
           std::any_of(before.dice.begin(), before.dice.end(), [&](const DieSighting& b) {
             return b.zone == d.zone && b.colour == d.colour && std::hypot(b.x - d.x, b.y - d.y) <= pixels;
           });
  });
  for (const referee::yams::DieColour colour :
       {referee::yams::DieColour::Red, referee::yams::DieColour::White}) {
    if (!tray_still) break;
    const auto of_colour = [&](const DiceObservation& o) {
      return std::count_if(o.dice.begin(), o.dice.end(), [&](const DieSighting& d) { return d.colour == colour; });
    };
    const auto deficit = of_colour(before) - of_colour(out);
    const auto missing = static_cast<long>(before.dice.size()) - static_cast<long>(out.dice.size());
    if (deficit <= 0 || deficit > missing) continue;  // fewer dice seen in all, this colour's
    std::vector<std::size_t> gone;
    bool all_sure = true;
    for (std::size_t j = 0; j < before.dice.size(); ++j) {
      const DieSighting& b = before.dice[j];
      if (b.zone != DieZone::Kept || b.colour != colour || before_used[j]) continue;
      gone.push_back(j);
      all_sure = all_sure && known(b) && !b.cocked;
    }
    if (!all_sure || static_cast<long>(gone.size()) != deficit) continue;
    for (const std::size_t j : gone) {
      before_used[j] = true;
      out.dice.push_back(before.dice[j]);
      newcomer.push_back(false);
      if (carried) carried->push_back(static_cast<int>(out.dice.size() - 1));
    }
  }
  // Newcomers to the kept zone came from before's tray: the tray dice no longer at their place.
  std::vector<bool> still(before.dice.size(), false);
  for (const DieSighting& d : out.dice) {
    if (d.zone == DieZone::Kept) continue;
    for (std::size_t j = 0; j < before.dice.size(); ++j) {
      const DieSighting& b = before.dice[j];
      if (!still[j] && b.zone == d.zone && b.colour == d.colour &&
          std::hypot(b.x - d.x, b.y - d.y) <= pixels) {
        still[j] = true;
        break;
      }
    }
  }
  for (const referee::yams::DieColour colour :
       {referee::yams::DieColour::Red, referee::yams::DieColour::White}) {
    // Only when both scenes show as many dice of this colour: a die missed in the tray now would
    // pass for one that left it, a die missed before would be missing from those that left.
    const auto of_colour = [&](const DiceObservation& o) {
      return std::count_if(o.dice.begin(), o.dice.end(), [&](const DieSighting& d) { return d.colour == colour; });
    };
    if (of_colour(before) != of_colour(out)) continue;
    std::vector<int> left;  // values of the dice of this colour that left the tray
    bool all_known = true;
    for (std::size_t j = 0; j < before.dice.size(); ++j) {
      const DieSighting& b = before.dice[j];
      if (b.zone == DieZone::Kept || b.colour != colour || still[j]) continue;
      if (!known(b)) all_known = false;
      left.push_back(b.value);
    }
    if (!all_known) continue;  // a die that left unread could be any value
    std::vector<std::size_t> unread;
    bool consistent = true;
    for (std::size_t i = 0; i < out.dice.size(); ++i) {
      const DieSighting& d = out.dice[i];
      if (!newcomer[i] || d.colour != colour || d.cocked) continue;
      if (!known(d)) {
        unread.push_back(i);
        continue;
      }
      const auto it = std::find(left.begin(), left.end(), d.value);
      if (it == left.end()) {
        consistent = false;  // a newcomer that did not come from the tray as it was
        break;
      }
      left.erase(it);
    }
    if (!consistent || unread.empty() || left.size() < unread.size()) continue;
    if (std::adjacent_find(left.begin(), left.end(), std::not_equal_to<>()) != left.end()) continue;
    // The confidence carried: the least sure of the tray dice of that value that left.
    DieSighting from;
    from.value = left.front();
    from.confidence = 1;
    for (std::size_t j = 0; j < before.dice.size(); ++j) {
      const DieSighting& b = before.dice[j];
      if (b.zone != DieZone::Kept && b.colour == colour && !still[j] && b.value == from.value)
        from.confidence = std::min(from.confidence, b.confidence);
    }
    for (const std::size_t i : unread) fill(i, from);
  }
  return out;
}

bool DiceTurnTracker::same_scene(const DiceObservation& a, const DiceObservation& b) const {
  if (a.dice.size() != b.dice.size()) return false;
  std::vector<bool> used(b.dice.size(), false);
  for (const DieSighting& d : a.dice) {
    if (find(b.dice, d, params_.move_pixels, used) < 0) return false;
  }
  return true;
}

void DiceTurnTracker::tally(const DiceObservation& observation) {
  votes_.resize(run_.dice.size());
  std::vector<bool> used(observation.dice.size(), false);
  for (std::size_t i = 0; i < run_.dice.size(); ++i) {
    const int at = find(observation.dice, run_.dice[i], params_.move_pixels, used);
    if (at < 0) continue;
    const DieSighting& d = observation.dice[static_cast<std::size_t>(at)];
    const int key = d.cocked     ? -1
                    : d.value > 0 ? d.value * 2 + (d.colour == referee::yams::DieColour::Red)
                                  : 0;
    auto& v = votes_[i];
    auto it = std::find_if(v.begin(), v.end(), [&](const Vote& p) { return p.key == key; });
    if (it == v.end()) it = v.insert(v.end(), Vote{key, 0, 0});
    ++it->frames;
    it->confidence += d.confidence;
  }
}

DiceObservation DiceTurnTracker::consensus() const {
  DiceObservation out = run_;
  for (std::size_t i = 0; i < out.dice.size() && i < votes_.size(); ++i) {
    int frames = 0, best_key = 0, best = 0;
    double confidence = 0;
    for (const Vote& v : votes_[i]) {
      frames += v.frames;
      if (v.frames > best) best = v.frames, best_key = v.key, confidence = v.confidence / v.frames;
    }
    DieSighting& d = out.dice[i];
    d.confidence = confidence;
    if (2 * best <= frames) {
      d.cocked = false;  // no reading holds most frames: unread
      d.value = 0;
    } else if (best_key == -1) {
      d.cocked = true;
      d.value = 0;
    } else if (best_key == 0) {
      d.cocked = false;
      d.value = 0;
    } else {
      d.cocked = false;
      d.value = best_key / 2;
      d.colour = best_key % 2 ? referee::yams::DieColour::Red : referee::yams::DieColour::White;
    }
  }
  return out;
}

void DiceTurnTracker::new_turn() {
  accepted_.reset();
  before_.reset();
  accepted_here_ = false;
  reported_ = false;
  rolls_ = 0;
}

std::vector<TurnEvent> DiceTurnTracker::feed(const DiceObservation& observation, double seconds) {
  std::vector<TurnEvent> events;
  if (!previous_ || !same_scene(*previous_, observation)) {
    if (reported_ && !moving_) {
      TurnEvent moving;
      moving.kind = TurnEventKind::Moving;
      moving.roll = rolls_;
      events.push_back(moving);
      moving_ = true;
    }
    previous_ = observation;
    run_ = observation;
    votes_.clear();
    tally(observation);
    accepted_here_ = false;
    since_ = seconds;
    frames_ = 1;
    reported_ = false;
    return events;
  }
  previous_ = observation;
  tally(observation);
  ++frames_;
  if (reported_) {
    // Still settled: the settled scene's readings go on gathering frames.
    if (accepted_here_) {
      accepted_ = params_.carry_kept && before_
                      ? carry_known_values(*before_, consensus(), params_.change_confidence,
                                           params_.move_pixels)
                      : consensus();
    }
    return events;
  }
  if (frames_ < params_.min_frames || seconds - since_ < params_.settle_seconds) return events;
  reported_ = true;
  moving_ = false;

  const DiceObservation settled =
      params_.carry_kept && accepted_
          ? carry_known_values(*accepted_, consensus(), params_.change_confidence, params_.move_pixels)
          : consensus();
  const std::vector<DieSighting> rolled = in_zone(settled, true);
  const std::vector<DieSighting> kept = in_zone(settled, false);
  if (accepted_ && same_scene(*accepted_, settled)) return events;  // back as it was

  // Kept dice must stay as they were between rolls.
  if (accepted_) {
    const std::vector<DieSighting> was_kept = in_zone(*accepted_, false);
    std::vector<bool> used(kept.size(), false);
    for (const DieSighting& k : was_kept) {
      const int at = find(kept, k, params_.move_pixels, used);
      std::string detail;
      if (at < 0) {
        if (settled.dice.size() == static_cast<std::size_t>(referee::yams::kDiceCount))
          detail = "kept " + text(k) + " moved or was taken back";
      } else {
        const DieSighting& now = kept[static_cast<std::size_t>(at)];
        // Only two sure readings that disagree tell a change; an unread die tells nothing.
        if (read(k) && read(now) && k.confidence >= params_.change_confidence &&
            now.confidence >= params_.change_confidence &&
            (k.value != now.value || k.colour != now.colour)) {
          detail = "kept " + text(k) + " became " + text(now);
        }
      }
      if (detail.empty()) continue;
      TurnEvent changed;
      changed.kind = TurnEventKind::KeptChanged;
      changed.roll = rolls_;
      changed.kept = kept;
      changed.detail = detail;
      events.push_back(changed);
    }
  }
  // A roll: at least `rolled_share` of the rolled dice are not where they were at the last
  // settled scene (a die missed or found once does not make a roll; a real roll moves them all).
  bool rolled_again = !accepted_ && !rolled.empty();
  if (accepted_ && !rolled.empty()) {
    const std::vector<DieSighting> before = in_zone(*accepted_, true);
    std::vector<bool> used(before.size(), false);
    int moved = 0;
    for (const DieSighting& d : rolled) moved += find(before, d, params_.move_pixels, used) < 0;
    rolled_again = moved >= params_.rolled_share * static_cast<double>(rolled.size());
  }
  if (rolled_again) {
    ++rolls_;
    TurnEvent roll;
    roll.kind = TurnEventKind::Roll;
    roll.roll = rolls_;
    roll.rolled = rolled;
    roll.kept = kept;
    events.push_back(roll);
  } else if (!accepted_ || kept.size() != in_zone(*accepted_, false).size()) {
    TurnEvent keep;
    keep.kind = TurnEventKind::Kept;
    keep.roll = rolls_;
    keep.kept = kept;
    events.push_back(keep);
  }
  before_ = accepted_;
  accepted_ = settled;
  accepted_here_ = true;
  return events;
}

std::optional<std::vector<DieSighting>> DiceTurnTracker::final_dice() const {
  if (!accepted_ || accepted_->dice.size() != static_cast<std::size_t>(referee::yams::kDiceCount)) {
    return std::nullopt;
  }
  for (const DieSighting& d : accepted_->dice) {
    if (d.cocked || d.value == 0) return std::nullopt;
  }
  return accepted_->dice;
}

}  // namespace arbitre::vision::dice
