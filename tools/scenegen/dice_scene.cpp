// d10 scenes (scenegen --dice, --sequence) for "Vision II: reading ten d10".
//
// Dice. Every scene holds the ten dice of Le Yams impossible: five red (white or gold digits)
// and five white or ivory (black digits). They are true pentagonal trapezohedra (d10.h: ten
// congruent kites, pole height 1.15-1.35 x the ring radius, 15-18 mm across, edges rounded with
// a radius of 4-9% of the ring radius), numbered as real dice are (0 7 4 1 6 9 2 5 8 3 round the
// zigzag, even digits at one pole and odd ones at the other, opposite faces summing to 9, 6
// and 9 underlined), each digit upright toward its face's pole. Each colour set draws its
// shade, font (DejaVu Sans, Sans Bold, Serif, Serif Bold, Sans Mono, Sans Mono Bold), marking
// (engraved and inked: cut 0.35 mm deep by a CSG difference; or printed: raised 0.04 mm),
// digit size and finish (glossy or matte). In `textured_share` of the scenes (20%) every die
// is frosted (translucent, rough surface) or transparent (red glass, or pale smoky-blue glass
// for the white set), split at random as the rules allow (all dice textured or none).
//
// Layouts. Half the scenes have a tray (felt lining; walls of wood, leather or plastic; 14-20
// x 9-13 cm inside, walls 16-30 mm high) with dice just rolled in it and 1-7 dice in the kept
// area, which lies in front of the rolling area (toward the camera, i.e. the player) or beside
// it, the kept dice in a row (touching or a few mm apart) or a small cluster; a quarter have
// all ten dice in the tray; a quarter have no tray: dice rolled on the open table ("table") and
// 0-6 kept. A die at rest lies on a kite face, so the face read is the opposite kite,
// horizontal. Dice never come closer than 0.05 mm to each other or to the tray (exact convex
// distances, d10.h) and often touch (contact found by bisection). In `cocked_share` of the
// scenes (25%) one or two rolled dice are cocked: pivoting on an edge of the face below,
// turned 15-40 degrees, leaning on another die or on a tray wall on the side they would fall
// toward, with no face within 12 degrees of horizontal. With `wall_share` (0 unless told),
// each die rolled into a tray lies flat against one of its walls with that probability.
//
// Surroundings. Camera, table, lights, distractors (a cup, a pencil; here also a squared
// score sheet), sensor noise and JPEG are those of the pion scenes (common.h), with a room around
// the table (room_pov: the pion scenes keep POV-Ray's black background); the layout is
// centred on the origin, the camera's look-at jitter is a third of the pions', and it backs
// off from 15 cm until the tray and every die are inside 2-98% of the frame, then up to 15%
// more.
//
// Render cost (one core, 1280x720, about 3 s): POV-Ray runs on one thread (deterministic)
// with +A0.3 +R2; the key light's area light samples adaptively; only the digits of faces
// turned toward the camera are emitted (all ten on see-through dice); engraved digits are cut
// only on faces turned well toward the camera and inlaid flush elsewhere and on see-through
// dice; glass dice cast no shadow (their shadow rays alone cost more than the rest).
//
// Ground truth (NNNN.json): "dice", ten objects in the order of their ids (0-4 red, 5-9 white;
// in a sequence a die keeps its id), each with
//   value        1..10 read on the up face (a printed 0 is 10); null when the die is cocked
//   top_value    the value of the face whose normal points most upward (also when cocked)
//   colour       "red" | "white";  shade "red" | "dark red" | "white" | "ivory"
//   texture      "none" | "frosted" | "transparent"
//   digit_colour "white" | "gold" | "black";  font (e.g. "DejaVu Serif Bold")
//   finish       "glossy" | "matte";  marking "engraved" | "printed"
//   ink_sheen    the highlight of black or white ink (0.03-0.3; null for gold ink and --old-ink)
//   cocked       bool;  tilt_deg: angle between the top face's normal and the vertical
//   zone         "tray" | "kept" | "table"
//   x, y         the die's centre projected to the image (pixels)
//   radius_px    the largest distance from there to a projected vertex
//   face         the top face: x, y its centre (the kite's centroid, where the digit is centred);
//                corners, four [x, y]: the pole (where the digit's top points), the digit's right
//                wing, the far vertex, the left wing (the sharp kite of the face's plane; the
//                rounded edges cut a little inside it); digit_rotation_deg, the direction of
//                the digit's top in the image, clockwise from image-up (0 = upright, 90 = its top
//                points right)
//   visible      share of five points of the top face (centre, corners pulled 15% inward) seen
//                by the camera (not facing away, not behind another die or a tray wall)
//   position_m   the centre in the scene (metres; y up, the camera on the -z side)
// "tray": null, or {floor_corners, rim_corners (four [x, y] each: far-left, far-right,
// near-right, near-left in the tray's frame; floor = where dice lie, rim = the walls' outer top),
// wall, lining}; "scene": table, light, hotspot, tilt_deg, camera {location, look_at,
// angle_deg}, layout ("tray+kept" | "tray" | "table"), textured, cocked (how many), die
// {size_mm (ring diameter), pole_ratio, rounding_mm}, noise_sigma, jpeg_quality; "image",
// "width", "height". Sequences (a scripted turn: roll the ten dice, keep 1-3 flat dice that hold
// up no cocked die, roll the others, ..., at most five rolls, one frame per event; kept dice
// stay where they were put) add "frame", "roll" and "event" ("roll 1", "keep 3", ...).
#include "dice_scene.h"

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <opencv2/imgproc.hpp>
#include <sstream>

#include "d10.h"

namespace arbitre::tools::scenegen {

namespace {

constexpr double kDeg = M_PI / 180.0;
constexpr int kDice = 10;
constexpr double kMinGap = 0.00005;  // closest two dice (or a die and a wall) may be, metres

struct Font {
  const char* name;
  const char* file;
};
constexpr std::array<Font, 6> kFonts = {{{"DejaVu Sans", "DejaVuSans.ttf"},
                                         {"DejaVu Sans Bold", "DejaVuSans-Bold.ttf"},
                                         {"DejaVu Serif", "DejaVuSerif.ttf"},
                                         {"DejaVu Serif Bold", "DejaVuSerif-Bold.ttf"},
                                         {"DejaVu Sans Mono", "DejaVuSansMono.ttf"},
                                         {"DejaVu Sans Mono Bold", "DejaVuSansMono-Bold.ttf"}}};
constexpr const char* kFontDir = "/usr/share/fonts/truetype/dejavu/";

enum class Zone { Tray, Kept, Table };
enum class Texture { None, Frosted, Transparent };

const char* zone_name(Zone zone) {
  return zone == Zone::Tray ? "tray" : zone == Zone::Kept ? "kept" : "table";
}
const char* texture_name(Texture texture) {
  return texture == Texture::None      ? "none"
         : texture == Texture::Frosted ? "frosted"
                                       : "transparent";
}

// The five dice of one colour share a look.
struct DieSet {
  std::string colour;  // "red" | "white"
  std::string shade;
  Vec3 body;
  std::string digit_colour;
  int font = 0;
  bool glossy = true;
  bool engraved = true;
  double digit_height = 0;
  // The ink's highlight (POV-Ray specular) for black and white ink; gold keeps its metal's. Below
  // zero: the ink of every render before 2026-12-07 (black 0.3, white 0.2; --old-ink).
  double ink_sheen = -1;
};

struct Tray {
  bool present = false;
  Mat3 rotation;
  Vec3 centre;                             // on the table, under the middle of the floor
  double half_w = 0, half_d = 0;           // inside, along the tray's x and z
  double wall = 0, height = 0, floor = 0;  // wall thickness, wall top, floor top (above the table)
  std::string wall_kind, lining_kind, wall_texture, lining_texture;

  Vec3 world(double u, double y, double v) const { return centre + rotation * Vec3{u, y, v}; }
  std::vector<ConvexBody> walls() const {
    const double h = height / 2, ow = half_w + wall, t = wall / 2;
    return {box_body(rotation, world(0, h, half_d + t), {ow, h, t}),
            box_body(rotation, world(0, h, -half_d - t), {ow, h, t}),
            box_body(rotation, world(half_w + t, h, 0), {t, h, half_d}),
            box_body(rotation, world(-half_w - t, h, 0), {t, h, half_d})};
  }
  ConvexBody outer() const {
    return box_body(rotation, world(0, height / 2, 0), {half_w + wall, height / 2, half_d + wall});
  }
  // A point at height `y` `inset` inside wall `side` (the order of walls()), `along` (-1..1) of
  // the way along it from its middle: where a die is pushed toward that wall from.
  Vec3 before_wall(int side, double along, double inset, double y) const {
    return side < 2 ? world(along * half_w, y, (side == 0 ? 1 : -1) * (half_d - inset))
                    : world((side == 2 ? 1 : -1) * (half_w - inset), y, along * half_d);
  }
  // From the tray's middle toward each wall, in the order of walls().
  std::array<Vec3, 4> wall_directions() const {
    return {rotation * Vec3{0, 0, 1}, rotation * Vec3{0, 0, -1}, rotation * Vec3{1, 0, 0},
            rotation * Vec3{-1, 0, 0}};
  }
};

// A rectangle on a surface at height `floor` where the dice of one zone lie.
struct Region {
  Zone zone = Zone::Tray;
  Vec3 centre;  // on the table (y = 0)
  Mat3 rotation;
  double half_w = 0, half_d = 0, floor = 0;

