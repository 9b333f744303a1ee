#pragma once
// [initial] from = "run/checkpoint.h5" (or a trajectory, with `frame`): the
// particles and tethers of a state some run reached, as the initial state
// of a new model, whose physics may differ. Species are matched by name.

#include <functional>
#include <string>
#include <vector>

#include "tethersim/model/initial_state.hpp"

namespace tethersim::io_detail {

struct StateParticles {
  std::vector<ParticleSpec> particles;  // present particles only, in id order
  std::vector<TetherSpec> tethers;      // ids
};

// Reads a checkpoint (the state at its time) or frame `frame` of a
// trajectory (negative counts from the end; it needs velocities). Positions
// are the model coordinates. `species` maps a species name to the new
// model's index and throws for an unknown one. Serial HDF5: every rank
// reads alone. Throws InputError naming `key`.
StateParticles read_state_particles(const std::string& path, long frame, const std::string& key,
                                    const std::function<SpeciesIndex(const std::string&)>& species);

}  // namespace tethersim::io_detail
