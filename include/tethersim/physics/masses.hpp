#pragma once
// Mass arithmetic with infinite masses (1/inf = 0).

#include "tethersim/physics/vector.hpp"

namespace tethersim::physics {

inline double inverse_mass(double m) { return is_infinite(m) ? 0.0 : 1.0 / m; }

// True when the pair can exchange momentum: at least one finite mass.
// Two infinite masses never exchange impulses (docs/physics.md, "Species,
// pairs and infinite masses").
inline bool can_exchange_momentum(double mass_a, double mass_b) {
  return !(is_infinite(mass_a) && is_infinite(mass_b));
}

// mu = (1/M_A + 1/M_B)^-1. Precondition: can_exchange_momentum(M_A, M_B).
inline double reduced_mass(double mass_a, double mass_b) {
  return 1.0 / (inverse_mass(mass_a) + inverse_mass(mass_b));
}

// Kinetic energy of one body; 0 for infinite mass (such bodies never move).
inline double kinetic_energy(double mass, const Vec3& v) {
  return is_infinite(mass) ? 0.0 : 0.5 * mass * v.squaredNorm();
}

}  // namespace tethersim::physics
