// The simulation behind default_box_values(): its seed and the turns simulated per box.
#pragma once

#include <cstdint>

namespace arbitre::scoring::yams {

inline constexpr std::uint64_t kBoxValuesSeed = 20261129;
inline constexpr int kBoxValuesTurns = 4000;

}  // namespace arbitre::scoring::yams
