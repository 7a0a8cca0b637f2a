// How the Yams session's stability filter settles still tables seen through a noisy camera:
//   build/release/tests/bench/dice_still DIR [--frames N] [--variants K] [--sigma S]
//                                           [--quality Q] [--max-images M] [--list]
// Each rendered image of DIR (scenegen --dice, with its ground truth) is one still table. K frames
// are made of it, each with Gaussian noise of S grey levels added and encoded again as JPEG at
// quality Q: a webcam's frames of a table where nothing moves. Each is read once by the dice
// reader, and N frames (the K in turn) are fed at 10 a second to two app::session::DiceStability
// filters: the session's, which tells stillness by the dice's places and votes the frames die by
// die, and the same filter given no positions, which tells stillness by the readings and reports
// the last frame (the session's filter until the fifty-third session). For each, and for the
// first frame read alone: the tables settled within the N frames and, over the scenes settled,
// flat dice read right, rolls read exactly, leaning dice flagged (tests/support/dice_scoring.h),
// a die read with less than the filter's confidence counted unread, as the session takes it.
// --list prints, for every table, the dice each frame and the voted scene did not read right.
// Defaults: N 30 (three seconds), K 6, S 3, Q 85.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <string>
#include <vector>

#include "app/session/dice_stability.h"
#include "tests/support/dice_scoring.h"
#include "tests/support/noisy_frame.h"
#include "vision/dice/detector.h"

namespace fs = std::filesystem;
namespace vd = arbitre::vision::dice;
namespace s = arbitre::app::session;
using arbitre::vision::DiceObservation;
using nlohmann::json;

namespace {

// A scene as the session takes it: a die read with less than the filter's confidence is unread.
DiceObservation as_taken(DiceObservation scene) {
  for (auto& die : scene.dice) {
    if (die.confidence < s::DiceStabilityParams{}.min_confidence) die.value = 0;
  }
  return scene;
}

struct Tally {
  int tables = 0, settled = 0, flat = 0, flat_right = 0, rolls_right = 0, cocked = 0, flagged = 0;
  void add(const json& truth, const DiceObservation* scene) {
    ++tables;
    if (!scene) return;
    ++settled;
    const arbitre::testing::DiceScore score = arbitre::testing::score_dice(truth, as_taken(*scene));
    flat += score.flat, flat_right += score.flat_right;
    cocked += score.cocked, flagged += score.cocked_flagged;
    rolls_right += score.roll_right();
  }
  void print(const char* name) const {
    std::printf(
        "%-34s tables settled %d/%d; of those: flat dice read right %d/%d (%.2f%%), rolls read "
        "exactly %d (%.1f%%), leaning dice flagged %d/%d\n",
        name, settled, tables, flat_right, flat, flat ? 100.0 * flat_right / flat : 0.0,
        rolls_right, settled ? 100.0 * rolls_right / settled : 0.0, flagged, cocked);
  }
};

// The scene a filter settles on within the frames (its last report), or none.
std::optional<DiceObservation> settle(s::DiceStability filter,
                                      const std::vector<DiceObservation>& frames, int count,
                                      bool positions) {
  std::optional<DiceObservation> out;
  for (int f = 0; f < count; ++f) {
    DiceObservation frame = frames[static_cast<std::size_t>(f) % frames.size()];
    if (!positions) frame.width = frame.height = 0;
    const s::DiceUpdate update = filter.feed(frame, f / 10.0);
    if (update.event == s::DiceEvent::Settled || update.event == s::DiceEvent::Unreadable) {
      out = update.scene;
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: dice_still DIR [--frames N] [--variants K] [--sigma S] [--quality Q] "
                 "[--max-images M] [--list]\n");
    return 2;
  }
  const fs::path dir = argv[1];
  int frames = 30, variants = 6, quality = 85;
  bool list = false;
  long max_images = -1;
  double sigma = 3;
  for (int i = 2; i < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--list") {
      list = true;
      --i;
      continue;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "dice_still: %s needs a value\n", a.c_str());
      return 2;
    }
    if (a == "--frames")
      frames = std::atoi(argv[i + 1]);
    else if (a == "--variants")
      variants = std::atoi(argv[i + 1]);
    else if (a == "--sigma")
      sigma = std::atof(argv[i + 1]);
    else if (a == "--quality")
      quality = std::atoi(argv[i + 1]);
    else if (a == "--max-images")
      max_images = std::atol(argv[i + 1]);
    else {
      std::fprintf(stderr, "dice_still: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  if (frames < 1 || variants < 1 || sigma < 0 || quality < 1 || quality > 100) {
    std::fprintf(stderr,
                 "dice_still: --frames and --variants at least 1, --sigma at least 0, "
                 "--quality 1-100\n");
    return 2;
  }
  std::vector<fs::path> images;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    if (entry.path().extension() == ".jpg" &&
        fs::exists(fs::path(entry.path()).replace_extension(".json")))
      images.push_back(entry.path());
  }
  if (error || images.empty()) {
    std::fprintf(stderr, "dice_still: no rendered images with their truth in %s\n", dir.c_str());
    return 2;
  }
  std::sort(images.begin(), images.end());
  if (max_images >= 0 && static_cast<long>(images.size()) > max_images)
    images.resize(static_cast<std::size_t>(max_images));

