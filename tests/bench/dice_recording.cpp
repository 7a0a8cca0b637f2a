// How the dice reader and the Yams session's stability filter read a rendered Yams recording
// (scenegen --yams-record; data/demo/recordings/yams), against its ground truth:
//   build/release/tests/bench/dice_recording DIR [--max-pictures N] [--respace-from R] [--list]
//                                               [--sigma S]
// Every picture is read once by the dice reader (zones from the truth, as the demo gives them;
// with --sigma, every frame is read anew with Gaussian noise of S grey levels added and encoded
// again as JPEG at 85, tests/support/noisy_frame.h, as a webcam's frames of the still table);
// the frames are fed, at the recording's clock, to two app::session::DiceStability filters: with
// the table's physics (kept dice carry their values: vision::dice::carry_known_values) and
// without. For every settled scene of a rolled or set-aside picture it prints whether the filter
// made it readable and equal to the truth (each die's value, colour and zone), and per zone and
// colour the dice the reader left unread or unsure (confidence under the filter's 0.5), missed,
// or read wrong: on the pictures as read, and after the physics filled values in; why the rolls
// not read exactly were not (a roll may have several causes; "only": the one cause). Prints the
// first settled roll that the filter with the physics could not read. With --list, every die
// missed or invented in a picture, as it is met.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <string>
#include <vector>

#include "app/session/dice_stability.h"
#include "tests/support/noisy_frame.h"
#include "vision/dice/detector.h"

namespace fs = std::filesystem;
namespace vd = arbitre::vision::dice;
namespace s = arbitre::app::session;
using arbitre::vision::DiceObservation;
using arbitre::vision::DieSighting;
using arbitre::vision::DieZone;
using nlohmann::json;

