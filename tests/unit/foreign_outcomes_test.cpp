// The foreign outcomes a process holds in owner-computes mode: which
// versions the pending ones make, per instant (an outcome that reads or
// brings in such a version waits for its maker: within an instant the
// serial order is not the key order), kept right as outcomes are placed,
// dropped, cancelled and put back by undos; and a record's hash as it
// travels equals the engine's hash of the particle that holds it.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "engine_test_support.hpp"
#include "tethersim/engine/foreign_outcomes.hpp"
#include "tethersim/engine/record_hash.hpp"

namespace tethersim::testing {
namespace {

engine::EventOutcome at(double time, std::uint64_t tie) {
  engine::EventOutcome o;
  o.key.time = time;
  o.key.tie = tie;
  return o;
}

TEST(ForeignOutcomes, CountTheVersionsPendingOutcomesMakeWithinTheirInstant) {
  engine::ForeignOutcomes f;
  f.add(at(1.0, 2), 0, {11, 12});
  f.add(at(1.0, 1), 1, {12});
  f.add(at(2.0, 1), 0, {11});
  EXPECT_EQ(f.pending_producers(12, 1.0), 2u);
  EXPECT_EQ(f.pending_producers(11, 1.0), 1u);
  // Another instant's maker of the same bits does not count: a record can
  // come back to an earlier version later.
  EXPECT_EQ(f.pending_producers(11, 2.0), 1u);
  EXPECT_EQ(f.pending_producers(12, 2.0), 0u);
  // Placed (key order: tie 1 first): no longer pending.
  EXPECT_EQ(f.pending(0).outcome.key.tie, 1u);
  f.place(0, 1.0);
  EXPECT_EQ(f.pending_producers(12, 1.0), 1u);
  // An undo from 1.0 puts it back among the pending.
  f.requeue_from(1.0);
  EXPECT_EQ(f.pending_producers(12, 1.0), 2u);
  // Withdrawn by its sender, or cancelled from a key on.
  f.drop_pending(1, at(1.0, 1).key);
  EXPECT_EQ(f.pending_producers(12, 1.0), 1u);
  f.drop_pending_from(0, at(1.0, 0).key);
  EXPECT_EQ(f.pending_producers(12, 1.0), 0u);
  EXPECT_EQ(f.pending_producers(11, 1.0), 0u);
  EXPECT_EQ(f.pending_producers(11, 2.0), 0u);
  EXPECT_FALSE(f.has_pending());
}

struct LinksMet {
  std::size_t tethers = 0, loaded_edges = 0;
};

void expect_record_hashes_as_held(Simulation& sim, LinksMet& met) {
  const engine::Engine& e = *sim;
  bool random_impulses = false;
  for (const auto& species : e.model().species()) random_impulses = random_impulses || species.random_impulse.enabled();
  const std::size_t n = e.records().size();
  for (engine::Index i = 0; i < n; ++i) {
    const engine::ParticleRecord r = e.record(i);
    met.tethers += r.tethers.size();
    met.loaded_edges += r.loaded_edges.size();
    ASSERT_EQ(engine::particle_record_hash(r, random_impulses), sim.view().record_hash(i)) << "particle " << r.particle.id;
  }
}

TEST(ForeignOutcomes, ARecordHashesAsTheParticleItIsPlacedOn) {
  Simulation sheet(example("membrane-sheet.toml"), {"initial.parameters.size=16"});
  sheet->run_until(6.0);
  LinksMet met;
  expect_record_hashes_as_held(sheet, met);
  std::ifstream anchor_file(std::string(TETHERSIM_SOURCE_DIR) + "/tests/mpi/models/anchor.toml");
  const std::string anchor((std::istreambuf_iterator<char>(anchor_file)), std::istreambuf_iterator<char>());
  Simulation bound(anchor, {});
  bound->run_until(2.0);
  expect_record_hashes_as_held(bound, met);
  EXPECT_GT(met.tethers, 0u);
  EXPECT_GT(met.loaded_edges, 0u);
}

}  // namespace
}  // namespace tethersim::testing
