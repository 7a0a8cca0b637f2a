// Randomness for players and advisors, always passed in by the caller (scoring has no RNG of
// its own). std::mt19937_64's output sequence is fixed by the standard and uniform_below uses
// its own rejection sampling, so a seed reproduces a game on any standard library.
#pragma once

#include <cassert>
#include <cstdint>
#include <limits>
#include <random>

namespace arbitre::scoring {

using Rng = std::mt19937_64;

// A uniform integer in [0, bound), bound > 0.
inline std::uint64_t uniform_below(Rng& rng, std::uint64_t bound) {
  assert(bound > 0);
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t limit = kMax - kMax % bound;
  std::uint64_t value = rng();
  while (value >= limit) value = rng();
  return value % bound;
}

}  // namespace arbitre::scoring
