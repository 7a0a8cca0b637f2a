// scenegen's shared parts: vectors, the camera POV-Ray uses, the seeded random source, and what
// every kind of scene has in common (the table, the lights, the distractors, the render with its
// sensor noise and compression). Pion scenes (pion_scene.cpp) and d10 scenes (dice_scene.cpp)
// are built from these.
//
// Determinism: the pion scenes draw from Random in exactly the order the original single-file
// generator did; the functions below that take a Random keep that order (their bodies are the
// original code, moved). Do not reorder their draws.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "scoring/common/random.h"

namespace arbitre::tools::scenegen {

struct Vec3 {
  double x = 0, y = 0, z = 0;
};
inline Vec3 operator-(Vec3 a, Vec3 b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
inline Vec3 operator+(Vec3 a, Vec3 b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
inline Vec3 operator*(Vec3 a, double k) {
  return {a.x * k, a.y * k, a.z * k};
}
inline Vec3 operator-(Vec3 a) {
  return {-a.x, -a.y, -a.z};
}
inline double dot(Vec3 a, Vec3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double norm(Vec3 a) {
  return std::sqrt(dot(a, a));
}
inline Vec3 normalized(Vec3 a) {
  return a * (1.0 / std::sqrt(dot(a, a)));
}

// A 3x3 matrix acting on column vectors (p' = M p), row-major.
struct Mat3 {
  std::array<double, 9> m{1, 0, 0, 0, 1, 0, 0, 0, 1};
  Vec3 operator*(Vec3 v) const {
    return {m[0] * v.x + m[1] * v.y + m[2] * v.z, m[3] * v.x + m[4] * v.y + m[5] * v.z,
            m[6] * v.x + m[7] * v.y + m[8] * v.z};
  }
  Mat3 operator*(const Mat3& o) const;
  Vec3 column(int c) const { return {m[c], m[3 + c], m[6 + c]}; }
  // Rotation by `angle` (radians) about the unit `axis`, right-hand rule in these coordinates.
  static Mat3 rotation(Vec3 axis, double angle);
  // The turn about the vertical used for table layouts: (x, z) -> (x cos a - z sin a, x sin a + z
  // cos a).
  static Mat3 yaw(double angle);
  // The shortest rotation taking unit vector `from` onto unit vector `to`.
  static Mat3 align(Vec3 from, Vec3 to);
};

std::string pov(Vec3 v);
// A POV-Ray `matrix <...>` applying p -> r p + t.
std::string pov_matrix(const Mat3& r, Vec3 t);
std::string rgb(double r, double g, double b);

// A perspective camera as POV-Ray builds it from location, look_at, angle and right = x*aspect
// (left-handed, y up): projects a point to pixel coordinates.
struct Camera {
  Vec3 location, look_at;
  double angle_deg = 55;
  int width = 1280, height = 720;

  cv::Point2d project(Vec3 p) const;
};

class Random {
 public:
  explicit Random(std::uint64_t seed) : rng_(seed) {}
  double uniform(double lo, double hi) {
    return lo + (hi - lo) * (static_cast<double>(rng_() >> 11) / 9007199254740992.0);
  }
  int integer(int lo, int hi) {
    return lo + static_cast<int>(rng_() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  bool chance(double p) { return uniform(0, 1) < p; }
  double normal(double sigma) {
    double s = 0;
    for (int i = 0; i < 12; ++i) s += uniform(0, 1);
    return (s - 6) * sigma;
  }
  scoring::Rng& engine() { return rng_; }

 private:
  scoring::Rng rng_;
};

// Light colour for a temperature-like parameter: 0 = warm (tungsten), 1 = cool (daylight).
std::string light_colour(double t, double intensity);

// A random table texture (wood, felt, cloth, patterned); `kind` receives its name.
std::string table_texture(Random& random, std::string& kind);

// A camera tilted 0-35 degrees from vertical, turned up to 15 degrees, `distance` drawn in
// [distance_lo, distance_hi] from a look_at point within 3 cm of the origin (scenes are laid out
// round the origin); `tilt` receives the tilt in radians.
Camera random_camera(Random& random, int width, int height, double distance_lo, double distance_hi,
                     double& tilt);
// Whether every point projects strictly between fractions `lo` and `hi` of the width and height.
bool all_in_frame(const Camera& camera, const std::vector<Vec3>& points, double lo, double hi);
// Moves the camera away from its look_at point by `factor` per step (at most 20 steps) until
// every point is in the frame (as all_in_frame).
void back_off_until_in_frame(Camera& camera, const std::vector<Vec3>& points, double lo, double hi,
                             double factor);

// `#version`, global settings (plus `extra_settings`, if any) and the camera.
void write_header(std::ostream& s, const Camera& camera, int max_trace_level,
                  const std::string& extra_settings = "");

struct Lighting {
  int kind = 0;  // 0 warm, 1 cool, 2 mixed
  bool hotspot = false;
  std::string name() const { return kind == 0 ? "warm" : kind == 1 ? "cool" : "mixed"; }
};
// A key light with soft shadows, a fill, sometimes a lamp hotspot. `area_adaptive` is the key
// light's POV-Ray `adaptive` level (1: always 9 shadow rays, as pion scenes have; 0: 4, more
// only where they disagree).
Lighting write_lights(Random& random, std::ostream& s, int area_adaptive = 1);

// A cup and a pencil (each 60% of the time) outside a circle of radius `extent` round the origin.
void write_distractors(Random& random, std::ostream& s, double extent);

struct Scene {
  std::string pov;
  nlohmann::json truth;
};

struct RenderSettings {
  int width = 1280, height = 720;
  bool jpeg = false;
  int threads = 0;  // POV-Ray's +WT; 0 passes nothing (POV-Ray uses every core)
  std::string antialias = "+A0.3";
};

// Runs POV-Ray on `pov` (through the temporary files `base`.pov and `base`.render.png, removed
// afterwards) and returns the rendered image, empty when POV-Ray failed (the .pov is then kept).
cv::Mat raytrace(const std::string& pov, const std::filesystem::path& base,
                 const RenderSettings& settings);

// Renders `scene` to `base`.png|.jpg with POV-Ray, adds Gaussian sensor noise (cv::theRNG seeded
// with `noise_seed`, sigma drawn from `random`), compresses (quality drawn from `random`), writes
// `base`.json (the truth plus noise, quality, image name and size). Returns the final image,
// empty when POV-Ray failed.
cv::Mat render(const Scene& scene, Random& random, std::uint64_t noise_seed,
               const std::filesystem::path& base, const RenderSettings& settings,
               nlohmann::json& truth);

}  // namespace arbitre::tools::scenegen
