#include "tethersim/physics/loading.hpp"

#include "tethersim/physics/masses.hpp"

namespace tethersim::physics {

Vec3 load_velocity(const Vec3& v_a, const Vec3& v_b, double mass_a, double mass_b) {
  // Written as in the thesis (docs/physics.md, "Loaded groups") so that one
  // infinite mass gives its velocity.
  if (is_infinite(mass_a)) return v_a;
  if (is_infinite(mass_b)) return v_b;
  return v_a / (1.0 + mass_b / mass_a) + v_b / (1.0 + mass_a / mass_b);
}

Vec3 restitution_impulse(const Vec3& dp, const Vec3& v_a, const Vec3& v_b, double mass_a,
                         double mass_b) {
  return dp - reduced_mass(mass_a, mass_b) * (v_b - v_a);
}

BranchVelocities restitution_velocities(const Vec3& v_group, const Vec3& p_ab,
                                        double branch_mass_a, double branch_mass_b) {
  return {impact_velocity(v_group, p_ab, branch_mass_a),
          impact_velocity(v_group, Vec3(-p_ab), branch_mass_b)};
}

double restitution_time_max_schedule(double now, double restitution_delay,
                                     double earliest_other_edge) {
  if (is_infinite(earliest_other_edge)) return now + restitution_delay;
  // When the earliest edge is the next double after now, the midpoint can
  // round down to now. The new edge would then restitute now, before the
  // older edge (LIFO), and a pair that collides again at the instant of its
  // restitution would reload at now again, forever: the older edge, and
  // time, would never come. The earliest edge's time is the nearest time
  // after now, and the new edge still restitutes first there.
  const double halfway = 0.5 * (now + earliest_other_edge);
  return halfway > now ? halfway : earliest_other_edge;
}

Vec3 impact_velocity(const Vec3& v_group, const Vec3& dp, double group_mass) {
  if (is_infinite(group_mass)) return v_group;
  return v_group + dp / group_mass;
}

}  // namespace tethersim::physics
