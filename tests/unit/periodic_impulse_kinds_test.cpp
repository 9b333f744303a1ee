// The kinds of periodic impulse (periodic_impulse_kinds.hpp): each kind's
// impulse, its share of a component's speed bound, and its checks, reached
// through the kind alone.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tethersim/model/periodic_impulse_kinds.hpp"

namespace tethersim::testing {
namespace {

Species species(double mass, double radius) {
  Species s;
  s.name = "V";
  s.mass = mass;
  s.radius = radius;
  return s;
}

TEST(PeriodicImpulseKinds, NamesReadBackAsTheirKinds) {
  for (const auto& [name, kind] : kPeriodicImpulseNames) EXPECT_EQ(std::string(to_string(kind)), name);
  EXPECT_EQ(std::string(to_string(PeriodicImpulseKind::gravity)), "gravity");
  EXPECT_EQ(std::string(to_string(PeriodicImpulseKind::drag)), "drag");
}

TEST(PeriodicImpulseKinds, EachKindGivesItsOwnImpulse) {
  PeriodicImpulse gravity;
  gravity.kind = PeriodicImpulseKind::gravity;
  gravity.interval = 0.5;
  gravity.acceleration = Vec3(0, 0, -9.5);
  // m g dt whatever the velocity.
  EXPECT_EQ(periodic_impulse_on(gravity, species(2.0, 1.0), Vec3(7, 0, 0)), Vec3(0, 0, -9.5));
  PeriodicImpulse drag;
  drag.kind = PeriodicImpulseKind::drag;
  drag.interval = 0.25;
  drag.viscosity = 0.1;
  drag.fluid_velocity = Vec3(1, 0, 0);
  // 6 pi mu r dt (v_fluid - v), bit for bit what the physics function gives.
  EXPECT_EQ(periodic_impulse_on(drag, species(3.0, 2.0), Vec3(3, 0, 0)),
            physics::stokes_drag_impulse(0.1, 2.0, Vec3(1, 0, 0), Vec3(3, 0, 0), 0.25));
}

TEST(PeriodicImpulseKinds, TicksRaiseTheBoundAsTheirKindSays) {
  PeriodicImpulse gravity;
  gravity.kind = PeriodicImpulseKind::gravity;
  gravity.interval = 0.1;
  gravity.acceleration = Vec3(0, -3, -4);  // |g| = 5
  double energy = 1.0, root = 0.0;
  visit_periodic_kind(gravity.kind, [&](auto k) { decltype(k)::add_tick_bound(gravity, 8.0, 3.0, energy, root); });
  // Three ticks on mass 8: sqrt(E) grows by 3 sqrt(8 / 2) 5 0.1 = 3.
  EXPECT_DOUBLE_EQ(root, 3.0);
  EXPECT_EQ(energy, 1.0);
  PeriodicImpulse drag;
  drag.kind = PeriodicImpulseKind::drag;
  drag.fluid_velocity = Vec3(0, 2, 0);
  energy = 1.0;
  root = 0.0;
  visit_periodic_kind(drag.kind, [&](auto k) { decltype(k)::add_tick_bound(drag, 8.0, 3.0, energy, root); });
  // Each tick at most M |v_fluid|^2 / 2 = 16 more energy.
  EXPECT_DOUBLE_EQ(energy, 49.0);
  EXPECT_EQ(root, 0.0);
}

TEST(PeriodicImpulseKinds, DragThatWouldReverseMotionIsRefusedForItsSpecies) {
  PeriodicImpulse drag;
  drag.kind = PeriodicImpulseKind::drag;
  drag.viscosity = 1.0;
  drag.interval = 1.0;
  auto problem = [&](const Species& s) { return periodic_impulse_problem(drag, s); };
  // 6 pi mu r dt / m: 0.94 for mass 20, 9.4 for mass 2.
  EXPECT_TRUE(problem(species(20.0, 1.0)).message.empty());
  const PeriodicImpulseProblem heavy_drag = problem(species(2.0, 1.0));
  EXPECT_EQ(std::string(heavy_drag.key), "interval");
  EXPECT_NE(heavy_drag.message.find("one drag impulse would remove 9.424777961 times"), std::string::npos)
      << heavy_drag.message;
  PeriodicImpulse gravity;
  gravity.kind = PeriodicImpulseKind::gravity;
  EXPECT_TRUE(periodic_impulse_problem(gravity, species(2.0, 1.0)).message.empty());
}

}  // namespace
}  // namespace tethersim::testing
