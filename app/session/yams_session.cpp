#include "app/session/yams_session.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <numeric>
#include <tuple>

#include "app/session/game_log.h"
#include "scoring/yams/sheet.h"
#include "vision/dice.h"

namespace arbitre::app::session {
namespace {

namespace sy = scoring::yams;

bool kept(const vision::DieSighting& die) { return die.zone == vision::DieZone::Kept; }
// A die as the players say it shows: sure, flat.
void set_face(vision::DieSighting& sighting, const ry::Die& die) {
  sighting.value = die.value;
  sighting.colour = die.colour;
  if (die.texture != ry::Texture::None) sighting.texture = die.texture;
  sighting.confidence = 1;
  sighting.cocked = false;
}

// Whether a refusal of the referee can be the camera's doing: a die read as another face, or
// missed, or seen where there is none.
bool a_misread_can_cause(ry::Reason reason) {
  return reason == ry::Reason::KeptDieChanged || reason == ry::Reason::DieUnkept ||
         reason == ry::Reason::DieSwapped || reason == ry::Reason::BadDice ||
         reason == ry::Reason::KeepOnFirstRoll;
}

// Whether a die has a place in the image (one typed in with `die + VALUE` has none).
bool placed(const vision::DieSighting& die) { return die.x >= 0 && die.y >= 0; }

}  // namespace

YamsSession::YamsSession(data::store::Store* store, GameId game, const ry::Options& options,
                         std::vector<std::string> players, const SessionOptions& session,
                         Listener listener)
    : Session(store, game, std::move(listener)),
      game_(options, std::move(players)),
      stability_(session.dice_stability),
      automatic_(session.automatic),
      roll_distance_(session.roll_distance) {}

void YamsSession::observe(const SourceStep& step) {
  if (!step.dice) return;
  camera_angle_.add(step.dice->camera_tilt_deg);
  if (camera_angle_.past_surest() != camera_advised_) {
    camera_advised_ = !camera_advised_;
    emit(CameraAdvice{static_cast<int>(std::lround(*camera_angle_.degrees())),
                      static_cast<int>(vision::kDiceSurestTiltDeg), camera_advised_});
  }
  const DiceUpdate update = stability_.feed(*step.dice, step.seconds);
  switch (update.event) {
    case DiceEvent::None:
      return;
    case DiceEvent::Unstable:
      pending_.reset();
      if (settled_once_) emit(Unstable{});
      return;
    case DiceEvent::Unreadable:
      settled_once_ = true;
      pending_.reset();
      refused_.reset();
      if (!update.scene.dice.empty()) {
        pending_ = Pending{update.scene, false};
        emit(DiceUnreadable{update.reason, static_cast<int>(update.scene.dice.size()), update.dice,
                            update.scene.dice});
      }
      return;
    case DiceEvent::Settled:
      pending_.reset();
      refused_.reset();
      settled(update.scene);
      return;
  }
}

bool YamsSession::rolled(const vision::DiceObservation& before,
                         const vision::DiceObservation& scene) const {
  const bool positions = before.width > 0 && scene.width > 0;
  const double limit = roll_distance_ * scene.width;
  std::vector<bool> used(before.dice.size());
  for (const vision::DieSighting& die : scene.dice) {
    if (kept(die)) continue;
    std::optional<std::size_t> best;
    double best_distance = 0;
    for (std::size_t j = 0; j < before.dice.size(); ++j) {
      const vision::DieSighting& was = before.dice[j];
      if (used[j] || was.value != die.value || was.colour != die.colour) continue;
      if (was.texture && die.texture && *was.texture != *die.texture) continue;
      // A die typed in (`die + VALUE`) has no place: any die of its face may have been it, as a
      // last resort (a die of that face at its place is the better match).
      const bool unplaced = !placed(die) || !placed(was);
      const double distance = !positions ? 0 : unplaced ? limit : std::hypot(was.x - die.x, was.y - die.y);
      if (distance > limit) continue;
      if (!best || distance < best_distance) {
        best = j;
        best_distance = distance;
      }
    }
    if (!best) return true;
    used[*best] = true;
  }
  return false;
}

YamsSession::Mapped YamsSession::map_dice(const vision::DiceObservation& scene) const {
  const ry::State& state = game_.state();
  const auto& dice = scene.dice;
  const auto as_die = [&](const vision::DieSighting& d) {
    const ry::Texture texture =
        state.options.textures ? d.texture.value_or(ry::Texture::None) : ry::Texture::None;
    return ry::Die{static_cast<std::uint8_t>(d.value), d.colour, texture};
  };
  Mapped out;
  out.sighting.fill(-1);
  std::array<bool, ry::kDiceCount> used{};
  const auto assign = [&](std::size_t k, std::size_t i, bool keep_face) {
    used[i] = true;
    out.sighting[i] = static_cast<int>(k);
    out.seen[i] = as_die(dice[k]);
    out.dice[i] = keep_face ? state.turn.dice[i] : out.seen[i];
    if (kept(dice[k])) out.keep = static_cast<std::uint16_t>(out.keep | (1u << i));
  };
  std::vector<std::size_t> order(dice.size());
  std::iota(order.begin(), order.end(), 0);
  if (state.turn.rolls == 0) {
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return std::tuple(dice[a].colour, dice[a].x, dice[a].y) <
             std::tuple(dice[b].colour, dice[b].x, dice[b].y);
    });
    for (std::size_t n = 0; n < order.size() && n < used.size(); ++n) assign(order[n], n, false);
    return out;
  }
  const ry::Dice& seen = game_.seen();
  const ry::Dice& known = state.turn.dice;
  const auto free_die = [&](auto&& accepts) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < used.size(); ++i) {
      if (!used[i] && accepts(i)) return i;
    }
    return std::nullopt;
  };
  const auto aside = [&](std::size_t i) { return ((state.turn.aside >> i) & 1u) != 0; };
  // A die in the kept area is the die it was: the same face as read (one already aside first),
  // or the face the game knows; failing that, a die of its colour (the referee says it changed).
  // Each rule for every kept die before the next rule: a die read as another face must not take
  // the number of a die whose face another kept die shows.
  std::vector<bool> placed_kept(dice.size(), false);
  const auto keep_by = [&](bool keep_face, auto&& accepts) {
    for (const std::size_t k : order) {
      if (!kept(dice[k]) || placed_kept[k]) continue;
      const ry::Die die = as_die(dice[k]);
      if (const auto i = free_die([&](std::size_t i) { return accepts(i, die); })) {
        placed_kept[k] = true;
        assign(k, *i, keep_face);
      }
    }
  };
  keep_by(true, [&](std::size_t i, const ry::Die& die) { return seen[i] == die && aside(i); });
  keep_by(true, [&](std::size_t i, const ry::Die& die) { return seen[i] == die; });
  keep_by(true, [&](std::size_t i, const ry::Die& die) { return known[i] == die; });
  keep_by(false, [&](std::size_t i, const ry::Die& die) {
    return known[i].colour == die.colour && known[i].texture == die.texture;
  });
  keep_by(false, [](std::size_t, const ry::Die&) { return true; });
  // A rolled die takes a free number of its colour.
  for (const std::size_t k : order) {
    if (kept(dice[k])) continue;
    const ry::Die die = as_die(dice[k]);
    auto i = free_die([&](std::size_t i) {
      return known[i].colour == die.colour && known[i].texture == die.texture;
    });
    if (!i) i = free_die([](std::size_t) { return true; });
    if (i) assign(k, *i, false);
  }
  return out;
}

