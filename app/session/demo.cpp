#include "app/session/demo.h"

#include <algorithm>
#include <climits>
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
class CommandedSource : public ObservationSource {
 public:
  CommandedSource(std::unique_ptr<ObservationSource> frames, std::vector<std::pair<long, std::string>> commands)
      : frames_(std::move(frames)), commands_(std::move(commands)) {}

  SourceStep next() override {
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
      ++frames_seen_;
      seconds_ = step.seconds;
    }
    return step;
  }

 private:
  std::unique_ptr<ObservationSource> frames_;
  std::vector<std::pair<long, std::string>> commands_;
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
                std::vector<std::pair<long, std::string>>& commands) {
  const fs::path path = dir / "truth.json";
  if (!fs::exists(path)) return;
  const data::JsonReader reader(path.string());
  const json truth = reader.parse(data::read_text_file(path.string()));
  if (!truth.is_object()) reader.fail("top level", "expected an object");
  if (const auto fps = json_number(truth, "fps")) camera.fps = *fps;
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
}

// The recording in `dir` through the camera path, the commands of its truth interleaved.
void play_recording(const std::string& dir, GameKind kind, Demo& demo) {
  CameraOptions camera;
  std::vector<std::pair<long, std::string>> commands;
  read_truth(dir, demo, camera, commands);
  auto frames = open_camera((fs::path(dir) / "%04d.jpg").string(), kind, camera);
  demo.source = commands.empty() ? std::move(frames)
                                 : std::make_unique<CommandedSource>(std::move(frames), std::move(commands));
  demo.from = dir;
}

}  // namespace

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
