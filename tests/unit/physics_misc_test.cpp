// External impulses and action-potential reaction times.
#include <gtest/gtest.h>

#include <cmath>

#include "tethersim/physics/action_potential.hpp"
#include "tethersim/physics/external_impulse.hpp"

namespace tethersim::physics {
namespace {

TEST(ExternalImpulse, GravityIsMassTimesGTimesInterval) {
  EXPECT_EQ(gravity_impulse(2.0, {0, 0, -9.5}, 0.5), Vec3(0, 0, -9.5));
}

TEST(ExternalImpulse, StokesDragOpposesRelativeMotion) {
  const Vec3 dp = stokes_drag_impulse(0.1, 2.0, {1, 0, 0}, {3, 0, 0}, 0.25);
  EXPECT_NEAR(dp.x(), 6.0 * M_PI * 0.1 * 2.0 * 0.25 * -2.0, 1e-15);
  EXPECT_EQ(dp.y(), 0.0);
  EXPECT_NEAR(stokes_drag_fraction(0.1, 2.0, 0.25, 3.0), 6.0 * M_PI * 0.05 / 3.0, 1e-15);
}

class ActiveZoneGeometry : public ::testing::Test {
 protected:
  // Compartment of radius 250 at the origin, zone radius 150 on the bottom.
  ActiveZone zone{{0, 0, 0}, {0, 0, -200}, 150.0};
};

TEST_F(ActiveZoneGeometry, RimPointsAreTwoZoneRadiiApartInThePlaneOfC) {
  const Vec3 c(30, 40, 100);
  const RimPoints rim = active_zone_rim(zone, c);
  EXPECT_NEAR((rim.a - rim.b).norm(), 300.0, 1e-9);
  EXPECT_NEAR((rim.a - zone.zone_centre).norm(), 150.0, 1e-9);
  // a, b, c, the membrane centre and the zone centre are coplanar.
  const Vec3 normal = (zone.zone_centre - zone.membrane_centre).cross(c - zone.membrane_centre);
  EXPECT_NEAR(normal.normalized().dot(rim.a - zone.membrane_centre), 0.0, 1e-9);
  EXPECT_NEAR(normal.normalized().dot(rim.b - zone.membrane_centre), 0.0, 1e-9);
}

TEST_F(ActiveZoneGeometry, MeanTimeIsTApAtTheZoneAndGrowsWithDistance) {
  EXPECT_NEAR(reaction_mean_time(10.0, 3.0, zone, zone.zone_centre), 10.0, 1e-12);
  const double near = reaction_mean_time(10.0, 3.0, zone, {0, 0, -150});
  const double far = reaction_mean_time(10.0, 3.0, zone, {0, 0, 200});
  EXPECT_GT(near, 10.0);
  EXPECT_GT(far, near);
  // On the axis: both rim points at sqrt(150^2 + 400^2) from (0,0,200).
  EXPECT_NEAR(far, 10.0 * std::pow(2.0 * std::hypot(150.0, 400.0) / 300.0, 3.0), 1e-9);
  // g = 0 makes every position equal.
  EXPECT_NEAR(reaction_mean_time(10.0, 0.0, zone, {0, 0, 200}), 10.0, 1e-12);
}

TEST_F(ActiveZoneGeometry, ReactionTimesFollowTheExponentialAfterTheStart) {
  double sum = 0.0;
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    const double phi = draw_reaction_time(3, static_cast<std::uint64_t>(i), 0, 1, 600.0, 10.0);
    ASSERT_GE(phi, 600.0);
    sum += phi - 600.0;
  }
  EXPECT_NEAR(sum / n, 10.0, 5.0 * 10.0 / std::sqrt(n));
  EXPECT_EQ(draw_reaction_time(3, 5, 0, 1, 600.0, 10.0), draw_reaction_time(3, 5, 0, 1, 600.0, 10.0));
  EXPECT_NE(draw_reaction_time(3, 5, 0, 1, 600.0, 10.0), draw_reaction_time(3, 5, 0, 2, 600.0, 10.0));
  EXPECT_NE(draw_reaction_time(3, 5, 0, 1, 600.0, 10.0), draw_reaction_time(3, 5, 1, 1, 600.0, 10.0));
}

}  // namespace
}  // namespace tethersim::physics
