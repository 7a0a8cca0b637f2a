// The dice reader (vision/dice/*, vision/dice.h): its stages on synthetic images, the turn
// tracker on scripted observation streams (synthetic, and the ground truth of a scripted turn
// rendered by `scenegen --sequence`), and regression floors on the committed labelled scenes
// (tests/data/dice, scenegen --dice seed 5000, never used for training or tuning). The floors
// sit below the issue's targets; the 200-image figures are in docs/benchmarks.md.
#include "vision/dice.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <set>
#include <string>
#include <tuple>

#include "tests/support/cli_run.h"
#include "tests/support/committed_scene.h"
#include "tests/support/dice_scoring.h"
#include "tests/support/networks_as_trained.h"
#include "tests/support/one_digit_network.h"
#include "tests/support/presence_before.h"
#include "vision/dice/detector.h"
#include "vision/dice/hog_scan.h"
#include "vision/dice/turn.h"

namespace fs = std::filesystem;
namespace vd = arbitre::vision::dice;

// The committed scene of leaning dice (tests/data/dice/cocked): scenegen --dice --seed 7100
// --cocked-share 1, scene 68 (a development scene: two dice leaning on others).
constexpr const char* kCockedScene = "0068";
// A scene the leaning check (Params::tilt_residual) still changes: the face check leaves
// the leaning dice of kCockedScene and kOpaqueLeaningScene unread or cocked before the option's
// step looks at them. Seed 6200's scene 47 (a looked-at set; tests/data/dice/cocked): a
// transparent red die leaning 21.5 degrees, read as a value without the check (a frosted white
// one leaning 22.9 degrees is read either way), as before the size network.
constexpr const char* kLeaningScene = "6200-0047";
// Seed 6200's scene 89 (tests/data/dice/cocked): two opaque dice leaning 31.5 and 27.3 degrees on
// others, read as values until the face check's bound for opaque dice (2026-12-04, twenty-seventh
// session); the leaning option's scene until then.
constexpr const char* kOpaqueLeaningScene = "6200-0089";

using arbitre::referee::yams::DieColour;
using arbitre::vision::DiceObservation;
using arbitre::vision::DieSighting;
using arbitre::vision::DieZone;

namespace {

// Regression floors on the committed scenes, set below what the reader does there (see
// docs/benchmarks.md): a share of flat dice read right, and of images with a die missed,
// doubled or invented.
constexpr double kFloorRight = 0.88;
constexpr double kFloorMissOrDouble = 0.34;
// A wrong value is worse than an unread die (the players type it): at most this share of the
// flat dice, plus one.
constexpr double kCeilingWrongValue = 0.03;

DieSighting die(double x, double y, int value, DieColour colour, DieZone zone,
                bool cocked = false) {
  DieSighting d;
  d.x = x, d.y = y, d.value = cocked ? 0 : value, d.colour = colour, d.zone = zone,
  d.cocked = cocked;
  d.confidence = 0.9;
  return d;
}

// Ten dice rolled in the tray, values 1..10, five of each colour.
DiceObservation first_roll() {
  DiceObservation o;
  for (int i = 0; i < 10; ++i) {
    o.dice.push_back(die(100 + 60 * i, 200 + 10 * (i % 3), i + 1,
                         i < 5 ? DieColour::Red : DieColour::White, DieZone::Tray));
  }
  return o;
}

// Feeds `o` for `seconds` at 10 frames a second starting at `t`; returns the events and
// advances t.
std::vector<vd::TurnEvent> hold(vd::DiceTurnTracker& tracker, const DiceObservation& o, double& t,
                                double seconds) {
  std::vector<vd::TurnEvent> all;
  for (double end = t + seconds; t < end; t += 0.1) {
    for (auto& e : tracker.feed(o, t)) all.push_back(e);
  }
  return all;
}

int count(const std::vector<vd::TurnEvent>& events, vd::TurnEventKind kind) {
  return static_cast<int>(
      std::count_if(events.begin(), events.end(), [&](const auto& e) { return e.kind == kind; }));
}

// Whether an image point lies within 0.6 radius of a true die's centre.
bool on_die(double x, double y, const nlohmann::json& truth_die) {
  return std::hypot(x - truth_die["x"].get<double>(), y - truth_die["y"].get<double>()) <
         0.6 * truth_die["radius_px"].get<double>();
}

// The die seen on a true die, or -1.
int seen_at(const std::vector<DieSighting>& dice, const nlohmann::json& truth_die) {
  for (std::size_t k = 0; k < dice.size(); ++k) {
    if (on_die(dice[k].x, dice[k].y, truth_die)) return static_cast<int>(k);
  }
  return -1;
}

// The dice where the scan's windows put them, without the centre network, as until 2026-12-03:
// centred, the dice of the tests below that pin a step of the reading are read without that step.
void without_centring(vd::Params& p) {
  p.centre_steps = 0;
}

// Without the faint windows (Params::faint_candidates, since 2026-12-04): they find some of the
// dice the tests of the search and of choosing again are about before those steps do (the red 10
// in a chain, the red 4 beside the red 2, the white die beside the tray), so those tests read
// without them.
void without_faint(vd::Params& p) {
  p.faint_candidates = 0;
}

// The spacing 1.1 of the common radius, as until the forty-eighth session (2026-12-06; since
// then 1.0): the scene of the ruled-lines test was chosen so; at 1.0 the die the rule lets in is
// found before the place on the score sheet takes its place.
void spaced_as_before(vd::Params& p) {
  p.min_spacing = 1.1;
}

// The common radius the window scan's level, as until the forty-seventh session (2026-12-06),
// when it became the size network's measure of the surest candidates (Params::size_first): the
// scenes of the tests below that pin a step of the choosing or the reading were chosen at the
// level, where that step mattered; at the measured radius some of their dice are found or read
// right without it. The spacing at the level was 1.1 of that radius (1.0 of the measured one
// since the forty-eighth session).
void at_the_level(vd::Params& p) {
  p.size_first = 0;
  spaced_as_before(p);
}

// A die's reading along its digit's axis taken at 0.35, as until the sixtieth session (2026-12-07;
// Params::cnn_confidence, 0.7 since): the scenes of five tests below were chosen at that bound,
// where the step they pin mattered. At 0.7 a die read along its axis under it is left for the
// steps that read an unread die, and those scenes read otherwise: in some the die the step is for
// is read without the step, in others dice are lost (the stretch's scene: the red 7 at (649, 336),
// read along its axis at 0.41, is left unread; the give-back's, read as that test reads it: the
// red die leaning at (726, 116) is read as a 7).
void axis_bound_as_before(vd::Params& p) {
  p.cnn_confidence = 0.35;
}

// A die re-centred onto a place that read nothing chosen again, as until the fifty-eighth session
// (2026-12-07, Params::empty_recentred). Three tests' scenes below were chosen where the step they
// pin mattered; with the rule, the reader without that step finds their dice too (the window
// that read nothing, re-centred back, no longer takes a die's place). In the scene of the tie's
// presence apart the rule loses: the clear white 9 at (319, 105) reads nothing at first, and
// the dice chosen again without it brought it back re-centred, ten found; with the rule they find
// nine, and the first choice, with its window on the bare table, stays.
void before_empty_recentred(vd::Params& p) {
  p.empty_recentred = false;
}

// The give-back's scene as it was chosen: before_empty_recentred, at axis_bound_as_before.
void give_back_as_chosen(vd::Params& p) {
  before_empty_recentred(p);
  axis_bound_as_before(p);
}

// A committed scene read with a step of the reader on (its default, checked to differ from
// `off`) and set to `off`: the truth, both detections and their scores. `before` (when given)
// sets the reader as it was when the scene was chosen, on both.
struct WithAndWithout {
  nlohmann::json truth;
  vd::Detection with, without;
  arbitre::testing::DiceScore scored_with, scored_without;
};
template <typename T>
WithAndWithout read_with_and_without(const std::string& subdir, const std::string& name,
                                     T vd::Params::*step, T off_value = T{},
                                     void (*before)(vd::Params&) = nullptr) {
  WithAndWithout r;
  cv::Mat image;
  std::tie(r.truth, image) = arbitre::testing::committed_scene("dice", subdir, name);
  EXPECT_FALSE(image.empty());
  vd::Params on;
  if (before) before(on);
  EXPECT_NE(on.*step, off_value) << "the step is on by default";
  vd::Params off = on;
  off.*step = off_value;
  // The steps' scenes were chosen on the reader with its networks as trained, in floats.
  r.with = vd::detect(image, on, arbitre::testing::networks_as_trained());
  r.without = vd::detect(image, off, arbitre::testing::networks_as_trained());
  r.scored_with = arbitre::testing::score_dice(r.truth, r.with.observation);
  r.scored_without = arbitre::testing::score_dice(r.truth, r.without.observation);
  return r;
}

// Without the ruled-lines rule (Params::ruled_*, since the forty-seventh session): a window the
// tests of choosing the dice again were chosen for runs across long straight lines too, and the
// rule sends it away before the step they pin does.
void before_ruled_lines(vd::Params& p) {
  p.ruled_length = 0;
}

// The search's places re-centred as the scan's windows are, and never kept where they are, as
// until 2026-12-02 (the tests of the search's other steps were chosen so).
void near_as_before(vd::Params& p) {
  p.neighbour_refine_steps = p.refine_steps;
  p.neighbour_keep = 0;
}

// The reader as it was before the size network (2026-12-04, thirtieth session): each die at the
// radius it was found at, the face check's bounds of then, and no lean network (thirty-first
// session). The tests of steps written before then compare two readings with it: with each die's
// radius measured, or the lean network asked, the check finds off dice those steps are shown on.
void before_the_size_network(vd::Params& p) {
  p.size_steps = 0;
  p.face_check = 0.25;
  p.face_check_opaque = 0.22;
  p.lean_bound = 0;
  p.lean_flat = 0;
  p.check_reread_flat = 0;
}

// The radius of the die `d` saw nearest a true die's centre (`die`, from the ground truth).
double radius_seen(const vd::Detection& d, const nlohmann::json& die) {
  const cv::Point2d at(die["x"].get<double>(), die["y"].get<double>());
  double radius = 0, nearest = 1e9;
  for (std::size_t k = 0; k < d.observation.dice.size(); ++k) {
    const double off = cv::norm(cv::Point2d(d.observation.dice[k].x, d.observation.dice[k].y) - at);
    if (off < nearest)
      nearest = off, radius = d.candidates[static_cast<std::size_t>(d.die_candidate[k])].radius;
  }
  return radius;
}

// The face check without the thirty-seventh session's (2026-12-05) placing of an opaque die's
// centre from under its face: for the tests whose scene was chosen on the check of before (the
// step reads some of the dice their steps read, and let a leaning die through before it asked
// the lean network from the centre before).
void before_from_face(vd::Params& p) {
  p.check_from_face = 0;
}

// The face check as it was until 2026-12-04 (twenty-eighth session): without the fine networks, a
// die it finds off read again where the fit puts its top face; without the wider crops and the
// size network (and at its bounds of then, 0.25 and 0.22). The tests of other steps written
// before then compare two readings with it: the dice the check leaves unread now depend on the
// fit, which changes with the dice those steps find.
void face_check_as_before(vd::Params& p) {
  before_from_face(p);
  p.fine_steps = 0;
  p.check_reread = true;
  p.check_wider = 0;
  before_the_size_network(p);
}

// The reader as it was until the thirty-sixth session (2026-12-05), before the red places and the
// plain check: for the tests whose scene was chosen on that reader (with them, the red places find
// some of the dice those tests' steps find, and the plain check turns down some of the windows on
// a bare table those steps have to give up).
void before_red_places(vd::Params& p) {
  p.colour_contrast = 0;
  p.plain_contrast = 0;
}

// The colours by Lab a* alone at 14, as until the forty-fifth session (2026-12-06; since then
// a* + 2 b* at 35): the tests whose dice's colours show what a step changes were chosen so.
void colours_by_a_alone(vd::Params& p) {
  p.red_yellow = 0;
  p.red_threshold = 14;
}

// The search's places taken as candidates only where the digit network's "no die" is at most
// 0.3, as until the thirty-second session (2026-12-04; since then 0.99, the presence deciding): the
// tests of the search's steps were chosen so, and at 0.99 its rings find some of the dice those
// steps find (the red 3 of TheSearchLooksWhereACandidateWasNearlyADie, the white 7 behind the
// cluster, the red 4 of the second round, the white 1 at the image's edge).
void trusting_no_die(vd::Params& p) {
  p.neighbour_no_die = 0.3;
}

// The search beside the dice found as it was until 2026-12-02: one ring of 12 places 1.8 radii
// from each die, one round. The tests of what else the search looks at were chosen with it; the
// rings (1.2-1.7 radii) find some of their dice without them.
void one_ring(vd::Params& p) {
  p.neighbour_distance = 1.8;
  p.neighbour_rings = 1;
  p.neighbour_directions = 12;
  p.neighbour_ring_step = 1.0;  // the places at least a radius apart
  p.neighbour_rounds = 1;
  near_as_before(p);
}

// One die of a committed scene read with the defaults and with a step turned off: both readings,
// the true die, and where each saw it (-1: not seen).
struct OneDie {
  nlohmann::json truth_die;
  vd::Detection with, without;
  int k_with = -1, k_without = -1;
};

OneDie read_one_die(
    const std::string& subdir, const std::string& name, std::size_t index,
    const std::function<void(vd::Params&)>& turn_off,
    const std::function<void(vd::Params&)>& both = [](vd::Params&) {},
    const vd::Model& model = vd::default_model()) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", subdir, name);
  EXPECT_FALSE(image.empty()) << subdir << "/" << name;
  vd::Params with, without;
  both(with);
  both(without);
  turn_off(without);
  OneDie r{truth["dice"][index], vd::detect(image, with, model), vd::detect(image, without, model)};
  r.k_with = seen_at(r.with.observation.dice, r.truth_die);
  r.k_without = seen_at(r.without.observation.dice, r.truth_die);
  return r;
}

// The die left unread without the step (`read_where`: where it was read then) and read `value`
// with it, as surely as the whole-circle search asks. False when a reading did not see it.
bool unread_then_read(const OneDie& r, int value, const char* read_where) {
  EXPECT_EQ(r.truth_die["value"], value);
  if (r.k_with < 0 || r.k_without < 0) return false;
  const DieSighting& with = r.with.observation.dice[static_cast<std::size_t>(r.k_with)];
  EXPECT_EQ(r.without.observation.dice[static_cast<std::size_t>(r.k_without)].value, 0)
      << read_where;
  EXPECT_EQ(with.value, value);
  EXPECT_GE(with.confidence, vd::Params{}.full_confidence);
  return true;
}

// Every die but the one at `changed` reads the same (value, cocked) in both readings.
void expect_the_others_unchanged(const OneDie& r, int changed) {
  ASSERT_EQ(r.with.observation.dice.size(), r.without.observation.dice.size());
  for (std::size_t k = 0; k < r.with.observation.dice.size(); ++k) {
    if (static_cast<int>(k) == changed) continue;
    EXPECT_EQ(r.with.observation.dice[k].value, r.without.observation.dice[k].value) << "die " << k;
    EXPECT_EQ(r.with.observation.dice[k].cocked, r.without.observation.dice[k].cocked)
        << "die " << k;
  }
}

// The red die `die` of the truth, of value `value`: missed in `before` with one die invented,
// read right in `after` with nothing missed, doubled or invented.
void expect_red_die_found_for_the_invented(const nlohmann::json& truth, std::size_t die, int value,
                                           const arbitre::testing::DiceScore& after,
                                           const arbitre::testing::DiceScore& before) {
  const auto& red = truth["dice"][die];
  ASSERT_EQ(red["value"], value);
  ASSERT_EQ(red["colour"], "red");
  EXPECT_EQ(before.outcome[die], "missed");
  EXPECT_EQ(before.phantoms, 1);
  EXPECT_EQ(after.outcome[die], "right");
  EXPECT_EQ(after.missed + after.phantoms + after.doubled, 0);
}

// Every die seen in `before` (read, when `read_only`) is seen in `after` too, at the same place
// (or within `within` x after's die radius) and read the same (`message` on a failure).
void expect_none_lost(const vd::Detection& after, const vd::Detection& before,
                      const std::string& message, double within = 0, bool read_only = false) {
  for (const auto& die : before.observation.dice) {
    if (read_only && die.value == 0) continue;
    EXPECT_TRUE(std::any_of(after.observation.dice.begin(), after.observation.dice.end(),
                            [&](const auto& o) {
                              const bool there = within > 0 ? std::hypot(o.x - die.x, o.y - die.y) <
                                                                  within * after.die_radius
                                                            : o.x == die.x && o.y == die.y;
                              return there && o.value == die.value && o.colour == die.colour;
                            }))
        << message;
  }
}

// The value of the die `with` saw on a true die (`die`, from the ground truth); -1 when it saw
// none there.
int value_seen(const vd::Detection& d, const nlohmann::json& die) {
  const int k = seen_at(d.observation.dice, die);
  return k < 0 ? -1 : d.observation.dice[static_cast<std::size_t>(k)].value;
}

// The flat true die `die` of a scene (`truth`) is seen by both readings, left unread by `without`
// and read right by `with`; the whole roll is read right with the step only, and every die read
// without is read the same with (within a quarter radius).
void expect_read_only_with(const nlohmann::json& truth, const nlohmann::json& die,
                           const vd::Detection& with, const vd::Detection& without,
                           const std::string& message) {
  ASSERT_FALSE(die["cocked"].get<bool>());
  EXPECT_EQ(value_seen(without, die), 0) << "read without";
  EXPECT_EQ(value_seen(with, die), die["value"].get<int>());
  EXPECT_TRUE(arbitre::testing::score_dice(truth, with.observation).roll_right());
  EXPECT_FALSE(arbitre::testing::score_dice(truth, without.observation).roll_right());
  expect_none_lost(with, without, message, 0.25, true);
}

// The true die `die`: not seen in `before`; seen in `after`, found by the search, read `value`
// in `colour` (`what` names the two readings on a failure). Its index in `after`, -1 if unseen.
int found_by_the_search(const vd::Detection& after, const vd::Detection& before,
                        const nlohmann::json& die, int value, DieColour colour,
                        const std::string& what) {
  EXPECT_EQ(die["value"], value);
  EXPECT_EQ(seen_at(before.observation.dice, die), -1) << value << ": seen " << what;
  const int k = seen_at(after.observation.dice, die);
  EXPECT_GE(k, 0) << value << ": not seen " << what;
  if (k < 0) return k;
  const auto i = static_cast<std::size_t>(k);
  EXPECT_TRUE(after.candidates[static_cast<std::size_t>(after.die_candidate[i])].neighbour)
      << value << ": found, but not by the search";
  EXPECT_EQ(after.observation.dice[i].value, value);
  EXPECT_EQ(after.observation.dice[i].colour, colour);
  return k;
}

DiceObservation moving_dice(int frame) {
  DiceObservation o = first_roll();
  for (auto& d : o.dice) d.x += 37.0 * frame, d.y -= 11.0 * frame;
  o.dice.resize(static_cast<std::size_t>(7 + frame % 4));
  return o;
}

}  // namespace

TEST(DiceTurnTracker, CountsARollOnlyWhenTheDiceSettle) {
  vd::DiceTurnTracker tracker;
  double t = 0;
  std::vector<vd::TurnEvent> events;
  for (int f = 0; f < 8; ++f) {  // tumbling: never the same twice
    for (auto& e : tracker.feed(moving_dice(f), t)) events.push_back(e);
    t += 0.1;
  }
  EXPECT_EQ(count(events, vd::TurnEventKind::Roll), 0);
  events = hold(tracker, first_roll(), t, 0.5);  // shorter than settle_seconds
  EXPECT_EQ(count(events, vd::TurnEventKind::Roll), 0);
  events = hold(tracker, first_roll(), t, 0.6);
  ASSERT_EQ(count(events, vd::TurnEventKind::Roll), 1);
  EXPECT_EQ(events.back().roll, 1);
  EXPECT_EQ(events.back().rolled.size(), 10u);
  events = hold(tracker, first_roll(), t, 3.0);  // staying still is not another roll
  EXPECT_TRUE(events.empty());
  EXPECT_EQ(tracker.rolls(), 1);
  ASSERT_TRUE(tracker.final_dice().has_value());
}

TEST(DiceTurnTracker, RollKeepThreeRollAgain) {
  vd::DiceTurnTracker tracker;
  double t = 0;
  hold(tracker, first_roll(), t, 1.5);
  // Keep dice 0, 4 and 7: they move to the kept area; the others stay in the tray.
  DiceObservation keep = first_roll();
  for (int i : {0, 4, 7}) {
    keep.dice[static_cast<std::size_t>(i)].zone = DieZone::Kept;
    keep.dice[static_cast<std::size_t>(i)].y = 600;
  }
  auto events = hold(tracker, keep, t, 1.5);
  EXPECT_EQ(count(events, vd::TurnEventKind::Moving), 1);
  EXPECT_EQ(count(events, vd::TurnEventKind::Roll), 0);
  ASSERT_EQ(count(events, vd::TurnEventKind::Kept), 1);
  EXPECT_EQ(events.back().kept.size(), 3u);
  // Roll the seven others.
  DiceObservation second = keep;
  for (auto& d : second.dice) {
    if (d.zone == DieZone::Tray) d.x += 25, d.value = d.value % 10 + 1;
  }
  for (int f = 0; f < 5; ++f) {
    DiceObservation tumbling = second;
    for (auto& d : tumbling.dice) {
      if (d.zone == DieZone::Tray) d.x += 50.0 * (5 - f);
    }
    for (auto& e : tracker.feed(tumbling, t)) events.push_back(e);
    t += 0.1;
  }
  events = hold(tracker, second, t, 1.5);
  ASSERT_EQ(count(events, vd::TurnEventKind::Roll), 1);
  EXPECT_EQ(count(events, vd::TurnEventKind::KeptChanged), 0);
  EXPECT_EQ(events.back().roll, 2);
  EXPECT_EQ(events.back().rolled.size(), 7u);
  EXPECT_EQ(events.back().kept.size(), 3u);
  EXPECT_EQ(tracker.rolls(), 2);
  tracker.new_turn();
  EXPECT_EQ(tracker.rolls(), 0);
}

TEST(DiceTurnTracker, TellsWhenAKeptDieChanges) {
  vd::DiceTurnTracker tracker;
  double t = 0;
  DiceObservation o = first_roll();
  o.dice[2].zone = DieZone::Kept;
  o.dice[2].y = 600;
  hold(tracker, o, t, 1.5);
  DiceObservation cheat = o;
  cheat.dice[2].value = 10;  // the kept 3r turned to a 10
  for (auto& d : cheat.dice) {
    if (d.zone == DieZone::Tray) d.x += 30;  // and the others rolled
  }
  const auto events = hold(tracker, cheat, t, 1.5);
  ASSERT_EQ(count(events, vd::TurnEventKind::KeptChanged), 1);
  const auto it = std::find_if(events.begin(), events.end(), [](const auto& e) {
    return e.kind == vd::TurnEventKind::KeptChanged;
  });
  EXPECT_EQ(it->detail, "kept 3r became 10r");
}

// A kept die misread in a frame or two (the kept 3r read as 8r in the frames where the scene
// settles, 0.8 s after it stopped moving: frames 8 and 9 of 15, in the scene before the roll and
// in the one after) is no change: the settled readings are what most frames agree on. The same
// misread held in most frames of the new scene is a change.
TEST(DiceTurnTracker, AOneFrameMisreadOfAKeptDieIsNoChange) {
  DiceObservation o = first_roll();
  o.dice[2].zone = DieZone::Kept;
  o.dice[2].y = 600;
  DiceObservation misread = o;
  misread.dice[2].value = 8;
  DiceObservation rolled = o, rolled_misread = misread;
  for (auto* r : {&rolled, &rolled_misread}) {
    for (auto& d : r->dice) {
      if (d.zone == DieZone::Tray) d.x += 30;
    }
  }
  // 15 frames at 10 a second: `bad` in frames 8 and 9, `good` in the others.
  const auto still = [](vd::DiceTurnTracker& tracker, const DiceObservation& good,
                        const DiceObservation& bad, double& t) {
    std::vector<vd::TurnEvent> all;
    for (int f = 0; f < 15; ++f, t += 0.1) {
      for (auto& e : tracker.feed(f == 8 || f == 9 ? bad : good, t)) all.push_back(e);
    }
    return all;
  };
  vd::DiceTurnTracker tracker;
  double t = 0;
  still(tracker, o, misread, t);
  auto events = still(tracker, rolled, rolled_misread, t);
  EXPECT_EQ(count(events, vd::TurnEventKind::Roll), 1);
  EXPECT_EQ(count(events, vd::TurnEventKind::KeptChanged), 0);
  ASSERT_TRUE(tracker.final_dice().has_value());
  EXPECT_EQ((*tracker.final_dice())[2].value, 3);

  // Read 8 in 13 frames of 15 after the roll: the kept die did change.
  vd::DiceTurnTracker persistent;
  t = 0;
  still(persistent, o, misread, t);
  events = still(persistent, rolled_misread, rolled, t);
  ASSERT_EQ(count(events, vd::TurnEventKind::KeptChanged), 1);
}

