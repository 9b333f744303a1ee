#pragma once
// Pair times shared by particles predicted together. After a gravity tick
// (or a group's velocity change) every moved particle is predicted again,
// and each pair of moved neighbours would be tested twice, once from each
// side. Predicted together in ascending index order, the first of the two
// computes the pair's time and offers it to the second, which then skips
// the pair: half the pair tests, and the same predictions bit for bit,
// because
//   - pair_time is the same bits whichever particle asks (it negates dx and
//     dv exactly; engine_prediction.cpp), and the periodic shift from either
//     side is the other's negated;
//   - the two particles find each other through the same sources: sector
//     neighbourhoods are symmetric, tethers are undirected and the pair
//     table is symmetric (hubs, found through lists, are never shared);
//   - the best of a set of candidates under the total event order does not
//     depend on the order they are offered in.
// Offers go only to partners fewer than kReach indices ahead, so they wait
// in a ring of at most kReach running bests (1 MiB) rather than a table
// sized by the system: particles renumbered in sector order have their neighbours
// within one slab of sectors. A pair further apart is tested from both
// sides, as alone.
#include <algorithm>
#include <bit>
#include <vector>

#include "tethersim/engine/engine.hpp"

namespace tethersim::engine {

class Engine::PairOffers {
 public:
  // Marks in touched_mark_ during a joint prediction.
  static constexpr std::uint8_t kAlone = 1;     // predicted, shares nothing (hubs)
  static constexpr std::uint8_t kTogether = 2;  // predicted, shares pairs
  static constexpr std::uint8_t kWithoutWalk = 3;  // predicted without the sector walk, shares nothing
  static constexpr Index kReach = Index{1} << 15;

  enum class Share : std::uint8_t {
    alone,    // compute, keep
    offer,    // compute, keep, and offer to the partner (predicted later)
    offered,  // the partner (predicted earlier) already offered it: skip
  };

  // `ring` is kept between joint predictions, empty in between (every slot
  // offered to is taken). It holds kReach running bests, or fewer for a
  // smaller system (as many as it has particles, rounded up to a power of
  // two: every pair is then within reach).
  PairOffers(const Engine& engine, std::vector<ParticleEvent>& ring) : engine_(engine), ring_(ring) {
    const std::size_t wanted = std::min<std::size_t>(kReach, std::bit_ceil(engine.particles_.size()));
    if (ring_.size() < wanted) ring_.resize(wanted);
    reach_ = static_cast<Index>(ring_.size());
  }

  bool shares(Index owner) const { return engine_.touched_mark_[owner] == kTogether; }

  // For an owner that shares; particles are predicted in ascending index order.
  Share share(Index owner, Index j) const {
    if (engine_.touched_mark_[j] != kTogether) return Share::alone;
    if (j < owner) return owner - j < reach_ ? Share::offered : Share::alone;
    return j - owner < reach_ ? Share::offer : Share::alone;
  }

  // The pair (from, j) meets at t by `kind`: a candidate of j's, seen from j.
  void offer(Index j, Index from, double t, EventKind kind) {
    if (t == kInfinity) return;
    ParticleEvent& best = slot(j);
    if (t > best.time) return;
    ParticleEvent e;
    e.time = t;
    e.partner = from;
    e.kind = kind;
    e.counter = engine_.particles_.counter[j];
    e.partner_counter = engine_.particles_.counter[from];
    e.partner_stamp = engine_.particles_.stamp[from];
    if (t < best.time || engine_.event_precedes(j, e, j, best)) best = e;
  }

  // The best offered to `owner` so far (time kInfinity: none); its slot is
  // emptied for the particle the ring's size on.
  ParticleEvent take(Index owner) {
    ParticleEvent& s = slot(owner);
    const ParticleEvent best = s;
    s = ParticleEvent{};
    return best;
  }

 private:
  ParticleEvent& slot(Index i) { return ring_[i & (reach_ - 1)]; }

  const Engine& engine_;
  std::vector<ParticleEvent>& ring_;
  Index reach_ = 0;
};

}  // namespace tethersim::engine
