#pragma once
// An event's place in the serial order, as a value that can travel between
// processes: time, then the kind's priority at one instant, then the tie key
// (a hash of the kind, the participants' ids and the counters stored in the
// prediction), then the identity itself (kind and detail, lowest id). Two
// processes that predict one event from the same records compute the same
// key, so an event run on one process and its outcome placed on another
// fall at the same place in both orders (docs/owner-computes.md, "Words
// used below").

#include <cstdint>
#include <tuple>

#include "tethersim/engine/particle_store.hpp"
#include "tethersim/physics/vector.hpp"

namespace tethersim::engine {

struct EventKey {
  double time = kInfinity;
  int priority = 0;
  std::uint64_t tie = 0;
  std::uint16_t identity = 0;  // kind << 8 | detail
  ParticleId lower = 0;        // the lowest participant id

  friend bool operator<(const EventKey& a, const EventKey& b) {
    return std::tie(a.time, a.priority, a.tie, a.identity, a.lower) <
           std::tie(b.time, b.priority, b.tie, b.identity, b.lower);
  }
  friend bool operator==(const EventKey& a, const EventKey& b) {
    return std::tie(a.time, a.priority, a.tie, a.identity, a.lower) ==
           std::tie(b.time, b.priority, b.tie, b.identity, b.lower);
  }
};

}  // namespace tethersim::engine