// A kept die the reader misses (nine dice seen) is no alarm; gone from its place while ten dice
// are seen, it is. A change between two readings of which one is unsure is no alarm either.
TEST(DiceTurnTracker, AMissedOrUnsureKeptDieIsNoChange) {
  DiceObservation o = first_roll();
  o.dice[2].zone = DieZone::Kept;
  o.dice[2].y = 600;
  const auto roll_others = [](DiceObservation r) {
    for (auto& d : r.dice) {
      if (d.zone == DieZone::Tray) d.x += 30;
    }
    return r;
  };
  {
    vd::DiceTurnTracker tracker;
    double t = 0;
    hold(tracker, o, t, 1.5);
    DiceObservation missed = roll_others(o);
    missed.dice.erase(missed.dice.begin() + 2);  // nine dice: the kept one not found
    EXPECT_EQ(count(hold(tracker, missed, t, 1.5), vd::TurnEventKind::KeptChanged), 0);
  }
  {
    vd::DiceTurnTracker tracker;
    double t = 0;
    hold(tracker, o, t, 1.5);
    DiceObservation moved = roll_others(o);
    moved.dice[2].x += 200;  // ten dice, the kept one elsewhere in the kept area
    EXPECT_EQ(count(hold(tracker, moved, t, 1.5), vd::TurnEventKind::KeptChanged), 1);
  }
  {
    vd::DiceTurnTracker tracker;
    double t = 0;
    hold(tracker, o, t, 1.5);
    DiceObservation unsure = roll_others(o);
    unsure.dice[2].value = 8;
    unsure.dice[2].confidence = 0.3;
    EXPECT_EQ(count(hold(tracker, unsure, t, 1.5), vd::TurnEventKind::KeptChanged), 0);
  }
}

TEST(DiceTurnTracker, NoFinalDiceWhileADieIsCockedOrUnread) {
  vd::DiceTurnTracker tracker;
  double t = 0;
  DiceObservation o = first_roll();
  o.dice[3] = die(o.dice[3].x, o.dice[3].y, 0, DieColour::Red, DieZone::Tray, true);
  hold(tracker, o, t, 1.5);
  EXPECT_EQ(tracker.rolls(), 1);
  EXPECT_FALSE(tracker.final_dice().has_value());
}

// The ground truth of a turn rendered by `scenegen --sequence` (tests/data/dice/turn: one frame
// per event, "roll 1", "keep 2", "roll 2", ...), each frame held 1.2 s after 0.3 s of motion:
// the tracker counts exactly the rolls and keeps the script made.
TEST(DiceTurnTracker, FollowsARenderedScriptedTurn) {
  const fs::path dir = fs::path(ARBITRE_TEST_DATA) / "dice" / "turn";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 3u);
  vd::DiceTurnTracker tracker;
  double t = 0;
  int expected_rolls = 0, expected_keeps = 0, rolls = 0, keeps = 0;
  for (const fs::path& file : files) {
    const auto truth = nlohmann::json::parse(std::ifstream(file));
    const std::string event = truth["event"];
    if (event.rfind("roll", 0) == 0) ++expected_rolls;
    if (event.rfind("keep", 0) == 0) ++expected_keeps;
    DiceObservation o;
    for (const auto& d : truth["dice"]) {
      const std::string zone = d["zone"];
      o.dice.push_back(die(d["x"], d["y"], d["value"].is_null() ? 0 : d["value"].get<int>(),
                           d["colour"] == "red" ? DieColour::Red : DieColour::White,
                           zone == "kept"   ? DieZone::Kept
                           : zone == "tray" ? DieZone::Tray
                                            : DieZone::Table,
                           d["cocked"].get<bool>()));
    }
    DiceObservation blur = o;  // a hand over the dice
    blur.dice.resize(4);
    for (const auto& e : hold(tracker, blur, t, 0.3)) rolls += e.kind == vd::TurnEventKind::Roll;
    for (const auto& e : hold(tracker, o, t, 1.2)) {
      rolls += e.kind == vd::TurnEventKind::Roll;
      keeps += e.kind == vd::TurnEventKind::Kept;
      EXPECT_NE(e.kind, vd::TurnEventKind::KeptChanged) << file << ": " << e.detail;
    }
  }
  EXPECT_EQ(rolls, expected_rolls);
  EXPECT_EQ(keeps, expected_keeps);
  EXPECT_EQ(tracker.rolls(), expected_rolls);
}

// The scoring names why a roll is not read exactly right (dice_eval's rolls by cause): one cause
// for each kind of die that fails in it, each once, and a die invented or counted twice; none for
// a roll read right.
TEST(DiceScoring, NamesWhyARollIsNotReadRight) {
  const auto die = [](double x, const char* colour, const char* texture, int value) {
    nlohmann::json t = {{"x", x},          {"y", 100.0},       {"radius_px", 30.0},
                        {"cocked", false}, {"colour", colour}, {"texture", texture},
                        {"value", value}};
    if (value == 0) t["cocked"] = true, t["value"] = nullptr;
    return t;
  };
  const nlohmann::json truth = {
      {"dice",
       {die(100, "white", "transparent", 5), die(200, "red", "none", 3), die(300, "red", "none", 0),
        die(400, "white", "transparent", 7), die(500, "red", "frosted", 9)}}};
  const auto seen = [](double x, int value, bool red) {
    DieSighting s;
    s.x = x, s.y = 100, s.value = value;
    s.colour = red ? DieColour::Red : DieColour::White;
    return s;
  };
  DiceObservation right;
  right.dice = {seen(100, 5, false), seen(200, 3, true), seen(300, 0, true), seen(400, 7, false),
                seen(500, 9, true)};
  right.dice[2].cocked = true;
  EXPECT_TRUE(
      arbitre::testing::roll_failures(truth, arbitre::testing::score_dice(truth, right)).empty());
  // The two clear white dice unread, the leaning die read as a 4, the frosted red 9 read as a 6,
  // the red 3 found as white and seen twice, and a die where none lies.
  DiceObservation wrong = right;
  wrong.dice[0].value = 0, wrong.dice[3].value = 0;
  wrong.dice[2].cocked = false, wrong.dice[2].value = 4;
  wrong.dice[4].value = 6;
  wrong.dice[1].colour = DieColour::White;
  wrong.dice.push_back(seen(900, 0, false));
  wrong.dice.push_back(seen(205, 3, true));
  const auto s = arbitre::testing::score_dice(truth, wrong);
  EXPECT_FALSE(s.roll_right());
  EXPECT_EQ(arbitre::testing::roll_failures(truth, s),
            (std::vector<std::string>{
                "a die counted twice", "a die invented", "clear white flat die unread",
                "frosted red flat die read as another value", "leaning die read as a value",
                "opaque red flat die read with the wrong colour"}));
}

TEST(DiceReader, ZonesFromTheCalibratedPolygons) {
  vd::Zones zones;
  EXPECT_EQ(vd::zone_of({10, 10}, zones), DieZone::Table);
  zones.tray = {{0, 0}, {100, 0}, {100, 50}, {0, 50}};
  EXPECT_EQ(vd::zone_of({10, 10}, zones), DieZone::Tray);
  EXPECT_EQ(vd::zone_of({10, 80}, zones), DieZone::Kept);
  zones.kept = {{0, 60}, {100, 60}, {100, 90}, {0, 90}};
  EXPECT_EQ(vd::zone_of({10, 80}, zones), DieZone::Kept);
  EXPECT_EQ(vd::zone_of({10, 200}, zones), DieZone::Table);
}

TEST(DiceReader, FaceCropTurnsTheDigitUpright) {
  // A mark 20 px right of the centre: a digit whose top points right (90 degrees clockwise).
  cv::Mat image(200, 200, CV_8UC3, cv::Scalar(40, 40, 40));
  cv::circle(image, {120, 100}, 4, cv::Scalar(255, 255, 255), cv::FILLED);
  const cv::Mat crop = vd::face_crop(image, {100, 100}, 30, 90);
  ASSERT_EQ(crop.rows, vd::kCrop);
  cv::Mat grey;
  cv::cvtColor(crop, grey, cv::COLOR_BGR2GRAY);
  cv::Point brightest;
  cv::minMaxLoc(grey, nullptr, nullptr, nullptr, &brightest);
  EXPECT_NEAR(brightest.x, vd::kCrop / 2, 2);
  EXPECT_LT(brightest.y, vd::kCrop / 2 - 10);  // above the centre: upright
}

TEST(DiceReader, RednessTellsRedFromWhite) {
  const cv::Mat red(vd::kCrop, vd::kCrop, CV_8UC3, cv::Scalar(40, 40, 190));
  const cv::Mat white(vd::kCrop, vd::kCrop, CV_8UC3, cv::Scalar(215, 225, 230));
  EXPECT_GT(vd::redness(red, 0), 30);  // a* alone
  EXPECT_LT(vd::redness(white, 0), 8);
  const vd::Params params;
  EXPECT_GT(vd::redness(red, params.red_yellow), params.red_threshold);
  EXPECT_LT(vd::redness(white, params.red_yellow), params.red_threshold);
}

// A clear white die over a red lining shows a bluer red than a red glass die: as red by a* alone
// (or redder), told apart with b* (Params::red_yellow).
TEST(DiceReader, RednessWithYellowTellsRedGlassFromClearWhiteOverRed) {
  const cv::Mat red_glass(vd::kCrop, vd::kCrop, CV_8UC3, cv::Scalar(30, 40, 170));
  const cv::Mat white_over_red(vd::kCrop, vd::kCrop, CV_8UC3, cv::Scalar(140, 55, 190));
  EXPECT_GE(vd::redness(white_over_red, 0), vd::redness(red_glass, 0) - 2);
  const vd::Params params;
  EXPECT_GT(vd::redness(red_glass, params.red_yellow),
            vd::redness(white_over_red, params.red_yellow) + 20);
}

// The threshold says red or white, within what five dice of each colour allow.
TEST(DiceReader, ColoursAreBoundedByFiveDiceOfEachColour) {
  const vd::Params params;  // colour_gap 3
  // The rednesses below are given against a threshold of 14 (a* alone, as when the test was
  // written) and moved with the threshold, so that each lies on the same side of it.
  const auto moved = [&](std::vector<double> redness) {
    for (double& r : redness) r += params.red_threshold - 14;
    return redness;
  };
  const auto reds = [&](const std::vector<double>& redness) {
    const std::vector<bool> red = vd::red_dice(moved(redness), params);
    return static_cast<int>(std::count(red.begin(), red.end(), true));
  };
  // Nine dice, the threshold agrees with the bounds (4 or 5 red): it decides.
  EXPECT_EQ(reds({40, 35, 33, 30, 2, 1, 0, -1, -2}), 4);
  // Warm light: seven of nine above the threshold; at most five are red, and the redness
  // drops most after the fifth.
  const std::vector<double> warm = {45, 44, 42, 41, 40, 20, 18, 3, 2};
  const std::vector<bool> warm_red = vd::red_dice(moved(warm), params);
  EXPECT_EQ(std::count(warm_red.begin(), warm_red.end(), true), 5);
  EXPECT_TRUE(warm_red[4]);
  EXPECT_FALSE(warm_red[5]);
  // Glass dice over a dark tray: three above the threshold; at most five of nine are white.
  EXPECT_EQ(reds({30, 28, 25, 12, 11, 10, 9, 8, 7}), 4);
  // Ten dice, one a phantom: a clear fall after the fourth leaves four red...
  EXPECT_EQ(reds({33, 28, 27, 23, 2, -0.3, -1.5, -1.6, -1.9, -2}), 4);
  // ... but a slight one does not: five red, as ten dice of a game are.
  EXPECT_EQ(reds({33, 28, 27, 23, 13, 3, -1.5, -1.6, -1.9, -2}), 5);
  // Never more than six of ten.
  EXPECT_EQ(reds({50, 49, 48, 47, 46, 45, 44, 2, 1, 0}), 5);
  EXPECT_TRUE(vd::red_dice({}, params).empty());
  EXPECT_EQ(reds({20}), 1);
  EXPECT_EQ(reds({5}), 0);
}

TEST(DiceReader, EmptyTableHasNoDice) {
  cv::Mat table(720, 1280, CV_8UC3, cv::Scalar(60, 120, 40));
  cv::randn(table, cv::Scalar(60, 120, 40), cv::Scalar(4, 4, 4));
  const vd::Detection d = vd::detect(table);
  EXPECT_TRUE(d.observation.dice.empty());
}

TEST(DiceReader, BadFileIsAnImageFileError) {
  const fs::path path = fs::path(::testing::TempDir()) / "arbitre_dice_not_an_image.png";
  std::ofstream(path) << "not a png";
  EXPECT_THROW(arbitre::vision::detect_dice_file(path.string()), arbitre::vision::ImageFileError);
  EXPECT_THROW(arbitre::vision::detect_dice_file("/nonexistent/dice.jpg"),
               arbitre::vision::ImageFileError);
  fs::remove(path);
}

TEST(DiceReader, CommittedScenesAboveTheRegressionFloor) {
  ASSERT_FALSE(vd::default_model().empty())
      << "no dice model built in (vision/models/dice_digits.tar.xz)";
  const fs::path dir = fs::path(ARBITRE_TEST_DATA) / "dice";
  int images = 0, flat = 0, right = 0, cocked = 0, flagged = 0, miss_double = 0, wrong_colour = 0,
      matched = 0, wrong_value = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    const auto truth = nlohmann::json::parse(std::ifstream(entry.path()));
    const auto seen =
        arbitre::vision::detect_dice_file((dir / truth["image"].get<std::string>()).string());
    EXPECT_LE(seen.dice.size(), 10u);
    const auto s = arbitre::testing::score_dice(truth, seen);
    ++images;
    flat += s.flat, right += s.flat_right, cocked += s.cocked, flagged += s.cocked_flagged;
    miss_double += s.miss_or_double();
    wrong_colour += s.wrong_colour;
    wrong_value += s.wrong_value;
    matched += s.flat + s.cocked - s.missed;
  }
  ASSERT_EQ(images, 6);
  // Floors of the current reader (docs/benchmarks.md): below the issue's targets.
  EXPECT_GE(right, kFloorRight * flat) << right << " of " << flat << " flat dice read right";
  EXPECT_LE(miss_double, kFloorMissOrDouble * images);
  EXPECT_LE(wrong_value, kCeilingWrongValue * flat + 1) << wrong_value << " flat dice read wrong";
  EXPECT_LE(wrong_colour, 0.05 * matched + 1);
  EXPECT_GE(flagged, cocked - 1) << flagged << " of " << cocked << " cocked dice flagged";
}

// The camera's angle from overhead, told by where the dice read put a flat die's top face: on
// the six committed scenes (cameras 0.8-25.1 degrees from overhead) within 5 degrees of the
// truth (on 2,500 rendered images 1.7-1.9 degrees off, median; docs/benchmarks.md).
TEST(DiceReader, TheCameraAngleIsToldByWhereTheDiceReadPutAFlatDiesTopFace) {
  const fs::path dir = fs::path(ARBITRE_TEST_DATA) / "dice";
  int scenes = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    const auto truth = nlohmann::json::parse(std::ifstream(entry.path()));
    const auto seen =
        arbitre::vision::detect_dice_file((dir / truth["image"].get<std::string>()).string());
    const double tilt = truth["scene"]["tilt_deg"].get<double>();
    EXPECT_NEAR(seen.camera_tilt_deg, tilt, 5.0) << entry.path();
    ++scenes;
  }
  EXPECT_EQ(scenes, 6);
}

// The angle from the fit alone: the shift of a flat die's top face from its centre where the
// camera looks (the image's centre), kTiltShiftBias + kTiltShiftPerSine x sin(tilt) radius, read
// back; no shift (or less than the bias) is straight overhead; none is more than 90 degrees.
TEST(DiceReader, TheCameraAngleFromTheFitOfTheTopFacesShifts) {
  const cv::Size size(1280, 720);
  const auto fit_with_shift = [](cv::Point2d shift) {
    // k p - (a, b) with k = 0: the same shift everywhere.
    return cv::Vec4d(0, -shift.x, -shift.y, 0);
  };
  for (double degrees : {5.0, 20.0, 33.0}) {
    const double length =
        vd::kTiltShiftBias + vd::kTiltShiftPerSine * std::sin(degrees * M_PI / 180.0);
    EXPECT_NEAR(vd::camera_tilt_from_fit(fit_with_shift({0, -length}), size), degrees, 1e-9);
    EXPECT_NEAR(vd::camera_tilt_from_fit(fit_with_shift({length * 0.6, length * 0.8}), size),
                degrees, 1e-9);
  }
  // A fit whose shift grows across the image: read where the camera looks, the middle.
  const cv::Vec4d growing(0.2, 0.2 * 0.5, 0.2 * 0.5 * 720 / 1280 + 0.3, 0);
  const double length = cv::norm(vd::face_shift(growing, {0.5, 0.5 * 720 / 1280}, {0, 0}));
  EXPECT_NEAR(length, 0.3, 1e-12);
  EXPECT_GT(cv::norm(vd::face_shift(growing, {0, 0}, {0, 0})), 0.35);  // elsewhere another
  EXPECT_NEAR(vd::camera_tilt_from_fit(growing, size),
              std::asin((0.3 - vd::kTiltShiftBias) / vd::kTiltShiftPerSine) * 180 / M_PI, 1e-9);
  EXPECT_EQ(vd::camera_tilt_from_fit(fit_with_shift({0.01, 0}), size), 0.0);
  EXPECT_EQ(vd::camera_tilt_from_fit(fit_with_shift({0, 2.0}), size), 90.0);
}

TEST(DiceCli, DetectDicePrintsTheDiceAndRefusesBadImages) {
  const std::string image = (fs::path(ARBITRE_TEST_DATA) / "dice" / "0002.jpg").string();
  const auto ok = arbitre::testing::run_arbitre("detect dice " + image);
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  const auto json = nlohmann::json::parse(ok.out);
  ASSERT_TRUE(json["dice"].is_array());
  EXPECT_LE(json["dice"].size(), 10u);
  for (const auto& d : json["dice"]) {
    EXPECT_TRUE(d["value"].is_null() ||
                (d["value"].get<int>() >= 1 && d["value"].get<int>() <= 10));
    EXPECT_TRUE(d["colour"] == "red" || d["colour"] == "white");
    EXPECT_TRUE(d["cocked"].is_boolean());
    EXPECT_TRUE(d["confidence"].is_number());
  }
  // The camera 2.8 degrees from overhead in this scene: told within 5, and no hint; 25.1 in scene
  // 0000, past the 20 within which dice are read surest: a hint on stderr, the JSON as ever.
  EXPECT_NEAR(json["camera_tilt_deg"].get<double>(), 2.8, 5.0);
  EXPECT_EQ(ok.err.find("from overhead"), std::string::npos) << ok.err;
  const auto oblique = arbitre::testing::run_arbitre(
      "detect dice " + (fs::path(ARBITRE_TEST_DATA) / "dice" / "0000.jpg").string());
  ASSERT_EQ(oblique.exit_code, 0) << oblique.err;
  EXPECT_GT(nlohmann::json::parse(oblique.out)["camera_tilt_deg"].get<double>(), 20.0);
  EXPECT_NE(oblique.err.find("degrees from overhead; dice are read surest within 20"),
            std::string::npos)
      << oblique.err;
  const fs::path bad = fs::path(::testing::TempDir()) / "arbitre_dice_cli_bad.jpg";
  std::ofstream(bad) << "\xFF\xD8\xFF garbage";
  const auto refused = arbitre::testing::run_arbitre("detect dice " + bad.string());
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find(bad.string()), std::string::npos);
  fs::remove(bad);
  const fs::path zones = fs::path(::testing::TempDir()) / "arbitre_dice_zones.json";
  std::ofstream(zones) << R"({"tray": [[0, 0], [1280, 0], [1280, 400], [0, 400]]})";
  const auto zoned =
      arbitre::testing::run_arbitre("detect dice " + image + " --zones " + zones.string());
  ASSERT_EQ(zoned.exit_code, 0) << zoned.err;
  // (The parsed document kept in a variable: a range-for over a part of a temporary reads it
  // after it is destroyed.)
  const nlohmann::json zoned_json = nlohmann::json::parse(zoned.out);
  for (const auto& d : zoned_json["dice"]) {
    EXPECT_EQ(d["zone"], d["y"].get<double>() <= 400 ? "tray" : "kept");
  }
  fs::remove(zones);
}

// The digit network's veto: the forest reads, and a value the network does not find most likely
// at the same crop is left unread. A network that always answers "wrong turn" leaves every die
// unread; the committed model's network only ever removes readings, never changes one.
TEST(DiceReader, TheDigitNetworkVetoesAndNeverChangesAReading) {
  ASSERT_FALSE(vd::default_model().empty());
  const fs::path dir = fs::path(ARBITRE_TEST_DATA) / "dice";
  std::vector<cv::Mat> images;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".jpg") images.push_back(cv::imread(entry.path().string()));
  }
  ASSERT_FALSE(images.empty());
  ASSERT_FALSE(vd::default_model().digit_net.empty()) << "the committed model has a network";

  vd::Model nay = vd::default_model();
  // A network of its own (assigning zeros() to a matrix that shares the default model's data
  // would write into that data).
  nay.digit_net = arbitre::vision::Mlp{};
  nay.digit_net.mean = cv::Mat::zeros(1, vd::kFaceFeatures, CV_32F);
  nay.digit_net.scale = cv::Mat::ones(1, vd::kFaceFeatures, CV_32F);
  nay.digit_net.weights = {cv::Mat::zeros(vd::kFaceFeatures, vd::kReaderClasses, CV_32F)};
  nay.digit_net.biases = {cv::Mat::zeros(1, vd::kReaderClasses, CV_32F)};
  nay.digit_net.biases[0].at<float>(0, vd::kWrongTurn) = 10;
  vd::Params veto, forest;
  veto.use_cnn = forest.use_cnn = false;  // the forest path (the model's CNN reads otherwise)
  forest.net_veto = false;
  forest.net_weight = 0;  // the forest's shares alone
  int read_by_forest = 0, vetoed = 0, kept = 0;
  for (const cv::Mat& image : images) {
    const auto alone = vd::detect(image, forest).observation.dice;
    const auto checked = vd::detect(image, veto).observation.dice;
    const auto refused = vd::detect(image, veto, nay).observation.dice;
    ASSERT_EQ(alone.size(), checked.size());
    ASSERT_EQ(alone.size(), refused.size());
    for (std::size_t i = 0; i < alone.size(); ++i) {
      read_by_forest += alone[i].value > 0;
      EXPECT_EQ(refused[i].value, 0) << "a die read although the network said wrong turn";
      if (checked[i].value > 0) {
        EXPECT_EQ(checked[i].value, alone[i].value) << "the veto changed a reading";
        ++kept;
      } else if (alone[i].value > 0) {
        ++vetoed;
      }
    }
  }
  EXPECT_GT(read_by_forest, 40);
  EXPECT_GT(kept, 0.8 * read_by_forest);  // the network agrees with most readings
}

namespace {

// A digit network that answers `label` whatever it sees.
void always_answer(arbitre::vision::Cnn& net, int label) {
  std::fill(net.w4.begin(), net.w4.end(), 0.0f);
  std::fill(net.b4.begin(), net.b4.end(), 0.0f);
  net.b4[static_cast<std::size_t>(label)] = 30;  // a probability of 1 to the float
}

// The committed model with its digit networks, the clear one too, answering `label` whatever they
// see (the clear network alone reads a transparent die at its weight since the thirty-fourth
// session).
vd::Model always_answering(int label) {
  vd::Model m = vd::default_model();  // the networks' weights are copied, not shared
  always_answer(m.digit_cnn, label);
  if (!m.digit_cnn_2.empty()) always_answer(m.digit_cnn_2, label);
  if (!m.clear_cnn.empty()) always_answer(m.clear_cnn, label);
  return m;
}

}  // namespace

// With a digit CNN in the model, it reads the digits: a network that always answers "cocked"
// flags every die found cocked, one that always answers "wrong turn" leaves every die unread,
// and the committed one reads most dice of the committed scenes.
TEST(DiceReader, TheDigitCnnReadsTheDigitsWhenTheModelHasOne) {
  ASSERT_FALSE(vd::default_model().digit_cnn.empty()) << "the committed model has a CNN";
  const fs::path dir = fs::path(ARBITRE_TEST_DATA) / "dice";
  std::vector<cv::Mat> images;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".jpg") images.push_back(cv::imread(entry.path().string()));
  }
  ASSERT_FALSE(images.empty());
  const vd::Model cocked = always_answering(vd::kCockedClass),
                  wrong = always_answering(vd::kWrongTurn);
  const vd::Params params;
  vd::Params no_presence;  // the CNN's "not a die" left out, so that the same dice are found
  no_presence.cnn_presence = 0;
  int found = 0, read = 0;
  for (const cv::Mat& image : images) {
    const auto dice = vd::detect(image, params).observation.dice;
    found += static_cast<int>(dice.size());
    for (const auto& d : dice) read += d.value > 0;
    for (const auto& d : vd::detect(image, no_presence, cocked).observation.dice)
      EXPECT_TRUE(d.cocked) << "a die not flagged although the network said cocked";
    for (const auto& d : vd::detect(image, no_presence, wrong).observation.dice)
      EXPECT_EQ(d.value, 0) << "a die read although the network said wrong turn";
  }
  EXPECT_GT(found, 40);
  EXPECT_GT(read, 0.75 * found);
}

