#pragma once
// The human-readable description printed by `tethersim validate` and at the
// start of a run.

#include <string>

#include "tethersim/model/model.hpp"
#include "tethersim/scenario/initial_particles.hpp"

namespace tethersim::app {

std::string describe_model(const Model& model, const scenario::InitialParticles& initial);

}  // namespace tethersim::app
