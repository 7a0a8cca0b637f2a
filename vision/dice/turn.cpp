#include "vision/dice/turn.h"

#include <algorithm>
#include <cmath>

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

}  // namespace

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
    if (accepted_here_) accepted_ = consensus();
    return events;
  }
  if (frames_ < params_.min_frames || seconds - since_ < params_.settle_seconds) return events;
  reported_ = true;
  moving_ = false;

  const DiceObservation settled = consensus();
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
