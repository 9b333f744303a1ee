#pragma once
// The time of a pair event (Engine::pair_time), inline: the blocking
// source asks it for every candidate of every prediction, and as an
// out-of-line call it spilled its registers and tested the event's kind
// each time (a quarter of the gas of 10^4's run was in it).
#include <algorithm>

#include "tethersim/engine/engine.hpp"
#include "tethersim/physics/detection.hpp"

namespace tethersim::engine {

// The time of a pair event, a pure function of the two stored trajectories
// (and sectors), evaluated at the later of the two re-basing times whoever
// asks and whenever. The pair's order does not matter: swapping it negates
// dx and dv exactly (IEEE subtraction, negation and the image shift are
// exactly antisymmetric), and a, b and c of the quadratic are products of
// two such negations, so they come out bit for bit the same.
inline double Engine::pair_time(Index i, Index j, const Vec3& shift, double distance,
                         EventKind kind) const {
  ++stats_.pair_tests;
  const ParticleState& sa = particles_.state[i];
  const ParticleState& sb = particles_.state[j];
  const double t_ref = std::max(sa.t0, sb.t0);
  const Vec3 dx = (sb.position(t_ref) - sa.position(t_ref)) + shift;
  const Vec3 dv = sb.v - sa.v;
  const double dt_max = model_.dynamics().dt_max;
  const double dt = kind == EventKind::blocking
                        ? physics::time_to_blocking(dx, dv, distance, dt_max)
                        : physics::time_to_tethering(dx, dv, distance, dt_max);
  return dt == kInfinity ? kInfinity : t_ref + dt;
}

}  // namespace tethersim::engine