// The committed model has a second digit network (trained on renders with the room round the
// table, the first on renders without), and the reader takes the mean of the two answers: a
// second network that always answers "cocked" makes every die's "cocked" at least one half, so
// every die found is flagged; one that always answers "wrong turn" halves every value's
// probability, so no die is read surer than one half; and the first network alone gives some
// die another confidence than the pair (the second is asked, not only loaded).
TEST(DiceReader, TheReaderTakesTheMeanOfItsTwoDigitNetworks) {
  ASSERT_FALSE(vd::default_model().digit_cnn_2.empty()) << "the committed model has two";
  const fs::path dir = fs::path(ARBITRE_TEST_DATA) / "dice";
  vd::Params params;
  params.cnn_presence = 0;  // the digit networks' "not a die" left out: the same dice are found
  // The clear networks left out too: the second digit network does not halve theirs, and a die
  // left unread along its axis (under Params::cnn_confidence, 0.7 since the sixtieth session) is
  // read again with them mixed in.
  params.clear_weight = 0;
  vd::Model cocked = vd::default_model(), wrong = vd::default_model(), alone = vd::default_model();
  always_answer(cocked.digit_cnn_2, vd::kCockedClass);
  always_answer(wrong.digit_cnn_2, vd::kWrongTurn);
  alone.digit_cnn_2 = {};
  int found = 0, differ = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".jpg") continue;
    const cv::Mat image = cv::imread(entry.path().string());
    const vd::Detection pair = vd::detect(image, params);
    found += static_cast<int>(pair.observation.dice.size());
    for (const auto& d : vd::detect(image, params, cocked).observation.dice)
      EXPECT_TRUE(d.cocked) << entry.path()
                            << ": a die not flagged, the second network said cocked";
    for (const auto& d : vd::detect(image, params, wrong).observation.dice)
      EXPECT_TRUE(d.value == 0 || d.confidence <= 0.5)
          << entry.path() << ": a die read surer than the second network allows";
    const vd::Detection first = vd::detect(image, params, alone);
    for (std::size_t k = 0;
         k < std::min(first.observation.dice.size(), pair.observation.dice.size()); ++k) {
      differ += first.observation.dice[k].confidence != pair.observation.dice[k].confidence;
    }
  }
  EXPECT_GT(found, 40);
  EXPECT_GT(differ, 0) << "the second network changes no die's confidence";
}

// With an axis network in the model, it gives the digit's axis: at the top face the locator
// finds on the committed scenes' flat dice it is within 15 degrees (modulo 180) for most of them,
// and nearer than the axis forests on the whole (mean error); a network that always answers one bin
// gives that bin's direction; without it (or with use_cnn false) the forests answer.
namespace {

// A copy of `cnn` (its weights copied, not shared) that answers class `c` whatever it is shown.
arbitre::vision::Cnn always(arbitre::vision::Cnn cnn, int c) {
  std::fill(cnn.w4.begin(), cnn.w4.end(), 0.0f);
  std::fill(cnn.b4.begin(), cnn.b4.end(), 0.0f);
  cnn.b4[static_cast<std::size_t>(c)] = 20;
  return cnn;
}

// Calls look(image, grey, die) for every flat die of the committed scenes (tests/data/dice).
template <typename Look>
void for_each_flat_die(Look look) {
  const fs::path dir = fs::path(ARBITRE_TEST_DATA) / "dice";
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    const auto truth = nlohmann::json::parse(std::ifstream(entry.path()));
    const cv::Mat image = cv::imread((dir / truth["image"].get<std::string>()).string());
    cv::Mat grey;
    cv::cvtColor(image, grey, cv::COLOR_BGR2GRAY);
    for (const auto& die : truth["dice"]) {
      if (!die["cocked"].get<bool>()) look(image, grey, die);
    }
  }
}

}  // namespace

TEST(DiceReader, TheAxisNetworkGivesTheDigitsAxis) {
  const vd::Model& model = vd::default_model();
  ASSERT_FALSE(model.axis_cnn.empty()) << "the committed model has an axis network";
  vd::Model fixed = model;  // the network's weights are copied, not shared
  fixed.axis_cnn = always(model.axis_cnn, 4);  // bin 4: 60 degrees
  vd::Model forests = model;
  forests.axis_cnn = {};
  const auto off = [](double a, double truth) {
    const double e = std::fmod(std::fabs(a - truth), 180.0);
    return std::min(e, 180.0 - e);
  };
  int dice = 0, near_cnn = 0;
  double error_cnn = 0, error_forest = 0;
  for_each_flat_die([&](const cv::Mat& image, const cv::Mat& grey, const nlohmann::json& t) {
    const double r = t["radius_px"].get<double>();
    const cv::Point2d face = vd::locate_face(image, {t["x"].get<double>(), t["y"].get<double>()}, r,
                                             vd::Params{}.locate_steps, model);
    const double rotation = t["face"]["digit_rotation_deg"].get<double>();
    const double by_cnn = vd::digit_axis(image, grey, face, r, model);
    const double by_forest = vd::digit_axis(image, grey, face, r, model, false);
    ASSERT_GE(by_cnn, 0);
    ASSERT_LT(by_cnn, 180);
    EXPECT_EQ(by_forest, vd::digit_axis(image, grey, face, r, forests));
    EXPECT_NEAR(vd::digit_axis(image, grey, face, r, fixed), 60.0, 1e-6);
    ++dice;
    near_cnn += off(by_cnn, rotation) < 15;
    error_cnn += off(by_cnn, rotation);
    error_forest += off(by_forest, rotation);
  });
  ASSERT_GT(dice, 40);
  EXPECT_GT(near_cnn, 0.9 * dice) << near_cnn << " of " << dice;
  EXPECT_LT(error_cnn, error_forest)
      << "mean error " << error_cnn / dice << " against the forests' " << error_forest / dice;
}

// The scan's own HOG gives every window OpenCV's HOG gives (window_hog(), winStride and padding
// 8), in the same order, with the same score to within a hair (its arctangent is not OpenCV's),
// on a committed scene at two of the pyramid's levels.
TEST(DiceReader, TheWindowScanScoresAsOpenCvsHog) {
  const vd::Model& model = vd::default_model();
  ASSERT_FALSE(model.window_weights.empty());
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "circle", "0096");
  ASSERT_FALSE(image.empty());
  cv::Mat grey;
  cv::cvtColor(image, grey, cv::COLOR_BGR2GRAY);
  cv::HOGDescriptor hog = vd::window_hog();
  const float* w = model.window_weights.ptr<float>();
  hog.setSVMDetector(std::vector<float>(w, w + vd::kWindowFeatures + 1));
  for (const double f : {0.63, 0.21}) {
    cv::Mat level;
    cv::resize(grey, level, cv::Size(), f, f, cv::INTER_AREA);
    std::vector<cv::Point> want, got;
    std::vector<double> want_scores, got_scores;
    hog.detect(level, want, want_scores, -1e9, cv::Size(8, 8), cv::Size(8, 8));
    vd::scan_hog(level, w, -1e9, got, got_scores);
    ASSERT_EQ(got.size(), want.size()) << "level " << f;
    ASSERT_GT(got.size(), 100u);
    double worst = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], want[i]) << i;
      worst = std::max(worst, std::abs(got_scores[i] - want_scores[i]));
    }
    EXPECT_LT(worst, 5e-3) << "level " << f;
    // The plain code (for machines without AVX2) gives the same windows and scores.
    std::vector<cv::Point> plain;
    std::vector<double> plain_scores;
    vd::scan_hog(level, w, -1e9, plain, plain_scores, false);
    ASSERT_EQ(plain, got);
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(plain_scores[i], got_scores[i], 1e-5);
    // And a threshold keeps the same windows, but for one within a hair of it.
    vd::scan_hog(level, w, vd::Params{}.scan_threshold, got, got_scores);
    hog.detect(level, want, want_scores, vd::Params{}.scan_threshold, cv::Size(8, 8),
               cv::Size(8, 8));
    EXPECT_LE(std::abs(static_cast<int>(got.size()) - static_cast<int>(want.size())), 1);
  }
}

// The block HOG of a face crop (colour, 6-pixel cells) and of the re-centring's grid of blocks
// (grey, 8-pixel cells, 2 pixels apart) is OpenCV's HOGDescriptor's to within a hair (the
// arctangent differs), on parts of committed scenes, dice and table; the plain code (machines
// without AVX2) gives the same.
// The block HOG's AVX-512 parts (sixteen values at a time: the votes, two cells' row histograms,
// a block row's scales) give the AVX2 code's bytes: the same products and sums in the same order,
// without contraction. On grey and colour images, cells of 6 and 8, grids 2 and a cell apart,
// the scan's and the face crops' (a machine without AVX-512 compares AVX2 with itself).
TEST(DiceReader, BlockHogAtAvx512IsAvx2ToTheByte) {
  const cv::Mat image = cv::imread(std::string(ARBITRE_TEST_DATA) + "/dice/0000.jpg");
  ASSERT_FALSE(image.empty());
  cv::Mat grey;
  cv::cvtColor(image, grey, cv::COLOR_BGR2GRAY);
  struct Reset {
    bool before = vd::set_hog_avx512(true);
    ~Reset() { vd::set_hog_avx512(before); }
  } reset;
  int compared = 0;
  for (const cv::Mat* im : std::initializer_list<const cv::Mat*>{&grey, &image}) {
    for (const int cell : {6, 8}) {
      for (const int step : {2, cell}) {
        for (const cv::Point at : {cv::Point(-8, -8), cv::Point(301, 187)}) {
          const int n = 23;  // an odd number of cells a row: the last cell alone
          std::vector<float> wide(static_cast<std::size_t>(n * n * 36)), narrow(wide.size());
          vd::set_hog_avx512(true);
          vd::hog_blocks(*im, cell, step, at, n, n, wide.data());
          vd::set_hog_avx512(false);
          vd::hog_blocks(*im, cell, step, at, n, n, narrow.data());
          ASSERT_EQ(std::memcmp(wide.data(), narrow.data(), wide.size() * sizeof(float)), 0)
              << "cell " << cell << ", step " << step << ", channels " << im->channels();
          ++compared;
        }
      }
    }
  }
  std::vector<cv::Point> hits[2];
  std::vector<double> scores[2];
  const cv::Mat& weights = vd::default_model().window_weights;
  for (const bool on : {true, false}) {
    vd::set_hog_avx512(on);
    vd::scan_hog(grey, weights.ptr<float>(), -1.0, hits[on], scores[on]);
  }
  EXPECT_EQ(hits[0], hits[1]);
  EXPECT_EQ(scores[0], scores[1]);
  EXPECT_FALSE(hits[0].empty());
  EXPECT_EQ(compared, 16);
}

TEST(DiceReader, BlockHogIsOpenCvsHog) {
  const cv::Mat image = cv::imread(std::string(ARBITRE_TEST_DATA) + "/dice/0000.jpg");
  ASSERT_FALSE(image.empty());
  cv::Mat grey;
  cv::cvtColor(image, grey, cv::COLOR_BGR2GRAY);
  const cv::HOGDescriptor crop_hog(cv::Size(48, 48), cv::Size(12, 12), cv::Size(6, 6),
                                   cv::Size(6, 6), 9);
  const cv::HOGDescriptor block_hog(cv::Size(16, 16), cv::Size(16, 16), cv::Size(8, 8),
                                    cv::Size(8, 8), 9);
  cv::RNG rng(11);
  double worst = 0, total = 0;
  long count = 0;
  const auto compare = [&](const std::vector<float>& want, const std::vector<float>& got,
                           const std::vector<float>& plain) {
    ASSERT_EQ(got.size(), want.size());
    ASSERT_EQ(plain.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      const double e = std::abs(static_cast<double>(got[i]) - want[i]);
      worst = std::max(worst, e);
      total += e;
      ++count;
      ASSERT_NEAR(plain[i], got[i], 1e-5) << i;
    }
  };
  for (int k = 0; k < 60; ++k) {
    // A 48 x 48 colour crop (a fresh image, as face_crop gives).
    const cv::Rect at(rng.uniform(0, image.cols - 48), rng.uniform(0, image.rows - 48), 48, 48);
    const cv::Mat crop = image(at).clone();
    std::vector<float> want, got, plain;
    crop_hog.compute(crop, want);
    got.resize(want.size());
    plain.resize(want.size());
    vd::hog_window(crop, 6, got.data());
    vd::hog_window(crop, 6, plain.data(), false);
    compare(want, got, plain);
    // A 64 x 64 grey patch: blocks n x n, `step` pixels apart from `first`.
    const cv::Rect near(rng.uniform(0, image.cols - 64), rng.uniform(0, image.rows - 64), 64, 64);
    const cv::Mat patch = grey(near).clone();
    const auto grid = [&](int step, int first, int n) {
      std::vector<cv::Point> corners;
      for (int v = 0; v < n; ++v) {
        for (int u = 0; u < n; ++u) corners.emplace_back(first + step * u, first + step * v);
      }
      block_hog.compute(patch, want, cv::Size(8, 8), cv::Size(), corners);
      got.assign(want.size(), 0.f);
      plain.assign(want.size(), 0.f);
      vd::hog_blocks(patch, 8, step, {first, first}, n, n, got.data());
      vd::hog_blocks(patch, 8, step, {first, first}, n, n, plain.data(), false);
      compare(want, got, plain);
    };
    grid(2, 8, 17);  // as the re-centring asks
    grid(8, 0, 7);   // over the whole patch, along its edges too (the gradient mirrored there)
  }
  EXPECT_LT(worst, 3e-3);
  EXPECT_LT(total / static_cast<double>(count), 1e-4) << "mean difference";
  std::printf("block HOG against OpenCV's: worst %.5f, mean %.7f over %ld values\n", worst,
              total / static_cast<double>(count), count);
}

// The crops of one place at several turns are the crops taken one by one, to the byte, whether
// the neighbourhood is averaged down first (a large die, or the face network's wider span) or not.
TEST(DiceReader, CropsAtSeveralTurnsAreTheCropsOneByOne) {
  const cv::Mat image = cv::imread(std::string(ARBITRE_TEST_DATA) + "/dice/0000.jpg");
  ASSERT_FALSE(image.empty());
  cv::Mat grey;
  cv::cvtColor(image, grey, cv::COLOR_BGR2GRAY);
  const std::vector<double> turns = {0.0, 37.5, 90.0, 200.0};
  for (const double radius : {12.0, 60.0}) {
    for (const double span : {vd::kCnnRadius, vd::kFaceSpan}) {
      cv::Mat together(static_cast<int>(turns.size()) + 1, vd::kCnnSide * vd::kCnnSide, CV_8U,
                       cv::Scalar(7));
      vd::cnn_crops(grey, {640.5, 360.25}, radius, turns, together, 1, span);
      EXPECT_EQ(cv::countNonZero(together.row(0) != 7), 0) << "the row before is left alone";
      for (std::size_t t = 0; t < turns.size(); ++t) {
        cv::Mat alone(1, vd::kCnnSide * vd::kCnnSide, CV_8U);
        vd::cnn_crop(grey, {640.5, 360.25}, radius, turns[t], alone.ptr(), span);
        EXPECT_EQ(cv::norm(alone, together.row(static_cast<int>(t) + 1), cv::NORM_INF), 0)
            << "radius " << radius << ", span " << span << ", turn " << turns[t];
      }
    }
  }
}

// The face network finds the top face from the die's centre closer than the locator's forests
// on the committed scenes; it reads the shift along both axes from four quarter turns of its
// crop, so a network that says the same whatever it sees moves nothing.
TEST(DiceReader, TheFaceNetworkFindsTheTopFace) {
  const vd::Model& model = vd::default_model();
  ASSERT_FALSE(model.face_cnn.empty()) << "the committed model has a face network";
  vd::Model fixed = model;
  fixed.face_cnn = always(model.face_cnn, vd::kFaceBins - 2);  // "the face is further along x"
  const vd::Params params;
  int dice = 0, near_cnn = 0;
  double error_cnn = 0, error_forest = 0;
  for_each_flat_die([&](const cv::Mat& image, const cv::Mat& grey, const nlohmann::json& t) {
    const double r = t["radius_px"].get<double>();
    const cv::Point2d centre(t["x"].get<double>(), t["y"].get<double>());
    const cv::Point2d face(t["face"]["x"].get<double>(), t["face"]["y"].get<double>());
    const cv::Point2d by_cnn = vd::locate_face_cnn(grey, centre, r, params.face_steps, model);
    const cv::Point2d by_forest = vd::locate_face(image, centre, r, params.locate_steps, model);
    const cv::Point2d still = vd::locate_face_cnn(grey, centre, r, params.face_steps, fixed);
    EXPECT_NEAR(still.x, centre.x, 1e-9);
    EXPECT_NEAR(still.y, centre.y, 1e-9);
    ++dice;
    near_cnn += cv::norm(by_cnn - face) < 0.2 * r;
    error_cnn += cv::norm(by_cnn - face) / r;
    error_forest += cv::norm(by_forest - face) / r;
  });
  ASSERT_GT(dice, 40);
  EXPECT_GT(near_cnn, 0.85 * dice) << near_cnn << " of " << dice << " within 0.2 radius";
  EXPECT_LT(error_cnn, error_forest)
      << "mean error " << error_cnn / dice << " against the forests' " << error_forest / dice;
}

// The centre network brings a point off the die's centre (0.3 radius, in eight directions) back
// to it; a network that answers the same bin at every turn moves nothing.
TEST(DiceReader, TheCentreNetworkFindsTheDiesCentre) {
  const vd::Model& model = vd::default_model();
  ASSERT_FALSE(model.centre_cnn.empty()) << "the committed model has a centre network";
  vd::Model fixed = model;
  fixed.centre_cnn = always(model.centre_cnn, vd::kFaceBins - 2);
  const vd::Params params;
  int dice = 0, near = 0;
  double error = 0;
  for_each_flat_die([&](const cv::Mat&, const cv::Mat& grey, const nlohmann::json& t) {
    const double r = t["radius_px"].get<double>();
    const cv::Point2d centre(t["x"].get<double>(), t["y"].get<double>());
    const double a = M_PI / 4 * (dice % 8);
    const cv::Point2d from = centre + 0.3 * r * cv::Point2d(std::cos(a), std::sin(a));
    const cv::Point2d found =
        vd::locate_centres_cnn(grey, {from}, {r}, params.centre_steps, model)[0];
    const cv::Point2d still =
        vd::locate_centres_cnn(grey, {from}, {r}, params.centre_steps, fixed)[0];
    EXPECT_NEAR(still.x, from.x, 1e-9);
    EXPECT_NEAR(still.y, from.y, 1e-9);
    ++dice;
    near += cv::norm(found - centre) < 0.15 * r;
    error += cv::norm(found - centre) / r;
  });
  ASSERT_GT(dice, 40);
  EXPECT_GT(near, 0.9 * dice) << near << " of " << dice << " within 0.15 radius";
  EXPECT_LT(error / dice, 0.1) << "mean error (radii), from 0.3";
}

// The fine networks place a die's top face and centre, from 0.1 radius off them (in eight
// directions), nearer than the face and centre networks do from the same places on the committed
// scenes (their bins are a third of those networks'); one that answers the same bin at every
// turn moves nothing.
TEST(DiceReader, TheFineNetworksPlaceTheFaceAndTheCentreNearer) {
  const vd::Model& model = vd::default_model();
  ASSERT_FALSE(model.fine_face_cnn.empty()) << "the committed model has a fine face network";
  ASSERT_FALSE(model.fine_centre_cnn.empty()) << "the committed model has a fine centre network";
  vd::Model fixed = model;
  fixed.fine_face_cnn = always(model.fine_face_cnn, vd::kFaceBins - 2);
  fixed.fine_centre_cnn = always(model.fine_centre_cnn, vd::kFaceBins - 2);
  const vd::Params params;
  int dice = 0;
  double fine_face = 0, fine_centre = 0, face = 0, centre = 0;
  for_each_flat_die([&](const cv::Mat&, const cv::Mat& grey, const nlohmann::json& t) {
    const double r = t["radius_px"].get<double>();
    const cv::Point2d true_centre(t["x"].get<double>(), t["y"].get<double>());
    const cv::Point2d true_face(t["face"]["x"].get<double>(), t["face"]["y"].get<double>());
    const double a = M_PI / 4 * (dice % 8);
    const cv::Point2d off = 0.1 * r * cv::Point2d(std::cos(a), std::sin(a));
    const auto error = [&](cv::Point2d p, cv::Point2d truth) { return cv::norm(p - truth) / r; };
    const int turns = params.fine_turns;
    fine_face += error(vd::locate_fine_faces_cnn(grey, {true_face + off}, {r}, 1, turns, model)[0],
                       true_face);
    fine_centre +=
        error(vd::locate_fine_centres_cnn(grey, {true_centre + off}, {r}, 1, turns, model)[0],
              true_centre);
    face += error(vd::locate_faces_cnn(grey, {true_face + off}, {r}, 1, model)[0], true_face);
    centre +=
        error(vd::locate_centres_cnn(grey, {true_centre + off}, {r}, 1, model)[0], true_centre);
    const cv::Point2d still =
        vd::locate_fine_faces_cnn(grey, {true_face + off}, {r}, 1, turns, fixed)[0];
    EXPECT_NEAR(cv::norm(still - (true_face + off)), 0, 1e-9);
    const cv::Point2d still_centre =
        vd::locate_fine_centres_cnn(grey, {true_centre + off}, {r}, 1, turns, fixed)[0];
    EXPECT_NEAR(cv::norm(still_centre - (true_centre + off)), 0, 1e-9);
    ++dice;
  });
  ASSERT_GT(dice, 40);
  EXPECT_LT(fine_face, face) << "mean error " << fine_face / dice << " against " << face / dice;
  EXPECT_LT(fine_centre, centre) << "mean error " << fine_centre / dice << " against "
                                 << centre / dice;
  std::printf(
      "from 0.1 radius off, mean error: top face %.3f (face network %.3f), centre %.3f "
      "(centre network %.3f)\n",
      fine_face / dice, face / dice, fine_centre / dice, centre / dice);
}

// The lean network's input: the crop round the die's centre is turned so that where a flat die's
// top face would lie falls on the crop's x axis, to the right, at the shift's length (side / 2 /
// kLeanSpan pixels a radius), what lies opposite to the left, and the second plane has its one
// dot just there; mirrored, the crop's rows are upside down (the shift's axis stays), the dot
// where it was. At the 40 pixels of the first lean network and the 56 of the committed one.
TEST(DiceReader, TheLeanCropTurnsWhereAFlatDiesFaceWouldLieOntoItsXAxis) {
  for (const int side : {vd::kLeanSide, 56}) {
    SCOPED_TRACE(side);
    cv::Mat grey(240, 320, CV_8U, cv::Scalar(40));
    const cv::Point2d centre(150, 110), shift(0.3, -0.4);
    const double radius = 30;
    const cv::Point2d face = centre + radius * shift;  // 0.5 radius up and to the right
    cv::circle(grey, cv::Point(static_cast<int>(face.x), static_cast<int>(face.y)), 4,
               cv::Scalar(250), cv::FILLED);
    const cv::Point2d back = centre - radius * shift;  // a dimmer dot opposite
    cv::circle(grey, cv::Point(static_cast<int>(back.x), static_cast<int>(back.y)), 4,
               cv::Scalar(150), cv::FILLED);
    const int area = side * side;
    std::vector<unsigned char> plain(vd::kLeanPlanes * area), mirrored(plain.size());
    vd::lean_crop(grey, centre, radius, shift, false, plain.data(), side);
    vd::lean_crop(grey, centre, radius, shift, true, mirrored.data(), side);
    // Where the pixels of a plane at `level` or brighter lie (their mean).
    const auto where = [&](const std::vector<unsigned char>& rows, int plane, int level) {
      const cv::Mat m(side, side, CV_8U, const_cast<unsigned char*>(rows.data()) + plane * area);
      const cv::Moments mo = cv::moments(m >= level, true);
      return cv::Point2d(mo.m10 / mo.m00, mo.m01 / mo.m00);
    };
    const double along = 0.5 * side / (2 * vd::kLeanSpan);  // 7.1 pixels at 40, 10 at 56
    const cv::Point2d dot = where(plain, 0, 200), mark = where(plain, 1, 1);
    EXPECT_NEAR(dot.x, side / 2.0 + along, 1.0);
    EXPECT_NEAR(dot.y, side / 2.0, 1.0);
    EXPECT_NEAR(mark.x, side / 2.0 + along, 0.6);
    EXPECT_EQ(mark.y, side / 2);
    // The dimmer dot opposite lies on the axis the other way.
    const cv::Mat plain_grey(side, side, CV_8U, plain.data());
    EXPECT_GT(
        plain_grey.at<unsigned char>(side / 2, static_cast<int>(std::lround(side / 2.0 - along))),
        120);
    const cv::Mat flat_mark(side, side, CV_8U, plain.data() + area);
    EXPECT_EQ(cv::countNonZero(flat_mark), 13) << "one dot of radius 2";
    // Mirrored: the grey plane's rows upside down, the dot where it was.
    cv::Mat flipped;
    cv::flip(plain_grey, flipped, 0);
    EXPECT_EQ(cv::norm(flipped, cv::Mat(side, side, CV_8U, mirrored.data()), cv::NORM_INF), 0.0);
    EXPECT_EQ(where(mirrored, 1, 1), mark);
  }
}

// The lean network (Params::lean_bound) flags a leaning die the face check passes: on seed
// 10100's scene 77 (a looked-at set; tests/data/dice/lean) the white die leaning 15.3 degrees
// against a red one has its faces placed within the check's bounds and, without the network, is
// read as the 9 its most upward face shows; with it, it is flagged and the whole roll is read
// right, every other die as without. A lean network that always answers "flat" reads the scene
// as without one. (Until the thirty-ninth session, with the 40-pixel network, seed 8100's scene
// 87, whose red die leaning 17.6 degrees the 56-pixel network lets through.)
TEST(DiceReader, TheLeanNetworkFlagsALeaningDieTheFaceCheckPasses) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "lean", "10100-0077");
  const std::size_t leaning = 7;
  ASSERT_FALSE(image.empty());
  const vd::Params with;
  ASSERT_GT(with.lean_bound, 0);
  ASSERT_FALSE(vd::default_model().lean_cnn.empty()) << "the committed model has a lean network";
  vd::Params without = with;
  without.lean_bound = 0;
  vd::Model flat = vd::default_model();
  flat.lean_cnn = always(flat.lean_cnn, 0);
  const vd::Detection a = vd::detect(image, with), b = vd::detect(image, without),
                      c = vd::detect(image, with, flat);
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  const auto sc = arbitre::testing::score_dice(truth, c.observation);
  ASSERT_TRUE(truth["dice"][leaning]["cocked"].get<bool>());
  EXPECT_EQ(sb.outcome[leaning], "read");
  EXPECT_EQ(sa.outcome[leaning], "flagged");
  EXPECT_TRUE(sa.roll_right());
  EXPECT_FALSE(sb.roll_right());
  for (std::size_t i = 0; i < sa.outcome.size(); ++i) {
    if (i != leaning) {
      EXPECT_EQ(sb.outcome[i], sa.outcome[i]) << "die " << i;
    }
    EXPECT_EQ(sc.outcome[i], sb.outcome[i]) << "die " << i << ", the network always flat";
  }
}

