// Accuracy and speed of the pion reader on a labelled set made by tools/scenegen.
//
//   pions_eval DIR [--overlays OUTDIR] [--model MODEL.yml]
//
// For each NNNN.json + image: detect, match the reported pions to the true ones by position
// (within 0.4 pitch), then count pions read right (matched, right colour, right cell up to the
// board's translation), boards read exactly right, phantoms (reported, not there) and misses.
// Prints per-colour confusion, per-scene-kind rates, failures, and the time per frame.
#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/bench/stats.h"
#include "vision/common/image_io.h"
#include "vision/pions/detector.h"

namespace fs = std::filesystem;
namespace ri = arbitre::referee::irma;
namespace vp = arbitre::vision::pions;

namespace {

int colour_index(const std::string& name) { return static_cast<int>(*ri::colour_from_string(name)); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: pions_eval DIR [--overlays OUTDIR]\n");
    return 2;
  }
  const fs::path dir = argv[1];
  std::string overlays;
  cv::Ptr<cv::ml::RTrees> model = vp::default_cell_model();
  for (int i = 2; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--overlays") overlays = argv[i + 1];
    if (std::string(argv[i]) == "--model") model = cv::ml::RTrees::load(argv[i + 1]);
  }
  if (!overlays.empty()) fs::create_directories(overlays);
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());

  long truth_pions = 0, right = 0, phantoms = 0, missed = 0, wrong_colour = 0, wrong_cell = 0;
  int boards = 0, boards_right = 0;
  std::array<std::array<long, 5>, 4> confusion{};  // truth colour x (read colour, or 4 = missed)
  std::map<std::string, std::pair<int, int>> by_kind;  // kind -> (boards, right)
  std::vector<double> frame_ms, stage_ms[5];
  std::vector<std::string> failures;
  for (const fs::path& file : files) {
    const nlohmann::json truth = nlohmann::json::parse(std::ifstream(file));
    const cv::Mat image = arbitre::vision::load_image((dir / truth["image"].get<std::string>()).string());
    const auto start = std::chrono::steady_clock::now();
    const vp::Detection d = vp::detect(image, {}, model);
    frame_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    stage_ms[0].push_back(d.timing.normalise_ms);
    stage_ms[1].push_back(d.timing.table_ms);
    stage_ms[2].push_back(d.timing.candidates_ms);
    stage_ms[3].push_back(d.timing.lattice_ms);
    stage_ms[4].push_back(d.timing.classify_ms);

    const double radius = 0.4 * truth["scene"]["pitch_px"].get<double>();
    if (std::getenv("PIONS_EVAL_VERBOSE")) {
      std::fprintf(stderr, "%s: truth pitch %.1f, 2r %.1f, lattice pitch %.1f, candidates %zu, inliers %d, pions %zu/%zu\n",
                   file.stem().c_str(), truth["scene"]["pitch_px"].get<double>() * d.scale, 2 * d.pion_radius, d.lattice.pitch,
                   d.candidates.size(), d.lattice.inliers, d.observation.pions.size(), truth["pions"].size());
    }
    const auto& pions = d.observation.pions;
    std::vector<int> match(truth["pions"].size(), -1);
    std::vector<bool> used(pions.size(), false);
    for (std::size_t t = 0; t < truth["pions"].size(); ++t) {
      const auto& p = truth["pions"][t];
      double best = radius;
      for (std::size_t k = 0; k < pions.size(); ++k) {
        const double dist = std::hypot(pions[k].x - p["x"].get<double>(), pions[k].y - p["y"].get<double>());
        if (!used[k] && dist < best) {
          best = dist;
          match[t] = static_cast<int>(k);
        }
      }
      if (match[t] >= 0) used[static_cast<std::size_t>(match[t])] = true;
    }
    // The board's translation: the commonest offset between read and true cells.
    std::map<std::pair<int, int>, int> offsets;
    for (std::size_t t = 0; t < match.size(); ++t) {
      if (match[t] < 0) continue;
      const auto& p = truth["pions"][t];
      ++offsets[{pions[match[t]].row - p["row"].get<int>(), pions[match[t]].col - p["col"].get<int>()}];
    }
    std::pair<int, int> offset{0, 0};
    int votes = 0;
    for (const auto& [o, n] : offsets) {
      if (n > votes) {
        votes = n;
        offset = o;
      }
    }
    int board_errors = 0;
    for (std::size_t t = 0; t < match.size(); ++t) {
      const auto& p = truth["pions"][t];
      const int colour = colour_index(p["colour"]);
      ++truth_pions;
      if (match[t] < 0) {
        ++missed;
        ++board_errors;
        ++confusion[colour][4];
        continue;
      }
      const auto& seen = pions[match[t]];
      ++confusion[colour][static_cast<int>(seen.colour)];
      const bool cell_ok = seen.row - p["row"].get<int>() == offset.first && seen.col - p["col"].get<int>() == offset.second;
      const bool colour_ok = static_cast<int>(seen.colour) == colour;
      if (cell_ok && colour_ok) {
        ++right;
      } else {
        ++board_errors;
        if (!colour_ok) ++wrong_colour;
        if (!cell_ok) ++wrong_cell;
      }
    }
    const long extra = static_cast<long>(std::count(used.begin(), used.end(), false));
    phantoms += extra;
    board_errors += static_cast<int>(extra);
    ++boards;
    const std::string kind = truth["scene"]["table"].get<std::string>() + "/" + truth["scene"]["shape"].get<std::string>();
    ++by_kind[kind].first;
    if (board_errors == 0) {
      ++boards_right;
      ++by_kind[kind].second;
    } else {
      failures.push_back(file.stem().string() + " (" + kind + ", " + truth["scene"]["light"].get<std::string>() +
                         ", tilt " + std::to_string(truth["scene"]["tilt_deg"].get<double>()).substr(0, 4) + "): " +
                         std::to_string(board_errors) + " errors, " + std::to_string(extra) + " phantoms");
      if (!overlays.empty()) {
        cv::imwrite((fs::path(overlays) / (file.stem().string() + ".png")).string(), vp::draw_overlay(image, d));
      }
    }
  }
  using arbitre::bench::mean;
  using arbitre::bench::percentile;
  std::printf("images %d, pions %ld\n", boards, truth_pions);
  std::printf("pions read right   %.2f%% (%ld)\n", 100.0 * right / std::max(1L, truth_pions), right);
  std::printf("boards exactly right %.2f%% (%d)\n", 100.0 * boards_right / std::max(1, boards), boards_right);
  std::printf("phantoms %.2f%% of true pions (%ld); missed %ld; wrong colour %ld; wrong cell %ld\n",
              100.0 * phantoms / std::max(1L, truth_pions), phantoms, missed, wrong_colour, wrong_cell);
  std::printf("confusion (rows: true red, orange, green, white; columns: read R O G W, missed)\n");
  const char* names[] = {"red", "orange", "green", "white"};
  for (int c = 0; c < 4; ++c) {
    std::printf("  %-7s %5ld %5ld %5ld %5ld %5ld\n", names[c], confusion[c][0], confusion[c][1], confusion[c][2],
                confusion[c][3], confusion[c][4]);
  }
  std::printf("boards right by table/shape:\n");
  for (const auto& [kind, n] : by_kind) std::printf("  %-26s %d/%d\n", kind.c_str(), n.second, n.first);
  std::printf("time per frame: median %.2f ms, p95 %.2f ms; stages (mean ms): normalise %.2f, table %.2f, "
              "candidates %.2f, lattice %.2f, classify %.2f\n",
              percentile(frame_ms, 0.5), percentile(frame_ms, 0.95), mean(stage_ms[0]), mean(stage_ms[1]),
              mean(stage_ms[2]), mean(stage_ms[3]), mean(stage_ms[4]));
  std::printf("failures:\n");
  for (const auto& f : failures) std::printf("  %s\n", f.c_str());
  return 0;
}
