// The certificate's components against a brute-force fixed point: every
// pair of particles tested with the same gap rule, whatever sectors hold
// them. The certifier finds partners through a cell list with half-shell
// and block skips; a missed pair would make a window unsound.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "engine_test_support.hpp"
#include "tethersim/decomposition/block_layout.hpp"
#include "tethersim/decomposition/certification.hpp"

namespace tethersim::testing {
namespace {

struct Components {
  std::uint64_t count = 0;  // with two or more members
  std::uint64_t largest = 0;
};

// Least fixed point over all pairs (nearest periodic image): join two
// particles when their gap is within (V_a + V_b) delta, V = sqrt(2 E_C / m)
// with E_C the kinetic energy of the component. A particle alone in its
// component moves on its straight line (nothing else turns a particle of
// this gas): two such are joined only when their lines come within the
// blocking distance in the window, one such and another only when the
// other, anywhere within V t of its start, can. Unit masses, one species.
Components brute_force(const engine::Engine& e, double start, double delta, double blocking) {
  const engine::ParticleStore& store = e.particles();
  std::vector<Vec3> x, v;
  std::vector<double> energy;
  for (engine::Index i = 0; i < store.size(); ++i) {
    if (e.is_removed(i) || !store.state[i].alive) continue;
    x.push_back(store.state[i].position(start));
    v.push_back(store.state[i].v);
    energy.push_back(0.5 * store.state[i].v.squaredNorm());
  }
  const std::size_t n = x.size();
  std::vector<std::size_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  const auto find = [&](std::size_t a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
  };
  const Vec3 length = e.grid().length();
  const double edge_min = e.grid().edge().minCoeff();
  for (bool merged = true; merged;) {
    merged = false;
    std::vector<double> component(n, 0.0), bound(n);
    std::vector<std::size_t> members(n, 0);
    for (std::size_t i = 0; i < n; ++i) component[find(i)] += energy[i];
    for (std::size_t i = 0; i < n; ++i) ++members[find(i)];
    for (std::size_t i = 0; i < n; ++i) bound[i] = std::sqrt(2.0 * component[find(i)]);
    const double window = delta * (1.0 + 1e-6), margin = 1e-9 * edge_min;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = i + 1; j < n; ++j) {
        Vec3 d = x[j] - x[i];
        for (int k = 0; k < 3; ++k) d[k] -= length[k] * std::nearbyint(d[k] / length[k]);
        const double gap = d.norm() - blocking;
        if (gap > (bound[i] + bound[j]) * window + margin) continue;
        const bool alone_i = members[find(i)] == 1, alone_j = members[find(j)] == 1;
        if (alone_i || alone_j) {
          // Closest approach, sampled finely (no shared formula with the
          // certifier): both on their straight lines, or one on its line
          // and the other anywhere within its bound of its start.
          double closest = d.norm();
          for (int step = 1; step <= 1000; ++step) {
            const double s = window * step / 1000.0;
            const double apart = alone_i && alone_j ? (d + (v[j] - v[i]) * s).norm()
                                 : alone_j          ? (d + v[j] * s).norm() - bound[i] * s
                                                    : (d - v[i] * s).norm() - bound[j] * s;
            closest = std::min(closest, apart);
          }
          if (closest > blocking + margin) continue;
        }
        if (find(i) == find(j)) continue;
        parent[find(j)] = find(i);
        merged = true;
      }
    }
  }
  std::map<std::size_t, std::uint64_t> size;
  for (std::size_t i = 0; i < n; ++i) ++size[find(i)];
  Components c;
  for (const auto& [root, members] : size) {
    if (members < 2) continue;
    ++c.count;
    c.largest = std::max(c.largest, members);
  }
  return c;
}

