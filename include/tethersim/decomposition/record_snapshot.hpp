#pragma once
// An engine snapshot assembled from particle records: what a rank builds
// its partial engine from, and what the fallback's single engine runs.

#include <cstddef>
#include <functional>
#include <vector>

#include "tethersim/engine/snapshot.hpp"

namespace tethersim::engine {
class Engine;
}

namespace tethersim::decomposition {

// An engine snapshot assembled from particle records handed over one at a
// time (decoded from a buffer into one scratch record, say), so that no
// vector of whole records is held beside the snapshot: a rank's start-up
// peak is the snapshot and the received bytes, then the snapshot and the
// engine built from it.
class SnapshotAssembly {
 public:
  // `reactions`: the number of action-potential reactions; `expected`: the
  // records to reserve room for (an upper bound costs address space only).
  SnapshotAssembly(double time, std::size_t reactions, std::size_t expected = 0);
  void add(const engine::ParticleRecord& record);
  // Particles in id order, one of each id (a hub arrives from every rank
  // that holds it; its copies are the same); tethers and loaded edges once
  // each, taken from either end (a hub's own record lacks the links of
  // partners held by other ranks).
  engine::EngineSnapshot finish();

 private:
  engine::EngineSnapshot s_;
  std::size_t reactions_;
  std::vector<double> phi_;  // reaction times, `reactions_` per particle, in arrival order
};

// The same from a vector of records (consumed).
engine::EngineSnapshot snapshot_of_records(std::vector<engine::ParticleRecord> records, double time,
                                           std::size_t reactions);

}  // namespace tethersim::decomposition

namespace tethersim::decomposition {

// The records of the particles `e` accounts for (its own, those that left
// the simulation included, and on the global-events process the hubs), each
// with the links `e` accounts for. A link between particles of two processes
// is held by both, but only the one that runs its events keeps it current:
// taking each link from that process alone makes the state assembled from
// every process's records the same whatever the split.
// One record at a time, in id order: a rank packs them as they come
// instead of holding every one first.
void for_each_accounted_record(const engine::Engine& e, const std::function<void(engine::ParticleRecord&&)>& visit);

}  // namespace tethersim::decomposition
