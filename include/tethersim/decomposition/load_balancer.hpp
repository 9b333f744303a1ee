#pragma once
// Where the planes between blocks move (docs/distribution.md, "Load
// balance"): the work per sector layer along each axis, and every few
// windows the planes are placed so that each slab of blocks has about the
// same share. The policy only: the distributed engine sums the work over
// ranks and rebuilds the ranks' engines when a plane moved.
//
// A rank's CPU goes to two kinds of work that sit in different places:
// events (counted per layer where a window changed a particle) and
// periodic ticks, which move every particle wherever it is (counted per
// layer from the particles a rank owns at the check). On a sagging sheet
// the events crowd near the clamped edges while the ticks cover it
// evenly, so counting one kind alone misplaces the planes. Each kind's
// count is weighed by the CPU seconds the ranks spent on it together
// since the last check: the counts say where, the summed seconds how much
// (a rank's own speed does not enter, only the two kinds' ratio).
//
// Moving a plane rebuilds every rank's engine (every particle predicted
// anew): on the sheet of 2x10^6 on 8 ranks as long as 20 to 40 rounds. A
// move is made only when the time the heaviest slab would save over the
// next interval, taken to be like the last, exceeds what the last move
// (at first, the start-up's build) took; otherwise a balancer that checks
// every few windows would rebuild at nearly every check and lose more
// than it saves.

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

  // Work where a particle changed in a window, in sector `sector` (the hot
  // path: once per changed particle).
  template <typename Sector>
  void add_work(const Sector& sector) {
    for (std::size_t k = 0; k < 3; ++k) work_[k][static_cast<std::size_t>(sector[k])] += 1.0;
  }
  // A particle this rank owns, in sector `sector`: counted at a check,
  // where the ticks' work lies.
  template <typename Sector>
  void add_resident(const Sector& sector) {
    for (std::size_t k = 0; k < 3; ++k) residents_[k][static_cast<std::size_t>(sector[k])] += 1.0;
  }
  // CPU seconds this rank spent running windows' events, and ticks.
  void add_event_seconds(double s) { event_seconds_ += s; }
  void add_tick_seconds(double s) { tick_seconds_ += s; }
  // After a window: true when a check is due (counted here).
  bool due();
  // This rank's counts for summing over ranks: the changed particles per
  // layer, axis after axis, then the residents per layer likewise, then
  // the event and the tick seconds, then `interval_seconds` (the wall time
  // since the last check) and `move_seconds` (what a move takes: the last
  // one's wall time). Everything starts again from zero.
  std::vector<double> take_work(double interval_seconds, double move_seconds);
  // The planes from `cuts` (BlockLayout::cuts, `ranks` blocks per axis)
  // for the counts summed over ranks (take_work's layout); `coin` draws
  // the random mode's places, the same on every rank.
  CutPlanes planes(const CutPlanes& cuts, const GridShape& ranks, const std::vector<double>& summed,
                   const std::function<std::uint64_t()>& coin);
  // The work per layer, axis after axis, from summed counts: changed
  // particles times the event seconds per changed particle, plus residents
  // times the tick seconds per resident (without seconds: the changed
  // particles alone).
  std::vector<double> weighed(const std::vector<double>& summed) const;

 private:
  // One axis of `n` layers cut into `c.size() - 1` blocks, from its work
  // `w`; a move must save more than `move_seconds` over `interval_seconds`
  // (no such test when they are 0).
  void place_axis(std::vector<int>& c, const double* w, int n, const std::function<std::uint64_t()>& coin,
                  double interval_seconds, double move_seconds) const;

  BalanceMode mode_;
  GridShape sectors_;
  int interval_;
  double threshold_;
  std::uint64_t windows_since_check_ = 0;
  std::array<std::vector<double>, 3> work_;       // changed particles per sector layer, since the last check
  std::array<std::vector<double>, 3> residents_;  // owned particles per sector layer, at the check
  double event_seconds_ = 0.0, tick_seconds_ = 0.0;
  int forced_shift_ = 1;
};

}  // namespace tethersim::decomposition
