// Rows of trajectory and checkpoint arrays: a particle's rank in id order,
// and no row for an id the map does not hold (a trajectory of some species).
#include <gtest/gtest.h>

#include "tethersim/io/slot_map.hpp"

namespace tethersim {
namespace {

TEST(SlotMap, DenseIdsAreTheirOwnRows) {
  const SlotMap slots(std::vector<ParticleId>{0, 1, 2, 3});
  EXPECT_TRUE(slots.dense());
  EXPECT_EQ(slots.slot(2), 2u);
  EXPECT_EQ(slots.find(3), std::optional<std::uint64_t>(3));
  EXPECT_EQ(slots.find(4), std::nullopt);
}

TEST(SlotMap, SparseIdsFindTheirRankAndNothingElse) {
  const SlotMap slots(std::vector<ParticleId>{5, 9, 20});
  EXPECT_FALSE(slots.dense());
  EXPECT_EQ(slots.id(1), 9u);
  EXPECT_EQ(slots.find(20), std::optional<std::uint64_t>(2));
  for (ParticleId missing : {0u, 6u, 10u, 21u}) EXPECT_EQ(slots.find(missing), std::nullopt) << missing;
}

TEST(SlotMap, AnEmptyMapHoldsNoId) {
  const SlotMap slots(std::vector<ParticleId>{});
  EXPECT_EQ(slots.size(), 0u);
  EXPECT_EQ(slots.find(0), std::nullopt);
}

TEST(SlotRange, RanksSplitTheRowsWithoutGapOrOverlap) {
  std::uint64_t next = 0;
  for (int rank = 0; rank < 3; ++rank) {
    const SlotRange range = slot_range(10, 3, rank);
    EXPECT_EQ(range.begin, next);
    next = range.end;
  }
  EXPECT_EQ(next, 10u);
}

}  // namespace
}  // namespace tethersim