  Vec3 world(double u, double v) const { return centre + rotation * Vec3{u, floor, v}; }
  bool contains(Vec3 p) const {
    const Vec3 d = p - centre;
    const double u = dot(d, rotation.column(0)), v = dot(d, rotation.column(2));
    return std::abs(u) <= half_w && std::abs(v) <= half_d;
  }
};

struct Die {
  int id = 0;
  Zone zone = Zone::Tray;
  Mat3 rotation;
  Vec3 position;
  bool cocked = false;
  int set() const { return id < 5 ? 0 : 1; }
};

struct Setup {
  D10 die;
  std::array<DieSet, 2> sets;
  std::array<Texture, kDice> textures{};
  bool textured = false;
  std::string layout;  // "tray+kept" | "tray" | "table"
  Tray tray;
  Region roll;  // the tray's floor or an area of the open table
  Region kept;
  bool kept_in_row = true;
};

Setup random_setup(Random& random, const DiceOptions& options) {
  Setup setup;
  const double size = random.uniform(0.015, 0.018);  // across the ring
  const double ratio = random.uniform(1.15, 1.35);
  const double rounding = random.uniform(0.04, 0.09) * size / 2;
  setup.die = D10::make(size / 2, ratio, rounding);
  const auto& f0 = setup.die.faces[0];
  const double kite = norm(setup.die.vertices[f0.corners[0]] - setup.die.vertices[f0.corners[2]]);
  for (int s = 0; s < 2; ++s) {
    DieSet& set = setup.sets[s];
    set.colour = s == 0 ? "red" : "white";
    if (s == 0) {
      const double r = random.uniform(0.45, 0.8);
      set.body = {r, random.uniform(0.01, 0.05), random.uniform(0.02, 0.07)};
      set.shade = r < 0.58 ? "dark red" : "red";
      set.digit_colour = random.chance(0.5) ? "white" : "gold";
    } else {
      const bool ivory = random.chance(0.4);
      const double v = random.uniform(0.78, 0.95);
      set.body = ivory ? Vec3{v, v * 0.92, v * 0.76} : Vec3{v, v, v * 0.98};
      set.shade = ivory ? "ivory" : "white";
      set.digit_colour = "black";
    }
    set.font = random.integer(0, static_cast<int>(kFonts.size()) - 1);
    set.glossy = random.chance(0.6);
    set.engraved = random.chance(0.6);
    set.digit_height = kite * random.uniform(0.3, 0.36);
  }
  if (!options.old_ink) {
    // Each set's ink has a sheen of its own, from a matte paint's (0.03: a dielectric sends back
    // about 4% of the light at the mirror angle) to the washed-out ink every scene had before
    // (0.3). Drawn on a stream of its own (seeded from a copy of the scene's), so every other
    // draw of the scene is as with --old-ink.
    Random copy = random;
    Random sheen(copy.engine()() ^ 0x1A4C5EE4ULL);
    for (DieSet& set : setup.sets) set.ink_sheen = sheen.uniform(0.03, 0.3);
  }
  setup.textured = random.chance(options.textured_share);
  if (setup.textured) {
    // Textures are known per die, in any split: per set all frosted, all transparent or mixed.
    for (int s = 0; s < 2; ++s) {
      const int mode = random.integer(0, 2);
      for (int i = 0; i < 5; ++i) {
        const bool frosted =
            (mode == 0 || (mode == 2 && random.chance(0.5))) && !options.all_transparent;
        setup.textures[s * 5 + i] = frosted ? Texture::Frosted : Texture::Transparent;
      }
    }
  }
  const double layout = random.uniform(0, 1);
  setup.layout = layout < 0.5 ? "tray+kept" : layout < 0.75 ? "tray" : "table";
  setup.kept_in_row = random.chance(0.7);
  const double kept_half_d = setup.kept_in_row ? 0.014 : 0.03;
  // The kept area lies in front of the rolling area (toward the camera) or beside it.
  const int kept_side = random.integer(-2, 1);  // -2, -1: front; 0: left; 1: right
  if (setup.layout != "table") {
    Tray& tray = setup.tray;
    tray.present = true;
    tray.half_w = random.uniform(0.07, 0.1);
    tray.half_d = random.uniform(0.045, 0.065);
    tray.wall = random.uniform(0.005, 0.012);
    tray.height = random.uniform(0.016, 0.03);
    tray.floor = random.uniform(0.002, 0.005);
    tray.rotation = Mat3::yaw(random.uniform(-12, 12) * kDeg);
    const int wall = random.integer(0, 2);
    if (wall == 0) {
      const double h = random.uniform(0.2, 0.55);
      tray.wall_kind = "wood";
      tray.wall_texture = "pigment { wood turbulence 0.1 color_map { [0 " +
                          rgb(h + 0.12, h * 0.62, h * 0.32) + "] [1 " +
                          rgb(h * 0.8, h * 0.45, h * 0.2) + "] } scale 0.01 rotate <0, 0, 90> }" +
                          " finish { diffuse 0.8 specular 0.3 roughness 0.03 }";
    } else if (wall == 1) {
      const double v = random.uniform(0.03, 0.2);
      tray.wall_kind = "leather";
      tray.wall_texture = "pigment { color " + rgb(v, v * 0.6, v * 0.4) +
                          " } normal { granite 0.25 scale 0.002 } finish { diffuse 0.8 specular "
                          "0.25 roughness 0.05 }";
    } else {
      tray.wall_kind = "plastic";
      tray.wall_texture =
          "pigment { color " +
          rgb(random.uniform(0.05, 0.9), random.uniform(0.05, 0.9), random.uniform(0.05, 0.9)) +
          " } finish { diffuse 0.75 specular 0.5 roughness 0.01 }";
    }
    static const std::array<std::pair<const char*, Vec3>, 6> kLinings = {
        {{"green felt", {0.04, 0.3, 0.1}},
         {"red felt", {0.35, 0.03, 0.05}},
         {"blue felt", {0.04, 0.08, 0.32}},
         {"black felt", {0.03, 0.03, 0.03}},
         {"grey felt", {0.25, 0.25, 0.25}},
         {"tan felt", {0.45, 0.33, 0.18}}}};
    const auto& [lining, colour] = kLinings[random.integer(0, 5)];
    const Vec3 c = colour * random.uniform(0.7, 1.3);
    tray.lining_kind = lining;
    tray.lining_texture = "pigment { granite color_map { [0 " + rgb(c.x, c.y, c.z) + "] [1 " +
                          rgb(c.x * 0.8, c.y * 0.8, c.z * 0.8) +
                          "] } scale 0.004 } normal { granite 0.2 scale 0.002 } finish { diffuse "
                          "0.9 specular 0 }";
    setup.roll = {Zone::Tray, tray.centre, tray.rotation, tray.half_w, tray.half_d, tray.floor};
  } else {
    setup.roll = {Zone::Table,
                  {0, 0, 0},
                  Mat3::yaw(random.uniform(-20, 20) * kDeg),
                  random.uniform(0.06, 0.09),
                  random.uniform(0.04, 0.06),
                  0};
  }
  // Half sizes of the rolling area with the tray's walls.
  const double wall = setup.tray.present ? setup.tray.wall : 0;
  const double roll_w = setup.roll.half_w + wall, roll_d = setup.roll.half_d + wall;
  const double gap = random.uniform(0.015, 0.035);
  const double turn = random.uniform(-6, 6) * kDeg;
  const Region& roll = setup.roll;
  if (kept_side < 0) {
    setup.kept = {Zone::Kept,
                  roll.centre + roll.rotation * Vec3{random.uniform(-0.03, 0.03), 0,
                                                     -roll_d - gap - kept_half_d},
                  roll.rotation * Mat3::yaw(turn),
                  0.1,
                  kept_half_d,
                  0};
  } else {
    const double side = kept_side == 0 ? -1 : 1;
    setup.kept = {Zone::Kept,
                  roll.centre + roll.rotation * Vec3{side * (roll_w + gap + kept_half_d), 0,
                                                     random.uniform(-0.02, 0.02)},
                  roll.rotation * Mat3::yaw(M_PI / 2 + turn),
                  0.07,
                  kept_half_d,
                  0};
  }
  return setup;
}

// Places dice one at a time, never closer than kMinGap to another die or a wall.
class Placer {
 public:
  Placer(Random& random, const Setup& setup) : random_(random), setup_(setup) {}

  std::vector<Die>& dice() { return dice_; }

  // A die at rest on face opposite `top`, in `region`; with probability `cluster_share` it
  // touches a die already there.
  bool place_resting(int id, int top, const Region& region, double cluster_share) {
    const D10& die = setup_.die;
    for (int attempt = 0; attempt < 400; ++attempt) {
      const Mat3 rotation =
          Mat3::yaw(random_.uniform(0, 2 * M_PI)) * Mat3::align(die.faces[top].normal, {0, 1, 0});
      const std::vector<int> neighbours = flat_dice_in(region.zone);
      Vec3 position;
      if (!neighbours.empty() && random_.chance(cluster_share)) {
        const Die& other =
            dice_[neighbours[random_.integer(0, static_cast<int>(neighbours.size()) - 1)]];
        const double a = random_.uniform(0, 2 * M_PI);
        const Vec3 direction{std::cos(a), 0, std::sin(a)};
        const Vec3 origin{other.position.x, region.floor + die.inradius, other.position.z};
        const ConvexBody target = body(other);
        const double gap = random_.uniform(0.0001, 0.0004);
        const double s = boundary(
            [&](double s) {
              return distance(posed_body(die, rotation, origin + direction * s), target) >= gap;
            },
            0.08, 0.0);
        position = origin + direction * s;
      } else {
        const double m = die.ring_radius * 0.7;
        if (region.half_w <= m || region.half_d <= m) return false;
        position = region.world(random_.uniform(-region.half_w + m, region.half_w - m),
                                random_.uniform(-region.half_d + m, region.half_d - m)) +
                   Vec3{0, die.inradius, 0};
      }
      if (!region.contains(position)) continue;
      if (!free(posed_body(die, rotation, position), region.zone, -1)) continue;
      dice_.push_back({id, region.zone, rotation, position, false});
      return true;
    }
    return false;
  }

