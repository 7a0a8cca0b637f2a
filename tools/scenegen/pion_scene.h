// Irma pion scenes: a board reached by a seeded random legal game (so pions are 8-connected, fit
// the 5x7 rectangle and follow the bag), laid out on a table with a random camera (0-35 degrees
// from vertical), table material (wood, felt, cloth, patterned), light (warm, cool, mixed;
// shadows; a lamp hotspot), pion shape (discs or square tiles, touching or with gaps), material
// (matte or glossy, varied hues), jitter, distractors (a cup, a pencil). The truth lists every
// pion's cell, colour and image position (projected with the camera POV-Ray used).
#pragma once

#include <cstdint>
#include <optional>

#include "common.h"
#include "referee/irma/irma.h"

namespace arbitre::tools::scenegen {

// Scene k of a seed is make_pion_scene(Random(seed * 7919 + k), ...): keep its draws as they are,
// the committed test set and the benchmarks depend on them.
//
// With `calibration_seed`, the scene's calibration picture instead: the same table, light,
// camera, pion set (shape, size, material, hues) and distractors, every draw of `random` made as
// for the scene, but in place of the board one pion of each colour in a 2x2 block centred on the
// board's pions (red, orange; green, white; each pion's own variation and jitter drawn from a
// Random of that seed): what a player shows `arbitre calibrate pions` before the game, under the
// same lamp.
//
// With `empty`, the scene without its board: the same table, light, camera and distractors, every
// draw made as for the scene, no pion shown (the truth lists none): the table a reader sees before
// the first pion, where whatever it reports is a phantom.
Scene make_pion_scene(Random& random, int width, int height,
                      std::optional<std::uint64_t> calibration_seed = std::nullopt,
                      bool empty = false);

// The colour of a pion, with hue variation between sets (`hue_shift` in [-1, 1]^3) and a little
// between pions; draws from `random`.
std::string pion_colour(referee::irma::Colour colour, const Vec3& hue_shift, Random& random);

}  // namespace arbitre::tools::scenegen
