// Accuracy and speed of the pion reader on a labelled set made by tools/scenegen.
//
//   pions_eval DIR [--overlays OUTDIR] [--model MODEL.yml] [--min-confidence C] [--net-weight W]
//   [--patch-weight W] [--net-min-confidence C] [--calibration-dir CALDIR]
//
// --model: a model written by train_pions (a forest, and its networks when it has them).
// --calibration-dir: each scene is read with the colour calibration measured on CALDIR's image
// of the same name (scenegen --calibration: its calibration picture), as `arbitre calibrate
// pions` measures it; a scene whose picture gives none is read without, and listed.
//
// For each NNNN.json + image: detect, match the reported pions to the true ones by position
// (within 0.4 pitch), then count pions read right (matched, right colour, right cell up to the
// board's translation), boards read exactly right, phantoms (reported, not there) and misses.
// Prints per-colour confusion, per-scene-kind rates, failures, and the time per frame.
// Every other --flag VALUE sets the Params member of that name (--recentre 0, --grow-faint 0...).
// PIONS_EVAL_VERBOSE=1: each scene's lattice; 2: each pion missed, with the nearest cell examined,
// its presence and (with --keep-patches 1) the patch network's verdict, and each phantom, with its
// presence, contrast and colour against the others read its colour; 3: the colour features of
// the pions read; 4: every cell examined, whether a pion lies there (with --keep-patches 1); 5:
// every cell not reported of presence 0.2 or more, with its reported neighbours (U lines); 7:
// every pion read off its node (OFF lines: real, label, presence, contrast, and the pions read
// of its colour and of others in the three cells on the side it was shifted to).
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
#include "tests/support/pion_scoring.h"
#include "vision/common/image_io.h"
#include "vision/memory.h"
#include "vision/pions/detector.h"

namespace fs = std::filesystem;
namespace ri = arbitre::referee::irma;
namespace vp = arbitre::vision::pions;

