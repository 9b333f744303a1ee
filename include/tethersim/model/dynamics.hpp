#pragma once
// Global TPS parameters (docs/physics.md: "Species, pairs and infinite masses",
// "Restitution schedules").

#include <cmath>
#include <cstddef>

namespace tethersim {

enum class RestitutionSchedule {
  max,  // restitution delay as a maximum (recommended by the thesis, default)
  min,  // restitution delay as a minimum (the thesis's implemented scheme)
};

const char* to_string(RestitutionSchedule schedule);

struct Dynamics {
  int dimensions = 3;
  double theta_revolve = M_PI / 16.0;  // minimum approach angle after a tethering hit
  double restitution_delay = 0.0;      // dt_r; 0 = ordinary instantaneous collisions
  RestitutionSchedule schedule = RestitutionSchedule::max;
  double dt_max = 1073741824.0;        // 2^30: times beyond this count as never
  std::size_t max_group_size = 0;      // 0 = unlimited loaded groups
  // t_c of the TC model: a collision less than this after either particle's
  // last change of velocity is elastic (0 = off; docs/physics.md, "Inelastic
  // collapse and the TC model").
  double tc_elastic_time = 0.0;
};

}  // namespace tethersim
