// d10 scenes for Le Yams impossible: ten dice (5 red, 5 white) in a tray, in the "kept" area in
// front of the player, or rolled on the open table; the table, lights, camera, distractors and
// sensor noise of the pion scenes (common.h). See the header comment of dice_scene.cpp for what
// varies and the ground truth's fields.
#pragma once

#include <cstdint>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

#include "common.h"

namespace arbitre::tools::scenegen {

struct DiceOptions {
  double textured_share = 0.2;  // scenes whose dice are all frosted or transparent
  double cocked_share = 0.25;   // scenes (or roll frames) with one or two cocked dice
};

// The Random seed of dice scene (or sequence) k: depends only on the seed and k.
std::uint64_t dice_seed(std::uint64_t seed, int k);

Scene make_dice_scene(Random& random, int width, int height, const DiceOptions& options);

// A scripted turn of Le Yams impossible seen by a fixed camera: roll the ten dice, keep some in
// the kept area, roll the others, ... (at most five rolls). One scene per frame.
std::vector<Scene> make_dice_sequence(Random& random, int width, int height,
                                      const DiceOptions& options);

// Generates `layouts` layouts (every fourth a sequence) and a quarter as many scenes without
// rendering, and checks them: no interpenetration, dice on their floor, flat dice with a
// horizontal top face, cocked dice on an edge and supported, 5 red + 5 white, textures on all
// or none, labels in the frame. Writes one line per check to `report`.
bool dice_self_test(int layouts, std::string& report);

// The ground truth drawn over an image: the tray, every die's up-face kite (green; orange when
// cocked; grey when mostly hidden), its pole corner, the digit's up direction and the value.
cv::Mat dice_overlay(const cv::Mat& image, const nlohmann::json& truth);
// The same for pion scenes: every pion's centre and colour initial.
cv::Mat pion_overlay(const cv::Mat& image, const nlohmann::json& truth);

}  // namespace arbitre::tools::scenegen
