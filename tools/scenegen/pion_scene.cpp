#include "pion_scene.h"

#include <sstream>

#include "scoring/irma/advisor.h"

namespace arbitre::tools::scenegen {

namespace {

namespace ri = referee::irma;
namespace si = scoring::irma;

// A board from a random legal game stopped after a random number of pions.
ri::Board random_board(Random& random) {
  const int target = random.integer(1, 35);
  ri::State state = ri::initial_state();
  std::vector<ri::Placement> legal;
  while (!ri::is_over(state) && state.board.size() < target) {
    const ri::Colour colour = si::draw(state, random.engine());
    ri::legal_placements(state, colour, legal);
    if (legal.empty()) break;
    ri::play(state, ri::Move::place(colour, si::choose_random(legal, random.engine())));
  }
  return state.board;
}

}  // namespace

std::string pion_colour(ri::Colour colour, const Vec3& hue_shift, Random& random) {
  const double j = 0.04;
  switch (colour) {
    case ri::Colour::Red:
      return rgb(0.7 + hue_shift.x * 0.15 + random.normal(j), 0.04 + hue_shift.y * 0.05,
                 0.05 + random.normal(0.01));
    case ri::Colour::Orange:
      return rgb(0.85 + random.normal(j), 0.32 + hue_shift.y * 0.1 + random.normal(0.02), 0.02);
    case ri::Colour::Green:
      return rgb(0.05 + hue_shift.x * 0.05, 0.45 + hue_shift.y * 0.15 + random.normal(j),
                 0.1 + hue_shift.z * 0.15);
    case ri::Colour::White:
      return rgb(0.85 + random.normal(0.02), 0.85 + random.normal(0.02), 0.8 + hue_shift.z * 0.1);
  }
  return rgb(1, 0, 1);
}

Scene make_pion_scene(Random& random, int width, int height,
                      std::optional<std::uint64_t> calibration_seed, bool empty) {
  Scene scene;
  const ri::Board board = random_board(random);
  const double pitch = random.uniform(0.022, 0.032);
  const bool squares = random.chance(0.4);
  const bool touching = squares && random.chance(0.5);
  const double size =
      touching ? pitch * random.uniform(0.97, 1.0) : pitch * random.uniform(0.78, 0.94);
  const double thickness = random.uniform(0.003, 0.008);
  const double jitter = touching ? 0.01 : random.uniform(0.0, 0.06);
  const double board_angle = random.uniform(-25, 25) * M_PI / 180.0;
  const bool glossy = random.chance(0.5);
  const Vec3 hue{random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1)};

  double tilt = 0;
  Camera camera = random_camera(random, width, height, 0.35, 0.6, tilt);
  // Back the camera off until the whole board (with a pion's margin) is in the frame.
  const double half_w = (board.width() / 2.0 + 0.5) * pitch;
  const double half_h = (board.height() / 2.0 + 0.5) * pitch;
  std::vector<Vec3> corners;
  for (const double sx : {-1.0, 1.0}) {
    for (const double sz : {-1.0, 1.0}) {
      const double lx = sx * half_w, lz = sz * half_h;
      corners.push_back({lx * std::cos(board_angle) - lz * std::sin(board_angle), 0,
                         lx * std::sin(board_angle) + lz * std::cos(board_angle)});
    }
  }
  back_off_until_in_frame(camera, corners, 0.04, 0.96, 1.12);

  std::ostringstream s;
  write_header(s, camera, 6);
  std::string table_kind;
  s << "plane { y, 0 texture { " << table_texture(random, table_kind) << " } }\n";
  const Lighting lighting = write_lights(random, s);

  // Pions, centred on the table origin.
  const auto pions = board.pions();
  const ri::Cell tl = board.top_left();
  const double cr = (board.height() - 1) / 2.0;
  const double cc = (board.width() - 1) / 2.0;
  const double ca = std::cos(board_angle), sa = std::sin(board_angle);
  nlohmann::json truth = nlohmann::json::array();
  const std::string finish =
      glossy ? "finish { diffuse 0.7 specular 0.6 roughness 0.01 reflection 0.05 }"
             : "finish { diffuse 0.9 specular 0.05 roughness 0.1 }";
  // A pion at (row, col) of the board's window (fractional: the calibration block), its
  // variation drawn from `draw`; written to the scene (and to the truth, as in the cell
  // (truth_row, truth_col)) when `shown`.
  const auto place = [&](double row, double col, ri::Colour colour, Random& draw, bool shown,
                         int truth_row, int truth_col) {
    // Table frame: columns along +x, rows toward the camera (-z), so row 0 is the far row.
    const double lx = (col - cc) * pitch + draw.normal(jitter * pitch);
    const double lz = -(row - cr) * pitch + draw.normal(jitter * pitch);
    const Vec3 centre{lx * ca - lz * sa, 0, lx * sa + lz * ca};
    const std::string pigment = "pigment { color " + pion_colour(colour, hue, draw) + " }";
    const double spin = squares ? board_angle * 180 / M_PI + draw.normal(touching ? 0.5 : 3.0) : 0;
    if (!shown) return;
    if (squares) {
      const double h = size / 2;
      s << "superellipsoid { <0.12, 0.12> scale <" << h << ", " << thickness / 2 << ", " << h
        << "> rotate <0, " << -spin << ", 0> translate " << pov(centre + Vec3{0, thickness / 2, 0})
        << " " << pigment << " " << finish << " }\n";
    } else {
      s << "cylinder { " << pov(centre) << ", " << pov(centre + Vec3{0, thickness, 0}) << ", "
        << size / 2 << " " << pigment << " " << finish << " }\n";
    }
    const cv::Point2d at = camera.project(centre + Vec3{0, thickness, 0});
    truth.push_back({{"row", truth_row},
                     {"col", truth_col},
                     {"colour", std::string(ri::to_string(colour))},
                     {"x", std::round(at.x * 10) / 10},
                     {"y", std::round(at.y * 10) / 10}});
  };
  for (const auto& [cell, colour] : pions) {
    place(cell.row - tl.row, cell.col - tl.col, colour, random, !calibration_seed && !empty,
          cell.row - tl.row, cell.col - tl.col);
  }
  if (calibration_seed && !empty) {
    // The block centred where the board's pions are, on average.
    double mean_row = 0, mean_col = 0;
    for (const auto& [cell, colour] : pions) {
      mean_row += static_cast<double>(cell.row - tl.row) / static_cast<double>(pions.size());
      mean_col += static_cast<double>(cell.col - tl.col) / static_cast<double>(pions.size());
    }
    Random own(*calibration_seed);
    for (int k = 0; k < 4; ++k) {
      place(mean_row - 0.5 + k / 2, mean_col - 0.5 + k % 2, static_cast<ri::Colour>(k), own, true,
            k / 2, k % 2);
    }
  }

  // Distractors away from the board.
  write_distractors(random, s, pitch * 4.5);
  scene.pov = s.str();
  scene.truth = {
      {"pions", truth},
      {"scene",
       {{"table", table_kind},
        {"shape", squares ? (touching ? "touching squares" : "squares") : "discs"},
        {"material", glossy ? "glossy" : "matte"},
        {"light", lighting.name()},
        {"hotspot", lighting.hotspot},
        {"tilt_deg", std::round(tilt * 180 / M_PI * 10) / 10},
        {"pitch_px",
         std::round(cv::norm(camera.project({pitch, 0, 0}) - camera.project({0, 0, 0})) * 10) /
             10}}}};
  return scene;
}

}  // namespace arbitre::tools::scenegen
