// scenegen — renders labelled table scenes of Irma pions with POV-Ray.
//
//   scenegen --out DIR [--count N] [--first K] [--seed S] [--width 1280] [--height 720] [--jpeg]
//
// Scene k (from K to K+N-1) depends only on the seed and k, so a set can be rendered in parts.
//
// For every scene: a board reached by a seeded random legal game (so pions are 8-connected,
// fit the 5x7 rectangle and follow the bag), laid out on a table with a random camera (0-35
// degrees from vertical), table material (wood, felt, cloth, patterned), light (warm, cool,
// mixed; shadows; a lamp hotspot), pion shape (discs or square tiles, touching or with gaps),
// material (matte or glossy, varied hues), jitter, distractors (a cup, a pencil); then sensor
// noise and optional JPEG compression. Beside each image, NNNN.json holds the ground truth:
// every pion's cell, colour and image position (projected with the camera POV-Ray used).
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "scoring/irma/advisor.h"

namespace fs = std::filesystem;
namespace ri = arbitre::referee::irma;
namespace si = arbitre::scoring::irma;

namespace {

struct Vec3 {
  double x = 0, y = 0, z = 0;
};
Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3 operator*(Vec3 a, double k) { return {a.x * k, a.y * k, a.z * k}; }
double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
Vec3 normalized(Vec3 a) { return a * (1.0 / std::sqrt(dot(a, a))); }

std::string pov(Vec3 v) {
  std::ostringstream s;
  s << "<" << v.x << ", " << v.y << ", " << v.z << ">";
  return s.str();
}

// A perspective camera as POV-Ray builds it from location, look_at, angle and right = x*aspect
// (left-handed, y up): projects a point to pixel coordinates.
struct Camera {
  Vec3 location, look_at;
  double angle_deg = 55;
  int width = 1280, height = 720;

  cv::Point2d project(Vec3 p) const {
    const Vec3 d = normalized(look_at - location);
    const Vec3 r = normalized(cross(Vec3{0, 1, 0}, d));
    const Vec3 u = cross(d, r);
    const Vec3 v = p - location;
    const double t = std::tan(angle_deg * M_PI / 360.0);
    const double x = dot(v, r) / dot(v, d) / t;
    const double y = dot(v, u) / dot(v, d) / t;
    return {width / 2.0 + x * width / 2.0, height / 2.0 - y * width / 2.0};
  }
};

class Random {
 public:
  explicit Random(std::uint64_t seed) : rng_(seed) {}
  double uniform(double lo, double hi) { return lo + (hi - lo) * (static_cast<double>(rng_() >> 11) / 9007199254740992.0); }
  int integer(int lo, int hi) { return lo + static_cast<int>(rng_() % static_cast<std::uint64_t>(hi - lo + 1)); }
  bool chance(double p) { return uniform(0, 1) < p; }
  double normal(double sigma) {
    double s = 0;
    for (int i = 0; i < 12; ++i) s += uniform(0, 1);
    return (s - 6) * sigma;
  }
  si::Rng& engine() { return rng_; }

