#pragma once
// Which rank owns which sectors, and which ranks see a sector
// (docs/distribution.md, "Ownership and windows"). The sector grid is cut
// by planes along each axis into a
// Cartesian grid of blocks, one per rank; the planes can move to balance
// the load. A rank's window is its block and a halo of sector layers
// around it (kHaloDepth unless the run asks for another depth; wrapping
// across periodic faces): it holds every particle whose sector lies in its
// window.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tethersim/decomposition/halo_depth.hpp"
#include "tethersim/decomposition/rank_grid.hpp"

namespace tethersim::decomposition {

using SectorIndex3 = std::array<std::int32_t, 3>;

class BlockLayout {
 public:
  BlockLayout() = default;
  // Near-equal blocks of `sectors` over a `ranks` grid (x slowest, as
  // MPI_Cart_create numbers ranks).
  BlockLayout(const GridShape& sectors, const GridShape& ranks, const std::array<bool, 3>& periodic,
              int halo_depth = kHaloDepth);

  // Sector layers of every rank's halo.
  int halo_depth() const { return halo_depth_; }

  const GridShape& sectors() const { return sectors_; }
  const GridShape& ranks() const { return ranks_; }
  int rank_count() const { return ranks_[0] * ranks_[1] * ranks_[2]; }
  const std::array<std::vector<int>, 3>& cuts() const { return cuts_; }
  // Replaces the cut planes (each axis: ranks+1 increasing positions from 0
  // to the sector count, blocks at least one sector wide).
  void set_cuts(const std::array<std::vector<int>, 3>& cuts);

  int rank_at(const std::array<int, 3>& block) const {
    return (block[0] * ranks_[1] + block[1]) * ranks_[2] + block[2];
  }
  std::array<int, 3> block_of_rank(int rank) const;
  // The rank whose block holds a sector.
  int owner(const SectorIndex3& sector) const;
  // Sector layers between a sector and a rank's block (0 inside it), the
  // largest over the axes, periodic wrap included.
  int depth(int rank, const SectorIndex3& sector) const;
  bool in_window(int rank, const SectorIndex3& sector) const {
    return depth(rank, sector) <= halo_depth_;
  }
  // A lower bound on the distance from a point in `sector` (at `below[k]`
  // above its lower face and `above[k]` below its upper face along axis k,
  // sector edges `edge`) to any point of a sector outside the rank's
  // window: per axis and side, the whole layers before the first sector
  // outside plus the point's distance to its own face. +infinity when the
  // window has no outside (it spans a periodic axis, or reaches a
  // non-periodic end).
  double clearance(int rank, const SectorIndex3& sector, const std::array<double, 3>& below,
                   const std::array<double, 3>& above, const std::array<double, 3>& edge) const;
  // Every rank whose window holds the sector (its owner included).
  void window_ranks(const SectorIndex3& sector, std::vector<int>& out) const;
  // Per axis, one byte per sector layer: 1 when a block other than `rank`'s
  // along that axis is within the halo of the layer. window_ranks is the
  // product of the blocks near each of a sector's layers, so another rank's
  // window holds a sector exactly when one of its three layers is marked.
  std::array<std::vector<std::uint8_t>, 3> layers_in_other_windows(int rank) const;
  // The ranks (other than `rank`) whose blocks lie within `layers` sector
  // layers of `rank`'s block. Without `layers`, the halo depth + 2 (a
  // particle moves at most two layers in a certified window): every rank
  // that can need a particle this rank owned at the window start.
  std::vector<int> neighbours(int rank, int layers) const;
  std::vector<int> neighbours(int rank) const { return neighbours(rank, halo_depth_ + 2); }

 private:
  // Sector layers between coordinate c and block b along one axis.
  int axis_depth(int axis, int block, int c) const;
  int block_along(int axis, int c) const;

  GridShape sectors_{1, 1, 1};
  GridShape ranks_{1, 1, 1};
  std::array<bool, 3> periodic_{false, false, false};
  int halo_depth_ = kHaloDepth;
  std::array<std::vector<int>, 3> cuts_;
  // Block index of every sector coordinate, per axis.
  std::array<std::vector<int>, 3> block_of_;
};

}  // namespace tethersim::decomposition
