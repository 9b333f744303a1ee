#pragma once
// A particle species (docs/physics.md, "Species, pairs and infinite masses").

#include <cstdint>
#include <string>

#include "tethersim/physics/random_impulse.hpp"
#include "tethersim/physics/vector.hpp"

namespace tethersim {

using SpeciesIndex = std::uint16_t;

// A species held at a temperature (model-format.md, "thermostat"): what the
// model file gave, from which the reader derived the species' random
// impulses and its drag (docs/physics.md, "Temperature"). Kept for the
// model description only: the derived random impulses and drag are what
// the engine runs and what the physics hash covers.
struct Thermostat {
  double kT = 0.0;        // 0: no thermostat
  double friction = 0.0;  // gamma, derived from a diffusion coefficient or given
  double interval = 0.0;  // drag ticks
  bool enabled() const { return kT > 0.0; }
};

struct Species {
  std::string name;
  double mass = 1.0;    // may be kInfinity: stationary obstacle or hub
  double radius = 0.0;  // used for default blocking distances and drag
  physics::RandomImpulseSpec random_impulse;
  Thermostat thermostat;

  bool infinite_mass() const { return is_infinite(mass); }
};

}  // namespace tethersim
