#include "yams_sequence.h"

#include <algorithm>
#include <array>
#include <sstream>
#include <stdexcept>

#include "dice_scene.h"
#include "scoring/yams/sheet.h"

namespace arbitre::tools::scenegen {

namespace {

namespace ry = referee::yams;
using nlohmann::json;

constexpr std::uint16_t kAll = (1u << ry::kDiceCount) - 1;
constexpr double kDeg = M_PI / 180.0;

double tenth(double v) { return std::round(v * 10) / 10; }

bool in(std::uint16_t mask, int i) { return ((mask >> i) & 1u) != 0; }

// A picture to render: the table's snapshot, with or without the hand, and its truth.
struct Planned {
  int picture = 0;
  bool hand = false;
  int frames = 1;
  json truth;
  int same_as = -1;  // the earlier planned picture this one repeats (rendered once)
};

// A fist over the tray's middle holding the dice to roll, the forearm coming from the player's
// right (the camera's side, -z, and +x).
std::string fist_pov(Vec3 over) {
  const Vec3 fist = over + Vec3{0, 0.07, 0};
  const Vec3 wrist = fist + Vec3{0.045, 0.02, -0.04};
  const Vec3 elbow = wrist + Vec3{0.22, 0.12, -0.22};
  std::ostringstream s;
  s << "union {\n"
    << "  sphere { 0, 1 scale <0.045, 0.032, 0.05> rotate <0, -40, 0> translate " << pov(fist)
    << " }\n";
  for (int k = 0; k < 4; ++k) {  // knuckles of the curled fingers, toward the far side
    const Vec3 knuckle = fist + Vec3{-0.03 + 0.017 * k, -0.012, 0.03 + 0.006 * k};
    s << "  sphere { " << pov(knuckle) << ", 0.011 }\n";
  }
  s << "  cone { " << pov(wrist) << ", 0.026, " << pov(elbow) << ", 0.034 }\n"
    << "  sphere { " << pov(wrist) << ", 0.026 }\n"
    << "  pigment { color rgb <0.8, 0.56, 0.44> } finish { diffuse 0.8 specular 0.06 roughness "
       "0.1 }\n}\n";
  return s.str();
}

// The bundled demo table's surroundings: linen tablecloth, warm key light with soft shadows, a
// shadowless fill.
std::string environment() {
  std::ostringstream s;
  s << "plane { y, 0 texture { pigment { granite color_map { [0 " << rgb(0.72, 0.68, 0.6)
    << "] [1 " << rgb(0.66, 0.62, 0.55)
    << "] } scale 0.004 } finish { diffuse 0.85 specular 0 } } }\n";
  s << "light_source { <-0.35, 1.2, -0.45> color " << light_colour(0.3, 1.0)
    << " area_light <0.2, 0, 0>, <0, 0, 0.2>, 3, 3 adaptive 1 }\n";
  s << "light_source { <0.5, 1.4, 0.3> color " << light_colour(0.5, 0.45) << " shadowless }\n";
  return s.str();
}

json pixel_polygon(const Camera& camera, const std::vector<Vec3>& corners) {
  json out = json::array();
  for (const Vec3& p : corners) {
    const cv::Point2d q = camera.project(p);
    out.push_back({tenth(q.x), tenth(q.y)});
  }
  return out;
}

}  // namespace

IrmaSequence make_yams_sequence(const data::yams::GameRecord& record, std::uint64_t seed, int width,
                                int height, const YamsSequenceOptions& options) {
  Random random(seed);
  DiceTable table(random, DiceTableLook{});
  std::vector<Planned> planned;
  json commands = json::array();
  int frame = 0;
  // Every hand shot is one picture, the first: the fist over the tray with the table empty (a
  // hand passing is only "something moving" to the loop; one picture keeps the recording small).
  int hand_picture = -1;
  const auto plan = [&](const char* kind, int frames, bool hand, json info) {
    info["kind"] = kind;
    if (hand && hand_picture >= 0) {
      Planned again = planned[static_cast<std::size_t>(hand_picture)];
      again.frames = frames;
      again.same_as = hand_picture;
      again.truth["turn"] = info["turn"];
      again.truth["player"] = info["player"];
      again.truth["roll"] = info["roll"];
      planned.push_back(std::move(again));
    } else {
      if (hand) hand_picture = static_cast<int>(planned.size());
      planned.push_back({table.snapshot(), hand, frames, std::move(info)});
    }
    frame += frames;
  };
  const auto command = [&](const std::string& text) {
    commands.push_back({{"frame", frame}, {"command", text}});
  };
  plan("empty", options.empty_frames, false, {{"turn", -1}});

  std::array<int, ry::kDiceCount> id_of{};  // the record's die i is the table's die id_of[i]
  int turn = -1, roll = 0;
  for (const data::yams::RecordedMove& recorded : record.moves) {
    const ry::Move& move = recorded.move;
    if (move.kind == ry::MoveKind::Declare) {
      command("declare " + std::string(ry::id(move.box)));
      continue;
    }
    if (move.kind == ry::MoveKind::Fill) {
      command("box " + std::string(ry::id(move.box)));
      continue;
    }
    const bool first = recorded.turn != turn;
    turn = recorded.turn;
    const std::string player =
        record.players.empty()
            ? std::string("player")
            : record.players[static_cast<std::size_t>(turn) % record.players.size()];
    roll = first ? 1 : roll + 1;
    const json info = {{"turn", turn}, {"player", player}, {"roll", roll}};
    // The dice as they lay when the player took the roll in hand (what the session compares the
    // roll with).
    const std::vector<TableDie> before = table.dice();
    std::vector<int> on_table;
    for (const TableDie& d : before) on_table.push_back(d.id);
    if (first) {
      // The dice of the last turn are picked up; the red ones are dice 0-4, the white 5-9.
      table.lift(on_table);
      int red = 0, white = 5;
      for (int i = 0; i < ry::kDiceCount; ++i) {
        id_of[static_cast<std::size_t>(i)] =
            move.dice[static_cast<std::size_t>(i)].colour == ry::DieColour::Red ? red++ : white++;
      }
      if (red != 5 || white != 10) {
        throw std::invalid_argument(recorded.where + ": a roll of five red and five white dice");
      }
    } else {
      // The dice the record keeps that still lie in the tray go to the kept row.
      std::vector<int> aside;
      for (const TableDie& d : table.dice()) {
        for (int i = 0; i < ry::kDiceCount; ++i) {
          if (id_of[static_cast<std::size_t>(i)] == d.id && in(move.keep, i) && !d.kept) {
            aside.push_back(d.id);
          }
        }
      }
      if (!aside.empty()) {
        if (!table.keep(aside)) {
          throw std::invalid_argument(recorded.where + ": the kept row has no room");
        }
        plan("aside", options.settle_frames, false, info);
      }
      if (move.keep == kAll) {  // nothing rolls: the camera cannot see it, the player says it
        command("roll");
        continue;
      }
    }
    // The dice to roll picked up.
    std::vector<int> ids, values;
    for (int i = 0; i < ry::kDiceCount; ++i) {
      if (in(move.keep, i)) continue;
      ids.push_back(id_of[static_cast<std::size_t>(i)]);
      values.push_back(move.dice[static_cast<std::size_t>(i)].value);
    }
    table.lift(ids);
    plan("hand", options.hand_frames, true, info);
    bool laid = false;
    for (int attempt = 0; attempt < 50 && !laid; ++attempt) {
      if (!table.roll(ids, values)) continue;
      laid = true;
      for (const TableDie& d : table.dice()) {
        if (std::find(ids.begin(), ids.end(), d.id) == ids.end()) continue;
        for (const TableDie& b : before) {
          const bool same = b.value == d.value && (b.id < 5) == (d.id < 5);
          if (same && norm(b.position - d.position) < 0.015) laid = false;
        }
      }
      if (!laid) table.lift(ids);
    }
    if (!laid) throw std::invalid_argument(recorded.where + ": the rolled dice do not fit");
    plan("rolled", options.settle_frames, false, info);
  }

  // One camera for the whole game, on the player's side, high above the tray.
  table.centre();
  Camera camera;
  camera.width = width;
  camera.height = height;
  camera.angle_deg = 40;
  const double tilt = random.uniform(10, 14) * kDeg, yaw = random.uniform(-4, 4) * kDeg;
  camera.look_at = {0, 0, 0};
  camera.location = Vec3{-std::sin(tilt) * std::sin(yaw), std::cos(tilt),
                         -std::sin(tilt) * std::cos(yaw)} *
                    0.2;
  std::vector<Vec3> points = table.content_points();
  const std::vector<Vec3> kept = table.kept_area(0.2, 0.028);
  for (int step = 0; step < 200 && !all_in_frame(camera, points, 0.03, 0.97); ++step) {
    camera.location = camera.location * 1.02;
  }
  const std::vector<Vec3> floor = table.tray_floor();
  const Vec3 middle = (floor[0] + floor[1] + floor[2] + floor[3]) * 0.25;
  const std::string surroundings = environment();
  const std::string with_hand = surroundings + fist_pov(middle);

  IrmaSequence sequence;
  for (const Planned& p : planned) {
    Scene scene = table.picture(p.picture, camera, p.hand ? with_hand : surroundings, "linen");
    json dice = json::array();
    for (const json& d : scene.truth["dice"]) {
      dice.push_back({{"id", d["id"]},
                      {"value", d["value"]},
                      {"colour", d["colour"]},
                      {"zone", d["zone"]},
                      {"x", d["x"]},
                      {"y", d["y"]}});
    }
    json truth = p.truth;
    truth["dice"] = std::move(dice);
    if (sequence.shots.empty()) sequence.truth["scene"] = scene.truth["scene"];
    scene.truth = std::move(truth);
    sequence.shots.push_back({std::move(scene), p.frames, p.same_as});
  }

  const ry::State state = data::yams::replay(record);
  json scores = json::array();
  for (std::size_t p = 0; p < record.players.size(); ++p) {
    scores.push_back({{"player", record.players[p]},
                      {"score", scoring::yams::totals(state.sheets[p]).grand}});
  }
  json& truth = sequence.truth;
  truth["game"] = "yams";
  truth["fps"] = options.fps;
  truth["players"] = record.players;
  truth["scores"] = scores;
  truth["completed"] = ry::is_over(state);
  truth["commands"] = commands;
  truth["zones"] = {{"tray", pixel_polygon(camera, table.tray_rim())},
                    {"kept", pixel_polygon(camera, kept)}};
  truth["seed"] = seed;
  truth["width"] = width;
  truth["height"] = height;
  truth["jpeg_quality"] = options.quality;
  truth["noise_sigma"] = options.noise_sigma;
  truth["scene"]["look"] = {{"dice", "matte, printed DejaVu Sans Bold digits, red with white digits"},
                            {"light", "warm key with soft shadows, fill, no hotspot"},
                            {"table", "linen"}};
  truth["frames_per_shot"] = {{"empty", options.empty_frames},
                              {"hand", options.hand_frames},
                              {"aside", options.settle_frames},
                              {"rolled", options.settle_frames}};
  return sequence;
}

bool yams_sequence_self_test(std::string& report) {
  const data::yams::GameRecord record =
      data::yams::parse_record(data::yams::demo_record_text(), "yams-demo.json");
  const IrmaSequence sequence = make_yams_sequence(record, 3, 640, 480, YamsSequenceOptions{});
  int hands = 0, first = -1, wrong = 0, repeats = 0;
  for (std::size_t k = 0; k < sequence.shots.size(); ++k) {
    const Shot& shot = sequence.shots[k];
    if (shot.same_as >= 0) ++repeats;
    if (shot.scene.truth["kind"] != "hand") {
      wrong += shot.same_as >= 0;
      continue;
    }
    ++hands;
    if (first < 0) {
      first = static_cast<int>(k);
      wrong += shot.same_as >= 0;
      continue;
    }
    const Shot& original = sequence.shots[static_cast<std::size_t>(first)];
    wrong += shot.same_as != first || shot.scene.pov != original.scene.pov ||
             !shot.scene.truth["dice"].empty();
  }
  const bool ok = hands > 1 && wrong == 0 && repeats == hands - 1;
  std::ostringstream out;
  out << (ok ? "ok" : "FAILED") << ": yams demo sequence: " << sequence.shots.size() << " shots, "
      << hands << " hand shots repeating one picture, "
      << sequence.shots.size() - static_cast<std::size_t>(repeats) << " pictures to render\n";
  report += out.str();
  return ok;
}

}  // namespace arbitre::tools::scenegen
