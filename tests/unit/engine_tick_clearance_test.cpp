// Gravity ticks that skip the sector walk of particles whose clearance
// reaches the next tick (tick_clearance.hpp): the history must be the one
// every tick's full prediction gives, bit for bit, with fewer pair tests.
#include <gtest/gtest.h>

#include <functional>

#include "engine_test_support.hpp"
#include "tethersim/physics/detection.hpp"

namespace tethersim::testing {
namespace {

using physics::time_until_within;

TEST(TimeUntilWithin, ApproachingPairsGetABoundNoLaterThanTheirLine) {
  // Head on from 2 at speed 1: within 1 after 1; the bound is 3/4.
  EXPECT_DOUBLE_EQ(time_until_within(Vec3(2, 0, 0), Vec3(-1, 0, 0), 1.0), 0.75);
  // Off-centre by 0.6 at speed 2: within 1 after 1.1 (x separation 0.8).
  const double off_centre = time_until_within(Vec3(3, 0.6, 0), Vec3(-2, 0, 0), 1.0);
  EXPECT_GT(off_centre, 0.5);
  EXPECT_LE(off_centre, 1.1);
  // Passing by 1.5 apart, closest after 1.5: a bound before that.
  const double passing = time_until_within(Vec3(3, 1.5, 0), Vec3(-2, 0, 0), 1.0);
  EXPECT_GT(passing, 0.5);
  EXPECT_LE(passing, 1.5);
}

TEST(TimeUntilWithin, WithinReachOnlyAFirmRecessionClears) {
  // Just collided: touching and receding along the line of centres.
  EXPECT_EQ(time_until_within(Vec3(0.6, 0, 0), Vec3(1, 0, 0), 0.7), kInfinity);
  // Touching and approaching, or sliding at a right angle (a rounding of
  // dv decides which way it goes): no clearance.
  EXPECT_EQ(time_until_within(Vec3(0.6, 0, 0), Vec3(-1, 0, 0), 0.7), 0.0);
  EXPECT_EQ(time_until_within(Vec3(0.6, 0, 0), Vec3(0, 1, 0), 0.7), 0.0);
  // Equal velocities: no motion at all, so beyond reach it clears and
  // within reach it does not.
  EXPECT_EQ(time_until_within(Vec3(0.9, 0, 0), Vec3::Zero(), 0.7), kInfinity);
  EXPECT_EQ(time_until_within(Vec3(0.65, 0, 0), Vec3::Zero(), 0.7), 0.0);
  // Receding from beyond reach never comes back.
  EXPECT_EQ(time_until_within(Vec3(2, 0, 0), Vec3(0.1, 5, 0), 1.0), kInfinity);
}

// Runs the model to `end` with ticks skipping walks and without, each
// engine taken first through the same `steps` (a partial view's records
// from outside, undone windows); the same bits and counts, walks skipped,
// and (unless few particles skip) fewer pair tests.
using ViewSteps = std::function<void(Simulation&)>;
void expect_same_history_fewer_walks(const std::string& toml, const std::vector<std::string>& overrides,
                                     double end, bool fewer_tests = true, const ViewSteps& steps = {}) {
  Simulation skipping(toml, overrides);
  Simulation walking(toml, overrides);
  ASSERT_TRUE(skipping->tick_clearance_on());
  walking->stop_tick_clearance();
  if (steps) {
    steps(skipping);
    steps(walking);
  }
  expect_same_run(*skipping, *walking, end);
  const engine::EngineStatistics& a = skipping->statistics();
  const engine::EngineStatistics& b = walking->statistics();
  EXPECT_GT(a.walks_skipped, 0u);
  EXPECT_EQ(b.walks_skipped, 0u);
  if (fewer_tests) {
    EXPECT_LT(a.pair_tests, b.pair_tests);
  }
  skipping->check_invariants();
}

TEST(TickClearance, MembraneSheetKeepsItsHistory) {
  // Clamped edges (infinite masses in the grid, and groups loaded to them,
  // which a tick does not move), the projectile (another mass: g dt up to
  // rounding), taut tethers and the landing.
  expect_same_history_fewer_walks(example("membrane-sheet.toml"), {"initial.parameters.size=10"}, 14.0);
}

TEST(TickClearance, SaggingSheetFromItsLandingKeepsItsHistory) {
  // Past the landing every particle moves its own way and the clearances
  // are short; a larger sheet, to t = 12.
  expect_same_history_fewer_walks(example("membrane-sheet.toml"), {"initial.parameters.size=16"}, 12.0);
}

// A gas in a periodic box under gravity, with a second species the
// gravity does not move and tethers that form: pairs with it change their
// relative motion at every tick, and pairs seen through periodic images.
std::string mixed_gravity_box() {
  return "[run]\nend_time = 10.0\nseed = 5\n[physics]\nrestitution_delay = 0.02\n"
         "[domain]\nlo = [0.0, 0.0, 0.0]\nhi = [6.0, 6.0, 6.0]\nboundary = \"periodic\"\n"
         "[[species]]\nname = \"A\"\nmass = 1.0\nradius = 0.3\n"
         "[[species]]\nname = \"B\"\nmass = 2.0\nradius = 0.3\n"
         "[[pair]]\nspecies = [\"A\", \"A\"]\nblocking = 0.6\ntethering = 1.1\nc = 0.8\n"
         "[[pair]]\nspecies = [\"A\", \"B\"]\nblocking = 0.6\nc = 1.0\n"
         "[[pair]]\nspecies = [\"B\", \"B\"]\nblocking = 0.6\nc = 1.0\n"
         "[[attach]]\nspecies = [\"A\", \"A\"]\nmax_partners = { A = 3 }\n"
         "[[external]]\nkind = \"gravity\"\ng = [0.0, 0.1, -0.3]\ninterval = 0.02\nspecies = [\"A\"]\n"
         "[initial]\ngenerator = \"random-gas\"\nparticle = [\n"
         "  { species = \"B\", position = [0.4, 0.4, 0.4], velocity = [0.5, -0.2, 0.1] },\n"
         "  { species = \"B\", position = [1.8, 1.8, 1.8], velocity = [-0.3, 0.4, 0.2] },\n"
         "  { species = \"B\", position = [3.0, 0.9, 2.4], velocity = [0.1, 0.1, -0.6] },\n"
         "  { species = \"B\", position = [0.9, 3.0, 1.2], velocity = [0.0, -0.5, 0.3] },\n"
         "]\n[initial.parameters]\ncount = 150\nspecies = \"A\"\n";
}

TEST(TickClearance, SpeciesTheGravityLeavesAloneKeepTheirHistory) {
  expect_same_history_fewer_walks(mixed_gravity_box(), {}, 8.0);
}

// Particles at rest just above others (in the sectors around, from the
// start) that the gravity does not move: one of
// another species, one held by a loaded edge to an infinite mass (a
// tethering collision at the start, restituted only at t = 2), and two
// falling alone to the floor. Pairs at rest clear until the cap, so a
// falling particle skips its walks unless its partner's motion relative to
// it changes at ticks: then the partner must give no clearance, or be
// walked at every tick, or the fall passes through it.
std::string falls_onto_still_particles() {
  return "[run]\nend_time = 4.0\nseed = 3\n[physics]\nrestitution_delay = 2.0\n"
         "[domain]\nlo = [0.0, 0.0, 0.0]\nhi = [10.0, 10.0, 10.0]\nboundary = \"reflective\"\n"
         "[[species]]\nname = \"A\"\nmass = 1.0\nradius = 0.3\n"
         "[[species]]\nname = \"B\"\nmass = 1.0\nradius = 0.3\n"
         "[[species]]\nname = \"C\"\nmass = inf\nradius = 0.3\n"
         "[pair_defaults]\nc = 1.0\n"
         "[[pair]]\nspecies = [\"A\", \"C\"]\ntethering = 1.2\n"
         "[[external]]\nkind = \"gravity\"\ng = [0.0, 0.0, -1.0]\ninterval = 0.05\nspecies = [\"A\"]\n"
         "[initial]\ntethers = [[0, 1]]\nparticle = [\n"
         "  { id = 0, species = \"C\", position = [5.0, 5.0, 1.0] },\n"
         "  { id = 1, species = \"A\", position = [6.2, 5.0, 1.0], velocity = [0.4, 0.0, 0.0] },\n"
         "  { id = 2, species = \"A\", position = [6.2, 5.0, 1.8] },\n"
         "  { id = 3, species = \"B\", position = [2.0, 2.0, 1.3] },\n"
         "  { id = 4, species = \"A\", position = [2.0, 2.0, 2.2] },\n"
         "  { id = 5, species = \"A\", position = [7.0, 2.0, 5.0] },\n"
         "  { id = 6, species = \"A\", position = [2.0, 7.0, 4.0] },\n"
         "]\n";
}

TEST(TickClearance, FallsOntoParticlesTheTicksLeaveStill) {
  // The held particle is walked at every tick: more pair tests here.
  expect_same_history_fewer_walks(falls_onto_still_particles(), {}, 4.0, false);
  Simulation sim(falls_onto_still_particles());
  sim->run_until(4.0);
  // Both falls end on their particle (and the floor), not through it.
  EXPECT_GE(sim.count(engine::EventKind::blocking), 2u);
}

TEST(TickClearance, OnlyForOneGravityImpulseAndKeptByAPartialView) {
  Simulation gas(kBusyGas);  // no periodic impulse
  EXPECT_FALSE(gas->tick_clearance_on());
  Simulation sheet(example("membrane-sheet.toml"), {"initial.parameters.size=4"});
  EXPECT_TRUE(sheet->tick_clearance_on());
  sheet.view();  // a distributed run's interface: records may come from outside
  EXPECT_TRUE(sheet->tick_clearance_on());
}

// A frozen particle (a partial view's ghost with no events) is not moved by
// the ticks, so a pair with it changes its relative motion at every tick:
// the particle falling onto it must walk, and meet it (which a distributed
// run reports as a synchronization error: a certified window never lets an
// active particle reach a frozen one). Both rest at the start, where their
// pair clears until the cap; freezing the lower one forgets that (without,
// the upper one skips its walks and falls through it), and no walk after
// gives it a clearance (without, the next one would).
std::string rests_above_a_particle() {
  return "[run]\nend_time = 4.0\nseed = 3\n"
         "[domain]\nlo = [0.0, 0.0, 0.0]\nhi = [10.0, 10.0, 10.0]\nboundary = \"reflective\"\n"
         "[[species]]\nname = \"A\"\nmass = 1.0\nradius = 0.3\n"
         "[pair_defaults]\nc = 1.0\n"
         "[[external]]\nkind = \"gravity\"\ng = [0.0, 0.0, -1.0]\ninterval = 0.05\n"
         "[initial]\nparticle = [\n"
         "  { id = 3, species = \"A\", position = [2.0, 2.0, 1.3] },\n"
         "  { id = 4, species = \"A\", position = [2.0, 2.0, 2.2] },\n"
         "  { id = 5, species = \"A\", position = [7.0, 2.0, 5.0] },\n"
         "  { id = 6, species = \"A\", position = [7.0, 7.0, 5.0] },\n"
         "  { id = 7, species = \"A\", position = [2.0, 7.0, 5.0] },\n"
         "]\n";
}

TEST(TickClearance, AFrozenPartnerClearsNothing) {
  auto meeting = [](bool skip) {
    Simulation sim(rests_above_a_particle());
    if (!skip) sim->stop_tick_clearance();
    sim->run_until(0.01);  // after the start's walks, before the first tick
    sim.view().set_active(sim->particles().index_of(3), false);
    try {
      sim->run_until(4.0);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    // Ticks predict their particles together, and may skip walks, from
    // four particles on.
    EXPECT_EQ(sim->statistics().walks_skipped > 0, skip);
    return std::string("no meeting");
  };
  // Gap 0.3 under g = 1 in ticks of 0.05: met at t = 0.8.
  EXPECT_EQ(meeting(false), "synchronization error: particle 4 meets frozen particle 3 at t = 0.800000");
  EXPECT_EQ(meeting(true), meeting(false));
}

// Records placed from outside (a neighbour's particle sent back with a new
// velocity, as a distributed run's exchange does) between ticks.
TEST(TickClearance, RecordsPlacedFromOutsideKeepTheHistory) {
  expect_same_history_fewer_walks(
      example("membrane-sheet.toml"), {"initial.parameters.size=10"}, 10.0, false, [](Simulation& sim) {
        for (double t = 0.13; t < 8.0; t += 0.5) {
          sim->run_until(t);
          for (ParticleId id : {ParticleId{21}, ParticleId{55}, ParticleId{60}}) {
            const engine::Index i = sim->particles().index_of(id);
            engine::ParticleRecord r = sim->record(i);
            r.particle.u0 = sim->position(id, t);
            r.particle.t0 = t;
            r.particle.v += Vec3(0.3, -0.2, 0.4);
            ++r.particle.counter;
            sim.view().upsert(r);
          }
        }
      });
}

// Windows over ticks, each undone once (whole or from a time inside) and
// run again: the undo takes ticks back, and the tick numbers clearances
// are kept against with them.
TEST(TickClearance, WindowsUndoneOverTicksKeepTheHistory) {
  expect_same_history_fewer_walks(
      example("membrane-sheet.toml"), {"initial.parameters.size=10"}, 12.0, false, [](Simulation& sim) {
        sim.view().track_changes(true);
        const engine::SectorMask every_sector = engine::SectorMask::all(sim->grid().shape());
        int k = 0;
        for (double t = 0.0; t < 11.0; t += 0.25, ++k) {
          sim.view().begin_speculation(every_sector);
          sim->run_until(t + 0.25);
          if (k % 2 == 0) {
            sim.view().undo_speculation();
          } else if (!sim.view().undo_speculation_from(t + 0.01)) {
            sim.view().undo_speculation();
          }
          sim.view().begin_speculation(every_sector);
          sim->run_until(t + 0.25);
          sim.view().keep_speculation();
          sim.view().clear_changes();
        }
      });
}

}  // namespace
}  // namespace tethersim::testing