 private:
  si::Rng rng_;
};

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

std::string rgb(double r, double g, double b) {
  std::ostringstream s;
  s << "rgb <" << r << ", " << g << ", " << b << ">";
  return s.str();
}

// Light colour for a temperature-like parameter: 0 = warm (tungsten), 1 = cool (daylight).
std::string light_colour(double t, double intensity) {
  const double r = (1.0 - 0.25 * t) * intensity;
  const double g = (0.85 + 0.1 * t) * intensity;
  const double b = (0.6 + 0.45 * t) * intensity;
  return rgb(r, g, b);
}

std::string table_texture(Random& random, std::string& kind) {
  const int choice = random.integer(0, 3);
  std::ostringstream s;
  if (choice == 0) {
    kind = "wood";
    const double h = random.uniform(0.25, 0.6);
    s << "pigment { wood turbulence " << random.uniform(0.05, 0.2) << " color_map { [0 "
      << rgb(h + 0.15, h * 0.65, h * 0.35) << "] [1 " << rgb(h, h * 0.5, h * 0.25) << "] } scale "
      << random.uniform(0.02, 0.08) << " rotate <0, " << random.uniform(0, 180) << ", 90> }"
      << " finish { diffuse 0.8 specular " << random.uniform(0.0, 0.3) << " roughness 0.05 }";
  } else if (choice == 1) {
    kind = "felt";
    const int hue = random.integer(0, 2);
    const double v = random.uniform(0.15, 0.4);
    const std::string c = hue == 0 ? rgb(0.05, v, 0.1) : hue == 1 ? rgb(0.05, 0.1, v) : rgb(v, 0.05, 0.08);
    s << "pigment { granite color_map { [0 " << c << "] [1 " << c << " * 0.8] } scale 0.004 }"
      << " normal { granite 0.2 scale 0.002 } finish { diffuse 0.9 specular 0 }";
  } else if (choice == 2) {
    kind = "cloth";
    const double a = random.uniform(0.5, 0.95);
    const double b = random.uniform(0.1, 0.5);
    const double hr = random.uniform(0.3, 1.0), hg = random.uniform(0.3, 1.0), hb = random.uniform(0.3, 1.0);
    s << "pigment { gradient x color_map { [0 " << rgb(a * hr, a * hg, a * hb) << "] [0.5 "
      << rgb(a * hr, a * hg, a * hb) << "] [0.5 " << rgb(b * hr, b * hg, b * hb) << "] [1 "
      << rgb(b * hr, b * hg, b * hb) << "] } scale " << random.uniform(0.01, 0.05) << " rotate <0, "
      << random.uniform(0, 180) << ", 0> } normal { bumps 0.15 scale 0.001 } finish { diffuse 0.85 }";
  } else {
    kind = "patterned";
    const double a = random.uniform(0.6, 0.95);
    const double hr = random.uniform(0.2, 1.0), hg = random.uniform(0.2, 1.0), hb = random.uniform(0.2, 1.0);
    s << "pigment { checker " << rgb(a, a, a * 0.95) << ", " << rgb(hr * 0.6, hg * 0.6, hb * 0.6)
      << " scale " << random.uniform(0.015, 0.06) << " rotate <0, " << random.uniform(0, 90)
      << ", 0> } finish { diffuse 0.85 }";
  }
  return s.str();
}

// The colour of a pion, with hue variation between sets.
std::string pion_colour(ri::Colour colour, const Vec3& hue_shift, Random& random) {
  const double j = 0.04;
  switch (colour) {
    case ri::Colour::Red:
      return rgb(0.7 + hue_shift.x * 0.15 + random.normal(j), 0.04 + hue_shift.y * 0.05, 0.05 + random.normal(0.01));
    case ri::Colour::Orange:
      return rgb(0.85 + random.normal(j), 0.32 + hue_shift.y * 0.1 + random.normal(0.02), 0.02);
    case ri::Colour::Green:
      return rgb(0.05 + hue_shift.x * 0.05, 0.45 + hue_shift.y * 0.15 + random.normal(j), 0.1 + hue_shift.z * 0.15);
    case ri::Colour::White:
      return rgb(0.85 + random.normal(0.02), 0.85 + random.normal(0.02), 0.8 + hue_shift.z * 0.1);
  }
  return rgb(1, 0, 1);
}

struct Scene {
  std::string pov;
  nlohmann::json truth;
};

Scene make_scene(Random& random, int width, int height) {
  Scene scene;
  const ri::Board board = random_board(random);
  const double pitch = random.uniform(0.022, 0.032);
  const bool squares = random.chance(0.4);
  const bool touching = squares && random.chance(0.5);
  const double size = touching ? pitch * random.uniform(0.97, 1.0) : pitch * random.uniform(0.78, 0.94);
  const double thickness = random.uniform(0.003, 0.008);
  const double jitter = touching ? 0.01 : random.uniform(0.0, 0.06);
  const double board_angle = random.uniform(-25, 25) * M_PI / 180.0;
  const bool glossy = random.chance(0.5);
  const Vec3 hue{random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1)};