int main(int argc, char** argv) {
  arbitre::vision::keep_freed_memory();  // as arbitre runs the reader: vision/memory.h
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: pions_eval DIR [--overlays OUTDIR] [--model MODEL.yml] [--min-confidence "
                 "C] [--net-weight W] [--patch-weight W] [--net-min-confidence C] "
                 "[--calibration-dir CALDIR]\n");
    return 2;
  }
  const fs::path dir = argv[1];
  std::string overlays;
  fs::path calibration_dir;
  vp::CellModel model = vp::default_cell_model();
  vp::Params params;
  for (int i = 2; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--overlays") overlays = argv[i + 1];
    if (std::string(argv[i]) == "--calibration-dir") calibration_dir = argv[i + 1];
    if (std::string(argv[i]) == "--calibration-sigma")
      params.calibration_sigma = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--model") model = vp::load_cell_model(argv[i + 1]);
    if (std::string(argv[i]) == "--net-weight") params.net_weight = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--extend-rounds") params.extend_rounds = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--extend-reach") params.extend_reach = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--parity-points") params.parity_points = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--patch-weight") params.patch_weight = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--net-min-confidence") params.net_min_confidence = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--keep-patches") params.keep_patches = std::atoi(argv[i + 1]) != 0;
    if (std::string(argv[i]) == "--recentre") params.recentre = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--recentre-low") params.recentre_low = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--recentre-accept")
      params.recentre_accept = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--grow-faint") params.grow_faint = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--merge-split") params.merge_split = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--extend-bridge")
      params.extend_bridge = std::atoi(argv[i + 1]) != 0;
    if (std::string(argv[i]) == "--twin-distance") params.twin_distance = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--twin-lightness") params.twin_lightness = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--hole-neighbours")
      params.hole_neighbours = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--hole-contrast") params.hole_contrast = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--hole-presence") params.hole_presence = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--faint-steps") params.faint_steps = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--grow-faint-again")
      params.grow_faint_again = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--patch-low") params.patch_low = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--patch-high") params.patch_high = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--patch-views") params.patch_views = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--lone-readings") params.lone_readings = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--lone-inliers") params.lone_inliers = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--pitch-range-many")
      params.pitch_range_many = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--faint-retry-noise")
      params.faint_retry_noise = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--white-max-blue") params.white_max_blue = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--faint-retry-confidence")
      params.faint_retry_confidence = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--faint-retry-candidates")
      params.faint_retry_candidates = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--faint-retry-floor")
      params.faint_retry_floor = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--min-confidence") params.min_confidence = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--grow-contrast") params.grow_contrast = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--region-radius")
      params.region_radius = std::atoi(argv[i + 1]) != 0;
    if (std::string(argv[i]) == "--radius-percentile")
      params.radius_percentile = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--far-pairs") params.far_pairs = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--hypothesis-steps")
      params.hypothesis_steps = std::atoi(argv[i + 1]) != 0;
    if (std::string(argv[i]) == "--width-colour-stop")
      params.width_colour_stop = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--pale-distance") params.pale_distance = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--white-max-a") params.white_max_a = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--white-max-b") params.white_max_b = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--pale-share") params.pale_share = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--apart-distance") params.apart_distance = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--apart-ratio") params.apart_ratio = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--apart-share") params.apart_share = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--hue-pale-chroma")
      params.hue_pale_chroma = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--hue-pale-margin")
      params.hue_pale_margin = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--knight-retry") params.knight_retry = std::atoi(argv[i + 1]) != 0;
    if (std::string(argv[i]) == "--read-parity-pions")
      params.read_parity_pions = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--alternative-pieces")
      params.alternative_pieces = std::atoi(argv[i + 1]) != 0;
    if (std::string(argv[i]) == "--alternative-inliers")
      params.alternative_inliers = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--white-retry") params.white_retry = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--white-retry-chroma")
      params.white_retry_chroma = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--white-retry-pions")
      params.white_retry_pions = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--thing-opening") params.thing_opening = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--thing-length") params.thing_length = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--thing-thickness")
      params.thing_thickness = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--edge-knight") params.edge_knight = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--parity-edges") params.parity_edges = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--max-split") params.max_split = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--context-share") params.context_share = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--pitch-range-high")
      params.pitch_range_high = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--object-retry-share")
      params.object_retry_share = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--object-retry-distance")
      params.object_retry_distance = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--object-retry-grow")
      params.object_retry_grow = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--object-retry-pions")
      params.object_retry_pions = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--any-single") params.any_single = std::atoi(argv[i + 1]) != 0;
    if (std::string(argv[i]) == "--min-area-share") params.min_area_share = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--max-core-aspect")
      params.max_core_aspect = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--edge-weight") params.edge_weight = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--flatten-gain") params.flatten_gain = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--extend-through-pions")
      params.extend_through_pions = std::atoi(argv[i + 1]) != 0;
    if (std::string(argv[i]) == "--faint-contrast") params.faint_contrast = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--faint-presence") params.faint_presence = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--hue-margin") params.hue_margin = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--hue-alone") params.hue_alone = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--hue-min-chroma") params.hue_min_chroma = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--recentre-beside")
      params.recentre_beside = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--finer-retry") params.finer_retry = std::atoi(argv[i + 1]) != 0;
    if (std::string(argv[i]) == "--faint-lighter") params.faint_lighter = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--faint-lighter-contrast")
      params.faint_lighter_contrast = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--lone-crowded") params.lone_crowded = std::atoi(argv[i + 1]) != 0;
    if (std::string(argv[i]) == "--join-group") params.join_group = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--bridge-confidence") params.bridge_confidence = std::atof(argv[i + 1]);
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
  std::vector<std::string> refused;  // scenes whose calibration picture gave no calibration
  // The patch network's pion probability for a cell that kept its patch (--keep-patches 1), else
  // -1.
  const auto patch_pion = [&](const vp::Detection::Cell& c) -> double {
    if (c.patch.empty() || model.patch_net.empty()) return -1;
    return vp::patch_presence(model.patch_net, c.patch, params.patch_views);
  };
  // The examined cell of `d` nearest image point (x, y), and how far it lies (image pixels).
  const auto nearest_cell = [](const vp::Detection& d, double x, double y, double& distance) {
    const vp::Detection::Cell* near = nullptr;
    distance = 1e9;
    for (const auto& c : d.cells) {
      const double dist = std::hypot(c.centre.x / d.scale - x, c.centre.y / d.scale - y);
      if (dist < distance) distance = dist, near = &c;
    }
    return near;
  };
  for (const fs::path& file : files) {
    const nlohmann::json truth = nlohmann::json::parse(std::ifstream(file));
    const cv::Mat image = arbitre::vision::load_image((dir / truth["image"].get<std::string>()).string());
    const auto start = std::chrono::steady_clock::now();
    vp::Params read_params = params;
    if (!calibration_dir.empty()) {
      // The scene's calibration picture, read with the same model (time not counted).
      const vp::Detection shown =
          vp::detect(arbitre::vision::load_image(
                         (calibration_dir / truth["image"].get<std::string>()).string()),
                     params, model);
      read_params.calibration = vp::calibration_of(shown, params);
      if (!read_params.calibration) refused.push_back(file.stem().string());
    }
    const vp::Detection d = vp::detect(image, read_params, model);
    frame_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    stage_ms[0].push_back(d.timing.normalise_ms);
    stage_ms[1].push_back(d.timing.table_ms);
    stage_ms[2].push_back(d.timing.candidates_ms);
    stage_ms[3].push_back(d.timing.lattice_ms);
    stage_ms[4].push_back(d.timing.classify_ms);

    if (std::getenv("PIONS_EVAL_VERBOSE")) {
      std::fprintf(stderr,
                   "%s: truth pitch %.1f, width %.2f, 2r %.2f, lattice pitch %.1f, candidates %zu, "
                   "inliers %d, knight %d, pions %zu/%zu\n",
                   file.stem().c_str(), truth["scene"]["pitch_px"].get<double>() * d.scale,
                   d.pion_width / (truth["scene"]["pitch_px"].get<double>() * d.scale),
                   2 * d.pion_radius / (truth["scene"]["pitch_px"].get<double>() * d.scale),
                   d.lattice.pitch, d.candidates.size(), d.lattice.inliers, d.lattice.knight,
                   d.observation.pions.size(), truth["pions"].size());
    }
    if (const char* v = std::getenv("PIONS_EVAL_VERBOSE"); v && std::string(v) == "2") {
      // Every true pion not reported: the nearest cell the reader examined, and what it made of it.
      for (const auto& t : truth["pions"]) {
        const double tx = t["x"].get<double>(), ty = t["y"].get<double>();
        bool reported = false;
        for (const auto& p : d.observation.pions) reported |= std::hypot(p.x - tx, p.y - ty) < 0.4 * truth["scene"]["pitch_px"].get<double>();
        if (reported) continue;
        double best = 0;
        const vp::Detection::Cell* near = nearest_cell(d, tx, ty, best);
        std::string why = "no candidate";
        for (const auto& r : d.observation.rejected) {
          if (std::hypot(r.x - tx, r.y - ty) < 0.4 * truth["scene"]["pitch_px"].get<double>()) why = r.why;
        }
        std::fprintf(stderr,
                     "  missed %s %s at %.0f,%.0f: nearest cell %.2f pitch, label %d conf %.2f "
                     "presence %.2f patch %.2f, contrast %.2f; %s\n",
                     file.stem().c_str(), t["colour"].get<std::string>().c_str(), tx, ty,
                     best / truth["scene"]["pitch_px"].get<double>(), near ? near->label : -1,
                     near ? near->confidence : 0.0, near ? near->presence : 0.0,
                     near ? patch_pion(*near) : -1.0, near ? near->features[16] : 0.0f,
                     why.c_str());
      }
      // Every pion reported where no true pion lies: what the reader made of its cell.
      const double pitch = truth["scene"]["pitch_px"].get<double>();
      for (const auto& p : d.observation.pions) {
        bool real = false;
        for (const auto& t : truth["pions"])
          real |= std::hypot(p.x - t["x"].get<double>(), p.y - t["y"].get<double>()) < 0.4 * pitch;
        if (real) continue;
        double best = 0;
        const vp::Detection::Cell* near = nearest_cell(d, p.x, p.y, best);
        // The other pions read its colour: their median lightness, a and b.
        std::vector<double> ls, as, bs;
        for (const auto& c : d.cells) {
          if (&c == near || !near || c.label != near->label) continue;
          ls.push_back(c.features[0]);
          as.push_back(c.features[1]);
          bs.push_back(c.features[2]);
        }
        const auto mid = [](std::vector<double> v) {
          if (v.empty()) return -99.0;
          std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
          return v[v.size() / 2];
        };
        std::fprintf(stderr,
                     "  phantom %s %s at %.0f,%.0f: presence %.2f contrast %.2f%s; Lab %.1f %.1f "
                     "%.1f, its colour's others %.1f %.1f %.1f (%zu)\n",
                     file.stem().c_str(), std::string(ri::to_string(p.colour)).c_str(), p.x, p.y,
                     near ? near->presence : 0.0, near ? near->features[16] : 0.0f,
                     near && near->off_node ? ", off its node" : "",
                     near ? near->features[0] : 0.0f, near ? near->features[1] : 0.0f,
                     near ? near->features[2] : 0.0f, mid(ls), mid(as), mid(bs), ls.size());
      }
    }
    if (const char* v = std::getenv("PIONS_EVAL_VERBOSE"); v && std::string(v) == "7") {
      // Every pion read off its node: real or not, its colour, presence, and the pions read in
      // the three cells it was shifted toward (same colour / other).
      const double pitch = truth["scene"]["pitch_px"].get<double>();
      for (const auto& c : d.cells) {
        if (!c.off_node || c.label == 0) continue;
        bool real = false;
        for (const auto& t : truth["pions"])
          real |= std::hypot(c.centre.x / d.scale - t["x"].get<double>(),
                             c.centre.y / d.scale - t["y"].get<double>()) < 0.4 * pitch;
        const cv::Point2d l = d.lattice.to_lattice(c.centre);
        const int sx = l.x > c.lattice.x ? 1 : -1, sy = l.y > c.lattice.y ? 1 : -1;
        int same = 0, other = 0;
        for (const cv::Point n : {cv::Point(sx, 0), cv::Point(0, sy), cv::Point(sx, sy)}) {
          for (const auto& o : d.cells) {
            if (o.lattice == c.lattice + n && o.label > 0) (o.label == c.label ? same : other)++;
          }
        }
        std::fprintf(stderr, "OFF %s %d %d %.2f %.2f %d %d\n", file.stem().c_str(), real ? 1 : 0,
                     c.label, c.presence, c.features[16], same, other);
      }
    }
    if (const char* v = std::getenv("PIONS_EVAL_VERBOSE");
        v && std::string(v) == "4" && !model.patch_net.empty()) {
      // Every examined cell: whether a true pion lies within 0.35 pitch, its presence and label,
      // and the patch network's pion probability (with --keep-patches 1).
      const double pitch = truth["scene"]["pitch_px"].get<double>();
      for (const auto& c : d.cells) {
        if (c.patch.empty()) continue;
        int truth_pion = 0;
        for (const auto& t : truth["pions"]) {
          if (std::hypot(c.centre.x / d.scale - t["x"].get<double>(),
                         c.centre.y / d.scale - t["y"].get<double>()) < 0.35 * pitch)
            truth_pion = 1;
        }
        std::fprintf(stderr, "C %s %d %d %.3f %.3f\n", file.stem().c_str(), truth_pion, c.label,
                     c.presence, patch_pion(c));
      }
    }
    if (const char* v = std::getenv("PIONS_EVAL_VERBOSE"); v && std::string(v) == "5") {
      // Every cell not reported with a presence of 0.2 or more: whether a true pion lies within
      // 0.35 pitch, its presence, contrast, reported 4- and 8-neighbours, likeliest pion class,
      // and the scene's table and pieces.
      const double pitch = truth["scene"]["pitch_px"].get<double>();
      std::vector<int> shown(d.cells.size(), 0);
      for (std::size_t k = 0; k < d.cells.size(); ++k) {
        for (const auto& p : d.observation.pions)
          if (std::hypot(d.cells[k].centre.x / d.scale - p.x, d.cells[k].centre.y / d.scale - p.y) <
              0.3 * pitch)
            shown[k] = 1;
      }
      for (std::size_t k = 0; k < d.cells.size(); ++k) {
        const auto& c = d.cells[k];
        if (shown[k] || c.presence < 0.2) continue;
        int n4 = 0, n8 = 0;
        for (std::size_t m = 0; m < d.cells.size(); ++m) {
          if (!shown[m]) continue;
          const int di = std::abs(d.cells[m].lattice.x - c.lattice.x),
                    dj = std::abs(d.cells[m].lattice.y - c.lattice.y);
          if (di + dj == 1) ++n4;
          if (std::max(di, dj) == 1) ++n8;
        }
        int truth_pion = 0;
        for (const auto& t : truth["pions"])
          if (std::hypot(c.centre.x / d.scale - t["x"].get<double>(),
                         c.centre.y / d.scale - t["y"].get<double>()) < 0.35 * pitch)
            truth_pion = 1;
        std::fprintf(stderr, "U %s %d %.3f %.2f %d %d %d %s %s\n", file.stem().c_str(), truth_pion,
                     c.presence, c.features[16], n4, n8, c.likeliest,
                     truth["scene"]["table"].get<std::string>().c_str(),
                     truth["scene"]["shape"].get<std::string>().c_str());
      }
    }
    const arbitre::testing::SceneScore score = arbitre::testing::score_scene(truth, d.observation);
    truth_pions += score.truth;
    right += score.right;
    missed += score.missed;
    phantoms += score.phantoms;
    wrong_colour += score.wrong_colour;
    if (score.wrong_colour > 0 && std::getenv("PIONS_EVAL_VERBOSE")) {
      for (const auto& t : truth["pions"]) {
        for (const auto& p : d.observation.pions) {
          if (std::hypot(p.x - t["x"].get<double>(), p.y - t["y"].get<double>()) < 0.4 * truth["scene"]["pitch_px"].get<double>() &&
              ri::to_string(p.colour) != t["colour"].get<std::string>()) {
            std::fprintf(stderr, "  wrong colour in %s at %.0f,%.0f: %s read %s (confidence %.2f)\n", file.stem().c_str(),
                         p.x, p.y, t["colour"].get<std::string>().c_str(), std::string(ri::to_string(p.colour)).c_str(),
                         p.confidence);
          }
        }
      }
    }
    if (const char* v = std::getenv("PIONS_EVAL_VERBOSE"); v && std::string(v) == "3") {
      // Every reported pion matched to a true one: its true and read colour and its colour features.
      for (const auto& t : truth["pions"]) {
        for (const auto& p : d.observation.pions) {
          if (std::hypot(p.x - t["x"].get<double>(), p.y - t["y"].get<double>()) >= 0.4 * truth["scene"]["pitch_px"].get<double>()) continue;
          double best = 0;
          const vp::Detection::Cell* near = nearest_cell(d, p.x, p.y, best);
          if (!near) continue;
          std::fprintf(stderr, "F %s %s %s %.2f", file.stem().c_str(), t["colour"].get<std::string>().c_str(),
                       std::string(ri::to_string(p.colour)).c_str(), p.confidence);
          for (int k = 0; k < vp::kColourFeatures; ++k) std::fprintf(stderr, " %.2f", near->features[static_cast<std::size_t>(k)]);
          std::fprintf(stderr, "\n");
        }
      }
    }
    wrong_cell += score.wrong_cell;
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 5; ++r) confusion[c][r] += score.confusion[c][r];
    }
    const int board_errors = score.truth - score.right + score.phantoms;
    const int extra = score.phantoms;
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
  if (!calibration_dir.empty()) {
    std::printf("calibration refused (read without): %zu", refused.size());
    for (const auto& r : refused) std::printf(" %s", r.c_str());
    std::printf("\n");
  }
  std::printf("failures:\n");
  for (const auto& f : failures) std::printf("  %s\n", f.c_str());
  return 0;
}
