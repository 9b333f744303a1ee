// docs/physics.md, "Test oracles" 3-7 at the kernel level, and property tests
// of collision impulses on thousands of random pairs (the invariants of
// "Collision impulses").
#include <gtest/gtest.h>

#include <cmath>

#include "tethersim/physics/collision_impulse.hpp"
#include "tethersim/physics/counter_rng.hpp"

namespace tethersim::physics {
namespace {

struct After {
  Vec3 v_a;
  Vec3 v_b;
};

After apply(const PairKinematics& p, const CollisionImpulse& impulse) {
  return {velocity_after_impulse_a(p.v_a, impulse.dp, p.mass_a),
          velocity_after_impulse_b(p.v_b, impulse.dp, p.mass_b)};
}

double kinetic(const PairKinematics& p, const After& a) {
  return kinetic_energy(p.mass_a, a.v_a) + kinetic_energy(p.mass_b, a.v_b);
}
double kinetic(const PairKinematics& p) {
  return kinetic_energy(p.mass_a, p.v_a) + kinetic_energy(p.mass_b, p.v_b);
}

TEST(ImpulseOracle, HeadOnElasticEqualMassesExchangeVelocities) {  // oracle 3
  const PairKinematics p{{1, 0, 0}, {1, 0, 0}, {0, 0, 0}, 1.0, 1.0};
  const CollisionImpulse impulse = rebound_impulse(p, 1.0);
  EXPECT_EQ(impulse.response, CollisionResponse::rebound);
  const After a = apply(p, impulse);
  EXPECT_DOUBLE_EQ(a.v_a.x(), 0.0);
  EXPECT_DOUBLE_EQ(a.v_b.x(), 1.0);
}

TEST(ImpulseOracle, HalfElasticReboundLosesEnergy) {  // oracle 4
  const PairKinematics p{{1, 0, 0}, {1, 0, 0}, {0, 0, 0}, 1.0, 1.0};
  const After a = apply(p, rebound_impulse(p, 0.5));
  EXPECT_DOUBLE_EQ(a.v_a.x(), 0.25);
  EXPECT_DOUBLE_EQ(a.v_b.x(), 0.75);
  EXPECT_DOUBLE_EQ(kinetic(p), 0.5);
  EXPECT_DOUBLE_EQ(kinetic(p, a), 0.3125);
}

TEST(ImpulseOracle, WallOfInfiniteMassReflectsScaledVelocity) {  // oracle 5 (instantaneous)
  const PairKinematics p{{1, 0, 0}, {0, 0, 0}, {-2, 0, 0}, kInfinity, 1.0};
  const After a = apply(p, rebound_impulse(p, 0.5));
  EXPECT_EQ(a.v_a, Vec3::Zero());  // the wall does not move
  EXPECT_DOUBLE_EQ(a.v_b.x(), 1.0);
}

TEST(ImpulseOracle, OneDimensionalRetraction) {  // oracle 6
  const PairKinematics p{{1, 0, 0}, {-1, 0, 0}, {1, 0, 0}, 1.0, 1.0};
  const CollisionImpulse impulse = tether_impulse(p, 0.5, 0.5, M_PI / 16);
  EXPECT_EQ(impulse.response, CollisionResponse::retract);
  const After a = apply(p, impulse);
  EXPECT_DOUBLE_EQ(a.v_a.x(), 0.5);
  EXPECT_DOUBLE_EQ(a.v_b.x(), -0.5);
}

TEST(ImpulseOracle, RetractOrRevolveAtThirtyDegrees) {  // oracle 7
  // Relative velocity 30 degrees out of the tangent plane, separating.
  const double angle = M_PI / 6;
  const PairKinematics p{{1, 0, 0}, {0, 0, 0}, {std::sin(angle), std::cos(angle), 0}, 1.0, 1.0};
  EXPECT_EQ(tether_impulse(p, 0.4, 0.5, M_PI / 16).response, CollisionResponse::retract);
  EXPECT_EQ(tether_impulse(p, 0.3, 0.5, M_PI / 16).response, CollisionResponse::revolve);
}

TEST(ImpulseGuards, CoincidentCentresGiveNoImpulse) {
  const PairKinematics p{{0, 0, 0}, {1, 0, 0}, {-1, 0, 0}, 1.0, 1.0};
  EXPECT_EQ(rebound_impulse(p, 1.0).response, CollisionResponse::none);
  EXPECT_EQ(tether_impulse(p, 1.0, 1.0, M_PI / 16).response, CollisionResponse::none);
  EXPECT_EQ(rebound_impulse(p, 1.0).dp, Vec3::Zero());
}

TEST(ImpulseGuards, TwoInfiniteMassesNeverExchange) {
  const PairKinematics p{{1, 0, 0}, {1, 0, 0}, {-1, 0, 0}, kInfinity, kInfinity};
  const CollisionImpulse impulse = rebound_impulse(p, 1.0);
  EXPECT_EQ(impulse.response, CollisionResponse::none);
  EXPECT_TRUE(impulse.dp.allFinite());
  EXPECT_TRUE(tether_impulse(p, 1.0, 1.0, M_PI / 16).dp.allFinite());
}

TEST(ImpulseGuards, PurelyRadialWithNoRetractionUsesRetraction) {
  // |v_w| = 0 and c_retract = 0: the revolve is undefined (docs/physics.md,
  // "Tethering collisions").
  const PairKinematics p{{1, 0, 0}, {0, 0, 0}, {1, 0, 0}, 1.0, 1.0};
  const CollisionImpulse impulse = tether_impulse(p, 0.0, 1.0, M_PI / 16);
  EXPECT_EQ(impulse.response, CollisionResponse::retract);
  const After a = apply(p, impulse);
  EXPECT_DOUBLE_EQ(a.v_b.x() - a.v_a.x(), 0.0);  // stops separating
}

TEST(ImpulseGuards, InfiniteMassTetherPartnerStaysPut) {
  const PairKinematics p{{2, 0, 0}, {0, 0, 0}, {1, 1, 0}, kInfinity, 3.0};
  const After a = apply(p, tether_impulse(p, 0.5, 0.5, M_PI / 16));
  EXPECT_EQ(a.v_a, Vec3::Zero());
  EXPECT_TRUE(a.v_b.allFinite());
}

// Random pairs: positions on a sphere, velocities, masses over 4 decades.
class RandomPairs : public ::testing::Test {
 protected:
  static constexpr int kPairs = 4000;