namespace {

vd::Polygon polygon(const json& points) {
  vd::Polygon out;
  for (const json& p : points) out.emplace_back(p[0].get<double>(), p[1].get<double>());
  return out;
}

std::string zone_name(DieZone z) { return z == DieZone::Kept ? "kept" : "tray"; }

// Per (kind, zone, colour): dice, read right, unread or unsure, wrong, missed.
struct Tally {
  std::map<std::string, std::array<int, 5>> rows;
  void add(const std::string& key, int column) { ++rows[key][static_cast<std::size_t>(column)]; }
  void print(const char* title) const {
    std::printf("%s\n  %-22s %6s %6s %8s %6s %6s\n", title, "kind zone colour", "dice", "right",
                "unread", "wrong", "missed");
    for (const auto& [key, r] : rows) {
      std::printf("  %-22s %6d %6d %8d %6d %6d   (unread %.1f%%)\n", key.c_str(), r[0], r[1], r[2],
                  r[3], r[4], r[0] ? 100.0 * r[2] / r[0] : 0.0);
    }
  }
};

// Why a settled scene is not read exactly: bit 0 a die missed or invented, 1 a tray die unread
// or unsure, 2 a kept die unread or unsure, 3 a die read wrong (value, colour or zone).
constexpr const char* kCauses[] = {"a die missed or invented", "a tray die unread", "a kept die unread",
                                   "a die read wrong"};

// Matches the truth's dice with `seen` (nearest within 20 pixels) and tallies them; true when
// every die is read right and nothing else is seen.
bool compare(const json& shot, const DiceObservation& seen, double sure, Tally& tally, int* causes = nullptr,
             bool list = false) {
  int scratch = 0;
  int& why = causes ? *causes : scratch;
  std::vector<bool> used(seen.dice.size(), false);
  bool exact = true;
  const std::string kind = shot["kind"];
  for (const json& t : shot["dice"]) {
    const std::string colour = t["colour"];
    const std::string key = kind + " " + t["zone"].get<std::string>() + " " + colour;
    tally.add(key, 0);
    int best = -1;
    double distance = 20;
    for (std::size_t j = 0; j < seen.dice.size(); ++j) {
      const double d = std::hypot(seen.dice[j].x - t["x"].get<double>(), seen.dice[j].y - t["y"].get<double>());
      if (!used[j] && d < distance) distance = d, best = static_cast<int>(j);
    }
    if (best < 0) {
      if (list) {
        std::printf("  missed %s %s %d at %.0f,%.0f\n", key.c_str(), shot["frames"].dump().c_str(),
                    t["value"].get<int>(), t["x"].get<double>(), t["y"].get<double>());
      }
      tally.add(key, 4);
      exact = false;
      why |= 1;
      continue;
    }
    used[static_cast<std::size_t>(best)] = true;
    const DieSighting& d = seen.dice[static_cast<std::size_t>(best)];
    const bool red = d.colour == arbitre::referee::yams::DieColour::Red;
    if (d.cocked || d.value == 0 || d.confidence < sure) {
      tally.add(key, 2);
      exact = false;
      why |= t["zone"] == "kept" ? 4 : 2;
    } else if (d.value != t["value"].get<int>() || red != (colour == "red") ||
               zone_name(d.zone) != t["zone"].get<std::string>()) {
      tally.add(key, 3);
      exact = false;
      why |= 8;
    } else {
      tally.add(key, 1);
    }
  }
  for (std::size_t j = 0; j < used.size(); ++j) {
    const bool u = used[j];
    if (!u && list) {
      std::printf("  invented %s at %.0f,%.0f\n", shot["frames"].dump().c_str(), seen.dice[j].x, seen.dice[j].y);
    }
    if (!u) why |= 1;
    exact = exact && u;
  }
  return exact;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: dice_recording DIR [--max-pictures N] [--respace-from R] [--list]\n");
    return 2;
  }
  const fs::path dir = argv[1];
  long max_pictures = -1;
  double respace_from = vd::Params{}.respace_from;
  int full_turns = vd::Params{}.full_turns;
  bool list = false;
  double sigma = 0;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--list") list = true;
    else if (a == "--max-pictures" && i + 1 < argc) max_pictures = std::atol(argv[++i]);
    else if (a == "--respace-from" && i + 1 < argc) respace_from = std::atof(argv[++i]);
    else if (a == "--full-turns" && i + 1 < argc) full_turns = std::atoi(argv[++i]);
    else if (a == "--sigma" && i + 1 < argc)
      sigma = std::atof(argv[++i]);
  }
  std::ifstream in(dir / "truth.json");
  if (!in) {
    std::fprintf(stderr, "dice_recording: no %s\n", (dir / "truth.json").c_str());
    return 2;
  }
  const json truth = json::parse(in);
  vd::Params params;
  params.zones.tray = polygon(truth["zones"]["tray"]);
  params.zones.kept = polygon(truth["zones"]["kept"]);
  params.respace_from = respace_from;
  params.full_turns = full_turns;
  const vd::Model& model = vd::default_model();
  const double fps = truth.value("fps", 2.0);

  s::DiceStabilityParams with_params, without_params;
  without_params.carry_kept = false;
  s::DiceStability with(with_params), without(without_params);
  const double sure = with_params.min_confidence;
  Tally as_read, completed;
  std::map<std::string, int> counts;
  std::string first_failure;
  long pictures = 0;
  for (const json& shot : truth["shots"]) {
    if (max_pictures >= 0 && pictures >= max_pictures) break;
    ++pictures;
    const int first = shot["frames"][0], last = shot["frames"][1];
    char name[32];
    std::snprintf(name, sizeof name, "%04d.jpg", first);
    const cv::Mat image = cv::imread((dir / name).string(), cv::IMREAD_COLOR);
    if (image.empty()) {
      std::fprintf(stderr, "dice_recording: cannot read %s\n", (dir / name).c_str());
      return 2;
    }
    const DiceObservation seen = vd::detect(image, params, model).observation;
    // Each frame read anew through a noisy camera (--sigma), or the picture read once.
    const auto frame_seen = [&](int f) {
      if (sigma <= 0) return seen;
      return vd::detect(
                 arbitre::testing::noisy_frame(image, sigma, 85, static_cast<std::uint64_t>(f)),
                 params, model)
          .observation;
    };
    const std::string kind = shot["kind"];
    const bool counted = kind == "rolled" || kind == "aside";
    if (counted) compare(shot, seen, sure, as_read, nullptr, list);
    for (int f = first; f <= last; ++f) {
      const double seconds = f / fps;
      const DiceObservation frame = frame_seen(f);
      const s::DiceUpdate a = with.feed(frame, seconds);
      const s::DiceUpdate b = without.feed(frame, seconds);
      if (!counted) continue;
      for (const auto* u : {&a, &b}) {
        if (u->event != s::DiceEvent::Settled && u->event != s::DiceEvent::Unreadable) continue;
        const std::string who = u == &a ? "with the physics" : "as read";
        ++counts[kind + " settled, " + who];
        Tally scratch;
        int why = 0;
        const bool exact = compare(shot, u->scene, sure, u == &a ? completed : scratch, &why) &&
                           u->event == s::DiceEvent::Settled;
        if (!exact && kind == "rolled") {
          for (int c = 0; c < 4; ++c) {
            if (why & (1 << c)) ++counts[kind + " not read, " + who + ": " + kCauses[c]];
            if (why == (1 << c)) ++counts[kind + " not read, " + who + ": only " + kCauses[c]];
          }
        }
        counts[kind + " settled, " + who + ": read exactly"] += exact;
        if (u == &a && !exact && kind == "rolled" && first_failure.empty()) {
          first_failure = "turn " + std::to_string(shot["turn"].get<int>()) + " roll " +
                          std::to_string(shot["roll"].get<int>()) + " (frames " +
                          std::to_string(first) + "-" + std::to_string(last) + ")";
        }
      }
    }
  }
  std::printf("%s: %ld pictures\n", dir.c_str(), pictures);
  for (const auto& [key, n] : counts) std::printf("  %-50s %d\n", key.c_str(), n);
  as_read.print("the reader, per picture (unread: no value or confidence under 0.5):");
  completed.print("settled scenes with the physics:");
  std::printf("first settled roll not read exactly with the physics: %s\n",
              first_failure.empty() ? "none" : first_failure.c_str());
  return 0;
}
