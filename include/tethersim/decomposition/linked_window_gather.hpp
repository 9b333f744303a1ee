#pragma once
// What a rank gathers at the start of an owner-computes round with ghosts
// one layer deep when the model has tethers or loaded groups
// (docs/owner-computes.md, "Links across the window's edge"): its block
// and two layers of sectors around it (the layer beyond the window is
// absent but known: the tethering rules of a window particle read its
// partners there), then, asked for by id until nothing is missing, every
// member of a loaded component with a member in its window, and every
// tether partner of those members. A member outside the window is asked
// for too although held: a link is sent with the record of the
// process that accounts for it, which may be its partner's, so the records
// that name it come with it.
//
// Pure functions of records: the MPI exchange that runs them is in
// owner_computes_windows.cpp.

#include <unordered_set>
#include <vector>

#include "tethersim/engine/sector_window.hpp"
#include "tethersim/engine/snapshot.hpp"

namespace tethersim::decomposition {

// The ids to ask for, given the records held so far (copies of one id
// are the same), the rank's window (one layer), which species are hubs (a component does not reach through a hub, held
// everywhere) and the ids asked for before (not asked again). In id order.
std::vector<ParticleId> link_ends_to_ask(const std::vector<engine::ParticleRecord>& held,
                                         const engine::SectorWindow& window,
                                         const std::vector<bool>& hub_species,
                                         const std::unordered_set<ParticleId>& asked_before);

// For each rank q, the indices (ascending) of the records of `mine` (a
// rank's accounted records) that answer the ids q asked for: a record
// answers when it is one of them, or names one of them as a tether or
// loaded-edge partner. One pass over `mine` whatever the number of ranks.
std::vector<std::vector<std::size_t>> answers_by_rank(const std::vector<engine::ParticleRecord>& mine,
                                                      const std::vector<std::vector<ParticleId>>& asked);

}  // namespace tethersim::decomposition
