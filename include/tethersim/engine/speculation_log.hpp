#pragma once
// What an engine records while it runs a window it may have to undo (a
// speculative window of a distributed run, docs/distribution.md).
//
// Every event appends one history entry per logged participant: its time,
// a hash of the event (kind, time, every participant's id) and of the
// participant's whole record after it, and the participant's sector after
// it. Two processes that ran a particle alike hold the same entries for
// it, and the first entry where they differ is when their runs of it
// parted; the sectors trace where it went.

#include <cstdint>
#include <vector>

#include "tethersim/engine/particle_store.hpp"
#include "tethersim/engine/sector_grid.hpp"

namespace tethersim::engine {

struct HistoryEntry {
  double time = 0.0;
  std::uint64_t hash = 0;
  Index particle = kNoIndex;
  SectorCoords sector{0, 0, 0};
};

// A particle this process does not own that took part, with one it owns,
// in an event (a pair, a loaded group, a tethering rule's reads): its state
// mattered to the owned particle from `time` on.
struct OwnedContact {
  Index particle = kNoIndex;
  double time = 0.0;
  bool group = false;  // the event read more than a pair
};

struct SpeculationLog {
  double start = 0.0;                  // the window's start
  std::vector<HistoryEntry> entries;   // in the order the events ran
  std::vector<OwnedContact> contacts;  // in the order the events ran
};

}  // namespace tethersim::engine
