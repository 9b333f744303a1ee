#pragma once
// Event kinds and their order at equal times (docs/physics.md, "Simultaneous
// events"; docs/engine.md, "Exactness and reproducibility").

#include <array>
#include <cstdint>

namespace tethersim::engine {

enum class EventKind : std::uint8_t {
  action_potential,  // start or end of an action potential
  restitution,       // a loaded edge separates
  periodic_impulse,  // one tick of gravity or drag
  random_impulse,
  blocking,          // blocking collision (also with a hub or clamped particle)
  tethering,         // tethering collision of a tethered pair
  wall,              // reflection at a reflective box face
  escape,            // leaving through an open face or the escape sphere
  sector_crossing,   // entering a neighbouring sector (or periodic wrap)
  none,
};

inline constexpr std::size_t kEventKindCount = 9;

// The kinds' names in enum order: summary.json keys, the columns of the
// trajectory's event_counts and observables.jsonl.
inline constexpr std::array<const char*, kEventKindCount> kEventKindNames = {
    "action_potential", "restitution", "periodic_impulse", "random_impulse", "blocking",
    "tethering",        "wall",        "escape",           "sector_crossing"};

// At one instant: scheduled transitions first, then restitutions (before
// collisions detected at that instant), then external impulses, then
// interactions. Events of one priority are ordered by a pseudo-random tie
// key of their identity, which is unbiased, unlike the thesis's lattice
// (docs/physics.md, "Simultaneous events").
inline int priority(EventKind kind) {
  switch (kind) {
    case EventKind::action_potential: return 0;
    case EventKind::restitution: return 1;
    case EventKind::periodic_impulse: return 2;
    case EventKind::random_impulse: return 3;
    case EventKind::blocking:
    case EventKind::tethering:
    case EventKind::wall:
    case EventKind::escape: return 4;
    case EventKind::sector_crossing: return 5;
    case EventKind::none: return 6;
  }
  return 6;
}

const char* to_string(EventKind kind);

using EventCounts = std::array<std::uint64_t, kEventKindCount>;

}  // namespace tethersim::engine
