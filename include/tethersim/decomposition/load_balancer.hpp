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
// Moving a plane costs every rank the particles it gains (on the sheet of
// 2x10^6 on 8 ranks a large move is 10 to 15 rounds' work). A move is made
// only when the time the heaviest slab would save until the next check
// (an interval taken to be like the last) exceeds what the move would
// cost the rank that gains most, priced per particle as the last move was
// (before any, as the start-up's build was); otherwise a balancer that
// checks every few windows would move at nearly every check and lose
// more than it saves. The load changes with time (the sheet of 2x10^6
// has bursts of 170 000 events a rank every 0.3 time units between
// stretches where only its clamped edges work), so the interval must be
// long enough to see both: a check 8 rounds after a start moved the
// planes for the quiet stretch and lost more in the next burst than it
// saved.

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
  // the event and the tick seconds, then the wall seconds of the interval
  // just ended (`period_seconds`: the next is taken to be like it), then what the last move
  // took (`move_seconds`, wall) and the particles this rank gained in it
  // (`move_particles`; before any move, the start-up's build and the
  // particles it placed). Everything starts again from zero.
  std::vector<double> take_work(double period_seconds, double move_seconds, double move_particles);
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
  // The numbers take_work puts after the per-layer counts, in order.
  enum class Scalar : std::size_t { event_seconds, tick_seconds, period_seconds, move_seconds, move_particles };
  // Sector layers on the three axes together.
  std::size_t layer_count() const { return static_cast<std::size_t>(sectors_[0] + sectors_[1] + sectors_[2]); }
  double scalar(const std::vector<double>& summed, Scalar which) const {
    return summed[2 * layer_count() + static_cast<std::size_t>(which)];
  }
  // What a move along one axis would cost and has to pay for.
  struct MoveCost {
    double horizon_seconds;       // to the next check
    double seconds_per_particle;  // per particle a rank gains (0: no test)
    const double* residents;      // owned particles per layer of the axis
    double ranks_per_slab;        // ranks sharing a slab's gain
  };
  // One axis of `n` layers cut into `c.size() - 1` blocks, from its work
  // `w`; an automatic move must save, until the next check, more than it
  // costs the rank that gains most.
  void place_axis(std::vector<int>& c, const double* w, int n, const std::function<std::uint64_t()>& coin,
                  const MoveCost& cost) const;

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