void YamsSession::settled(const vision::DiceObservation& scene) {
  const bool first = !settled_once_;
  settled_once_ = true;
  scene_ = scene;
  const bool is_roll = rolled(reference_, scene);
  reference_ = scene;
  if (!is_roll) {
    if (!first) emit(Stable{});
    return;
  }
  roll(scene, false, "");
}

void YamsSession::roll(const vision::DiceObservation& scene, bool manual, const std::string& line) {
  refused_.reset();
  const Mapped mapped = map_dice(scene);
  if (!act(game_, YamsGame::Action::roll(mapped.keep, mapped.dice, mapped.seen, manual), line)) {
    refused_ = Refusal{scene, mapped, manual};
    // A refusal a die read wrong, missed or seen where there is none can cause: the players may
    // type the dice of the roll, as of a scene the camera could not read.
    const ry::Verdict verdict = ry::check(game_.state(), ry::Move::roll(mapped.keep, mapped.dice));
    if (!a_misread_can_cause(verdict.reason)) return;
    DiceUnreadable typing{"refused", static_cast<int>(scene.dice.size()), {}, scene.dice};
    for (const int k : verdict.dice) {
      if (k >= 0 && k < ry::kDiceCount && mapped.sighting[static_cast<std::size_t>(k)] >= 0)
        typing.dice.push_back(mapped.sighting[static_cast<std::size_t>(k)]);
    }
    pending_ = Pending{scene, true};
    emit(typing);
    return;
  }
  if (automatic_ && !game_.over() && !ry::can_roll(game_.state())) fill_best("");
}

