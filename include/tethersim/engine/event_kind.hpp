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

// Every kind in one row, in enum order: its name (summary.json keys, the
// columns of the trajectory's event_counts and observables.jsonl) and its
// priority at one instant. At one instant: scheduled transitions first,
// then restitutions (before collisions detected at that instant), then
// external impulses, then interactions, then sector crossings. Events of
// one priority are ordered by a pseudo-random tie key of their identity,
// which is unbiased, unlike the thesis's lattice (docs/physics.md,
// "Simultaneous events"). docs/engine.md, "Adding an event kind", lists
// what else a new kind needs.
struct EventKindInfo {
  EventKind kind;
  const char* name;
  int priority;
};

inline constexpr std::array<EventKindInfo, kEventKindCount> kEventKinds{{
    {EventKind::action_potential, "action_potential", 0},
    {EventKind::restitution, "restitution", 1},
    {EventKind::periodic_impulse, "periodic_impulse", 2},
    {EventKind::random_impulse, "random_impulse", 3},
    {EventKind::blocking, "blocking", 4},
    {EventKind::tethering, "tethering", 4},
    {EventKind::wall, "wall", 4},
    {EventKind::escape, "escape", 4},
    {EventKind::sector_crossing, "sector_crossing", 5},
}};

static_assert(
    [] {
      for (std::size_t k = 0; k < kEventKindCount; ++k) {
        if (static_cast<std::size_t>(kEventKinds[k].kind) != k) return false;
      }
      return static_cast<std::size_t>(EventKind::none) == kEventKindCount;
    }(),
    "kEventKinds has one row per kind, in enum order, and none comes last");

// The kinds' names in enum order (from the table).
inline constexpr std::array<const char*, kEventKindCount> kEventKindNames = [] {
  std::array<const char*, kEventKindCount> names{};
  for (std::size_t k = 0; k < kEventKindCount; ++k) names[k] = kEventKinds[k].name;
  return names;
}();

// The kind's priority at one instant (lower first); none after every kind.
constexpr int priority(EventKind kind) {
  const auto k = static_cast<std::size_t>(kind);
  return k < kEventKindCount ? kEventKinds[k].priority : kEventKinds[kEventKindCount - 1].priority + 1;
}

const char* to_string(EventKind kind);

using EventCounts = std::array<std::uint64_t, kEventKindCount>;

}  // namespace tethersim::engine
