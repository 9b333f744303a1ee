#include "tethersim/physics/external_impulse.hpp"

#include <cmath>

namespace tethersim::physics {

Vec3 gravity_impulse(double mass, const Vec3& g, double interval) {
  return mass * interval * g;
}

Vec3 stokes_drag_impulse(double viscosity, double radius, const Vec3& fluid_velocity,
                         const Vec3& velocity, double interval) {
  return (6.0 * M_PI * viscosity * radius * interval) * (fluid_velocity - velocity);
}

double stokes_drag_fraction(double viscosity, double radius, double interval, double mass) {
  return 6.0 * M_PI * viscosity * radius * interval / mass;
}

}  // namespace tethersim::physics
