#pragma once
// Action-potential reaction times (docs/physics.md, "Action potentials").

#include <cstdint>

#include "tethersim/physics/vector.hpp"

namespace tethersim::physics {

// Geometry of the active zone: the compartment centre (membrane particle),
// the zone centre (on the membrane) and the zone radius r_Z.
struct ActiveZone {
  Vec3 membrane_centre;
  Vec3 zone_centre;
  double zone_radius;
};

// The two rim points a, b of the active zone in the plane through c, the
// membrane centre and the zone centre: zone_centre -/+ r_Z w, with w the unit
// vector of that plane perpendicular to the centre-to-zone axis. When c lies
// on the axis every such plane is equivalent and a fixed one is used.
struct RimPoints {
  Vec3 a;
  Vec3 b;
};
RimPoints active_zone_rim(const ActiveZone& zone, const Vec3& c);

// tau = T_AP ((|a-c| + |b-c|) / |a-b|)^g_AP.
double reaction_mean_time(double t_ap, double g_ap, const ActiveZone& zone, const Vec3& c);

// Phi = t_s + Exp(tau), drawn from (seed, particle id, action_potential,
// ap_index) with one draw per reaction number.
double draw_reaction_time(std::uint64_t seed, std::uint64_t particle_id,
                          std::uint64_t ap_index, std::uint64_t reaction_index,
                          double start_time, double mean_time);

}  // namespace tethersim::physics
