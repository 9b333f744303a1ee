#pragma once
// Random impulses (docs/physics.md, "Random impulses").
//
// Each particle with finite tau_RI runs a renewal process. Impulse number n
// of particle id is drawn from the counter stream (seed, id, random_impulse,
// n): the gap before it, its magnitude, obliquity and direction.

#include <cstdint>

#include "tethersim/physics/counter_rng.hpp"
#include "tethersim/physics/vector.hpp"

namespace tethersim::physics {

struct RandomImpulseSpec {
  double tau = kInfinity;  // mean interval; kInfinity = no random impulses
  double shape = 1.0;      // gamma shape k_RI
  double mean = 0.0;       // gamma mean mu_RI (mean of p, not of |dp|)
  bool enabled() const { return tau < kInfinity; }
};

// Obliquity factor u_RI: sqrt(U) in 3-D, sqrt(1 - U^2) in 2-D, 1 in 1-D.
double draw_obliquity(CounterRng& rng, int dimensions);

// Uniform direction on the unit sphere (3-D: z ~ U[-1,1], phi ~ U[0,2pi)),
// circle (2-D, in the xy plane) or the two ends of the x axis (1-D).
Vec3 draw_direction(CounterRng& rng, int dimensions);

struct RandomImpulse {
  double gap;  // time since the previous impulse (or since the start)
  Vec3 dp;     // p u_RI d
};

// Only the gap before impulse number `impulse_index` (the same value as
// draw_random_impulse(...).gap, for a fraction of the cost).
double draw_random_gap(std::uint64_t seed, std::uint64_t particle_id, std::uint64_t impulse_index,
                       const RandomImpulseSpec& spec);

RandomImpulse draw_random_impulse(std::uint64_t seed, std::uint64_t particle_id,
                                  std::uint64_t impulse_index,
                                  const RandomImpulseSpec& spec, int dimensions);

}  // namespace tethersim::physics
