#pragma once
// Gravity ticks that skip the sector walk (docs/engine.md, "Ticks that skip
// the sector walk").
//
// A gravity tick adds the same velocity, g dt, to every particle it moves:
// the relative motion of two moved particles is the same straight line
// before and after the tick, but for rounding. So whenever a particle's
// blocking candidates are walked, the engine keeps the earliest time at
// which any pair it tested could come within its blocking distance plus a
// margin that covers that rounding: the particle's clearance. At a tick, a
// moved particle whose clearance reaches past the next tick is predicted
// by every source but the sector walk. The events it would have found
// there come after the next tick, or belong to pairs its partner tested
// later (whose clearance or prediction then covers them), so the calendar
// keeps its invariant and the history is the serial engine's, bit for bit:
// only predictions and pair tests are counted differently.
//
// Particles a tick does not move by g dt (infinite masses, species it does
// not apply to, loaded groups it moves otherwise) break the argument, so:
// a pair with an infinite-mass particle or a species the tick leaves alone
// gives no clearance; a mobile particle in a group moved otherwise is
// walked at every tick (engine_impulses.cpp).
//
// On only for one gravity impulse in a model, and kept by an engine seen
// through a partial view (distributed runs, speculative windows), whose
// records change from outside:
// - a record placed from outside (a neighbour's, or one an undo restores)
//   of a particle with a prediction is predicted again at once, by a walk
//   that forgets its clearance: the pairs its new record makes are tested
//   by it last, and it walks at the next tick;
// - a frozen particle (no events, not moved by ticks) changes the relative
//   motion of its pairs at every tick: a pair with it clears nothing, and
//   freezing it forgets the clearances of every particle in the 27 sectors
//   around it (they counted on it moving);
// - an undo that takes a tick back forgets every clearance, since they are
//   kept against tick numbers, which go back with it;
// - owner-computes mode runs a tick once everything before it is final
//   (Engine::run_committed_tick), with no undo log, and predicts its
//   particles together as a serial run does (held ones are not predicted);
//   records placed from other processes' outcomes forget their clearances
//   as above.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tethersim/engine/big_vector.hpp"
#include "tethersim/engine/particle_store.hpp"
#include "tethersim/model/model.hpp"

namespace tethersim::engine {

class TickClearance {
 public:
  // A clearance lasts at most this many ticks after its walk: the rounding
  // a tick adds to a pair's relative motion accumulates, and the margin
  // (below) covers this many ticks' worth with room to spare. Every
  // particle a tick moves is then walked at least every 64 ticks, which
  // keeps the one byte a clearance is stored in from wrapping (below).
  static constexpr std::uint64_t kMaxTicks = 64;
  // The margin, relative to the largest coordinate of the grid's box. A
  // tick moves a position by at most a few units in its last place (the
  // re-basing at the tick) and a velocity likewise (the addition of g dt):
  // over 64 ticks that is below 1e-12 of the box for any speed that moves
  // less than the box per tick.
  static constexpr double kRelativeMargin = 1e-9;

  // On when the model's only periodic impulse is gravity; `position_scale`
  // is the largest coordinate a particle in the grid can have.
  void configure(const Model& model, double position_scale) {
    const std::vector<PeriodicImpulse>& impulses = model.periodic_impulses();
    on_ = impulses.size() == 1 && impulses[0].kind == PeriodicImpulseKind::gravity && impulses[0].interval > 0.0;
    if (!on_) return;
    const PeriodicImpulse& p = impulses[0];
    shifted_.assign(model.species().size(), 0);
    for (std::size_t s = 0; s < shifted_.size(); ++s) {
      shifted_[s] = p.applies_to[s] && !model.species(static_cast<SpeciesIndex>(s)).infinite_mass() ? 1 : 0;
    }
    margin_ = kRelativeMargin * std::max(position_scale, 1.0);
    start_ = p.start;
    interval_ = p.interval;
  }
  // For good: every tick walks every particle (tests and comparisons).
  void stop() {
    if (!on_) return;
    on_ = false;
    until_ = BigVector<std::uint8_t>();
  }
  bool on() const { return on_; }