  // Camera: tilt from vertical, distance, small yaw; looking near the board's centre.
  const double tilt = random.uniform(0, 35) * M_PI / 180.0;
  const double yaw = random.uniform(-15, 15) * M_PI / 180.0;
  const double distance = random.uniform(0.35, 0.6);
  const double fov = random.uniform(50, 62);
  Camera camera;
  camera.width = width;
  camera.height = height;
  camera.angle_deg = fov;
  camera.look_at = {random.uniform(-0.03, 0.03), 0, random.uniform(-0.03, 0.03)};
  camera.location = camera.look_at + Vec3{-std::sin(tilt) * std::sin(yaw) * distance, std::cos(tilt) * distance,
                                          -std::sin(tilt) * std::cos(yaw) * distance};
  if (tilt < 0.02) camera.location.z -= 0.001;  // keep look_at off the sky vector
  // Back the camera off until the whole board (with a pion's margin) is in the frame.
  const double half_w = (board.width() / 2.0 + 0.5) * pitch;
  const double half_h = (board.height() / 2.0 + 0.5) * pitch;
  for (int attempt = 0; attempt < 20; ++attempt) {
    bool inside = true;
    for (const double sx : {-1.0, 1.0}) {
      for (const double sz : {-1.0, 1.0}) {
        const double lx = sx * half_w, lz = sz * half_h;
        const Vec3 corner{lx * std::cos(board_angle) - lz * std::sin(board_angle), 0,
                          lx * std::sin(board_angle) + lz * std::cos(board_angle)};
        const cv::Point2d at = camera.project(corner);
        inside = inside && at.x > 0.04 * width && at.x < 0.96 * width && at.y > 0.04 * height && at.y < 0.96 * height;
      }
    }
    if (inside) break;
    camera.location = camera.look_at + (camera.location - camera.look_at) * 1.12;
  }

  std::ostringstream s;
  s << "#version 3.7;\nglobal_settings { assumed_gamma 1.0 max_trace_level 6 }\n";
  s << "camera { perspective location " << pov(camera.location) << " look_at " << pov(camera.look_at)
    << " angle " << fov << " right x*" << width << "/" << height << " }\n";
  std::string table_kind;
  s << "plane { y, 0 texture { " << table_texture(random, table_kind) << " } }\n";

  // Light: a key light with soft shadows, a fill, sometimes a lamp hotspot.
  const double temperature = random.uniform(0, 1);
  const int light_kind = temperature < 0.33 ? 0 : temperature < 0.66 ? 2 : 1;  // warm, mixed, cool
  const Vec3 key{random.uniform(-0.6, 0.6), random.uniform(0.6, 1.4), random.uniform(-0.6, 0.6)};
  s << "light_source { " << pov(key) << " color " << light_colour(temperature, random.uniform(0.8, 1.3))
    << " area_light <0.15, 0, 0>, <0, 0, 0.15>, 3, 3 adaptive 1 }\n";
  const double fill_t = light_kind == 2 ? 1.0 - temperature : temperature;
  s << "light_source { " << pov(Vec3{-key.x, 1.5, -key.z}) << " color "
    << light_colour(fill_t, random.uniform(0.2, 0.5)) << " shadowless }\n";
  const bool hotspot = random.chance(0.5);
  if (hotspot) {
    const Vec3 lamp{random.uniform(-0.15, 0.15), random.uniform(0.3, 0.5), random.uniform(-0.15, 0.15)};
    s << "light_source { " << pov(lamp) << " color " << light_colour(0.1, random.uniform(0.5, 1.0))
      << " spotlight point_at " << pov(Vec3{lamp.x + random.uniform(-0.1, 0.1), 0, lamp.z + random.uniform(-0.1, 0.1)})
      << " radius 12 falloff 30 tightness 5 }\n";
  }

