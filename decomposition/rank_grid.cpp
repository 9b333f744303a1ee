#include "tethersim/decomposition/rank_grid.hpp"

#include <limits>

namespace tethersim::decomposition {

namespace {

bool fits(const GridShape& grid, const GridShape& sectors) {
  for (int k = 0; k < 3; ++k) {
    if (grid[k] > 1 && sectors[k] < kMinBlockWidth * grid[k]) return false;
  }
  return true;
}

// Halo cost: for each split axis, the cut faces times the cross-section.
double cut_area(const GridShape& grid, const GridShape& sectors) {
  double area = 0.0;
  for (int k = 0; k < 3; ++k) {
    if (grid[k] == 1) continue;
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    area += static_cast<double>(grid[k]) * sectors[i] * sectors[j];
  }
  return area;
}

}  // namespace

std::optional<GridShape> choose_rank_grid(int ranks, const GridShape& sectors) {
  std::optional<GridShape> best;
  double best_area = std::numeric_limits<double>::infinity();
  for (int px = 1; px <= ranks; ++px) {
    if (ranks % px != 0) continue;
    for (int py = 1; py <= ranks / px; ++py) {
      if ((ranks / px) % py != 0) continue;
      const GridShape grid{px, py, ranks / px / py};
      if (!fits(grid, sectors)) continue;
      const double area = cut_area(grid, sectors);
      if (area < best_area) {
        best = grid;
        best_area = area;
      }
    }
  }
  return best;
}

std::string rank_grid_problem(int ranks, const GridShape& grid, const GridShape& sectors) {
  if (grid[0] < 1 || grid[1] < 1 || grid[2] < 1) return "every axis needs at least 1 rank";
  if (grid[0] * grid[1] * grid[2] != ranks) {
    return "a " + std::to_string(grid[0]) + "x" + std::to_string(grid[1]) + "x" +
           std::to_string(grid[2]) + " grid holds " +
           std::to_string(grid[0] * grid[1] * grid[2]) + " ranks, but " + std::to_string(ranks) +
           " were started";
  }
  static const char* axis[3] = {"x", "y", "z"};
  for (int k = 0; k < 3; ++k) {
    if (grid[k] > 1 && sectors[k] < kMinBlockWidth * grid[k]) {
      return std::string("axis ") + axis[k] + " has " + std::to_string(sectors[k]) +
             " sectors, too few for " + std::to_string(grid[k]) + " ranks (each rank needs " +
             std::to_string(kMinBlockWidth) + ")";
    }
  }
  return "";
}

int max_ranks(const GridShape& sectors) {
  int total = 1;
  for (int k = 0; k < 3; ++k) total *= std::max(1, sectors[k] / kMinBlockWidth);
  return total;
}

SectorRange block_range(int count, int parts, int index) {
  const int base = count / parts;
  const int extra = count % parts;
  const int begin = index * base + std::min(index, extra);
  return {begin, begin + base + (index < extra ? 1 : 0)};
}

}  // namespace tethersim::decomposition
