// Conservation laws and bit-for-bit reproducibility of the engine
// (docs/physics.md, "Invariants"; docs/engine.md, "Exactness and
// reproducibility").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

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

// Energy bookkeeping of a run stepped one event at a time (docs/physics.md,
// "Loaded groups" and "Invariants"). Energy moves only between particles that
// take part in the same event, and while a loaded edge is open part of it is
// stored in the edge. So the particles changed since their last check are
// joined into components by the events they shared; a component is closed when
// none of its members is in a loaded group (nothing stored), and then the sum
// of its members' kinetic energies is compared with their sum at their last
// check. Sums are exact (ExactSum); the only rounding left is that of the
// velocity updates themselves, a few ulps of the energy involved.
struct EnergyLedger {
  explicit EnergyLedger(engine::Engine& engine)
      : e(engine), view(engine), mass(engine.model().species(0).mass), n(engine.particles().size()),
        at_check(n), parent(n), members(n) {
    for (ParticleId id = 0; id < n; ++id) {
      if (engine.particles().index_of(id) == engine::kNoIndex) throw std::logic_error("ids not dense");
      at_check[id] = energy(id);
      parent[id] = id;
      members[id] = {id};
    }
    view.track_changes(true);
    view.clear_changes();
  }

  double energy(ParticleId id) const {
    return 0.5 * mass * e.particles().state[e.particles().index_of(id)].v.squaredNorm();
  }
  bool loaded(ParticleId id) const {
    return !e.loaded_edges().adjacency().empty(e.particles().index_of(id));
  }
  ParticleId find(ParticleId id) {
    while (parent[id] != id) id = parent[id] = parent[parent[id]];
    return id;
  }

  // Processes one event; returns false when the run ended.
  bool step() {
    if (e.run_until(1e9, 1)) return false;
    ParticleId root = kNoParticle;
    for (const auto& c : view.changes()) {
      const ParticleId id = e.particles().id[c.particle];
      const ParticleId r = find(id);
      if (root == kNoParticle || r == root) {
        root = r;
        continue;
      }
      auto [big, small] = members[root].size() >= members[r].size() ? std::pair(root, r)
                                                                      : std::pair(r, root);
      members[big].insert(members[big].end(), members[small].begin(), members[small].end());
      members[small].clear();
      parent[small] = big;
      root = big;
    }
    view.clear_changes();
    if (root == kNoParticle) return true;
    for (ParticleId id : members[root]) {
      if (loaded(id)) return true;  // energy still stored in an open edge
    }
    physics::ExactSum b, a;
    for (ParticleId id : members[root]) {
      b.add(at_check[id]);
      at_check[id] = energy(id);
      a.add(at_check[id]);
    }
    last_before = b.value();
    last_after = a.value();
    if (members[root].size() > 1) ++closed;
    largest = std::max(largest, members[root].size());
    const double ulps =
        (last_after - last_before) / (std::numeric_limits<double>::epsilon() * last_before);
    worst_increase_ulps = std::max(worst_increase_ulps, ulps);
    worst_decrease_ulps = std::max(worst_decrease_ulps, -ulps);
    last_closed = true;
    for (ParticleId id : members[root]) {
      parent[id] = id;
      if (id != root) members[id] = {id};
    }
    members[root] = {root};
    return true;
  }
  // True (once) when the last step closed a component.
  bool take_closed() { return std::exchange(last_closed, false); }

  static constexpr ParticleId kNoParticle = ~ParticleId{0};
  engine::Engine& e;
  engine::PartialView view;  // its change list
  double mass;
  std::size_t n;
  std::vector<double> at_check;  // by id (the gas has ids 0 .. n-1)
  std::vector<ParticleId> parent;
  std::vector<std::vector<ParticleId>> members;
  double last_before = 0.0, last_after = 0.0;
  bool last_closed = false;
  std::uint64_t closed = 0;     // components of more than one particle checked
  std::size_t largest = 0;      // largest component checked
  // Largest increase and decrease measured, in ulps of the energy involved.
  double worst_increase_ulps = 0.0, worst_decrease_ulps = 0.0;
};

// Rounding allowance per check, in units of epsilon times the energy
// involved: a loading and its restitution take a few dozen floating-point
// operations per velocity component (the elastic test below measures about
// 9). A wrong formula changes the energy by a sizeable fraction of it.
constexpr double kUlps = 64.0;