  // A die at rest on face opposite `top`, flat against one of the tray's walls (a gap of
  // 0.1-0.4 mm), somewhere along it; false when it does not fit.
  bool place_against_wall(int id, int top, const Region& region) {
    const D10& die = setup_.die;
    const Tray& tray = setup_.tray;
    if (!tray.present || region.zone != Zone::Tray) return false;
    for (int attempt = 0; attempt < 100; ++attempt) {
      const Mat3 rotation =
          Mat3::yaw(random_.uniform(0, 2 * M_PI)) * Mat3::align(die.faces[top].normal, {0, 1, 0});
      const int side = random_.integer(0, 3);
      const double along = random_.uniform(-0.8, 0.8);
      const Vec3 start = tray.before_wall(side, along, 0.035, region.floor + die.inradius);
      const Vec3 direction = tray.wall_directions()[side];
      const ConvexBody target = tray.walls()[side];
      const double gap = random_.uniform(0.0001, 0.0004);
      if (distance(posed_body(die, rotation, start), target) < gap) continue;
      const double s = boundary(
          [&](double s) {
            return distance(posed_body(die, rotation, start + direction * s), target) >= gap;
          },
          0.0, 0.06);
      const Vec3 position = start + direction * s;
      if (!region.contains(position)) continue;
      if (!free(posed_body(die, rotation, position), region.zone, -1)) continue;
      dice_.push_back({id, region.zone, rotation, position, false});
      return true;
    }
    return false;
  }

  // A die pivoting on an edge of its bottom face, leaning on a die of `region` or on a tray wall.
  bool place_cocked(int id, const Region& region) {
    const D10& die = setup_.die;
    for (int attempt = 0; attempt < 400; ++attempt) {
      const int top = random_.integer(0, 9);
      const Mat3 rest = Mat3::align(die.faces[top].normal, {0, 1, 0});
      const D10::Face& bottom = die.faces[die.faces[top].opposite];
      const int k = random_.integer(0, 3);
      const int va = bottom.corners[k], vb = bottom.corners[(k + 1) % 4];
      const Vec3 pa = rest * die.vertices[va], pb = rest * die.vertices[vb];
      const Vec3 axis = normalized(pb - pa);
      const Vec3 foot{0, -die.inradius, 0};
      Vec3 inward = foot - (pa + pb) * 0.5;
      inward = normalized(inward - axis * dot(inward, axis));
      // The die would land on the face across this edge after turning by the normals' angle.
      int across = -1;
      for (int f = 0; f < 10; ++f) {
        const auto& c = die.faces[f].corners;
        if (f != die.faces[top].opposite && std::count(c.begin(), c.end(), va) &&
            std::count(c.begin(), c.end(), vb)) {
          across = f;
        }
      }
      const double limit = std::acos(dot(bottom.normal, die.faces[across].normal)) / kDeg;
      const double hi = std::min(40.0, limit - 12);
      if (hi < 15) continue;
      const double theta = random_.uniform(15, hi) * kDeg;
      Mat3 turn = Mat3::rotation(axis, theta);
      if ((turn * (foot - pa)).y < 0) turn = Mat3::rotation(axis, -theta);
      const Mat3 tilted = turn * rest;
      const Vec3 centre_from_pivot = turn * (Vec3{0, 0, 0} - pa);
      bool above = true;
      double most_up = -1;
      for (const Vec3& v : die.vertices)
        above = above && (tilted * v + centre_from_pivot).y > -1e-12;
      for (const auto& face : die.faces) most_up = std::max(most_up, (tilted * face.normal).y);
      if (!above || most_up > std::cos(12 * kDeg)) continue;
      // Lean toward the side the die would fall to.
      const double com = dot(centre_from_pivot, inward);
      Vec3 lean = inward;
      if (com < -0.05 * die.ring_radius ||
          (std::abs(com) <= 0.05 * die.ring_radius && random_.chance(0.5))) {
        lean = -inward;
      }
      const std::vector<int> supports = flat_dice_in(region.zone);
      const bool wall = setup_.tray.present && region.zone == Zone::Tray &&
                        (supports.empty() || random_.chance(0.5));
      if (!wall && supports.empty()) return false;
      Mat3 rotation;
      Vec3 position;
      if (wall) {
        const int side = random_.integer(0, 3);
        const Vec3 toward = setup_.tray.wall_directions()[side];
        const double yaw = std::atan2(toward.z, toward.x) - std::atan2(lean.z, lean.x) +
                           random_.uniform(-10, 10) * kDeg;
        rotation = Mat3::yaw(yaw) * tilted;
        const Vec3 offset = Mat3::yaw(yaw) * centre_from_pivot;
        const Vec3 direction = Mat3::yaw(yaw) * lean;
        const Tray& tray = setup_.tray;
        const double along = random_.uniform(-0.6, 0.6);
        const Vec3 start = tray.before_wall(side, along, 0.035, tray.floor);
        const ConvexBody target = tray.walls()[side];
        if (distance(posed_body(die, rotation, start + offset), target) < kMinGap) continue;
        const double gap = random_.uniform(0.0001, 0.0003);
        const double s = boundary(
            [&](double s) {
              return distance(posed_body(die, rotation, start + direction * s + offset), target) >=
                     gap;
            },
            0.0, 0.06);
        position = start + direction * s + offset;
      } else {
        const Die& other =
            dice_[supports[random_.integer(0, static_cast<int>(supports.size()) - 1)]];
        const double yaw = random_.uniform(0, 2 * M_PI);
        rotation = Mat3::yaw(yaw) * tilted;
        const Vec3 offset = Mat3::yaw(yaw) * centre_from_pivot;
        const Vec3 direction = Mat3::yaw(yaw) * lean;
        const Vec3 pivot{other.position.x, region.floor, other.position.z};
        const ConvexBody target = body(other);
        const double gap = random_.uniform(0.0001, 0.0003);
        const double s = boundary(
            [&](double s) {
              return distance(posed_body(die, rotation, pivot - direction * s + offset), target) >=
                     gap;
            },
            0.08, 0.0);
        position = pivot - direction * s + offset;
      }
      if (!region.contains(position)) continue;
      if (!free(posed_body(die, rotation, position), region.zone, -1)) continue;
      dice_.push_back({id, region.zone, rotation, position, true});
      return true;
    }
    return false;
  }

  // Kept dice in a row along the region (touching or a few millimetres apart), continuing the
  // row already there; a new row is centred in the region when `centre`, else starts at its left.
  bool place_row(const std::vector<std::pair<int, int>>& dice, const Region& region, bool centre) {
    const D10& die = setup_.die;
    const std::size_t before = dice_.size();
    const Vec3 axis = region.rotation.column(0);
    int end = -1;  // the die of the existing row furthest along it
    for (std::size_t i = 0; i < before; ++i) {
      if (dice_[i].zone != region.zone) continue;
      if (end < 0 || dot(dice_[i].position - dice_[end].position, axis) > 0)
        end = static_cast<int>(i);
    }
    for (int attempt = 0; attempt < 40; ++attempt) {
      dice_.resize(before);
      for (const auto& [id, top] : dice) {
        const Mat3 rotation =
            Mat3::yaw(random_.uniform(0, 2 * M_PI)) * Mat3::align(die.faces[top].normal, {0, 1, 0});
        Vec3 position =
            region.world(centre ? 0 : -region.half_w + 0.012, random_.uniform(-0.003, 0.003)) +
            Vec3{0, die.inradius, 0};
        if (dice_.size() > before || end >= 0) {
          const Die last = dice_.size() > before ? dice_.back() : dice_[end];
          const Vec3 direction = Mat3::yaw(random_.uniform(-15, 15) * kDeg) * axis;
          const ConvexBody target = body(last);
          const double gap =
              random_.chance(0.5) ? random_.uniform(0.0001, 0.0004) : random_.uniform(0.001, 0.008);
          const double s = boundary(
              [&](double s) {
                return distance(posed_body(die, rotation, last.position + direction * s), target) >=
                       gap;
              },
              0.08, 0.0);
          position = last.position + direction * s;
        }
        dice_.push_back({id, region.zone, rotation, position, false});
      }
      if (centre && end < 0) {
        // Centre the new row on the region; its dice move together and keep their gaps.
        Vec3 mean;
        for (std::size_t i = before; i < dice_.size(); ++i) mean = mean + dice_[i].position;
        mean = mean * (1.0 / static_cast<double>(dice_.size() - before));
        const Vec3 shift = Vec3{region.centre.x - mean.x, 0, region.centre.z - mean.z} +
                           region.rotation * Vec3{random_.uniform(-0.02, 0.02), 0, 0};
        for (std::size_t i = before; i < dice_.size(); ++i) {
          dice_[i].position = dice_[i].position + shift;
        }
      }
      bool ok = true;
      for (std::size_t i = before; i < dice_.size() && ok; ++i) {
        ok = free(body(dice_[i]), region.zone, static_cast<int>(i));
      }
      if (ok) return true;
    }
    dice_.resize(before);
    return false;
  }

  // Whether a cocked die leans on the die with this id (it would fall if that one moved).
  bool holds_up_a_cocked_die(int id) const {
    for (const Die& d : dice_) {
      if (d.id != id) continue;
      for (const Die& c : dice_) {
        if (c.cocked && distance(body(c), body(d)) < 0.0005) return true;
      }
    }
    return false;
  }

  // Removes the dice with these ids (they are about to be rolled or moved).
  void remove(const std::vector<int>& ids) {
    std::erase_if(
        dice_, [&](const Die& d) { return std::find(ids.begin(), ids.end(), d.id) != ids.end(); });
  }

