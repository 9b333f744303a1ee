#pragma once
// Collision detection between two particles on straight-line trajectories
// (TPS-SPEC section 2, thesis Appendix B.2).
//
// Inputs are the separation dx = u_B - u_A and the relative velocity
// dv = v_B - v_A at one reference time; results are times after that
// reference time, kInfinity meaning "no event". Callers pass the pair in
// canonical order (lower id as A) so every process computes the same bits.

#include "tethersim/physics/vector.hpp"

namespace tethersim::physics {

// Coefficients of |dx + dv t|^2 - D^2 = a t^2 + b t + c and the discriminant.
struct Quadratic {
  double a;
  double b;
  double c;
  double d;
};

Quadratic detection_quadratic(const Vec3& dx, const Vec3& dv, double distance);

// Time until the centres come within the blocking distance while approaching.
// Overlapping and approaching -> 0; overlapping and receding -> kInfinity
// (no correction is attempted); D = 0 -> kInfinity. dt_max guards against
// tiny denominators: any time >= dt_max is reported as kInfinity.
double time_to_blocking(const Vec3& dx, const Vec3& dv, double blocking_distance,
                        double dt_max);

// Time until the centres reach the tethering distance while separating.
// Inside: the exit time. Taut (outside, not approaching) -> 0 unless the pair
// parts too slowly to matter (b >= a dt_max). Outside and never getting
// inside: the time of closest approach, where the collision becomes a revolve.
// D = kInfinity -> kInfinity.
double time_to_tethering(const Vec3& dx, const Vec3& dv, double tethering_distance,
                         double dt_max);

}  // namespace tethersim::physics
