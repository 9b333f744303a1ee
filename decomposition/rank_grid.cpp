#include "tethersim/decomposition/rank_grid.hpp"

#include "tethersim/decomposition/halo_depth.hpp"

#include <algorithm>
#include <limits>

namespace tethersim::decomposition {

namespace {

bool fits(const GridShape& grid, const GridShape& sectors) {
  for (int k = 0; k < 3; ++k) {
    if (grid[k] > 1 && sectors[k] < kMinBlockWidth * grid[k]) return false;
  }
  return true;
}

// Sectors in one rank's halo (ghost layers along split axes, edges and
// corners included): what a rank receives and may recompute each window.
double halo_volume(const GridShape& grid, const GridShape& sectors) {
  double block = 1.0, padded = 1.0;
  for (int k = 0; k < 3; ++k) {
    const double width = static_cast<double>(sectors[k]) / grid[k];
    block *= width;
    padded *= grid[k] > 1 ? width + 2.0 * kHaloDepth : width;
  }
  return padded - block;
}

}  // namespace

namespace {

// The grid with the smallest halo over `span` (the sectors that hold
// particles) whose blocks are wide enough in the box and in the span.
std::optional<GridShape> best_grid(int ranks, const GridShape& sectors, const GridShape& span) {
  std::optional<GridShape> best;
  double best_volume = std::numeric_limits<double>::infinity();
  // Descending px, then py: among equal halos the grid with more ranks on
  // the earlier axes wins, as MPI_Dims_create orders its dimensions.
  for (int px = ranks; px >= 1; --px) {
    if (ranks % px != 0) continue;
    for (int py = ranks / px; py >= 1; --py) {
      if ((ranks / px) % py != 0) continue;
      const GridShape grid{px, py, ranks / px / py};
      if (!fits(grid, sectors) || !fits(grid, span)) continue;
      const double volume = halo_volume(grid, span);
      if (volume < best_volume) {
        best = grid;
        best_volume = volume;
      }
    }
  }
  return best;
}

}  // namespace

std::optional<GridShape> choose_rank_grid(int ranks, const GridShape& sectors) {
  return best_grid(ranks, sectors, sectors);
}

std::optional<GridShape> choose_rank_grid(int ranks, const GridShape& sectors, const GridShape& occupied) {
  GridShape span{};
  for (int k = 0; k < 3; ++k) span[k] = std::clamp(occupied[k], 1, sectors[k]);
  const auto best = best_grid(ranks, sectors, span);
  return best ? best : best_grid(ranks, sectors, sectors);
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
