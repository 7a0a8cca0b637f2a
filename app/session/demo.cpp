#include "app/session/demo.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "app/session/camera_source.h"
#include "data/input_error.h"
#include "data/json_reader.h"
#include "scoring/irma/score.h"
#include "scoring/yams/sheet.h"

#ifndef ARBITRE_DEMO_RECORDINGS_DIR
#define ARBITRE_DEMO_RECORDINGS_DIR ""
#endif

namespace arbitre::app::session {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr double kFps = 10;
constexpr int kSettle = 10;  // frames a position is shown: one second, enough to settle
constexpr int kHand = 3;     // frames of a hand over the table: too short to settle

class Timeline {
 public:
  void show(Script& script, SourceStep step, int frames) {
    for (int f = 0; f < frames; ++f) {
      step.seconds = t_;
      script.steps.push_back(step);
      t_ += 1 / kFps;
    }
  }
  void event(Script& script, SourceStep::Kind kind, std::string text = {}) {
    SourceStep step;
    step.kind = kind;
    step.seconds = t_;
    step.text = std::move(text);
    script.steps.push_back(std::move(step));
  }

 private:
  double t_ = 0;
};

// Pions as the detector reports them: the top-left pion's row and the leftmost column are 0.
SourceStep pions_seen(const std::map<ri::Cell, ri::Colour>& board) {
  vision::PionObservation o;
  o.width = 1280;
  o.height = 720;
  int row = INT_MAX, col = INT_MAX;
  for (const auto& [cell, colour] : board) {
    row = std::min(row, cell.row);
    col = std::min(col, cell.col);
  }
  for (const auto& [cell, colour] : board) {
    const int r = cell.row - row, c = cell.col - col;
    o.pions.push_back({r, c, colour, 300.0 + 60 * c, 120.0 + 60 * r, 1.0});
  }
  SourceStep step;
  step.pions = std::move(o);
  return step;
}

// The board with a hand reaching for `cell`: the pions around it are hidden.
std::map<ri::Cell, ri::Colour> under_hand(std::map<ri::Cell, ri::Colour> board, ri::Cell cell) {
  std::erase_if(board, [&](const auto& entry) {
    return std::abs(entry.first.row - cell.row) <= 1 && std::abs(entry.first.col - cell.col) <= 2;
  });
  return board;
}

vision::DieSighting sighting(const ry::Die& die, vision::DieZone zone, double x, double y) {
  vision::DieSighting s;
  s.value = die.value;
  s.colour = die.colour;
  if (die.texture != ry::Texture::None) s.texture = die.texture;
  s.zone = zone;
  s.x = x;
  s.y = y;
  s.confidence = 1;
  return s;
}

SourceStep dice_seen(std::vector<vision::DieSighting> dice) {
  vision::DiceObservation o;
  o.width = 1280;
  o.height = 720;
  o.dice = std::move(dice);
  SourceStep step;
  step.dice = std::move(o);
  return step;
}

std::optional<double> json_number(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

// Commands typed while a recording plays: what the camera cannot see (a box chosen, a declared
// sixth roll, a roll with every die kept). The recording's frames pass through; a command is
// given just before the frame it is for (frames counted from 0), the rest before the end.
// The players' answers to the referee (RecordedPlayers) come before anything else.
class CommandedSource : public ObservationSource {
 public:
  CommandedSource(std::unique_ptr<ObservationSource> frames, std::vector<std::pair<long, std::string>> commands,
                  std::shared_ptr<RecordedPlayers> players)
      : frames_(std::move(frames)), commands_(std::move(commands)), players_(std::move(players)) {}

  SourceStep next() override {
    if (players_) {
      if (auto line = players_->answer()) {
        SourceStep step;
        step.kind = SourceStep::Kind::Command;
        step.seconds = seconds_;
        step.text = std::move(*line);
        return step;
      }
    }
    if (!held_) held_ = frames_->next();
    const bool frame = held_->kind == SourceStep::Kind::Observation;
    const bool ended = held_->kind == SourceStep::Kind::Ended;
    if (next_ < commands_.size() && (ended || (frame && commands_[next_].first <= frames_seen_))) {
      SourceStep step;
      step.kind = SourceStep::Kind::Command;
      step.seconds = seconds_;
      step.text = commands_[next_++].second;
      return step;
    }
    SourceStep step = std::move(*held_);
    held_.reset();
    if (frame) {
      if (players_) players_->at_frame(frames_seen_);
      ++frames_seen_;
      seconds_ = step.seconds;
    }
    return step;
  }

 private:
  std::unique_ptr<ObservationSource> frames_;
  std::vector<std::pair<long, std::string>> commands_;
  std::shared_ptr<RecordedPlayers> players_;
  std::size_t next_ = 0;
  std::optional<SourceStep> held_;
  long frames_seen_ = 0;
  double seconds_ = 0;
};

std::vector<std::pair<double, double>> polygon(const data::JsonReader& reader, const json& points,
                                               const std::string& where) {
  if (!points.is_array()) reader.fail(where, "expected a list of [x, y] points");
  std::vector<std::pair<double, double>> out;
  for (const json& p : points) {
    if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number()) {
      reader.fail(where, "expected [x, y] points");
    }
    out.emplace_back(p[0].get<double>(), p[1].get<double>());
  }
  return out;
}

// The recording's ground truth, as far as it says: "fps", "players", "scores" (an object
// name -> points, or a list of {"player", "score"}); for Yams "zones" (the tray and the kept
// area, polygons in image pixels) and "commands" (a list of {"frame", "command"}).
void read_truth(const fs::path& dir, Demo& demo, CameraOptions& camera,
                std::vector<std::pair<long, std::string>>& commands,
                std::vector<RecordedPlayers::Shot>& shots, int& width) {
  const fs::path path = dir / "truth.json";
  if (!fs::exists(path)) return;
  const data::JsonReader reader(path.string());
  const json truth = reader.parse(data::read_text_file(path.string()));
  if (!truth.is_object()) reader.fail("top level", "expected an object");
  if (const auto fps = json_number(truth, "fps")) camera.fps = *fps;
  if (const auto w = json_number(truth, "width")) width = static_cast<int>(*w);
  if (const auto it = truth.find("players"); it != truth.end() && it->is_array()) {
    demo.players.clear();
    for (const json& name : *it) demo.players.push_back(reader.string(name, "players"));
  }
  if (const auto it = truth.find("scores"); it != truth.end()) {
    if (it->is_object()) {
      for (const auto& [name, score] : it->items()) {
        demo.expected.push_back({name, reader.integer(score, "scores." + name, -100000, 100000), std::nullopt});
      }
    } else if (it->is_array()) {
      for (const json& entry : *it) {
        demo.expected.push_back({reader.string(reader.field(entry, "player", "scores"), "scores.player"),
                                 reader.integer(reader.field(entry, "score", "scores"), "scores.score",
                                                -100000, 100000),
                                 entry.contains("plus") ? std::optional<bool>(entry.value("plus", false))
                                                        : std::nullopt});
      }
    }
  }
  if (const auto it = truth.find("zones"); it != truth.end() && it->is_object()) {
    if (it->contains("tray")) camera.zones.tray = polygon(reader, (*it)["tray"], "zones.tray");
    if (it->contains("kept")) camera.zones.kept = polygon(reader, (*it)["kept"], "zones.kept");
  }
  if (const auto it = truth.find("commands"); it != truth.end() && it->is_array()) {
    for (const json& entry : *it) {
      commands.emplace_back(reader.integer(reader.field(entry, "frame", "commands"), "commands.frame", 0, INT_MAX),
                            reader.string(reader.field(entry, "command", "commands"), "commands.command"));
    }
    std::stable_sort(commands.begin(), commands.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
  }
  if (const auto it = truth.find("shots"); it != truth.end() && it->is_array() && demo.kind == GameKind::Yams) {
    for (const json& entry : *it) {
      const json& frames = reader.field(entry, "frames", "shots");
      if (!frames.is_array() || frames.size() != 2) reader.fail("shots.frames", "expected [first, last]");
      RecordedPlayers::Shot shot;
      shot.rolled = entry.value("kind", "") == "rolled";
      shot.first = reader.integer(frames[0], "shots.frames", 0, INT_MAX);
      shot.last = reader.integer(frames[1], "shots.frames", 0, INT_MAX);
      const json& dice = reader.field(entry, "dice", "shots");
      if (!dice.is_array()) reader.fail("shots.dice", "expected a list");
      for (const json& d : dice) {
        RecordedPlayers::Die die;
        die.face.value = static_cast<std::uint8_t>(
            reader.integer(reader.field(d, "value", "shots.dice"), "shots.dice.value", 1, 10));
        die.face.colour = reader.string(reader.field(d, "colour", "shots.dice"), "shots.dice.colour") == "red"
                              ? ry::DieColour::Red
                              : ry::DieColour::White;
        die.kept = reader.string(reader.field(d, "zone", "shots.dice"), "shots.dice.zone") == "kept";
        die.x = json_number(d, "x").value_or(-1);
        die.y = json_number(d, "y").value_or(-1);
        shot.dice.push_back(die);
      }
      shots.push_back(std::move(shot));
    }
  }
}

// The recording in `dir` through the camera path, the commands of its truth interleaved.
void play_recording(const std::string& dir, GameKind kind, Demo& demo) {
  CameraOptions camera;
  std::vector<std::pair<long, std::string>> commands;
  std::vector<RecordedPlayers::Shot> shots;
  int width = 0;
  read_truth(dir, demo, camera, commands, shots, width);
  if (kind == GameKind::Yams && !shots.empty() && width > 0) {
    demo.table = std::make_shared<RecordedPlayers>(std::move(shots), width);
  }
  auto frames = open_camera((fs::path(dir) / "%04d.jpg").string(), kind, camera);
  demo.source = commands.empty() && !demo.table
                    ? std::move(frames)
                    : std::make_unique<CommandedSource>(std::move(frames), std::move(commands), demo.table);
  demo.from = dir;
}

}  // namespace

const RecordedPlayers::Shot* RecordedPlayers::shot() const {
  const auto it = std::find_if(shots_.begin(), shots_.end(),
                               [&](const Shot& s) { return s.first <= frame_ && frame_ <= s.last; });
  return it == shots_.end() ? nullptr : &*it;
}

std::optional<std::string> RecordedPlayers::answer() {
  if (answers_.empty()) return std::nullopt;
  std::string line = std::move(answers_.front());
  answers_.pop_front();
  return line;
}

void RecordedPlayers::hear(const Event& event) {
  if (const auto* unreadable = std::get_if<DiceUnreadable>(&event)) {
    // Once per settled scene (or refused roll): what the players typed is reported again.
    const Shot* truth = shot();
    if (!truth || unreadable->again) return;
    // A refused roll is typed only where the camera was wrong, and a few times a picture at most
    // (the referee may refuse the dice as they are: then there is nothing to type).
    const bool refused = unreadable->reason == "refused";
    if (refused) {
      if (refusals_frame_ != frame_) refusals_frame_ = frame_, refusals_ = 0;
      if (++refusals_ > 3) return;
    }
    const std::vector<vision::DieSighting>& seen = unreadable->scene;
    std::vector<bool> used(seen.size(), false);
    std::vector<std::string> wrong, added;
    std::vector<std::pair<std::size_t, std::string>> typed;  // the listed dice: index, value
    const double near = 0.04 * width_;
    for (const Die& die : truth->dice) {  // the nearest die seen is the die
      std::optional<std::size_t> best;
      double best_distance = near;
      for (std::size_t j = 0; j < seen.size(); ++j) {
        const double distance = std::hypot(seen[j].x - die.x, seen[j].y - die.y);
        if (!used[j] && distance < best_distance) best = j, best_distance = distance;
      }
      if (!best) {
        added.push_back("die + " + ry::to_text(die.face) + (die.kept ? " kept" : " tray"));
        continue;
      }
      used[*best] = true;
      const vision::DieSighting& s = seen[*best];
      const bool listed = !refused && std::find(unreadable->dice.begin(), unreadable->dice.end(),
                                                static_cast<int>(*best)) != unreadable->dice.end();
      if (listed) {
        typed.emplace_back(*best, ry::to_text(die.face));
      } else if (s.value != die.face.value || s.colour != die.face.colour) {
        wrong.push_back("die " + std::to_string(*best) + " " + ry::to_text(die.face));
      }
    }
    std::vector<std::string> removed;  // from the highest number down
    for (std::size_t j = seen.size(); j-- > 0;) {
      if (!used[j]) removed.push_back("die - " + std::to_string(j));
    }
    // In an order that makes the scene readable only with the last line (a scene readable too
    // early is taken as it is then): the dice read wrong, the dice that are none, the dice
    // missed, and last the dice listed as unread, numbered as they are once the others are gone.
    // (Lines not typed yet are of an older scene: this one replaces them.)
    answers_.clear();
    for (const auto* part : {&wrong, &removed, &added}) answers_.insert(answers_.end(), part->begin(), part->end());
    for (const auto& [index, value] : typed) {
      const auto gone = std::count_if(used.begin(), used.begin() + static_cast<std::ptrdiff_t>(index),
                                      [](bool u) { return !u; });
      answers_.push_back("die " + std::to_string(index - static_cast<std::size_t>(gone)) + " " + value);
    }
    if (answers_.empty()) return;
    ++tally_.scenes_typed;
    tally_.typed += static_cast<int>(wrong.size() + typed.size());
    tally_.added += static_cast<int>(added.size());
    tally_.removed += static_cast<int>(removed.size());
    return;
  }
  // A roll accepted: the dice as the referee has them against the dice on the table.
  const Rolled* rolled = std::get_if<Rolled>(&event);
  if (!rolled) return;
  ++tally_.rolls;
  const Shot* truth = shot();
  if (!truth) return;
  if (!rolled->manual && !truth->rolled) {  // no die was rolled: dice set aside
    ++tally_.undone;
    answers_.push_back("undo");
    return;
  }
  const ry::Dice& dice = rolled->dice;
  const std::uint16_t keep = rolled->keep;
  struct Left {
    int number;  // the game's die number (-1: a die of the truth)
    ry::Die face;
    bool kept;
  };
  std::vector<Left> read, real;
  for (std::size_t i = 0; i < dice.size(); ++i) {
    read.push_back({static_cast<int>(i), dice[i], ((keep >> i) & 1u) != 0});
  }
  for (const Die& d : truth->dice) real.push_back({-1, d.face, d.kept});
  std::vector<std::string> fixes;
  // Pairs off the dice left on both sides that `same` accepts; a pair that differs is corrected.
  const auto pair_off = [&](auto&& same) {
    for (auto r = read.begin(); r != read.end();) {
      const auto t = std::find_if(real.begin(), real.end(), [&](const Left& x) { return same(*r, x); });
      if (t == real.end()) {
        ++r;
        continue;
      }
      if (t->face != r->face) fixes.push_back("fix die " + std::to_string(r->number) + " " + ry::to_text(t->face));
      real.erase(t);
      r = read.erase(r);
    }
  };
  pair_off([](const Left& a, const Left& b) { return a.face == b.face && a.kept == b.kept; });
  pair_off([](const Left& a, const Left& b) { return a.face == b.face; });
  pair_off([](const Left& a, const Left& b) { return a.face.colour == b.face.colour && a.kept == b.kept; });
  pair_off([](const Left& a, const Left& b) { return a.face.colour == b.face.colour; });
  pair_off([](const Left&, const Left&) { return true; });
  if (fixes.empty()) return;
  ++tally_.rolls_fixed;
  tally_.fixed += static_cast<int>(fixes.size());
  answers_.insert(answers_.end(), fixes.begin(), fixes.end());
}

std::optional<std::string> demo_recording_dir(GameKind kind) {
  const char* env = std::getenv("ARBITRE_DEMO_RECORDINGS");
  const fs::path root = env && *env ? fs::path(env) : fs::path(ARBITRE_DEMO_RECORDINGS_DIR);
  if (root.empty()) return std::nullopt;
  const fs::path dir = root / std::string(data::store::to_text(kind));
  std::error_code error;
  if (!fs::exists(dir / "0000.jpg", error)) return std::nullopt;
  return dir.string();
}

Script irma_demo_script(const data::irma::GameRecord& record) {
  Script script;
  script.game = GameKind::Irma;
  Timeline time;
  for (std::size_t p = 0; p < record.players.size(); ++p) {
    std::map<ri::Cell, ri::Colour> board;
    time.show(script, pions_seen(board), kSettle);  // an empty table
    std::vector<ri::Verdict> verdicts;
    ri::State state;
    ri::replay(record.players[p].record, state,
               [&](const ri::Move&, const ri::Verdict& v, const ri::State&) { verdicts.push_back(v); });
    const std::vector<ri::Move>& moves = record.players[p].record.moves;
    for (std::size_t m = 0; m < moves.size() && m < verdicts.size(); ++m) {
      const ri::Move& move = moves[m];
      if (!move.cell) {
        time.event(script, SourceStep::Kind::Command, "blocked " + std::string(ri::to_string(move.colour)));
        continue;
      }
      if (p == 0 && m == moves.size() / 2) {  // the webcam's cable is pulled, then pushed back
        time.event(script, SourceStep::Kind::Lost, "demo: the camera was unplugged");
        time.event(script, SourceStep::Kind::Reconnected);
      }
      time.show(script, pions_seen(under_hand(board, *move.cell)), kHand);
      std::map<ri::Cell, ri::Colour> placed = board;
      placed[*move.cell] = move.colour;
      time.show(script, pions_seen(placed), kSettle);
      if (verdicts[m].legal()) board = std::move(placed);
    }
  }
  return script;
}

Script yams_demo_script(const data::yams::GameRecord& record) {
  Script script;
  script.game = GameKind::Yams;
  Timeline time;
  int rolls = 0;  // every roll of the game: rolled dice land left and right in turn
  ry::Dice dice{};
  std::uint16_t previous_keep = 0;
  std::array<std::pair<double, double>, ry::kDiceCount> at{};
  const auto tray = [&](std::size_t i) {
    const double left = rolls % 2 == 0 ? 200 : 700;
    return std::make_pair(left + 80.0 * static_cast<double>(i % 5) + 7.0 * static_cast<double>(i % 3),
                          180.0 + 110.0 * static_cast<double>(i / 5) + 9.0 * static_cast<double>(i % 4));
  };
  const auto scene = [&](std::uint16_t keep, std::uint16_t hidden) {
    std::vector<vision::DieSighting> out;
    for (std::size_t i = 0; i < dice.size(); ++i) {
      if ((hidden >> i) & 1u) continue;
      const bool aside = (keep >> i) & 1u;
      out.push_back(sighting(dice[i], aside ? vision::DieZone::Kept : vision::DieZone::Tray,
                             aside ? 150.0 + 100.0 * static_cast<double>(i) : at[i].first,
                             aside ? 620.0 : at[i].second));
    }
    return dice_seen(std::move(out));
  };
  int turn = -1;
  for (const data::yams::RecordedMove& recorded : record.moves) {
    const ry::Move& move = recorded.move;
    if (move.kind == ry::MoveKind::Declare) {
      time.event(script, SourceStep::Kind::Command, "declare " + std::string(ry::id(move.box)));
      continue;
    }
    if (move.kind == ry::MoveKind::Fill) {
      time.event(script, SourceStep::Kind::Command, "box " + std::string(ry::id(move.box)));
      continue;
    }
    const bool first = recorded.turn != turn;
    turn = recorded.turn;
    constexpr std::uint16_t kAll = (1u << ry::kDiceCount) - 1;
    if (first) {
      time.show(script, scene(0, kAll), kHand);  // the dice picked up
    } else {
      // Some dice set aside; those that were aside and will be rolled again wait there.
      time.show(script, scene(static_cast<std::uint16_t>(move.keep | previous_keep), 0), kSettle);
      if (move.keep == kAll) {  // nothing rolls: the camera cannot see the roll, say it
        time.event(script, SourceStep::Kind::Command, "roll");
        previous_keep = move.keep;
        continue;
      }
      time.show(script, scene(move.keep, static_cast<std::uint16_t>(kAll & ~move.keep)), kHand);
    }
    ++rolls;
    for (std::size_t i = 0; i < dice.size(); ++i) {
      if (!((move.keep >> i) & 1u)) at[i] = tray(i);
    }
    dice = move.dice;
    previous_keep = move.keep;
    time.show(script, scene(move.keep, 0), kSettle);
  }
  return script;
}

Demo make_demo(GameKind kind) {
  Demo demo;
  demo.kind = kind;
  if (kind == GameKind::Irma) {
    if (const auto dir = demo_recording_dir(kind)) {
      demo.players = {"player"};
      play_recording(*dir, kind, demo);
      return demo;
    }
    const auto record = data::irma::parse_record(data::irma::demo_record_text(), "irma-demo.json");
    demo.irma = record.options;
    for (const auto& player : record.players) {
      demo.players.push_back(player.name);
      ri::State state;
      ri::replay(player.record, state);
      demo.expected.push_back({player.name, scoring::irma::score(state), scoring::irma::has_plus(state)});
    }
    demo.source = std::make_unique<ScriptedSource>(irma_demo_script(record).steps);
    demo.from = "the bundled record data/demo/irma-demo.json, as a camera would see it played";
    return demo;
  }
  const auto record = data::yams::parse_record(data::yams::demo_record_text(), "yams-demo.json");
  demo.yams = record.options;
  demo.players = record.players;
  if (const auto dir = demo_recording_dir(kind)) {
    // The recording is of the bundled record: its options; its truth gives the rest.
    play_recording(*dir, kind, demo);
    return demo;
  }
  const ry::State state = data::yams::replay(record);
  for (std::size_t p = 0; p < record.players.size(); ++p) {
    demo.expected.push_back({record.players[p], scoring::yams::totals(state.sheets[p]).grand, std::nullopt});
  }
  demo.source = std::make_unique<ScriptedSource>(yams_demo_script(record).steps);
  demo.from = "the bundled record data/demo/yams-demo.json, as a camera would see it played";
  return demo;
}

}  // namespace arbitre::app::session