// 5 000 particles, inelastic (c = 0.8) with a restitution delay: no check
// ever finds more kinetic (+ stored, which is zero when closed) energy than
// before, beyond rounding; at every moment with no open edge at all, the
// exact total kinetic energy is at most the previous such total.
TEST(EngineInvariants, EnergyNeverIncreasesInAnInelasticLoadedGas) {
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  for (const char* schedule : {"max", "min"}) {
    Simulation sim(random_gas(5000, 30.0, 0.8, 0.002,
                              std::string("restitution_schedule = \"") + schedule + "\"\n"));
    engine::Engine& e = *sim;
    ASSERT_EQ(e.particles().size(), 5000u);
    const double e0 = e.kinetic_energy();
    const Vec3 p0 = e.momentum();
    const double scale = momentum_scale(e);
    EnergyLedger ledger(e);
    double last_total = e0, allowance = 0.0;
    std::uint64_t global_samples = 0, losses = 0;
    for (int step = 0; step < 200000; ++step) {
      ASSERT_TRUE(ledger.step());
      if (!ledger.take_closed()) continue;
      const double b = ledger.last_before, a = ledger.last_after;
      ASSERT_LE(a, b + kUlps * kEps * b)
          << schedule << " schedule, event " << step << ", time " << e.time();
      losses += a < b;
      allowance += kUlps * kEps * b;
      if (e.loaded_edges().open_count() != 0) continue;
      const double total = e.kinetic_energy();
      ASSERT_LE(total, last_total + allowance + kEps * last_total)
          << schedule << " schedule, event " << step;
      last_total = total;
      allowance = 0.0;
      ++global_samples;
    }
    std::printf("[ energy   ] %s schedule: %llu components checked (%llu lost energy), largest %zu, "
                "%llu moments with no open edge, largest increase %.3g ulps, "
                "%llu loadings, largest group %llu, energy %.6g -> %.6g\n",
                schedule, (unsigned long long)ledger.closed, (unsigned long long)losses,
                ledger.largest, (unsigned long long)global_samples, ledger.worst_increase_ulps,
                (unsigned long long)e.statistics().loadings,
                (unsigned long long)e.statistics().largest_group, e0, e.kinetic_energy());
    EXPECT_GT(ledger.closed, 20000u) << schedule;
    EXPECT_GT(global_samples, 100u) << schedule;
    EXPECT_GE(e.statistics().largest_group, 3u) << schedule;  // groups beyond pairs occur
    EXPECT_LT(e.kinetic_energy(), 0.5 * e0) << schedule;       // the gas did cool
    EXPECT_LE((e.momentum() - p0).norm(), 1e-12 * scale) << schedule;
    e.check_invariants();
  }
}

// The same bookkeeping on an elastic gas with loading: every closed
// component has the kinetic energy it started with, to rounding, and so has
// the whole gas at every moment with no open edge.
TEST(EngineInvariants, ElasticLoadedGasConservesEnergyPerComponent) {
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  Simulation sim(random_gas(5000, 30.0, 1.0, 0.002));
  engine::Engine& e = *sim;
  const double e0 = e.kinetic_energy();
  EnergyLedger ledger(e);
  double allowance = 0.0, worst_total = 0.0;
  std::uint64_t global_samples = 0;
  for (int step = 0; step < 200000; ++step) {
    ASSERT_TRUE(ledger.step());
    if (!ledger.take_closed()) continue;
    const double b = ledger.last_before, a = ledger.last_after;
    ASSERT_NEAR(a, b, kUlps * kEps * b) << "event " << step << ", time " << e.time();
    allowance += kUlps * kEps * b;
    if (e.loaded_edges().open_count() != 0) continue;
    const double total = e.kinetic_energy();
    ASSERT_NEAR(total, e0, allowance + kEps * e0) << "event " << step;
    worst_total = std::max(worst_total, std::abs(total - e0) / e0);
    ++global_samples;
  }
  std::printf("[ energy   ] elastic: %llu components checked, largest %zu, largest change "
              "+%.3g/-%.3g ulps, %llu moments with no open edge (worst total %.3g relative), "
              "%llu loadings\n",
              (unsigned long long)ledger.closed, ledger.largest, ledger.worst_increase_ulps,
              ledger.worst_decrease_ulps, (unsigned long long)global_samples, worst_total,
              (unsigned long long)e.statistics().loadings);
  EXPECT_GT(ledger.closed, 20000u);
  EXPECT_GT(global_samples, 10u);
  EXPECT_GT(ledger.worst_increase_ulps, 0.0);  // rounding is visible: the allowance is not idle
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

// A grid whose heads stay in cache reads the 27 heads around a particle
// without a branch, a larger one with (BlockingSource::predict): both must
// find the same candidates in the same order.
TEST(EngineReproducibility, LargeAndSmallSectorGridsFindTheSamePairs) {
  const std::string text = random_gas(8000, 44.0, 0.8, 0.02);
  Simulation fine(text, {"domain.sector_size=1.0"});
  Simulation coarse(text, {"domain.sector_size=2.2"});
  ASSERT_FALSE(fine->grid().heads_in_cache());
  ASSERT_TRUE(coarse->grid().heads_in_cache());
  fine->run_until(3.0);
  coarse->run_until(3.0);
  EXPECT_EQ(fine->state_hash(), coarse->state_hash());
  EXPECT_GT(fine->statistics().collisions(), 5000u);
}

}  // namespace
}  // namespace tethersim::testing
