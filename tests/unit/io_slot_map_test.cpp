// Rows of trajectory and checkpoint arrays: a particle's rank in id order,
// and no row for an id the map does not hold (a trajectory of some species).
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

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

// Every slot of every rank falls in a round that is run, in the part of
// its range written in that round, and the parts of a range tile it. The
// rank with the most slots sets the rounds: with 65 537 slots on 2 ranks
// rank 0 holds 32 768 (one round) and rank 1 32 769 (two).
TEST(SlotRounds, EverySlotIsWrittenInExactlyOneRound) {
  for (const auto& [total, ranks, per_round] :
       std::vector<std::tuple<std::uint64_t, int, std::uint64_t>>{
           {65537, 2, 32768}, {10, 3, 2}, {10, 3, 4}, {0, 2, 8}, {7, 8, 1}, {143748, 3, 32768}}) {
    const SlotRounds rounds = slot_rounds(total, ranks, per_round);
    EXPECT_GE(rounds.count, 1u);
    for (int rank = 0; rank < ranks; ++rank) {
      const SlotRange range = slot_range(total, ranks, rank);
      std::uint64_t next = range.begin;
      for (std::uint64_t round = 0; round < rounds.count; ++round) {
        const SlotRange part = rounds.part(range, round);
        EXPECT_EQ(part.begin, next) << total << " slots, rank " << rank << ", round " << round;
        EXPECT_LE(part.size(), per_round);
        for (std::uint64_t slot = part.begin; slot < part.end; ++slot) {
          ASSERT_EQ(rounds.round_of(range, slot), round) << "slot " << slot;
        }
        next = part.end;
      }
      EXPECT_EQ(next, range.end) << total << " slots on " << ranks << " ranks: rank " << rank
                                 << "'s last slots are in no round";
    }
  }
  EXPECT_EQ(slot_rounds(65537, 2, 32768).count, 2u);
}

TEST(SlotOwner, IsTheRankWhoseRangeHoldsTheSlot) {
  for (int ranks : {1, 2, 3, 7}) {
    for (std::uint64_t slot = 0; slot < 20; ++slot) {
      const SlotRange range = slot_range(20, ranks, slot_owner(20, ranks, slot));
      EXPECT_TRUE(range.begin <= slot && slot < range.end) << slot << " on " << ranks << " ranks";
    }
  }
}

}  // namespace
}  // namespace tethersim