 private:
  ConvexBody body(const Die& d) const { return posed_body(setup_.die, d.rotation, d.position); }

  std::vector<int> flat_dice_in(Zone zone) const {
    std::vector<int> found;
    for (std::size_t i = 0; i < dice_.size(); ++i) {
      if (dice_[i].zone == zone && !dice_[i].cocked) found.push_back(static_cast<int>(i));
    }
    return found;
  }

  // Whether `candidate` keeps kMinGap from every die but dice_[skip], and from the tray.
  bool free(const ConvexBody& candidate, Zone zone, int skip) const {
    const auto clear = [&](const ConvexBody& other) {
      const double s = separation(candidate, other);
      return s > kMinGap || (s > 0 && distance(candidate, other) >= kMinGap);
    };
    for (std::size_t i = 0; i < dice_.size(); ++i) {
      if (static_cast<int>(i) == skip) continue;
      if (!clear(body(dice_[i]))) return false;
    }
    if (setup_.tray.present) {
      if (zone == Zone::Tray) {
        for (const ConvexBody& wall : setup_.tray.walls()) {
          if (!clear(wall)) return false;
        }
      } else if (!clear(setup_.tray.outer())) {
        return false;
      }
    }
    return true;
  }

  // The boundary between `ok` (where pred holds) and `bad`, approached from the ok side.
  static double boundary(const std::function<bool(double)>& pred, double ok, double bad) {
    if (!pred(ok)) return ok;
    for (int i = 0; i < 40; ++i) {
      const double mid = (ok + bad) / 2;
      (pred(mid) ? ok : bad) = mid;
    }
    return ok;
  }

  Random& random_;
  const Setup& setup_;
  std::vector<Die> dice_;
};

// Rolls `ids` into the roll region: random up faces, some cocked, some flat against a tray wall
// (`wall_share` of them). Returns false when they do not fit (the caller draws again).
bool roll_dice(Random& random, Placer& placer, const Setup& setup, std::vector<int> ids,
               double cocked_share, double wall_share) {
  for (int i = static_cast<int>(ids.size()); i > 1; --i) {
    std::swap(ids[i - 1], ids[random.integer(0, i - 1)]);
  }
  int cocked = 0;
  if (ids.size() >= 3 && random.chance(cocked_share)) cocked = random.integer(1, 2);
  const double cluster_share = random.uniform(0.2, 0.5);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const bool tilt = i + cocked >= ids.size();
    if (tilt && placer.place_cocked(ids[i], setup.roll)) continue;
    const int top = random.integer(0, 9);
    if (wall_share > 0 && setup.tray.present && random.chance(wall_share) &&
        placer.place_against_wall(ids[i], top, setup.roll)) {
      continue;
    }
    if (!placer.place_resting(ids[i], top, setup.roll, cluster_share)) {
      return false;
    }
  }
  return true;
}

bool keep_dice(Placer& placer, const Setup& setup, const std::vector<int>& ids,
               const std::vector<int>& tops, bool centre) {
  if (ids.empty()) return true;
  if (setup.kept_in_row) {
    std::vector<std::pair<int, int>> row;
    for (std::size_t i = 0; i < ids.size(); ++i) row.push_back({ids[i], tops[i]});
    return placer.place_row(row, setup.kept, centre);
  }
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (!placer.place_resting(ids[i], tops[i], setup.kept, 0.8)) return false;
  }
  return true;
}

// What stays the same through a sequence: camera, table, lights and distractors.
struct Stage {
  Camera camera;
  double tilt = 0;
  std::string table_kind;
  Lighting lighting;
  std::string environment;  // POV-Ray text: table, lights, distractors
  bool room = true;         // the room around the table (room_pov); DiceOptions::room
};

std::vector<Vec3> content_points(const Setup& setup, const std::vector<Die>& dice) {
  std::vector<Vec3> points;
  if (setup.tray.present) {
    const Tray& t = setup.tray;
    for (const double su : {-1.0, 1.0}) {
      for (const double sv : {-1.0, 1.0}) {
        points.push_back(t.world(su * (t.half_w + t.wall), t.height, sv * (t.half_d + t.wall)));
        points.push_back(t.world(su * (t.half_w + t.wall), 0, sv * (t.half_d + t.wall)));
      }
    }
  }
  for (const Die& d : dice) {
    for (const Vec3& v : setup.die.vertices) points.push_back(d.rotation * v + d.position);
  }
  return points;
}

// Moves the layout so that its footprint is centred on the origin.
void centre_layout(Setup& setup, std::vector<std::vector<Die>>& frames) {
  std::vector<Vec3> points;
  for (const auto& dice : frames) {
    const auto p = content_points(setup, dice);
    points.insert(points.end(), p.begin(), p.end());
  }
  double x0 = 1e9, x1 = -1e9, z0 = 1e9, z1 = -1e9;
  for (const Vec3& p : points) {
    x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), z0 = std::min(z0, p.z), z1 = std::max(z1, p.z);
  }
  const Vec3 shift{-(x0 + x1) / 2, 0, -(z0 + z1) / 2};
  setup.tray.centre = setup.tray.centre + shift;
  setup.roll.centre = setup.roll.centre + shift;
  setup.kept.centre = setup.kept.centre + shift;
  for (auto& dice : frames) {
    for (Die& d : dice) d.position = d.position + shift;
  }
}

Stage make_stage(Random& random, const Setup& setup, const std::vector<std::vector<Die>>& frames,
                 int width, int height) {
  Stage stage;
  std::vector<Vec3> points;
  for (const auto& dice : frames) {
    const auto p = content_points(setup, dice);
    points.insert(points.end(), p.begin(), p.end());
  }
  double extent = 0;
  for (const Vec3& p : points) extent = std::max(extent, std::hypot(p.x, p.z));
  // From close by, back off in small steps until everything is in the frame, then a little more.
  stage.camera = random_camera(random, width, height, 0.15, 0.15, stage.tilt);
  Camera& camera = stage.camera;
  // The pions' look_at jitter (3 cm) is large for a layout of 20 cm: keep a third of it.
  const Vec3 recentre = camera.look_at * -(2.0 / 3.0);
  camera.look_at = camera.look_at + recentre;
  camera.location = camera.location + recentre;
  for (int step = 0; step < 100 && !all_in_frame(camera, points, 0.02, 0.98); ++step) {
    camera.location = camera.look_at + (camera.location - camera.look_at) * 1.02;
  }
  camera.location = camera.look_at + (camera.location - camera.look_at) * random.uniform(1.0, 1.15);
  std::ostringstream s;
  s << "plane { y, 0 texture { " << table_texture(random, stage.table_kind) << " } }\n";
  stage.lighting = write_lights(random, s, 0);
  write_distractors(random, s, extent + 0.06);
  if (random.chance(0.4)) {
    // A score sheet: ruled paper with a grid.
    const double a = random.uniform(0, 2 * M_PI);
    const Vec3 c{std::cos(a) * (extent + 0.12), 0, std::sin(a) * (extent + 0.12)};
    const double line = random.uniform(0.006, 0.009);
    const std::string ink = rgb(random.uniform(0.2, 0.5), random.uniform(0.3, 0.5), 0.7);
    const std::string lines = "color_map { [0 rgbt 1] [0.92 rgbt 1] [0.92 " + ink + "] [1 " + ink +
                              "] } scale " + std::to_string(line);
    s << "box { <-0.105, 0, -0.074>, <0.105, 0.0004, 0.074> texture { pigment { color "
      << rgb(0.93, 0.93, 0.9) << " } finish { diffuse 0.9 } } texture { pigment { gradient x "
      << lines << " } } texture { pigment { gradient z " << lines << " } } rotate <0, "
      << random.uniform(0, 180) << ", 0> translate " << pov(c) << " }\n";
  }
  stage.environment = s.str();
  return stage;
}

std::string body_texture(const DieSet& set, Texture texture) {
  std::ostringstream s;
  const Vec3 c = set.body;
  if (texture == Texture::None) {
    s << "texture { pigment { color " << rgb(c.x, c.y, c.z) << " } "
      << (set.glossy ? "finish { diffuse 0.7 specular 0.6 roughness 0.006 reflection 0.05 }"
                     : "finish { diffuse 0.85 specular 0.08 roughness 0.05 }")
      << " }";
  } else if (texture == Texture::Frosted) {
    const Vec3 f =
        set.colour == "red" ? Vec3{std::min(1.0, c.x * 1.2), 0.08, 0.1} : Vec3{0.9, 0.92, 0.94};
    // Translucent and rough: light passes unbent but dimmed, the surface scatters highlights.
    s << "texture { pigment { rgbt <" << f.x << ", " << f.y << ", " << f.z
      << ", 0.45> } normal { granite 0.08 scale 0.002 } finish { diffuse 0.75 specular 0.25 "
         "roughness 0.04 } }";
  } else {
    // Coloured glass: red, or for the white set a pale smoky blue (clear glass would vanish).
    const Vec3 g = set.colour == "red" ? Vec3{0.95, 0.15, 0.15} : Vec3{0.84, 0.9, 1.0};
    s << "texture { pigment { rgbf <" << g.x << ", " << g.y << ", " << g.z << ", " << 0.85
      << "> } finish { ambient 0 diffuse 0.1 specular 0.9 roughness 0.002 } }";
  }
  return s.str();
}