// Every question the reader puts to its lean network is kept (Detection::lean_asked, what
// train_dice --lean-hard trains the network on): on seed 10500's scene 14 (a looked-at set;
// tests/data/dice/leanbound) each names a die seen, a radius, and the answer the lean network
// gives again when asked the same; every die read was asked about, and the leaning red die.
TEST(DiceReader, EveryQuestionToTheLeanNetworkIsKeptWithItsAnswer) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "leanbound", "10500-0014");
  ASSERT_FALSE(image.empty());
  const vd::Detection d = vd::detect(image, vd::Params{});
  cv::Mat grey;
  cv::cvtColor(image, grey, cv::COLOR_BGR2GRAY);
  ASSERT_FALSE(d.lean_asked.empty());
  std::set<std::size_t> asked;
  for (const vd::Detection::LeanAsk& a : d.lean_asked) {
    ASSERT_LT(a.die, d.observation.dice.size());
    EXPECT_GT(a.radius, 0);
    EXPECT_NEAR(vd::lean_share(grey, a.centre, a.radius, a.shift, vd::default_model()), a.leans,
                1e-6);
    asked.insert(a.die);
  }
  for (std::size_t k = 0; k < d.observation.dice.size(); ++k) {
    if (d.observation.dice[k].value > 0) {
      EXPECT_EQ(asked.count(k), 1u) << "die " << k << " read, the lean network not asked about it";
    }
  }
  const int leaning = seen_at(d.observation.dice, truth["dice"][4]);
  ASSERT_GE(leaning, 0);
  EXPECT_EQ(asked.count(static_cast<std::size_t>(leaning)), 1u);
}

// The lean network's bound (Params::lean_bound) is 0.8 since the forty-second session's network:
// on the same scene the red die leaning 19.5 degrees against another, its faces within the
// check's bounds, gets a "leans" of 0.87: flagged, and the whole roll read right; at the bound of
// before (0.9) it is read as the value its most upward face shows, every other die the same.
TEST(DiceReader, ALeaningDieTheLeanNetworkPutsAtTheBoundOrMoreIsFlagged) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "leanbound", "10500-0014");
  ASSERT_FALSE(image.empty());
  const std::size_t leaning = 4;
  ASSERT_TRUE(truth["dice"][leaning]["cocked"].get<bool>());
  vd::Params with;
  at_the_level(with);
  EXPECT_EQ(with.lean_bound, 0.8);
  vd::Params before;
  at_the_level(before);
  before.lean_bound = 0.9;
  const vd::Detection a = vd::detect(image, with), b = vd::detect(image, before);
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  EXPECT_EQ(sa.outcome[leaning], "flagged");
  EXPECT_EQ(sb.outcome[leaning], "read");
  EXPECT_TRUE(sa.roll_right());
  for (std::size_t i = 0; i < sa.outcome.size(); ++i) {
    if (i != leaning) {
      EXPECT_EQ(sb.outcome[i], sa.outcome[i]) << "die " << i;
    }
  }
  const int k = seen_at(a.observation.dice, truth["dice"][leaning]);
  ASSERT_GE(k, 0);
  // The first question about it (from where the check placed it): between the two bounds.
  const auto first = std::find_if(
      a.lean_asked.begin(), a.lean_asked.end(),
      [&](const vd::Detection::LeanAsk& q) { return q.die == static_cast<std::size_t>(k); });
  ASSERT_NE(first, a.lean_asked.end());
  EXPECT_GE(first->leans, with.lean_bound);
  EXPECT_LT(first->leans, before.lean_bound);
}

// A flat red 6 (seed 10200's scene 36, a looked-at set; tests/data/dice/leanhard) whose faces the
// check finds where a flat die's lie: the lean network of before called it leaning (0.94) and it
// was left unread. The lean network trained on the reader's own questions besides (train_dice
// --lean-hard) takes it for flat: it is read right, the whole roll too; a lean network that takes
// every die for leaning leaves it unread.
TEST(DiceReader, AFlatDieTheCheckPassesIsTakenForFlatByTheLeanNetwork) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "leanhard", "10200-0036");
  ASSERT_FALSE(image.empty());
  const auto& die = truth["dice"][2];
  ASSERT_FALSE(die["cocked"].get<bool>());
  const vd::Params params;
  const vd::Detection a = vd::detect(image, params);
  EXPECT_EQ(value_seen(a, die), die["value"].get<int>());
  EXPECT_TRUE(arbitre::testing::score_dice(truth, a.observation).roll_right());
  const int k = seen_at(a.observation.dice, die);
  ASSERT_GE(k, 0);
  int asked = 0;
  for (const vd::Detection::LeanAsk& q : a.lean_asked) {
    if (q.die != static_cast<std::size_t>(k)) continue;
    ++asked;
    EXPECT_LT(q.leans, params.lean_bound);
  }
  EXPECT_GT(asked, 0) << "the lean network was not asked about it";
  vd::Model leaning = vd::default_model();
  leaning.lean_cnn = always(leaning.lean_cnn, 1);
  EXPECT_EQ(value_seen(vd::detect(image, params, leaning), die), 0);
}

// A die the digit networks call cocked that the lean network takes for flat (Params::lean_flat)
// is left unread and read again with the others: on seed 6000's scene 28 (a looked-at set;
// tests/data/dice/lean) the flat red 3 near the bottom edge is called cocked without it; with it,
// it is read right and so is the whole roll, every other die as without.
TEST(DiceReader, ADieTheLeanNetworkTakesForFlatIsNotCalledCocked) {
  // Its scene was chosen on the reader with its networks in floats.
  const vd::Model& as_trained = arbitre::testing::networks_as_trained();
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "lean", "6000-0028");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  at_the_level(with);
  ASSERT_GT(with.lean_flat, 0);
  vd::Params without = with;
  without.lean_flat = 0;
  const vd::Detection a = vd::detect(image, with, as_trained),
                      b = vd::detect(image, without, as_trained);
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  ASSERT_FALSE(truth["dice"][1]["cocked"].get<bool>());
  EXPECT_EQ(sb.outcome[1], "called-cocked");
  EXPECT_EQ(sa.outcome[1], "right");
  EXPECT_TRUE(sa.roll_right());
  for (std::size_t i = 0; i < sa.outcome.size(); ++i) {
    if (i != 1) {
      EXPECT_EQ(sb.outcome[i], sa.outcome[i]) << "die " << i;
    }
  }
}

// The size network measures a die's radius from crops at the radius it is thought to have: from
// 0.75-1.3 x the true radius at the die's centre (the window scan's errors, and the common
// radius's bound), the radius it gives is within a third of that error on the committed scenes'
// flat dice (mean of |log(measured / true)|); each step starts from the one before; a network
// that always answers the middle bin leaves the radius as it was, one that answers the top bin
// puts it 0.35 (log) larger.
TEST(DiceReader, TheSizeNetworkMeasuresADiesRadius) {
  const vd::Model& model = vd::default_model();
  ASSERT_FALSE(model.size_cnn.empty()) << "the committed model has a size network";
  vd::Model middle = model, top = model;
  middle.size_cnn = always(model.size_cnn, vd::kSizeBins / 2);
  top.size_cnn = always(model.size_cnn, vd::kSizeBins - 1);
  const double from[] = {0.75, 0.85, 1.15, 1.3};
  int dice = 0;
  double before = 0, measured = 0;
  for_each_flat_die([&](const cv::Mat&, const cv::Mat& grey, const nlohmann::json& t) {
    const double r = t["radius_px"].get<double>();
    const cv::Point2d centre(t["x"].get<double>(), t["y"].get<double>());
    const double start = r * from[dice % 4];
    const double size = vd::measure_sizes_cnn(grey, {centre}, {start}, 1, 4, model)[0];
    before += std::fabs(std::log(start / r));
    measured += std::fabs(std::log(size / r));
    EXPECT_NEAR(vd::measure_sizes_cnn(grey, {centre}, {start}, 1, 4, middle)[0], start, 1e-9);
    EXPECT_NEAR(std::log(vd::measure_sizes_cnn(grey, {centre}, {start}, 2, 4, top)[0] / start),
                2 * (vd::kSizeBins / 2) * vd::kSizeStep, 1e-6);
    ++dice;
  });
  ASSERT_GT(dice, 40);
  EXPECT_LT(measured, before / 3) << "mean |log| error " << measured / dice << " from "
                                  << before / dice;
  std::printf("from 0.75-1.3 x the radius, mean |log(radius / true)|: %.3f (from %.3f)\n",
              measured / dice, before / dice);
}

// Each die's radius measured by the size network (Params::size_*) lets the face check's bounds
// (in radii) be tighter: on seed 6000's scene 30 (tests/data/dice/size) the window scan finds
// the dice at two levels, 42.1 and 48.5 pixels, where they measure 45-54; the dice's radii as
// measured lie nearer their true ones (mean |log| less than half), the white die leaning 17.6
// degrees on a red one is flagged and the whole roll is read right. Read as before (each die at
// the radius it was found at, the bounds of then) the leaning die is read as a value, every other
// die as now (the other leaning die, 21.9 degrees, flagged either way); at today's
// bounds without the size network the flat red die 4 (found at 0.9 x its radius) is left unread.
TEST(DiceReader, EachDiesRadiusMeasuredLetsTheFaceCheckFlagALeaningDie) {
  // Its scene was chosen on the reader with its networks in floats.
  const vd::Model& as_trained = arbitre::testing::networks_as_trained();
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "size", "6000-0030");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  at_the_level(with);
  before_from_face(with);
  with.lean_bound = 0;  // the size network's part alone: no lean network
  with.lean_flat = 0;
  with.check_reread_flat = 0;
  // And the fit of the faces as it was then: with the robust fit (Params::tilt_robust, since the
  // thirty-second session), or the dice left off judged again against the fit of those left read
  // (Params::check_second, since the fifty-sixth), the red 4 is read right without the size
  // network too.
  with.tilt_robust = false;
  with.check_second = false;
  before_empty_recentred(with);
  ASSERT_GT(with.size_steps, 0);
  vd::Params before = with, unsized = with;
  before_the_size_network(before);
  unsized.size_steps = 0;
  const vd::Detection a = vd::detect(image, with, as_trained),
                      b = vd::detect(image, before, as_trained),
                      c = vd::detect(image, unsized, as_trained);
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  const auto sc = arbitre::testing::score_dice(truth, c.observation);
  ASSERT_TRUE(truth["dice"][7]["cocked"].get<bool>());
  ASSERT_FALSE(truth["dice"][4]["cocked"].get<bool>());
  EXPECT_EQ(sa.outcome[7], "flagged");
  EXPECT_EQ(sb.outcome[7], "read");
  EXPECT_EQ(sa.outcome[4], "right");
  EXPECT_EQ(sc.outcome[4], "unread");
  EXPECT_TRUE(sa.roll_right());
  for (std::size_t i = 0; i < sa.outcome.size(); ++i) {
    if (i != 7) {
      EXPECT_EQ(sb.outcome[i], sa.outcome[i]) << "die " << i;
    }
  }
  // Each true die's radius as seen: mean |log(seen / true)|.
  const auto radius_error = [&](const vd::Detection& d) {
    double sum = 0;
    for (const auto& die : truth["dice"])
      sum += std::fabs(std::log(radius_seen(d, die) / die["radius_px"].get<double>()));
    return sum / static_cast<double>(truth["dice"].size());
  };
  EXPECT_LT(radius_error(a), radius_error(c) / 2)
      << radius_error(a) << " measured, " << radius_error(c) << " as found";
}

// Seed 12600's scene 48: the window scan's level that the surest candidates agree on lies 1.3 x
// the dice's median radius (the levels are 1.25 x apart), and the white die 7, touching two
// others, whose own window is 0.74 x its radius, is turned down for its size and missed. The
// common radius measured by the size network over the five surest candidates of that level
// (Params::size_first 5, by default since the forty-seventh session) lies within 10% of the
// dice's median radius, and die 7 is found and read right: the whole roll.
TEST(DiceReader, TheCommonRadiusIsMeasuredByTheSizeNetworkOverTheSurestCandidates) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "commonsize", "12600-0048");
  ASSERT_FALSE(image.empty());
  const vd::Params with;
  ASSERT_EQ(with.size_first, 5);
  vd::Params level = with;
  at_the_level(level);
  const vd::Detection a = vd::detect(image, with), b = vd::detect(image, level);
  std::vector<double> radii;
  for (const auto& die : truth["dice"]) radii.push_back(die["radius_px"].get<double>());
  std::nth_element(radii.begin(), radii.begin() + radii.size() / 2, radii.end());
  const double median = radii[radii.size() / 2];
  EXPECT_GT(b.die_radius, 1.25 * median) << "the level";
  EXPECT_LT(std::fabs(std::log(a.die_radius / median)), std::log(1.1)) << a.die_radius / median;
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  ASSERT_FALSE(truth["dice"][7]["cocked"].get<bool>());
  EXPECT_EQ(sb.outcome[7], "missed");
  EXPECT_EQ(sa.outcome[7], "right");
  EXPECT_TRUE(sa.roll_right());
  EXPECT_FALSE(sb.roll_right());
}

// Where the window scan takes the sheet's grid for a die in seed 13100's scene 85 (below), and at
// what radius.
const cv::Point2d kOnTheSheet{1231, 421};
constexpr double kOnTheSheetRadius = 29.6;

// Seed 13100's scene 85: a score sheet ruled in a grid lies beside the table, and the window scan
// takes a place on its grid for a die (reported, unread, white), the tenth; the red 7 in the
// cluster of four is turned down. Long straight edges run across the sheet's place (its grid
// lines) and across none of the ten dice: an edge of a die is shorter than its diameter, and the
// table's lines stop at its outline.
TEST(DiceReader, LongStraightEdgesRunAcrossAScoreSheetsGridAndAcrossNoDie) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "ruled", "13100-0085");
  ASSERT_FALSE(image.empty());
  cv::Mat grey;
  cv::cvtColor(image, grey, cv::COLOR_BGR2GRAY);
  const vd::Params params;
  ASSERT_GT(params.ruled_length, 0);
  EXPECT_GE(vd::ruled_edges(grey, kOnTheSheet, kOnTheSheetRadius, params), params.ruled_count)
      << "the sheet";
  for (const auto& die : truth["dice"]) {
    EXPECT_LT(vd::ruled_edges(grey, {die["x"].get<double>(), die["y"].get<double>()},
                              die["radius_px"].get<double>(), params),
              params.ruled_count)
        << "die " << die["id"];
  }
  vd::Params off = params;
  off.ruled_length = 0;
  EXPECT_EQ(vd::ruled_edges(grey, kOnTheSheet, kOnTheSheetRadius, off), 0)
      << "not measured when off";
}

// The same scene read: without the rule the place on the sheet is reported and the red 7 missed;
// with it, that unread place read nothing, the dice are chosen again without it and the red 7 is
// found (unread: a die half hidden in a cluster, for the players to type). No die missed, doubled
// or invented. (At the spacing of that session: spaced_as_before.)
TEST(DiceReader, AnUnreadDieOnAScoreSheetsGridGivesItsPlaceToOneThatReads) {
  // Its scene was chosen on the reader with its networks in floats.
  const vd::Model& as_trained = arbitre::testing::networks_as_trained();
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "ruled", "13100-0085");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  spaced_as_before(with);
  axis_bound_as_before(with);
  vd::Params without = with;
  without.ruled_length = 0;
  const vd::Detection a = vd::detect(image, with, as_trained),
                      b = vd::detect(image, without, as_trained);
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  const auto on_sheet = [](const vd::Detection& d) {
    return std::any_of(d.observation.dice.begin(), d.observation.dice.end(), [](const auto& die) {
      return std::hypot(die.x - kOnTheSheet.x, die.y - kOnTheSheet.y) < 0.5 * kOnTheSheetRadius;
    });
  };
  EXPECT_TRUE(on_sheet(b)) << "the place on the sheet reported without the rule";
  EXPECT_FALSE(on_sheet(a));
  ASSERT_EQ(truth["dice"][0]["value"], 7);
  EXPECT_EQ(sb.outcome[0], "missed");
  EXPECT_EQ(sa.outcome[0], "unread");
  EXPECT_EQ(sb.phantoms, 1);
  EXPECT_EQ(sa.phantoms + sa.missed + sa.doubled, 0);
  EXPECT_EQ(sa.flat_right, sb.flat_right);
  expect_none_lost(a, b, "a die read without the rule is lost with it", 0.25, true);
}

// Seed 12900's scene 49 (tests/data/dice/leaveout): a red 1 lies flat against the tray's wall,
// touched by a red 2 leaning on it. The check fits each die's top face to the other dice's; the
// leaning 2 counts in the 1's fit and moves the place expected for its face by a tenth of its
// radius, and the lean network, shown the 1 with that mark, takes it for leaning: read 1 at
// 0.9998, left unread. Left out of the others' fits (both its faces off, the lean network's word),
// the 2 moves the 1's fit no more: the 1 is read, the 2 still flagged, the roll read right, and
// no die read without it is lost.
TEST(DiceReader, ADieSurelyLeaningIsLeftOutOfTheFitOfTheFlatDieItLeansOn) {
  const vd::Params with;
  ASSERT_EQ(with.check_leave_out, 1);
  const auto [truth, a, b, sa, sb] =
      read_with_and_without("leaveout", "12900-0049", &vd::Params::check_leave_out, 0);
  const auto& red1 = truth["dice"][2];
  const auto& red2 = truth["dice"][4];
  ASSERT_EQ(red1["value"], 1);
  ASSERT_FALSE(red1["cocked"].get<bool>());
  ASSERT_TRUE(red2["cocked"].get<bool>());
  const cv::Point2d at(red1["x"].get<double>(), red1["y"].get<double>());
  const double radius = red1["radius_px"].get<double>();
  // The lean network's largest answer about the red 1.
  const auto leans = [&](const vd::Detection& d) {
    double most = -1;
    for (const auto& q : d.lean_asked)
      if (cv::norm(q.centre - at) < 0.5 * radius) most = std::max(most, q.leans);
    return most;
  };
  EXPECT_GE(leans(b), with.lean_bound) << "taken for leaning with the 2 in its fit";
  EXPECT_GE(leans(a), 0) << "asked";
  EXPECT_LT(leans(a), with.lean_bound);
  EXPECT_EQ(sb.outcome[2], "unread");
  EXPECT_EQ(sa.outcome[2], "right");
  EXPECT_EQ(sb.outcome[4], "flagged");
  EXPECT_EQ(sa.outcome[4], "flagged");
  EXPECT_TRUE(sa.roll_right());
  expect_none_lost(a, b, "a die read without leaving the 2 out is lost with it", 0, true);
}

// Seed 15200's scene 51 (tests/data/dice/second): two red dice lean on the tray's near wall (18
// and 24 degrees). The face check judges each die against the fit of all the others, and the two
// leaning dice in each flat die's fit draw it off a flat die's place (only one surely leaning die
// is left out of the fits: check_leave_out). The white 7, alone in the kept zone on the left
// where the fit reaches out, read at 0.98, lies 0.24 radius off that fit (8-bit networks) and is
// left unread. Judged again against the fit of the dice the check left read (both leaning dice
// left unread by then), it lies 0.09 off, the lean network takes it for flat from both places,
// and it is read: the roll is read right, both leaning dice still flagged, and no die read
// without the step is lost.
TEST(DiceReader, ADieTheCheckLeftOffIsJudgedAgainstTheFitOfTheDiceItLeftRead) {
  const auto [truth, a, b, sa, sb] =
      read_with_and_without("second", "15200-0051", &vd::Params::check_second, false);
  const auto& white7 = truth["dice"][5];
  ASSERT_EQ(white7["value"], 7);
  ASSERT_EQ(white7["colour"], "white");
  ASSERT_FALSE(white7["cocked"].get<bool>());
  ASSERT_TRUE(truth["dice"][0]["cocked"].get<bool>());
  ASSERT_TRUE(truth["dice"][3]["cocked"].get<bool>());
  EXPECT_EQ(sb.outcome[5], "unread");
  EXPECT_EQ(sa.outcome[5], "right");
  for (const int leaning : {0, 3}) {
    EXPECT_EQ(sb.outcome[static_cast<std::size_t>(leaning)], "flagged");
    EXPECT_EQ(sa.outcome[static_cast<std::size_t>(leaning)], "flagged");
  }
  EXPECT_EQ(sa.flat_right, sb.flat_right + 1);
  EXPECT_TRUE(sa.roll_right());
  expect_none_lost(a, b, "a die read without judging again is lost with it", 0, true);
}

// Seed 12000's scene 64 (tests/data/dice/recall): ten candidates chosen, the red 6 alone in the
// tray turned down as an eleventh; then one of the ten, re-centred, lands on a surer die and is
// dropped. Without the recall the search beside the dice fills the tenth place with a place by a
// die (a die reported where none lies) and the red 6 is missed; with it, the red 6 is one of the
// search's places, surer than they: every die found and the roll read right.
TEST(DiceReader, ADieTurnedDownAsAnEleventhComesBackWhenOneOfTheTenIsDropped) {
  const auto [truth, a, b, sa, sb] =
      read_with_and_without("recall", "12000-0064", &vd::Params::recall_eleventh);
  const auto& red6 = truth["dice"][1];
  ASSERT_EQ(red6["value"], 6);
  ASSERT_EQ(red6["colour"], "red");
  const cv::Point2d at(red6["x"].get<double>(), red6["y"].get<double>());
  const double radius = red6["radius_px"].get<double>();
  const auto on_red6 = [&](const vd::Candidate& c) {
    return cv::norm(c.centre - at) < 0.5 * radius;
  };
  for (const vd::Detection* d : {&a, &b}) {
    EXPECT_TRUE(std::any_of(d->candidates.begin(), d->candidates.end(), [&](const auto& c) {
      return c.why == vd::kEleventh && on_red6(c);
    })) << "the red 6 an eleventh at first";
    EXPECT_TRUE(std::any_of(d->candidates.begin(), d->candidates.end(), [](const auto& c) {
      return c.why == "on another die, re-centred";
    })) << "one of the ten dropped";
  }
  EXPECT_EQ(sb.outcome[1], "missed");
  EXPECT_EQ(sb.phantoms, 1);
  EXPECT_FALSE(std::any_of(b.candidates.begin(), b.candidates.end(),
                           [&](const auto& c) { return c.kept && on_red6(c); }));
  EXPECT_TRUE(std::any_of(a.candidates.begin(), a.candidates.end(), [&](const auto& c) {
    return c.kept && !c.neighbour && on_red6(c);
  })) << "the red 6 recalled, not found by the search";
  EXPECT_EQ(sa.outcome[1], "right");
  EXPECT_EQ(sa.missed + sa.phantoms + sa.doubled, 0);
  EXPECT_TRUE(sa.roll_right());
}

// Seed 12700's scene 27 (all dice transparent): the white die leaning at (419, 323) reads nothing
// and, less sure than the crowded bound (0.9), is given up; the dice chosen again without it
// read one die more (the white 4 beside the red one leaning), and so were taken, with a window on
// the bare table in its place that reads nothing either and is less sure (0.45 against 0.89).
// With the give-back that window gives its place back: the leaning die is reported, unread, and
// nothing is invented.
TEST(DiceReader, ADieGivenUpForReadingNothingTakesItsPlaceBackFromALessSureWindow) {
  const auto [truth, a, b, sa, sb] = read_with_and_without(
      "giveback", "12700-0027", &vd::Params::empty_give_back, false, give_back_as_chosen);
  const auto& leaning = truth["dice"][5];
  ASSERT_TRUE(leaning["cocked"].get<bool>());
  const cv::Point2d at(leaning["x"].get<double>(), leaning["y"].get<double>());
  const double radius = leaning["radius_px"].get<double>();
  // Without: the die missed, its candidate turned down as reading nothing, and a die invented
  // that reads nothing and is less sure than it.
  EXPECT_EQ(sb.outcome[5], "missed");
  EXPECT_EQ(sb.phantoms, 1);
  double given_up = 0;
  for (const vd::Candidate& c : b.candidates) {
    if (c.why == "read nothing" && cv::norm(c.centre - at) < 0.5 * radius)
      given_up = std::max(given_up, c.presence);
  }
  EXPECT_GT(given_up, 0.8);
  bool invented = false;
  for (std::size_t k = 0; k < b.observation.dice.size(); ++k) {
    if (sb.truth_of[k] >= 0) continue;
    const auto& die = b.observation.dice[k];
    invented = true;
    EXPECT_EQ(die.value, 0);
    EXPECT_LT(b.candidates[static_cast<std::size_t>(b.die_candidate[k])].presence, given_up);
  }
  EXPECT_TRUE(invented);
  // With: the die back, unread, and the roll read right.
  EXPECT_EQ(sa.outcome[5], "flagged");
  EXPECT_EQ(sa.missed + sa.phantoms + sa.doubled, 0);
  EXPECT_EQ(sa.flat_right, sb.flat_right);
  EXPECT_TRUE(sa.roll_right());
}

