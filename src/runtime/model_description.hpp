#pragma once
// The human-readable description printed by `tethersim validate` and at the
// start of a run.

#include <string>

#include "tethersim/model/model.hpp"
#include "tethersim/scenario/initial_particles.hpp"
#include "tethersim/scenario/initial_system.hpp"

namespace tethersim::runtime {

// How many particles of each species, and tethers, a run starts with.
using ParticleCounts = scenario::InitialCounts;
ParticleCounts count_particles(const scenario::InitialParticles& initial);

std::string describe_model(const Model& model, const ParticleCounts& counts);

}  // namespace tethersim::runtime
