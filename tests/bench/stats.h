// Summary statistics for the tournaments.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace arbitre::bench {

inline double mean(const std::vector<double>& v) {
  double s = 0;
  for (const double x : v) s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

inline double stdev(const std::vector<double>& v) {
  const double m = mean(v);
  double s = 0;
  for (const double x : v) s += (x - m) * (x - m);
  return v.size() > 1 ? std::sqrt(s / static_cast<double>(v.size() - 1)) : 0;
}

// The p-quantile (0..1) by the nearest rank below.
inline double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))];
}

}  // namespace arbitre::bench
