#pragma once
// An engine snapshot assembled from particle records: what a rank builds
// its partial engine from, and what the fallback's single engine runs.

#include <cstddef>
#include <vector>

#include "tethersim/engine/snapshot.hpp"

namespace tethersim::decomposition {

// Particles in id order; tethers and loaded edges once each, taken from
// either end (a hub's own record lacks the links of partners held by other
// ranks). `reactions` is the number of action-potential reactions.
engine::EngineSnapshot snapshot_of_records(std::vector<engine::ParticleRecord> records, double time,
                                           std::size_t reactions);

}  // namespace tethersim::decomposition