  // Pions, centred on the table origin.
  const auto pions = board.pions();
  const ri::Cell tl = board.top_left();
  const double cr = (board.height() - 1) / 2.0;
  const double cc = (board.width() - 1) / 2.0;
  const double ca = std::cos(board_angle), sa = std::sin(board_angle);
  nlohmann::json truth = nlohmann::json::array();
  const std::string finish = glossy ? "finish { diffuse 0.7 specular 0.6 roughness 0.01 reflection 0.05 }"
                                    : "finish { diffuse 0.9 specular 0.05 roughness 0.1 }";
  for (const auto& [cell, colour] : pions) {
    // Table frame: columns along +x, rows toward the camera (-z), so row 0 is the far row.
    const double lx = (cell.col - tl.col - cc) * pitch + random.normal(jitter * pitch);
    const double lz = -(cell.row - tl.row - cr) * pitch + random.normal(jitter * pitch);
    const Vec3 centre{lx * ca - lz * sa, 0, lx * sa + lz * ca};
    const std::string pigment = "pigment { color " + pion_colour(colour, hue, random) + " }";
    if (squares) {
      const double h = size / 2;
      const double spin = board_angle * 180 / M_PI + random.normal(touching ? 0.5 : 3.0);
      s << "superellipsoid { <0.12, 0.12> scale <" << h << ", " << thickness / 2 << ", " << h << "> rotate <0, "
        << -spin << ", 0> translate " << pov(centre + Vec3{0, thickness / 2, 0}) << " " << pigment << " " << finish
        << " }\n";
    } else {
      s << "cylinder { " << pov(centre) << ", " << pov(centre + Vec3{0, thickness, 0}) << ", " << size / 2 << " "
        << pigment << " " << finish << " }\n";
    }
    const cv::Point2d at = camera.project(centre + Vec3{0, thickness, 0});
    truth.push_back({{"row", cell.row - tl.row},
                     {"col", cell.col - tl.col},
                     {"colour", std::string(ri::to_string(colour))},
                     {"x", std::round(at.x * 10) / 10},
                     {"y", std::round(at.y * 10) / 10}});
  }

