// A mostly empty sector grid keeps the list heads of occupied sectors only
// (engine::SectorGrid, SparseSectorHeads): the same trajectory, bit for bit,
// as a dense grid, in memory that follows the particles, not the volume.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <random>

#include "engine_test_support.hpp"
#include "tethersim/engine/sparse_sector_heads.hpp"

namespace tethersim::testing {
namespace {

TEST(SparseSectorHeads, AgreesWithAMapThroughInsertsAndErasures) {
  // Random heads set and dropped, many keys sharing probe runs (erasure by
  // backward shift must keep every later key reachable).
  engine::SparseSectorHeads heads;
  std::map<std::uint32_t, engine::Index> reference;
  std::mt19937 random(7);
  std::uniform_int_distribution<std::uint32_t> key(0, 5000);
  for (int step = 0; step < 200000; ++step) {
    const std::uint32_t sector = key(random);
    if (random() % 3 == 0 && reference.count(sector) != 0) {
      heads.erase(sector);
      reference.erase(sector);
    } else {
      const auto value = static_cast<engine::Index>(random() % 1000);
      heads.head(sector) = value;
      reference[sector] = value;
    }
    if (step % 997 == 0) {
      for (std::uint32_t probe = 0; probe <= 5000; ++probe) {
        const auto found = reference.find(probe);
        ASSERT_EQ(heads.first(probe), found == reference.end() ? engine::kNoIndex : found->second)
            << "sector " << probe << " at step " << step;
      }
    }
  }
  EXPECT_EQ(heads.size(), reference.size());
  std::vector<std::uint32_t> keys;
  for (const auto& [sector, head] : reference) keys.push_back(sector);
  EXPECT_EQ(heads.sectors(), keys);
  heads.clear();
  EXPECT_EQ(heads.size(), 0u);
  EXPECT_EQ(heads.first(keys.front()), engine::kNoIndex);
}

TEST(SparseSectorHeads, SpreadsALatticeOfKeysThatFibonacciHashingFolds) {
  // A sheet's occupied sectors are a lattice of linear indices, x + X y.
  // With X a Fibonacci number (317 811 = F(28)), X times the hash's
  // multiplier is nearly 0 modulo 2^64, so Fibonacci hashing sends every
  // row to the same buckets: 8 192 keys sat 31 buckets past their homes on
  // average. The table sees it as it grows and takes another hash.
  constexpr std::uint32_t kStride = 317811;
  engine::SparseSectorHeads lattice, run;
  for (std::uint32_t y = 0; y < 64; ++y) {
    for (std::uint32_t x = 0; x < 128; ++x) lattice.head(x + kStride * y) = x + 128 * y;
  }
  for (std::uint32_t k = 0; k < 8192; ++k) run.head(k) = k;
  EXPECT_FALSE(lattice.fibonacci_hash());
  EXPECT_LT(lattice.mean_displacement(), 1.0);
  // A run of keys is what Fibonacci hashing spreads best: it keeps it.
  EXPECT_TRUE(run.fibonacci_hash());
  EXPECT_LT(run.mean_displacement(), 1.0);
  for (std::uint32_t y = 0; y < 64; ++y) {
    for (std::uint32_t x = 0; x < 130; ++x) {
      ASSERT_EQ(lattice.first(x + kStride * y), x < 128 ? x + 128 * y : engine::kNoIndex) << x << ", " << y;
    }
  }
}

// The presynaptic terminal (clustering, docking, an action potential that
// removes vesicles) in a box 20 times wider: 280^3 sectors of edge 40 for
// 222 particles. The same run with sectors of edge 400 has a dense grid of
// 28^3; sector size changes no result.
void expect_same_run(double end) {
  const std::vector<std::string> common = {
      "initial.parameters.vesicles=30", "initial.parameters.synapsin_dimers=90",
      "initial.parameters.docking_sites=10", "run.seed=3",
      "domain.lo=[-5600.0, -5600.0, -5600.0]", "domain.hi=[5600.0, 5600.0, 5600.0]",
      "action_potential.windows=[{ start = 20.0, end = 60.0 }]"};
  std::vector<std::string> coarse = common;
  coarse.push_back("domain.sector_size=400.0");
  Simulation sparse(example("presynaptic.toml"), common);
  Simulation dense(example("presynaptic.toml"), coarse);
  ASSERT_TRUE(sparse->grid().sparse());
  ASSERT_FALSE(dense->grid().sparse());
  EXPECT_GT(sparse->grid().sector_count(), 20000000u);
  // Heads for the occupied sectors only: far below 4 bytes a sector.
  EXPECT_LT(sparse->grid().memory_bytes(), 64u * 1024u);
  for (double t = 10.0; t <= end; t += 10.0) {
    sparse->run_until(t);
    dense->run_until(t);
    ASSERT_EQ(sparse->state_hash(), dense->state_hash()) << "t = " << t;
    sparse->check_invariants();
  }
  EXPECT_GT(sparse->statistics().attachments, 0u);
  EXPECT_GT(sparse->statistics().events[static_cast<int>(engine::EventKind::sector_crossing)], 1000u);
  // Every event but the sector crossings (more of them in smaller sectors).
  for (int kind = 0; kind < static_cast<int>(engine::kEventKindCount); ++kind) {
    if (kind == static_cast<int>(engine::EventKind::sector_crossing)) continue;
    EXPECT_EQ(sparse->statistics().events[kind], dense->statistics().events[kind]) << engine::to_string(static_cast<engine::EventKind>(kind));
  }
}

TEST(SparseSectorGrid, RunsTheDenseGridsTrajectory) { expect_same_run(100.0); }

}  // namespace
}  // namespace tethersim::testing