// The digits' ink. Until 2026-12-07 black ink's highlight was 0.3 in every scene (`sheen` below
// zero keeps it): broad (roughness 0.02) and under overhead lights, it lit the top digit of a
// see-through die mid grey, paler than the other faces' digits seen through the glass; one look
// for every die and table.
std::string ink_texture(const std::string& colour, double sheen) {
  if (colour == "gold") {
    return "texture { pigment { color rgb <0.85, 0.62, 0.2> } finish { diffuse 0.55 specular 0.7 "
           "roughness 0.02 metallic reflection 0.15 } }";
  }
  std::ostringstream s;
  if (colour == "white") {
    s << "texture { pigment { color rgb <0.93, 0.93, 0.9> } finish { diffuse 0.85 specular "
      << (sheen < 0 ? 0.2 : sheen) << " } }";
  } else {
    s << "texture { pigment { color rgb <0.02, 0.02, 0.02> } finish { diffuse 0.8 specular "
      << (sheen < 0 ? 0.3 : sheen) << " roughness 0.02 } }";
  }
  return s.str();
}

// The declarations every frame of a set of dice uses: the rounded die, the digit macro, each
// colour set's ten glyphs placed on their faces and its ink.
std::string dice_declarations(const Setup& setup) {
  std::ostringstream s;
  s << pov_mesh2(rounded_mesh(setup.die, 4), "D10_Shape");
  s << R"(#macro D10Digit(Font, Str, Height, Z0, Z1, Mark)
  #local Ref = text { ttf Font "8" 1, 0 }
  #local Glyph = text { ttf Font Str 1, 0 }
  #local Lo = min_extent(Glyph);
  #local Hi = max_extent(Glyph);
  #local S = Height / (max_extent(Ref).y - min_extent(Ref).y);
  #local Cx = (Lo.x + Hi.x) / 2;
  #local Cy = (min_extent(Ref).y + max_extent(Ref).y) / 2;
  #local Placed = object { Glyph translate <-Cx, -Cy, 0> scale <S, S, Z1 - Z0> translate <0, 0, Z0> }
  #if (Mark)
    #local W = (Hi.x - Lo.x) * S;
    union { object { Placed } box { <-0.5 * W, -0.72 * Height, Z0>, <0.5 * W, -0.61 * Height, Z1> } }
  #else
    object { Placed }
  #end
#end
)";
  for (int si = 0; si < 2; ++si) {
    const DieSet& set = setup.sets[si];
    // Engraved: cut 0.35 mm deep (the cutter starts 0.2 mm outside); its flush inlay for faces
    // seen at a grazing angle. Printed: 0.04 mm proud of the face.
    struct Kind {
      const char* name;
      double z0, z1;
    };
    std::vector<Kind> kinds;
    if (set.engraved) {
      kinds = {{"Glyph", -0.0002, 0.00035}, {"Inlay", -0.00001, 0.00002}};
    } else {
      kinds = {{"Glyph", -0.00004, 0.00002}};
    }
    for (const Kind& kind : kinds) {
      for (const auto& face : setup.die.faces) {
        Mat3 frame;
        frame.m = {face.right.x,   face.up.x,    -face.normal.x, face.right.y,  face.up.y,
                   -face.normal.y, face.right.z, face.up.z,      -face.normal.z};
        s << "#declare D10_" << kind.name << "_" << si << "_" << face.digit
          << " = object { D10Digit(\"" << kFontDir << kFonts[set.font].file << "\", \""
          << face.digit << "\", " << set.digit_height << ", " << kind.z0 << ", " << kind.z1 << ", "
          << (face.digit == 6 || face.digit == 9 ? "true" : "false") << ") "
          << pov_matrix(frame, face.centre) << " }\n";
      }
    }
    s << "#declare D10_Ink_" << si << " = " << ink_texture(set.digit_colour, set.ink_sheen) << "\n";
  }
  return s.str();
}

std::string tray_pov(const Tray& tray) {
  if (!tray.present) return "";
  std::ostringstream s;
  const double ow = tray.half_w + tray.wall, od = tray.half_d + tray.wall;
  s << "union {\n box { " << pov({-ow, 0.0001, -od}) << ", " << pov({ow, tray.floor, od})
    << " texture { " << tray.lining_texture << " } }\n";
  s << " box { " << pov({-ow, 0.0001, tray.half_d}) << ", " << pov({ow, tray.height, od}) << " }\n";
  s << " box { " << pov({-ow, 0.0001, -od}) << ", " << pov({ow, tray.height, -tray.half_d})
    << " }\n";
  s << " box { " << pov({tray.half_w, 0.0001, -tray.half_d}) << ", "
    << pov({ow, tray.height, tray.half_d}) << " }\n";
  s << " box { " << pov({-ow, 0.0001, -tray.half_d}) << ", "
    << pov({-tray.half_w, tray.height, tray.half_d}) << " }\n";
  s << " texture { " << tray.wall_texture << " }\n " << pov_matrix(tray.rotation, tray.centre)
    << "\n}\n";
  return s.str();
}

// One die. Only the digits of faces turned toward the camera are drawn (all of them when the die
// is see-through): the others cannot show, and text is what costs render time. Engraved digits
// are cut (CSG difference, the costly part) on the faces turned well toward the camera and
// inlaid flush on the faces seen at a grazing angle, where a 0.35 mm groove does not show, and
// on see-through dice (refracted rays through a CSG difference cost too much).
std::string die_pov(const Setup& setup, const Die& d, const Camera& camera) {
  const DieSet& set = setup.sets[d.set()];
  const Texture texture = setup.textures[d.id];
  std::string cut, laid;
  for (const auto& face : setup.die.faces) {
    const Vec3 centre = d.rotation * face.centre + d.position;
    const double facing = dot(d.rotation * face.normal, normalized(camera.location - centre));
    if (texture == Texture::None && facing < -0.05) continue;
    const bool deep = set.engraved && facing > 0.35 && texture == Texture::None;
    const std::string glyph = std::string(" object { D10_") +
                              (set.engraved && !deep ? "Inlay_" : "Glyph_") +
                              std::to_string(d.set()) + "_" + std::to_string(face.digit) +
                              " texture { D10_Ink_" + std::to_string(d.set()) + " } }";
    (deep ? cut : laid) += glyph;
  }
  const std::string shape = "object { D10_Shape " + body_texture(set, texture) + " }";
  const std::string core = cut.empty() ? shape : "difference { " + shape + cut + " }";
  std::ostringstream s;
  s << (laid.empty() ? "object { " + core : "union { " + core + laid);
  // Shadow rays through glass cost more than the rest of the scene: glass dice cast none.
  if (texture == Texture::Transparent) s << " interior { ior 1.5 } no_shadow";
  s << " " << pov_matrix(d.rotation, d.position) << " }\n";
  return s.str();
}

// The room around the table, as glass and glossy dice see it: a pale grey dome, lighter overhead,
// tinted like the scene's light. Without it a ray leaving a see-through die toward the walls found
// POV-Ray's black background, and clear dice rendered nearly black (2026-12-03). A recorded
// sequence's pictures (DiceTable::picture) take the warm tint: their stage carries no lighting.
std::string room_pov(const Lighting& lighting) {
  const Vec3 tint = lighting.kind == 0   ? Vec3{1.0, 0.92, 0.8}
                    : lighting.kind == 1 ? Vec3{0.88, 0.94, 1.0}
                                         : Vec3{0.95, 0.95, 0.93};
  std::ostringstream s;
  s << "sky_sphere { pigment { gradient y color_map { [0 color "
    << rgb(0.6 * tint.x, 0.6 * tint.y, 0.6 * tint.z) << "] [1 color "
    << rgb(0.9 * tint.x, 0.9 * tint.y, 0.9 * tint.z) << "] } } }\n";
  return s.str();
}

nlohmann::json point_json(cv::Point2d p) {
  return {std::round(p.x * 10) / 10, std::round(p.y * 10) / 10};
}

// v rounded to 1 / per_unit (10: tenths).
double rounded(double v, double per_unit) {
  return std::round(v * per_unit) / per_unit;
}

