#pragma once
// Loading and restitution arithmetic (docs/physics.md, "Loading and
// restitution").
//
// A collision between two loaded groups is split into an immediate loading
// (both groups take the common momentum-conserving velocity) and a later
// restitution that applies the rest of the collision impulse. The group
// bookkeeping (who is in which group, when an edge restitutes) lives in the
// engine; these functions are the arithmetic.

#include "tethersim/physics/vector.hpp"

namespace tethersim::physics {

// v_load = v_A / (1 + M_B/M_A) + v_B / (1 + M_A/M_B); either mass may be
// infinite (not both).
Vec3 load_velocity(const Vec3& v_a, const Vec3& v_b, double mass_a, double mass_b);

// p_AB = dp - mu (v_B - v_A): the part of the collision impulse that the
// loading did not apply; stored on the edge (+p_AB on A for B).
Vec3 restitution_impulse(const Vec3& dp, const Vec3& v_a, const Vec3& v_b, double mass_a,
                         double mass_b);

struct BranchVelocities {
  Vec3 a;
  Vec3 b;
};

// On restitution of edge A-B: A's branch gets v_g + p_AB/M_A and B's branch
// v_g - p_AB/M_B (masses of the two branches once the edge is removed).
BranchVelocities restitution_velocities(const Vec3& v_group, const Vec3& p_ab,
                                        double branch_mass_a, double branch_mass_b);

// Restitution time of a new edge under the recommended "max" schedule
// (docs/physics.md, "Restitution schedules"): t + dt_r for a 2-particle
// group, otherwise halfway between now and the earliest restitution among
// the group's other edges (kInfinity when there are none), never now itself
// unless that earliest edge is due now (a halfway point that rounds down to
// now gives the earliest edge's time: otherwise time need never pass). Ties
// are resolved by the engine: the newest edge goes first.
double restitution_time_max_schedule(double now, double restitution_delay,
                                     double earliest_other_edge);

// Under the thesis's "min" schedule every edge of the merged group is
// rescheduled to this time.
inline double restitution_time_min_schedule(double now, double restitution_delay) {
  return now + restitution_delay;
}

// Velocity of a group of mass M after an external impulse dp on any member.
Vec3 impact_velocity(const Vec3& v_group, const Vec3& dp, double group_mass);

}  // namespace tethersim::physics
