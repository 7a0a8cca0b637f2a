#include "scoring/yams/sheet.h"

namespace arbitre::scoring::yams {

int section_sum(const ry::Sheet& sheet, ry::Section section) {
  if (section == ry::Section::Difference) return 0;
  int sum = 0;
  for (int b = 0; b < ry::kBoxCount; ++b) {
    const auto& entry = sheet.boxes[b];
    if (entry && ry::section(ry::box_at(b)) == section) sum += entry->score;
  }
  return sum;
}

Totals totals(const ry::Sheet& sheet) {
  Totals t;
  t.chiffres = section_sum(sheet, ry::Section::Chiffres);
  t.bonus = t.chiffres >= kChiffresThreshold ? kChiffresBonus : 0;
  t.total1 = t.chiffres + t.bonus;
  t.total2 = section_sum(sheet, ry::Section::Yams);
  t.total3 = section_sum(sheet, ry::Section::Suites);
  t.total4 = section_sum(sheet, ry::Section::Combinaisons);
  const auto& plus = sheet.boxes[ry::index(ry::Box::Plus)];
  const auto& moins = sheet.boxes[ry::index(ry::Box::Moins)];
  const auto& ones = sheet.boxes[ry::index(ry::Box::Chiffre1)];
  if (plus && moins && ones) t.total5 = (plus->score - moins->score) * ones->count;
  t.grand = t.total1 + t.total2 + t.total3 + t.total4 + t.total5;
  return t;
}

}  // namespace arbitre::scoring::yams