Scene emit(const Setup& setup, const Stage& stage, const std::vector<Die>& unordered) {
  std::vector<Die> dice = unordered;
  std::sort(dice.begin(), dice.end(), [](const Die& a, const Die& b) { return a.id < b.id; });
  const Camera& camera = stage.camera;
  const D10& die = setup.die;
  std::ostringstream s;
  // Glass needs deep rays (total internal reflection shows black at the limit), cut short once
  // they carry little.
  write_header(s, camera, setup.textured ? 12 : 6, setup.textured ? "adc_bailout 0.02" : "");
  s << stage.environment << (stage.room ? room_pov(stage.lighting) : "") << dice_declarations(setup)
    << tray_pov(setup.tray);
  for (const Die& d : dice) s << die_pov(setup, d, camera);

  std::vector<ConvexBody> occluders;
  for (const Die& d : dice) occluders.push_back(posed_body(die, d.rotation, d.position));
  if (setup.tray.present) {
    for (const ConvexBody& wall : setup.tray.walls()) occluders.push_back(wall);
  }
  nlohmann::json list = nlohmann::json::array();
  int cocked = 0;
  for (std::size_t i = 0; i < dice.size(); ++i) {
    const Die& d = dice[i];
    const DieSet& set = setup.sets[d.set()];
    const int top = die.top_face(d.rotation);
    const D10::Face& face = die.faces[top];
    const auto world = [&](Vec3 p) { return d.rotation * p + d.position; };
    const Vec3 centre = world(face.centre);
    const Vec3 normal = d.rotation * face.normal;
    nlohmann::json corners = nlohmann::json::array();
    for (int v : face.corners)
      corners.push_back(point_json(camera.project(world(die.vertices[v]))));
    const cv::Point2d at = camera.project(centre);
    const cv::Point2d up = camera.project(centre + (d.rotation * face.up) * 0.002) - at;
    double radius = 0;
    const cv::Point2d middle = camera.project(d.position);
    for (const Vec3& v : die.vertices)
      radius = std::max(radius, cv::norm(camera.project(world(v)) - middle));
    // Visibility of the top face: its centre and corners pulled 15% toward it.
    int seen = 0;
    std::vector<Vec3> samples{centre};
    for (int v : face.corners) samples.push_back(centre + (world(die.vertices[v]) - centre) * 0.85);
    for (const Vec3& p : samples) {
      bool visible = dot(normal, camera.location - p) > 0;
      for (std::size_t j = 0; j < occluders.size() && visible; ++j) {
        if (j != i && blocks(occluders[j], camera.location, p, 0)) visible = false;
      }
      seen += visible;
    }
    cocked += d.cocked;
    list.push_back(
        {{"id", d.id},
         {"value", d.cocked ? nlohmann::json() : nlohmann::json(face.value())},
         {"top_value", face.value()},
         {"colour", set.colour},
         {"shade", set.shade},
         {"texture", texture_name(setup.textures[d.id])},
         {"digit_colour", set.digit_colour},
         {"font", kFonts[set.font].name},
         {"finish", set.glossy ? "glossy" : "matte"},
         {"marking", set.engraved ? "engraved" : "printed"},
         {"ink_sheen", set.ink_sheen < 0 || set.digit_colour == "gold"
                           ? nlohmann::json()
                           : nlohmann::json(rounded(set.ink_sheen, 1000))},
         {"cocked", d.cocked},
         {"tilt_deg", rounded(std::acos(std::clamp(normal.y, -1.0, 1.0)) / kDeg, 10)},
         {"zone", zone_name(d.zone)},
         {"x", rounded(middle.x, 10)},
         {"y", rounded(middle.y, 10)},
         {"radius_px", rounded(radius, 10)},
         {"face",
          {{"x", rounded(at.x, 10)},
           {"y", rounded(at.y, 10)},
           {"corners", corners},
           {"digit_rotation_deg", rounded(std::atan2(up.x, -up.y) / kDeg, 10)}}},
         {"visible", rounded(seen / 5.0, 100)},
         {"position_m",
          {rounded(d.position.x, 1e5), rounded(d.position.y, 1e5), rounded(d.position.z, 1e5)}}});
  }
  nlohmann::json tray;  // null without a tray
  if (setup.tray.present) {
    const Tray& t = setup.tray;
    nlohmann::json floor = nlohmann::json::array(), rim = nlohmann::json::array();
    for (const auto& [su, sv] : std::array<std::pair<double, double>, 4>{
             {{-1.0, 1.0}, {1.0, 1.0}, {1.0, -1.0}, {-1.0, -1.0}}}) {
      floor.push_back(point_json(camera.project(t.world(su * t.half_w, t.floor, sv * t.half_d))));
      rim.push_back(point_json(
          camera.project(t.world(su * (t.half_w + t.wall), t.height, sv * (t.half_d + t.wall)))));
    }
    tray = {{"floor_corners", floor},
            {"rim_corners", rim},
            {"wall", t.wall_kind},
            {"lining", t.lining_kind}};
  }
  const auto vec = [](Vec3 v) {
    return nlohmann::json{rounded(v.x, 1e4), rounded(v.y, 1e4), rounded(v.z, 1e4)};
  };
  Scene scene;
  scene.pov = s.str();
  scene.truth = {{"dice", list},
                 {"tray", tray},
                 {"scene",
                  {{"table", stage.table_kind},
                   {"light", stage.lighting.name()},
                   {"hotspot", stage.lighting.hotspot},
                   {"tilt_deg", rounded(stage.tilt / kDeg, 10)},
                   {"camera",
                    {{"location", vec(camera.location)},
                     {"look_at", vec(camera.look_at)},
                     {"angle_deg", rounded(camera.angle_deg, 1000)}}},
                   {"layout", setup.layout},
                   {"textured", setup.textured},
                   {"cocked", cocked},
                   {"die",
                    {{"size_mm", rounded(die.ring_radius * 2000, 100)},
                     {"pole_ratio", rounded(die.pole_height / die.ring_radius, 1000)},
                     {"rounding_mm", rounded(die.rounding * 1000, 100)}}}}}};
  return scene;
}

// Draws setup and a first roll until everything fits.
bool first_layout(Random& random, Setup& setup, Placer& placer, const DiceOptions& options,
                  std::vector<int>& kept) {
  std::vector<int> ids(kDice);
  for (int i = 0; i < kDice; ++i) ids[i] = i;
  for (int i = kDice; i > 1; --i) std::swap(ids[i - 1], ids[random.integer(0, i - 1)]);
  const int n_kept = setup.layout == "tray+kept" ? random.integer(1, 7)
                     : setup.layout == "table"   ? random.integer(0, 6)
                                                 : 0;
  kept.assign(ids.begin(), ids.begin() + n_kept);
  std::vector<int> tops;
  for (std::size_t i = 0; i < kept.size(); ++i) tops.push_back(random.integer(0, 9));
  if (!keep_dice(placer, setup, kept, tops, true)) return false;
  return roll_dice(random, placer, setup, {ids.begin() + n_kept, ids.end()}, options.cocked_share,
                   options.wall_share);
}

}  // namespace

std::uint64_t dice_seed(std::uint64_t seed, int k) {
  return (seed * 7919 + static_cast<std::uint64_t>(k)) * 0x9E3779B97F4A7C15ULL + 0xD10;
}

namespace {

// A layout: the set of dice and their surroundings, and the dice of every frame (one frame for
// a single scene), centred on the origin.
struct Layout {
  Setup setup;
  std::vector<std::vector<Die>> frames;
  std::vector<std::string> events;
  std::vector<int> rolls;
};

Layout single_layout(Random& random, const DiceOptions& options) {
  for (;;) {
    Layout layout;
    layout.setup = random_setup(random, options);
    Placer placer(random, layout.setup);
    std::vector<int> kept;
    if (!first_layout(random, layout.setup, placer, options, kept)) continue;
    layout.frames = {placer.dice()};
    centre_layout(layout.setup, layout.frames);
    return layout;
  }
}

Layout sequence_layout(Random& random, const DiceOptions& options) {
  for (;;) {
    Layout layout;
    Setup& setup = layout.setup;
    std::vector<std::vector<Die>>& frames = layout.frames;
    std::vector<std::string>& events = layout.events;
    std::vector<int>& rolls = layout.rolls;
    setup = random_setup(random, options);
    if (setup.layout == "tray") setup.layout = "tray+kept";
    Placer placer(random, setup);
    std::vector<int> all(kDice), kept;
    for (int i = 0; i < kDice; ++i) all[i] = i;
    bool ok = roll_dice(random, placer, setup, all, options.cocked_share, options.wall_share);
    frames.push_back(placer.dice()), events.push_back("roll 1"), rolls.push_back(1);
    for (int roll = 2; ok && roll <= 5 && kept.size() < kDice; ++roll) {
      // Keep some dice that lie flat (their up face is what counts) and hold up no cocked die,
      // then roll the others.
      std::vector<int> flat;
      for (const Die& d : placer.dice()) {
        if (d.zone != Zone::Kept && !d.cocked && !placer.holds_up_a_cocked_die(d.id)) {
          flat.push_back(d.id);
        }
      }
      const int n = std::min<int>(static_cast<int>(flat.size()), random.integer(1, 3));
      std::vector<int> chosen, tops;
      for (int i = 0; i < n; ++i) {
        const int pick = random.integer(i, static_cast<int>(flat.size()) - 1);
        std::swap(flat[i], flat[pick]);
        chosen.push_back(flat[i]);
      }
      for (int id : chosen) {
        for (const Die& d : placer.dice()) {
          if (d.id == id) tops.push_back(setup.die.top_face(d.rotation));
        }
      }
      if (!chosen.empty()) {
        // The chosen dice join the kept ones, which stay where they are.
        placer.remove(chosen);
        ok = keep_dice(placer, setup, chosen, tops, false);
        kept.insert(kept.end(), chosen.begin(), chosen.end());
        frames.push_back(placer.dice());
        events.push_back("keep " + std::to_string(chosen.size()));
        rolls.push_back(roll - 1);
      }
      if (!ok || kept.size() == kDice) break;
      std::vector<int> rest;
      for (const Die& d : placer.dice()) {
        if (d.zone != Zone::Kept) rest.push_back(d.id);
      }
      placer.remove(rest);
      ok = roll_dice(random, placer, setup, rest, options.cocked_share, options.wall_share);
      frames.push_back(placer.dice()), events.push_back("roll " + std::to_string(roll));
      rolls.push_back(roll);
    }
    if (!ok) continue;
    centre_layout(setup, frames);
    return layout;
  }
}

}  // namespace

Scene make_dice_scene(Random& random, int width, int height, const DiceOptions& options) {
  const Layout layout = single_layout(random, options);
  Stage stage = make_stage(random, layout.setup, layout.frames, width, height);
  stage.room = options.room;
  return emit(layout.setup, stage, layout.frames[0]);
}

std::vector<Scene> make_dice_sequence(Random& random, int width, int height,
                                      const DiceOptions& options) {
  const Layout layout = sequence_layout(random, options);
  Stage stage = make_stage(random, layout.setup, layout.frames, width, height);
  stage.room = options.room;
  std::vector<Scene> scenes;
  for (std::size_t f = 0; f < layout.frames.size(); ++f) {
    Scene scene = emit(layout.setup, stage, layout.frames[f]);
    scene.truth["frame"] = f;
    scene.truth["roll"] = layout.rolls[f];
    scene.truth["event"] = layout.events[f];
    scenes.push_back(std::move(scene));
  }
  return scenes;
}

