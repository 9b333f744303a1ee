#pragma once
// The complete initial state of a run: generated particles, particle and
// tether files, and explicit particles, checked together.

#include <cstddef>
#include <vector>

#include "tethersim/model/model.hpp"

namespace tethersim::scenario {

struct InitialParticles {
  std::vector<ParticleSpec> particles;  // sorted by id
  std::vector<TetherSpec> tethers;      // each with a < b, sorted, unique
  std::vector<std::size_t> count_by_species;
};

// Runs the generator (if any), appends the model's explicit particles and
// tethers (which already include the particle and tether files), and checks
// what no single source can: unique ids, particles inside the box,
// stationary infinite masses, tethers between existing particles of a
// tetherable pair, no two particles closer than their blocking distance
// (first_overlap, overlap.hpp: the one place every start is checked), one
// membrane and one zone particle when action potentials are enabled.
// Throws ModelError. The whole system, for one process: a distributed start
// keeps each rank's window of the same stream instead (initial_system.hpp).
InitialParticles build_initial_particles(const Model& model);

}  // namespace tethersim::scenario