  // Per particle; a new slot clears no tick (`next_tick`: the number of
  // the next tick to run).
  BigVector<std::uint8_t>& until() { return until_; }
  void assign(std::size_t n, std::uint64_t next_tick) {
    if (on_) until_.assign(n, none(next_tick));
  }
  void append(std::uint64_t next_tick) {
    if (on_) append_gently(until_, none(next_tick));
  }
  std::size_t memory_bytes() const { return until_.capacity(); }

  // Whether the tick moves particles of species s by g dt.
  bool shifted(SpeciesIndex s) const { return shifted_[s] != 0; }
  // The distance a pair with this blocking distance must stay beyond.
  double reach(double blocking) const { return blocking + margin_; }

  // After a walk of every sector around particle i, which found nothing
  // within reach before `clearance`; `next_tick` is the number of the next
  // tick to run.
  void keep(Index i, double clearance, std::uint64_t next_tick) { until_[i] = encode(clearance, next_tick); }
  // After a walk of the sectors that came into reach (a crossing): the
  // pairs tested before still hold.
  void narrow(Index i, double clearance, std::uint64_t next_tick) {
    const std::uint8_t m = encode(clearance, next_tick);
    if (ahead(until_[i], m) > 0) until_[i] = m;
  }

  // After a walk that noted nothing, or a record that voids it: the
  // particle walks at the next tick.
  void forget(Index i, std::uint64_t next_tick) { until_[i] = none(next_tick); }
  // Every particle walks at the next tick.
  void forget_all(std::uint64_t next_tick) {
    if (on_) std::fill(until_.begin(), until_.end(), none(next_tick));
  }
  // Whether particle i holds a clearance that reaches past the next tick.
  bool holds(Index i, std::uint64_t next_tick) const {
    return ahead(until_[i], static_cast<std::uint8_t>(next_tick + 1)) >= 0;
  }

  // The start's predictions (every particle, as at a tick).
  void begin_start() { at_start_ = true; }
  void end_start() { at_start_ = false; }
  bool at_start() const { return at_start_; }

  // A tick's predictions, before tick `next_tick` (its number), or done.
  void begin_tick(std::uint64_t next_tick) {
    in_tick_ = true;
    horizon_ = static_cast<std::uint8_t>(next_tick);
  }
  void end_tick() { in_tick_ = false; }
  bool in_tick() const { return in_tick_; }
  // Whether particle i may skip the walk now: nothing within reach before
  // the next tick.
  bool clears(Index i) const { return ahead(until_[i], horizon_) >= 0; }

 private:
  // A clearance is kept as the number of the last tick at or before it, in
  // one byte: every comparison is between numbers within 66 of each other
  // (a walk at least every 64 ticks), so their difference modulo 256
  // decides. a - b as a signed difference.
  static int ahead(std::uint8_t a, std::uint8_t b) { return static_cast<std::int8_t>(static_cast<std::uint8_t>(a - b)); }
  std::uint8_t none(std::uint64_t next_tick) const { return static_cast<std::uint8_t>(next_tick - 1); }
  // The last tick at or before `clearance` (its time as the engine
  // computes it, start + k interval), at least next_tick - 1 (clears
  // nothing) and at most kMaxTicks - 1 past next_tick.
  std::uint8_t encode(double clearance, std::uint64_t next_tick) const {
    const std::uint64_t cap = next_tick + kMaxTicks - 1;
    std::uint64_t m = cap;
    if (clearance < tick_time(cap)) {
      const double k = std::floor((clearance - start_) / interval_);
      if (!(k >= static_cast<double>(next_tick))) return none(next_tick);
      m = static_cast<std::uint64_t>(k);
      while (m >= next_tick && tick_time(m) > clearance) --m;  // rounding of the quotient
      if (m < next_tick) return none(next_tick);
    }
    return static_cast<std::uint8_t>(m);
  }
  double tick_time(std::uint64_t k) const { return start_ + static_cast<double>(k) * interval_; }

  bool on_ = false;
  std::vector<std::uint8_t> shifted_;  // by species
  double margin_ = 0.0;
  double start_ = 0.0;
  double interval_ = 0.0;
  bool in_tick_ = false;
  bool at_start_ = false;
  std::uint8_t horizon_ = 0;
  BigVector<std::uint8_t> until_;
};

}  // namespace tethersim::engine