// Seed 12900's scene 16 (frosted and transparent dice): a window on the bare table (396, 478)
// reads nothing and is given up; the dice chosen again without it read as many and find the clear
// white 3 at (305, 164) in its place (presence 0.83 against 0.62), but the frosted white 8 is
// found there by another candidate, less sure (0.59 against 0.95), and the presence summed over
// all ten dice kept the first choice. Summed over the dice each choice has where the other has
// none, the second is taken: the white 3 is found (unread), the clear white 9 read, and nothing
// is invented.
TEST(DiceReader, OnATieThePresenceOfTheDiceEachChoiceHasAloneDecides) {
  const auto [truth, a, b, sa, sb] =
      read_with_and_without("tieapart", "12900-0016", &vd::Params::empty_tie_apart, false,
                            before_empty_recentred);
  const auto& white3 = truth["dice"][5];
  ASSERT_EQ(white3["value"], 3);
  ASSERT_EQ(white3["texture"], "transparent");
  EXPECT_EQ(sb.outcome[5], "missed");
  EXPECT_EQ(sb.phantoms, 1);
  for (std::size_t k = 0; k < b.observation.dice.size(); ++k) {
    if (sb.truth_of[k] < 0) {
      EXPECT_EQ(b.observation.dice[k].value, 0) << "the window reads nothing";
    }
  }
  EXPECT_EQ(sa.outcome[5], "unread");
  EXPECT_EQ(sa.missed + sa.phantoms + sa.doubled, 0);
  // The clear white 9 beside it is read right in the second choice too; no die read worse.
  EXPECT_EQ(sb.outcome[6], "unread");
  EXPECT_EQ(sa.outcome[6], "right");
  for (std::size_t i = 0; i < sa.outcome.size(); ++i) {
    if (sb.outcome[i] == "right") {
      EXPECT_EQ(sa.outcome[i], "right") << "die " << i;
    }
  }
}

// Seed 13900's scene 1 (fresh, a low camera over a checked cloth): two white dice lying alone
// have only faint windows, a third of a radius off their centres and 0.7 of their size, which the
// presence network takes for dice at 0.65 and 0.67, under faint_presence (0.7). The search beside
// the dice found proposes the places of candidates "not a die" it is unsure of; a "faint" one is as
// unsure: proposed too, re-centred and examined at the common size, both are found and read right.
TEST(DiceReader, AFaintWindowTurnedDownIsAPlaceOfTheSearchBesideTheDice) {
  const auto [truth, a, b, sa, sb] =
      read_with_and_without("searchfaint", "13900-0001", &vd::Params::search_faint);
  for (const int i : {6, 7}) {
    const auto& white = truth["dice"][static_cast<std::size_t>(i)];
    ASSERT_EQ(white["colour"], "white");
    const cv::Point2d at(white["x"].get<double>(), white["y"].get<double>());
    const double radius = white["radius_px"].get<double>();
    EXPECT_TRUE(std::any_of(
        b.candidates.begin(), b.candidates.end(),
        [&](const auto& c) { return c.why == "faint" && cv::norm(c.centre - at) < 0.5 * radius; }))
        << "die " << i << ": a faint window on it";
    EXPECT_EQ(sb.outcome[static_cast<std::size_t>(i)], "missed") << "die " << i;
    EXPECT_EQ(sa.outcome[static_cast<std::size_t>(i)], "right") << "die " << i;
  }
  EXPECT_EQ(sa.missed + sa.phantoms + sa.doubled, 0);
  EXPECT_TRUE(sa.roll_right());
  for (std::size_t i = 0; i < sa.outcome.size(); ++i) {
    if (sb.outcome[i] == "right") {
      EXPECT_EQ(sa.outcome[i], "right") << "die " << i;
    }
  }
}

// A flat die's top face lies above its centre: seen through a tilted camera its shift from the
// centre (x radius) is a linear function of where the die lies. Nine dice so (with a little
// noise) and one whose top face lies 0.3 radius aside: only that one lies off; a second die far
// off among the others does not hide it; with too few others nothing is measured.
TEST(DiceReader, TiltResidualsFindTheDieWhoseTopFaceLiesOff) {
  std::vector<cv::Point2d> places, shifts;
  const double k = 0.6, a = 0.25, b = 0.1;
  cv::RNG rng(5);
  for (int i = 0; i < 10; ++i) {
    const cv::Point2d p(0.2 + 0.07 * i, 0.15 + 0.03 * (i % 4));
    places.push_back(p);
    shifts.push_back(cv::Point2d(k * p.x - a, k * p.y - b) +
                     cv::Point2d(rng.uniform(-0.03, 0.03), rng.uniform(-0.03, 0.03)));
  }
  shifts[6] += cv::Point2d(0.3 * std::cos(1.0), 0.3 * std::sin(1.0));
  std::vector<double> r = vd::tilt_residuals(places, shifts, 4, 0.15);
  ASSERT_EQ(r.size(), 10u);
  for (int i = 0; i < 10; ++i) {
    if (i == 6)
      EXPECT_NEAR(r[6], 0.3, 0.06);
    else
      EXPECT_LT(r[static_cast<std::size_t>(i)], 0.08) << "die " << i;
  }
  shifts[2] += cv::Point2d(-0.5, 0.2);
  r = vd::tilt_residuals(places, shifts, 4, 0.15);
  EXPECT_NEAR(r[6], 0.3, 0.06);
  EXPECT_GT(r[2], 0.45);
  for (int i : {0, 1, 3, 4, 5, 7, 8, 9}) EXPECT_LT(r[static_cast<std::size_t>(i)], 0.08) << i;
  // Four dice: three others each, fewer than the four asked.
  places.resize(4), shifts.resize(4);
  for (double x : vd::tilt_residuals(places, shifts, 4, 0.15)) EXPECT_EQ(x, -1.0);
}

// `n` flat dice at (x0 + dx i, y0 + dy (i % 3)) (x the image's width) whose top faces lie where
// the shift k p - (a, b) puts them, and the indices of all of them.
struct FlatShifts {
  static constexpr double k = 0.7, a = 0.3, b = 0.15;
  std::vector<cv::Point2d> places, shifts;
  std::vector<std::size_t> all;
  FlatShifts(int n, cv::Point2d first, cv::Point2d step) {
    for (int i = 0; i < n; ++i) {
      const cv::Point2d p(first.x + step.x * i, first.y + step.y * (i % 3));
      places.push_back(p);
      shifts.push_back(cv::Point2d(k * p.x - a, k * p.y - b));
      all.push_back(static_cast<std::size_t>(i));
    }
  }
};

// The fit itself: the dice's shifts k p - (a, b) give back k, a and b, a die far off them is left
// out of the fit, and too few dice give none.
TEST(DiceReader, TheFitOfTheTopFacesShiftsLeavesADieOffItOut) {
  FlatShifts dice(8, {0.1, 0.2}, {0.1, 0.05});
  auto& [places, shifts, all] = dice;
  const double k = FlatShifts::k, a = FlatShifts::a, b = FlatShifts::b;
  shifts[3] += cv::Point2d(0.35, -0.1);  // read on a face beside the top one
  cv::Vec3d m;
  ASSERT_TRUE(vd::fit_face_shift(places, shifts, all, 4, 0.15, m));
  EXPECT_NEAR(m[0], k, 1e-9);
  EXPECT_NEAR(m[1], a, 1e-9);
  EXPECT_NEAR(m[2], b, 1e-9);
  const cv::Point2d at = vd::face_shift(m, places[3]);
  EXPECT_NEAR(at.x, k * places[3].x - a, 1e-9);
  EXPECT_NEAR(at.y, k * places[3].y - b, 1e-9);
  // With the outlier kept in (no round of refitting can drop it: the outlier bound is wide), the
  // fit is pulled off.
  ASSERT_TRUE(vd::fit_face_shift(places, shifts, all, 4, 10.0, m));
  EXPECT_GT(std::abs(m[0] - k) + std::abs(m[1] - a) + std::abs(m[2] - b), 0.01);
  EXPECT_FALSE(vd::fit_face_shift(places, shifts, {0, 1, 2}, 4, 0.15, m));
}

// A die read on a face far from its top one (1.3 radii, as on seed 7900's scene 54) pulls the fit
// of all so far that the dice read right lie off it: the refits then drop them and keep it, and
// the fit is wrong. Started from the best of the fit of all and the fits without each die in turn
// (`robust`, Params::tilt_robust), the fit is the dice's own and leaves the die far off out.
TEST(DiceReader, TheRobustFitOfTheTopFacesIsNotPulledByADieReadFarOff) {
  FlatShifts dice(6, {0.2, 0.3}, {0.12, 0.07});
  auto& [places, shifts, all] = dice;
  const double k = FlatShifts::k, a = FlatShifts::a, b = FlatShifts::b;
  shifts[5] += cv::Point2d(-1.1, 0.7);
  cv::Vec3d plain, robust;
  ASSERT_TRUE(vd::fit_face_shift(places, shifts, all, 4, 0.15, plain, false));
  ASSERT_TRUE(vd::fit_face_shift(places, shifts, all, 4, 0.15, robust, true));
  EXPECT_GT(std::abs(plain[0] - k) + std::abs(plain[1] - a) + std::abs(plain[2] - b), 0.05)
      << "the plain fit is pulled off";
  EXPECT_NEAR(robust[0], k, 1e-9);
  EXPECT_NEAR(robust[1], a, 1e-9);
  EXPECT_NEAR(robust[2], b, 1e-9);
  // The residuals against the others: the robust ones find the die far off alone.
  const std::vector<double> r = vd::tilt_residuals(places, shifts, 4, 0.15, {}, true);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_LT(r[i], 1e-9) << "die " << i;
  EXPECT_GT(r[5], 1.0);
  // Without a die far off, both fits are the same.
  shifts[5] -= cv::Point2d(-1.1, 0.7);
  ASSERT_TRUE(vd::fit_face_shift(places, shifts, all, 4, 0.15, plain, false));
  ASSERT_TRUE(vd::fit_face_shift(places, shifts, all, 4, 0.15, robust, true));
  EXPECT_EQ(plain, robust);
}

// Seed 7900's scene 54 (tests/data/dice/robust): a red 9 is read as a 3 on a face 1.46 radii
// from its top one; in the fit of the faces of the dice read it pulls the fit so far that the
// face check finds four flat dice off it (red 5, red 3, white 7, white 10) and leaves them
// unread. With the robust fit those four are read right and nothing is read worse (the white
// die leaning on another, read as a value, is flagged too).
TEST(DiceReader, TheFaceCheckWithTheRobustFitKeepsTheDiceReadRight) {
  // Its scene was chosen on the reader with its networks in floats.
  const vd::Model& as_trained = arbitre::testing::networks_as_trained();
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "robust", "7900-0054");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  at_the_level(with);
  before_from_face(with);
  ASSERT_TRUE(with.tilt_robust);
  vd::Params without = with;
  without.tilt_robust = false;
  const vd::Detection a = vd::detect(image, with, as_trained),
                      b = vd::detect(image, without, as_trained);
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  for (const std::size_t i : {0U, 1U, 7U, 9U}) {
    EXPECT_EQ(sb.outcome[i], "unread") << "die " << i;
    EXPECT_EQ(sa.outcome[i], "right") << "die " << i;
  }
  for (std::size_t i = 0; i < sa.outcome.size(); ++i) {
    if (sb.outcome[i] == "right") {
      EXPECT_EQ(sa.outcome[i], "right") << "die " << i;
    }
  }
  EXPECT_EQ(sa.wrong_value + sa.wrong_colour, 0);
  EXPECT_GE(sa.flat_right, sb.flat_right + 4);
}

// With the digits' axes (Params::fit_axis): shifts k p - (a, b) + c u, u each die's digit up
// direction, give back k, a, b and c, and the shift the fit gives a die of another axis is its
// own; the fit without the axes misses each die by up to c. Without axes, the four-number fit is
// the three-number one (c = 0).
TEST(DiceReader, TheFitOfTheTopFacesShiftsTakesEachDigitsAxis) {
  std::vector<cv::Point2d> places, shifts, axes;
  const double k = 0.7, a = 0.3, b = 0.15, c = -0.04;
  for (int i = 0; i < 8; ++i) {
    const cv::Point2d p(0.1 + 0.1 * i, 0.2 + 0.05 * (i % 3));
    const cv::Point2d u = vd::digit_up(47.0 * i);
    places.push_back(p);
    axes.push_back(u);
    shifts.push_back(cv::Point2d(k * p.x - a, k * p.y - b) + c * u);
  }
  EXPECT_NEAR(vd::digit_up(0).y, -1.0, 1e-12);  // up in the image
  EXPECT_NEAR(vd::digit_up(90).x, 1.0, 1e-12);  // clockwise: right
  std::vector<std::size_t> all(8);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  cv::Vec4d m;
  ASSERT_TRUE(vd::fit_face_shift(places, shifts, axes, all, 4, 0.15, m));
  EXPECT_NEAR(m[0], k, 1e-9);
  EXPECT_NEAR(m[1], a, 1e-9);
  EXPECT_NEAR(m[2], b, 1e-9);
  EXPECT_NEAR(m[3], c, 1e-9);
  const cv::Point2d u = vd::digit_up(200);
  const cv::Point2d at = vd::face_shift(m, places[2], u);
  EXPECT_NEAR(at.x, k * places[2].x - a + c * u.x, 1e-9);
  EXPECT_NEAR(at.y, k * places[2].y - b + c * u.y, 1e-9);
  cv::Vec3d m3;
  ASSERT_TRUE(vd::fit_face_shift(places, shifts, all, 4, 0.15, m3));
  double worst = 0;
  for (std::size_t i = 0; i < places.size(); ++i)
    worst = std::max(worst, cv::norm(shifts[i] - vd::face_shift(m3, places[i])));
  EXPECT_GT(worst, 0.02);
  EXPECT_LE(worst, std::abs(c) + 0.02);
  cv::Vec4d none;
  ASSERT_TRUE(vd::fit_face_shift(places, shifts, {}, all, 4, 0.15, none));
  EXPECT_NEAR(none[0], m3[0], 1e-9);
  EXPECT_NEAR(none[1], m3[1], 1e-9);
  EXPECT_NEAR(none[2], m3[2], 1e-9);
  EXPECT_EQ(none[3], 0.0);
}

// A die left unread is read again where the other dice read put a flat die's top face (its shift
// from the centre, fitted over the dice read): the red 8 of seed 6200's scene 71 (a looked-at set;
// tests/data/dice/fitted) is read there, and nothing else changes. Without the redness plane
// (since the fifty-ninth session): on it the red 8 reads where it was read, without the fit.
TEST(DiceReader, ADieLeftUnreadIsReadWhereTheOtherDiceReadPutItsTopFace) {
  // Its scene was chosen on the reader with its networks in floats.
  const vd::Model& as_trained = arbitre::testing::networks_as_trained();
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "fitted", "6200-0071");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  ASSERT_TRUE(with.fit_unread);
  with.redness_plane = false;
  vd::Params without = with;
  without.fit_unread = false;
  const vd::Detection a = vd::detect(image, with, as_trained),
                      b = vd::detect(image, without, as_trained);
  ASSERT_EQ(a.observation.dice.size(), b.observation.dice.size());
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  int gained = 0;
  for (std::size_t i = 0; i < sa.outcome.size(); ++i) {
    if (sb.outcome[i] == "unread" && sa.outcome[i] == "right") {
      ++gained;
      continue;
    }
    EXPECT_EQ(sa.outcome[i], sb.outcome[i]) << "die " << i;
  }
  EXPECT_EQ(gained, 1);
}

// A die that reads nothing at the fitted place (nor, transparent, at the clear face network's
// answer or where it was read) is read at places round the fitted one, 0.08 radius off: the
// transparent white 8 of seed 6200's scene 29 (a looked-at set; tests/data/dice/fitted) is read
// at one of them, and nothing else changes. With the clear network as it was then, at its weight
// and confidence then and without its veto (the wider one of 2026-12-05 reads that die at the
// fitted place already, and so does the old one at the weight of the thirty-fourth session).
TEST(DiceReader, ADieUnreadAtTheFittedPlaceIsReadAtAPlaceRoundIt) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "fitted", "6200-0029");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  before_the_size_network(with);
  with.clear_weight = 0.5;
  with.clear_confidence = 0.6;  // as until the fortieth session
  with.clear_veto = 0;
  ASSERT_GT(with.fit_ring, 0);
  ASSERT_GT(with.fit_ring_places, 0);
  vd::Params without = with;
  without.fit_ring = 0;
  const vd::Model& before = arbitre::testing::presence_and_clear_as_before();
  ASSERT_FALSE(before.clear_cnn.empty());
  const vd::Detection a = vd::detect(image, with, before), b = vd::detect(image, without, before);
  ASSERT_EQ(a.observation.dice.size(), b.observation.dice.size());
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  ASSERT_EQ(truth["dice"][7]["texture"], "transparent");
  EXPECT_EQ(sb.outcome[7], "unread");
  EXPECT_EQ(sa.outcome[7], "right");
  for (std::size_t i = 0; i < sa.outcome.size(); ++i) {
    if (i != 7) {
      EXPECT_EQ(sa.outcome[i], sb.outcome[i]) << "die " << i;
    }
  }
}

// A die read at a place 0.25 radius or more off where the other dice read put a flat die's top
// face is left unread: on seed 6000's scene 18 the two dice leaning on others, read as values,
// are left unread (a cocked die is never given a value; at 0.3 with the faces as read, until
// 2026-12-04, only the red die read as a 3 was), and on seed 6100's scene 4 a white die read as a
// side face's 1. With check_reread (as until the twenty-eighth session) that die is read right
// where the fit puts its face, and the leaning dice are still left unread. Nothing else changes
// (tests/data/dice/offface).
TEST(DiceReader, ADieReadOffWhereTheOthersPutItsTopFaceIsLeftUnreadOrReadThere) {
  // Its scene was chosen on the reader with its networks in floats.
  const vd::Model& as_trained = arbitre::testing::networks_as_trained();
  vd::Params with;
  at_the_level(with);
  ASSERT_GT(with.face_check, 0);
  ASSERT_FALSE(with.check_reread);
  vd::Params reread = with;
  reread.check_reread = true;
  vd::Params without;
  at_the_level(without);
  without.face_check = 0;
  int unread = 0, mended = 0, flagged = 0, flagged_reread = 0;
  for (const char* name : {"6100-0004", "6000-0018"}) {
    const auto [truth, image] = arbitre::testing::committed_scene("dice", "offface", name);
    ASSERT_FALSE(image.empty()) << name;
    const vd::Detection a = vd::detect(image, with, as_trained),
                        b = vd::detect(image, without, as_trained),
                        c = vd::detect(image, reread, as_trained);
    ASSERT_EQ(a.observation.dice.size(), b.observation.dice.size()) << name;
    ASSERT_EQ(c.observation.dice.size(), b.observation.dice.size()) << name;
    const auto sa = arbitre::testing::score_dice(truth, a.observation);
    const auto sb = arbitre::testing::score_dice(truth, b.observation);
    const auto sc = arbitre::testing::score_dice(truth, c.observation);
    for (std::size_t i = 0; i < sa.outcome.size(); ++i) {
      if (sb.outcome[i] == "wrong-value") {
        unread += sa.outcome[i] == "unread";
        mended += sc.outcome[i] == "right";
      } else if (sb.outcome[i] == "read" && sa.outcome[i] == "flagged") {
        EXPECT_TRUE(truth["dice"][i]["cocked"].get<bool>());
        ++flagged;
        flagged_reread += sc.outcome[i] == "flagged";
      } else {
        EXPECT_EQ(sa.outcome[i], sb.outcome[i]) << name << " die " << i;
        EXPECT_EQ(sc.outcome[i], sb.outcome[i]) << name << " die " << i;
      }
    }
  }
  EXPECT_EQ(unread, 1);
  EXPECT_EQ(mended, 1);
  EXPECT_EQ(flagged, 2);
  EXPECT_EQ(flagged_reread, 2);
}

// For the face check every die's centre and top face are placed once more, the networks' crops at
// eight turns instead of four, and a die is off only when both its face so placed and its face as
// read lie off. On seed 6000's scene 1 (a looked-at set; tests/data/dice/offface) a red die
// leaning 15.9 degrees on another lies 0.25 radius or more off only so: without placing again it
// is read as a value (at 0.25 as at 0.3); with it, it is left unread, and the whole roll is read
// right (both leaning dice flagged, every flat die read right).
TEST(DiceReader, ADieLeaningLittleIsOffWhereItsCentreAndFaceArePlacedAgain) {
  // Its scene was chosen on the reader with its networks in floats.
  const vd::Model& as_trained = arbitre::testing::networks_as_trained();
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "offface", "6000-0001");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  before_the_size_network(with);
  ASSERT_GT(with.refine_turns, 4);
  vd::Params without = with;
  without.refine_turns = 0;
  const vd::Detection a = vd::detect(image, with, as_trained),
                      b = vd::detect(image, without, as_trained);
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  ASSERT_TRUE(truth["dice"][3]["cocked"].get<bool>());
  EXPECT_EQ(sb.outcome[3], "read");
  EXPECT_EQ(sa.outcome[3], "flagged");
  for (std::size_t i = 0; i < sa.outcome.size(); ++i) {
    if (i != 3) {
      EXPECT_EQ(sa.outcome[i], sb.outcome[i]) << "die " << i;
    }
  }
  EXPECT_TRUE(sa.roll_right());
}

// With the fine networks (Params::fine_steps) the face check measures a die still 0.12 radius off
// where they place its centre and top face: on tests/data/dice/circle's scene 96 the white die
// leaning 24.5 degrees on another, read as a value without them, is left unread, and the whole
// roll is read right; fine networks that answer the same bin at every turn move nothing, and read
// as without them.
TEST(DiceReader, ALeaningDieIsOffWhereTheFineNetworksPlaceItsCentreAndFace) {
  // Its scene was chosen on the reader with its networks in floats.
  const vd::Model& as_trained = arbitre::testing::networks_as_trained();
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "circle", "0096");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  before_the_size_network(with);
  ASSERT_GT(with.fine_steps, 0);
  vd::Params without = with;
  without.fine_steps = 0;
  const vd::Model& model = as_trained;
  vd::Model fixed = model;
  fixed.fine_face_cnn = always(model.fine_face_cnn, vd::kFaceBins / 2);  // "no shift"
  fixed.fine_centre_cnn = always(model.fine_centre_cnn, vd::kFaceBins / 2);
  const vd::Detection a = vd::detect(image, with, as_trained),
                      b = vd::detect(image, without, as_trained),
                      c = vd::detect(image, with, fixed);
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  const auto sc = arbitre::testing::score_dice(truth, c.observation);
  ASSERT_TRUE(truth["dice"][8]["cocked"].get<bool>());
  EXPECT_EQ(sb.outcome[8], "read");
  EXPECT_EQ(sa.outcome[8], "flagged");
  EXPECT_TRUE(sa.roll_right());
  EXPECT_EQ(sc.outcome, sb.outcome);
}

// The face check's bound for opaque dice (Params::face_check_opaque): an opaque die is off when
// its top face, placed again by the face network, alone lies 0.22 radius or more off where the
// other dice put a flat die's (a clear die's face as read must lie 0.25 off too: the network
// places a clear die's face poorly). On kOpaqueLeaningScene both leaning dice, opaque, read as
// values without the bound (their faces as read lie within 0.25), are left unread or cocked with
// it, every flat die is read as without it, and the roll is read exactly. (Both with the face
// check as before the fine networks, which find those two dice off without the bound.)
TEST(DiceReader, AnOpaqueDieIsOffWhereItsFacePlacedAgainAloneLiesOff) {
  // Its scene was chosen on the reader with its networks in floats.
  const vd::Model& as_trained = arbitre::testing::networks_as_trained();
  const auto [truth, image] =
      arbitre::testing::committed_scene("dice", "cocked", kOpaqueLeaningScene);
  ASSERT_FALSE(image.empty());
  vd::Params with;
  face_check_as_before(with);
  ASSERT_GT(with.face_check_opaque, 0);
  ASSERT_LT(with.face_check_opaque, with.face_check);
  vd::Params without = with;
  without.face_check_opaque = 0;
  const vd::Detection a = vd::detect(image, with, as_trained),
                      b = vd::detect(image, without, as_trained);
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  int leaning = 0;
  for (std::size_t i = 0; i < sa.outcome.size(); ++i) {
    if (truth["dice"][i]["cocked"].get<bool>()) {
      ++leaning;
      EXPECT_EQ(truth["dice"][i]["texture"], "none") << "die " << i;
      EXPECT_EQ(sb.outcome[i], "read") << "die " << i;
      EXPECT_EQ(sa.outcome[i], "flagged") << "die " << i;
    } else {
      EXPECT_EQ(sa.outcome[i], sb.outcome[i]) << "flat die " << i;
    }
  }
  EXPECT_EQ(leaning, 2);
  EXPECT_FALSE(sb.roll_right());
  EXPECT_TRUE(sa.roll_right());
}

// A die the face check finds off is placed again from crops wider than its radius as found
// (Params::check_wider) before it is left unread: on seed 6000's scene 69 (tests/data/dice/wider)
// the white die 9 is found at 0.8 x its true radius or less, the check without the wider crops
// leaves it unread (without the check it is read right), with them it is read right and the whole
// roll too; every other die's outcome is the same either way.
TEST(DiceReader, ADieFoundOffIsPlacedAgainFromWiderCropsBeforeItIsLeftUnread) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "wider", "6000-0069");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  before_the_size_network(with);
  before_from_face(with);
  ASSERT_GT(with.check_wider, 1);
  vd::Params without = with, unchecked = with;
  without.check_wider = 0;
  unchecked.face_check = 0;
  const vd::Detection a = vd::detect(image, with), b = vd::detect(image, without),
                      c = vd::detect(image, unchecked);
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  const auto sc = arbitre::testing::score_dice(truth, c.observation);
  const auto& die = truth["dice"][9];
  ASSERT_FALSE(die["cocked"].get<bool>());
  // Its radius as found.
  EXPECT_LE(radius_seen(a, die), 0.8 * die["radius_px"].get<double>());
  EXPECT_EQ(sb.outcome[9], "unread");
  EXPECT_EQ(sc.outcome[9], "right");
  EXPECT_EQ(sa.outcome[9], "right");
  EXPECT_TRUE(sa.roll_right());
  for (std::size_t i = 0; i < sa.outcome.size(); ++i) {
    if (i != 9) {
      EXPECT_EQ(sa.outcome[i], sb.outcome[i]) << "die " << i;
    }
  }
}

