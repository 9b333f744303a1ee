#include "tethersim/physics/detection.hpp"

#include <algorithm>
#include <cmath>

namespace tethersim::physics {

double time_to_tethering(const Vec3& dx, const Vec3& dv, double tethering_distance,
                         double dt_max) {
  if (is_infinite(tethering_distance)) return kInfinity;
  const Quadratic q = detection_quadratic(dx, dv, tethering_distance);
  if (q.b >= 0.0 && q.c >= 0.0) {
    // Taut: collide now, unless the pair parts too slowly to matter.
    return q.b >= q.a * dt_max ? kInfinity : 0.0;
  }
  // The second root; d < 0 (outside, passing by) gives the closest approach.
  const double numer = std::max(-q.b + std::sqrt(std::max(q.d, 0.0)), 0.0);
  return guarded_quotient(numer, 2.0 * q.a, dt_max);
}

}  // namespace tethersim::physics
