// Le Yams impossible — the totals of a score sheet (RULINGS.md §2, rule 2).
#pragma once

#include "referee/yams/yams.h"

namespace arbitre::scoring::yams {

namespace ry = referee::yams;

inline constexpr int kChiffresThreshold = 330;
inline constexpr int kChiffresBonus = 500;

struct Totals {
  int chiffres = 0;    // the ten chiffres boxes
  int bonus = 0;       // 500 when they reach 330
  int total1 = 0;      // chiffres + bonus
  int total2 = 0;      // the Yams
  int total3 = 0;      // the Suites
  int total4 = 0;      // the Combinaisons
  int total5 = 0;      // (Plus - Moins) x dice counted in chiffre-1; 0 until all three are filled
  int grand = 0;       // the five totals
  bool operator==(const Totals&) const = default;
};

Totals totals(const ry::Sheet& sheet);

// Sum of the filled boxes of a section (the différence section: 0, see total5).
int section_sum(const ry::Sheet& sheet, ry::Section section);

}  // namespace arbitre::scoring::yams
