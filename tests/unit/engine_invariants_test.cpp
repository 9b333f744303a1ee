// Conservation laws and bit-for-bit reproducibility of the engine
// (TPS-SPEC oracle 9, DESIGN.md section 2).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>

#include "engine_test_support.hpp"

namespace tethersim::testing {
namespace {

// A periodic gas of N random non-overlapping particles of two masses.
std::string random_gas(int count, double box, double c, double restitution_delay,
                       const std::string& extra_physics = "", bool random_impulses = false) {
  return "[run]\nend_time = 100.0\nseed = 7\n[physics]\nrestitution_delay = " +
         num(restitution_delay) + "\n" + extra_physics +
         "[domain]\nlo = [0.0, 0.0, 0.0]\nhi = " + vec(Vec3::Constant(box)) +
         "\nboundary = \"periodic\"\n"
         "[[species]]\nname = \"A\"\nmass = 1.0\nradius = 0.5\n" +
         (random_impulses ? "random_impulse = { tau = 0.5, shape = 4.0, mean = 0.5 }\n" : "") +
         "[[pair]]\nspecies = [\"A\", \"A\"]\nblocking = 1.0\nc = " + num(c) +
         "\n[initial]\ngenerator = \"random-gas\"\n[initial.parameters]\ncount = " +
         std::to_string(count) + "\nspecies = \"A\"\ntemperature = 1.0\n";
}

double momentum_scale(const engine::Engine& e) {
  double scale = 0.0;
  for (const auto& s : e.particles().state) scale += s.v.norm();
  return scale;
}

TEST(EngineInvariants, RandomSystemConservesMomentumAndElasticEnergy) {
  Simulation sim(random_gas(5000, 30.0, 1.0, 0.0));
  const Vec3 p0 = sim->momentum();
  const double e0 = sim->kinetic_energy();
  const double scale = momentum_scale(*sim);
  ASSERT_FALSE(sim->run_until(1e9, 200000));
  EXPECT_LE((sim->momentum() - p0).norm(), 1e-12 * scale);
  EXPECT_NEAR(sim->kinetic_energy(), e0, 1e-11 * e0);
  EXPECT_GT(sim->statistics().collisions(), 50000u);
  sim->check_invariants();
}

TEST(EngineInvariants, EnergySampledWithNoOpenEdgeNeverIncreases) {
  for (const char* schedule : {"max", "min"}) {
    // Dilute enough that moments with no open edge are common.
    Simulation sim(random_gas(1000, 40.0, 0.6, 0.01,
                              std::string("restitution_schedule = \"") + schedule + "\"\n"));
    const double e0 = sim->kinetic_energy();
    const Vec3 p0 = sim->momentum();
    const double scale = momentum_scale(*sim);
    double last = sim->kinetic_energy();
    int samples = 0;
    for (int step = 0; step < 60000; ++step) {
      sim->run_until(1e9, 1);
      if (sim->loaded_edges().open_count() != 0) continue;
      const double e = sim->kinetic_energy();
      ASSERT_LE(e, last * (1.0 + 1e-12)) << schedule << " schedule, step " << step;
      last = e;
      ++samples;
    }
    EXPECT_GT(samples, 1000) << schedule;
    EXPECT_GT(sim->statistics().loadings, 1000u) << schedule;
    EXPECT_LT(last, 0.9 * e0) << schedule;  // the inelastic gas did cool
    EXPECT_LE((sim->momentum() - p0).norm(), 1e-12 * scale) << schedule;
    sim->check_invariants();
  }
}

TEST(EngineInvariants, GroupCapResolvesBigLoadingsInstantly) {
  Simulation sim(random_gas(2000, 20.0, 0.3, 0.2, "max_group_size = 3\n"));
  sim->run_until(1e9, 50000);
  EXPECT_LE(sim->statistics().largest_group, 3u);
  EXPECT_GT(sim->statistics().capped_loadings, 0u);
  sim->check_invariants();
}

// The small presynaptic terminal: random impulses, loading, tethering
// rules, hubs, an action potential and escapes all at once.
std::string small_terminal(int seed = 3, double sector_size = 0.0) {
  std::string text;
  std::ifstream in(std::string(TETHERSIM_SOURCE_DIR) + "/examples/presynaptic.toml");
  text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  (void)seed;
  (void)sector_size;
  return text;
}

std::vector<std::string> small_terminal_overrides(int seed, double sector_size = 0.0) {
  std::vector<std::string> o = {"run.seed=" + std::to_string(seed),
                                "initial.parameters.vesicles=20",
                                "initial.parameters.synapsin_dimers=60",
                                "initial.parameters.docking_sites=10",
                                "action_potential.windows=[{ start = 20.0, end = 35.0 }]"};
  if (sector_size > 0) o.push_back("domain.sector_size=" + num(sector_size));
  return o;
}

TEST(EngineReproducibility, StoppingAndContinuingChangesNothing) {
  Simulation straight(small_terminal(), small_terminal_overrides(3));
  straight->run_until(60.0);
  Simulation halves(small_terminal(), small_terminal_overrides(3));
  halves->run_until(30.0);
  halves->run_until(60.0);
  Simulation chunks(small_terminal(), small_terminal_overrides(3));
  while (!chunks->run_until(60.0, 777)) {
  }
  EXPECT_EQ(halves->state_hash(), straight->state_hash());
  EXPECT_EQ(chunks->state_hash(), straight->state_hash());
  EXPECT_EQ(chunks->statistics().total_events(), straight->statistics().total_events());
  EXPECT_GT(straight->statistics().attachments, 0u);
  EXPECT_GT(straight->statistics().loadings, 0u);
  straight->check_invariants();
}

TEST(EngineReproducibility, SameSeedSameBitsOtherSeedOtherTrajectory) {
  Simulation a(small_terminal(), small_terminal_overrides(3));
  Simulation b(small_terminal(), small_terminal_overrides(3));
  Simulation c(small_terminal(), small_terminal_overrides(4));
  a->run_until(40.0);
  b->run_until(40.0);
  c->run_until(40.0);
  EXPECT_EQ(a->state_hash(), b->state_hash());
  EXPECT_NE(a->state_hash(), c->state_hash());
  EXPECT_NE(a->position(50, 40.0), c->position(50, 40.0));
}

// Sectors only find candidates: any sector size at least the minimum must
// give the same bits (a pair missed by the neighbour search would not).
TEST(EngineReproducibility, SectorSizeDoesNotChangeTheTrajectory) {
  Simulation small(small_terminal(), small_terminal_overrides(5, 40.0));
  Simulation large(small_terminal(), small_terminal_overrides(5, 93.0));
  small->run_until(50.0);
  large->run_until(50.0);
  EXPECT_EQ(small->state_hash(), large->state_hash());
  EXPECT_NE(small->statistics().events[static_cast<int>(engine::EventKind::sector_crossing)],
            large->statistics().events[static_cast<int>(engine::EventKind::sector_crossing)]);
}

TEST(EngineReproducibility, SectorSizeDoesNotChangeAPeriodicGas) {
  const std::string text = random_gas(1500, 16.0, 0.8, 0.02, "", /*random_impulses=*/true);
  Simulation small(text, {"domain.sector_size=1.0"});
  Simulation large(text, {"domain.sector_size=2.7"});
  small->run_until(8.0);
  large->run_until(8.0);
  EXPECT_EQ(small->state_hash(), large->state_hash());
  EXPECT_GT(small->statistics().collisions(), 10000u);
}

}  // namespace
}  // namespace tethersim::testing