  Tally places, readings, first;
  for (const fs::path& path : images) {
    std::ifstream in(fs::path(path).replace_extension(".json"));
    const json truth = json::parse(in);
    const cv::Mat image = cv::imread(path.string(), cv::IMREAD_COLOR);
    if (image.empty()) {
      std::fprintf(stderr, "dice_still: cannot read %s\n", path.c_str());
      return 2;
    }
    std::vector<DiceObservation> seen;
    for (int k = 0; k < variants; ++k) {
      const cv::Mat frame = arbitre::testing::noisy_frame(image, sigma, quality,
                                                          static_cast<std::uint64_t>(1000 + k));
      seen.push_back(vd::detect(frame).observation);
    }
    const auto by_places = settle(s::DiceStability{}, seen, frames, true);
    const auto by_readings = settle(s::DiceStability{}, seen, frames, false);
    places.add(truth, by_places ? &*by_places : nullptr);
    readings.add(truth, by_readings ? &*by_readings : nullptr);
    first.add(truth, &seen[0]);
    if (list) {
      const auto show = [&](const char* what, const DiceObservation& o) {
        std::printf("  %s:", what);
        const auto score = arbitre::testing::score_dice(truth, as_taken(o));
        for (std::size_t i = 0; i < score.outcome.size(); ++i) {
          if (score.outcome[i] == "right" || score.outcome[i] == "flagged") continue;
          const int k = score.seen_of[i];
          std::printf(" [die %zu %s:", i, score.outcome[i].c_str());
          if (k >= 0) {
            const auto& d = o.dice[static_cast<std::size_t>(k)];
            std::printf(" %d%s %.2f%s", d.value,
                        d.colour == arbitre::referee::yams::DieColour::Red ? "r" : "w",
                        d.confidence, d.cocked ? " cocked" : "");
          }
          std::printf("]");
        }
        std::printf(" phantoms %d doubled %d\n", score.phantoms, score.doubled);
      };
      std::printf("%s: %s\n", path.filename().c_str(),
                  by_places ? "settled" : "NOT SETTLED by places");
      if (by_places) show("places", *by_places);
      for (std::size_t k = 0; k < seen.size(); ++k)
        show(("frame " + std::to_string(k)).c_str(), seen[k]);
    }
  }
  std::printf("%zu still tables, %d frames each (%d noisy frames in turn: noise %.1f, JPEG %d)\n",
              images.size(), frames, variants, sigma, quality);
  places.print("by places, the frames voted:");
  readings.print("by readings, the last frame:");
  first.print("the first frame alone:");
  return 0;
}
