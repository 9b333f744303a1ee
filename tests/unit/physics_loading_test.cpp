// Loading and restitution arithmetic (docs/physics.md, "Loading and
// restitution"): oracles 3-5 with a restitution delay, the energy bookkeeping
// of load + restitute, and the restitution schedules.
#include <gtest/gtest.h>

#include <cmath>

#include "tethersim/physics/collision_impulse.hpp"
#include "tethersim/physics/counter_rng.hpp"
#include "tethersim/physics/loading.hpp"

namespace tethersim::physics {
namespace {

struct Loaded {
  Vec3 v_load;
  Vec3 p_ab;
};

// load(A, B) for two single-particle groups, as the engine does it.
Loaded load(const PairKinematics& p, const CollisionImpulse& impulse) {
  return {load_velocity(p.v_a, p.v_b, p.mass_a, p.mass_b),
          restitution_impulse(impulse.dp, p.v_a, p.v_b, p.mass_a, p.mass_b)};
}

TEST(LoadingOracle, HeadOnWithRestitutionDelay) {  // oracle 3 with dt_r = 0.25
  const PairKinematics p{{1, 0, 0}, {1, 0, 0}, {0, 0, 0}, 1.0, 1.0};
  const Loaded l = load(p, rebound_impulse(p, 1.0));
  EXPECT_DOUBLE_EQ(l.v_load.x(), 0.5);  // both move at 0.5 during [1, 1.25]
  const BranchVelocities after = restitution_velocities(l.v_load, l.p_ab, 1.0, 1.0);
  EXPECT_DOUBLE_EQ(after.a.x(), 0.0);
  EXPECT_DOUBLE_EQ(after.b.x(), 1.0);
  // Positions at t = 3: collision at t = 1 at x = 1 and 2, loaded until 1.25.
  const double x_a = 1.0 + 0.5 * 0.25 + after.a.x() * 1.75;
  const double x_b = 2.0 + 0.5 * 0.25 + after.b.x() * 1.75;
  EXPECT_DOUBLE_EQ(x_a, 1.125);
  EXPECT_DOUBLE_EQ(x_b, 3.875);
}

TEST(LoadingOracle, WallWithRestitutionDelay) {  // oracle 5
  const PairKinematics p{{1, 0, 0}, {0, 0, 0}, {-2, 0, 0}, kInfinity, 1.0};
  const Loaded l = load(p, rebound_impulse(p, 0.5));
  EXPECT_EQ(l.v_load, Vec3::Zero());  // X at rest from t = 1 until 1.5
  const BranchVelocities after = restitution_velocities(l.v_load, l.p_ab, kInfinity, 1.0);
  EXPECT_EQ(after.a, Vec3::Zero());
  EXPECT_DOUBLE_EQ(after.b.x(), 1.0);
  EXPECT_DOUBLE_EQ(1.0 + after.b.x() * (5.0 - 1.5), 4.5);  // X at t = 5
}

TEST(LoadingOracle, LoadVelocityWithOneInfiniteMassIsItsVelocity) {
  EXPECT_EQ(load_velocity({0, 0, 0}, {3, 1, 0}, kInfinity, 2.0), Vec3::Zero());
  EXPECT_EQ(load_velocity({3, 1, 0}, {0, 0, 0}, 2.0, kInfinity), Vec3::Zero());
}

TEST(LoadingOracle, ImpactMovesEveryMemberByDpOverGroupMass) {  // oracle 10, last part
  EXPECT_EQ(impact_velocity({1, 2, 3}, {4, 0, -8}, 4.0), Vec3(2, 2, 1));
  EXPECT_EQ(impact_velocity({1, 2, 3}, {4, 0, -8}, kInfinity), Vec3(1, 2, 3));
}

// Load then restitute a two-particle group: the end state is the
// instantaneous collision's, so energy is accounted for exactly.
TEST(LoadingProperty, LoadThenRestituteEqualsTheInstantaneousCollision) {
  for (int i = 0; i < 4000; ++i) {
    CounterRng rng(11, static_cast<std::uint64_t>(i), RandomStream::event_order, 5);
    const Vec3 dx(rng.normal(), rng.normal(), rng.normal());
    Vec3 v_a(rng.normal(), rng.normal(), rng.normal()), v_b(rng.normal(), rng.normal(), rng.normal());
    if ((v_b - v_a).dot(dx) > 0) std::swap(v_a, v_b);
    const double m_a = std::pow(10.0, 3.0 * rng.uniform() - 1.5);
    const double m_b = std::pow(10.0, 3.0 * rng.uniform() - 1.5);
    const PairKinematics p{dx, v_a, v_b, m_a, m_b};
    const CollisionImpulse impulse = rebound_impulse(p, rng.uniform());
    const Loaded l = load(p, impulse);
    // The loaded group moves with the centre-of-mass velocity: no energy
    // is created by loading.
    const double ke_before = 0.5 * m_a * v_a.squaredNorm() + 0.5 * m_b * v_b.squaredNorm();
    const double ke_loaded = 0.5 * (m_a + m_b) * l.v_load.squaredNorm();
    EXPECT_LE(ke_loaded, ke_before * (1.0 + 1e-12));
    const BranchVelocities after = restitution_velocities(l.v_load, l.p_ab, m_a, m_b);
    const Vec3 direct_a = velocity_after_impulse_a(v_a, impulse.dp, m_a);
    const Vec3 direct_b = velocity_after_impulse_b(v_b, impulse.dp, m_b);
    const double scale = v_a.norm() + v_b.norm();
    EXPECT_LE((after.a - direct_a).norm(), 1e-12 * scale);
    EXPECT_LE((after.b - direct_b).norm(), 1e-12 * scale);
    const double ke_after = 0.5 * m_a * after.a.squaredNorm() + 0.5 * m_b * after.b.squaredNorm();
    EXPECT_LE(ke_after, ke_before * (1.0 + 1e-12));
  }
}

// Three particles in a line, loaded A-B then (A+B)-C, restituted last in
// first out: momentum is conserved and kinetic energy never increases.
TEST(LoadingProperty, ChainRestitutedLastInFirstOutNeverGainsEnergy) {
  for (int i = 0; i < 2000; ++i) {
    CounterRng rng(13, static_cast<std::uint64_t>(i), RandomStream::event_order, 6);
    const double m[3] = {std::pow(10.0, 2.0 * rng.uniform() - 1.0),
                         std::pow(10.0, 2.0 * rng.uniform() - 1.0),
                         std::pow(10.0, 2.0 * rng.uniform() - 1.0)};
    const Vec3 v[3] = {{1.0 + rng.uniform(), 0.2 * rng.normal(), 0}, {0.1 * rng.normal(), 0, 0},
                       {-rng.uniform(), 0.1 * rng.normal(), 0.1 * rng.normal()}};
    const double c = rng.uniform();
    const double ke0 = 0.5 * (m[0] * v[0].squaredNorm() + m[1] * v[1].squaredNorm() +
                              m[2] * v[2].squaredNorm());
    const Vec3 p0 = m[0] * v[0] + m[1] * v[1] + m[2] * v[2];
    // A hits B.
    const PairKinematics ab{{1, 0.1, 0}, v[0], v[1], m[0], m[1]};
    const Loaded l1 = load(ab, rebound_impulse(ab, c));
    // The group A+B hits C.
    const PairKinematics bc{{1, -0.2, 0.1}, l1.v_load, v[2], m[0] + m[1], m[2]};
    const Loaded l2 = load(bc, rebound_impulse(bc, c));
    // Restitute B-C (branches A+B and C), then A-B.
    const BranchVelocities r2 = restitution_velocities(l2.v_load, l2.p_ab, m[0] + m[1], m[2]);
    const BranchVelocities r1 = restitution_velocities(r2.a, l1.p_ab, m[0], m[1]);
    const Vec3 p1 = m[0] * r1.a + m[1] * r1.b + m[2] * r2.b;
    EXPECT_LE((p1 - p0).norm(), 1e-12 * (m[0] + m[1] + m[2]) * 3.0);
    const double ke1 = 0.5 * (m[0] * r1.a.squaredNorm() + m[1] * r1.b.squaredNorm() +
                              m[2] * r2.b.squaredNorm());
    EXPECT_LE(ke1, ke0 * (1.0 + 1e-12));
  }
}

TEST(RestitutionSchedule, MaxScheduleTwoParticleGroupWaitsTheFullDelay) {
  EXPECT_EQ(restitution_time_max_schedule(10.0, 0.5, kInfinity), 10.5);
}

TEST(RestitutionSchedule, MaxScheduleNewEdgeGoesHalfwayToTheEarliestOther) {
  EXPECT_EQ(restitution_time_max_schedule(10.0, 0.5, 10.4), 10.2);
  // Ties with now: the new edge restitutes now (and first).
  EXPECT_EQ(restitution_time_max_schedule(10.0, 0.5, 10.0), 10.0);
}

TEST(RestitutionSchedule, MaxScheduleNeverRoundsDownToNowBeforeTheEarliestOther) {
  // The gas with c = 0 and a delay of 0.01 stalled at t = 0.1298591898...55
  // with an older edge due at the next double: the halfway point rounded to
  // now, and the pair restituted and reloaded at now without end.
  const double now = 0.12985918980632655;
  const double next = std::nextafter(now, 1.0);
  ASSERT_EQ(0.5 * (now + next), now);  // the rounding that froze the run
  EXPECT_EQ(restitution_time_max_schedule(now, 0.01, next), next);
  const double after_next = std::nextafter(next, 1.0);
  EXPECT_GT(restitution_time_max_schedule(now, 0.01, after_next), now);
  EXPECT_LE(restitution_time_max_schedule(now, 0.01, after_next), after_next);
}

TEST(RestitutionSchedule, MinScheduleEveryEdgeWaitsTheFullDelay) {
  EXPECT_EQ(restitution_time_min_schedule(10.0, 0.25), 10.25);
}

}  // namespace
}  // namespace tethersim::physics
