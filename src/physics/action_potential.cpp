#include "tethersim/physics/action_potential.hpp"

#include <cmath>

#include "tethersim/physics/counter_rng.hpp"

namespace tethersim::physics {

RimPoints active_zone_rim(const ActiveZone& zone, const Vec3& c) {
  const Vec3 axis = (zone.zone_centre - zone.membrane_centre).normalized();
  // The in-plane direction perpendicular to the axis, towards c.
  Vec3 w = (c - zone.membrane_centre) - (c - zone.membrane_centre).dot(axis) * axis;
  if (w.squaredNorm() == 0.0) {
    // c on the axis: any perpendicular gives the same distances.
    w = axis.unitOrthogonal();
  }
  w.normalize();
  return {zone.zone_centre - zone.zone_radius * w, zone.zone_centre + zone.zone_radius * w};
}

double reaction_mean_time(double t_ap, double g_ap, const ActiveZone& zone, const Vec3& c) {
  const RimPoints rim = active_zone_rim(zone, c);
  const double ratio = ((rim.a - c).norm() + (rim.b - c).norm()) / (rim.a - rim.b).norm();
  return t_ap * std::pow(ratio, g_ap);
}

double draw_reaction_time(std::uint64_t seed, std::uint64_t particle_id,
                          std::uint64_t ap_index, std::uint64_t reaction_index,
                          double start_time, double mean_time) {
  // One counter index per (action potential, reaction): independent draws.
  CounterRng rng(seed, particle_id, RandomStream::action_potential,
                 (ap_index << 8) | (reaction_index & 0xffU));
  return start_time + draw_exponential(rng, mean_time);
}

}  // namespace tethersim::physics