TEST(Certifier, ComponentsAreTheBruteForceFixedPoint) {
  // 500 particles of a melted gas in a periodic box of 7^3 sectors.
  Simulation sim(example("gas.toml"), {"initial.parameters.cells=5", "run.seed=3"});
  sim->run_until(0.5);
  const engine::SectorGrid& grid = sim->grid();
  const decomposition::BlockLayout layout(grid.shape(), {1, 1, 1}, {true, true, true});
  // Both ways of starting: every particle a node, and (sparse) only those
  // with a calendar event inside the window, the rest joining when reached.
  for (const bool sparse : {false, true}) {
    decomposition::Certifier certifier(sim.model, layout, 0, sparse);
    int compared = 0, run_away = 0;
    std::uint64_t largest_seen = 0, fewest_nodes = 500;
    // From pairs to clusters of a handful, then one cluster of all (the
    // bounds of a growing component run away near 1.3e-2; with bounds
    // alone, near 1e-2). Sectors are one blocking distance wide, so every
    // search also takes a second layer near a face.
    for (double delta : {1e-3, 2e-3, 4e-3, 8e-3, 1e-2, 1.2e-2, 1.4e-2, 1.6e-2, 2e-2}) {
      certifier.prepare(*sim, 0.5, delta);
      if (!certifier.local_phase(delta)) {
        // Only a reach beyond two sectors may stop a one-rank certificate.
        EXPECT_EQ(certifier.failure(), decomposition::CertificationFailure::reach) << "delta " << delta;
        ++run_away;
        continue;
      }
      ASSERT_TRUE(certifier.verify_phase({}, certifier.largest_owned_bound()))
          << "delta " << delta << ": " << decomposition::to_string(certifier.failure());
      const Components expected = brute_force(*sim, 0.5, delta, 1.0);
      EXPECT_EQ(certifier.stats().components, expected.count) << "sparse " << sparse << " delta " << delta;
      EXPECT_EQ(certifier.stats().largest_component, expected.largest) << "sparse " << sparse << " delta " << delta;
      if (!sparse) {
        EXPECT_EQ(certifier.stats().nodes, 500u);
      }
      fewest_nodes = std::min(fewest_nodes, certifier.stats().nodes);
      largest_seen = std::max(largest_seen, expected.largest);
      ++compared;
    }
    EXPECT_GE(compared, 5);
    EXPECT_GE(largest_seen, 5u);  // the cases reach clusters of several
    EXPECT_GE(run_away, 1);       // and the one cluster of all
    // The sparse start leaves most particles out of short windows.
    if (sparse) {
      EXPECT_LT(fewest_nodes, 150u);
    }
  }
}

TEST(Certifier, AMembraneAtRestGivesTheSameComponentsFromItsMovingParticles) {
  // The small sphere as the projectile comes and lands: a certificate
  // that leaves still particles out (they join when a moving node's gap or
  // tether test reaches them) against one where every particle is a node.
  // Before the landing (near t = 1.9) only gap tests reach the membrane;
  // after it, tether tests carry the impact through it. Windows up to 0.15:
  // the lone projectile leaves sectors as wide as the membrane's tethers,
  // and 0.2 is too long for them (both certifiers refuse it alike).
  Simulation sim(example("membrane-sphere.toml"), {"initial.parameters.frequency=6"});
  const decomposition::BlockLayout layout(sim->grid().shape(), {1, 1, 1}, {false, false, false});
  decomposition::Certifier on_demand(sim.model, layout, 0, true), every(sim.model, layout, 0, false);
  std::uint64_t largest_seen = 0, total = 0, fewest_nodes = 100000;
  for (const auto& [start, delta] : std::vector<std::pair<double, double>>{
           {1.5, 0.15}, {1.9, 0.05}, {1.95, 0.02}, {2.8, 1e-3}, {2.8, 1e-2}, {2.8, 5e-2}, {2.8, 0.1}, {2.8, 0.15}}) {
    sim->run_until(start);
    for (decomposition::Certifier* c : {&on_demand, &every}) {
      c->prepare(*sim, start, delta);
      ASSERT_TRUE(c->local_phase(delta)) << "delta " << delta;
      ASSERT_TRUE(c->verify_phase({}, c->largest_owned_bound())) << "delta " << delta;
    }
    EXPECT_EQ(on_demand.stats().components, every.stats().components) << "delta " << delta;
    EXPECT_EQ(on_demand.stats().largest_component, every.stats().largest_component) << "delta " << delta;
    // The same sums in another order of the nodes.
    EXPECT_NEAR(on_demand.stats().max_bound, every.stats().max_bound, 1e-12 * every.stats().max_bound)
        << "delta " << delta;
    EXPECT_LE(on_demand.stats().nodes, every.stats().nodes) << "delta " << delta;
    fewest_nodes = std::min(fewest_nodes, on_demand.stats().nodes);
    largest_seen = std::max(largest_seen, every.stats().largest_component);
    total = every.stats().nodes;
  }
  // From the moving particles only, to components of most of the membrane
  // (tethers pulled through ring after ring), which tether tests join.
  EXPECT_LT(fewest_nodes, total / 4);
  EXPECT_GE(largest_seen, total / 2);
}

constexpr double kFlyByWindow = 0.01;
constexpr double kFlyBySpeed = 40.0;

// Spheres of diameter 1 and mass 1 in a periodic box of edge 10; `extra`
// follows the pair table (tethering distance, initial tables, particles).
std::string box_model(const std::string& extra) {
  return R"([run]
end_time = 1.0
[domain]
lo = [0.0, 0.0, 0.0]
hi = [10.0, 10.0, 10.0]
boundary = "periodic"
[[species]]
name = "A"
mass = 1.0
radius = 0.5
[[pair]]
species = ["A", "A"]
blocking = 1.0
c = 1.0
)" + extra;
}