  // Distractors away from the board.
  const double extent = pitch * 4.5;
  if (random.chance(0.6)) {
    const double a = random.uniform(0, 2 * M_PI);
    const Vec3 c{std::cos(a) * (extent + 0.06), 0, std::sin(a) * (extent + 0.06)};
    s << "difference { cylinder { " << pov(c) << ", " << pov(c + Vec3{0, 0.09, 0}) << ", 0.04 } cylinder { "
      << pov(c + Vec3{0, 0.005, 0}) << ", " << pov(c + Vec3{0, 0.1, 0}) << ", 0.036 } pigment { color "
      << rgb(random.uniform(0.2, 1), random.uniform(0.2, 1), random.uniform(0.2, 1))
      << " } finish { specular 0.5 } }\n";
  }
  if (random.chance(0.6)) {
    const double a = random.uniform(0, 2 * M_PI);
    const Vec3 c{std::cos(a) * (extent + 0.03), 0.004, std::sin(a) * (extent + 0.03)};
    const double r = random.uniform(0, 180);
    s << "union { cylinder { <-0.07, 0, 0>, <0.07, 0, 0>, 0.004 pigment { color " << rgb(0.9, 0.75, 0.1)
      << " } } cone { <0.07, 0, 0>, 0.004, <0.085, 0, 0>, 0.0005 pigment { color " << rgb(0.8, 0.65, 0.45)
      << " } } rotate <0, " << r << ", 0> translate " << pov(c) << " }\n";
  }
  scene.pov = s.str();
  scene.truth = {{"pions", truth},
                 {"scene",
                  {{"table", table_kind},
                   {"shape", squares ? (touching ? "touching squares" : "squares") : "discs"},
                   {"material", glossy ? "glossy" : "matte"},
                   {"light", light_kind == 0 ? "warm" : light_kind == 1 ? "cool" : "mixed"},
                   {"hotspot", hotspot},
                   {"tilt_deg", std::round(tilt * 180 / M_PI * 10) / 10},
                   {"pitch_px", std::round(cv::norm(camera.project({pitch, 0, 0}) - camera.project({0, 0, 0})) * 10) / 10}}}};
  return scene;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out = "scenes";
  int count = 10;
  int first = 0;
  std::uint64_t seed = 1;
  int width = 1280, height = 720;
  bool jpeg = false;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (flag == "--out") out = value();
    else if (flag == "--count") count = std::atoi(value().c_str());
    else if (flag == "--first") first = std::atoi(value().c_str());
    else if (flag == "--seed") seed = std::strtoull(value().c_str(), nullptr, 10);
    else if (flag == "--width") width = std::atoi(value().c_str());
    else if (flag == "--height") height = std::atoi(value().c_str());
    else if (flag == "--jpeg") jpeg = true;
    else {
      std::fprintf(stderr, "scenegen: unknown flag %s\n", flag.c_str());
      return 2;
    }
  }
  fs::create_directories(out);
  for (int k = first; k < first + count; ++k) {
    Random random(seed * 7919 + static_cast<std::uint64_t>(k));
    const Scene scene = make_scene(random, width, height);
    char name[32];
    std::snprintf(name, sizeof name, "%04d", k);
    const fs::path base = fs::path(out) / name;
    const fs::path pov_file = base.string() + ".pov";
    const fs::path png_file = base.string() + ".render.png";
    std::ofstream(pov_file) << scene.pov;
    const std::string command = "povray +I" + pov_file.string() + " +O" + png_file.string() + " +W" +
                                std::to_string(width) + " +H" + std::to_string(height) +
                                " +A0.3 -J -D -V +FN -GA > /dev/null 2>&1";
    if (std::system(command.c_str()) != 0) {
      std::fprintf(stderr, "scenegen: povray failed on %s\n", pov_file.c_str());
      return 1;
    }
    // Sensor noise and compression.
    cv::Mat image = cv::imread(png_file.string(), cv::IMREAD_COLOR);
    cv::Mat noise(image.size(), CV_16SC3);
    cv::theRNG().state = seed * 7919 + static_cast<std::uint64_t>(k) + 1;  // the same noise on every run
    const double sigma = random.uniform(1.0, 6.0);
    cv::randn(noise, 0, sigma);
    cv::Mat noisy;
    image.convertTo(noisy, CV_16SC3);
    noisy += noise;
    noisy.convertTo(image, CV_8UC3);
    nlohmann::json truth = scene.truth;
    truth["scene"]["noise_sigma"] = std::round(sigma * 10) / 10;
    std::string image_name = std::string(name) + (jpeg ? ".jpg" : ".png");
    if (jpeg) {
      const int quality = random.integer(60, 95);
      truth["scene"]["jpeg_quality"] = quality;
      cv::imwrite((fs::path(out) / image_name).string(), image, {cv::IMWRITE_JPEG_QUALITY, quality});
    } else {
      cv::imwrite((fs::path(out) / image_name).string(), image);
    }
    truth["image"] = image_name;
    truth["width"] = width;
    truth["height"] = height;
    std::ofstream(base.string() + ".json") << truth.dump(1) << "\n";
    fs::remove(png_file);
    fs::remove(pov_file);
    std::fprintf(stderr, "\r%d/%d", k - first + 1, count);
  }
  std::fprintf(stderr, "\n");
  return 0;
}
