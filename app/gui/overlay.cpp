#include "app/gui/overlay.h"

#include <array>
#include <cmath>
#include <map>

namespace arbitre::gui {
namespace {

// Solves the 3x3 system m * v = b (Cramer); false when singular.
bool solve3(const std::array<std::array<double, 3>, 3>& m, const std::array<double, 3>& b,
            std::array<double, 3>& v) {
  const auto det = [](const std::array<std::array<double, 3>, 3>& a) {
    return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
           a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
           a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
  };
  const double d = det(m);
  if (std::abs(d) < 1e-9) return false;
  for (int k = 0; k < 3; ++k) {
    auto mk = m;
    for (int r = 0; r < 3; ++r) mk[r][k] = b[r];
    v[k] = det(mk) / d;
  }
  return true;
}

}  // namespace

std::optional<CellToPixel> fit_lattice(const std::vector<vision::PionSighting>& pions) {
  if (pions.size() < 3) return std::nullopt;
  std::array<std::array<double, 3>, 3> normal{};
  std::array<double, 3> bx{}, by{};
  for (const vision::PionSighting& p : pions) {
    const std::array<double, 3> u = {1.0, static_cast<double>(p.row), static_cast<double>(p.col)};
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) normal[i][j] += u[i] * u[j];
      bx[i] += u[i] * p.x;
      by[i] += u[i] * p.y;
    }
  }
  std::array<double, 3> vx{}, vy{};
  if (!solve3(normal, bx, vx) || !solve3(normal, by, vy)) return std::nullopt;
  return CellToPixel{vx[0], vx[1], vx[2], vy[0], vy[1], vy[2]};
}

std::optional<ri::Cell> align_to_game(const std::vector<vision::PionSighting>& pions,
                                      const std::vector<std::pair<ri::Cell, ri::Colour>>& board) {
  if (pions.empty() || board.empty()) return std::nullopt;
  const std::map<ri::Cell, ri::Colour> game(board.begin(), board.end());
  std::optional<ri::Cell> best;
  int best_score = 0;
  // Every shift that puts some pion seen on some game pion.
  for (const vision::PionSighting& p : pions) {
    for (const auto& [cell, colour] : board) {
      const ri::Cell shift{cell.row - p.row, cell.col - p.col};
      int score = 0;
      for (const vision::PionSighting& q : pions) {
        const auto it = game.find({q.row + shift.row, q.col + shift.col});
        if (it != game.end()) score += it->second == q.colour ? 2 : 1;
      }
      if (score > best_score) {
        best_score = score;
        best = shift;
      }
    }
  }
  return best;
}

}  // namespace arbitre::gui