// The top network (taught every die's most upward face, a cocked die's too) finds a flat die's top
// face as the face network does (the committed scenes' flat dice: within 0.2 radius for 85% of
// them), and a leaning die's where it lies off the flat dice's: on the committed scene of leaning
// dice (tests/data/dice/cocked), from the true centres, every cocked die's top face lies at least
// kLeaningResidual off where the other dice's put it (tilt_residuals), and every flat die's less.
TEST(DiceReader, TheTopNetworkFindsWhereALeaningDiesTopFaceLiesOff) {
  const vd::Model& model = vd::default_model();
  ASSERT_FALSE(model.top_cnn.empty()) << "the committed model has a top network";
  const vd::Params params;
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "cocked", kCockedScene);
  ASSERT_FALSE(image.empty());
  cv::Mat grey;
  cv::cvtColor(image, grey, cv::COLOR_BGR2GRAY);
  std::vector<cv::Point2d> centres, places, shifts;
  std::vector<double> radii;
  std::vector<bool> cocked;
  for (const auto& t : truth["dice"]) {
    if (t["visible"].get<double>() < 0.6) continue;
    centres.emplace_back(t["x"].get<double>(), t["y"].get<double>());
    radii.push_back(t["radius_px"].get<double>());
    cocked.push_back(t["cocked"].get<bool>());
  }
  const std::vector<cv::Point2d> tops =
      vd::locate_tops_cnn(grey, centres, radii, params.tilt_locate, model);
  for (std::size_t i = 0; i < centres.size(); ++i) {
    places.push_back(centres[i] / image.cols);
    shifts.push_back((tops[i] - centres[i]) / radii[i]);
  }
  const std::vector<double> off =
      vd::tilt_residuals(places, shifts, params.tilt_dice, params.tilt_outlier);
  int leaning = 0;
  for (std::size_t i = 0; i < off.size(); ++i) {
    if (cocked[i]) {
      ++leaning;
      EXPECT_GE(off[i], vd::kLeaningResidual) << "cocked die " << i;
    } else {
      EXPECT_LT(off[i], vd::kLeaningResidual) << "flat die " << i;
    }
  }
  EXPECT_GE(leaning, 1);
  int dice = 0, near = 0;
  for_each_flat_die([&](const cv::Mat&, const cv::Mat& g, const nlohmann::json& t) {
    const double r = t["radius_px"].get<double>();
    const cv::Point2d centre(t["x"].get<double>(), t["y"].get<double>());
    const cv::Point2d face(t["face"]["x"].get<double>(), t["face"]["y"].get<double>());
    ++dice;
    near += cv::norm(vd::locate_tops_cnn(g, {centre}, {r}, params.tilt_locate, model)[0] - face) <
            0.2 * r;
  });
  ASSERT_GT(dice, 40);
  EXPECT_GT(near, 0.85 * dice) << near << " of " << dice << " within 0.2 radius";
}

// The leaning check (Params::tilt_residual, off by default; the option `--leaning` until the size
// network, which left it flagging flat dice only), a die leaning on another, read as if flat
// without it, is flagged cocked by where its top face lies (Params::tilt_*): on kLeaningScene,
// read as before the size network, the transparent red die leaning 21.5 degrees, read as a value
// without the check, is flagged with it (the frosted white one, 22.9 degrees, is read either way),
// and every flat die is read as without it. A top network that answers "no shift" whatever it sees
// flags nothing.
TEST(DiceReader, ADieLeaningOnAnotherIsFlaggedCockedByWhereItsTopFaceLies) {
  // Its scene was chosen on the reader with its networks in floats.
  const vd::Model& as_trained = arbitre::testing::networks_as_trained();
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "cocked", kLeaningScene);
  ASSERT_FALSE(image.empty());
  vd::Params without;
  before_the_size_network(without);
  ASSERT_EQ(without.tilt_residual, 0) << "the step is off by default";
  vd::Params with = without;
  with.tilt_residual = vd::kLeaningResidual;
  vd::Model still = as_trained;
  still.top_cnn = always(still.top_cnn, vd::kFaceBins / 2);
  const vd::Detection a = vd::detect(image, with, as_trained),
                      b = vd::detect(image, without, as_trained),
                      c = vd::detect(image, with, still);
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  const auto sc = arbitre::testing::score_dice(truth, c.observation);
  int flagged = 0;
  for (std::size_t i = 0; i < sa.outcome.size(); ++i) {
    if (truth["dice"][i]["cocked"].get<bool>()) {
      if (sb.outcome[i] == "read" && sa.outcome[i] == "flagged") {
        ++flagged;
      } else {
        EXPECT_EQ(sa.outcome[i], sb.outcome[i]) << "cocked die " << i;
      }
    } else {
      EXPECT_EQ(sa.outcome[i], sb.outcome[i]) << "flat die " << i;
    }
    EXPECT_EQ(sc.outcome[i], sb.outcome[i]) << "die " << i << ", the top network still";
  }
  EXPECT_GE(flagged, 1);
  EXPECT_GT(sa.cocked_flagged, sb.cocked_flagged);
}

// The dice are reported where the centre network puts them: nearer their true centres than
// their candidates' centres are (the committed scenes).
TEST(DiceReader, DiceAreReportedWhereTheCentreNetworkPutsThem) {
  const fs::path dir = fs::path(ARBITRE_TEST_DATA) / "dice";
  vd::Params without;
  at_the_level(without);
  without.centre_steps = 0;
  // The steps that need the centre network's centres (a die read again where the others put its
  // top face) off in both: only where the dice lie is compared. So is the clear network's reading
  // of a transparent die left unread (where the clear face network finds its top face from the
  // die's centre): since the fortieth session's clear pair and confidence it reads a die from one
  // centre and not from the other.
  without.clear_weight = 0;
  vd::Params with;
  at_the_level(with);
  with.fit_unread = false;
  with.face_check = 0;
  with.clear_weight = 0;
  int dice = 0;
  double error_with = 0, error_without = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    const auto truth = nlohmann::json::parse(std::ifstream(entry.path()));
    const cv::Mat image = cv::imread((dir / truth["image"].get<std::string>()).string());
    const vd::Detection a = vd::detect(image, with);
    const vd::Detection b = vd::detect(image, without);
    ASSERT_EQ(a.observation.dice.size(), b.observation.dice.size());
    for (std::size_t k = 0; k < a.observation.dice.size(); ++k) {
      // The same die, read the same; only where it lies differs.
      EXPECT_EQ(a.observation.dice[k].value, b.observation.dice[k].value);
      const cv::Point2d at(a.observation.dice[k].x, a.observation.dice[k].y);
      const cv::Point2d candidate(b.observation.dice[k].x, b.observation.dice[k].y);
      double nearest = 1e18, r = 1;
      cv::Point2d centre;
      for (const auto& t : truth["dice"]) {
        const cv::Point2d c(t["x"].get<double>(), t["y"].get<double>());
        if (cv::norm(c - candidate) < nearest)
          nearest = cv::norm(c - candidate), centre = c, r = t["radius_px"].get<double>();
      }
      if (nearest > r) continue;
      ++dice;
      error_with += cv::norm(at - centre) / r;
      error_without += nearest / r;
    }
  }
  ASSERT_GT(dice, 40);
  EXPECT_LT(error_with, 0.6 * error_without)
      << "mean distance from the true centre (radii): " << error_with / dice << " against "
      << error_without / dice << " at the candidates' centres";
}

// A red 2 turned down as an eleventh die (scene 21 of seed 5200; tests/data/dice/near): a window
// between two dice held a place among the ten and was reported there, matching no die. The
// centre network puts it on one of the two: one die, not two (the spacing drops it), and the 2
// takes its place. Nothing is reported twice or invented; no die read right is read otherwise.
TEST(DiceReader, ADieTheCentreNetworkPutsOnAnotherIsThatDie) {
  const OneDie r = read_one_die("near", "0021", 0, without_centring, at_the_level,
                                arbitre::testing::presence_as_before());
  ASSERT_EQ(r.truth_die["value"], 2);
  EXPECT_EQ(r.k_without, -1) << "found without the centre network";
  EXPECT_GE(r.k_with, 0) << "not found with it";
  const auto truth = nlohmann::json::parse(
      std::ifstream(fs::path(ARBITRE_TEST_DATA) / "dice" / "near" / "0021.json"));
  const auto a = arbitre::testing::score_dice(truth, r.with.observation);
  const auto b = arbitre::testing::score_dice(truth, r.without.observation);
  EXPECT_EQ(b.phantoms, 1) << "the window between two dice";
  EXPECT_EQ(a.phantoms + a.doubled + a.missed, 0);
  for (std::size_t i = 0; i < a.outcome.size(); ++i) {
    if (b.outcome[i] == "right") {
      EXPECT_EQ(a.outcome[i], "right") << "die " << i;
    }
  }
  EXPECT_GT(a.flat_right, b.flat_right);
}

namespace {

// Each flat die of a committed scene of transparent dice (all of them transparent): its truth, its
// true top face, radius and digit turn.
void for_each_flat_clear_die(
    const nlohmann::json& truth,
    const std::function<void(const nlohmann::json&, cv::Point2d, double, double)>& f) {
  for (const auto& t : truth["dice"]) {
    if (t["cocked"].get<bool>()) continue;
    ASSERT_EQ(t["texture"], "transparent");
    f(t, cv::Point2d(t["face"]["x"].get<double>(), t["face"]["y"].get<double>()),
      t["radius_px"].get<double>(), t["face"]["digit_rotation_deg"].get<double>());
  }
}

}  // namespace

// The clear network (trained on transparent dice alone) reads a transparent white die at its true
// top face, along its true axis, surely where the digit networks are unsure: on the committed
// scene of ten transparent dice (scene 47 of seed 5200; tests/data/dice/clear) it gives the true
// value of at least four of the five white ones a probability of 0.75 or more, more of them than
// the digit networks' mean does, and reads the red ones right.
TEST(DiceReader, TheClearNetworkReadsTransparentDiceTheDigitNetworksDoNot) {
  const vd::Model& model = vd::default_model();
  ASSERT_FALSE(model.clear_cnn.empty()) << "the committed model has a clear network";
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "clear", "0047");
  ASSERT_FALSE(image.empty());
  cv::Mat grey;
  cv::cvtColor(image, grey, cv::COLOR_BGR2GRAY);
  const std::vector<cv::Mat> planes = vd::clear_planes(image, grey, model.clear_cnn);
  const auto likeliest = [](const cv::Mat& p) {
    int best = 0;
    for (int c = 1; c < p.cols; ++c) best = p.at<float>(0, c) > p.at<float>(0, best) ? c : best;
    return best;
  };
  int white = 0, white_clear = 0, white_digit = 0, red = 0, red_clear = 0;
  constexpr float kSure = 0.75f;
  for_each_flat_clear_die(truth, [&](const nlohmann::json& t, cv::Point2d face, double r,
                                     double turn) {
    cv::Mat rows(1, vd::kCnnSide * vd::kCnnSide, CV_8U), clear_rows;
    vd::cnn_crop(grey, face, r, turn, rows.ptr());
    vd::clear_crops(planes, face, r, {turn}, model.clear_cnn, clear_rows);
    const int value = t["value"].get<int>();
    const cv::Mat clear = model.clear_cnn.probabilities(clear_rows);
    const cv::Mat digits =
        0.5 * (model.digit_cnn.probabilities(rows) + model.digit_cnn_2.probabilities(rows));
    if (t["colour"] == "white") {
      ++white;
      white_clear += clear.at<float>(0, value) >= kSure;
      white_digit += digits.at<float>(0, value) >= kSure;
    } else {
      ++red, red_clear += likeliest(clear) == value;
    }
  });
  ASSERT_EQ(white, 5);
  ASSERT_EQ(red, 4);  // the fifth red die is cocked
  // The wider network of the thirty-third session was sure of 3 of the 5 white dice here; trained
  // with weight decay (thirty-fourth session) it is sure of 4 again, as the first one was; trained
  // on 480 more scenes of transparent dice (thirty-fifth session), of all 5 (the digit pair of 1).
  EXPECT_GT(white_clear, white_digit);
  EXPECT_GE(white_clear, 4);
  EXPECT_EQ(red_clear, red);
}

// A transparent die left unread is read again with the clear network, where the clear face
// network puts its top face: on the committed scene of ten transparent dice, white dice the reader
// leaves unread without the step are read right with it, none read wrong, and every die read
// without it is read the same. A clear network (both of the pair) answering "wrong turn" whatever
// it sees reads none of the dice gained (the clear network is asked, not the digit networks alone).
// The places round the fitted one (Params::fit_ring) are left out: they read some of these dice
// without the clear network too (a red one), and with a blind one fewer.
TEST(DiceReader, ATransparentDieLeftUnreadIsReadAgainWithTheClearNetwork) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "clear", "0047");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  before_the_size_network(with);
  with.fit_ring = 0;
  vd::Params without = with;
  without.clear_weight = 0;
  vd::Model blind = vd::default_model();
  blind.clear_cnn = always(blind.clear_cnn, vd::kWrongTurn);
  if (!blind.clear_cnn_2.empty()) blind.clear_cnn_2 = always(blind.clear_cnn_2, vd::kWrongTurn);
  const vd::Detection a = vd::detect(image, with), b = vd::detect(image, without),
                      c = vd::detect(image, with, blind);
  ASSERT_EQ(a.observation.dice.size(), b.observation.dice.size());
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  const auto sc = arbitre::testing::score_dice(truth, c.observation);
  int gained = 0, wrong = 0;
  for (std::size_t i = 0; i < sa.outcome.size(); ++i) {
    if (sb.outcome[i] == "right") {
      EXPECT_EQ(sa.outcome[i], "right") << "die " << i;
    }
    wrong += sa.outcome[i] == "wrong-value";
    EXPECT_NE(sb.outcome[i], "wrong-value") << "die " << i;
    if (sb.outcome[i] == "unread" && sa.outcome[i] == "right") {
      EXPECT_EQ(truth["dice"][i]["colour"], "white") << "die " << i;
      EXPECT_NE(sc.outcome[i], "right") << "die " << i << ", the clear network blind";
      ++gained;
    }
  }
  // The network of the thirty-fourth session (weight decay) at its share of 0.65 read 4 of the 5
  // white dice and one wrong (the white 7), so this test asked then only "at least 3 gained, at
  // most 1 wrong"; the network trained on 480 more scenes of transparent dice (thirty-fifth
  // session) reads all 5 and none wrong, and the test asks again that none be read wrong (and at
  // least 4 gained: one die of slack for another machine's arithmetic, as before).
  EXPECT_GE(gained, 4);
  EXPECT_EQ(wrong, 0);
}

// The clear pair: the committed model has a second clear network at a side of its own (56 pixels
// against the first's 40), and the clear network's answer is the mean of the pair's, each from
// crops of its own side; without the second, the first's alone. On the committed scene of ten
// transparent dice, at each flat die's true top face along its true axis.
TEST(DiceReader, TheClearNetworksAnswerIsTheMeanOfThePairsEachFromItsOwnCrops) {
  const vd::Model& model = vd::default_model();
  ASSERT_FALSE(model.clear_cnn.empty());
  ASSERT_FALSE(model.clear_cnn_2.empty()) << "the committed model has a second clear network";
  EXPECT_EQ(model.clear_cnn.shape.side, 40);
  EXPECT_EQ(model.clear_cnn_2.shape.side, 56);
  vd::Model first = model;
  first.clear_cnn_2 = {};
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "clear", "0047");
  ASSERT_FALSE(image.empty());
  cv::Mat grey;
  cv::cvtColor(image, grey, cv::COLOR_BGR2GRAY);
  const std::vector<cv::Mat> planes = vd::clear_planes(image, grey, model.clear_cnn);
  int dice = 0;
  double apart = 0;  // the most the pair's answers differ
  for (const auto& t : truth["dice"]) {
    if (t["cocked"].get<bool>()) continue;
    const cv::Point2d face(t["face"]["x"].get<double>(), t["face"]["y"].get<double>());
    const double r = t["radius_px"].get<double>();
    const std::vector<double> turns = {t["face"]["digit_rotation_deg"].get<double>(), 90.0};
    cv::Mat rows_1, rows_2;
    vd::clear_crops(planes, face, r, turns, model.clear_cnn, rows_1);
    vd::clear_crops(planes, face, r, turns, model.clear_cnn_2, rows_2);
    EXPECT_EQ(rows_1.cols, 3 * 40 * 40);
    EXPECT_EQ(rows_2.cols, 3 * 56 * 56);
    const cv::Mat p1 = model.clear_cnn.probabilities(rows_1);
    const cv::Mat p2 = model.clear_cnn_2.probabilities(rows_2);
    const cv::Mat pair = vd::clear_probabilities(planes, face, r, turns, model);
    const cv::Mat alone = vd::clear_probabilities(planes, face, r, turns, first);
    ASSERT_EQ(pair.rows, 2);
    EXPECT_LT(cv::norm(pair, 0.5 * (p1 + p2), cv::NORM_INF), 1e-6);
    EXPECT_LT(cv::norm(alone, p1, cv::NORM_INF), 1e-6);
    apart = std::max(apart, cv::norm(p1, p2, cv::NORM_INF));
    ++dice;
  }
  EXPECT_EQ(dice, 9);
  EXPECT_GT(apart, 0.01) << "two networks, two answers";
}

// A die read through the whole circle at its true top face (read_whole_circle, what dice_eval
// --clear-at-truth measures): on the committed scene of transparent dice, the clear networks mixed
// in read more of its nine flat dice surely and right than the digit networks alone (9 against 5
// when written; at least 8: one die of slack for another machine's arithmetic), none surely and
// wrong.
TEST(DiceReader, TransparentDiceReadAtTheirTrueFaceWithTheClearNetworks) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "clear", "0047");
  ASSERT_FALSE(image.empty());
  const vd::Params params;
  int dice = 0, with_clear = 0, alone = 0, wrong = 0;
  for_each_flat_clear_die(truth, [&](const nlohmann::json& t, cv::Point2d face, double r,
                                     double turn) {
    const int value = t["value"].get<int>();
    const auto sure = [&](const vd::CircleReading& x) {
      return vd::clear_reading_taken(x.best, x.second, params);
    };
    const vd::CircleReading c = vd::read_whole_circle(image, face, r, turn, true, params);
    const vd::CircleReading g = vd::read_whole_circle(image, face, r, turn, false, params);
    EXPECT_GE(c.best, c.second);
    with_clear += sure(c) && c.value == value;
    alone += sure(g) && g.value == value;
    wrong += sure(c) && c.value != value;
    ++dice;
  });
  EXPECT_EQ(dice, 9);
  EXPECT_EQ(wrong, 0);
  EXPECT_GE(with_clear, 8);
  EXPECT_GT(with_clear, alone) << "the digit networks alone: " << alone;
}

// The second clear network mends a clear white die the first alone reads wrong: on scene 10 of
// seed 10200 (an evaluation scene; tests/data/dice/clearpair), at the reader's defaults, its
// transparent white die 7 is read as another value with the first clear network alone and right
// with the pair; no die read right without the second is lost, none read wrong that was not.
TEST(DiceReader, TheSecondClearNetworkMendsAClearWhiteDieTheFirstReadsWrong) {
  // Its scene was chosen on the reader with its networks in floats.
  const vd::Model& as_trained = arbitre::testing::networks_as_trained();
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "clearpair", "0010");
  ASSERT_FALSE(image.empty());
  vd::Model first = as_trained;
  ASSERT_FALSE(first.clear_cnn_2.empty());
  first.clear_cnn_2 = {};
  const vd::Params params;
  const auto sa =
      arbitre::testing::score_dice(truth, vd::detect(image, params, as_trained).observation);
  const auto sb = arbitre::testing::score_dice(truth, vd::detect(image, params, first).observation);
  ASSERT_EQ(truth["dice"][7]["colour"], "white");
  ASSERT_EQ(truth["dice"][7]["texture"], "transparent");
  EXPECT_EQ(sb.outcome[7], "wrong-value");
  EXPECT_EQ(sa.outcome[7], "right");
  for (std::size_t i = 0; i < sa.outcome.size(); ++i) {
    if (sb.outcome[i] == "right") {
      EXPECT_EQ(sa.outcome[i], "right") << "die " << i;
    }
    if (sa.outcome[i] == "wrong-value") {
      EXPECT_EQ(sb.outcome[i], "wrong-value") << "die " << i;
    }
  }
  EXPECT_GT(sa.flat_right, sb.flat_right);
}

// A white die the digit networks read wrong, that looks transparent, is left unread when the clear
// network, shown it where and as it was read, finds the value read unlikely, and is read again
// with the clear network: on scene 4 of seed 7900 (a development scene; tests/data/dice/veto) a
// transparent white die read wrong without the veto is read right with it, no die read right
// without it is lost, and none is read wrong that was not.
TEST(DiceReader, AClearWhiteDieTheClearNetworkDoubtsIsReadAgain) {
  // Its scene was chosen on the reader with its networks in floats.
  const vd::Model& as_trained = arbitre::testing::networks_as_trained();
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "veto", "0004");
  ASSERT_FALSE(image.empty());
  vd::Params with, without;
  at_the_level(with);
  at_the_level(without);
  axis_bound_as_before(with);
  axis_bound_as_before(without);
  ASSERT_GT(with.clear_veto, 0) << "the veto is on by default";
  without.clear_veto = 0;
  const auto sa =
      arbitre::testing::score_dice(truth, vd::detect(image, with, as_trained).observation);
  const auto sb =
      arbitre::testing::score_dice(truth, vd::detect(image, without, as_trained).observation);
  int mended = 0;
  for (std::size_t i = 0; i < sa.outcome.size(); ++i) {
    if (sb.outcome[i] == "right") {
      EXPECT_EQ(sa.outcome[i], "right") << "die " << i;
    }
    if (sa.outcome[i] == "wrong-value") {
      EXPECT_EQ(sb.outcome[i], "wrong-value") << "die " << i;
    }
    if (sb.outcome[i] == "wrong-value" && sa.outcome[i] == "right") {
      EXPECT_EQ(truth["dice"][i]["colour"], "white") << "die " << i;
      EXPECT_EQ(truth["dice"][i]["texture"], "transparent") << "die " << i;
      ++mended;
    }
  }
  EXPECT_GE(mended, 1);
  EXPECT_GT(sa.flat_right, sb.flat_right);
}

// A die in a chain of touching dice whose only windows were a digit's and the chain's (turned
// down for their size) is found when the search also looks where those windows were, read
// right, and nothing found without that is lost. The scene: scenegen --dice seed 2500, scene 18
// (a development scene; tests/data/dice/search).
TEST(DiceReader, TheSearchLooksWhereAWindowOfTheWrongSizeWas) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "search", "0018");
  ASSERT_FALSE(image.empty());
  vd::Params with, without;
  at_the_level(with);
  at_the_level(without);
  without.search_resized = false;
  // At the spacing this scene was chosen for. At the default 1.1 (since 2026-11-30) the white 5
  // is chosen nearer the red 10, which is then turned down as on another die and missed either
  // way: the spacing trades this scene for others (docs/benchmarks.md).
  with.min_spacing = without.min_spacing = 1.2;
  // And without the centre network: with it and this one ring the red 10 is missed either way
  // (the reader as it is, with its rings and the centre network, reads every die of the scene).
  without_centring(with);
  without_centring(without);
  one_ring(with);
  one_ring(without);
  without_faint(with);
  without_faint(without);
  const vd::Detection a = vd::detect(image, with), b = vd::detect(image, without);
  const auto& red10 = truth["dice"][0];  // the red 10 between the white 5 and the red 10
  ASSERT_EQ(red10["value"], 10);
  EXPECT_EQ(seen_at(b.observation.dice, red10), -1) << "found without looking where the window was";
  const int k = seen_at(a.observation.dice, red10);
  ASSERT_GE(k, 0) << "not found";
  EXPECT_TRUE(a.candidates[static_cast<std::size_t>(a.die_candidate[static_cast<std::size_t>(k)])]
                  .neighbour);
  EXPECT_EQ(a.observation.dice[static_cast<std::size_t>(k)].value, 10);
  EXPECT_EQ(a.observation.dice[static_cast<std::size_t>(k)].colour, DieColour::Red);
  const auto score = arbitre::testing::score_dice(truth, a.observation);
  EXPECT_EQ(score.flat_right, score.flat) << "every flat die read right";
  EXPECT_EQ(score.missed, 0);
  expect_none_lost(a, b, "a die found without it is gone with it");
}

// A white 7 in a cluster on a checkered cloth seen at 30 degrees (scene 19 of seed 4400): the
// locator's forests and the face network answer 0.8 radius apart for its top face, and their mean,
// where it was read, lies between the 7's face and the face beside it: nothing read there, not even
// through the whole circle. Searched at each answer, it reads a sure 7 at the one on its top
// face; no other die changes.
TEST(DiceReader, ADieUnreadBetweenItsTwoFaceAnswersIsSearchedAtEach) {
  const OneDie r = read_one_die(
      "answers", "0019", 8, [](auto& p) { p.answer_search = false; },
      [](auto& p) { near_as_before(p), without_centring(p); });
  ASSERT_TRUE(unread_then_read(r, 7, "read at the mean"));
  const auto ka = static_cast<std::size_t>(r.k_with), kb = static_cast<std::size_t>(r.k_without);
  const double radius = r.truth_die["radius_px"].get<double>();
  const cv::Point2d face(r.truth_die["face"]["x"].get<double>(),
                         r.truth_die["face"]["y"].get<double>());
  EXPECT_LT(cv::norm(r.with.face[ka] - face), 0.15 * radius);
  EXPECT_GT(cv::norm(r.without.face[kb] - face), 0.15 * radius);
  expect_the_others_unchanged(r, r.k_with);
}

