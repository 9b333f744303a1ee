#pragma once
// Models that add energy with nothing to remove it (model-format.md,
// "Thermostat"): a species with random impulses whose energy can reach no
// drag and no inelastic collision heats without bound.

#include <vector>

#include "tethersim/model/model.hpp"

namespace tethersim {

// One warning (key species.<S>.random_impulse) per species with random
// impulses for which this is certain: no drag applies to it, nor to any
// species it can exchange energy with through blocking or tethering
// (followed from pair to pair), and every such collision is elastic
// (c_rebound, and for tetherable pairs c_retract and c_revolve, all 1).
std::vector<ModelProblem> unbounded_heating(const Model& model);

}  // namespace tethersim
