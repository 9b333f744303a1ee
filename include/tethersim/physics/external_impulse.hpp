#pragma once
// Periodic external impulses (docs/physics.md, "Periodic impulses"): the
// force-as-impulses representation of gravity and Stokes drag.

#include "tethersim/physics/vector.hpp"

namespace tethersim::physics {

// m g dt_g, applied every dt_g.
Vec3 gravity_impulse(double mass, const Vec3& g, double interval);

// 6 pi mu_fluid r (v_fluid - v) dt_d, applied every dt_d.
Vec3 stokes_drag_impulse(double viscosity, double radius, const Vec3& fluid_velocity,
                         const Vec3& velocity, double interval);

// The fraction of the relative velocity one drag impulse removes from a lone
// particle: 6 pi mu r dt / m. Above 1 the impulse would reverse the motion.
double stokes_drag_fraction(double viscosity, double radius, double interval, double mass);

}  // namespace tethersim::physics
