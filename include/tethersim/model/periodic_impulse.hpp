#pragma once
// Periodic external impulses: forces represented as impulses at regular
// intervals (docs/physics.md, "Periodic impulses").

#include <string>
#include <vector>

#include "tethersim/model/species.hpp"
#include "tethersim/physics/vector.hpp"

namespace tethersim {

enum class PeriodicImpulseKind { gravity, drag };

const char* to_string(PeriodicImpulseKind kind);

struct PeriodicImpulse {
  PeriodicImpulseKind kind = PeriodicImpulseKind::gravity;
  double interval = 1.0;  // impulses at start + k interval, k = 1, 2, ...
  double start = 0.0;
  std::vector<bool> applies_to;  // per species index
  Vec3 acceleration = Vec3::Zero();    // gravity: g
  double viscosity = 0.0;              // drag: mu_fluid
  Vec3 fluid_velocity = Vec3::Zero();  // drag: v_fluid
  // The model-file key of its interval in messages: empty for an
  // [[external]] ("external.N.interval"); a thermostat's drag names the
  // thermostat ("species.X.thermostat.interval").
  std::string interval_key;
};

}  // namespace tethersim
