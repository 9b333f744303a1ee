// docs/physics.md, "Test oracles" 1 and 2: blocking and tethering detection,
// including every edge case of "Event detection".
#include <gtest/gtest.h>

#include <cmath>

#include "tethersim/physics/detection.hpp"

namespace tethersim::physics {
namespace {

constexpr double kDtMax = 1073741824.0;  // 2^30

// A at the origin at rest, B at x_b moving at v_b (2-D vectors in 3-D).
double blocking(Vec3 x_b, Vec3 v_b, double distance) {
  return time_to_blocking(x_b, v_b, distance, kDtMax);
}
double tethering(Vec3 x_b, Vec3 v_b, double distance) {
  return time_to_tethering(x_b, v_b, distance, kDtMax);
}

TEST(BlockingOracle, ApproachingPairCollidesWhenGapCloses) {
  EXPECT_DOUBLE_EQ(blocking({5, 0, 0}, {-1, 0, 0}, 2.0), 3.0);
}

TEST(BlockingOracle, OverlappingAndApproachingCollidesNow) {
  EXPECT_EQ(blocking({1, 0, 0}, {-1, 0, 0}, 2.0), 0.0);
}

TEST(BlockingOracle, RestingContactNeverCollides) {
  // The state a gas with c = 0 froze in: a pair overlapping by round-off
  // (5.6e-16) and approaching at a cosine of -3e-17, which a c = 0 impulse
  // cannot change, so the collision repeated at one instant without end.
  const Vec3 touching{std::sqrt(1.0 - 0x1p-51), 0, 0};
  EXPECT_EQ(blocking(touching, {-3e-17, 0.93, 0}, 1.0), kInfinity);
  EXPECT_EQ(blocking({1, 0, 0}, {-3e-17, 0.93, 0}, 1.0), kInfinity);
  // A real approach collides now, however slow.
  EXPECT_EQ(blocking(touching, {-1e-9, 0.93, 0}, 1.0), 0.0);
  EXPECT_EQ(blocking(touching, {-1e-20, 0, 0}, 1.0), 0.0);
}

TEST(BlockingOracle, OverlappingAndRecedingNeverCollides) {
  EXPECT_EQ(blocking({1, 0, 0}, {1, 0, 0}, 2.0), kInfinity);
}

TEST(BlockingOracle, MissingPairNeverCollides) {
  EXPECT_EQ(blocking({5, 3, 0}, {-1, 0, 0}, 2.0), kInfinity);
}

TEST(BlockingOracle, ZeroBlockingDistanceNeverCollides) {
  EXPECT_EQ(blocking({5, 0, 0}, {-1, 0, 0}, 0.0), kInfinity);
  EXPECT_EQ(blocking({1, 0, 0}, {-1, 0, 0}, 0.0), kInfinity);
}

TEST(BlockingOracle, TimesBeyondDtMaxAreNever) {
  EXPECT_EQ(blocking({5, 0, 0}, {-1e-12, 0, 0}, 2.0), kInfinity);
  // Just inside the guard it is reported.
  EXPECT_NEAR(blocking({5, 0, 0}, {-1e-8, 0, 0}, 2.0), 3e8, 1.0);
}

TEST(BlockingOracle, GrazingPassIsACollisionAtContact) {
  // Closest approach exactly the blocking distance: d = 0.
  EXPECT_DOUBLE_EQ(blocking({5, 2, 0}, {-1, 0, 0}, 2.0), 5.0);
}

TEST(TetheringOracle, InsideAndSeparatingExitsAtTheTetherDistance) {
  EXPECT_DOUBLE_EQ(tethering({1, 0, 0}, {1, 0, 0}, 2.0), 1.0);
}

TEST(TetheringOracle, InsideAndApproachingExitsOnTheFarSide) {
  EXPECT_DOUBLE_EQ(tethering({1, 0, 0}, {-1, 0, 0}, 2.0), 3.0);
}

TEST(TetheringOracle, InsideAtRestNeverCollides) {
  EXPECT_EQ(tethering({1, 0, 0}, {0, 0, 0}, 2.0), kInfinity);
}

// Equal velocities never meet, whatever the separation: the engine skips
// the tether pairs of one loaded group on that ground. Signed zeros too:
// the difference of two equal velocities can hold -0.
TEST(TetheringOracle, ZeroRelativeVelocityNeverCollidesAnywhere) {
  for (const Vec3& dv : {Vec3(0, 0, 0), Vec3(-0.0, 0, -0.0), Vec3(-0.0, -0.0, -0.0)}) {
    for (const Vec3& dx : {Vec3(0.5, 0, 0), Vec3(1.2, 0, 0), Vec3(0, 2.0, -1.0), Vec3(-0.3, 0.1, 0), Vec3(0, 0, 0)}) {
      EXPECT_EQ(tethering(dx, dv, 1.2), kInfinity) << dx.transpose() << " / " << dv.transpose();
      EXPECT_EQ(blocking(dx, dv, 0.6), kInfinity) << dx.transpose() << " / " << dv.transpose();
    }
  }
}

TEST(TetheringOracle, TautAndSeparatingCollidesNow) {
  EXPECT_EQ(tethering({3, 0, 0}, {1, 0, 0}, 2.0), 0.0);
}

TEST(TetheringOracle, TautButPartingTooSlowlyNeverCollides) {
  EXPECT_EQ(tethering({3, 0, 0}, {1e-12, 0, 0}, 2.0), kInfinity);
}

TEST(TetheringOracle, OutsideAndEnteringCollidesWhenLeavingAgain) {
  EXPECT_DOUBLE_EQ(tethering({-5, 1, 0}, {1, 0, 0}, 2.0), 5.0 + std::sqrt(3.0));
}

TEST(TetheringOracle, OutsideAndNeverInsideCollidesAtClosestApproach) {
  EXPECT_DOUBLE_EQ(tethering({-5, 3, 0}, {1, 0, 0}, 2.0), 5.0);
}

TEST(TetheringOracle, InfiniteTetherDistanceNeverCollides) {
  EXPECT_EQ(tethering({3, 0, 0}, {1, 0, 0}, kInfinity), kInfinity);
}

TEST(DetectionQuadratic, CoefficientsMatchTheDefinition) {
  const Quadratic q = detection_quadratic({1, 2, 3}, {-1, 0, 2}, 2.0);
  EXPECT_EQ(q.a, 5.0);
  EXPECT_EQ(q.b, 2.0 * (-1.0 + 6.0));
  EXPECT_EQ(q.c, 14.0 - 4.0);
  EXPECT_EQ(q.d, q.b * q.b - 4.0 * q.a * q.c);
}

// The detected time really is a root: the distance at that time equals the
// interaction distance (property over many random approaching pairs).
TEST(DetectionProperty, DetectedTimesAreOnTheContactSphere) {
  int checked = 0;
  for (int i = 0; i < 5000; ++i) {
    const double s = static_cast<double>(i);
    const Vec3 dx(10.0 * std::sin(1.3 * s), 10.0 * std::cos(2.1 * s), 5.0 * std::sin(0.7 * s));
    // Aimed roughly at A, with a miss distance of up to a few diameters.
    const Vec3 dv = -dx.normalized() + 0.4 * Vec3(std::cos(3.7 * s), std::sin(1.9 * s),
                                                  std::cos(0.3 * s + 1.0));
    const double t = blocking(dx, dv, 2.0);
    if (t == kInfinity || t == 0.0) continue;
    EXPECT_NEAR((dx + t * dv).norm(), 2.0, 1e-9);
    ++checked;
  }
  EXPECT_GT(checked, 500);
}

}  // namespace
}  // namespace tethersim::physics
