// docs/physics.md, "Test oracles", 11: the attach rules of the presynaptic
// model, end to end (with wide distances so each case is a single clean
// collision), and detachment by action-potential reactions.
#include <gtest/gtest.h>

#include "engine_test_support.hpp"

namespace tethersim::testing {
namespace {

using physics::CollisionResponse;

// S synapsin halves, V vesicles, D docking sites; the presynaptic rules.
std::string rules_model(const std::string& initial) {
  return "[run]\nend_time = 10.0\n[domain]\nlo = [-50.0, -50.0, -50.0]\nhi = [50.0, 50.0, 50.0]\n"
         "[[species]]\nname = \"S\"\nmass = 1.0\n"
         "[[species]]\nname = \"V\"\nmass = 1.0\n"
         "[[species]]\nname = \"D\"\nmass = 1.0\n"
         "[pair_defaults]\nc = 1.0\n"
         "[[pair]]\nspecies = [\"S\", \"S\"]\nblocking = 0.5\ntethering = 3.0\npermanent = true\n"
         "[[pair]]\nspecies = [\"S\", \"V\"]\nblocking = 1.0\ntethering = 10.0\n"
         "[[pair]]\nspecies = [\"V\", \"V\"]\nblocking = 1.0\n"
         "[[pair]]\nspecies = [\"V\", \"D\"]\nblocking = 1.0\ntethering = 10.0\n"
         "[[pair]]\nspecies = [\"D\", \"D\"]\nblocking = 1.0\n"
         "[[pair]]\nspecies = [\"S\", \"D\"]\nblocking = 0.0\n"
         "[[attach]]\nspecies = [\"S\", \"V\"]\nmax_partners = { S = 1 }\nexclusive_dimer = \"S\"\n"
         "[[attach]]\nspecies = [\"D\", \"V\"]\nmax_partners = { D = 1, V = 1 }\n"
         "[initial]\n" + initial;
}

// The dimer S1 (0) - S2 (1) with S1 tethered to V1 (2).
std::string dimer_with_vesicle() {
  return particle(0, "S", Vec3(0, 0, 0)) + particle(1, "S", Vec3(2, 0, 0)) +
         particle(2, "V", Vec3(-5, 0, 0));
}
const char* kDimerTethers = "tethers = [[0, 1], [0, 2]]\n";

// Every case is a head-on elastic blocking collision at t = 4 between the
// incoming particle (speed 1 along -y) and a particle at rest: attached or not,
// the pair rebounds (docs/physics.md, "Tethers forming and breaking"), so the
// incoming particle stops and the struck one leaves at (0, -1, 0).
void expect_rebounded(const Simulation& sim, ParticleId incoming, ParticleId struck) {
  const Vec3 vi = sim.v(incoming), vs = sim.v(struck);
  EXPECT_DOUBLE_EQ(vi.x(), 0.0);
  EXPECT_DOUBLE_EQ(vi.y(), 0.0);
  EXPECT_DOUBLE_EQ(vi.z(), 0.0);
  EXPECT_DOUBLE_EQ(vs.x(), 0.0);
  EXPECT_DOUBLE_EQ(vs.y(), -1.0);
  EXPECT_DOUBLE_EQ(vs.z(), 0.0);
  EXPECT_EQ(sim.count(engine::EventKind::blocking), 1u);
  EXPECT_EQ(sim.responses(CollisionResponse::rebound), 1u);
  // Positions at t = 4.5: the incoming particle stopped at contact
  // (blocking distance 1 above the struck one's start), which moved 0.5.
  const Vec3 xi = sim.engine->position(incoming, 4.5), xs = sim.engine->position(struck, 4.5);
  EXPECT_DOUBLE_EQ(xi.y() - xs.y(), 1.5);
}

TEST(AttachRules, DimerPartnerMayNotBindTheSameVesicle) {
  // V1 comes down onto S2, clear of S1.
  std::string initial = kDimerTethers;
  initial += particle(0, "S", Vec3(0, 0, 0)) + particle(1, "S", Vec3(2, 0, 0)) +
             particle(2, "V", Vec3(2, 5, 0), Vec3(0, -1, 0));
  Simulation sim(rules_model(initial));
  sim->run_until(4.5);
  expect_rebounded(sim, 2, 1);
  EXPECT_FALSE(sim->tethered(1, 2));
  EXPECT_TRUE(sim->tethered(0, 2));
  EXPECT_EQ(sim->statistics().attachments, 0u);
}

TEST(AttachRules, ASynapsinHalfHoldsOneVesicle) {
  std::string initial = kDimerTethers;
  initial += dimer_with_vesicle() + particle(3, "V", Vec3(0, 5, 0), Vec3(0, -1, 0));
  Simulation sim(rules_model(initial));
  sim->run_until(4.5);
  expect_rebounded(sim, 3, 0);
  EXPECT_FALSE(sim->tethered(0, 3));
  EXPECT_EQ(sim->statistics().attachments, 0u);
}

TEST(AttachRules, TheFreeHalfBindsAnotherVesicle) {
  std::string initial = kDimerTethers;
  initial += dimer_with_vesicle() + particle(3, "V", Vec3(2, 5, 0), Vec3(0, -1, 0));
  Simulation sim(rules_model(initial));
  sim->run_until(4.5);
  EXPECT_TRUE(sim->tethered(1, 3));
  EXPECT_EQ(sim->statistics().attachments, 1u);
  // The attaching collision is an ordinary rebound.
  expect_rebounded(sim, 3, 1);
  EXPECT_EQ(sim.count(engine::EventKind::tethering), 0u);
  // The new tether holds: V2 rebounds, then is pulled back at distance 10.
  sim->run_until(10.0);
  EXPECT_TRUE(sim->tethered(1, 3));
  EXPECT_GE(sim.count(engine::EventKind::tethering), 1u);
  EXPECT_LE((sim->position(3, 10.0) - sim->position(1, 10.0)).norm(), 10.0 + 1e-9);
}

TEST(AttachRules, ADockedVesicleTakesNoSecondDockingSite) {
  // V (0) tethered to D2 (1); D1 (2) comes onto V.
  std::string initial = "tethers = [[0, 1]]\n";
  initial += particle(0, "V", Vec3(0, 0, 0)) + particle(1, "D", Vec3(-5, 0, 0)) +
             particle(2, "D", Vec3(0, 5, 0), Vec3(0, -1, 0));
  Simulation sim(rules_model(initial));
  sim->run_until(4.5);
  expect_rebounded(sim, 2, 0);
  EXPECT_FALSE(sim->tethered(0, 2));
  EXPECT_EQ(sim->statistics().attachments, 0u);
}

TEST(AttachRules, AFreeVesicleAndDockingSitePairUp) {
  Simulation sim(rules_model(particle(0, "V", Vec3(0, 0, 0)) +
                             particle(1, "D", Vec3(0, 5, 0), Vec3(0, -1, 0))));
  sim->run_until(4.5);
  EXPECT_TRUE(sim->tethered(0, 1));
  EXPECT_EQ(sim->statistics().attachments, 1u);
  expect_rebounded(sim, 1, 0);
}

// Attaching with a restitution delay and c = 0.5: the attaching collision loads
// like any blocking collision (docs/physics.md, "Loading and restitution" and
// "Tethers forming and breaking"). The pair moves together at (0, -0.5, 0) for
// dt_r = 0.25, then restitutes with the impulse of c_rebound = 0.5: the
// incoming V keeps (0, -0.25, 0) and the struck S2 leaves at (0, -0.75, 0)
// (oracle 4), and the tether stays.
TEST(AttachRules, AttachingCollisionLoadsAndRestitutesLikeAnyOther) {
  std::string initial = kDimerTethers;
  initial += dimer_with_vesicle() + particle(3, "V", Vec3(2, 5, 0), Vec3(0, -1, 0));
  Simulation sim(rules_model(initial), {"physics.restitution_delay=0.25", "pair_defaults.c=0.5"});
  sim->run_until(4.2);
  EXPECT_TRUE(sim->tethered(1, 3));
  EXPECT_EQ(sim->statistics().attachments, 1u);
  EXPECT_EQ(sim->statistics().loadings, 1u);
  EXPECT_EQ(sim->loaded_edges().open_count(), 1u);
  for (ParticleId id : {1u, 3u}) {
    EXPECT_DOUBLE_EQ(sim.v(id).x(), 0.0) << id;
    EXPECT_DOUBLE_EQ(sim.v(id).y(), -0.5) << id;
    EXPECT_DOUBLE_EQ(sim.v(id).z(), 0.0) << id;
  }
  EXPECT_EQ(sim.v(0), Vec3::Zero());  // the dimer partner is not part of the collision
  EXPECT_EQ(sim.v(2), Vec3::Zero());
  sim->run_until(4.5);
  EXPECT_EQ(sim->loaded_edges().open_count(), 0u);
  EXPECT_EQ(sim.count(engine::EventKind::restitution), 1u);
  EXPECT_DOUBLE_EQ(sim.v(3).y(), -0.25);
  EXPECT_DOUBLE_EQ(sim.v(1).y(), -0.75);
  EXPECT_DOUBLE_EQ(sim.v(3).x(), 0.0);
  EXPECT_DOUBLE_EQ(sim.v(1).x(), 0.0);
  EXPECT_DOUBLE_EQ(sim->position(3, 4.5).y(), 0.8125);
  EXPECT_DOUBLE_EQ(sim->position(1, 4.5).y(), -0.3125);
  EXPECT_TRUE(sim->tethered(1, 3));
  EXPECT_DOUBLE_EQ(sim->kinetic_energy(), 0.3125);  // 0.5 -> 0.3125 as in oracle 4
}

TEST(AttachRules, VesiclesNeverTetherToEachOther) {
  Simulation sim(rules_model(particle(0, "V", Vec3(0, 0, 0)) +
                             particle(1, "V", Vec3(0, 5, 0), Vec3(0, -1, 0))));
  sim->run_until(4.5);
  expect_rebounded(sim, 1, 0);
  EXPECT_FALSE(sim->tethered(0, 1));
}

// A docked vesicle near the active zone fuses during an action potential:
// it detaches from the membrane at its next V-M tethering collision, lets
// go of its docking site, leaves the compartment and is counted.
std::string exocytosis_model(double vm_mean_time, double window_start) {
  // D on the membrane below the centre (radius 247.5). V beside it at radius
  // 227, moving straight out: it reaches the V-M tether distance 230 at
  // t = 3, where it is 27 from D (inside the V-D tether 30, outside the
  // blocking distance 25 all the way).
  const double r_d = 247.5, r_hit = 230.0, gap = 27.0;
  const double cos_phi = (r_hit * r_hit + r_d * r_d - gap * gap) / (2 * r_hit * r_d);
  const Vec3 direction(std::sqrt(1 - cos_phi * cos_phi), 0.0, -cos_phi);
  return "[run]\nend_time = 60.0\n[physics]\nrestitution_delay = 0.0\n"
         "[domain]\nlo = [-300.0, -300.0, -300.0]\nhi = [300.0, 300.0, 300.0]\n"
         "boundary = \"open\"\nescape_radius = 270.0\n"
         "[[species]]\nname = \"M\"\nmass = inf\nradius = 250.0\n"
         "[[species]]\nname = \"Z\"\nmass = inf\nradius = 150.0\n"
         "[[species]]\nname = \"D\"\nmass = 10.0\nradius = 5.0\n"
         "[[species]]\nname = \"V\"\nmass = 10.0\nradius = 20.0\n"
         "[pair_defaults]\nc = 0.5\n"
         "[[pair]]\nspecies = [\"D\", \"M\"]\nblocking = 245.0\ntethering = 250.0\n"
         "[[pair]]\nspecies = [\"D\", \"Z\"]\nblocking = 0.0\ntethering = 145.0\n"
         "[[pair]]\nspecies = [\"V\", \"M\"]\nblocking = 0.0\ntethering = 230.0\n"
         "[[pair]]\nspecies = [\"V\", \"Z\"]\nblocking = 0.0\n"
         "[[pair]]\nspecies = [\"V\", \"D\"]\nblocking = 25.0\ntethering = 30.0\n"
         "[[pair]]\nspecies = [\"V\", \"V\"]\nblocking = 40.0\n"
         "[[pair]]\nspecies = [\"D\", \"D\"]\nblocking = 10.0\n"
         "[[detach]]\nspecies = [\"V\", \"M\"]\nreaction = \"VM\"\nrequires = \"D\"\nrelease = [\"D\"]\n"
         "[action_potential]\nmembrane = \"M\"\nzone = \"Z\"\nzone_radius = 150.0\ngradient = 3.0\n"
         "reactions = [{ name = \"VM\", subject = \"V\", mean_time = " + num(vm_mean_time) + " }]\n"
         "windows = [{ start = " + num(window_start) + ", end = " + num(window_start + 10) + " }]\n"
         "[initial]\ntethers = [[0, 2], [1, 2], [0, 3], [2, 3]]\n" +
         particle(0, "M", Vec3(0, 0, 0)) + particle(1, "Z", Vec3(0, 0, -200)) +
         particle(2, "D", Vec3(0, 0, -r_d)) + particle(3, "V", 227.0 * direction, direction);
}

TEST(ActionPotential, ADockedVesicleFusesLeavesAndIsCounted) {
  Simulation sim(exocytosis_model(0.01, 1.0));
  sim->run_until(60.0);
  ASSERT_EQ(sim->releases().size(), 1u);
  EXPECT_EQ(sim->releases()[0].id, 3u);
  EXPECT_NEAR(sim->releases()[0].time, 3.0, 1e-9);
  ASSERT_EQ(sim->escapes().size(), 1u);
  EXPECT_EQ(sim->escapes()[0].id, 3u);
  EXPECT_NEAR(sim->escapes()[0].position.norm(), 270.0, 1e-6);
  EXPECT_EQ(sim->alive_count(), 3u);
  EXPECT_FALSE(sim->tethered(2, 3));
}

TEST(ActionPotential, WithoutAnActionPotentialTheVesicleStays) {
  // The window starts after the run: the V-M tether holds at every hit.
  Simulation sim(exocytosis_model(0.01, 55.0));
  sim->run_until(50.0);
  EXPECT_TRUE(sim->releases().empty());
  EXPECT_TRUE(sim->escapes().empty());
  EXPECT_TRUE(sim->tethered(0, 3));
  EXPECT_GE(sim.count(engine::EventKind::tethering), 2u);
}

}  // namespace
}  // namespace tethersim::testing
