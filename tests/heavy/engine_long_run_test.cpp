// Long runs: invariants over a million events on thousands of particles
// (docs/physics.md, "Test oracles", 9). Release builds only (label "heavy").
#include <gtest/gtest.h>

#include "../unit/engine_test_support.hpp"

namespace tethersim::testing {
namespace {

std::string gas(int count, double box, double c, double restitution_delay) {
  return "[run]\nend_time = 1e9\nseed = 19\n[physics]\nrestitution_delay = " +
         num(restitution_delay) + "\n[domain]\nlo = [0.0, 0.0, 0.0]\nhi = " +
         vec(Vec3::Constant(box)) + "\nboundary = \"periodic\"\n"
         "[[species]]\nname = \"A\"\nmass = 1.0\nradius = 0.5\n"
         "[[pair]]\nspecies = [\"A\", \"A\"]\nblocking = 1.0\nc = " + num(c) +
         "\n[initial]\ngenerator = \"random-gas\"\n[initial.parameters]\ncount = " +
         std::to_string(count) + "\nspecies = \"A\"\ntemperature = 1.0\n";
}

double momentum_scale(const engine::Engine& e) {
  double scale = 0.0;
  for (const auto& s : e.particles().state) scale += s.v.norm();
  return scale;
}

TEST(LongRun, ElasticGasConservesEnergyOverAMillionEvents) {
  Simulation sim(gas(5000, 25.0, 1.0, 0.0));
  const double e0 = sim->kinetic_energy();
  const Vec3 p0 = sim->momentum();
  const double scale = momentum_scale(*sim);
  sim->run_until(1e9, 1000000);
  EXPECT_EQ(sim->statistics().total_events(), 1000000u);
  EXPECT_NEAR(sim->kinetic_energy(), e0, 1e-9 * e0);
  EXPECT_LE((sim->momentum() - p0).norm(), 1e-12 * scale);
  sim->check_invariants();
}

TEST(LongRun, InelasticLoadedGasNeverGainsEnergy) {
  Simulation sim(gas(5000, 50.0, 0.7, 0.005));
  const Vec3 p0 = sim->momentum();
  const double scale = momentum_scale(*sim);
  double last = sim->kinetic_energy();
  std::size_t samples = 0;
  for (int step = 0; step < 400000; ++step) {
    sim->run_until(1e9, 1);
    if (sim->loaded_edges().open_count() != 0) continue;
    const double e = sim->kinetic_energy();
    ASSERT_LE(e, last * (1.0 + 1e-12)) << "step " << step;
    last = e;
    ++samples;
  }
  EXPECT_GT(samples, 1000u);
  EXPECT_GT(sim->statistics().loadings, 10000u);
  EXPECT_LE((sim->momentum() - p0).norm(), 1e-12 * scale);
  sim->check_invariants();
}

}  // namespace
}  // namespace tethersim::testing
