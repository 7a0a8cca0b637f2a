#include "app/session/dice_stability.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "vision/dice/turn.h"

namespace arbitre::app::session {

DiceStability::Signature DiceStability::signature(
    const vision::DiceObservation& observation) const {
  Signature out;
  for (const vision::DieSighting& die : observation.dice) {
    const bool read = die.value >= 1 && die.value <= 10 && die.confidence >= params_.min_confidence;
    out.emplace_back(static_cast<int>(die.colour), read ? die.value : 0,
                     die.texture ? static_cast<int>(*die.texture) : -1,
                     die.zone == vision::DieZone::Kept ? 1 : 0, die.cocked);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool DiceStability::still_readings(const vision::DiceObservation& observation) {
  Signature seen = signature(observation);
  const bool still = frames_ > 0 && !places_ && seen == current_;
  if (!still) {
    current_ = std::move(seen);
    places_ = false;
  }
  return still;
}

std::vector<int> DiceStability::match(const vision::DiceObservation& observation) const {
  const auto& dice = observation.dice;
  const double limit = params_.still_distance * observation.width;
  // Nearest pairs first, each die within the limit of where its track first lay.
  std::vector<std::tuple<double, std::size_t, std::size_t>> pairs;
  for (std::size_t i = 0; i < dice.size(); ++i) {
    for (std::size_t j = 0; j < tracks_.size(); ++j) {
      const double d = std::hypot(dice[i].x - tracks_[j].x, dice[i].y - tracks_[j].y);
      if (d <= limit) pairs.emplace_back(d, i, j);
    }
  }
  std::sort(pairs.begin(), pairs.end());
  std::vector<int> track_of(dice.size(), -1);
  std::vector<bool> taken(tracks_.size());
  for (const auto& [d, i, j] : pairs) {
    if (track_of[i] < 0 && !taken[j]) {
      track_of[i] = static_cast<int>(j);
      taken[j] = true;
    }
  }
  return track_of;
}

void DiceStability::add(const vision::DiceObservation& observation, double seconds, long frame,
                        const std::vector<int>& track_of, const std::vector<bool>& skip) {
  for (std::size_t i = 0; i < observation.dice.size(); ++i) {
    if (!skip.empty() && skip[i]) continue;
    const vision::DieSighting& die = observation.dice[i];
    Track* t = track_of[i] >= 0 ? &tracks_[static_cast<std::size_t>(track_of[i])] : nullptr;
    if (!t) {
      t = &tracks_.emplace_back();
      t->x = die.x;
      t->y = die.y;
      t->first_frame = frame;
      t->first_seconds = seconds;
    }
    t->last_frame = frame;
    t->last_seconds = seconds;
    ++t->frames;
    if (!reported_) t->seen.push_back(die);
  }
}

bool DiceStability::still_places(const vision::DiceObservation& observation, double seconds) {
  history_.push_back({observation, seconds, frame_});
  while (history_.size() > 2 &&
         history_.back().seconds - history_[1].seconds > 2 * params_.stable_seconds) {
    history_.pop_front();
  }
  const auto& dice = observation.dice;
  const std::vector<int> track_of = match(observation);
  // Dice seen where none lay, and dice seen in the last frame and not in this one.
  std::vector<bool> seen(tracks_.size());
  for (const int j : track_of) {
    if (j >= 0) seen[static_cast<std::size_t>(j)] = true;
  }
  const auto fresh = std::count(track_of.begin(), track_of.end(), -1);
  long lost = 0;
  for (std::size_t j = 0; j < tracks_.size(); ++j) {
    lost += !seen[j] && tracks_[j].last_frame == frame_ - 1;
  }
  if (!(frames_ > 0 && places_ && std::max<long>(fresh, lost) <= params_.flicker)) {
    return begin(frame_);  // moved
  }
  // A die seen where none lay near a die that lay there is the reader's flicker (a die seen a
  // little elsewhere, or doubled). One far from them came there when the next frame sees one far
  // too (the reader seldom invents a die two frames in a row): the period begins again at the
  // first of those frames. Till then it is left out.
  const double reach = params_.flicker_reach * observation.width;
  std::vector<bool> far(dice.size());
  for (std::size_t i = 0; i < dice.size(); ++i) {
    far[i] = track_of[i] < 0 && std::none_of(tracks_.begin(), tracks_.end(), [&](const Track& t) {
               return std::hypot(dice[i].x - t.x, dice[i].y - t.y) <= reach;
             });
  }
  const bool any_far = std::find(far.begin(), far.end(), true) != far.end();
  if (any_far && far_before_) return begin(frame_ - 1);
  far_before_ = any_far;
  add(observation, seconds, frame_, track_of, far);
  // A change within the flicker that lasts is the table's: a die that came after the period began
  // and has been there most frames since for `stable_seconds`, or one that was there most frames
  // and has not been seen for that long. The period begins again where the change began.
  long changed = 0;
  for (const Track& t : tracks_) {
    if (t.first_frame > period_first_ && seconds - t.first_seconds >= params_.stable_seconds &&
        2 * t.frames > frame_ - t.first_frame + 1) {
      changed = std::max(changed, t.first_frame);
    }
    if (t.frames >= params_.min_frames && 2 * t.frames >= t.last_frame - t.first_frame + 1 &&
        seconds - t.last_seconds >= params_.stable_seconds) {
      changed = std::max(changed, t.last_frame + 1);
    }
  }
  return changed > 0 ? begin(changed) : true;
}

bool DiceStability::begin(long frame) {
  auto from = std::find_if(history_.begin(), history_.end(),
                           [&](const Frame& f) { return f.frame >= frame; });
  if (from == history_.end()) from = std::prev(history_.end());
  tracks_.clear();
  reported_ = false;
  places_ = true;
  far_before_ = false;
  since_ = from->seconds;
  period_first_ = from->frame;
  frames_ = 0;
  for (auto f = from; f != history_.end(); ++f) {
    add(f->observation, f->seconds, f->frame,
        f == from ? std::vector<int>(f->observation.dice.size(), -1) : match(f->observation), {});
    ++frames_;
  }
  // feed() counts the frame fed when the period began before it.
  if (frames_ > 1) {
    --frames_;
    return true;
  }
  return false;
}

vision::DiceObservation DiceStability::vote(const vision::DiceObservation& last) const {
  vision::DiceObservation out = last;
  out.dice.clear();
  for (const Track& t : tracks_) {
    const int n = static_cast<int>(t.seen.size());
    if (n == 0 || 2 * n < frames_) continue;  // seen in fewer than half the frames
    int red = 0, cocked = 0;
    std::map<std::optional<referee::yams::Texture>, int> textures;
    std::map<int, int> reads;      // face -> frames that read it
    std::map<int, double> weight;  // face -> the confidences of the frames that read it
    for (const vision::DieSighting& die : t.seen) {
      red += die.colour == referee::yams::DieColour::Red;
      ++textures[die.texture];
      if (die.cocked) {
        ++cocked;
      } else if (die.value >= 1 && die.value <= 10) {
        weight[die.value] += die.confidence;
        ++reads[die.value];
      }
    }
    int face = 0;
    double all = 0, best = 0;
    for (const auto& [value, w] : weight) {
      all += w;
      if (face == 0 || w > best) face = value, best = w;
    }
    const int most = face ? reads[face] : 0;
    // The die as last seen, not cocked (if any frame saw it so), then the votes.
    vision::DieSighting die = t.seen.back();
    for (auto it = t.seen.rbegin(); it != t.seen.rend(); ++it) {
      if (!it->cocked) {
        die = *it;
        break;
      }
    }
    if (2 * red != n) {
      die.colour = 2 * red > n ? referee::yams::DieColour::Red : referee::yams::DieColour::White;
    }
    int texture_votes = textures[die.texture];
    for (const auto& [texture, count] : textures) {
      if (count > texture_votes) die.texture = texture, texture_votes = count;
    }
    if (cocked > 0 && (3 * cocked >= n || cocked >= most)) {
      const vision::DieSighting last_cocked =
          *std::find_if(t.seen.rbegin(), t.seen.rend(), [](const auto& d) { return d.cocked; });
      die.value = last_cocked.value;
      die.confidence = last_cocked.confidence;
      die.cocked = true;
    } else if (face > 0) {
      die.value = face;
      die.confidence = std::max(0.0, (best - (all - best)) / n);
      // Read in fewer than two frames of three, it is unsure (a leaning die the reader flags in
      // some frames and reads in others is no face to take).
      if (3 * most < 2 * n) {
        die.confidence = std::min(die.confidence, std::nextafter(params_.min_confidence, 0.0));
      }
      die.cocked = false;
    }
    out.dice.push_back(die);
  }
  return out;
}

DiceUpdate DiceStability::feed(const vision::DiceObservation& observation, double seconds) {
  ++frame_;
  const bool places = observation.width > 0;
  const long period = period_first_;
  bool still = places ? still_places(observation, seconds) : still_readings(observation);
  if (!places && !still) {
    since_ = seconds;
    frames_ = 1;
    period_first_ = frame_;
    reported_ = false;
  }
  DiceUpdate update;
  const bool began = period_first_ != period;  // a new period began: the table moved
  if (began && !unstable_) {
    unstable_ = true;
    update.event = DiceEvent::Unstable;
  }
  if (!still) return update;
  ++frames_;
  // A period that began before this frame (found by it) settles at the next frame at the soonest,
  // after the Unstable this frame reports.
  if (began || reported_ || frames_ < params_.min_frames ||
      seconds - since_ < params_.stable_seconds) {
    return update;
  }
  return settle(places ? vote(observation) : observation);
}

DiceUpdate DiceStability::settle(const vision::DiceObservation& observation) {
  DiceUpdate update;
  reported_ = true;
  unstable_ = false;
  update.scene = observation;
  if (params_.carry_kept && observation.width > 0) {  // positions known
    const double pixels = params_.same_place * std::max(observation.width, 1);
    for (const auto* before : {&last_, &readable_}) {
      if (*before) {
        update.scene = vision::dice::carry_known_values(
            **before, update.scene, params_.min_confidence, pixels, &update.carried);
      }
    }
    std::sort(update.carried.begin(), update.carried.end());
    update.carried.erase(std::unique(update.carried.begin(), update.carried.end()),
                         update.carried.end());
    last_ = update.scene;
  }
  if (why_unreadable(update.scene, update.reason, update.dice)) {
    update.event = DiceEvent::Unreadable;
    return update;
  }
  update.event = DiceEvent::Settled;
  if (params_.carry_kept && observation.width > 0) readable_ = update.scene;
  return update;
}

bool DiceStability::why_unreadable(const vision::DiceObservation& scene, std::string& reason,
                                   std::vector<int>& dice) const {
  dice.clear();
  const auto& all = scene.dice;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i].cocked) dice.push_back(static_cast<int>(i));
  }
  if (!dice.empty()) {
    reason = "cocked";
    return true;
  }
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i].value < 1 || all[i].value > 10 || all[i].confidence < params_.min_confidence) {
      dice.push_back(static_cast<int>(i));
    }
  }
  if (!dice.empty()) {
    reason = "unread";
    return true;
  }
  if (all.size() != static_cast<std::size_t>(referee::yams::kDiceCount)) {
    reason = "count";
    return true;
  }
  // Ten dice, but not five of each colour: one is read as the other colour (or one is no die,
  // and a die is missed). The referee would refuse the roll; the players say which.
  const auto red = std::count_if(all.begin(), all.end(), [](const vision::DieSighting& d) {
    return d.colour == referee::yams::DieColour::Red;
  });
  if (red != referee::yams::kDicePerColour) {
    const auto more = red > referee::yams::kDicePerColour ? referee::yams::DieColour::Red
                                                          : referee::yams::DieColour::White;
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (all[i].colour == more) dice.push_back(static_cast<int>(i));
    }
    reason = "colours";
    return true;
  }
  reason.clear();
  return false;
}

void DiceStability::typed(const vision::DiceObservation& scene) {
  if (!params_.carry_kept || scene.width <= 0) return;
  last_ = scene;
  readable_ = scene;
}

}  // namespace arbitre::app::session
