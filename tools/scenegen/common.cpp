#include "common.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <opencv2/imgcodecs.hpp>
#include <sstream>

namespace fs = std::filesystem;

namespace arbitre::tools::scenegen {

Mat3 Mat3::operator*(const Mat3& o) const {
  Mat3 r;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      r.m[i * 3 + j] = m[i * 3] * o.m[j] + m[i * 3 + 1] * o.m[3 + j] + m[i * 3 + 2] * o.m[6 + j];
    }
  }
  return r;
}

Mat3 Mat3::rotation(Vec3 axis, double angle) {
  const Vec3 a = normalized(axis);
  const double c = std::cos(angle), s = std::sin(angle), t = 1 - c;
  Mat3 r;
  r.m = {t * a.x * a.x + c,       t * a.x * a.y - s * a.z, t * a.x * a.z + s * a.y,
         t * a.x * a.y + s * a.z, t * a.y * a.y + c,       t * a.y * a.z - s * a.x,
         t * a.x * a.z - s * a.y, t * a.y * a.z + s * a.x, t * a.z * a.z + c};
  return r;
}

Mat3 Mat3::yaw(double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  Mat3 r;
  r.m = {c, 0, -s, 0, 1, 0, s, 0, c};
  return r;
}

Mat3 Mat3::align(Vec3 from, Vec3 to) {
  const Vec3 axis = cross(from, to);
  const double s = norm(axis);
  const double c = dot(from, to);
  if (s < 1e-12) {
    if (c > 0) return Mat3{};
    // Opposite: a half turn about any axis perpendicular to `from`.
    const Vec3 other = std::abs(from.x) < 0.9 ? Vec3{1, 0, 0} : Vec3{0, 0, 1};
    return rotation(cross(from, other), M_PI);
  }
  return rotation(axis, std::atan2(s, c));
}

std::string pov(Vec3 v) {
  std::ostringstream s;
  s << "<" << v.x << ", " << v.y << ", " << v.z << ">";
  return s.str();
}

std::string pov_matrix(const Mat3& r, Vec3 t) {
  std::ostringstream s;
  s.precision(9);
  // POV-Ray's rows are the images of the x, y and z axes, then the translation.
  s << "matrix <";
  for (int c = 0; c < 3; ++c) {
    const Vec3 col = r.column(c);
    s << col.x << ", " << col.y << ", " << col.z << ", ";
  }
  s << t.x << ", " << t.y << ", " << t.z << ">";
  return s.str();
}

std::string rgb(double r, double g, double b) {
  std::ostringstream s;
  s << "rgb <" << r << ", " << g << ", " << b << ">";
  return s.str();
}

cv::Point2d Camera::project(Vec3 p) const {
  const Vec3 d = normalized(look_at - location);
  const Vec3 r = normalized(cross(Vec3{0, 1, 0}, d));
  const Vec3 u = cross(d, r);
  const Vec3 v = p - location;
  const double t = std::tan(angle_deg * M_PI / 360.0);
  const double x = dot(v, r) / dot(v, d) / t;
  const double y = dot(v, u) / dot(v, d) / t;
  return {width / 2.0 + x * width / 2.0, height / 2.0 - y * width / 2.0};
}

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
    const std::string c = hue == 0   ? rgb(0.05, v, 0.1)
                          : hue == 1 ? rgb(0.05, 0.1, v)
                                     : rgb(v, 0.05, 0.08);
    s << "pigment { granite color_map { [0 " << c << "] [1 " << c << " * 0.8] } scale 0.004 }"
      << " normal { granite 0.2 scale 0.002 } finish { diffuse 0.9 specular 0 }";
  } else if (choice == 2) {
    kind = "cloth";
    const double a = random.uniform(0.5, 0.95);
    const double b = random.uniform(0.1, 0.5);
    const double hr = random.uniform(0.3, 1.0), hg = random.uniform(0.3, 1.0),
                 hb = random.uniform(0.3, 1.0);
    s << "pigment { gradient x color_map { [0 " << rgb(a * hr, a * hg, a * hb) << "] [0.5 "
      << rgb(a * hr, a * hg, a * hb) << "] [0.5 " << rgb(b * hr, b * hg, b * hb) << "] [1 "
      << rgb(b * hr, b * hg, b * hb) << "] } scale " << random.uniform(0.01, 0.05) << " rotate <0, "
      << random.uniform(0, 180)
      << ", 0> } normal { bumps 0.15 scale 0.001 } finish { diffuse 0.85 }";
  } else {
    kind = "patterned";
    const double a = random.uniform(0.6, 0.95);
    const double hr = random.uniform(0.2, 1.0), hg = random.uniform(0.2, 1.0),
                 hb = random.uniform(0.2, 1.0);
    s << "pigment { checker " << rgb(a, a, a * 0.95) << ", " << rgb(hr * 0.6, hg * 0.6, hb * 0.6)
      << " scale " << random.uniform(0.015, 0.06) << " rotate <0, " << random.uniform(0, 90)
      << ", 0> } finish { diffuse 0.85 }";
  }
  return s.str();
}

