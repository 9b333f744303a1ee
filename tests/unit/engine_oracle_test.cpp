// TPS-SPEC section 10 oracles 3-8 end to end through the engine.
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
  std::string model = line_model(0.0, 0.5, /*blocking=*/0.0, /*tethering=*/2.0);
  model += particle(0, "A", 0.0, -1.0) + particle(1, "A", 1.0, 1.0) + "tethers = [[0, 1]]\n";
  // [initial] tethers must sit in the [initial] table: move it before the particles.
  const auto pos = model.find("[[initial.particle]]");
  model.insert(pos, "tethers = [[0, 1]]\n");
  model.erase(model.rfind("tethers = [[0, 1]]\n"));
  Simulation sim(model);
  sim->run_until(0.5);
  EXPECT_EQ(sim->statistics().collisions(), 0u);
  sim->run_until(0.75);
  EXPECT_EQ(sim->statistics().events[static_cast<int>(EventKind::tethering)], 1u);
  EXPECT_DOUBLE_EQ(sim.v(0).x(), 0.5);
  EXPECT_DOUBLE_EQ(sim.v(1).x(), -0.5);
}

}  // namespace
}  // namespace tethersim::testing
