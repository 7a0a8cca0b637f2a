#include "irma_sequence.h"

#include <fstream>
#include <map>
#include <opencv2/imgcodecs.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "pion_scene.h"
#include "scoring/irma/score.h"

namespace arbitre::tools::scenegen {

namespace {

namespace ri = referee::irma;
namespace si = scoring::irma;
namespace fs = std::filesystem;

// A pion on the table (or in the hand): where it lies and how it looks, fixed once it is drawn.
struct Pion {
  ri::Cell cell;
  ri::Colour colour = ri::Colour::Red;
  Vec3 centre;  // on the table
  std::string pigment;
  bool stacked = false;  // tried on an occupied cell: lies on the pion there
  double spin = 0;       // tiles: degrees off the board's axes
};

// The scene's fixed parts, drawn once from the seed.
struct Setup {
  double pitch = 0.028;
  double diameter = 0.028 * 0.88;
  double thickness = 0.005;
  bool tiles = false;
  double board_angle = 0;
  double centre_row = 0, centre_col = 0;  // the cell at the table's origin
  Vec3 hue;
  std::string felt;
  Vec3 key;
  double tilt = 0, yaw = 0;
  Camera camera;

  Vec3 at(ri::Cell cell) const {
    const double lx = (cell.col - centre_col) * pitch;
    const double lz = -(cell.row - centre_row) * pitch;  // row 0 far from the camera
    const double ca = std::cos(board_angle), sa = std::sin(board_angle);
    return {lx * ca - lz * sa, 0, lx * sa + lz * ca};
  }
};

std::string felt_texture(Random& random) {
  // Dark blue felt: a colour none of the pions has, and a fine, low-contrast nap.
  const double v = random.uniform(0.22, 0.3);
  const std::string c = rgb(0.04, 0.08, v);
  std::ostringstream s;
  s << "pigment { granite color_map { [0 " << c << "] [1 " << c << " * 0.92] } scale 0.02 }"
    << " finish { diffuse 0.9 specular 0 }";
  return s.str();
}

Setup make_setup(Random& random, int width, int height, const std::vector<ri::Cell>& placed,
                 const std::vector<ri::Cell>& tried, const IrmaSequenceOptions& options) {
  Setup setup;
  setup.tiles = options.tiles;
  setup.diameter = setup.pitch * options.size_share;
  // The table's origin (where the camera looks) at the centre of every cell the game uses.
  int row_min = placed.front().row, row_max = row_min;
  int col_min = placed.front().col, col_max = col_min;
  for (const auto* cells : {&placed, &tried}) {
    for (const ri::Cell c : *cells) {
      row_min = std::min(row_min, c.row);
      row_max = std::max(row_max, c.row);
      col_min = std::min(col_min, c.col);
      col_max = std::max(col_max, c.col);
    }
  }
  setup.centre_row = (row_min + row_max) / 2.0;
  setup.centre_col = (col_min + col_max) / 2.0;
  setup.board_angle = random.uniform(-6, 6) * M_PI / 180.0;
  setup.hue = {random.uniform(-0.5, 0.5), random.uniform(-0.5, 0.5), random.uniform(-0.5, 0.5)};
  setup.felt = felt_texture(random);
  setup.key = {random.uniform(-0.4, 0.4), random.uniform(0.9, 1.3), random.uniform(0.1, 0.5)};

  setup.tilt = random.uniform(5, 12) * M_PI / 180.0;
  setup.yaw = random.uniform(-8, 8) * M_PI / 180.0;
  Camera& camera = setup.camera;
  camera.width = width;
  camera.height = height;
  camera.angle_deg = 35;  // a long lens from further away: little perspective
  camera.look_at = {0, 0, 0};
  const double distance = 0.35;
  camera.location = {-std::sin(setup.tilt) * std::sin(setup.yaw) * distance,
                     std::cos(setup.tilt) * distance,
                     -std::sin(setup.tilt) * std::cos(setup.yaw) * distance};
  // Every cell the game uses, with a pion's margin, in view.
  std::vector<Vec3> points;
  for (const auto* cells : {&placed, &tried}) {
    for (const ri::Cell c : *cells) {
      const Vec3 p = setup.at(c);
      for (const double dx : {-1.0, 1.0}) {
        for (const double dz : {-1.0, 1.0}) points.push_back(p + Vec3{dx, 0, dz} * (0.6 * setup.pitch));
      }
    }
  }
  for (int step = 0; step < 60 && !all_in_frame(camera, points, 0.04, 0.96); ++step) {
    camera.location = camera.look_at + (camera.location - camera.look_at) * 1.02;
  }
  return setup;
}

std::string pion_pov(const Setup& setup, const Pion& pion) {
  const Vec3 base = pion.centre + Vec3{0, pion.stacked ? setup.thickness : 0, 0};
  std::ostringstream s;
  if (setup.tiles) {
    const double h = setup.diameter / 2;
    s << "superellipsoid { <0.12, 0.12> scale <" << h << ", " << setup.thickness / 2 << ", " << h
      << "> rotate <0, " << -(setup.board_angle * 180 / M_PI + pion.spin) << ", 0> translate "
      << pov(base + Vec3{0, setup.thickness / 2, 0});
  } else {
    s << "cylinder { " << pov(base) << ", " << pov(base + Vec3{0, setup.thickness, 0}) << ", "
      << setup.diameter / 2;
  }
  s << " pigment { color " << pion.pigment
    << " } finish { diffuse 0.9 specular 0.05 roughness 0.1 } }\n";
  return s.str();
}

// A hand holding `pion` a few centimetres over its cell, the forearm reaching in from the right
// and from the camera's side.
std::string hand_pov(const Setup& setup, const Pion& pion) {
  const Vec3 held = pion.centre + Vec3{0, 0.03, 0};
  const Vec3 palm = held + Vec3{0.025, 0.03, -0.005};
  const Vec3 elbow = palm + Vec3{0.3, 0.1, -0.15};
  const std::string skin =
      "pigment { color rgb <0.78, 0.53, 0.41> } finish { diffuse 0.8 specular 0.08 roughness 0.1 }";
  std::ostringstream s;
  s << "union {\n";
  s << "  sphere { 0, 1 scale <0.04, 0.014, 0.045> rotate <0, 35, 0> translate " << pov(palm)
    << " }\n";
  s << "  cone { " << pov(palm) << ", 0.022, " << pov(elbow) << ", 0.03 }\n";
  // Thumb and two fingers pinching the pion's rim.
  const double r = setup.diameter / 2;
  for (const Vec3 tip : {held + Vec3{-r, 0.004, 0}, held + Vec3{r * 0.3, 0.004, r},
                         held + Vec3{r * 0.3, 0.004, -r}}) {
    s << "  cylinder { " << pov(palm) << ", " << pov(tip) << ", 0.008 }\n";
    s << "  sphere { " << pov(tip) << ", 0.008 }\n";
  }
  s << "  " << skin << "\n}\n";
  s << "cylinder { " << pov(held - Vec3{0, setup.thickness / 2, 0}) << ", "
    << pov(held + Vec3{0, setup.thickness / 2, 0}) << ", " << r << " pigment { color "
    << pion.pigment << " } finish { diffuse 0.9 specular 0.05 roughness 0.1 } }\n";
  return s.str();
}

double tenth(double v) { return std::round(v * 10) / 10; }

Scene make_shot(const Setup& setup, const std::vector<Pion>& pions, const Pion* hand) {
  std::ostringstream s;
  write_header(s, setup.camera, 6);
  s << "plane { y, 0 texture { " << setup.felt << " } }\n";
  s << "light_source { " << pov(setup.key) << " color " << light_colour(0.35, 1.1)
    << " area_light <0.15, 0, 0>, <0, 0, 0.15>, 3, 3 adaptive 1 }\n";
  s << "light_source { " << pov(Vec3{-setup.key.x, 1.5, -setup.key.z}) << " color "
    << light_colour(0.5, 0.4) << " shadowless }\n";
  nlohmann::json list = nlohmann::json::array();
  for (const Pion& pion : pions) {
    s << pion_pov(setup, pion);
    const double top = setup.thickness * (pion.stacked ? 2 : 1);
    const cv::Point2d at = setup.camera.project(pion.centre + Vec3{0, top, 0});
    nlohmann::json entry = {{"row", pion.cell.row},
                            {"col", pion.cell.col},
                            {"colour", std::string(ri::to_string(pion.colour))},
                            {"x", tenth(at.x)},
                            {"y", tenth(at.y)}};
    if (pion.stacked) entry["stacked"] = true;
    list.push_back(std::move(entry));
  }
  if (hand) s << hand_pov(setup, *hand);
  Scene scene;
  scene.pov = s.str();
  scene.truth = {{"pions", std::move(list)}};
  return scene;
}

}  // namespace

IrmaSequence make_irma_sequence(const data::irma::GameRecord& record, std::uint64_t seed,
                                int width, int height, const IrmaSequenceOptions& options) {
  if (record.players.size() != 1) {
    throw std::invalid_argument("an Irma recording shows one player's table: the record has " +
                                std::to_string(record.players.size()) + " players");
  }
  const data::irma::PlayerRecord& player = record.players.front();
  const std::vector<ri::Move>& moves = player.record.moves;

  // The referee's verdict on every move and the score after it.
  std::vector<ri::Verdict> verdicts;
  std::vector<int> scores;
  ri::State state;
  if (const auto error = ri::replay(player.record, state,
                                    [&](const ri::Move&, const ri::Verdict& v, const ri::State& s) {
                                      verdicts.push_back(v);
                                      scores.push_back(si::score(s));
                                    })) {
    throw std::invalid_argument("the record cannot have happened: moves[" +
                                std::to_string(error->move) + "]." + error->field + ": " +
                                error->message);
  }
  std::vector<ri::Cell> placed, tried;
  for (std::size_t m = 0; m < moves.size() && m < verdicts.size(); ++m) {
    if (!moves[m].cell) continue;
    (verdicts[m].legal() ? placed : tried).push_back(*moves[m].cell);
  }
  if (placed.empty()) throw std::invalid_argument("the record places no pion");

  Random random(seed);
  const Setup setup = make_setup(random, width, height, placed, tried, options);

  IrmaSequence sequence;
  std::vector<Pion> table;     // the pions the game has accepted
  std::optional<Pion> pending;  // a refused try, still where it was tried
  const auto with = [&](const std::optional<Pion>& extra) {
    std::vector<Pion> pions = table;
    if (extra) pions.push_back(*extra);
    return pions;
  };
  {
    Shot shot{make_shot(setup, {}, nullptr), options.empty_frames};
    shot.scene.truth["kind"] = "empty";
    shot.scene.truth["move"] = -1;
    sequence.shots.push_back(std::move(shot));
  }
  nlohmann::json unseen = nlohmann::json::array();
  for (std::size_t m = 0; m < moves.size() && m < verdicts.size(); ++m) {
    const ri::Move& move = moves[m];
    if (!move.cell) {
      unseen.push_back({{"move", m}, {"what", ri::to_text(move)}});
      continue;
    }
    Pion pion;
    pion.cell = *move.cell;
    pion.colour = move.colour;
    // The pion a refused try left on the table is the one placed now: it keeps its looks.
    pion.pigment = pending && pending->colour == move.colour
                       ? pending->pigment
                       : pion_colour(move.colour, setup.hue, random);
    const double jx = random.normal(0.01 * setup.pitch), jz = random.normal(0.01 * setup.pitch);
    pion.centre = setup.at(pion.cell) + Vec3{jx, 0, jz};
    pion.spin = random.normal(1.0);
    for (const Pion& p : table) pion.stacked = pion.stacked || p.cell == pion.cell;

    Shot hand{make_shot(setup, with(std::nullopt), &pion), options.hand_frames};
    hand.scene.truth["kind"] = "hand";
    hand.scene.truth["move"] = m;
    sequence.shots.push_back(std::move(hand));

    Shot shot{make_shot(setup, with(pion), nullptr), options.settle_frames};
    shot.scene.truth["kind"] = "placed";
    shot.scene.truth["move"] = m;
    shot.scene.truth["tried"] = {{"row", pion.cell.row},
                                 {"col", pion.cell.col},
                                 {"colour", std::string(ri::to_string(pion.colour))}};
    shot.scene.truth["verdict"] =
        verdicts[m].legal() ? std::string("accepted") : std::string(ri::to_string(verdicts[m].reason));
    shot.scene.truth["score"] = scores[m];
    sequence.shots.push_back(std::move(shot));

    if (verdicts[m].legal()) {
      table.push_back(pion);
      pending.reset();
    } else {
      pending = pion;
    }
  }

  nlohmann::json& truth = sequence.truth;
  truth["game"] = "irma";
  truth["fps"] = options.fps;
  truth["players"] = {player.name};
  truth["scores"] = {{player.name, si::score(state)}};
  truth["plus"] = {{player.name, si::has_plus(state)}};
  truth["completed"] = state.status == ri::Status::Completed;
  truth["moves"] = moves.size();
  truth["unseen_moves"] = unseen;
  truth["seed"] = seed;
  truth["width"] = width;
  truth["height"] = height;
  truth["jpeg_quality"] = options.quality;
  truth["noise_sigma"] = options.noise_sigma;
  truth["scene"] = {
      {"table", "blue felt"},
      {"shape", options.tiles ? "square tiles" : "discs"},
      {"size_share", options.size_share},
      {"material", "matte"},
      {"light", "warm key with soft shadows, fill, no hotspot"},
      {"tilt_deg", tenth(setup.tilt * 180 / M_PI)},
      {"yaw_deg", tenth(setup.yaw * 180 / M_PI)},
      {"board_angle_deg", tenth(setup.board_angle * 180 / M_PI)},
      {"pitch_mm", setup.pitch * 1000},
      {"pitch_px", tenth(cv::norm(setup.camera.project({setup.pitch, 0, 0}) -
                                  setup.camera.project({0, 0, 0})))}};
  truth["frames_per_shot"] = {{"empty", options.empty_frames},
                              {"hand", options.hand_frames},
                              {"placed", options.settle_frames}};
  return sequence;
}

int render_irma_sequence(const IrmaSequence& sequence, const fs::path& dir,
                         const RenderSettings& settings, std::uint64_t seed,
                         const IrmaSequenceOptions& options) {
  fs::create_directories(dir);
  const double fps = options.fps > 0 ? options.fps : 2;
  int frame = 0;
  nlohmann::json shots = nlohmann::json::array();
  const std::size_t count = options.max_shots > 0
                                ? std::min(sequence.shots.size(), static_cast<std::size_t>(options.max_shots))
                                : sequence.shots.size();
  std::map<std::size_t, std::vector<unsigned char>> repeated;  // pictures a later shot repeats
  for (std::size_t k = 0; k < count; ++k) {
    const Shot& shot = sequence.shots[k];
    std::vector<unsigned char> bytes;
    if (shot.same_as >= 0 && repeated.count(static_cast<std::size_t>(shot.same_as))) {
      bytes = repeated[static_cast<std::size_t>(shot.same_as)];
    } else {
      cv::Mat image = raytrace(shot.scene.pov, dir / ("shot" + std::to_string(k)), settings);
      if (image.empty()) return -1;
      cv::Mat noise(image.size(), CV_16SC3);
      cv::theRNG().state = seed * 1000003ULL + k + 1;  // the same noise on every run
      cv::randn(noise, 0, options.noise_sigma);
      cv::Mat noisy;
      image.convertTo(noisy, CV_16SC3);
      noisy += noise;
      noisy.convertTo(image, CV_8UC3);
      cv::imencode(".jpg", image, bytes, {cv::IMWRITE_JPEG_QUALITY, options.quality});
      for (std::size_t later = k + 1; later < count; ++later) {
        if (sequence.shots[later].same_as == static_cast<int>(k)) {
          repeated[k] = bytes;
          break;
        }
      }
    }
    nlohmann::json truth = shot.scene.truth;
    truth["frames"] = {frame, frame + shot.frames - 1};
    truth["seconds"] = std::round(frame / fps * 1000) / 1000;
    shots.push_back(std::move(truth));
    for (int f = 0; f < shot.frames; ++f, ++frame) {
      char name[32];
      std::snprintf(name, sizeof name, "%04d.jpg", frame);
      std::ofstream(dir / name, std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    std::fprintf(stderr, "\r%zu/%zu pictures", k + 1, count);
  }
  std::fprintf(stderr, "\n");
  // One line per top-level field and per shot: readable, and small.
  nlohmann::json truth = sequence.truth;
  truth["frames"] = frame;
  std::ostringstream out;
  out << "{\n";
  for (auto it = truth.begin(); it != truth.end(); ++it) {
    out << " " << nlohmann::json(it.key()).dump() << ": " << it.value().dump() << ",\n";
  }
  out << " \"shots\": [\n";
  for (std::size_t k = 0; k < shots.size(); ++k) {
    out << "  " << shots[k].dump() << (k + 1 < shots.size() ? ",\n" : "\n");
  }
  out << " ]\n}\n";
  std::ofstream(dir / "truth.json") << out.str();
  return frame;
}

}  // namespace arbitre::tools::scenegen
