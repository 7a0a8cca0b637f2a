// Irma pion scenes: a board reached by a seeded random legal game (so pions are 8-connected, fit
// the 5x7 rectangle and follow the bag), laid out on a table with a random camera (0-35 degrees
// from vertical), table material (wood, felt, cloth, patterned), light (warm, cool, mixed;
// shadows; a lamp hotspot), pion shape (discs or square tiles, touching or with gaps), material
// (matte or glossy, varied hues), jitter, distractors (a cup, a pencil). The truth lists every
// pion's cell, colour and image position (projected with the camera POV-Ray used).
#pragma once

#include "common.h"
#include "referee/irma/irma.h"

namespace arbitre::tools::scenegen {

// Scene k of a seed is make_pion_scene(Random(seed * 7919 + k), ...): keep its draws as they are,
// the committed test set and the benchmarks depend on them.
Scene make_pion_scene(Random& random, int width, int height);

// The colour of a pion, with hue variation between sets (`hue_shift` in [-1, 1]^3) and a little
// between pions; draws from `random`.
std::string pion_colour(referee::irma::Colour colour, const Vec3& hue_shift, Random& random);

}  // namespace arbitre::tools::scenegen
