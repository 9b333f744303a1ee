// docs/physics.md, "Test oracles" 3-8, end to end through the engine.
#include <gtest/gtest.h>

#include "engine_test_support.hpp"

namespace tethersim::testing {
namespace {

using engine::EventKind;

TEST(EngineOracle, HeadOnElasticCollisionExchangesVelocities) {  // oracle 3
  Simulation sim(line_model(0.0, 1.0) + particle(0, "A", 0.0, 1.0) + particle(1, "A", 2.0, 0.0));
  sim->run_until(0.999);
  EXPECT_EQ(sim->statistics().collisions(), 0u);
  sim->run_until(3.0);
  EXPECT_EQ(sim->statistics().collisions(), 1u);
  EXPECT_DOUBLE_EQ(sim.v(0).x(), 0.0);
  EXPECT_DOUBLE_EQ(sim.v(1).x(), 1.0);
  EXPECT_DOUBLE_EQ(sim.x(0, 3.0), 1.0);
  EXPECT_DOUBLE_EQ(sim.x(1, 3.0), 4.0);
}

// Pairs with equal velocities are skipped (they cannot meet); pairs whose
// velocities differ in one component only, and only slightly, must not be.
std::string two_in_a_box(const Vec3& va, const Vec3& vb, const Vec3& xb, bool tethered) {
  return std::string("[model]\ndimensions = 3\n[run]\nend_time = 40.0\n"
                     "[domain]\nlo = [0.0, 0.0, 0.0]\nhi = [10.0, 10.0, 10.0]\nboundary = \"reflective\"\n"
                     "[[species]]\nname = \"A\"\nmass = 1.0\nradius = 0.5\n"
                     "[[pair]]\nspecies = [\"A\", \"A\"]\nblocking = 1.0\ntethering = 1.5\nc = 1.0\n[initial]\n") +
         (tethered ? "tethers = [[0, 1]]\n" : "") + particle(0, "A", Vec3(5, 5, 5), va) + particle(1, "A", xb, vb);
}

TEST(EngineOracle, NearlyEqualVelocitiesStillMeet) {
  // Blocking: the same x and z velocities, y closing at 0.01 over a gap of
  // 0.001: contact at t = 0.1, and the elastic rebound swaps the y parts.
  Simulation blocking(two_in_a_box({0.03, 0.02, 0.01}, {0.03, 0.01, 0.01}, {5, 6.001, 5}, false));
  blocking->run_until(0.2);
  EXPECT_EQ(blocking->statistics().events[static_cast<int>(EventKind::blocking)], 1u);
  EXPECT_DOUBLE_EQ(blocking.v(0).y(), 0.01);
  EXPECT_DOUBLE_EQ(blocking.v(1).y(), 0.02);
  // Tethering: 1.4 apart along z, parting at 0.01: taut at t = 10.
  Simulation tether(two_in_a_box({0.03, 0.02, 0.0}, {0.03, 0.02, 0.01}, {5, 5, 6.4}, true));
  tether->run_until(9.99);
  EXPECT_EQ(tether->statistics().events[static_cast<int>(EventKind::tethering)], 0u);
  tether->run_until(10.01);
  EXPECT_EQ(tether->statistics().events[static_cast<int>(EventKind::tethering)], 1u);
  EXPECT_DOUBLE_EQ(tether.v(0).z(), 0.01);
  EXPECT_DOUBLE_EQ(tether.v(1).z(), 0.0);
}

TEST(EngineOracle, HeadOnWithRestitutionDelayMovesTogetherThenSeparates) {  // oracle 3, dt_r
  Simulation sim(line_model(0.25, 1.0) + particle(0, "A", 0.0, 1.0) + particle(1, "A", 2.0, 0.0));
  sim->run_until(1.2);
  EXPECT_DOUBLE_EQ(sim.v(0).x(), 0.5);
  EXPECT_DOUBLE_EQ(sim.v(1).x(), 0.5);
  EXPECT_EQ(sim->loaded_edges().open_count(), 1u);
  sim->run_until(3.0);
  EXPECT_EQ(sim->loaded_edges().open_count(), 0u);
  EXPECT_DOUBLE_EQ(sim.x(0, 3.0), 1.125);
  EXPECT_DOUBLE_EQ(sim.x(1, 3.0), 3.875);
}

TEST(EngineOracle, HalfElasticCollisionLosesEnergy) {  // oracle 4
  Simulation sim(line_model(0.0, 0.5) + particle(0, "A", 0.0, 1.0) + particle(1, "A", 2.0, 0.0));
  EXPECT_DOUBLE_EQ(sim->kinetic_energy(), 0.5);
  sim->run_until(2.0);
  EXPECT_DOUBLE_EQ(sim.v(0).x(), 0.25);
  EXPECT_DOUBLE_EQ(sim.v(1).x(), 0.75);
  EXPECT_DOUBLE_EQ(sim->kinetic_energy(), 0.3125);
}

TEST(EngineOracle, WallOfInfiniteMassWithRestitutionDelay) {  // oracle 5
  const std::string model =
      "[model]\ndimensions = 1\n[run]\nend_time = 10.0\n[physics]\nrestitution_delay = 0.5\n"
      "[domain]\nlo = [-20.0]\nhi = [20.0]\n"
      "[[species]]\nname = \"W\"\nmass = inf\nradius = 0.5\n"
      "[[species]]\nname = \"X\"\nmass = 1.0\nradius = 0.5\n"
      "[[pair]]\nspecies = [\"W\", \"X\"]\nblocking = 1.0\nc = 0.5\n"
      "[[pair]]\nspecies = [\"X\", \"X\"]\nblocking = 1.0\nc = 0.5\n[initial]\n" +
      particle(0, "W", 0.0, 0.0) + particle(1, "X", 3.0, -2.0);
  Simulation sim(model);
  sim->run_until(1.25);
  EXPECT_DOUBLE_EQ(sim.x(1, 1.25), 1.0);  // at rest, loaded to the wall
  EXPECT_DOUBLE_EQ(sim.v(1).x(), 0.0);
  sim->run_until(5.0);
  EXPECT_DOUBLE_EQ(sim.v(1).x(), 1.0);
  EXPECT_DOUBLE_EQ(sim.x(1, 5.0), 4.5);
  EXPECT_DOUBLE_EQ(sim.x(0, 5.0), 0.0);
}

TEST(EngineOracle, TetheredPairRetractsAtTheTetherDistance) {  // oracle 6
  Simulation sim(line_model(0.0, 0.5, /*blocking=*/0.0, /*tethering=*/2.0, "tethers = [[0, 1]]") +
                 particle(0, "A", 0.0, -1.0) + particle(1, "A", 1.0, 1.0));
  sim->run_until(0.5);
  EXPECT_EQ(sim->statistics().collisions(), 0u);
  sim->run_until(0.75);
  EXPECT_EQ(sim.count(EventKind::tethering), 1u);
  EXPECT_DOUBLE_EQ(sim.v(0).x(), 0.5);
  EXPECT_DOUBLE_EQ(sim.v(1).x(), -0.5);
}

// Oracle 7: a tethered pair leaving at 30 degrees from the tangent plane
// retracts with c_retract = 0.4 and revolves with 0.3 (theta_rev = pi/16).
std::string thirty_degree_exit(double c_retract) {
  const double angle = M_PI / 6;
  const Vec3 v(std::sin(angle), std::cos(angle), 0.0);
  // B leaves the tether sphere (radius 2) at (2, 0, 0) at t = 1.
  return "[run]\nend_time = 2.0\n[physics]\ntheta_revolve = \"pi/16\"\n"
         "[domain]\nlo = [-10.0, -10.0, -10.0]\nhi = [10.0, 10.0, 10.0]\n"
         "[[species]]\nname = \"A\"\nmass = 1.0\n"
         "[[pair]]\nspecies = [\"A\", \"A\"]\nblocking = 0.0\ntethering = 2.0\nc_retract = " +
         num(c_retract) + "\nc_revolve = 0.5\n[initial]\ntethers = [[0, 1]]\n" +
         particle(0, "A", Vec3::Zero()) + particle(1, "A", Vec3(2, 0, 0) - v, v);
}

TEST(EngineOracle, ThirtyDegreesRetractsWithFourTenths) {
  Simulation sim(thirty_degree_exit(0.4));
  sim->run_until(1.0 + 1e-9);
  EXPECT_EQ(sim.count(EventKind::tethering), 1u);
  EXPECT_EQ(sim.responses(physics::CollisionResponse::retract), 1u);
  EXPECT_EQ(sim.responses(physics::CollisionResponse::revolve), 0u);
}

TEST(EngineOracle, ThirtyDegreesRevolvesWithThreeTenths) {
  Simulation sim(thirty_degree_exit(0.3));
  sim->run_until(1.0 + 1e-9);
  EXPECT_EQ(sim.count(EventKind::tethering), 1u);
  EXPECT_EQ(sim.responses(physics::CollisionResponse::revolve), 1u);
  // The pair now approaches at exactly theta_rev.
  const Vec3 dx = sim->position(1, 1.0) - sim->position(0, 1.0);
  const Vec3 dv = sim.v(1) - sim.v(0);
  const Vec3 unit = dx.normalized();
  const double normal = dv.dot(unit);
  EXPECT_NEAR(std::atan2(-normal, (dv - normal * unit).norm()), M_PI / 16, 1e-12);
}

// Oracle 8: heavy A (1000) moving at light B (1) with heavy C (1000) beyond.
std::string three_in_a_line(double restitution_delay, double c) {
  return "[model]\ndimensions = 1\n[run]\nend_time = 100.0\n[physics]\nrestitution_delay = " +
         num(restitution_delay) +
         "\n[domain]\nlo = [-1000.0]\nhi = [1000.0]\n"
         "[[species]]\nname = \"H\"\nmass = 1000.0\nradius = 0.5\n"
         "[[species]]\nname = \"L\"\nmass = 1.0\nradius = 0.5\n"
         "[pair_defaults]\nc = " + num(c) + "\n[initial]\n" +
         particle(0, "H", 0.0, 1.0) + particle(1, "L", 1.01, 0.0) + particle(2, "H", 2.02, 0.0);
}

// The TPS paper (docs/physics.md, "Test oracles", 8): "roughly 70 elastic
// collisions" and "only four" with loading.
// For this configuration (gaps 0.01, A at speed 1) the sequence of elastic
// collisions computed in exact rational arithmetic has exactly 70 collisions
// (the bound is ceil(pi / acos(1000/1001)) = 71) and ends with
// vA = -0.000461285096..., vB = 0.722243048177..., vC = 0.999739042048....
TEST(EngineOracle, ThreeInALineTakesSeventyElasticCollisions) {
  Simulation sim(three_in_a_line(0.0, 1.0));
  ASSERT_TRUE(sim->run_until(100.0, 100000));
  EXPECT_EQ(sim->statistics().collisions(), 70u);
  EXPECT_EQ(sim.count(EventKind::blocking), 70u);
  EXPECT_EQ(sim->statistics().loadings, 0u);
  EXPECT_NEAR(sim.v(0).x(), -0.00046128509636072005, 1e-10);
  EXPECT_NEAR(sim.v(1).x(), 0.7222430481773334, 1e-10);
  EXPECT_NEAR(sim.v(2).x(), 0.9997390420481834, 1e-10);
  // All three part: momentum 1000 and energy 500 conserved.
  EXPECT_NEAR(sim->momentum().x(), 1000.0, 1e-9);
  EXPECT_NEAR(sim->kinetic_energy(), 500.0, 1e-9);
  EXPECT_LE(sim.v(0).x(), sim.v(1).x());
  EXPECT_LE(sim.v(1).x(), sim.v(2).x());
}

// With loading (docs/physics.md, "Loading and restitution", either schedule)
// the four collisions are: A-B (loads, restitutes before C is reached), B-C
// (loads), A onto the loaded B-C group (both edges restitute, last loaded
// first), and A-B again; the outcome is that of an elastic collision of A
// (1000) with B+C (1001): vA = -1/2001, vB = vC = 2000/2001. The schedules
// differ in when the last restitution happens (t = 0.025190011703... for max,
// 0.027834738092... for min, each Delta t_r after the fourth collision).
TEST(EngineOracle, ThreeInALineTakesFourCollisionsWithLoading) {
  for (const char* schedule : {"max", "min"}) {
    Simulation sim(three_in_a_line(1.0 / 256, 1.0),
                   {std::string("physics.restitution_schedule=\"") + schedule + "\""});
    while (sim.count(EventKind::restitution) < 4 && !sim->run_until(100.0, 1)) {
    }
    const double last_restitution =
        std::string(schedule) == "max" ? 0.025190011703144506 : 0.027834738092172438;
    EXPECT_NEAR(sim->time(), last_restitution, 1e-12) << schedule;
    ASSERT_TRUE(sim->run_until(100.0, 100000)) << schedule;
    EXPECT_EQ(sim->statistics().collisions(), 4u) << schedule;
    EXPECT_EQ(sim.count(EventKind::blocking), 4u) << schedule;
    EXPECT_EQ(sim->statistics().loadings, 4u) << schedule;
    EXPECT_EQ(sim.count(EventKind::restitution), 4u) << schedule;
    EXPECT_EQ(sim->loaded_edges().open_count(), 0u) << schedule;
    EXPECT_NEAR(sim.v(0).x(), -1.0 / 2001, 1e-12) << schedule;
    EXPECT_NEAR(sim.v(1).x(), 2000.0 / 2001, 1e-12) << schedule;
    EXPECT_NEAR(sim.v(2).x(), 2000.0 / 2001, 1e-12) << schedule;
    EXPECT_NEAR(sim->momentum().x(), 1000.0, 1e-9) << schedule;
    EXPECT_NEAR(sim->kinetic_energy(), 500.0, 1e-9) << schedule;
  }
}

TEST(EngineOracle, InelasticThreeInALineStallsWithoutLoadingButNotWith) {
  Simulation instant(three_in_a_line(0.0, 0.9));
  const bool finished = instant->run_until(100.0, 200000);
  // Without loading the light particle rattles ever faster between the
  // heavy ones: the events pile up at one instant.
  EXPECT_FALSE(finished);
  EXPECT_GT(instant->statistics().collisions(), 100000u);
  // With loading the same four collisions as in the elastic case (the
  // sequence computed in exact arithmetic from docs/physics.md, "Loading and
  // restitution").
  Simulation loaded(three_in_a_line(1.0 / 256, 0.9));
  ASSERT_TRUE(loaded->run_until(100.0, 200000));
  EXPECT_EQ(loaded->statistics().collisions(), 4u);
  EXPECT_EQ(loaded->loaded_edges().open_count(), 0u);
  EXPECT_NEAR(loaded.v(0).x(), 0.04969606655213852, 1e-12);
  EXPECT_NEAR(loaded.v(1).x(), 0.7786960665521385, 1e-12);
  EXPECT_NEAR(loaded.v(2).x(), 0.9495252373813093, 1e-12);
  EXPECT_NEAR(loaded->momentum().x(), 1000.0, 1e-9);
  EXPECT_LT(loaded->kinetic_energy(), 500.0);
}

}  // namespace
}  // namespace tethersim::testing
