#pragma once
// Where the planes between blocks move (docs/distribution.md, "Load
// balance"): the work per sector layer along each axis is counted where
// events happen, and every few windows the planes are placed so that each
// slab of blocks has about the same share. The policy only: the
// distributed engine sums the work over ranks and rebuilds the ranks'
// engines when a plane moved.

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "tethersim/decomposition/rank_grid.hpp"

namespace tethersim::decomposition {

// How block boundaries move: never; where measured work says; by one layer
// back and forth at every check (testing); to random places at every check
// (testing: results must never depend on where the planes are).
enum class BalanceMode { off, automatic, forced, random };

using CutPlanes = std::array<std::vector<int>, 3>;

class LoadBalancer {
 public:
  // `sectors`: the sector grid's shape; a check every `interval` windows;
  // planes move when the heaviest slab carries more than `threshold` times
  // the mean.
  LoadBalancer(BalanceMode mode, const GridShape& sectors, int interval, double threshold);

  // Work where a particle changed, in sector `sector` (the hot path: once
  // per changed particle).
  template <typename Sector>
  void add_work(const Sector& sector) {
    for (std::size_t k = 0; k < 3; ++k) work_[k][static_cast<std::size_t>(sector[k])] += 1.0;
  }
  // After a window: true when a check is due (counted here).
  bool due();
  // This rank's work per layer, axis after axis, for summing over ranks;
  // the counts start again from zero.
  std::vector<double> take_work();
  // The planes from `cuts` (BlockLayout::cuts, `ranks` blocks per axis)
  // for the work summed over ranks (take_work's layout); `coin` draws the
  // random mode's places, the same on every rank.
  CutPlanes planes(const CutPlanes& cuts, const GridShape& ranks, const std::vector<double>& work,
                   const std::function<std::uint64_t()>& coin);

 private:
  // One axis of `n` layers cut into `c.size() - 1` blocks, from its work `w`.
  void place_axis(std::vector<int>& c, const double* w, int n, const std::function<std::uint64_t()>& coin) const;

  BalanceMode mode_;
  GridShape sectors_;
  int interval_;
  double threshold_;
  std::uint64_t windows_since_check_ = 0;
  std::array<std::vector<double>, 3> work_;  // per sector layer, since the last check
  int forced_shift_ = 1;
};

}  // namespace tethersim::decomposition
