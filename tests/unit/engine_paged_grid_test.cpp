// A rank's engine keeps the sector heads of the pages its particles occupy
// (engine::PagedSectorHeads, SectorGrid::keep_occupied_pages): the same
// trajectory, bit for bit, as with the whole box's heads, in less memory.
#include <gtest/gtest.h>

#include <random>

#include "engine_test_support.hpp"
#include "tethersim/engine/paged_sector_heads.hpp"

namespace tethersim::testing {
namespace {

using engine::Index;
using engine::kNoIndex;
using engine::PagedSectorHeads;

TEST(PagedSectorHeads, HoldsOnlyOccupiedPagesAndAgreesWithTheDenseHeads) {
  constexpr std::uint64_t kCount = 10 * PagedSectorHeads::kPageSize + 300;  // a partial last page
  engine::BigVector<Index> dense(kCount, kNoIndex);
  dense[5] = 1;
  dense[3 * PagedSectorHeads::kPageSize + 17] = 2;
  dense[kCount - 1] = 3;
  PagedSectorHeads paged(dense, kCount);
  EXPECT_EQ(paged.pages(), 11u);
  EXPECT_EQ(paged.pages_held(), 3u);
  for (std::uint64_t s = 0; s < kCount; ++s) {
    ASSERT_EQ(paged.first(static_cast<std::uint32_t>(s)), dense[s]) << "sector " << s;
  }
  // Heads set at random, pages made as they are first written.
  std::mt19937 random(11);
  std::uniform_int_distribution<std::uint32_t> sector(0, kCount - 1);
  for (int step = 0; step < 5000; ++step) {
    const std::uint32_t s = sector(random);
    const auto value = static_cast<Index>(random() % 1000);
    paged.head(s) = value;
    dense[s] = value;
  }
  std::uint64_t visited = 0;
  std::uint32_t last = 0;
  paged.for_each_sector([&](std::uint32_t s) {
    EXPECT_TRUE(visited == 0 || s > last) << "sectors out of order";
    last = s;
    ++visited;
  });
  EXPECT_EQ(visited, paged.pages_held() * PagedSectorHeads::kPageSize - (PagedSectorHeads::kPageSize - 300));
  for (std::uint64_t s = 0; s < kCount; ++s) ASSERT_EQ(paged.first(static_cast<std::uint32_t>(s)), dense[s]);
  paged.clear();
  for (std::uint64_t s = 0; s < kCount; ++s) ASSERT_EQ(paged.first(static_cast<std::uint32_t>(s)), kNoIndex);
}

// The presynaptic terminal in a box 20 times wider with sectors of edge 200
// (56^3 dense heads, 222 particles in a few pages): the engine that keeps
// only the occupied pages runs the other's trajectory.
TEST(PagedSectorGrid, RunsTheDenseGridsTrajectory) {
  const std::vector<std::string> overrides = {
      "initial.parameters.vesicles=30", "initial.parameters.synapsin_dimers=90",
      "initial.parameters.docking_sites=10", "run.seed=3",
      "domain.lo=[-5600.0, -5600.0, -5600.0]", "domain.hi=[5600.0, 5600.0, 5600.0]",
      "domain.sector_size=200.0", "action_potential.windows=[{ start = 20.0, end = 60.0 }]"};
  Simulation paged(example("presynaptic.toml"), overrides);
  Simulation dense(example("presynaptic.toml"), overrides);
  ASSERT_FALSE(dense->grid().sparse());
  const std::size_t dense_bytes = dense->grid().memory_bytes();
  ASSERT_TRUE(paged->keep_occupied_sector_pages());
  ASSERT_TRUE(paged->grid().paged());
  EXPECT_LT(paged->grid().memory_bytes() * 4, dense_bytes);
  EXPECT_FALSE(paged->keep_occupied_sector_pages()) << "a paged grid is paged once";
  for (double t = 10.0; t <= 100.0; t += 10.0) {
    paged->run_until(t);
    dense->run_until(t);
    ASSERT_EQ(paged->state_hash(), dense->state_hash()) << "t = " << t;
    paged->check_invariants();
  }
  EXPECT_GT(paged->statistics().events[static_cast<int>(engine::EventKind::sector_crossing)], 100u);
}

// A gas fills its box: every page holds particles, and the dense heads stay.
TEST(PagedSectorGrid, AFullBoxKeepsItsDenseHeads) {
  Simulation gas(example("gas.toml"), {"initial.parameters.cells=12"});
  EXPECT_FALSE(gas->keep_occupied_sector_pages());
  EXPECT_FALSE(gas->grid().paged());
}

}  // namespace
}  // namespace tethersim::testing
