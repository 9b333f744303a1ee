#pragma once
// What a run reports about its state at one instant (progress lines,
// summaries, and trajectory observables).

#include <cstdint>
#include <string>
#include <vector>

#include "tethersim/engine/engine.hpp"

namespace tethersim::app {

struct ObservableSample {
  double time = 0.0;
  double kinetic_energy = 0.0;
  Vec3 momentum = Vec3::Zero();
  std::size_t particles = 0;
  std::size_t escapes = 0;
  std::vector<std::size_t> clusters;  // per output.cluster_species
  std::vector<std::size_t> tethered;  // per output.tethered_pairs
};

// The state after every event before `time` (velocities do not depend on
// the instant between events).
ObservableSample sample_observables(const Model& model, const engine::Engine& engine, double time);

// Labels of the configured extras: "clusters V", "V tethered to D".
std::vector<std::string> cluster_labels(const Model& model);
std::vector<std::string> tethered_labels(const Model& model);

}  // namespace tethersim::app
