// Particles predicted together (a tick, a group, the start of a run with
// ticks) share each
// pair's test between its two particles. That must give every particle the
// event a prediction of its own gives, and the same history bit for bit.
#include <gtest/gtest.h>

#include "engine_test_support.hpp"

namespace tethersim::testing {
namespace {

using engine::EventKind;

// Runs the model twice to `end`, with joint prediction and without, and
// expects the same bits and counts, and fewer pair tests with it.
void expect_same_history(const std::string& toml, const std::vector<std::string>& overrides, double end) {
  Simulation joint(toml, overrides);
  Simulation alone(toml, overrides);
  alone->set_joint_prediction(false);
  // Ticks that skip the walk count predictions and stale entries
  // differently (engine_tick_clearance_test.cpp); here every tick walks.
  joint->stop_tick_clearance();
  alone->stop_tick_clearance();
  joint->check_predictions_fresh();  // the start was predicted together
  expect_same_run(*joint, *alone, end);
  const engine::EngineStatistics& a = joint->statistics();
  const engine::EngineStatistics& b = alone->statistics();
  EXPECT_EQ(a.predictions, b.predictions);
  EXPECT_EQ(a.stale_events, b.stale_events);
  EXPECT_LT(a.pair_tests, b.pair_tests);
  joint->check_invariants();
}

// Right after a gravity tick, every particle it moved has as its entry its
// own prediction (those loaded to a clamped particle do not move).
void expect_fresh_after_ticks(const std::string& toml, const std::vector<std::string>& overrides, int ticks,
                              double from = 0.0) {
  Simulation sim(toml, overrides);
  // A tick that skips a walk leaves an entry that differs.
  sim->stop_tick_clearance();
  sim->run_until(from);
  for (int k = 0; k < ticks; ++k) {
    const double t = sim->next_tick_time();
    sim->run_until(t);
    ASSERT_EQ(sim.view().run_ticks_at(t), 1u);
    sim->check_predictions_fresh();
  }
}

TEST(JointPrediction, MembraneSheetUnderGravityKeepsItsHistory) {
  // Ticks, taut tethers colliding at the tick's instant, loaded groups,
  // clamped edges and the projectile's landing.
  expect_same_history(example("membrane-sheet.toml"), {"initial.parameters.size=10"}, 14.0);
}

TEST(JointPrediction, EveryEntryIsItsOwnPredictionAfterATick) {
  expect_fresh_after_ticks(example("membrane-sheet.toml"), {"initial.parameters.size=10"}, 40);
  // Sagged: taut tethers collide at the tick's own instant, so a particle
  // is offered several events at one time and the event order must pick.
  expect_fresh_after_ticks(example("membrane-sheet.toml"), {"initial.parameters.size=10"}, 40, 10.0);
}

// A periodic box three sectors wide: every sector's neighbours on both
// sides along an axis include one seen through the periodic image.
std::string small_periodic_box() {
  return "[run]\nend_time = 10.0\nseed = 9\n"
         "[domain]\nlo = [0.0, 0.0, 0.0]\nhi = [3.6, 3.6, 3.6]\nboundary = \"periodic\"\n"
         "[[species]]\nname = \"A\"\nmass = 1.0\nradius = 0.3\n"
         "[[pair]]\nspecies = [\"A\", \"A\"]\nblocking = 0.6\ntethering = 1.1\nc = 0.8\n"
         "[[attach]]\nspecies = [\"A\", \"A\"]\nmax_partners = { A = 3 }\n"
         "[[external]]\nkind = \"gravity\"\ng = [0.0, 0.1, -0.3]\ninterval = 0.02\n"
         "[initial]\ngenerator = \"random-gas\"\n[initial.parameters]\ncount = 40\nspecies = \"A\"\n";
}

TEST(JointPrediction, PeriodicImagesOfANarrowBoxKeepTheirHistory) {
  Simulation probe(small_periodic_box());
  ASSERT_EQ(probe->grid().shape()[0], 3);  // the case this test is about
  expect_same_history(small_periodic_box(), {}, 6.0);
  expect_fresh_after_ticks(small_periodic_box(), {}, 30);
}

TEST(JointPrediction, ASystemWithoutTicksKeepsNoRingFromItsStart) {
  // Without periodic impulses the start is predicted one particle at a
  // time: the offers' ring (32 bytes a slot, as many slots as particles
  // rounded up for a small system) would stay in the engine for nothing.
  // It did: the gas of 10^4 held 196 bytes per particle instead of 148.
  std::string without_ticks = small_periodic_box();
  const auto tick = without_ticks.find("[[external]]");
  const auto next = without_ticks.find("[initial]");
  ASSERT_NE(tick, std::string::npos);
  without_ticks.erase(tick, next - tick);
  Simulation plain(without_ticks), ticking(small_periodic_box());
  ASSERT_EQ(plain->particles().size(), 40u);
  EXPECT_GE(ticking->memory_bytes(), plain->memory_bytes() + 64 * sizeof(engine::ParticleEvent));
}

TEST(JointPrediction, PresynapticGroupsAndHubsKeepTheirHistory) {
  // No ticks: groups of loaded vesicles and synapsins are predicted
  // together after their collisions; hubs (the membrane) share nothing.
  expect_same_history(example("presynaptic.toml"),
                      {"initial.parameters.vesicles=20", "initial.parameters.synapsin_dimers=60",
                       "initial.parameters.docking_sites=10", "action_potential.windows=[{ start = 20.0, end = 35.0 }]"},
                      200.0);
}

}  // namespace
}  // namespace tethersim::testing