Camera random_camera(Random& random, int width, int height, double distance_lo, double distance_hi,
                     double& tilt) {
  // Tilt from vertical, distance, small yaw; looking near the origin.
  tilt = random.uniform(0, 35) * M_PI / 180.0;
  const double yaw = random.uniform(-15, 15) * M_PI / 180.0;
  const double distance = random.uniform(distance_lo, distance_hi);
  const double fov = random.uniform(50, 62);
  Camera camera;
  camera.width = width;
  camera.height = height;
  camera.angle_deg = fov;
  camera.look_at = {random.uniform(-0.03, 0.03), 0, random.uniform(-0.03, 0.03)};
  camera.location =
      camera.look_at + Vec3{-std::sin(tilt) * std::sin(yaw) * distance, std::cos(tilt) * distance,
                            -std::sin(tilt) * std::cos(yaw) * distance};
  if (tilt < 0.02) camera.location.z -= 0.001;  // keep look_at off the sky vector
  return camera;
}

bool all_in_frame(const Camera& camera, const std::vector<Vec3>& points, double lo, double hi) {
  const int width = camera.width, height = camera.height;
  bool inside = true;
  for (const Vec3& p : points) {
    const cv::Point2d at = camera.project(p);
    inside = inside && at.x > lo * width && at.x < hi * width && at.y > lo * height &&
             at.y < hi * height;
  }
  return inside;
}

void back_off_until_in_frame(Camera& camera, const std::vector<Vec3>& points, double lo, double hi,
                             double factor) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    if (all_in_frame(camera, points, lo, hi)) break;
    camera.location = camera.look_at + (camera.location - camera.look_at) * factor;
  }
}

void write_header(std::ostream& s, const Camera& camera, int max_trace_level,
                  const std::string& extra_settings) {
  s << "#version 3.7;\nglobal_settings { assumed_gamma 1.0 max_trace_level " << max_trace_level
    << (extra_settings.empty() ? "" : " " + extra_settings) << " }\n";
  s << "camera { perspective location " << pov(camera.location) << " look_at "
    << pov(camera.look_at) << " angle " << camera.angle_deg << " right x*" << camera.width << "/"
    << camera.height << " }\n";
}

Lighting write_lights(Random& random, std::ostream& s, int area_adaptive) {
  Lighting lighting;
  const double temperature = random.uniform(0, 1);
  const int light_kind = temperature < 0.33 ? 0 : temperature < 0.66 ? 2 : 1;  // warm, mixed, cool
  const Vec3 key{random.uniform(-0.6, 0.6), random.uniform(0.6, 1.4), random.uniform(-0.6, 0.6)};
  s << "light_source { " << pov(key) << " color "
    << light_colour(temperature, random.uniform(0.8, 1.3))
    << " area_light <0.15, 0, 0>, <0, 0, 0.15>, 3, 3 adaptive " << area_adaptive << " }\n";
  const double fill_t = light_kind == 2 ? 1.0 - temperature : temperature;
  s << "light_source { " << pov(Vec3{-key.x, 1.5, -key.z}) << " color "
    << light_colour(fill_t, random.uniform(0.2, 0.5)) << " shadowless }\n";
  const bool hotspot = random.chance(0.5);
  if (hotspot) {
    const Vec3 lamp{random.uniform(-0.15, 0.15), random.uniform(0.3, 0.5),
                    random.uniform(-0.15, 0.15)};
    s << "light_source { " << pov(lamp) << " color " << light_colour(0.1, random.uniform(0.5, 1.0))
      << " spotlight point_at "
      << pov(Vec3{lamp.x + random.uniform(-0.1, 0.1), 0, lamp.z + random.uniform(-0.1, 0.1)})
      << " radius 12 falloff 30 tightness 5 }\n";
  }
  lighting.kind = light_kind;
  lighting.hotspot = hotspot;
  return lighting;
}

