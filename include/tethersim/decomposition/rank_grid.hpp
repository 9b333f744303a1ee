#pragma once
// Cartesian grids of MPI ranks over the sector grid (docs/distribution.md).
//
// Each rank owns a contiguous block of sectors. A block must be at least
// two sectors wide along every axis that is split, so that the two-layer
// halo of a rank comes from its face neighbours only.

#include <array>
#include <optional>
#include <string>

namespace tethersim::decomposition {

using GridShape = std::array<int, 3>;

inline constexpr int kMinBlockWidth = 2;

// The factorisation px * py * pz = ranks that keeps blocks at least
// kMinBlockWidth sectors wide and minimises each rank's halo (ghost sectors,
// edges and corners included); among equal halos, more ranks on earlier
// axes. nullopt when no factorisation fits.
std::optional<GridShape> choose_rank_grid(int ranks, const GridShape& sectors);

// The same choice over the sectors the particles occupy (`occupied`: how
// many sectors their extent spans along each axis), so that a flat sheet in
// a tall box is cut across the sheet, not through the empty space above it:
// an axis is split only where the particles span kMinBlockWidth sectors per
// rank. Falls back to the box (choose_rank_grid above) when no grid fits
// the particles.
std::optional<GridShape> choose_rank_grid(int ranks, const GridShape& sectors, const GridShape& occupied);

// Why `grid` cannot be used for `ranks` ranks over `sectors` (empty = it can).
std::string rank_grid_problem(int ranks, const GridShape& grid, const GridShape& sectors);

// The largest rank count any grid could take for these sectors.
int max_ranks(const GridShape& sectors);

// The sectors [begin, end) of block `index` when `count` sectors are split
// into `parts` near-equal contiguous blocks (the first ones one larger).
struct SectorRange {
  int begin;
  int end;
};
SectorRange block_range(int count, int parts, int index);

}  // namespace tethersim::decomposition
