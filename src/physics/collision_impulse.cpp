#include "tethersim/physics/collision_impulse.hpp"

#include <cmath>

#include "tethersim/physics/masses.hpp"

namespace tethersim::physics {

const char* to_string(CollisionResponse response) {
  switch (response) {
    case CollisionResponse::none: return "none";
    case CollisionResponse::rebound: return "rebound";
    case CollisionResponse::retract: return "retract";
    case CollisionResponse::revolve: return "revolve";
  }
  return "unknown";
}

namespace {

// The relative velocity split along the line of centres.
struct RelativeVelocity {
  Vec3 unit;     // u-hat, from A to B
  Vec3 total;    // v_AB = v_B - v_A
  Vec3 normal;   // v_n, along u-hat
  Vec3 tangent;  // v_w = v_AB - v_n
};

RelativeVelocity split_relative_velocity(const PairKinematics& pair) {
  RelativeVelocity r;
  r.unit = pair.dx / pair.dx.norm();
  r.total = pair.v_b - pair.v_a;
  r.normal = r.total.dot(r.unit) * r.unit;
  r.tangent = r.total - r.normal;
  return r;
}

// Coincident centres give no direction; infinite masses cannot exchange.
bool impulse_is_defined(const PairKinematics& pair) {
  return can_exchange_momentum(pair.mass_a, pair.mass_b) && pair.dx.squaredNorm() > 0.0;
}

}  // namespace

CollisionImpulse rebound_impulse(const PairKinematics& pair, double c_rebound) {
  if (!impulse_is_defined(pair)) return {};
  const RelativeVelocity r = split_relative_velocity(pair);
  const double mu = reduced_mass(pair.mass_a, pair.mass_b);
  return {mu * (1.0 + c_rebound) * r.normal, CollisionResponse::rebound};
}

CollisionImpulse tether_impulse(const PairKinematics& pair, double c_retract,
                                double c_revolve, double theta_revolve) {
  if (!impulse_is_defined(pair)) return {};
  const RelativeVelocity r = split_relative_velocity(pair);
  const double mu = reduced_mass(pair.mass_a, pair.mass_b);

  // The post-collision approach angle of a retraction must reach theta_rev;
  // the (1 + 2^-24) margin absorbs round-off (docs/physics.md, "Tethering
  // collisions").
  constexpr double kRevolveMargin = 1.0 + 0x1p-24;
  const double tangential_speed = r.tangent.norm();
  const double min_normal_speed = std::tan(theta_revolve * kRevolveMargin) * tangential_speed;
  const bool sufficient = c_retract * r.normal.norm() > min_normal_speed;
  if (sufficient || tangential_speed == 0.0) {
    return {mu * (1.0 + c_retract) * r.normal, CollisionResponse::retract};
  }

  // Revolve: turn v_AB to approach at exactly theta_rev, losing a factor
  // c_revolve of relative speed per full revolution (pi / theta_rev hits).
  const Vec3 turned = r.tangent - std::tan(theta_revolve) * tangential_speed * r.unit;
  const double speed_after =
      std::pow(c_revolve, theta_revolve / M_PI) * r.total.norm();
  const Vec3 v_ab_after = speed_after * (turned / turned.norm());
  return {mu * (r.total - v_ab_after), CollisionResponse::revolve};
}

}  // namespace tethersim::physics
