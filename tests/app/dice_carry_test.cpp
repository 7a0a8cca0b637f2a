// The table's physics applied to the dice readings: kept dice keep their values between rolls,
// dice set aside keep the values they showed in the tray (vision::dice::carry_known_values), in
// the turn tracker and in the Yams session's stability filter.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "app/session/dice_stability.h"
#include "vision/dice/turn.h"

namespace vd = arbitre::vision::dice;
namespace s = arbitre::app::session;
using arbitre::referee::yams::DieColour;
using arbitre::vision::DiceObservation;
using arbitre::vision::DieSighting;
using arbitre::vision::DieZone;

namespace {

// "7r@10,20 k ?w@30,40 3w@50,60~0.3": value (? unread, c cocked) and colour, '@x,y' its place,
// ' k' after a die: in the kept zone (else the tray), '~c' its confidence (default 0.9).
DiceObservation dice(const std::string& text) {
  DiceObservation o;
  o.width = 640;
  o.height = 480;
  std::istringstream in(text);
  std::string word;
  while (in >> word) {
    if (word == "k") {
      o.dice.back().zone = DieZone::Kept;
      continue;
    }
    DieSighting d;
    d.confidence = 0.9;
    if (const auto tilde = word.find('~'); tilde != std::string::npos) {
      d.confidence = std::stod(word.substr(tilde + 1));
      word = word.substr(0, tilde);
    }
    const auto at = word.find('@');
    const auto comma = word.find(',');
    d.x = std::stod(word.substr(at + 1, comma - at - 1));
    d.y = std::stod(word.substr(comma + 1));
    const std::string die = word.substr(0, at);
    d.colour = die.back() == 'r' ? DieColour::Red : DieColour::White;
    const std::string value = die.substr(0, die.size() - 1);
    if (value == "c") {
      d.cocked = true;
    } else if (value != "?") {
      d.value = std::stoi(value);
    }
    if (value == "?" || value == "c") d.confidence = 0.1;
    o.dice.push_back(d);
  }
  return o;
}

std::string text(const DiceObservation& o) {
  std::string out;
  for (const DieSighting& d : o.dice) {
    if (!out.empty()) out += ' ';
    out += (d.cocked ? std::string("c") : d.value ? std::to_string(d.value) : std::string("?")) +
           (d.colour == DieColour::Red ? "r" : "w") + (d.zone == DieZone::Kept ? "k" : "");
  }
  return out;
}

DiceObservation carry(const std::string& before, const std::string& now) {
  return vd::carry_known_values(dice(before), dice(now), 0.5, 10);
}

// Ten dice in the tray, all read: 5 red (7 3 3 9 1), 5 white (2 2 8 10 4).
const std::string kRolled =
    "7r@100,100 3r@140,100 3r@180,100 9r@220,100 1r@260,100 "
    "2w@100,200 2w@140,200 8w@180,200 10w@220,200 4w@260,200";

}  // namespace

TEST(CarryKnownValues, AnUnreadKeptDieAtAKeptDiesPlaceIsThatDie) {
  const auto out = carry("7r@100,400 k 2w@140,400 k", "?r@102,401 k ?w@141,399 k");
  EXPECT_EQ(text(out), "7rk 2wk");
  EXPECT_DOUBLE_EQ(out.dice[0].confidence, 0.9);  // the confidence of the reading carried
}

TEST(CarryKnownValues, AKeptDieReadSureAsAnotherValueStandsAndAnUnsureOneDoesNot) {
  // Unsure (0.3) and different: the sure value before stands. Sure and different: the reading
  // stands (the tracker's "kept die changed" alarm).
  EXPECT_EQ(text(carry("7r@100,400 k", "8r@100,400~0.3 k")), "7rk");
  EXPECT_EQ(text(carry("7r@100,400 k", "8r@100,400~0.8 k")), "8rk");
  // A value that was never sure is not carried.
  EXPECT_EQ(text(carry("7r@100,400~0.3 k", "?r@100,400 k")), "?rk");
  // Another colour, or another place, is another die.
  EXPECT_EQ(text(carry("7r@100,400 k", "?w@100,400 k")), "?wk");
  EXPECT_EQ(text(carry("7r@100,400 k", "?r@130,400 k")), "?rk");
}