// A red 2 on a cloth (scene 96 of seed 3900): the axis network gives its digit's axis 19 degrees
// off, and the crops along it (15 degrees apart) leave it unread. Searched through the whole
// circle, it is read, and upright; no other die changes.
TEST(DiceReader, ADieNotReadAlongTheAxisIsSearchedThroughTheWholeCircle) {
  const OneDie r = read_one_die(
      "circle", "0096", 0, [](auto& p) { p.full_turns = 0; }, without_centring);
  ASSERT_TRUE(unread_then_read(r, 2, "read along the axis"));
  const double turn = std::remainder(r.with.rotation_deg[static_cast<std::size_t>(r.k_with)] -
                                         r.truth_die["face"]["digit_rotation_deg"].get<double>(),
                                     360.0);
  EXPECT_LT(std::abs(turn), 10.0) << "read upright";
  expect_the_others_unchanged(r, r.k_with);
}

// A die whose only window was somewhat too large, turned down as "not a die" (presence 0.42):
// the search looks there again at the dice's size and finds it (seed 3900, scene 6: the red 3
// alone at the tray's left).
TEST(DiceReader, TheSearchLooksWhereACandidateWasNearlyADie) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "search", "0006");
  ASSERT_FALSE(image.empty());
  vd::Params with, without;
  at_the_level(with);
  at_the_level(without);
  without.search_unsure = 0;
  one_ring(with);
  one_ring(without);
  trusting_no_die(with);
  trusting_no_die(without);
  const vd::Detection a = vd::detect(image, with, arbitre::testing::presence_as_before()),
                      b = vd::detect(image, without, arbitre::testing::presence_as_before());
  const auto& red3 = truth["dice"][2];
  ASSERT_EQ(red3["value"], 3);
  ASSERT_EQ(seen_at(b.observation.dice, red3), -1)
      << "found without looking where the candidate was";
  bool turned_down = false;
  for (const auto& c : b.candidates) {
    if (c.why == "not a die" && c.presence >= with.search_unsure &&
        on_die(c.centre.x, c.centre.y, red3))
      turned_down = true;
  }
  EXPECT_TRUE(turned_down) << "no candidate on the red 3 was turned down as not a die";
  const int k = seen_at(a.observation.dice, red3);
  ASSERT_GE(k, 0) << "not found";
  const auto& die = a.observation.dice[static_cast<std::size_t>(k)];
  EXPECT_TRUE(a.candidates[static_cast<std::size_t>(a.die_candidate[static_cast<std::size_t>(k)])]
                  .neighbour);
  EXPECT_EQ(die.value, 3);
  EXPECT_EQ(die.colour, DieColour::Red);
  EXPECT_EQ(a.observation.dice.size(), b.observation.dice.size() + 1);
  expect_none_lost(a, b, "a die found without it is gone with it");
}

// In perspective a die behind another shows only part of itself, its centre 1.2-1.7 radii from
// the other's in the image: one ring of places 1.8 radii out, 30 degrees apart, passes beside it.
// Scene 19 of seed 4400 (a cluster seen at 30 degrees; tests/data/dice/answers): with one ring
// the red 5 and the white 7 at the cluster's edges are missed; with the rings (24 places on
// each of three, a quarter radius apart) both are found by the search and read, the whole roll
// is read right, and every die found with one ring is still found, read the same.
TEST(DiceReader, TheRingsOfTheSearchFindADieHalfHiddenBehindAnother) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "answers", "0019");
  ASSERT_FALSE(image.empty());
  vd::Params rings, ring;
  one_ring(ring);
  trusting_no_die(rings);
  trusting_no_die(ring);
  const vd::Detection a = vd::detect(image, rings), b = vd::detect(image, ring);
  found_by_the_search(a, b, truth["dice"][2], 5, DieColour::Red, "with one ring / the rings");
  found_by_the_search(a, b, truth["dice"][5], 7, DieColour::White, "with one ring / the rings");
  EXPECT_TRUE(arbitre::testing::score_dice(truth, a.observation).roll_right());
  expect_none_lost(a, b, "a die found with one ring is gone with the rings");
}

// A red 2 in full view in the tray whose glossy top face lies under a highlight (scene 12 of
// seed 8400; tests/data/dice/highlight): no window of its own, and the digit network says "no
// die" there (over 0.9 at its true centre), so while the search took a place as a candidate only
// at "no die" up to 0.3 it was missed. Taken up to 0.99 (the presence deciding, as for every
// other candidate), a place of the rings on it is found and read right, the whole roll with it,
// every die read right before still right. (Not at the same place to the pixel: the fit of the
// top faces takes the red 2 in.)
TEST(DiceReader, TheSearchFindsADieTheDigitNetworkTakesForNoDie) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "highlight", "8400-0012");
  ASSERT_FALSE(image.empty());
  const auto& red2 = truth["dice"][4];
  ASSERT_FALSE(red2["cocked"].get<bool>());
  cv::Mat grey;
  cv::cvtColor(image, grey, cv::COLOR_BGR2GRAY);
  cv::Mat crop(1, vd::kCnnSide * vd::kCnnSide, CV_8U);
  vd::cnn_crop(grey, {red2["x"].get<double>(), red2["y"].get<double>()},
               red2["radius_px"].get<double>(), 0, crop.ptr(0));
  EXPECT_GT(vd::default_model().digit_cnn.probabilities(crop).at<float>(0, vd::kNoDie), 0.9)
      << "the digit network's \"no die\" at the die's true centre";
  vd::Params trusting;
  trusting_no_die(trusting);
  const vd::Detection a = vd::detect(image, vd::Params{}), b = vd::detect(image, trusting);
  found_by_the_search(a, b, red2, 2, DieColour::Red, "trusting the digit network / not");
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  EXPECT_TRUE(sa.roll_right());
  EXPECT_EQ(sb.flat_right, sb.flat - 1) << "only the red 2 missed trusting the digit network";
  for (std::size_t i = 0; i < sb.outcome.size(); ++i) {
    if (sb.outcome[i] == "right") {
      EXPECT_EQ(sa.outcome[i], "right") << "die " << i;
    }
  }
}

// A red 4 on the open table beside a red 2 that had no window of its own either (scene 87 of
// seed 4600; tests/data/dice/rounds): the search's first round finds the red 2, and only a
// second round, round the dice the first added, finds the red 4. Read right; no die found in
// one round is lost. Read with the places re-centred as the scan's windows (`near_as_before`):
// at the default short re-centring the second round keeps a place 1.1 radii from the white 2
// instead, and reports that die twice (one of the doubles docs/benchmarks.md counts).
TEST(DiceReader, TheSearchLooksAgainRoundTheDiceItFound) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "rounds", "0087");
  ASSERT_FALSE(image.empty());
  vd::Params rounds, one;
  near_as_before(rounds);
  near_as_before(one);
  without_faint(rounds);
  without_faint(one);
  face_check_as_before(rounds);
  face_check_as_before(one);
  trusting_no_die(rounds);
  trusting_no_die(one);
  one.neighbour_rounds = 1;
  before_red_places(rounds);
  before_red_places(one);
  const vd::Detection a = vd::detect(image, rounds, arbitre::testing::presence_as_before()),
                      b = vd::detect(image, one, arbitre::testing::presence_as_before());
  found_by_the_search(a, b, truth["dice"][3], 4, DieColour::Red, "in one round / three");
  // The die it was found beside, the red 2: found by the search too, in one round already.
  const auto& red2 = truth["dice"][0];
  ASSERT_EQ(red2["value"], 2);
  const int j = seen_at(a.observation.dice, red2), jb = seen_at(b.observation.dice, red2);
  ASSERT_GE(j, 0);
  ASSERT_GE(jb, 0) << "the red 2 not found in one round";
  EXPECT_TRUE(a.candidates[static_cast<std::size_t>(a.die_candidate[static_cast<std::size_t>(j)])]
                  .neighbour);
  EXPECT_TRUE(arbitre::testing::score_dice(truth, a.observation).missed == 0);
  expect_none_lost(a, b, "a die found in one round is gone in three");
}

// A white 1 at the image's left edge, in a column with a red 8 and a white 6 (scene 3 of seed
// 3900; tests/data/dice/near): the CNN takes a place of the rings on it for a die, but
// re-centred as far as the scan's windows are (+-0.73 radius), where the window detector peaks,
// it lands off the 1 and is reported there, matching no die. Re-centred within +-0.36 radius it
// stays on the 1, which is read right; nothing else changes for the worse. (Both read without
// the centre network, which since 2026-12-03 reports the die landed off the 1 on the 1.)
TEST(DiceReader, TheSearchsPlacesAreReCentredNearWhereTheyLie) {
  const OneDie r = read_one_die(
      "near", "0003", 8, [](auto& p) { p.neighbour_refine_steps = p.refine_steps; },
      [](auto& p) { without_centring(p), trusting_no_die(p); });
  ASSERT_EQ(r.truth_die["value"], 1);
  EXPECT_EQ(r.k_without, -1) << "found when re-centred as far as the scan's windows";
  ASSERT_GE(r.k_with, 0) << "not found";
  const auto k = static_cast<std::size_t>(r.k_with);
  EXPECT_TRUE(r.with.candidates[static_cast<std::size_t>(r.with.die_candidate[k])].neighbour);
  EXPECT_EQ(r.with.observation.dice[k].value, 1);
  EXPECT_EQ(r.with.observation.dice[k].colour, DieColour::White);
  const auto truth = nlohmann::json::parse(
      std::ifstream(fs::path(ARBITRE_TEST_DATA) / "dice" / "near" / "0003.json"));
  const auto a = arbitre::testing::score_dice(truth, r.with.observation);
  const auto b = arbitre::testing::score_dice(truth, r.without.observation);
  EXPECT_EQ(b.phantoms, 1) << "the far re-centring reported a die beside the 1";
  EXPECT_EQ(a.phantoms, 0);
  EXPECT_EQ(a.missed, 0);
  EXPECT_EQ(a.doubled, 0);
  EXPECT_EQ(a.flat_right, b.flat_right + 1);
}

// A red 1 half hidden behind a die chosen (scene 12 of seed 4600; tests/data/dice/near): the
// CNN is sure of a place of the rings on it ("no die" under 0.03), but re-centred, even within
// the short reach, it lands on the die chosen and was dropped. Kept where it lies, the 1 is
// found (left unread by the first digit network alone, read by the two); no die is invented or
// lost, none read wrong.
TEST(DiceReader, APlaceReCentredOntoADieChosenIsKeptWhereItLiesWhenTheCnnIsSure) {
  const OneDie r = read_one_die(
      "near", "0012", 4, [](auto& p) { p.neighbour_keep = 0; }, at_the_level);
  ASSERT_EQ(r.truth_die["value"], 1);
  EXPECT_EQ(r.k_without, -1) << "found without keeping the place";
  ASSERT_GE(r.k_with, 0) << "not found";
  const auto k = static_cast<std::size_t>(r.k_with);
  EXPECT_TRUE(r.with.candidates[static_cast<std::size_t>(r.with.die_candidate[k])].neighbour);
  const auto truth = nlohmann::json::parse(
      std::ifstream(fs::path(ARBITRE_TEST_DATA) / "dice" / "near" / "0012.json"));
  const auto a = arbitre::testing::score_dice(truth, r.with.observation);
  const auto b = arbitre::testing::score_dice(truth, r.without.observation);
  EXPECT_EQ(a.missed, 0);
  EXPECT_EQ(a.phantoms + a.doubled, 0);
  EXPECT_EQ(a.wrong_value + a.wrong_colour, b.wrong_value + b.wrong_colour);
  EXPECT_GE(a.flat_right, b.flat_right);
  EXPECT_TRUE(r.with.observation.dice[k].value == 0 || r.with.observation.dice[k].value == 1);
  expect_none_lost(r.with, r.without, "a die found without keeping the place is gone with it");
}

// Fewer than ten dice found: the search beside the dice found adds dice that had no window of
// their own (touching others) and only true dice; it never removes or moves a die found
// without it; a network that sees no die anywhere adds none.
TEST(DiceReader, TheSearchBesideTheDiceFoundAddsOnlyTrueDice) {
  const fs::path dir = fs::path(ARBITRE_TEST_DATA) / "dice";
  vd::Params with, without;
  without.neighbour_search = false;
  with.respace_from = without.respace_from = 0;  // it finds some of the same dice first
  const vd::Model blind = always_answering(vd::kNoDie);
  vd::Params blind_with = with, blind_without = without;
  blind_with.cnn_presence = blind_without.cnn_presence = 0;  // the same presence either way
  // The search's own places alone: a candidate turned down as an eleventh, recalled among them,
  // is a window the scan found and the examine stage passed, not one the network proposes.
  blind_with.recall_eleventh = false;
  int added = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    const auto truth = nlohmann::json::parse(std::ifstream(entry.path()));
    const cv::Mat image = cv::imread((dir / truth["image"].get<std::string>()).string());
    const vd::Detection a = vd::detect(image, with), b = vd::detect(image, without);
    expect_none_lost(a, b,
                     entry.path().string() + ": a die found without the search is gone with it");
    for (std::size_t k = 0; k < a.observation.dice.size(); ++k) {
      if (!a.candidates[static_cast<std::size_t>(a.die_candidate[k])].neighbour) continue;
      ++added;
      const auto& die = a.observation.dice[k];
      EXPECT_TRUE(std::any_of(truth["dice"].begin(), truth["dice"].end(),
                              [&](const auto& t) {
                                return std::hypot(t["x"].template get<double>() - die.x,
                                                  t["y"].template get<double>() - die.y) <
                                       0.5 * t["radius_px"].template get<double>();
                              }))
          << entry.path() << ": the search added a die where there is none";
    }
    EXPECT_EQ(vd::detect(image, blind_with, blind).observation.dice.size(),
              vd::detect(image, blind_without, blind).observation.dice.size());
  }
  EXPECT_GT(added, 0) << "the committed scenes have a die only the search finds";
}

// A candidate a little closer to a chosen die than the spacing allows (in a row of touching
// dice the windows' centres are a few pixels off) is re-centred and kept when it then lies
// clear: on the committed scenes that adds only true dice, and never loses a die.
TEST(DiceReader, ACandidateNearlyClearOfTheDiceChosenIsReCentredAndKeptWhenItIsADie) {
  const fs::path dir = fs::path(ARBITRE_TEST_DATA) / "dice";
  vd::Params with, without;
  with.neighbour_search = without.neighbour_search = false;  // the search finds some of them
  without.respace_from = 0;
  int added = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    const auto truth = nlohmann::json::parse(std::ifstream(entry.path()));
    const cv::Mat image = cv::imread((dir / truth["image"].get<std::string>()).string());
    const auto a = vd::detect(image, with).observation.dice,
               b = vd::detect(image, without).observation.dice;
    const auto near_truth = [&](const auto& die) {
      return std::any_of(truth["dice"].begin(), truth["dice"].end(), [&](const nlohmann::json& t) {
        return std::hypot(t["x"].template get<double>() - die.x,
                          t["y"].template get<double>() - die.y) <
               0.5 * t["radius_px"].template get<double>();
      });
    };
    const auto count_true = [&](const auto& dice) {
      return std::count_if(dice.begin(), dice.end(), near_truth);
    };
    EXPECT_GE(count_true(a), count_true(b)) << entry.path() << ": a die lost";
    EXPECT_EQ(a.size() - static_cast<std::size_t>(count_true(a)),
              b.size() - static_cast<std::size_t>(count_true(b)))
        << entry.path() << ": a die added where there is none";
    added += static_cast<int>(count_true(a) - count_true(b));
  }
  EXPECT_GT(added, 0) << "the committed scenes have a die only the re-centring keeps";
}

// Ten dice chosen, one of them a window on the tray's corner on which the reader sees nothing:
// its place among the ten kept the search from the white die in the cluster beside the tray.
// Chosen again without it, every die is found and read. (The presence network tells that window
// from a die; without it, the reader still finds every die by choosing again.)
TEST(DiceReader, ADieThatReadsNothingGivesItsPlaceToOneThatReads) {
  const fs::path dir = fs::path(ARBITRE_TEST_DATA) / "dice" / "empty";
  const auto truth = nlohmann::json::parse(std::ifstream(dir / "0094.json"));
  const cv::Mat image = cv::imread((dir / truth["image"].get<std::string>()).string());
  ASSERT_FALSE(image.empty());
  vd::Params with, without;
  at_the_level(with);
  at_the_level(without);
  with.presence_net = without.presence_net = 0;
  without.empty_again = false;
  before_red_places(with);
  before_red_places(without);
  without_faint(with);
  without_faint(without);
  const vd::Detection a = vd::detect(image, with), b = vd::detect(image, without);
  const auto before = arbitre::testing::score_dice(truth, b.observation);
  ASSERT_EQ(b.observation.dice.size(), 10U);
  EXPECT_EQ(before.phantoms, 1);
  EXPECT_EQ(before.missed, 1);
  ASSERT_EQ(b.emptied.size(), 1U) << "the window on the tray's corner read nothing";
  const auto after = arbitre::testing::score_dice(truth, a.observation);
  EXPECT_EQ(after.flat_right, after.flat) << "every die read right";
  EXPECT_EQ(after.phantoms, 0);
  EXPECT_EQ(after.missed, 0);
  const cv::Point2d corner = b.emptied[0];
  EXPECT_TRUE(
      std::none_of(a.observation.dice.begin(), a.observation.dice.end(), [&](const DieSighting& o) {
        return std::hypot(o.x - corner.x, o.y - corner.y) < a.die_radius;
      }));
}

// The same on scene 85 of seed 3900 (tests/data/dice/empty): a window on a fold of the cloth
// reads nothing and takes the tenth place; chosen without it, the ten dice are the true ones,
// the red 6 among them (beside the tray's wall; left unread by the first digit network alone,
// read by the two). As many dice read or more, and as many found: that choice is taken, and no
// die is invented or missed, none read wrong.
TEST(DiceReader, ADieThatReadsNothingGivesItsPlaceToADieLeftUnread) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "empty", "0085");
  ASSERT_FALSE(image.empty());
  vd::Params with, without;
  without.empty_again = false;
  before_red_places(with);
  before_red_places(without);
  const vd::Detection a = vd::detect(image, with), b = vd::detect(image, without);
  const auto before = arbitre::testing::score_dice(truth, b.observation);
  ASSERT_EQ(b.observation.dice.size(), 10U);
  EXPECT_EQ(before.phantoms, 1);
  EXPECT_EQ(before.missed, 1);
  ASSERT_EQ(b.emptied.size(), 1U) << "the window on the cloth read nothing";
  const auto after = arbitre::testing::score_dice(truth, a.observation);
  EXPECT_EQ(a.observation.dice.size(), 10U);
  EXPECT_EQ(after.phantoms, 0);
  EXPECT_EQ(after.missed, 0);
  EXPECT_GE(after.flat_right, before.flat_right);
  EXPECT_EQ(after.wrong_value + after.wrong_colour, 0);
  const auto& red6 = truth["dice"][0];
  ASSERT_EQ(red6["value"], 6);
  const int k = seen_at(a.observation.dice, red6);
  ASSERT_GE(k, 0);
  const int value = a.observation.dice[static_cast<std::size_t>(k)].value;
  EXPECT_TRUE(value == 0 || value == 6) << value;
}

// Scene 76 of seed 6100 (a looked-at set; tests/data/dice/empty/6100-0076): a clear white 3 reads
// nothing at first (presence under 0.8), and the dice are chosen again without it; the second
// choice reads no more dice. Taken on that tie (as until 2026-12-04), it leaves the white 3 out:
// missed, and with four white dice seen the colours split one die wrong (the red 6 read white).
// Now the first choice stays: the white 3 is reported (unread: the players type it), every die is
// found, and nothing is read worse.
TEST(DiceReader, OnATieTheDiceChosenFirstStay) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "empty", "6100-0076");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  face_check_as_before(with);
  before_red_places(with);
  colours_by_a_alone(with);
  // The give-back (forty-ninth session) mends the tie's loss too: this test pins the tie alone.
  with.empty_give_back = false;
  ASSERT_TRUE(with.empty_tie_first);
  vd::Params without = with;
  without.empty_tie_first = false;
  const vd::Detection a = vd::detect(image, with, arbitre::testing::presence_as_before()),
                      b = vd::detect(image, without, arbitre::testing::presence_as_before());
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  const auto& white3 = truth["dice"][5];
  ASSERT_EQ(white3["value"], 3);
  ASSERT_EQ(white3["texture"], "transparent");
  EXPECT_EQ(sb.outcome[5], "missed");
  EXPECT_EQ(sb.outcome[1], "wrong-colour");
  EXPECT_EQ(sa.outcome[5], "unread");
  EXPECT_EQ(sa.outcome[1], "right");
  EXPECT_EQ(sa.missed + sa.phantoms + sa.doubled, 0);
  EXPECT_GT(sa.flat_right, sb.flat_right);
  EXPECT_EQ(sa.wrong_value + sa.wrong_colour, 0);
}

// Scene 13 of seed 6000 (tests/data/dice/twice/6000-0013): five dice in a column, touching; the
// red 2 in it has no window of its own. A window between it and the red 1 below it, moved by the
// centre network part of the way onto the 1 (0.68 of a radius from its centre), reads the 1's top
// face, as the 1 does: the 1 is reported twice (once invented) and the 2 missed. One top face, one
// die (Params::faces_apart): of the two dice whose faces as read coincide, the one whose face lies
// farther from its centre is dropped and the dice are chosen once more without it; the 2 is found
// and read right, and nothing is missed or invented.
TEST(DiceReader, TwoDiceReadingOneTopFaceAreOneDie) {
  const auto [truth, a, b, sa, sb] =
      read_with_and_without("twice", "6000-0013", &vd::Params::faces_apart, 0.0);
  ASSERT_EQ(truth["dice"][4]["value"], 2);
  ASSERT_EQ(truth["dice"][1]["value"], 1);
  // The dice reported within a radius of each other whose faces as read lie within a quarter of
  // a radius of each other.
  const auto sharing = [](const vd::Detection& d) {
    int pairs = 0;
    const auto& dice = d.observation.dice;
    for (std::size_t i = 0; i < dice.size(); ++i) {
      for (std::size_t k = i + 1; k < dice.size(); ++k) {
        pairs += cv::norm(d.face[i] - d.face[k]) < 0.25 * d.die_radius &&
                 std::hypot(dice[i].x - dice[k].x, dice[i].y - dice[k].y) < d.die_radius;
      }
    }
    return pairs;
  };
  // Without: the 2 missed; the die invented reads the 1's value, its face on the 1's.
  EXPECT_EQ(sb.outcome[4], "missed");
  EXPECT_EQ(sb.phantoms, 1);
  EXPECT_EQ(sharing(b), 1);
  for (std::size_t k = 0; k < b.observation.dice.size(); ++k) {
    if (sb.truth_of[k] < 0) EXPECT_EQ(b.observation.dice[k].value, 1) << "the invented die";
  }
  EXPECT_EQ(sharing(a), 0);
  EXPECT_EQ(sa.outcome[4], "right");
  EXPECT_EQ(sa.outcome[1], "right");
  EXPECT_EQ(sa.missed + sa.phantoms + sa.doubled, 0);
  EXPECT_EQ(sa.wrong_value + sa.wrong_colour, 0);
  EXPECT_EQ(sa.flat_right, sb.flat_right + 1);
  EXPECT_TRUE(sa.roll_right());
}

// Scene 79 of seed 15700 (tests/data/dice/empty/15700-0079): a window on the tray's rim, eight
// radii from every die, reads nothing (presence 0.53) and takes the tenth place; the red 2 is
// turned down as an eleventh. Chosen again without that place, a window beside it is re-centred
// onto it and chosen in its place, so the second choice is the first again. A die re-centred
// onto a place that read nothing stays out as the place does (Params::empty_recentred): the red
// 2 takes the tenth place, read right, and nothing is invented or missed.
TEST(DiceReader, AWindowReCentredOntoAPlaceThatReadNothingStaysOut) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "empty", "15700-0079");
  ASSERT_FALSE(image.empty());
  vd::Params with, without;
  ASSERT_TRUE(with.empty_recentred);
  without.empty_recentred = false;
  const vd::Detection a = vd::detect(image, with), b = vd::detect(image, without);
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  expect_red_die_found_for_the_invented(truth, 0, 2, sa, sb);
  ASSERT_EQ(b.emptied.size(), 1U) << "the window on the tray's rim read nothing";
  const cv::Point2d rim = b.emptied[0];
  EXPECT_EQ(sa.wrong_value + sa.wrong_colour, 0);
  EXPECT_EQ(sa.flat_right, sb.flat_right + 1);
  EXPECT_TRUE(std::none_of(
      a.observation.dice.begin(), a.observation.dice.end(),
      [&](const DieSighting& o) { return std::hypot(o.x - rim.x, o.y - rim.y) < a.die_radius; }));
}

// A plain red 7 on a patterned table (fresh seed 6500's scene 30; tests/data/dice/faint): the
// window detector scores it -1.38, under the scan's -0.6, and no candidate lies near it, so it is
// missed. Among the faint windows at the dice's size, away from every candidate, the presence
// network knows it (0.7 or more): found, read right, nothing missed or invented, and every die
// found without the faint windows is still found, read the same.
TEST(DiceReader, AFaintWindowAwayFromTheCandidatesIsADieThePresenceNetworkKnows) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "faint", "6500-0030");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  at_the_level(with);
  before_red_places(with);
  ASSERT_GT(with.faint_candidates, 0);
  vd::Params without = with;
  without.faint_candidates = 0;
  const vd::Detection a = vd::detect(image, with, arbitre::testing::presence_as_before()),
                      b = vd::detect(image, without, arbitre::testing::presence_as_before());
  const auto& red7 = truth["dice"][3];
  ASSERT_EQ(red7["value"], 7);
  EXPECT_EQ(seen_at(b.observation.dice, red7), -1) << "found without the faint windows";
  const int k = seen_at(a.observation.dice, red7);
  ASSERT_GE(k, 0) << "not found";
  const vd::Candidate& found =
      a.candidates[static_cast<std::size_t>(a.die_candidate[static_cast<std::size_t>(k)])];
  EXPECT_GE(found.score, with.faint_threshold);
  EXPECT_LT(found.score, with.scan_threshold);
  EXPECT_EQ(a.observation.dice[static_cast<std::size_t>(k)].value, 7);
  EXPECT_EQ(a.observation.dice[static_cast<std::size_t>(k)].colour, DieColour::Red);
  const auto score = arbitre::testing::score_dice(truth, a.observation);
  EXPECT_EQ(score.missed + score.phantoms + score.doubled, 0);
  // Every die found without them is found with them, read the same (the red 4 beside the faint
  // window's place is reported from another of its candidates, a few pixels over).
  expect_none_lost(a, b, "a die found without the faint windows is gone with them", 0.25);
}

