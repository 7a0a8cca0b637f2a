// scenegen — renders labelled table scenes with POV-Ray: Irma pions (the default) or ten d10.
//
//   scenegen --out DIR [--count N] [--first K] [--seed S] [--width 1280] [--height 720] [--jpeg]
//            [--dice | --sequence] [--textured-share 0.2] [--cocked-share 0.25] [--no-room]
//            [--all-transparent] [--old-ink]
//            [--threads T] [--debug-overlay] [--calibration | --empty]
//   scenegen --irma-record RECORD.json --out DIR [--seed S] [--width W] [--height H]
//            [--fps 2] [--quality 80] [--noise 1.5] [--tiles] [--size-share 0.88]
//            [--max-pictures N]
//   scenegen --yams-record RECORD.json --out DIR [--seed S] [--width W] [--height H]
//            [--fps 2] [--quality 80] [--noise 1.5] [--max-pictures N]
//   scenegen --selftest
//
// Scene k (from K to K+N-1) depends only on the seed and k, so a set can be rendered in parts.
// Beside each image NNNN.png|jpg, NNNN.json holds the ground truth (pion_scene.h,
// dice_scene.cpp). --sequence renders scripted Yams turns instead: sequence k goes to
// DIR/NNNN/FFFF.png|jpg + .json, one frame per event (roll, keep, roll, ...).
// --debug-overlay also writes NNNN_gt.png: the ground truth drawn over the image.
// --calibration renders each pion scene's calibration picture instead (pion_scene.h: one pion of
// each colour where the board's pions lie, the same table, light, camera and pion set), as NNNN: a
// set rendered with it into another DIR is the calibration of the set rendered without it.
// --empty renders each pion scene without its board (pion_scene.h): the same table, light, camera
// and distractors, no pion; the truth lists none.
// --textured-share and --cocked-share set the share of d10 scenes (or roll frames) whose dice are
// frosted/transparent, and that have one or two cocked dice (defaults 0.2 and 0.25).
// --wall-share sets the share of dice rolled into a tray that lie flat against one of its walls
// (default 0: the scenes of a seed are then those rendered before the option).
// --all-transparent makes every die of those scenes transparent (none frosted): the scenes are
// otherwise those of the same seed without it, die for die (tools/train_dice.sh renders the
// clear network's extra scenes so).
// --old-ink draws the digits' ink as every d10 render before 2026-12-07 did (black ink's highlight
// 0.3, white's 0.2; tools/train_dice.sh renders the committed model's scenes so). Without it, each
// colour set's black or white ink draws a highlight of 0.03-0.3 (a matte paint's to the old), on
// a stream of its own: the scenes are otherwise those rendered with --old-ink, die for die.
// --no-room leaves the room out of d10 scenes (POV-Ray's black background round the table, as
// every d10 render before 2026-12-03: tools/train_dice.sh renders the committed model's first
// scenes so; the ground truth is the same with or without it).
// --threads passes +WT to POV-Ray (default 1). POV-Ray gives slightly different pixels from run
// to run when it renders on several threads, so every scene renders on one thread unless told
// otherwise (run several scenegen processes for speed). Pion sets rendered before this default
// (tests/data/pions among them) were rendered on every core: a re-render matches their JSON
// exactly and their pixels all but a few. d10 scenes antialias with +A0.3 +R2, pions with +A0.3.
// --irma-record renders a whole Irma game as a webcam would film it (irma_sequence.h): frames
// DIR/0000.jpg, 0001.jpg, ... of one scene chosen by the seed, and DIR/truth.json (fps, players,
// the final scores computed from the record, every picture's ground truth and its frames).
// --yams-record renders a whole Yams game the same way (yams_sequence.h): every roll as it
// settled in the tray, the kept dice in a row in front of it, a hand over the tray between rolls;
// DIR/truth.json adds the zones (tray and kept area in pixels) and the commands the players type.
// --selftest checks the d10 geometry and 400 generated dice layouts (no rendering) and exits 0
// when everything holds.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <opencv2/imgcodecs.hpp>
#include <string>

#include "common.h"
#include "d10.h"
#include "dice_scene.h"
#include "irma_sequence.h"
#include "pion_scene.h"
#include "yams_sequence.h"

namespace fs = std::filesystem;
using namespace arbitre::tools::scenegen;