TEST(CarryKnownValues, AKeptDieTheReaderMissedIsBackAtItsPlace) {
  const std::string before = "7r@300,400 k 2w@340,400 k 3r@140,100 5w@180,100";
  // The 7r missed: fewer red dice seen, and the one kept red die is seen nowhere at its place.
  std::vector<int> carried;
  const auto out =
      vd::carry_known_values(dice(before), dice("2w@341,400 k 3r@141,100 5w@180,101"), 0.5, 10, &carried);
  EXPECT_EQ(text(out), "2wk 3r 5w 7rk");
  EXPECT_DOUBLE_EQ(out.dice[3].x, 300);
  EXPECT_EQ(carried, std::vector<int>{3});
  // As many dice of each colour as before: nothing is added (a kept die taken back is the
  // tracker's alarm, not a miss).
  EXPECT_EQ(text(carry(before, "2w@341,400 k 3r@141,100 5w@180,101 4r@200,150")), "2wk 3r 5w 4r");
  // A kept die that was never sure is not added back.
  EXPECT_EQ(text(carry("7r@300,400~0.3 k 3r@140,100", "3r@141,100")), "3r");
  // Two kept red dice gone from their places, one red die missing: one of them moved, which
  // one is not known: nothing is added.
  EXPECT_EQ(text(carry("7r@300,400 k 9r@330,400 k 3r@140,100", "?r@360,400 k 3r@141,100")),
            "?rk 3r");
  // No fewer dice in all: a red die read as white, say; nothing is added.
  EXPECT_EQ(text(carry("7r@300,400 k 3r@140,100", "7w@360,400 k 3r@141,100")), "7wk 3r");
  // After a roll (the tray dice lie elsewhere) the kept die may have been taken back and rolled,
  // and a red die missed in the tray: nothing is added, the scene stays a die short.
  EXPECT_EQ(text(carry(before, "2w@341,400 k 6r@240,160 1w@120,190")), "2wk 6r 1w");
}

TEST(CarryKnownValues, DiceSetAsideCarryTheValuesTheyShowedInTheTray) {
  // The 7r and the 9r leave the tray (the others stay at their places); the 9r is read, the
  // other newcomer is unread: it is the 7r.
  const std::string aside =
      "?r@300,400 k 9r@330,400 k 3r@140,100 3r@180,100 1r@260,100 "
      "2w@100,200 2w@140,200 8w@180,200 10w@220,200 4w@260,200";
  EXPECT_EQ(text(carry(kRolled, aside)), "7rk 9rk 3r 3r 1r 2w 2w 8w 10w 4w");
  // Both 3r leave, both unread: the same value, whichever is which.
  const std::string threes =
      "?r@300,400 k ?r@330,400 k 7r@100,100 9r@220,100 1r@260,100 "
      "2w@100,200 2w@140,200 8w@180,200 10w@220,200 4w@260,200";
  EXPECT_EQ(text(carry(kRolled, threes)), "3rk 3rk 7r 9r 1r 2w 2w 8w 10w 4w");
}

TEST(CarryKnownValues, AmbiguousNewcomersAndTrayDiceAreLeftToTheReader) {
  // The 7r and the 9r leave the tray, both unread: which is which cannot be told.
  const std::string both =
      "?r@300,400 k ?r@330,400 k 3r@140,100 3r@180,100 1r@260,100 "
      "2w@100,200 2w@140,200 8w@180,200 10w@220,200 4w@260,200";
  EXPECT_EQ(text(carry(kRolled, both)), "?rk ?rk 3r 3r 1r 2w 2w 8w 10w 4w");
  // A die that left the tray unread could have been anything.
  const std::string rolled_unread =
      "?r@100,100 3r@140,100 3r@180,100 9r@220,100 1r@260,100 "
      "2w@100,200 2w@140,200 8w@180,200 10w@220,200 4w@260,200";
  const std::string aside = "?r@300,400 k 3r@140,100 3r@180,100 9r@220,100 1r@260,100";
  EXPECT_EQ(text(carry(rolled_unread, aside)), "?rk 3r 3r 9r 1r");
  // A read newcomer that is no die that left the tray: the picture is not what physics allows,
  // nothing is filled in for that colour.
  const std::string odd = "5r@300,400 k ?r@330,400 k 3r@140,100 3r@180,100 1r@260,100";
  EXPECT_EQ(text(carry(kRolled, odd)), "5rk ?rk 3r 3r 1r");
  // Dice in the tray are never filled in: a roll may have changed them.
  EXPECT_EQ(text(carry(kRolled, "?r@100,100 3r@140,100")), "?r 3r");
  // Every tray die rolled again while one red was set aside: the red dice that left are all
  // five, with several values: ambiguous.
  const std::string rolled_again = "?r@300,400 k 5r@120,120 6r@150,130 5r@180,140 2r@210,150";
  EXPECT_EQ(text(carry(kRolled, rolled_again)), "?rk 5r 6r 5r 2r");
  // A red die missed in the tray now would pass for one that left it: with four red dice seen
  // (the 7r set aside, unread; the 9r missed), nothing is filled in.
  const std::string missed = "?r@300,400 k 3r@140,100 3r@180,100 1r@260,100";
  EXPECT_EQ(text(carry(kRolled, missed)), "?rk 3r 3r 1r");
}

