#pragma once
// Collision impulses: rebound (blocking), retract and revolve (tethering)
// (docs/physics.md, "Collision impulses").
//
// dp is the momentum gained by A: v_A += dp / M_A, v_B -= dp / M_B, where the
// masses are those of the loaded groups the particles belong to.

#include <cstdint>

#include "tethersim/physics/masses.hpp"
#include "tethersim/physics/vector.hpp"

namespace tethersim::physics {

enum class CollisionResponse : std::uint8_t {
  none,     // no impulse: coincident centres or two infinite masses
  rebound,  // blocking collision
  retract,  // tethering collision, retraction sufficient
  revolve,  // tethering collision, pair turned to approach at theta_rev
};

const char* to_string(CollisionResponse response);

struct CollisionImpulse {
  Vec3 dp = Vec3::Zero();
  CollisionResponse response = CollisionResponse::none;
};

// The state of a colliding pair at the collision time.
struct PairKinematics {
  Vec3 dx;  // u_B - u_A
  Vec3 v_a;
  Vec3 v_b;
  double mass_a;
  double mass_b;
};

// dp = mu (1 + c_rebound) v_n.
CollisionImpulse rebound_impulse(const PairKinematics& pair, double c_rebound);

// Retract when c_retract |v_n| > tan(theta_rev (1 + 2^-24)) |v_w| (or when
// |v_w| = 0, where a revolve is undefined), dp = mu (1 + c_retract) v_n;
// otherwise revolve: the relative velocity is turned to approach at exactly
// theta_rev and scaled by c_revolve^(theta_rev / pi).
CollisionImpulse tether_impulse(const PairKinematics& pair, double c_retract,
                                double c_revolve, double theta_revolve);

// The TC model of Luding and McNamara (docs/physics.md, "Inelastic collapse
// and the TC model"): a collision less than tc after either particle's last
// change of velocity (its t0; -infinity for an infinite mass, whose velocity
// never changes) is elastic, every coefficient taken as 1. tc = 0 is off.
inline bool elastic_by_tc(double now, double last_change_a, double last_change_b, double tc) {
  return tc > 0.0 && (now - last_change_a < tc || now - last_change_b < tc);
}

// Velocities after applying dp to the two bodies (A gains dp, B loses it).
inline Vec3 velocity_after_impulse_a(const Vec3& v_a, const Vec3& dp, double mass_a) {
  return is_infinite(mass_a) ? v_a : Vec3(v_a + dp / mass_a);
}
inline Vec3 velocity_after_impulse_b(const Vec3& v_b, const Vec3& dp, double mass_b) {
  return is_infinite(mass_b) ? v_b : Vec3(v_b - dp / mass_b);
}

}  // namespace tethersim::physics
