#include "referee/yams/boxes.h"

#include <algorithm>
#include <span>

namespace arbitre::referee::yams {
namespace {

// Harmony levels. A harmonious group stays inside one class of its level: at kColour the
// classes are the two colours, at kTexture the two textures, at kBoth the four (colour,
// texture) pairs; kNone has one class. Each level has its multiplier.
enum Level : int { kNone = 0, kColour = 1, kTexture = 2, kBoth = 3 };
constexpr std::array<int, 4> kLevelMultiplier = {1, 2, 2, 4};
constexpr std::array<int, 4> kLevelParts = {1, 2, 2, 4};
// Levels to try, best multiplier first, with and without textures.
constexpr std::array<Level, 4> kTexturedOrder = {kBoth, kColour, kTexture, kNone};
constexpr std::array<Level, 2> kPlainOrder = {kColour, kNone};

constexpr int kFirstRollMultiplier = 3;
constexpr int kHarmonyFive = 5;  // a chiffres box may score five dice in harmony

int part_of(const Die& die, int level) {
  const int colour = die.colour == DieColour::White ? 1 : 0;
  const int texture = die.texture == Texture::Transparent ? 1 : 0;
  switch (level) {
    case kColour: return colour;
    case kTexture: return texture;
    case kBoth: return colour * 2 + texture;
    default: return 0;
  }
}

std::span<const Level> levels(bool textured) {
  return textured ? std::span<const Level>(kTexturedOrder) : std::span<const Level>(kPlainOrder);
}

// Packs groups (sizes largest first) into bins of the given capacities, each group inside one
// bin, several groups per bin allowed. Exhaustive; groups of equal size take bins in
// non-decreasing order (they are interchangeable). `where[g]` receives group g's bin.
bool pack(std::span<int> capacity, std::span<const int> sizes, std::size_t g, std::span<int> where) {
  if (g == sizes.size()) return true;
  const std::size_t start = (g > 0 && sizes[g] == sizes[g - 1]) ? static_cast<std::size_t>(where[g - 1]) : 0;
  for (std::size_t b = start; b < capacity.size(); ++b) {
    if (capacity[b] < sizes[g]) continue;
    capacity[b] -= sizes[g];
    where[g] = static_cast<int>(b);
    if (pack(capacity, sizes, g + 1, where)) return true;
    capacity[b] += sizes[g];
  }
  return false;
}

constexpr std::array<Box, 8> kCombinaisons = {Box::DoubleBrelan, Box::TripleBrelan, Box::DoubleCarre,
                                              Box::DoubleYams,   Box::FullTordu,    Box::GrandFull,
                                              Box::FullSupreme,  Box::ToutEnPaires};

const std::vector<int>& sizes_of(int combinaison) {
  static const std::array<std::vector<int>, 8> kSizes = {{
      {3, 3}, {3, 3, 3}, {4, 4}, {5, 5}, {4, 3, 3}, {6, 4}, {7, 3}, {2, 2, 2, 2, 2}}};
  return kSizes[combinaison];
}

// Whether the combinaisons fit depends only on the multiset of class sizes of 2 or more dice
// (they add up to at most ten). Key: the count of classes of each size 2..10 in mixed radix.
constexpr std::array<int, 11> kKeyWeight = {0, 0, 1, 6, 24, 72, 216, 432, 864, 1728, 3456};
constexpr int kKeyCount = 6912;

// For every key, the combinaisons whose groups fit (bit c for kCombinaisons[c]), computed once
// by the same exhaustive packing best_choice uses.
const std::array<std::uint8_t, kKeyCount>& fit_table() {
  static const std::array<std::uint8_t, kKeyCount> table = [] {
    std::array<std::uint8_t, kKeyCount> t{};
    constexpr std::array<int, 11> radix = {0, 0, 6, 4, 3, 3, 2, 2, 2, 2, 2};
    for (int key = 0; key < kKeyCount; ++key) {
      std::vector<int> capacity;
      int rest = key;
      int dice = 0;
      for (int s = 2; s <= 10; ++s) {
        const int m = rest % radix[s];
        rest /= radix[s];
        for (int k = 0; k < m; ++k) capacity.push_back(s);
        dice += m * s;
      }
      if (dice > kDiceCount) continue;
      for (int c = 0; c < 8; ++c) {
        std::vector<int> cap = capacity;
        std::vector<int> where(sizes_of(c).size());
        if (pack(cap, sizes_of(c), 0, where)) t[key] |= static_cast<std::uint8_t>(1u << c);
      }
    }
    return t;
  }();
  return table;
}

// Counts of a roll at every harmony level.
struct Analysis {
  bool textured = false;
  int sum = 0;
  std::array<std::uint8_t, kFaces + 1> count{};
  // bins[level][value][part]: dice of that value in that class.
  std::array<std::array<std::array<std::uint8_t, 4>, kFaces + 1>, 4> bins{};
  // Per value, the classes present: bits 0-1 colours, 2-3 textures, 4-7 (colour, texture).
  std::array<std::uint8_t, kFaces + 1> present{};