void YamsSession::fill_best(const std::string& line) {
  const auto best = game_.best_fill();
  if (!best) {
    refuse(line, game_.state().turn.rolls == 0 ? "roll the dice first"
                                               : "roll the declared sixth roll first");
    return;
  }
  act(game_, YamsGame::Action::fill(best->first, true), line);
}

bool YamsSession::game_command(const std::vector<std::string>& words, const std::string& line) {
  const auto box_word = [&](const std::string& word) -> std::optional<ry::Box> {
    const auto box = ry::box_from_id(word);
    if (!box) refuse(line, "unknown box \"" + word + "\" (chiffre-1 ... chiffre-10, brelan, ..., moins)");
    return box;
  };
  if (words[0] == "box") {
    if (words.size() == 1 || (words.size() == 2 && (words[1] == "best" || words[1] == "auto"))) {
      fill_best(line);
    } else if (words.size() != 2) {
      refuse(line, "expected: box ID (or box alone for the advisor's best box)");
    } else if (const auto box = box_word(words[1])) {
      act(game_, YamsGame::Action::fill(*box, false), line);
    }
    return true;
  }
  if (words[0] == "declare") {
    if (words.size() != 2) {
      refuse(line, "expected: declare ID");
    } else if (const auto box = box_word(words[1])) {
      act(game_, YamsGame::Action::declare(*box), line);
    }
    return true;
  }
  if (words[0] == "roll" && words.size() == 1) {
    if (!scene_) {
      refuse(line, "no dice have settled yet");
    } else {
      reference_ = *scene_;
      roll(*scene_, true, line);
    }
    return true;
  }
  if (words[0] == "die") {
    type_die(words, line);
    return true;
  }
  if (words[0] == "fix") {
    int die = -1;
    if (words.size() != 4 || words[1] != "die" ||
        std::from_chars(words[2].data(), words[2].data() + words[2].size(), die).ec !=
            std::errc()) {
      refuse(line, "expected: fix die N VALUE (N from 0 to 9, VALUE like 7r or 10w)");
      return true;
    }
    std::string problem;
    const auto value = ry::die_from_text(words[3], &problem);
    if (!value) {
      refuse(line, "die " + words[3] + ": " + problem);
      return true;
    }
    if (refused_ && die >= 0 && die < ry::kDiceCount &&
        refused_->mapped.sighting[static_cast<std::size_t>(die)] >= 0) {
      // The roll just refused (a die set aside read as another face, dice not five of each
      // colour): the die the roll numbered N really shows `value`; the scene so corrected is
      // numbered again (the die may be another die than the misread face made it) and refereed.
      vision::DiceObservation scene = refused_->scene;
      vision::DieSighting& sighting =
          scene.dice[static_cast<std::size_t>(refused_->mapped.sighting[static_cast<std::size_t>(die)])];
      set_face(sighting, *value);
      roll(scene, refused_->manual, line);
      return true;
    }
    act(game_, YamsGame::Action::fix_die(die, *value), line);
    return true;
  }
  return false;
}