  PairKinematics pair(int i, bool approaching) const {
    CounterRng rng(7, static_cast<std::uint64_t>(i), RandomStream::event_order, 99);
    Vec3 dx(rng.normal(), rng.normal(), rng.normal());
    dx *= 0.5 + rng.uniform();
    Vec3 v_a(rng.normal(), rng.normal(), rng.normal());
    Vec3 v_b(rng.normal(), rng.normal(), rng.normal());
    const double m_a = std::pow(10.0, 4.0 * rng.uniform() - 2.0);
    const double m_b = std::pow(10.0, 4.0 * rng.uniform() - 2.0);
    // Blocking collisions happen approaching, tethering ones separating.
    const double radial = (v_b - v_a).dot(dx);
    if ((radial > 0.0) == approaching) std::swap(v_a, v_b);
    return {dx, v_a, v_b, m_a, m_b};
  }

  static void expect_momentum_conserved(const PairKinematics& p, const After& a) {
    const Vec3 before = p.mass_a * p.v_a + p.mass_b * p.v_b;
    const Vec3 after = p.mass_a * a.v_a + p.mass_b * a.v_b;
    const double scale = p.mass_a * p.v_a.norm() + p.mass_b * p.v_b.norm();
    EXPECT_LE((after - before).norm(), 1e-12 * scale);
  }
};

TEST_F(RandomPairs, ReboundConservesMomentumAndNeverGainsEnergy) {
  for (int i = 0; i < kPairs; ++i) {
    const PairKinematics p = pair(i, /*approaching=*/true);
    const double c = (i % 5) / 4.0;
    const After a = apply(p, rebound_impulse(p, c));
    expect_momentum_conserved(p, a);
    EXPECT_LE(kinetic(p, a), kinetic(p) * (1.0 + 1e-12));
    if (c == 1.0) {
      EXPECT_NEAR(kinetic(p, a), kinetic(p), 1e-12 * kinetic(p));
    }
    // Afterwards the pair no longer approaches.
    EXPECT_GE((a.v_b - a.v_a).dot(p.dx), -1e-12 * (p.v_b - p.v_a).norm() * p.dx.norm());
  }
}

TEST_F(RandomPairs, TetherCollisionsConserveMomentumAndNeverGainEnergy) {
  int revolves = 0, retracts = 0;
  for (int i = 0; i < kPairs; ++i) {
    const PairKinematics p = pair(i, /*approaching=*/false);
    const double c = (i % 5) / 4.0;
    const CollisionImpulse impulse = tether_impulse(p, c, c, M_PI / 16);
    const After a = apply(p, impulse);
    expect_momentum_conserved(p, a);
    EXPECT_LE(kinetic(p, a), kinetic(p) * (1.0 + 1e-12));
    if (c == 1.0) {
      EXPECT_NEAR(kinetic(p, a), kinetic(p), 1e-12 * kinetic(p));
    }
    // Afterwards the pair approaches (or stops separating).
    EXPECT_LE((a.v_b - a.v_a).dot(p.dx), 1e-12 * (p.v_b - p.v_a).norm() * p.dx.norm());
    (impulse.response == CollisionResponse::revolve ? revolves : retracts)++;
  }
  EXPECT_GT(revolves, 100);
  EXPECT_GT(retracts, 100);
}

TEST_F(RandomPairs, RevolveLeavesThePairApproachingAtExactlyThetaRev) {
  int revolves = 0;
  for (int i = 0; i < kPairs; ++i) {
    const PairKinematics p = pair(i, /*approaching=*/false);
    for (double theta : {M_PI / 16, M_PI / 7, M_PI / 64}) {
      const CollisionImpulse impulse = tether_impulse(p, 0.0, 0.7, theta);
      if (impulse.response != CollisionResponse::revolve) continue;
      ++revolves;
      const After a = apply(p, impulse);
      const Vec3 unit = p.dx.normalized();
      const Vec3 v_ab = a.v_b - a.v_a;
      const double normal = v_ab.dot(unit);
      const double tangential = (v_ab - normal * unit).norm();
      EXPECT_NEAR(std::atan2(-normal, tangential), theta, 1e-12);
      // The relative speed falls by c_revolve^(theta/pi).
      EXPECT_NEAR(v_ab.norm(), std::pow(0.7, theta / M_PI) * (p.v_b - p.v_a).norm(),
                  1e-12 * (p.v_b - p.v_a).norm());
    }
  }
  EXPECT_GT(revolves, 1000);
}

TEST(RevolveOracle, PiOverNRevolvesScaleTheSpeedByCRevolve) {
  // n = pi / theta revolves turn the pair once and scale its speed by c.
  const double theta = M_PI / 16, c = 0.25;
  Vec3 dx(1, 0, 0), v_a(0, 0, 0), v_b(0.1, 1, 0);
  const double speed = (v_b - v_a).norm();
  for (int k = 0; k < 16; ++k) {
    const PairKinematics p{dx, v_a, v_b, 1.0, 1.0};
    const CollisionImpulse impulse = tether_impulse(p, 0.0, c, theta);
    ASSERT_EQ(impulse.response, CollisionResponse::revolve);
    const After a = apply(p, impulse);
    v_a = a.v_a;
    v_b = a.v_b;
    // Rotate the separation to where the next tethering collision is, by
    // keeping it perpendicular-ish: the next hit sees the same geometry.
    const Vec3 rel = v_b - v_a;
    dx = Vec3(rel.y(), -rel.x(), 0).normalized();
    if ((v_b - v_a).dot(dx) < 0) dx = -dx;
  }
  EXPECT_NEAR((v_b - v_a).norm(), c * speed, 1e-12);
}

}  // namespace
}  // namespace tethersim::physics