int main(int argc, char** argv) {
  std::string out = "scenes";
  int count = 10;
  int first = 0;
  std::uint64_t seed = 1;
  RenderSettings settings;
  settings.threads = -1;  // not given
  bool dice = false, sequence = false, overlay = false, calibration = false, empty = false;
  DiceOptions options;
  std::string irma_record;
  IrmaSequenceOptions irma;
  std::string yams_record;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (flag == "--out")
      out = value();
    else if (flag == "--count")
      count = std::atoi(value().c_str());
    else if (flag == "--first")
      first = std::atoi(value().c_str());
    else if (flag == "--seed")
      seed = std::strtoull(value().c_str(), nullptr, 10);
    else if (flag == "--width")
      settings.width = std::atoi(value().c_str());
    else if (flag == "--height")
      settings.height = std::atoi(value().c_str());
    else if (flag == "--jpeg")
      settings.jpeg = true;
    else if (flag == "--dice")
      dice = true;
    else if (flag == "--sequence")
      dice = sequence = true;
    else if (flag == "--textured-share")
      options.textured_share = std::atof(value().c_str());
    else if (flag == "--cocked-share")
      options.cocked_share = std::atof(value().c_str());
    else if (flag == "--wall-share")
      options.wall_share = std::atof(value().c_str());
    else if (flag == "--no-room")
      options.room = false;
    else if (flag == "--all-transparent")
      options.all_transparent = true;
    else if (flag == "--old-ink")
      options.old_ink = true;
    else if (flag == "--threads")
      settings.threads = std::atoi(value().c_str());
    else if (flag == "--irma-record")
      irma_record = value();
    else if (flag == "--yams-record")
      yams_record = value();
    else if (flag == "--fps")
      irma.fps = std::atof(value().c_str());
    else if (flag == "--quality")
      irma.quality = std::atoi(value().c_str());
    else if (flag == "--noise")
      irma.noise_sigma = std::atof(value().c_str());
    else if (flag == "--tiles")
      irma.tiles = true;
    else if (flag == "--size-share")
      irma.size_share = std::atof(value().c_str());
    else if (flag == "--max-pictures")
      irma.max_shots = std::atoi(value().c_str());
    else if (flag == "--debug-overlay")
      overlay = true;
    else if (flag == "--calibration")
      calibration = true;
    else if (flag == "--empty")
      empty = true;
    else if (flag == "--selftest") {
      std::string report, layouts, yams;
      const bool ok = d10_self_test(report) & dice_self_test(400, layouts) & yams_sequence_self_test(yams);
      std::fputs(report.c_str(), stdout);
      std::fputs(layouts.c_str(), stdout);
      std::fputs(yams.c_str(), stdout);
      std::printf(ok ? "d10 self-test passed\n" : "d10 self-test FAILED\n");
      return ok ? 0 : 1;
    } else {
      std::fprintf(stderr, "scenegen: unknown flag %s\n", flag.c_str());
      return 2;
    }
  }
  if (settings.threads < 0) settings.threads = 1;
  if (!irma_record.empty()) {
    try {
      const auto record = arbitre::data::irma::load_record(irma_record);
      const IrmaSequence sequence =
          make_irma_sequence(record, seed, settings.width, settings.height, irma);
      const int frames = render_irma_sequence(sequence, out, settings, seed, irma);
      if (frames < 0) return 1;
      std::fprintf(stderr, "%d frames (%zu pictures) in %s\n", frames, sequence.shots.size(),
                   out.c_str());
      return 0;
    } catch (const std::exception& error) {
      std::fprintf(stderr, "scenegen: %s\n", error.what());
      return 2;
    }
  }
  if (!yams_record.empty()) {
    try {
      const auto record = arbitre::data::yams::load_record(yams_record);
      settings.antialias = "+A0.3 +R2";  // as d10 scenes
      const auto started = std::chrono::steady_clock::now();
      const IrmaSequence sequence =
          make_yams_sequence(record, seed, settings.width, settings.height, irma);
      const int frames = render_irma_sequence(sequence, out, settings, seed, irma);
      if (frames < 0) return 1;
      std::fprintf(stderr, "%d frames (%zu pictures) in %s, %.0f s\n", frames,
                   sequence.shots.size(), out.c_str(),
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
      return 0;
    } catch (const std::exception& error) {
      std::fprintf(stderr, "scenegen: %s\n", error.what());
      return 2;
    }
  }
  if (dice) settings.antialias = "+A0.3 +R2";  // modest: 4 rays where a pixel needs more
  fs::create_directories(out);
  const auto started = std::chrono::steady_clock::now();
  int images = 0;
  for (int k = first; k < first + count; ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "%04d", k);
    if (!dice) {
      Random random(seed * 7919 + static_cast<std::uint64_t>(k));
      const std::optional<std::uint64_t> calibration_seed =
          calibration ? std::optional<std::uint64_t>((seed * 7919 + static_cast<std::uint64_t>(k)) ^
                                                     0x5ca1ab1eULL)
                      : std::nullopt;
      const Scene scene =
          make_pion_scene(random, settings.width, settings.height, calibration_seed, empty);
      nlohmann::json truth;
      const cv::Mat image = render(scene, random, seed * 7919 + static_cast<std::uint64_t>(k) + 1,
                                   fs::path(out) / name, settings, truth);
      if (image.empty()) return 1;
      if (overlay) {
        cv::imwrite((fs::path(out) / (std::string(name) + "_gt.png")).string(),
                    pion_overlay(image, truth));
      }
      ++images;
    } else if (!sequence) {
      Random random(dice_seed(seed, k));
      const Scene scene = make_dice_scene(random, settings.width, settings.height, options);
      nlohmann::json truth;
      const cv::Mat image =
          render(scene, random, dice_seed(seed, k) + 1, fs::path(out) / name, settings, truth);
      if (image.empty()) return 1;
      if (overlay) {
        cv::imwrite((fs::path(out) / (std::string(name) + "_gt.png")).string(),
                    dice_overlay(image, truth));
      }
      ++images;
    } else {
      Random random(dice_seed(seed, k));
      const std::vector<Scene> frames =
          make_dice_sequence(random, settings.width, settings.height, options);
      const fs::path dir = fs::path(out) / name;
      fs::create_directories(dir);
      for (std::size_t f = 0; f < frames.size(); ++f) {
        char frame[32];
        std::snprintf(frame, sizeof frame, "%04zu", f);
        // Each frame has its own sensor noise.
        const std::uint64_t frame_seed = dice_seed(seed, k) + 1000003ULL * (f + 1);
        Random noise(frame_seed);
        nlohmann::json truth;
        const cv::Mat image =
            render(frames[f], noise, frame_seed + 1, dir / frame, settings, truth);
        if (image.empty()) return 1;
        if (overlay) {
          cv::imwrite((dir / (std::string(frame) + "_gt.png")).string(),
                      dice_overlay(image, truth));
        }
        ++images;
      }
    }
    std::fprintf(stderr, "\r%d/%d", k - first + 1, count);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::fprintf(stderr, "\n");
  if (dice && images > 0) {
    std::fprintf(stderr, "%d images in %.1f s (%.2f s each)\n", images, seconds, seconds / images);
  }
  return 0;
}
