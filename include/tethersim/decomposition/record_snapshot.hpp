#pragma once
// An engine snapshot assembled from particle records: what a rank builds
// its partial engine from, and what the fallback's single engine runs.

#include <cstddef>
#include <vector>

#include "tethersim/engine/snapshot.hpp"

namespace tethersim::engine {
class Engine;
}

namespace tethersim::decomposition {

// Particles in id order; tethers and loaded edges once each, taken from
// either end (a hub's own record lacks the links of partners held by other
// ranks). `reactions` is the number of action-potential reactions.
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
std::vector<engine::ParticleRecord> accounted_records(const engine::Engine& e);

}  // namespace tethersim::decomposition
