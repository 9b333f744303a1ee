#include "tethersim/decomposition/block_layout.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace tethersim::decomposition {

BlockLayout::BlockLayout(const GridShape& sectors, const GridShape& ranks,
                         const std::array<bool, 3>& periodic, int halo_depth)
    : sectors_(sectors), ranks_(ranks), periodic_(periodic), halo_depth_(halo_depth) {
  if (halo_depth < kMinHaloDepth || halo_depth > kMaxHaloDepth) {
    throw std::invalid_argument("halo depth " + std::to_string(halo_depth) + " is outside " +
                                std::to_string(kMinHaloDepth) + " to " + std::to_string(kMaxHaloDepth));
  }
  std::array<std::vector<int>, 3> cuts;
  for (int k = 0; k < 3; ++k) {
    cuts[k].push_back(0);
    for (int b = 0; b < ranks[k]; ++b) cuts[k].push_back(block_range(sectors[k], ranks[k], b).end);
  }
  set_cuts(cuts);
}

void BlockLayout::set_cuts(const std::array<std::vector<int>, 3>& cuts) {
  for (int k = 0; k < 3; ++k) {
    const std::vector<int>& c = cuts[k];
    if (c.size() != static_cast<std::size_t>(ranks_[k]) + 1 || c.front() != 0 || c.back() != sectors_[k]) {
      throw std::logic_error("block layout: cut planes do not span the sector grid");
    }
    for (std::size_t b = 1; b < c.size(); ++b) {
      if (c[b] <= c[b - 1]) throw std::logic_error("block layout: empty block");
    }
    block_of_[k].assign(static_cast<std::size_t>(sectors_[k]), 0);
    for (int b = 0; b < ranks_[k]; ++b) {
      for (int s = c[b]; s < c[b + 1]; ++s) block_of_[k][static_cast<std::size_t>(s)] = b;
    }
  }
  cuts_ = cuts;
}

std::array<int, 3> BlockLayout::block_of_rank(int rank) const {
  return {rank / (ranks_[1] * ranks_[2]), (rank / ranks_[2]) % ranks_[1], rank % ranks_[2]};
}

int BlockLayout::block_along(int axis, int c) const {
  return block_of_[axis][static_cast<std::size_t>(std::clamp(c, 0, sectors_[axis] - 1))];
}

int BlockLayout::owner(const SectorIndex3& sector) const {
  return rank_at({block_along(0, sector[0]), block_along(1, sector[1]), block_along(2, sector[2])});
}

int BlockLayout::axis_depth(int axis, int block, int c) const {
  const int lo = cuts_[axis][static_cast<std::size_t>(block)];
  const int hi = cuts_[axis][static_cast<std::size_t>(block) + 1];
  if (c >= lo && c < hi) return 0;
  const int n = sectors_[axis];
  if (!periodic_[axis]) return c < lo ? lo - c : c - hi + 1;
  const int below = ((lo - c) % n + n) % n;       // steps up from c to the block
  const int above = ((c - (hi - 1)) % n + n) % n;  // steps down from c to the block
  return std::min(below, above);
}

int BlockLayout::depth(int rank, const SectorIndex3& sector) const {
  const std::array<int, 3> block = block_of_rank(rank);
  int d = 0;
  for (int k = 0; k < 3; ++k) d = std::max(d, axis_depth(k, block[k], sector[k]));
  return d;
}

double BlockLayout::clearance(int rank, const SectorIndex3& sector, const std::array<double, 3>& below,
                              const std::array<double, 3>& above, const std::array<double, 3>& edge) const {
  const std::array<int, 3> block = block_of_rank(rank);
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < 3; ++k) {
    const int lo = cuts_[k][static_cast<std::size_t>(block[k])] - halo_depth_;  // first sector of the window
    const int hi = cuts_[k][static_cast<std::size_t>(block[k]) + 1] + halo_depth_;  // one past its last
    const int n = sectors_[k];
    if (periodic_[k] && hi - lo >= n) continue;  // the window wraps all the way round
    // The sector's coordinate in the window's unwrapped frame [lo, hi).
    int u = sector[k];
    if (periodic_[k]) u = lo + ((u - lo) % n + n) % n;
    if (u < lo || u >= hi) return 0.0;  // outside the window already
    // Sector lo - 1 and sector hi are the first outside; off a
    // non-periodic end there are none.
    if (periodic_[k] || lo - 1 >= 0) {
      best = std::min(best, static_cast<double>(u - lo) * edge[k] + std::max(below[k], 0.0));
    }
    if (periodic_[k] || hi < n) {
      best = std::min(best, static_cast<double>(hi - 1 - u) * edge[k] + std::max(above[k], 0.0));
    }
  }
  return best;
}

void BlockLayout::window_ranks(const SectorIndex3& sector, std::vector<int>& out) const {
  out.clear();
  // Blocks are at least one sector wide, so at most 2 halo_depth_ + 1 of
  // them along an axis lie within the halo of one sector.
  std::array<std::array<int, 2 * kMaxHaloDepth + 1>, 3> near{};
  std::array<int, 3> count{};
  for (int k = 0; k < 3; ++k) {
    for (int b = 0; b < ranks_[k]; ++b) {
      if (axis_depth(k, b, sector[k]) <= halo_depth_) near[k][static_cast<std::size_t>(count[k]++)] = b;
    }
  }
  for (int x = 0; x < count[0]; ++x) {
    for (int y = 0; y < count[1]; ++y) {
      for (int z = 0; z < count[2]; ++z) out.push_back(rank_at({near[0][static_cast<std::size_t>(x)], near[1][static_cast<std::size_t>(y)], near[2][static_cast<std::size_t>(z)]}));
    }
  }
}

std::array<std::vector<std::uint8_t>, 3> BlockLayout::layers_in_other_windows(int rank) const {
  const std::array<int, 3> mine = block_of_rank(rank);
  std::array<std::vector<std::uint8_t>, 3> marked;
  for (int k = 0; k < 3; ++k) {
    std::vector<std::uint8_t>& layers = marked[static_cast<std::size_t>(k)];
    layers.assign(static_cast<std::size_t>(sectors_[k]), 0);
    for (int c = 0; c < sectors_[k]; ++c) {
      for (int b = 0; b < ranks_[k]; ++b) {
        if (b != mine[static_cast<std::size_t>(k)] && axis_depth(k, b, c) <= halo_depth_) {
          layers[static_cast<std::size_t>(c)] = 1;
        }
      }
    }
  }
  return marked;
}

std::vector<int> BlockLayout::neighbours(int rank, int layers) const {
  const std::array<int, 3> mine = block_of_rank(rank);
  std::vector<int> out;
  for (int q = 0; q < rank_count(); ++q) {
    if (q == rank) continue;
    const std::array<int, 3> theirs = block_of_rank(q);
    bool near = true;
    for (int k = 0; k < 3 && near; ++k) {
      const int lo = cuts_[k][static_cast<std::size_t>(theirs[k])];
      const int hi = cuts_[k][static_cast<std::size_t>(theirs[k]) + 1];
      int best = layers + 1;
      for (int c = lo; c < hi && best > 0; ++c) best = std::min(best, axis_depth(k, mine[k], c));
      near = best <= layers;
    }
    if (near) out.push_back(q);
  }
  return out;
}

}  // namespace tethersim::decomposition