void YamsSession::type_die(const std::vector<std::string>& words, const std::string& line) {
  if (!pending_) {
    refuse(line, "no unreadable dice to type: the dice settled readable, or are moving");
    return;
  }
  std::vector<vision::DieSighting>& dice = pending_->scene.dice;
  const auto index = [&](const std::string& word) -> std::optional<std::size_t> {
    std::size_t n = 0;
    const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), n);
    if (error != std::errc() || end != word.data() + word.size() || n >= dice.size()) {
      refuse(line, "die " + word + ": no such die in the unreadable scene (0 to " +
                       std::to_string(dice.size() - 1) + ")");
      return std::nullopt;
    }
    return n;
  };
  const auto value = [&](const std::string& word) -> std::optional<ry::Die> {
    std::string problem;
    const auto die = ry::die_from_text(word, &problem);
    if (!die) refuse(line, "die " + word + ": " + problem);
    return die;
  };
  if (words.size() == 3 && words[1] == "-") {  // a die seen that is not one
    const auto n = index(words[2]);
    if (!n) return;
    dice.erase(dice.begin() + static_cast<std::ptrdiff_t>(*n));
  } else if ((words.size() == 3 || words.size() == 4) && words[1] == "+") {  // a die not seen
    const auto die = value(words[2]);
    if (!die) return;
    vision::DieSighting sighting;
    sighting.x = sighting.y = -1;
    sighting.zone = vision::DieZone::Tray;
    if (words.size() == 4) {
      if (words[3] == "kept") {
        sighting.zone = vision::DieZone::Kept;
      } else if (words[3] != "tray") {
        refuse(line, "die + VALUE ZONE: the zone is kept or tray, not \"" + words[3] + "\"");
        return;
      }
    }
    set_face(sighting, *die);
    dice.push_back(sighting);
  } else if (words.size() == 3) {  // a die the camera could not read, or read wrong
    const auto n = index(words[1]);
    const auto die = n ? value(words[2]) : std::nullopt;
    if (!die) return;
    set_face(dice[*n], *die);
  } else {
    refuse(line, "expected: die N VALUE, die + VALUE [kept|tray] or die - N (N as the "
                 "dice-unreadable event lists the dice)");
    return;
  }
  DiceUnreadable still;
  if (stability_.why_unreadable(pending_->scene, still.reason, still.dice)) {
    still.seen = static_cast<int>(dice.size());
    still.scene = dice;
    still.again = true;
    emit(still);
    return;
  }
  const Pending typed = std::move(*pending_);
  pending_.reset();
  const vision::DiceObservation& scene = typed.scene;
  stability_.typed(scene);
  if (!typed.refused) {
    settled(scene);
    return;
  }
  scene_ = scene;  // the refused roll's dice, typed: refereed again
  reference_ = scene;
  roll(scene, refused_ ? refused_->manual : false, line);
}

std::string YamsSession::commands() const {
  return "box ID, box, declare ID, roll, fix die N VALUE, die N VALUE, die + VALUE [kept|tray], "
         "die - N, undo, redo, abandon, quit";
}

void YamsSession::undo(const std::string& line) { act(game_, YamsGame::Action::undo(), line); }

void YamsSession::redo(const std::string& line) { act(game_, YamsGame::Action::redo(), line); }

std::vector<data::store::PlayerResult> YamsSession::results() const {
  std::vector<data::store::PlayerResult> out;
  for (std::size_t p = 0; p < game_.players().size(); ++p) {
    const ry::Sheet& sheet = game_.state().sheets[p];
    out.push_back({game_.players()[p], sy::totals(sheet).grand, yams_sheet_json(sheet)});
  }
  return out;
}

vision::DiceObservation YamsSession::known_scene() const {
  vision::DiceObservation scene;
  if (game_.moves().empty()) return scene;
  const ry::Turn& turn = game_.state().turn;
  for (int i = 0; i < ry::kDiceCount; ++i) {
    const ry::Die& die = game_.seen()[static_cast<std::size_t>(i)];
    vision::DieSighting s;
    s.value = die.value;
    s.colour = die.colour;
    if (die.texture != ry::Texture::None) s.texture = die.texture;
    s.zone = turn.rolls > 0 && ((turn.aside >> i) & 1u) ? vision::DieZone::Kept : vision::DieZone::Tray;
    s.confidence = 1;
    scene.dice.push_back(s);
  }
  return scene;
}

void YamsSession::replay(const std::vector<data::store::Event>& events) {
  replay_events(game_, events, game());
  reference_ = known_scene();
}

Started YamsSession::summary() const {
  Started started;
  started.game = game();
  started.kind = GameKind::Yams;
  started.players = game_.players();
  started.to_move = game_.to_move();
  started.score = sy::totals(game_.state().sheets[static_cast<std::size_t>(game_.state().player)]).grand;
  return started;
}

}  // namespace arbitre::app::session
