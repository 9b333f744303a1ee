#pragma once
// A particle species (docs/physics.md, "Species, pairs and infinite masses").

#include <cstdint>
#include <string>

#include "tethersim/physics/random_impulse.hpp"
#include "tethersim/physics/vector.hpp"

namespace tethersim {

using SpeciesIndex = std::uint16_t;

struct Species {
  std::string name;
  double mass = 1.0;    // may be kInfinity: stationary obstacle or hub
  double radius = 0.0;  // used for default blocking distances and drag
  physics::RandomImpulseSpec random_impulse;

  bool infinite_mass() const { return is_infinite(mass); }
};

}  // namespace tethersim