  explicit Analysis(const Dice& dice) : textured(has_textures(dice)) {
    for (const Die& die : dice) {
      sum += die.value;
      ++count[die.value];
      for (int level = 0; level < 4; ++level) ++bins[level][die.value][part_of(die, level)];
      present[die.value] |= static_cast<std::uint8_t>(1u << part_of(die, kColour));
      if (textured) {
        present[die.value] |= static_cast<std::uint8_t>(4u << part_of(die, kTexture));
        present[die.value] |= static_cast<std::uint8_t>(16u << part_of(die, kBoth));
      }
    }
  }

  int largest_bin(int level, int value) const {
    int best = 0;
    for (int p = 0; p < kLevelParts[level]; ++p) best = std::max<int>(best, bins[level][value][p]);
    return best;
  }

  int key(int level) const {
    int k = 0;
    for (int v = 1; v <= kFaces; ++v) {
      for (int p = 0; p < kLevelParts[level]; ++p) k += kKeyWeight[bins[level][v][p]];
    }
    return k;
  }
};

// The multiplier of a suite window from the classes present on every value of it.
int suite_multiplier(std::uint8_t common) {
  if (common & 0xF0) return 4;
  if (common & 0x0F) return 2;
  return 1;
}

// The best window [first, first + length) for a suite: its multiplier (0 when no window has
// every value) and first value. Ties go to the higher window.
std::pair<int, int> best_suite(const Analysis& a, int length) {
  int best = 0;
  int best_first = 0;
  for (int first = 1; first + length - 1 <= kFaces; ++first) {
    std::uint8_t common = 0xFF;
    bool complete = true;
    for (int v = first; v < first + length && complete; ++v) {
      complete = a.count[v] > 0;
      common &= a.present[v];
    }
    if (!complete) continue;
    const int multiplier = suite_multiplier(common);
    if (multiplier >= best) {
      best = multiplier;
      best_first = first;
    }
  }
  return {best, best_first};
}

int section_multiplier(Box box, bool first_roll) {
  const Section s = section(box);
  return first_roll && (s == Section::Yams || s == Section::Suites || s == Section::Combinaisons)
             ? kFirstRollMultiplier
             : 1;
}

int combinaison_index(Box box) { return index(box) - index(Box::DoubleBrelan); }

}  // namespace

std::vector<int> group_sizes(Box box) {
  if (section(box) != Section::Combinaisons) return {};
  return sizes_of(combinaison_index(box));
}

BoxScores score_all(const Dice& dice, bool first_roll) {
  const Analysis a(dice);
  BoxScores scores{};
  const auto order = levels(a.textured);
  const int first = first_roll ? kFirstRollMultiplier : 1;

  // Chiffres: face x count, or five in harmony.
  for (int v = 1; v <= kFaces; ++v) {
    int best = v * a.count[v];
    for (const Level level : order) {
      if (a.largest_bin(level, v) >= kHarmonyFive) {
        best = std::max(best, kHarmonyFive * v * kLevelMultiplier[level]);
        break;
      }
    }
    scores[v - 1] = best;
  }
  // Yams: the largest class at each level, over all values.
  std::array<int, 4> largest{};
  for (const Level level : order) {
    for (int v = 1; v <= kFaces; ++v) largest[level] = std::max(largest[level], a.largest_bin(level, v));
  }
  for (int b = index(Box::Brelan); b <= index(Box::YamsImpossible); ++b) {
    const Box box = box_at(b);
    for (const Level level : order) {
      if (largest[level] >= size(box)) {
        scores[b] = base_value(box) * first * kLevelMultiplier[level];
        break;
      }
    }
  }
  // Suites.
  for (int b = index(Box::SuiteRidicule); b <= index(Box::TheSuite); ++b) {
    const Box box = box_at(b);
    const int multiplier = best_suite(a, size(box)).first;
    scores[b] = base_value(box) * first * multiplier;
  }
  // Combinaisons: the best level whose classes hold the groups.
  const auto& table = fit_table();
  std::array<int, 8> multiplier{};
  for (const Level level : order) {
    const std::uint8_t fits = table[a.key(level)];
    for (int c = 0; c < 8; ++c) {
      if ((fits >> c) & 1u) multiplier[c] = std::max(multiplier[c], kLevelMultiplier[level]);
    }
  }
  for (int c = 0; c < 8; ++c) {
    const Box box = kCombinaisons[c];
    scores[index(box)] = base_value(box) * first * multiplier[c];
  }
  scores[index(Box::Plus)] = a.sum;
  scores[index(Box::Moins)] = a.sum;
  return scores;
}

int score_box(const Dice& dice, Box box, bool first_roll) {
  return score_all(dice, first_roll)[index(box)];
}

bool qualifies(const Dice& dice, Box box) { return score_box(dice, box, false) > 0; }

Choice best_choice(const Dice& dice, Box box, bool first_roll) {
  const Analysis a(dice);
  const auto order = levels(a.textured);
  Choice choice;
  // Dice indices of a class, in roll order.
  const auto class_dice = [&](int level, int value, int part) {
    std::vector<int> out;
    for (int i = 0; i < kDiceCount; ++i) {
      if (dice[i].value == value && part_of(dice[i], level) == part) out.push_back(i);
    }
    return out;
  };
  const auto set_harmony = [&](int level) {
    choice.colour_harmony = level == kColour || level == kBoth;
    choice.texture_harmony = level == kTexture || level == kBoth;
  };
  const int first = section_multiplier(box, first_roll);
  // A fixed-value box's choice is complete: its groups, its multiplier and its score.
  const auto settle = [&](std::vector<int> groups, int level) {
    choice.groups = std::move(groups);
    choice.multiplier = first * kLevelMultiplier[level];
    choice.score = base_value(box) * choice.multiplier;
    set_harmony(level);
    return choice;
  };

  switch (section(box)) {
    case Section::Chiffres: {
      const int v = face(box);
      choice.score = v * a.count[v];
      for (const Level level : order) {
        if (a.largest_bin(level, v) < kHarmonyFive) continue;
        const int harmony = kHarmonyFive * v * kLevelMultiplier[level];
        if (harmony > choice.score) {  // on a tie, all the dice showing the face count
          choice.score = harmony;
          choice.multiplier = kLevelMultiplier[level];
          set_harmony(level);
          for (int p = 0; p < kLevelParts[level]; ++p) {
            if (a.bins[level][v][p] >= kHarmonyFive) {
              const auto d = class_dice(level, v, p);
              choice.dice.assign(d.begin(), d.begin() + kHarmonyFive);
              break;
            }
          }
        }
        break;
      }
      if (choice.dice.empty()) choice.dice = class_dice(kNone, v, 0);
      if (!choice.dice.empty()) choice.groups = {static_cast<int>(choice.dice.size())};
      return choice;
    }
    case Section::Yams: {
      const int n = size(box);
      for (const Level level : order) {
        for (int v = kFaces; v >= 1; --v) {
          for (int p = 0; p < kLevelParts[level]; ++p) {
            if (a.bins[level][v][p] < n) continue;
            const auto d = class_dice(level, v, p);
            choice.dice.assign(d.begin(), d.begin() + n);
            return settle({n}, level);
          }
        }
      }
      return choice;
    }
    case Section::Suites: {
      const int n = size(box);
      const auto [multiplier, low] = best_suite(a, n);
      if (multiplier == 0) return choice;
      // The level and class that give the multiplier, on every value of the window.
      std::uint8_t common = 0xFF;
      for (int v = low; v < low + n; ++v) common &= a.present[v];
      int level = kNone;
      int part = 0;
      for (int bit = 0; bit < 8; ++bit) {
        if (!((common >> bit) & 1u)) continue;
        const int candidate = bit >= 4 ? kBoth : bit >= 2 ? kTexture : kColour;
        if (kLevelMultiplier[candidate] == multiplier && multiplier > 1) {
          level = candidate;
          part = bit >= 4 ? bit - 4 : bit >= 2 ? bit - 2 : bit;
          break;
        }
      }
      for (int v = low; v < low + n; ++v) choice.dice.push_back(class_dice(level, v, part).front());
      return settle({n}, level);  // kLevelMultiplier[level] == multiplier
    }
    case Section::Combinaisons: {
      const std::vector<int>& sizes = sizes_of(combinaison_index(box));
      for (const Level level : order) {
        std::vector<std::vector<int>> bins;
        std::vector<int> capacity;
        for (int v = 1; v <= kFaces; ++v) {
          for (int p = 0; p < kLevelParts[level]; ++p) {
            if (a.bins[level][v][p] < 2) continue;
            bins.push_back(class_dice(level, v, p));
            capacity.push_back(a.bins[level][v][p]);
          }
        }
        std::vector<int> where(sizes.size());
        if (!pack(capacity, sizes, 0, where)) continue;
        std::vector<std::size_t> used(bins.size(), 0);
        for (std::size_t g = 0; g < sizes.size(); ++g) {
          auto& bin = bins[where[g]];
          for (int k = 0; k < sizes[g]; ++k) choice.dice.push_back(bin[used[where[g]]++]);
        }
        return settle(sizes, level);
      }
      return choice;
    }
    case Section::Difference: {
      choice.score = a.sum;
      for (int i = 0; i < kDiceCount; ++i) choice.dice.push_back(i);
      choice.groups = {kDiceCount};
      return choice;
    }
  }
  return choice;
}

int chiffre_count(const Dice& dice, Box box) {
  return static_cast<int>(best_choice(dice, box, false).dice.size());
}

}  // namespace arbitre::referee::yams
