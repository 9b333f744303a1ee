#pragma once
// What an event run on one process leaves for the others that hold its
// participants (docs/owner-computes.md, "Messages"): its key, the record
// after the event of every particle it changed, and a hash of each record
// as the event read it. A receiver places the outcome only once it holds
// those very records: the event exists for it then, as it did for the
// process that ran it. Within one instant the serial order is not the key
// order (an event at time t can predict another at t with a smaller key:
// touching members of a loaded group), so "the earliest key among events
// that exist" is what orders them, here as in a serial run; and an outcome
// read from a record this process has since replaced is never placed (its
// sender will cancel it).

#include <vector>

#include "tethersim/engine/event_key.hpp"
#include "tethersim/engine/snapshot.hpp"

namespace tethersim::engine {

struct EventOutcome {
  EventKey key;
  std::vector<ParticleRecord> records;  // by id, each once
  std::vector<std::uint64_t> read_hashes;  // Engine::record_hash of each, before the event
  // With ghosts one layer deep: the records of the particles of the changed
  // particles' loaded components that the event left as they were (it did
  // not read them: another group through an anchor, or the rest of a group
  // whose member crossed a sector). They take the outcome to every process
  // that holds a piece of a component (SectorWindow::concerns), and bring
  // them in where they were absent (a component that now reaches the
  // window comes in whole); a process that holds one keeps its own copy,
  // so they are neither checked nor placed there.
  std::vector<ParticleRecord> introductions;
};

}  // namespace tethersim::engine