bool dice_self_test(int layouts, std::string& report) {
  std::ostringstream out;
  bool all = true;
  const auto check = [&](bool ok, const std::string& what) {
    out << (ok ? "ok   " : "FAIL ") << what << "\n";
    all = all && ok;
  };
  const double eps = 1e-9;
  int failures[9] = {};
  int cocked = 0, textured = 0, touching = 0, frames_seen = 0, leaning_on_wall = 0;
  // Flat dice in a tray within half a millimetre of a wall, in the layouts with and without
  // --wall-share (and how many layouts of each).
  int against_wall[2] = {}, wall_layouts[2] = {};
  int singles = 0, singles_cocked = 0;
  double tilt_min = 90, tilt_max = 0;
  std::map<std::string, int> zones, layout_kinds;
  for (int k = 0; k < layouts; ++k) {
    Random random(dice_seed(4242, k));
    DiceOptions options;
    if (k % 8 == 1) options.wall_share = 0.5;  // a single scene in eight: dice against the walls
    const int walled = options.wall_share > 0 ? 1 : 0;
    const Layout layout =
        k % 4 == 3 ? sequence_layout(random, options) : single_layout(random, options);
    const Setup& setup = layout.setup;
    const D10& die = setup.die;
    ++layout_kinds[setup.layout];
    wall_layouts[walled] += setup.tray.present;
    textured += setup.textured;
    bool textures_all_or_none = true;
    for (Texture t : setup.textures) {
      textures_all_or_none = textures_all_or_none && ((t != Texture::None) == setup.textured);
    }
    failures[0] += !textures_all_or_none;
    if (layout.frames.size() == 1) {
      ++singles;
      singles_cocked += std::any_of(layout.frames[0].begin(), layout.frames[0].end(),
                                    [](const Die& d) { return d.cocked; });
    }
    for (const auto& dice : layout.frames) {
      ++frames_seen;
      // Ten dice, ids 0..9 once each (0-4 red, 5-9 white by construction).
      std::vector<int> ids;
      for (const Die& d : dice) ids.push_back(d.id);
      std::sort(ids.begin(), ids.end());
      bool ten = ids.size() == kDice;
      for (int i = 0; ten && i < kDice; ++i) ten = ids[i] == i;
      failures[1] += !ten;
      std::vector<ConvexBody> bodies;
      for (const Die& d : dice) bodies.push_back(posed_body(die, d.rotation, d.position));
      const std::vector<ConvexBody> walls =
          setup.tray.present ? setup.tray.walls() : std::vector<ConvexBody>{};
      for (std::size_t i = 0; i < dice.size(); ++i) {
        const Die& d = dice[i];
        ++zones[zone_name(d.zone)];
        const double floor = d.zone == Zone::Tray ? setup.tray.floor : 0.0;
        // Apart from every other die and from the tray; touching counted.
        double nearest = 1e9;
        for (std::size_t j = 0; j < dice.size(); ++j) {
          if (j == i) continue;
          const double gap = distance(bodies[i], bodies[j]);
          nearest = std::min(nearest, gap);
          if (j > i && gap < 0.0005) ++touching;
        }
        double nearest_wall = 1e9;
        if (setup.tray.present) {
          if (d.zone == Zone::Tray) {
            for (const ConvexBody& wall : walls)
              nearest_wall = std::min(nearest_wall, distance(bodies[i], wall));
          } else {
            nearest_wall = distance(bodies[i], setup.tray.outer());
          }
        }
        failures[2] += nearest < kMinGap * 0.999 || nearest_wall < kMinGap * 0.999;
        // On the floor: the lowest vertices at floor height, none below.
        std::vector<double> heights;
        for (const Vec3& v : bodies[i].vertices) heights.push_back(v.y - floor);
        std::sort(heights.begin(), heights.end());
        failures[3] += std::abs(heights[0]) > eps || std::abs(heights[1]) > eps;
        const int top = die.top_face(d.rotation);
        const double up = (d.rotation * die.faces[top].normal).y;
        if (!d.cocked) {
          // Lying on a face: four vertices on the floor, the top face horizontal.
          failures[4] += std::abs(heights[3]) > eps || std::abs(up - 1) > eps;
          against_wall[walled] += d.zone == Zone::Tray && nearest_wall < 0.0005;
        } else {
          ++cocked;
          // Cocked: on an edge (two vertices down, the third up), no face within 12 degrees of
          // flat, leaning on a die or a wall within half a millimetre.
          const double tilt = std::acos(std::clamp(up, -1.0, 1.0)) * 180 / M_PI;
          failures[5] += heights[2] < 1e-4 || tilt < 12 - 1e-6 || tilt > 60 ||
                         std::min(nearest, nearest_wall) > 0.0005;
          leaning_on_wall += nearest_wall < nearest;
          tilt_min = std::min(tilt_min, tilt), tilt_max = std::max(tilt_max, tilt);
        }
      }
    }
  }
  char line[200];
  std::snprintf(line, sizeof line, "%d layouts (%d frames): textured dice sets all-or-none",
                layouts, frames_seen);
  check(failures[0] == 0, line);
  check(failures[1] == 0, "every frame has the ten dice, ids 0-9 (0-4 red, 5-9 white)");
  check(failures[2] == 0, "no die comes nearer than 0.05 mm to another die or to the tray");
  check(failures[3] == 0, "every die rests on its floor (tray floor or table), none sinks in");
  check(failures[4] == 0,
        "dice at rest lie on a face: four vertices down, the top face horizontal");
  check(failures[5] == 0,
        "cocked dice stand on an edge, no face within 12 degrees of flat, and "
        "touch what they lean on");
  std::snprintf(line, sizeof line,
                "--wall-share 0.5 puts flat dice against a tray wall: %d in %d layouts with a tray "
                "(without: %d in %d)",
                against_wall[1], wall_layouts[1], against_wall[0], wall_layouts[0]);
  check(wall_layouts[1] > 0 && wall_layouts[0] > 0 &&
            against_wall[1] * wall_layouts[0] > 3 * against_wall[0] * wall_layouts[1],
        line);
  std::snprintf(line, sizeof line,
                "stats: %d textured layouts, %d cocked dice (%d on a wall), %d touching pairs",
                textured, cocked, leaning_on_wall, touching);
  out << line << "\n";
  std::snprintf(
      line, sizeof line,
      "stats: %d of %d single scenes have cocked dice; their top faces tilt %.1f-%.1f deg",
      singles_cocked, singles, tilt_min, tilt_max);
  out << line << "\n";
  for (const auto& [name, n] : layout_kinds) out << "  layout " << name << ": " << n << "\n";
  for (const auto& [name, n] : zones) out << "  zone " << name << ": " << n << " die-frames\n";
  // The truth of rendered scenes: values, colours, every labelled point in the frame.
  int truth_failures = 0, without_room = 0, not_as_without = 0, not_all_clear = 0;
  int not_as_old_ink = 0, sheen_outside = 0;
  for (int k = 0; k < layouts / 4; ++k) {
    Random random(dice_seed(4243, k));
    const Scene scene = make_dice_scene(random, 1280, 720, DiceOptions{});
    // One room around the table (see-through dice show it, not POV-Ray's black background).
    const std::size_t sky = scene.pov.find("sky_sphere");
    without_room +=
        sky == std::string::npos || scene.pov.find("sky_sphere", sky + 1) != std::string::npos;
    // --no-room: the same scene with the room's text left out, the same truth.
    DiceOptions no_room;
    no_room.room = false;
    Random again(dice_seed(4243, k));
    const Scene bare = make_dice_scene(again, 1280, 720, no_room);
    const std::size_t room_end = sky == std::string::npos ? sky : scene.pov.find('\n', sky);
    not_as_without += sky == std::string::npos || room_end == std::string::npos ||
                      scene.pov.substr(0, sky) + scene.pov.substr(room_end + 1) != bare.pov ||
                      scene.truth != bare.truth;
    // --all-transparent: the same scene, every die of a textured one transparent (the same truth
    // but the texture; a scene with no texture the same to the byte).
    DiceOptions clear;
    clear.all_transparent = true;
    Random third(dice_seed(4243, k));
    const Scene glass = make_dice_scene(third, 1280, 720, clear);
    nlohmann::json untextured = glass.truth;
    for (std::size_t i = 0; i < untextured["dice"].size(); ++i) {
      const std::string texture = untextured["dice"][i]["texture"];
      not_all_clear +=
          texture != (scene.truth["dice"][i]["texture"] == "none" ? "none" : "transparent");
      untextured["dice"][i]["texture"] = scene.truth["dice"][i]["texture"];
    }
    not_all_clear += untextured != scene.truth ||
                     (scene.truth["dice"][0]["texture"] == "none" && glass.pov != scene.pov);
    // --old-ink: the same scene, its two inks those of every render before 2026-12-07 (the truth
    // without an ink_sheen; the text but for the two ink declarations the same to the byte).
    DiceOptions old_ink;
    old_ink.old_ink = true;
    Random fourth(dice_seed(4243, k));
    const Scene old = make_dice_scene(fourth, 1280, 720, old_ink);
    nlohmann::json sheenless = scene.truth;
    for (auto& d : sheenless["dice"]) {
      const bool gold = d["digit_colour"] == "gold";
      sheen_outside += !gold && !(d["ink_sheen"] >= 0.03 && d["ink_sheen"] <= 0.3);
      d["ink_sheen"] = nullptr;
    }
    const auto without_inks = [](const std::string& pov) {
      std::string kept, line;
      std::istringstream lines(pov);
      while (std::getline(lines, line)) {
        if (line.rfind("#declare D10_Ink_", 0) != 0) kept += line + "\n";
      }
      return kept;
    };
    not_as_old_ink += sheenless != old.truth || without_inks(scene.pov) != without_inks(old.pov) ||
                      scene.pov == old.pov;
    int red = 0;
    for (const auto& d : scene.truth["dice"]) {
      red += d["colour"] == "red";
      const bool cocked_die = d["cocked"].get<bool>();
      const bool value_ok =
          cocked_die ? d["value"].is_null() : d["value"].get<int>() == d["top_value"].get<int>();
      bool inside = true;
      for (const auto& p : d["face"]["corners"]) {
        inside = inside && p[0] >= 0 && p[0] < 1280 && p[1] >= 0 && p[1] < 720;
      }
      truth_failures += !value_ok || !inside || d["top_value"] < 1 || d["top_value"] > 10;
    }
    truth_failures += red != 5;
  }
  check(truth_failures == 0,
        "rendered truth: 5 red + 5 white, values 1-10 (null when cocked), "
        "every up-face corner inside the image");
  check(without_room == 0, "every scene has one room around the table (a sky_sphere)");
  check(not_as_without == 0, "--no-room leaves out the room's line and nothing else");
  check(
      not_all_clear == 0,
      "--all-transparent makes every die of a textured scene transparent and changes nothing else");
  check(sheen_outside == 0, "black and white ink draws a highlight of 0.03-0.3 (ink_sheen)");
  check(not_as_old_ink == 0, "--old-ink changes the two inks' declarations and nothing else");
  report = out.str();
  return all;
}