TEST(DiceTurnTracker, AKeptDieLeftUnreadCarriesTheValueItShowedInTheTray) {
  vd::DiceTurnTracker tracker;
  double t = 0;
  const auto hold = [&](const std::string& scene) {
    std::vector<vd::TurnEvent> events;
    for (int f = 0; f < 5; ++f, t += 0.25) {
      for (auto& e : tracker.feed(dice(scene), t)) events.push_back(e);
    }
    return events;
  };
  hold(kRolled);
  // The 7r set aside, unread there.
  const auto kept = hold(
      "?r@300,400 k 3r@140,100 3r@180,100 9r@220,100 1r@260,100 "
      "2w@100,200 2w@140,200 8w@180,200 10w@220,200 4w@260,200");
  ASSERT_EQ(kept.size(), 2u);  // moving, kept
  EXPECT_EQ(kept[1].kind, vd::TurnEventKind::Kept);
  ASSERT_EQ(kept[1].kept.size(), 1u);
  EXPECT_EQ(kept[1].kept[0].value, 7);
  // A roll of the other nine; the kept 7r still unread: no alarm, the final dice are known.
  const auto rolled = hold(
      "?r@301,401 k 4r@120,120 4r@160,130 6r@200,140 6r@240,150 "
      "1w@120,220 3w@160,230 5w@200,240 7w@240,250 9w@280,260");
  ASSERT_EQ(rolled.size(), 2u);
  EXPECT_EQ(rolled[1].kind, vd::TurnEventKind::Roll);
  ASSERT_TRUE(tracker.final_dice().has_value());
  EXPECT_EQ(tracker.final_dice()->front().value, 7);
  // The next roll, the kept die read sure as a 10: the kept die changed, the referee is told.
  const auto changed = hold(
      "10r@301,401 k 2r@110,110 2r@150,110 5r@190,110 5r@230,110 "
      "3w@110,210 3w@150,210 6w@190,210 6w@230,210 8w@270,210");
  ASSERT_FALSE(changed.empty());
  bool alarm = false;
  for (const auto& e : changed) alarm = alarm || e.kind == vd::TurnEventKind::KeptChanged;
  EXPECT_TRUE(alarm);
}

TEST(DiceStability, ASceneWithUnreadKeptDiceIsReadableWhenThePhysicsTellsTheirValues) {
  double t = 0;
  const auto settle = [&](s::DiceStability& filter, const std::string& scene) {
    s::DiceUpdate last;
    for (int f = 0; f < 4; ++f, t += 0.5) {
      const s::DiceUpdate u = filter.feed(dice(scene), t);
      if (u.event == s::DiceEvent::Settled || u.event == s::DiceEvent::Unreadable) last = u;
    }
    return last;
  };
  // Set aside: the 7r (unread in the kept row) and the 9r (read).
  const std::string aside =
      "?r@300,400 k 9r@330,400 k 3r@140,100 3r@180,100 1r@260,100 "
      "2w@100,200 2w@140,200 8w@180,200 10w@220,200 4w@260,200";
  // The other eight rolled; the kept dice unread now, both.
  const std::string rolled =
      "?r@301,400 k ?r@331,401 k 4r@120,120 6r@160,130 6r@200,140 "
      "1w@120,220 3w@160,230 5w@200,240 7w@240,250 9w@280,260";
  {
    s::DiceStability filter;
    EXPECT_EQ(settle(filter, kRolled).event, s::DiceEvent::Settled);
    const s::DiceUpdate set_aside = settle(filter, aside);
    ASSERT_EQ(set_aside.event, s::DiceEvent::Settled) << set_aside.reason;
    EXPECT_EQ(text(set_aside.scene), "7rk 9rk 3r 3r 1r 2w 2w 8w 10w 4w");
    EXPECT_EQ(set_aside.carried, std::vector<int>{0});
    const s::DiceUpdate again = settle(filter, rolled);
    ASSERT_EQ(again.event, s::DiceEvent::Settled) << again.reason;
    EXPECT_EQ(text(again.scene), "7rk 9rk 4r 6r 6r 1w 3w 5w 7w 9w");
  }
  {
    // Without the physics, both scenes are unreadable.
    s::DiceStabilityParams params;
    params.carry_kept = false;
    s::DiceStability filter(params);
    EXPECT_EQ(settle(filter, kRolled).event, s::DiceEvent::Settled);
    EXPECT_EQ(settle(filter, aside).event, s::DiceEvent::Unreadable);
    const s::DiceUpdate again = settle(filter, rolled);
    EXPECT_EQ(again.event, s::DiceEvent::Unreadable);
    EXPECT_EQ(again.reason, "unread");
  }
}
