#include "app/gui/overlay.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

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

std::pair<int, int> ViewFit::to_view(double x, double y) const {
  return {ox + static_cast<int>(std::lround(x * scale)), oy + static_cast<int>(std::lround(y * scale))};
}

ViewFit fit_view(int view_width, int view_height, int frame_width, int frame_height) {
  ViewFit fit;
  frame_width = std::max(1, frame_width);
  frame_height = std::max(1, frame_height);
  fit.scale = std::min(static_cast<double>(view_width) / frame_width, static_cast<double>(view_height) / frame_height);
  if (!(fit.scale > 0)) fit.scale = 1e-6;  // an empty view: nothing is hit
  fit.w = static_cast<int>(frame_width * fit.scale);
  fit.h = static_cast<int>(frame_height * fit.scale);
  fit.ox = (view_width - fit.w) / 2;
  fit.oy = (view_height - fit.h) / 2;
  return fit;
}

std::optional<std::size_t> pion_at(const vision::PionObservation& seen, double x, double y, double min_radius) {
  const double radius = std::max(min_radius, seen.pitch > 0 ? seen.pitch * 0.42 : 20.0);
  std::optional<std::size_t> best;
  double best_distance = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < seen.pions.size(); ++i) {
    const double distance = std::hypot(seen.pions[i].x - x, seen.pions[i].y - y);
    if (distance <= radius && distance < best_distance) {
      best = i;
      best_distance = distance;
    }
  }
  return best;
}

std::optional<ri::Cell> game_cell(const vision::PionObservation& seen, std::size_t index,
                                  const std::vector<std::pair<ri::Cell, ri::Colour>>& board) {
  if (index >= seen.pions.size()) return std::nullopt;
  const auto shift = align_to_game(seen.pions, board);
  if (!shift) return std::nullopt;
  const vision::PionSighting& p = seen.pions[index];
  return ri::Cell{p.row + shift->row, p.col + shift->col};
}

std::optional<std::size_t> die_at(const vision::DiceObservation& seen, double x, double y, double side) {
  std::optional<std::size_t> best;
  double best_distance = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < seen.dice.size(); ++i) {
    const double dx = std::abs(seen.dice[i].x - x), dy = std::abs(seen.dice[i].y - y);
    if (dx > side / 2 || dy > side / 2) continue;
    if (const double distance = std::hypot(dx, dy); distance < best_distance) {
      best = i;
      best_distance = distance;
    }
  }
  return best;
}

std::optional<int> die_number(const vision::DieSighting& die, const ry::Dice& seen, std::uint16_t aside,
                              std::uint16_t taken) {
  const bool kept = die.zone == vision::DieZone::Kept;
  // First a die aside exactly when the sighting lies in the kept area; then any (a die moved to
  // the kept area after the roll, for the next one).
  for (const bool same_zone : {true, false}) {
    for (int i = 0; i < ry::kDiceCount; ++i) {
      const ry::Die& d = seen[static_cast<std::size_t>(i)];
      if ((taken >> i) & 1u) continue;
      if (d.value != die.value || d.colour != die.colour) continue;
      if (die.texture && d.texture != ry::Texture::None && *die.texture != d.texture) continue;
      if (same_zone && ((((aside >> i) & 1u) != 0) != kept)) continue;
      return i;
    }
  }
  return std::nullopt;
}

}  // namespace arbitre::gui
