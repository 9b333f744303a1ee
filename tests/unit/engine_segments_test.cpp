// Speculation in segments: an engine that runs ahead, undoes its events
// from random times above a committed floor (across segments, again and
// again) and commits below random times is, after every undo, the engine
// that ran straight to that time, and ends as the straight run.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <cmath>

#include "engine_test_support.hpp"
#include "same_snapshot.hpp"

namespace tethersim::testing {
namespace {

struct Walk {
  double start = 0.0;
  double end = 0.0;
  double step = 0.0;  // the longest run ahead between two undos or commits
  std::size_t instants_per_segment = 0;
  std::uint64_t seed = 0;
};

struct WalkCounts {
  int undos = 0;
  int commits = 0;
  std::size_t most_segments = 0;
  std::size_t fewest_after_commit = 1000000;
};

// What run_until(t) from the start gives, compared with the walked engine.
void expect_as_straight_to(const std::string& model, const std::vector<std::string>& overrides, Simulation& sim,
                           double t) {
  Simulation reference(model, overrides);
  reference->run_until(t);
  expect_same_snapshot(reference->snapshot(t), sim->snapshot(t));
  EXPECT_EQ(sim->time(), reference->time()) << "undone from " << t;
  EXPECT_EQ(sim->statistics().total_events(), reference->statistics().total_events()) << "undone from " << t;
  sim->check_invariants();
}

WalkCounts walk_segments(const std::string& model, const std::vector<std::string>& overrides, const Walk& w) {
  Simulation sim(model, overrides);
  sim->run_until(w.start);
  sim.view().track_changes(true);
  sim.view().begin_segments(w.instants_per_segment);
  std::mt19937_64 rng(w.seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  WalkCounts counts;
  double position = w.start, floor = w.start;
  while (position < w.end) {
    position = std::min(w.end, position + w.step * unit(rng));
    sim->run_until(position);
    counts.most_segments = std::max(counts.most_segments, sim.view().segment_count());
    const double at = floor + (position - floor) * unit(rng);
    if (unit(rng) < 0.6) {
      sim.view().undo_segments_from(at);
      ++counts.undos;
      const bool failed_before = ::testing::Test::HasFailure();
      expect_as_straight_to(model, overrides, sim, at);
      if (!failed_before && ::testing::Test::HasFailure()) {
        ADD_FAILURE() << "after undo " << counts.undos << " (from " << at << ")";
        return counts;
      }
      position = at;
    } else {
      sim.view().commit_segments_before(at);
      ++counts.commits;
      counts.fewest_after_commit = std::min(counts.fewest_after_commit, sim.view().segment_count());
      floor = at;
      // Nothing before the floor can be undone.
      EXPECT_THROW(sim.view().undo_segments_from(std::nextafter(floor, -1.0)), std::logic_error);
    }
  }
  sim.view().keep_speculation();
  EXPECT_EQ(sim.view().segment_count(), 0u);
  sim.view().clear_changes();
  Simulation straight(model, overrides);
  straight->run_until(w.end + 0.5);
  sim->run_until(w.end + 0.5);
  EXPECT_EQ(sim->state_hash(), straight->state_hash());
  EXPECT_EQ(sim->statistics().total_events(), straight->statistics().total_events());
  EXPECT_EQ(sim->statistics().loadings, straight->statistics().loadings);
  sim->check_invariants();
  return counts;
}

TEST(Segments, RandomUndosAndCommitsKeepRandomImpulsesTethersAndEscapesExact) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const WalkCounts c = walk_segments(kBusyGas, {}, {1.0, 4.0, 0.6, 40, seed});
    EXPECT_GE(c.undos, 3);
    EXPECT_GE(c.commits, 1);
    // Undos crossed segments, and commits freed them.
    EXPECT_GE(c.most_segments, 4u);
    EXPECT_LT(c.fewest_after_commit, c.most_segments);
  }
}

TEST(Segments, UndosAcrossGravityTicksOfASheetWithLoadedGroups) {
  // From t = 2.5 on the sheet sags onto its tethers; a tick every 0.05
  // begins a segment (undone whole with it).
  const WalkCounts c = walk_segments(example("membrane-sheet.toml"), {"initial.parameters.size=8"},
                                     {2.5, 4.0, 0.5, 200, 7});
  EXPECT_GE(c.undos, 2);
  EXPECT_GE(c.most_segments, 5u);
}

TEST(Segments, UndosAcrossAnActionPotentialOfAPresynapticTerminal) {
  // Restitutions of loaded groups, and the action potential's start at 20
  // (every vesicle's reaction times change).
  const WalkCounts c =
      walk_segments(example("presynaptic.toml"),
                    {"initial.parameters.vesicles=20", "initial.parameters.synapsin_dimers=60",
                     "initial.parameters.docking_sites=10", "action_potential.windows=[{ start = 20.0, end = 35.0 }]"},
                    {19.5, 21.0, 0.5, 100, 11});
  EXPECT_GE(c.undos, 1);
  EXPECT_GE(c.most_segments, 2u);
}

// Undoing to the floor itself takes everything back, and the engine goes on
// in segments as the straight run.
TEST(Segments, UndoToTheFloorTakesEverySegmentBack) {
  Simulation sim(kBusyGas);
  sim->run_until(1.0);
  const engine::EngineSnapshot start = sim->snapshot(1.0);
  sim.view().track_changes(true);
  sim.view().begin_segments(20);
  sim->run_until(1.8);
  ASSERT_GE(sim.view().segment_count(), 3u);
  sim.view().undo_segments_from(1.0);
  EXPECT_EQ(sim.view().segment_count(), 1u);
  EXPECT_TRUE(sim.view().changes().empty());
  expect_same_snapshot(start, sim->snapshot(1.0));
  sim->run_until(2.5);
  sim.view().undo_segments_from(2.0);
  expect_as_straight_to(kBusyGas, {}, sim, 2.0);
}

}  // namespace
}  // namespace tethersim::testing