// A particle flying along +x at kFlyBySpeed whose line passes (5, 5, 5) at
// `distance`, closest at fraction `phase` of the window.
std::string fly_by(double distance, double phase) {
  return particle(2, "A", Vec3(5.0 - kFlyBySpeed * kFlyByWindow * phase, 5.0 - distance, 5.0), Vec3(kFlyBySpeed, 0.0, 0.0));
}

// The largest component the certificate finds over the window from t = 0.
std::uint64_t largest_component(const std::string& model_text) {
  Simulation sim(model_text);
  const decomposition::BlockLayout layout(sim->grid().shape(), {1, 1, 1}, {true, true, true});
  decomposition::Certifier certifier(sim.model, layout, 0);
  certifier.prepare(*sim, 0.0, kFlyByWindow);
  EXPECT_TRUE(certifier.local_phase(kFlyByWindow));
  EXPECT_TRUE(certifier.verify_phase({}, certifier.largest_owned_bound()));
  return certifier.stats().largest_component;
}

// b runs into a at once, so a and b form a component with bound 1; c flies
// past a's start, closest at mid-window. Whether c joins them depends on
// the minimum of |r + w s| - B s inside the window, not at its ends: at
// distance 1.004 it dips to 0.999 (joined), at 1.006 only to 1.0007 (not).
std::uint64_t largest_with_fly_by(double distance) {
  return largest_component(box_model(particle(0, "A", Vec3(5.0, 5.0, 5.0)) +
                                     particle(1, "A", Vec3(5.0, 6.001, 5.0), Vec3(0.0, -1.0, 0.0)) +
                                     fly_by(distance, 0.5)));
}

TEST(Certifier, ALineIsTestedAgainstABoundAcrossTheWindow) {
  EXPECT_EQ(largest_with_fly_by(1.004), 3u);
  EXPECT_EQ(largest_with_fly_by(1.006), 2u);
}

// A particle at rest held by a tether (bound 0, not on a line: its tether
// could turn it) and the fly-by.
std::uint64_t largest_passing_a_still_particle(double distance, double phase) {
  return largest_component(box_model("tethering = 2.0\n[initial]\ntethers = [[0, 1]]\n" +
                                     particle(0, "A", Vec3(5.0, 5.0, 5.0)) + particle(1, "A", Vec3(5.0, 6.5, 5.0)) +
                                     fly_by(distance, phase)));
}

TEST(Certifier, ALinePassingAStillParticleJoinsIt) {
  // Where the closest approach falls in the window must not matter (a
  // discriminant that cancels to a negative value skipped the middle).
  // Below phase 0.112 the line passing at 0.999 would start inside the
  // blocking distance, an overlapping start the model refuses.
  for (int k = 1; k < 40; ++k) {
    const double phase = k / 40.0;
    if (k >= 5) {
      EXPECT_EQ(largest_passing_a_still_particle(0.999, phase), 2u) << "phase " << phase;
    }
    EXPECT_EQ(largest_passing_a_still_particle(1.001, phase), 0u) << "phase " << phase;
  }
}

// Particle a rests at a sector's centre; five of speed 1 run into it from
// +x, +-y and +-z at once, so the six form one component of bound
// sqrt(5) = 2.236 (unit masses). c rests on a's -x side at `gap`. a's
// first scan had bound 0 with the largest speed 1, so c at a gap above
// twice that slack (0.02) was left far from it, and the five fast ones
// are far from c too; a's final ball reaches c when the gap is below
// 2.236 * 0.01.
std::uint64_t largest_after_a_bound_rises(double gap) {
  const Vec3 a(5.5, 5.5, 5.5);
  std::string particles = particle(0, "A", a);
  const Vec3 directions[] = {Vec3::UnitX(), Vec3::UnitY(), -Vec3::UnitY(), Vec3::UnitZ(), -Vec3::UnitZ()};
  int id = 1;
  for (const Vec3& e : directions) particles += particle(id++, "A", a + 1.001 * e, -e);
  particles += particle(id, "A", a - (1.0 + gap) * Vec3::UnitX());
  return largest_component(box_model(particles));
}

TEST(Certifier, ABoundThatRisesReachesWhatAnEarlierScanLeftFar) {
  // Later passes rescan only what a node's first scan found near, while
  // its far gap exceeds its slack: past that, a full rescan must find c.
  EXPECT_EQ(largest_after_a_bound_rises(0.0212), 7u);
  EXPECT_EQ(largest_after_a_bound_rises(0.0230), 6u);
}

}  // namespace
}  // namespace tethersim::testing