struct DiceTable::State {
  explicit State(Random& r) : random(r) {}
  Random& random;
  Setup setup;
  std::unique_ptr<Placer> placer;
  std::vector<std::vector<Die>> frames;
};

DiceTable::DiceTable(Random& random, const DiceTableLook& look)
    : state_(std::make_unique<State>(random)) {
  DiceOptions options;
  options.old_ink = true;  // as data/demo/recordings/yams was rendered (make_demo_recordings.sh)
  options.textured_share = 0;
  options.cocked_share = 0;
  Setup& setup = state_->setup;
  // A tray, and the kept area in front of it (toward the camera, on the tray's -z side).
  do {
    setup = random_setup(random, options);
  } while (!setup.tray.present ||
           dot(setup.kept.centre - setup.roll.centre, setup.roll.rotation.column(2)) > -0.04);
  setup.layout = "tray+kept";
  setup.kept_in_row = true;
  for (int s = 0; s < 2; ++s) {
    DieSet& set = setup.sets[s];
    set.font = std::clamp(look.font, 0, static_cast<int>(kFonts.size()) - 1);
    set.glossy = !look.matte;
    set.engraved = !look.printed;
    if (s == 0) set.digit_colour = look.white_digits ? "white" : "gold";
  }
  state_->placer = std::make_unique<Placer>(random, setup);
}

DiceTable::~DiceTable() = default;

bool DiceTable::roll(const std::vector<int>& ids, const std::vector<int>& values) {
  Placer& placer = *state_->placer;
  const Setup& setup = state_->setup;
  for (int attempt = 0; attempt < 20; ++attempt) {
    std::vector<int> placed;
    for (std::size_t i = 0; i < ids.size() && i < values.size(); ++i) {
      const int face = setup.die.face_of_digit(values[i] % 10);
      if (!placer.place_resting(ids[i], face, setup.roll, 0.3)) break;
      placed.push_back(ids[i]);
    }
    if (placed.size() == ids.size()) return true;
    placer.remove(placed);
  }
  return false;
}

bool DiceTable::keep(const std::vector<int>& ids) {
  Placer& placer = *state_->placer;
  const Setup& setup = state_->setup;
  std::vector<Die> moved;
  std::vector<int> tops, order;
  for (const int id : ids) {
    for (const Die& d : placer.dice()) {
      if (d.id != id) continue;
      moved.push_back(d);
      order.push_back(id);
      tops.push_back(setup.die.top_face(d.rotation));
    }
  }
  placer.remove(order);
  if (keep_dice(placer, setup, order, tops, false)) return true;
  for (const Die& d : moved) placer.dice().push_back(d);
  return false;
}

void DiceTable::lift(const std::vector<int>& ids) { state_->placer->remove(ids); }

std::vector<TableDie> DiceTable::dice() const {
  std::vector<TableDie> out;
  for (const Die& d : state_->placer->dice()) {
    out.push_back({d.id, state_->setup.die.faces[state_->setup.die.top_face(d.rotation)].value(),
                   d.zone == Zone::Kept, d.position});
  }
  return out;
}

int DiceTable::snapshot() {
  state_->frames.push_back(state_->placer->dice());
  return static_cast<int>(state_->frames.size()) - 1;
}

void DiceTable::centre() { centre_layout(state_->setup, state_->frames); }

std::vector<Vec3> DiceTable::content_points() const {
  std::vector<Vec3> points;
  for (const auto& dice : state_->frames) {
    const auto p = scenegen::content_points(state_->setup, dice);
    points.insert(points.end(), p.begin(), p.end());
  }
  return points;
}

std::vector<Vec3> DiceTable::tray_floor() const {
  const Tray& t = state_->setup.tray;
  return {t.world(-t.half_w, t.floor, t.half_d), t.world(t.half_w, t.floor, t.half_d),
          t.world(t.half_w, t.floor, -t.half_d), t.world(-t.half_w, t.floor, -t.half_d)};
}

std::vector<Vec3> DiceTable::tray_rim() const {
  const Tray& t = state_->setup.tray;
  const double w = t.half_w + t.wall, d = t.half_d + t.wall;
  return {t.world(-w, t.height, d), t.world(w, t.height, d), t.world(w, t.height, -d),
          t.world(-w, t.height, -d)};
}

std::vector<Vec3> DiceTable::kept_area(double half_length, double half_depth) const {
  const Region& k = state_->setup.kept;
  return {k.world(-half_length, half_depth), k.world(half_length, half_depth),
          k.world(half_length, -half_depth), k.world(-half_length, -half_depth)};
}

Scene DiceTable::picture(int k, const Camera& camera, const std::string& environment,
                         const std::string& table_kind) const {
  Stage stage;
  stage.camera = camera;
  stage.environment = environment;
  stage.table_kind = table_kind;
  const Vec3 view = normalized(camera.look_at - camera.location);
  stage.tilt = std::acos(std::clamp(-view.y, -1.0, 1.0));
  return emit(state_->setup, stage, state_->frames.at(static_cast<std::size_t>(k)));
}

cv::Mat dice_overlay(const cv::Mat& image, const nlohmann::json& truth) {
  cv::Mat out = image.clone();
  const auto pt = [](const nlohmann::json& p) {
    return cv::Point(static_cast<int>(std::lround(p[0].get<double>())),
                     static_cast<int>(std::lround(p[1].get<double>())));
  };
  if (!truth["tray"].is_null()) {
    for (const char* key : {"floor_corners", "rim_corners"}) {
      std::vector<cv::Point> poly;
      for (const auto& p : truth["tray"][key]) poly.push_back(pt(p));
      cv::polylines(out, poly, true,
                    key[0] == 'f' ? cv::Scalar(255, 255, 0) : cv::Scalar(255, 0, 0), 1,
                    cv::LINE_AA);
    }
  }
  for (const auto& d : truth["dice"]) {
    const bool cocked = d["cocked"].get<bool>();
    const bool hidden = d["visible"].get<double>() < 0.6;
    const cv::Scalar colour = hidden   ? cv::Scalar(160, 160, 160)
                              : cocked ? cv::Scalar(0, 140, 255)
                                       : cv::Scalar(0, 255, 0);
    std::vector<cv::Point> kite;
    for (const auto& p : d["face"]["corners"]) kite.push_back(pt(p));
    cv::polylines(out, kite, true, colour, 1, cv::LINE_AA);
    cv::circle(out, kite[0], 3, colour, cv::FILLED, cv::LINE_AA);
    const cv::Point centre(static_cast<int>(std::lround(d["face"]["x"].get<double>())),
                           static_cast<int>(std::lround(d["face"]["y"].get<double>())));
    const double a = d["face"]["digit_rotation_deg"].get<double>() * kDeg;
    const double len = d["radius_px"].get<double>() * 0.5;
    cv::arrowedLine(out, centre,
                    centre + cv::Point(static_cast<int>(std::lround(std::sin(a) * len)),
                                       static_cast<int>(std::lround(-std::cos(a) * len))),
                    colour, 1, cv::LINE_AA, 0, 0.3);
    std::string label = cocked ? "c" + std::to_string(d["top_value"].get<int>())
                               : std::to_string(d["value"].get<int>());
    label += d["colour"].get<std::string>()[0];
    const cv::Point at(
        static_cast<int>(std::lround(d["x"].get<double>() + d["radius_px"].get<double>())),
        static_cast<int>(std::lround(d["y"].get<double>())));
    cv::putText(out, label, at, cv::FONT_HERSHEY_SIMPLEX, 0.6, cv::Scalar(0, 0, 0), 3, cv::LINE_AA);
    cv::putText(out, label, at, cv::FONT_HERSHEY_SIMPLEX, 0.6, colour, 1, cv::LINE_AA);
  }
  return out;
}

cv::Mat pion_overlay(const cv::Mat& image, const nlohmann::json& truth) {
  cv::Mat out = image.clone();
  for (const auto& p : truth["pions"]) {
    const cv::Point at(static_cast<int>(std::lround(p["x"].get<double>())),
                       static_cast<int>(std::lround(p["y"].get<double>())));
    cv::circle(out, at, 4, cv::Scalar(255, 0, 255), cv::FILLED, cv::LINE_AA);
    cv::putText(out, p["colour"].get<std::string>().substr(0, 1), at + cv::Point(6, -6),
                cv::FONT_HERSHEY_SIMPLEX, 0.5, cv::Scalar(255, 0, 255), 1, cv::LINE_AA);
  }
  return out;
}

}  // namespace arbitre::tools::scenegen
