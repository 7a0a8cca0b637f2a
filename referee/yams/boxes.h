// Le Yams impossible — what every box scores for a roll (RULINGS.md §2, rules 2-3).
//
// A box is scored by the best choice of dice for it: for the chiffres, every die showing the
// face, or five of them in harmony; for the Yams and Suites, one group; for the Combinaisons,
// disjoint groups (which may share a value). Multipliers multiply: x3 on the first roll (Yams,
// Suites, Combinaisons), x2 when every group is of one colour, x2 when every group is of one
// texture. The choice that scores most is found exactly: harmony is a question of which
// (value, colour, texture) classes can hold the groups, which is decided by an exhaustive
// packing of the groups into those classes.
#pragma once

#include <array>
#include <vector>

#include "referee/yams/dice.h"

namespace arbitre::referee::yams {

using BoxScores = std::array<int, kBoxCount>;

// Every box's score for the dice. `first_roll`: the turn's first roll (x3).
BoxScores score_all(const Dice& dice, bool first_roll);
int score_box(const Dice& dice, Box box, bool first_roll);

// True when the dice make what the box names (a non-zero score without multipliers). The
// différence boxes always qualify; a chiffres box qualifies when one die shows its face.
bool qualifies(const Dice& dice, Box box);

// The dice behind a box's score.
struct Choice {
  int score = 0;
  int multiplier = 1;       // first roll x harmonies (1 for chiffres counted die by die)
  bool colour_harmony = false;
  bool texture_harmony = false;
  std::vector<int> dice;    // indices into the roll, by group; empty when the score is 0
  std::vector<int> groups;  // the size of each group, in order (one group for Yams/Suites)
};
Choice best_choice(const Dice& dice, Box box, bool first_roll);

// The number of dice the chiffre-1 box counts for this roll (the différence multiplier): the
// dice of its best choice.
int chiffre_count(const Dice& dice, Box box);

// The group sizes of a Combinaisons box, largest first.
std::vector<int> group_sizes(Box box);

}  // namespace arbitre::referee::yams