// A white 3 beside other dice (fresh seed 6400's scene 58; tests/data/dice/faint): its window at
// the dice's size (score 0.9) was not among the strongest examined, and the only candidate near
// it was a digit's window (a third of a die's radius), turned down for its size; the tenth place
// went to a window at the image's edge. Among the windows at the dice's size away from every
// candidate of that size, the white 3 is found: the whole roll is read right, nothing invented.
TEST(DiceReader, ADieWhoseOnlyWindowWasADigitsIsFoundAmongTheWindowsAtTheDicesSize) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "faint", "6400-0058");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  at_the_level(with);
  vd::Params without;
  at_the_level(without);
  before_empty_recentred(with);
  before_empty_recentred(without);
  without.faint_candidates = 0;
  const vd::Detection a = vd::detect(image, with, arbitre::testing::presence_as_before()),
                      b = vd::detect(image, without, arbitre::testing::presence_as_before());
  const auto& white3 = truth["dice"][9];
  ASSERT_EQ(white3["value"], 3);
  const auto before = arbitre::testing::score_dice(truth, b.observation);
  EXPECT_EQ(seen_at(b.observation.dice, white3), -1) << "found without the faint windows";
  EXPECT_EQ(before.phantoms, 1);
  const int k = seen_at(a.observation.dice, white3);
  ASSERT_GE(k, 0) << "not found";
  EXPECT_EQ(a.observation.dice[static_cast<std::size_t>(k)].value, 3);
  EXPECT_EQ(a.observation.dice[static_cast<std::size_t>(k)].colour, DieColour::White);
  EXPECT_TRUE(arbitre::testing::score_dice(truth, a.observation).roll_right());
}

// A plain red 10 alone on a green cloth (seed 8100's scene 18; tests/data/dice/colour): the window
// scan scores it low (no window of it among the candidates; the strongest faint one was turned
// down at presence 0.65), and the tenth place went to a window beside a white die. Its red
// stands out from the cloth: among the places where a die's worth of red does, it is found, read
// 10 and red; the whole roll is read right, nothing invented.
TEST(DiceReader, ARedDieTheWindowScanScoresLowIsFoundWhereItsRedStandsOut) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "colour", "8100-0018");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  at_the_level(with);
  // Its faint window, a place of the search beside the dice since the forty-ninth session
  // (search_faint), finds it too: the red places alone, as in their session.
  with.search_faint = false;
  ASSERT_GT(with.colour_contrast, 0);
  vd::Params without = with;
  without.colour_contrast = 0;
  const vd::Detection a = vd::detect(image, with), b = vd::detect(image, without);
  const auto& red10 = truth["dice"][4];
  ASSERT_EQ(red10["value"], 10);
  ASSERT_EQ(red10["colour"], "red");
  EXPECT_EQ(seen_at(b.observation.dice, red10), -1) << "found without the red places";
  // Among the red places at the dice's size, one on it.
  const cv::Point2d at(red10["x"].get<double>(), red10["y"].get<double>());
  const double r = red10["radius_px"].get<double>();
  const auto places = vd::red_places(image, a.die_radius, with);
  EXPECT_LE(static_cast<int>(places.size()), with.colour_places);
  EXPECT_TRUE(std::any_of(places.begin(), places.end(), [&](cv::Point2d p) {
    return cv::norm(p - at) < 0.5 * r;
  })) << "no red place on the red 10";
  const int k = seen_at(a.observation.dice, red10);
  ASSERT_GE(k, 0) << "not found";
  EXPECT_EQ(a.observation.dice[static_cast<std::size_t>(k)].value, 10);
  EXPECT_EQ(a.observation.dice[static_cast<std::size_t>(k)].colour, DieColour::Red);
  EXPECT_TRUE(arbitre::testing::score_dice(truth, a.observation).roll_right());
}

// The red places are where red stands out from what lies round it: a red disc on a cloth of
// white and grey stripes is one, the stripes none; on a red cloth the same disc is none.
TEST(DiceReader, RedPlacesAreWhereADiesWorthOfRedStandsOut) {
  cv::Mat striped(360, 480, CV_8UC3);
  for (int x = 0; x < striped.cols; ++x)
    striped.col(x).setTo((x / 24) % 2 ? cv::Scalar(235, 235, 235) : cv::Scalar(90, 90, 90));
  cv::Mat red_cloth(360, 480, CV_8UC3, cv::Scalar(40, 40, 170));  // BGR
  const vd::Params params;
  for (cv::Mat* table : {&striped, &red_cloth}) {
    cv::circle(*table, {300, 170}, 30, cv::Scalar(30, 30, 190), cv::FILLED);
  }
  const auto on_stripes = vd::red_places(striped, 30, params);
  ASSERT_EQ(on_stripes.size(), 1u);
  EXPECT_LT(cv::norm(on_stripes[0] - cv::Point2d(300, 170)), 6.0);
  EXPECT_TRUE(vd::red_places(red_cloth, 30, params).empty());
}

// Two glossy red dice on a dark cloth (seed 8800's scene 12; tests/data/dice/stretch), the red 4
// and the red 8, whose top faces a light's highlight washes out to a pale pink: their gold digits
// are faint on it and no place reads them. Read once more with the grey of the face's disc
// stretched over the whole range, both are read right, the whole roll with them; every die read
// without it is read the same.
TEST(DiceReader, AFaceAHighlightWashesOutIsReadWithItsGreyStretched) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "stretch", "8800-0012");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  axis_bound_as_before(with);
  ASSERT_GT(with.stretch_high, with.stretch_low);
  vd::Params without = with;
  without.stretch_high = 0;
  // Nor on the redness, read after the stretch (since the fifty-ninth session): it reads the red
  // 4 right and the red 8 as a 10.
  without.redness_plane = false;
  const vd::Detection a = vd::detect(image, with), b = vd::detect(image, without);
  for (const int i : {3, 4}) {
    const auto& die = truth["dice"][static_cast<std::size_t>(i)];
    ASSERT_EQ(die["colour"], "red");
    const int kb = seen_at(b.observation.dice, die), ka = seen_at(a.observation.dice, die);
    ASSERT_GE(kb, 0);
    ASSERT_GE(ka, 0);
    EXPECT_EQ(b.observation.dice[static_cast<std::size_t>(kb)].value, 0) << "read without";
    EXPECT_EQ(a.observation.dice[static_cast<std::size_t>(ka)].value, die["value"].get<int>());
  }
  EXPECT_TRUE(arbitre::testing::score_dice(truth, a.observation).roll_right());
  expect_none_lost(a, b, "a die read without the stretch is read otherwise with it", 0.25, true);
}

// Seed 16100's scene 92 (tests/data/dice/redness): the glossy red 6 in the tray, whose top face
// a light's highlight pales to pink, its printed gold digit about as light as the face: no place
// reads it on the grey, stretched or not. On 255 - a* its digit is bright on a dark face (gold is
// far less red than pink), and it is read right there, the roll with it; every die read without
// the step is read the same.
TEST(DiceReader, ARedDieTheGreyReadsNothingOnIsReadOnItsRedness) {
  const auto [truth, a, b, sa, sb] =
      read_with_and_without("redness", "16100-0092", &vd::Params::redness_plane, false);
  const auto& red6 = truth["dice"][2];
  ASSERT_EQ(red6["value"], 6);
  ASSERT_EQ(red6["colour"], "red");
  ASSERT_FALSE(red6["cocked"].get<bool>());
  EXPECT_EQ(sb.outcome[2], "unread");
  EXPECT_EQ(sa.outcome[2], "right");
  EXPECT_EQ(sa.flat_right, sb.flat_right + 1);
  EXPECT_TRUE(sa.roll_right());
  expect_none_lost(a, b, "a die read without the redness is read otherwise with it", 0.25, true);
}

// Seed 9200's scene 98 (tests/data/dice/reread): the red 7 is read as a 3 on a side face, 0.7
// radius from its top one; the face check finds it off where the other dice put a flat die's top
// face and leaves it unread. Its faces lie that far off only on a side face (a leaning die's
// upward face lies 0.15-0.4 off): it is read again where the fit puts its top face, the 7 is read
// there, the whole roll right; every die read without read the same with.
TEST(DiceReader, ADieReadOnASideFaceIsReadAgainWhereTheFitPutsItsTopFace) {
  // Its scene was chosen on the reader with its networks in floats.
  const vd::Model& as_trained = arbitre::testing::networks_as_trained();
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "reread", "9200-0098");
  ASSERT_FALSE(image.empty());
  // The reading again of a die read on a side face alone: the lean network's word (Params::
  // check_reread_flat, since the forty-first session) reads this die again too.
  vd::Params with;
  at_the_level(with);
  with.check_reread_flat = 0;
  ASSERT_GT(with.check_reread_from, 0);
  ASSERT_FALSE(with.check_reread);
  vd::Params without = with;
  without.check_reread_from = 0;
  const vd::Detection a = vd::detect(image, with, as_trained),
                      b = vd::detect(image, without, as_trained);
  const auto& die = truth["dice"][0];
  expect_read_only_with(truth, die, a, b,
                        "a die read without the reading again is read otherwise with it");
  // Where it was read at first: on a side face, half a radius or more from its top one.
  const int kb = seen_at(b.observation.dice, die);
  ASSERT_GE(kb, 0);
  const cv::Point2d face = b.face[static_cast<std::size_t>(kb)];
  EXPECT_GT(
      std::hypot(face.x - die["face"]["x"].get<double>(), face.y - die["face"]["y"].get<double>()),
      0.5 * die["radius_px"].get<double>());
}

// Seed 8300's scene 49 (tests/data/dice/leanflat): the red 4 lies flat, a fifth of it hidden; the
// check placed its centre 0.17 radius off (its top face right), so that its shift measured lies
// past the opaque dice's bound, and it was left unread. The lean network, shown the whole die,
// takes it for flat: it is read again where the fit puts its top face, right, the whole roll
// right, and every die read without is read the same with. (Until the forty-second session's lean
// network, seed 6000's scene 36, whose red 7 that network no longer takes for flat surely enough.)
TEST(DiceReader, ADieTheCheckFindsOffButTheLeanNetworkTakesForFlatIsReadAgainAtItsFittedFace) {
  // Its scene was chosen on the reader with its networks in floats.
  const vd::Model& as_trained = arbitre::testing::networks_as_trained();
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "leanflat", "8300-0049");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  at_the_level(with);
  ASSERT_GT(with.check_reread_flat, 0);
  vd::Params without;
  at_the_level(without);
  without.check_reread_flat = 0;
  const vd::Detection a = vd::detect(image, with, as_trained),
                      b = vd::detect(image, without, as_trained);
  const auto& die = truth["dice"][3];
  expect_read_only_with(truth, die, a, b, "a die read without the step is read otherwise with it");
  // The step is the lean network's word: the lean network asked here only (lean_bound 0), the
  // red 4 is read with the model's and left unread with one that takes every die for leaning.
  vd::Params here_only = with;
  here_only.lean_bound = 0;
  vd::Model leaning = as_trained;
  ASSERT_EQ(leaning.lean_cnn.b4.size(), 2u);
  std::fill(leaning.lean_cnn.w4.begin(), leaning.lean_cnn.w4.end(), 0.0f);
  leaning.lean_cnn.b4 = {-10.0f, 10.0f};  // class 1: leans
  EXPECT_EQ(value_seen(vd::detect(image, here_only, as_trained), die), die["value"].get<int>());
  EXPECT_EQ(value_seen(vd::detect(image, here_only, leaning), die), 0);
}

// Seed 8300's scene 96 (tests/data/dice/rereadclear): the clear white 8 is read at a face 0.2
// radius off its top one, off where the other dice put it; the lean network takes it for flat,
// and the check reads it again where the fit puts its top face. The digit networks alone read
// nothing sure there (the digits of its other faces show through); with the clear networks mixed
// in, as for a die left unread, it is read right, the whole roll too, and every die read without
// is read the same with.
TEST(DiceReader, ATransparentDieTheCheckReadsAgainIsReadWithTheClearNetworks) {
  // Its scene was chosen on the reader with its networks in floats.
  const vd::Model& as_trained = arbitre::testing::networks_as_trained();
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "rereadclear", "8300-0096");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  at_the_level(with);
  axis_bound_as_before(with);
  ASSERT_TRUE(with.check_reread_clear);
  vd::Params without = with;
  without.check_reread_clear = false;
  const vd::Detection a = vd::detect(image, with, as_trained),
                      b = vd::detect(image, without, as_trained);
  const auto& die = truth["dice"][9];
  ASSERT_EQ(die["texture"], "transparent");
  ASSERT_EQ(die["colour"], "white");
  expect_read_only_with(truth, die, a, b,
                        "a die read without the clear networks is read otherwise with them");
  // Read again on the lean network's word: without it, left unread.
  vd::Params unasked;
  axis_bound_as_before(unasked);
  unasked.check_reread_flat = 0;
  EXPECT_EQ(value_seen(vd::detect(image, unasked, as_trained), die), 0);
}

// Seed 9200's scene 92 (tests/data/dice/fromface): the red 4 touches a white die behind it, and
// the centre network draws its centre toward it (0.5 radius off), so that its top face, found
// right, lies off where the other dice put a flat die's from there: the face check leaves it
// unread. Placed again from under its face, its centre stays there and the check passes: the red
// 4 is read, the whole roll right, and every die read without is read the same with.
TEST(DiceReader, AnOpaqueDieWhoseCentreIsDrawnOffIsCheckedFromUnderItsFace) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "fromface", "9200-0092");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  at_the_level(with);
  ASSERT_GT(with.check_from_face, 0);
  vd::Params without;
  at_the_level(without);
  without.check_from_face = 0;
  const vd::Detection a = vd::detect(image, with), b = vd::detect(image, without);
  const auto& die = truth["dice"][2];
  ASSERT_EQ(die["texture"], "none");
  expect_read_only_with(truth, die, a, b, "a die read without the step is read otherwise with it");
  // Where the check measured it from at first: off the true centre.
  const int kb = seen_at(b.observation.dice, die);
  ASSERT_GE(kb, 0);
  const cv::Point2d centre = b.check_centre[static_cast<std::size_t>(kb)];
  EXPECT_GT(std::hypot(centre.x - die["x"].get<double>(), centre.y - die["y"].get<double>()),
            0.3 * die["radius_px"].get<double>());
}

// A patch of bare wood at the top of the image (seed 9000's scene 51; tests/data/dice/plain):
// the presence networks take it for a die (0.90) and it is reported as a red die unread; the red
// 1 touching the red 8 is turned down beside it. Nothing in it varies as on a die: it is plain,
// no die; the red 1 is found, the whole roll read right.
TEST(DiceReader, APatchAsPlainAsABareTableIsNoDie) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "plain", "9000-0051");
  ASSERT_FALSE(image.empty());
  const vd::Params with;
  ASSERT_GT(with.plain_contrast, 0);
  vd::Params without;
  without.plain_contrast = 0;
  const vd::Detection a = vd::detect(image, with), b = vd::detect(image, without);
  const auto before = arbitre::testing::score_dice(truth, b.observation);
  EXPECT_EQ(before.phantoms, 1);
  EXPECT_EQ(before.missed, 1);
  cv::Mat grey;
  cv::cvtColor(image, grey, cv::COLOR_BGR2GRAY);
  // The phantom: on bare wood, plain.
  for (const auto& o : b.observation.dice) {
    const bool near_true =
        std::any_of(truth["dice"].begin(), truth["dice"].end(), [&](const nlohmann::json& t) {
          return std::hypot(t["x"].get<double>() - o.x, t["y"].get<double>() - o.y) <
                 2 * t["radius_px"].get<double>();
        });
    if (!near_true) {
      EXPECT_EQ(o.value, 0);
      EXPECT_TRUE(vd::plain(grey, {o.x, o.y}, b.die_radius, with));
    }
  }
  // No die is plain.
  for (const auto& t : truth["dice"]) {
    EXPECT_FALSE(vd::plain(grey, {t["x"].get<double>(), t["y"].get<double>()},
                           t["radius_px"].get<double>(), with))
        << "the " << t["colour"] << " " << t["value"] << " is plain";
  }
  EXPECT_TRUE(arbitre::testing::score_dice(truth, a.observation).roll_right());
}

// Ten dice seen from close by (fresh seed 6500's scene 20, the dice 52-74 pixels in radius;
// tests/data/dice/resize): their digits are windows of their own and outnumber the dice, and the
// dice were chosen at a digit's size (a third of theirs): none read right. Fewer than four dice
// read, they are chosen again at the size of the surer larger candidates: most of them read right,
// fewer missed or doubled.
TEST(DiceReader, DiceChosenAtADigitsSizeAreChosenAgainAtTheLargerSize) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "resize", "6500-0020");
  ASSERT_FALSE(image.empty());
  vd::Params with;
  face_check_as_before(with);
  ASSERT_GT(with.resize_reads, 0);
  vd::Params without = with;
  without.resize_reads = 0;
  const vd::Detection a = vd::detect(image, with), b = vd::detect(image, without);
  std::vector<double> radii;
  for (const auto& die : truth["dice"]) radii.push_back(die["radius_px"].get<double>());
  std::sort(radii.begin(), radii.end());
  const double true_radius = radii[radii.size() / 2];
  EXPECT_LT(b.die_radius, 0.5 * true_radius) << "chosen at the die's size without";
  EXPECT_GT(a.die_radius, 0.8 * true_radius);
  EXPECT_LT(a.die_radius, 1.25 * true_radius);
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  EXPECT_LE(sb.flat_right, 1);
  // Half of them (7 until the face check's bound for opaque dice, which leaves two of these close
  // dice unread: 2026-12-04, twenty-seventh session).
  EXPECT_GE(sa.flat_right, 5);
  EXPECT_LT(sa.missed + sa.doubled, sb.missed + sb.doubled);
}

// Scene 9 of seed 6000 (tests/data/dice/empty/6000-0009): a window on the squares of the score
// sheet takes a place among the ten (presence 0.64, its likeliest value 0.13: over the 0.1 of a
// die that read nothing), and a frosted white die is turned down as an eleventh.
// One of eleven is no die: with a die turned down as an eleventh the bounds are looser (0.9 and
// 0.2), the dice are chosen again without the window, and the white die is found and read.
TEST(DiceReader, AmongElevenADieThatReadsLittleGivesItsPlace) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "empty", "6000-0009");
  ASSERT_FALSE(image.empty());
  vd::Params with, without;
  at_the_level(with);
  at_the_level(without);
  before_ruled_lines(with);
  before_ruled_lines(without);
  without.empty_crowded_presence = without.empty_presence;
  without.empty_crowded_best = without.empty_best;
  ASSERT_GT(with.empty_crowded_presence, with.empty_presence);
  ASSERT_GT(with.empty_crowded_best, with.empty_best);
  const vd::Detection a = vd::detect(image, with, arbitre::testing::presence_as_before()),
                      b = vd::detect(image, without, arbitre::testing::presence_as_before());
  const auto before = arbitre::testing::score_dice(truth, b.observation);
  ASSERT_EQ(b.observation.dice.size(), 10U);
  EXPECT_TRUE(b.emptied.empty()) << "within the bounds of a die that read nothing";
  EXPECT_TRUE(std::any_of(b.candidates.begin(), b.candidates.end(),
                          [](const vd::Candidate& c) { return c.why == vd::kEleventh; }));
  EXPECT_EQ(before.phantoms, 1);
  EXPECT_EQ(before.missed, 1);
  const auto after = arbitre::testing::score_dice(truth, a.observation);
  EXPECT_EQ(a.observation.dice.size(), 10U);
  EXPECT_EQ(after.phantoms, 0);
  EXPECT_EQ(after.missed, 0);
  EXPECT_EQ(after.flat_right, after.flat) << "every die read right";
}

// Seed 8400's scene 42 (tests/data/dice/hard): read with the presence network as it was before it
// was trained again with the reader's mistakes (train_dice --presence-hard), a window on the
// tray's far rim takes a place among the ten and the red 5 is turned down as an eleventh: a die
// reported where none lies, one missed. With the network trained again, which has seen such
// places among the windows the reader took for dice on its training scenes, the rim is no die:
// every die found and the whole roll read right.
TEST(DiceReader, ThePresenceNetworkTrainedOnTheReadersMistakesKnowsTheTraysRim) {
  const auto [truth, image] = arbitre::testing::committed_scene("dice", "hard", "8400-0042");
  ASSERT_FALSE(image.empty());
  vd::Params params;
  before_red_places(params);
  const vd::Detection a = vd::detect(image, params),
                      b = vd::detect(image, params, arbitre::testing::presence_as_before());
  const auto sa = arbitre::testing::score_dice(truth, a.observation);
  const auto sb = arbitre::testing::score_dice(truth, b.observation);
  expect_red_die_found_for_the_invented(truth, 0, 5, sa, sb);
  EXPECT_TRUE(std::any_of(b.candidates.begin(), b.candidates.end(),
                          [](const vd::Candidate& c) { return c.why == vd::kEleventh; }));
  EXPECT_TRUE(sa.roll_right());
}

using arbitre::testing::as_with_one_digit_network;
using arbitre::testing::one_digit_network;

// Frame 30 of the bundled Yams recording: a window between the white 6 and the red 7 beside it
// was chosen as a die and, re-centred where the window detector peaks, landed on the white 6,
// which was then reported twice, 6 pixels apart (by the reader with one digit network, as this
// test and the next read it: the two networks read the white 6 once without the steps they are
// about). A die
// re-centred onto a surer one is that die.
TEST(DiceReader, ADieReCentredOntoASurerOneIsThatDie) {
  const std::string frame =
      std::string(ARBITRE_TEST_DATA) + "/../../data/demo/recordings/yams/0030.jpg";
  const cv::Mat image = cv::imread(frame);
  ASSERT_FALSE(image.empty()) << frame;
  vd::Params with, without;
  at_the_level(with);
  at_the_level(without);
  with.presence_net = without.presence_net = 0;  // it tells that window from a die (below)
  without.respace_after = 0;
  as_with_one_digit_network(with);
  as_with_one_digit_network(without);
  const auto closest = [](const vd::Detection& d) {
    double nearest = 1e9;
    for (std::size_t a = 0; a < d.observation.dice.size(); ++a) {
      for (std::size_t b = a + 1; b < d.observation.dice.size(); ++b) {
        nearest = std::min(nearest, std::hypot(d.observation.dice[a].x - d.observation.dice[b].x,
                                               d.observation.dice[a].y - d.observation.dice[b].y));
      }
    }
    return nearest / d.die_radius;
  };
  const vd::Detection b = vd::detect(image, without, one_digit_network());
  EXPECT_LT(closest(b), 0.5) << "the white 6 twice";
  const vd::Detection a = vd::detect(image, with, one_digit_network());
  EXPECT_GE(closest(a), with.min_spacing * 0.9);
  const auto sixes = std::count_if(
      a.observation.dice.begin(), a.observation.dice.end(),
      [](const DieSighting& o) { return o.value == 6 && o.colour == DieColour::White; });
  EXPECT_EQ(sixes, 1);
}

// The presence network sees a wider crop than the reader's (the die's outline and what lies
// around it). The window on the tray's corner and the window between the white 6 and the red 7
// of the two tests above are not dice to it: neither is chosen, without choosing again or
// re-centring.
TEST(DiceReader, ThePresenceNetworkTellsAWindowBesideTheDiceFromADie) {
  ASSERT_FALSE(vd::default_model().presence_cnn.empty());
  vd::Params with, without;
  at_the_level(with);
  at_the_level(without);
  with.empty_again = without.empty_again = false;
  with.respace_after = without.respace_after = 0;
  without.presence_net = 0;
  before_red_places(with);
  before_red_places(without);
  without_faint(with);
  without_faint(without);
  const fs::path dir = fs::path(ARBITRE_TEST_DATA) / "dice" / "empty";
  const auto truth = nlohmann::json::parse(std::ifstream(dir / "0094.json"));
  const cv::Mat scene = cv::imread((dir / truth["image"].get<std::string>()).string());
  ASSERT_FALSE(scene.empty());
  const auto before = arbitre::testing::score_dice(truth, vd::detect(scene, without).observation);
  const auto after = arbitre::testing::score_dice(truth, vd::detect(scene, with).observation);
  EXPECT_EQ(before.phantoms, 1) << "the tray's corner";
  EXPECT_EQ(after.phantoms, 0);
  EXPECT_EQ(after.missed, 0);
  EXPECT_EQ(after.flat_right, after.flat);

  const cv::Mat frame =
      cv::imread(std::string(ARBITRE_TEST_DATA) + "/../../data/demo/recordings/yams/0030.jpg");
  ASSERT_FALSE(frame.empty());
  const auto white_sixes = [](const vd::Detection& d) {
    return std::count_if(
        d.observation.dice.begin(), d.observation.dice.end(),
        [](const DieSighting& o) { return o.value == 6 && o.colour == DieColour::White; });
  };
  as_with_one_digit_network(with);
  as_with_one_digit_network(without);
  EXPECT_EQ(white_sixes(vd::detect(frame, without, one_digit_network())), 2)
      << "the white 6 twice (one digit network)";
  EXPECT_EQ(white_sixes(vd::detect(frame, with, one_digit_network())), 1);
}
