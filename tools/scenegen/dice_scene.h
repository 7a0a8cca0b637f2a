// d10 scenes for Le Yams impossible: ten dice (5 red, 5 white) in a tray, in the "kept" area in
// front of the player, or rolled on the open table; the table, lights, camera, distractors and
// sensor noise of the pion scenes (common.h). See the header comment of dice_scene.cpp for what
// varies and the ground truth's fields.
#pragma once

#include <cstdint>
#include <memory>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

#include "common.h"

namespace arbitre::tools::scenegen {

struct DiceOptions {
  double textured_share = 0.2;  // scenes whose dice are all frosted or transparent
  double cocked_share = 0.25;   // scenes (or roll frames) with one or two cocked dice
  // Each die rolled into a tray lies flat against one of its walls with this probability (0:
  // never, and the random draws are those of the scenes before the option; dice in a real tray
  // come to rest against its walls often, and the lean network took such dice for cocked ones).
  double wall_share = 0;
  bool all_transparent = false;  // textured scenes: every die transparent, none frosted (the
                                 // random draws as without, so the scenes are otherwise the same)
  // The ink of the renders before 2026-12-07 (black and white ink with a highlight of 0.3 and 0.2,
  // the same in every scene): tools/train_dice.sh renders the committed model's scenes so. Off,
  // each colour set's ink draws its highlight (0.03-0.3) on a stream of its own: the scenes are
  // otherwise the same.
  bool old_ink = false;
  bool room = true;  // the room around the table; false: POV-Ray's black background, as the
                     // renders before 2026-12-03 (the first parts of the committed dice model)
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

// Hooks for a scripted whole game on one table (yams_sequence.h): the caller says which dice
// roll into the tray with which up values, which move to the kept row and which are lifted off
// the table, remembers the table as it lies after each step, and renders each remembered
// picture under its own camera and surroundings.
struct DiceTableLook {
  int font = 1;          // for both colour sets: index in the font list (1: DejaVu Sans Bold)
  bool matte = true;     // matte dice (else glossy)
  bool printed = true;   // printed digits (else engraved)
  bool white_digits = true;  // red dice with white digits (else gold)
};

// A die of a DiceTable as it lies: its id (0-4 red, 5-9 white), up value 1..10, whether it is
// in the kept row, its centre in the scene (metres).
struct TableDie {
  int id = 0;
  int value = 0;
  bool kept = false;
  Vec3 position;
};

class DiceTable {
 public:
  // Dice, tray and kept area drawn from `random` as for a dice sequence, with no textures, the
  // tray always there and the kept dice in a row in front of it (toward the camera); the dice's
  // look as `look` says.
  DiceTable(Random& random, const DiceTableLook& look);
  ~DiceTable();
  DiceTable(const DiceTable&) = delete;
  DiceTable& operator=(const DiceTable&) = delete;

  // Rolls dice `ids` into the tray, lying flat with up values `values` (1..10), among the dice
  // already there. False (nothing changed) when they do not fit.
  bool roll(const std::vector<int>& ids, const std::vector<int>& values);
  // Moves dice `ids` to the end of the kept row (started at its left end when empty), their up
  // faces unchanged. False (nothing changed) when they do not fit.
  bool keep(const std::vector<int>& ids);
  // Takes dice `ids` off the table.
  void lift(const std::vector<int>& ids);
  std::vector<TableDie> dice() const;

  // Remembers the dice as they lie now; returns the picture's index.
  int snapshot();
  // Moves the tray, the kept area and every picture so that their footprint is centred on the
  // origin (once, after the last snapshot).
  void centre();
  // Points that must be in view: the tray's corners and every die of every picture.
  std::vector<Vec3> content_points() const;
  // The tray's inside floor and the kept area (a rectangle `half_length` either side of its
  // centre along the row, `half_depth` across), as four corners on the table.
  std::vector<Vec3> tray_floor() const;
  std::vector<Vec3> kept_area(double half_length, double half_depth) const;
  // The top of the tray's walls round the outside.
  std::vector<Vec3> tray_rim() const;

  // Picture k seen by `camera` in `environment` (POV-Ray text: the table, lights and anything
  // else), with the ground truth of a dice scene (dice, tray, scene; the scene's "table" is
  // `table_kind`).
  Scene picture(int k, const Camera& camera, const std::string& environment,
                const std::string& table_kind) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The ground truth drawn over an image: the tray, every die's up-face kite (green; orange when
// cocked; grey when mostly hidden), its pole corner, the digit's up direction and the value.
cv::Mat dice_overlay(const cv::Mat& image, const nlohmann::json& truth);
// The same for pion scenes: every pion's centre and colour initial.
cv::Mat pion_overlay(const cv::Mat& image, const nlohmann::json& truth);

}  // namespace arbitre::tools::scenegen
