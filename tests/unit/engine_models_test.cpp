// The thesis models (docs/physics.md, "The published models") and the
// boundary kinds, end to end on small instances.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "engine_test_support.hpp"

namespace tethersim::testing {
namespace {

TEST(PresynapticModel, VesiclesClusterAndDock) {
  // 30 vesicles, 90 synapsin dimers, 10 docking sites, no action potential.
  Simulation sim(example("presynaptic.toml"),
                 {"initial.parameters.vesicles=30", "initial.parameters.synapsin_dimers=90",
                  "initial.parameters.docking_sites=10", "action_potential.windows=[]",
                  "run.seed=11"});
  const SpeciesIndex V = *sim.model.find_species("V");
  const SpeciesIndex D = *sim.model.find_species("D");
  EXPECT_EQ(sim->cluster_count(V), 30u);  // every vesicle alone
  EXPECT_EQ(sim->tethered_count(V, D), 0u);
  sim->run_until(150.0);
  const std::size_t clusters_mid = sim->cluster_count(V);
  sim->run_until(400.0);
  const std::size_t clusters_end = sim->cluster_count(V);
  EXPECT_LT(clusters_mid, 30u);
  EXPECT_LT(clusters_end, clusters_mid);
  EXPECT_LE(clusters_end, 15u);
  EXPECT_GT(sim->tethered_count(V, D), 0u);
  EXPECT_EQ(sim->alive_count(), 2u + 10u + 30u + 180u);  // nothing escapes without an AP
  EXPECT_GT(sim->statistics().attachments, 30u);
  EXPECT_EQ(sim->statistics().detachments, 0u);
  // Every vesicle and synapsin stays inside the membrane.
  for (ParticleId id = 2; id < sim.initial.particles.size(); ++id) {
    EXPECT_LE(sim->position(id, 400.0).norm(), 250.0 + 1e-6) << "particle " << id;
  }
  sim->check_invariants();
}

TEST(PresynapticModel, ActionPotentialReleasesDockedVesicles) {
  Simulation sim(example("presynaptic.toml"),
                 {"initial.parameters.vesicles=30", "initial.parameters.synapsin_dimers=90",
                  "initial.parameters.docking_sites=10", "run.seed=11",
                  "action_potential.windows=[{ start = 300.0, end = 330.0 }]"});
  sim->run_until(300.0);
  const SpeciesIndex V = *sim.model.find_species("V");
  const SpeciesIndex D = *sim.model.find_species("D");
  const std::size_t docked = sim->tethered_count(V, D);
  ASSERT_GT(docked, 0u);
  EXPECT_TRUE(sim->releases().empty());
  sim->run_until(400.0);
  EXPECT_GT(sim->releases().size(), 0u);
  EXPECT_GT(sim->statistics().detachments, sim->releases().size());  // S-V and D-V too
  EXPECT_EQ(sim->escapes().size() + sim->alive_count(), 2u + 10u + 30u + 180u);
  for (const auto& escape : sim->escapes()) {
    EXPECT_EQ(escape.species, V);
    EXPECT_GE(escape.time, 300.0);
  }
}

TEST(MembraneModels, SphereDeformsUnderTheProjectileAndLosesEnergy) {
  Simulation sim(example("membrane-sphere.toml"), {"initial.parameters.frequency=7"});
  const double e0 = sim->kinetic_energy();
  sim->run_until(30.0);
  EXPECT_GT(sim->statistics().events[static_cast<int>(engine::EventKind::blocking)], 0u);
  EXPECT_GT(sim->statistics().events[static_cast<int>(engine::EventKind::tethering)], 0u);
  EXPECT_LT(sim->kinetic_energy(), e0);
  // Momentum is conserved: nothing external acts.
  EXPECT_NEAR((sim->momentum() - Vec3(0, 0, -20.0)).norm(), 0.0, 1e-9);
  // Every tether still holds.
  for (const auto& t : sim.initial.tethers) {
    EXPECT_LE((sim->position(t.b, 30.0) - sim->position(t.a, 30.0)).norm(), 1.35 + 1e-9);
  }
  sim->check_invariants();
}

TEST(MembraneModels, ClampedSheetSagsButItsEdgesNeverMove) {
  Simulation sim(example("membrane-sheet.toml"), {"initial.parameters.size=8"});
  const SpeciesIndex C = *sim.model.find_species("C");
  sim->run_until(5.0);
  double lowest = 0.0;
  for (const auto& p : sim.initial.particles) {
    const Vec3 x = sim->position(p.id, 5.0);
    if (p.species == C) {
      EXPECT_EQ(x, p.position) << "clamped particle " << p.id;
    } else {
      lowest = std::min(lowest, x.z());
    }
  }
  EXPECT_LT(lowest, -1.0 - 0.05);  // below the bottom layer's start at -1
  EXPECT_GT(sim->statistics().events[static_cast<int>(engine::EventKind::periodic_impulse)], 90u);
  sim->check_invariants();
}

// Boundaries on a single particle: a 3-D box of edge 10.
std::string box_model(const char* boundary, const Vec3& v, const std::string& extra = "") {
  return std::string("[run]\nend_time = 100.0\n[domain]\nlo = [0.0, 0.0, 0.0]\nhi = [10.0, 10.0, 10.0]\n") +
         "boundary = \"" + boundary + "\"\n" + extra +
         "[[species]]\nname = \"A\"\nmass = 1.0\nradius = 0.5\n"
         "[[pair]]\nspecies = [\"A\", \"A\"]\nblocking = 1.0\nc = 1.0\n[initial]\n" +
         particle(0, "A", Vec3(5, 5, 5), v);
}

TEST(Boundaries, OpenFacesRemoveAndRecordLeavingParticles) {
  Simulation sim(box_model("open", Vec3(1.0, 0.5, 0.0)));
  sim->run_until(20.0);
  ASSERT_EQ(sim->escapes().size(), 1u);
  EXPECT_DOUBLE_EQ(sim->escapes()[0].time, 5.0);
  EXPECT_DOUBLE_EQ(sim->escapes()[0].position.x(), 10.0);
  EXPECT_EQ(sim->alive_count(), 0u);
  sim->check_invariants();
}

TEST(Boundaries, ReflectiveWallsTurnParticlesBack) {
  Simulation sim(box_model("reflective", Vec3(1.0, 0.25, 0.0)));
  sim->run_until(20.0);
  // x: 5 -> 10 at t=5, back to 0 at t=15, then 5 at t=20.
  EXPECT_NEAR(sim->position(0, 20.0).x(), 5.0, 1e-12);
  EXPECT_NEAR(sim->position(0, 20.0).y(), 10.0, 1e-12);  // 5 + 0.25 * 20
  EXPECT_EQ(sim->statistics().events[static_cast<int>(engine::EventKind::wall)], 2u);
  EXPECT_DOUBLE_EQ(sim->kinetic_energy(), 0.5 * (1.0 + 0.0625));
}

TEST(Boundaries, PeriodicFacesWrapManyTimes) {
  Simulation sim(box_model("periodic", Vec3(3.0, -2.0, 0.7)));
  sim->run_until(100.0);
  // Positions stay inside the box while the particle crosses it 30 times.
  const Vec3 x = sim->position(0, 100.0);
  for (int k = 0; k < 3; ++k) {
    EXPECT_GE(x[k], 0.0 - 1e-9);
    EXPECT_LE(x[k], 10.0 + 1e-9);
  }
  const Vec3 unwrapped = Vec3(5, 5, 5) + 100.0 * Vec3(3.0, -2.0, 0.7);
  for (int k = 0; k < 3; ++k) {
    const double folded = unwrapped[k] - 10.0 * std::floor(unwrapped[k] / 10.0);
    EXPECT_NEAR(x[k], folded, 1e-9);
  }
  sim->check_invariants();
}

TEST(Boundaries, EscapeSphereRemovesParticlesThatLeaveIt) {
  Simulation sim(box_model("reflective", Vec3(0.0, 0.0, 1.0),
                           "escape_radius = 3.0\nescape_centre = [5.0, 5.0, 5.0]\n"));
  sim->run_until(10.0);
  ASSERT_EQ(sim->escapes().size(), 1u);
  EXPECT_DOUBLE_EQ(sim->escapes()[0].time, 3.0);
}

// A hub (infinite mass, outside the grid) anchors what is loaded to it:
// two particles loaded to it at once stay separate groups.
TEST(Hubs, LoadingToAHubAnchorsEachPartnerSeparately) {
  const std::string model =
      "[run]\nend_time = 10.0\n[physics]\nrestitution_delay = 1.0\n"
      "[domain]\nlo = [-30.0, -30.0, -30.0]\nhi = [30.0, 30.0, 30.0]\n"
      "[[species]]\nname = \"H\"\nmass = inf\nradius = 10.0\n"
      "[[species]]\nname = \"A\"\nmass = 1.0\nradius = 0.5\n"
      "[[pair]]\nspecies = [\"H\", \"A\"]\nblocking = 10.5\nc = 1.0\n"
      "[[pair]]\nspecies = [\"A\", \"A\"]\nblocking = 1.0\nc = 1.0\n[initial]\n" +
      particle(0, "H", Vec3::Zero()) + particle(1, "A", Vec3(12.5, 0, 0), Vec3(-1, 0, 0)) +
      particle(2, "A", Vec3(-12.5, 0, 0), Vec3(1, 0, 0));
  Simulation sim(model);
  ASSERT_TRUE(sim.model.is_hub_species(0));
  sim->run_until(2.5);  // both loaded to the hub at t = 2, until t = 3
  EXPECT_EQ(sim->loaded_edges().open_count(), 2u);
  EXPECT_EQ(sim.v(1), Vec3::Zero());
  EXPECT_EQ(sim.v(2), Vec3::Zero());
  EXPECT_EQ(sim->statistics().largest_group, 1u);
  sim->run_until(5.0);
  EXPECT_DOUBLE_EQ(sim.v(1).x(), 1.0);  // elastic: each bounces back
  EXPECT_DOUBLE_EQ(sim.v(2).x(), -1.0);
  sim->check_invariants();
}

}  // namespace
}  // namespace tethersim::testing
