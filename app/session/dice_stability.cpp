#include "app/session/dice_stability.h"

#include <algorithm>

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

DiceUpdate DiceStability::feed(const vision::DiceObservation& observation, double seconds) {
  DiceUpdate update;
  Signature seen = signature(observation);
  if (seen != current_ || frames_ == 0) {
    current_ = std::move(seen);
    since_ = seconds;
    frames_ = 1;
    reported_ = false;
    if (!unstable_) {
      unstable_ = true;
      update.event = DiceEvent::Unstable;
    }
    return update;
  }
  ++frames_;
  if (reported_ || frames_ < params_.min_frames || seconds - since_ < params_.stable_seconds) {
    return update;
  }
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