void write_distractors(Random& random, std::ostream& s, double extent) {
  if (random.chance(0.6)) {
    const double a = random.uniform(0, 2 * M_PI);
    const Vec3 c{std::cos(a) * (extent + 0.06), 0, std::sin(a) * (extent + 0.06)};
    s << "difference { cylinder { " << pov(c) << ", " << pov(c + Vec3{0, 0.09, 0})
      << ", 0.04 } cylinder { " << pov(c + Vec3{0, 0.005, 0}) << ", " << pov(c + Vec3{0, 0.1, 0})
      << ", 0.036 } pigment { color "
      << rgb(random.uniform(0.2, 1), random.uniform(0.2, 1), random.uniform(0.2, 1))
      << " } finish { specular 0.5 } }\n";
  }
  if (random.chance(0.6)) {
    const double a = random.uniform(0, 2 * M_PI);
    const Vec3 c{std::cos(a) * (extent + 0.03), 0.004, std::sin(a) * (extent + 0.03)};
    const double r = random.uniform(0, 180);
    s << "union { cylinder { <-0.07, 0, 0>, <0.07, 0, 0>, 0.004 pigment { color "
      << rgb(0.9, 0.75, 0.1)
      << " } } cone { <0.07, 0, 0>, 0.004, <0.085, 0, 0>, 0.0005 pigment { color "
      << rgb(0.8, 0.65, 0.45) << " } } rotate <0, " << r << ", 0> translate " << pov(c) << " }\n";
  }
}

cv::Mat raytrace(const std::string& pov, const fs::path& base, const RenderSettings& settings) {
  const fs::path pov_file = base.string() + ".pov";
  const fs::path png_file = base.string() + ".render.png";
  std::ofstream(pov_file) << pov;
  std::string command = "povray +I" + pov_file.string() + " +O" + png_file.string() + " +W" +
                        std::to_string(settings.width) + " +H" + std::to_string(settings.height) +
                        " " + settings.antialias + " -J -D -V +FN -GA";
  if (settings.threads > 0) command += " +WT" + std::to_string(settings.threads);
  command += " > /dev/null 2>&1";
  // POV-Ray now and then fails on a scene it renders the next time (seen once in 400 renders on
  // 2026-12-03, the scene fine when run again): the render is deterministic, so it is tried up
  // to three times before the scene is given up.
  int attempt = 0;
  while (std::system(command.c_str()) != 0) {
    if (++attempt == 3) {
      std::fprintf(stderr, "scenegen: povray failed on %s (three times)\n", pov_file.c_str());
      return {};
    }
    std::fprintf(stderr, "scenegen: povray failed on %s, trying again\n", pov_file.c_str());
  }
  cv::Mat image = cv::imread(png_file.string(), cv::IMREAD_COLOR);
  fs::remove(png_file);
  fs::remove(pov_file);
  return image;
}

cv::Mat render(const Scene& scene, Random& random, std::uint64_t noise_seed, const fs::path& base,
               const RenderSettings& settings, nlohmann::json& truth) {
  cv::Mat image = raytrace(scene.pov, base, settings);
  if (image.empty()) return {};
  // Sensor noise and compression.
  cv::Mat noise(image.size(), CV_16SC3);
  cv::theRNG().state = noise_seed;  // the same noise on every run
  const double sigma = random.uniform(1.0, 6.0);
  cv::randn(noise, 0, sigma);
  cv::Mat noisy;
  image.convertTo(noisy, CV_16SC3);
  noisy += noise;
  noisy.convertTo(image, CV_8UC3);
  truth = scene.truth;
  truth["scene"]["noise_sigma"] = std::round(sigma * 10) / 10;
  const std::string image_name = base.filename().string() + (settings.jpeg ? ".jpg" : ".png");
  const fs::path image_file = base.parent_path() / image_name;
  if (settings.jpeg) {
    const int quality = random.integer(60, 95);
    truth["scene"]["jpeg_quality"] = quality;
    cv::imwrite(image_file.string(), image, {cv::IMWRITE_JPEG_QUALITY, quality});
    image = cv::imread(image_file.string(), cv::IMREAD_COLOR);  // what a reader will see
  } else {
    cv::imwrite(image_file.string(), image);
  }
  truth["image"] = image_name;
  truth["width"] = settings.width;
  truth["height"] = settings.height;
  std::ofstream(base.string() + ".json") << truth.dump(1) << "\n";
  return image;
}

}  // namespace arbitre::tools::scenegen
