#pragma once
// The time of a pair event (Engine::pair_time), inline: the blocking
// source asks it for every candidate of every prediction, and as an
// out-of-line call it spilled its registers and tested the event's kind
// each time (a quarter of the gas of 10^4's run was in it).
#include <algorithm>

#include "tethersim/engine/engine.hpp"
#include "tethersim/physics/detection.hpp"

namespace tethersim::engine {

// Particle b seen from particle a (b's periodic image `shift` away) at the
// later of their two re-basing times: what a pair's detection starts from.
// The blocking source's approach test (dx.dv < 0, before the detection)
// computes it here too, so that the two agree to the bit.
struct PairRelative {
  double t_ref;
  Vec3 dx;
  Vec3 dv;
};
inline PairRelative pair_relative(const ParticleState& a, const ParticleState& b, const Vec3& shift) {
  const double t_ref = std::max(a.t0, b.t0);
  return {t_ref, (b.position(t_ref) - a.position(t_ref)) + shift, b.v - a.v};
}

// The time of a pair event, a pure function of the two stored trajectories
// (and sectors), evaluated at the later of the two re-basing times whoever
// asks and whenever. The pair's order does not matter: swapping it negates
// dx and dv exactly (IEEE subtraction, negation and the image shift are
// exactly antisymmetric), and a, b and c of the quadratic are products of
// two such negations, so they come out bit for bit the same.
inline double Engine::pair_time(Index i, Index j, const Vec3& shift, double distance, EventKind kind) const {
  ++stats_.pair_tests;
  const PairRelative r = pair_relative(particles_.state[i], particles_.state[j], shift);
  const double dt_max = model_.dynamics().dt_max;
  const double dt = kind == EventKind::blocking
                        ? physics::time_to_blocking(r.dx, r.dv, distance, dt_max)
                        : physics::time_to_tethering(r.dx, r.dv, distance, dt_max);
  return dt == kInfinity ? kInfinity : r.t_ref + dt;
}

}  // namespace tethersim::engine
