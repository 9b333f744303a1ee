// An engine rebuilt from a snapshot continues exactly as the original.
#include <gtest/gtest.h>


#include "engine_test_support.hpp"

namespace tethersim::testing {
namespace {

// Runs straight to `end`, and separately to `split`, snapshots, rebuilds a
// fresh engine from the snapshot and runs it to `end`: the states must
// agree bit for bit, and so must their snapshots.
void expect_restart_identical(const std::string& model, const std::vector<std::string>& overrides,
                              double split, double end) {
  Simulation straight(model, overrides);
  straight->run_until(end);
  Simulation first_leg(model, overrides);
  first_leg->run_until(split);
  const engine::EngineSnapshot snap = first_leg->snapshot(split);
  engine::Engine resumed(first_leg.model, snap);
  EXPECT_EQ(resumed.state_hash(), first_leg->state_hash());
  resumed.run_until(end);
  EXPECT_EQ(resumed.state_hash(), straight->state_hash());
  EXPECT_EQ(resumed.statistics().total_events(), straight->statistics().total_events());
  const engine::EngineSnapshot a = straight->snapshot(end), b = resumed.snapshot(end);
  EXPECT_EQ(a.escapes.size(), b.escapes.size());
  EXPECT_EQ(a.releases.size(), b.releases.size());
  EXPECT_EQ(a.loaded_edges.size(), b.loaded_edges.size());
  EXPECT_EQ(a.tethers.size(), b.tethers.size());
  EXPECT_EQ(a.periodic_ticks, b.periodic_ticks);
  resumed.check_invariants();
}

TEST(EngineSnapshot, PresynapticAcrossAnActionPotential) {
  // The split falls inside the action potential [20, 35).
  expect_restart_identical(example("presynaptic.toml"),
                           {"initial.parameters.vesicles=20", "initial.parameters.synapsin_dimers=60",
                            "initial.parameters.docking_sites=10",
                            "action_potential.windows=[{ start = 20.0, end = 35.0 }]"},
                           27.5, 60.0);
}

TEST(EngineSnapshot, SheetWithGravityTicks) {
  expect_restart_identical(example("membrane-sheet.toml"), {"initial.parameters.size=6"}, 2.5, 4.0);
}

TEST(EngineSnapshot, SplitOnAGravityTick) {
  // Ticks every 0.05: the split time is a tick time, which must not be lost
  // or applied twice.
  expect_restart_identical(example("membrane-sheet.toml"), {"initial.parameters.size=6"}, 2.0, 3.0);
}

TEST(EngineSnapshot, SheetWithManySimultaneousGroupEvents) {
  // A sheet falling as one body has many tethering collisions at one
  // instant, in loaded groups: each changes its group's counters before
  // the members are predicted again. Tie keys read from live counters
  // then reordered the heap's simultaneous events, so that a run resumed
  // from a snapshot (a fresh heap) took another order (size 8: apart
  // between t = 6 and 12).
  expect_restart_identical(example("membrane-sheet.toml"), {"initial.parameters.size=8"}, 2.5, 12.0);
}

TEST(EngineSnapshot, PeriodicGasWithLoadedEdgesOpenAtTheSplit) {
  expect_restart_identical(
      "[run]\nend_time = 10.0\n[physics]\nrestitution_delay = 0.05\nrestitution_schedule = \"min\"\n"
      "[domain]\nlo = [0.0, 0.0, 0.0]\nhi = [12.0, 12.0, 12.0]\nboundary = \"periodic\"\n"
      "[[species]]\nname = \"A\"\nmass = 1.0\nradius = 0.5\n"
      "random_impulse = { tau = 0.5, shape = 4.0, mean = 0.5 }\n"
      "[[pair]]\nspecies = [\"A\", \"A\"]\nblocking = 1.0\nc = 0.8\n"
      "[initial]\ngenerator = \"random-gas\"\n[initial.parameters]\ncount = 800\nspecies = \"A\"\n",
      {}, 3.0, 6.0);
}

TEST(EngineSnapshot, NextEventTimeGivesAConsistentStopTime) {
  Simulation sim(example("presynaptic.toml"),
                 {"initial.parameters.vesicles=20", "initial.parameters.synapsin_dimers=60",
                  "initial.parameters.docking_sites=10"});
  sim->run_until(1e9, 12345);  // stopped at an arbitrary event (near t = 115)
  const double t_stop = sim->next_event_time();
  ASSERT_GE(t_stop, sim->time());
  ASSERT_LT(t_stop, 200.0);
  Simulation straight(example("presynaptic.toml"),
                      {"initial.parameters.vesicles=20", "initial.parameters.synapsin_dimers=60",
                       "initial.parameters.docking_sites=10"});
  straight->run_until(200.0);
  engine::Engine resumed(sim.model, sim->snapshot(t_stop));
  resumed.run_until(200.0);
  EXPECT_EQ(resumed.state_hash(), straight->state_hash());
}

}  // namespace
}  // namespace tethersim::testing
