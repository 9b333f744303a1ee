// The two pieces of an engine's partial view for distributed runs: the
// particles' roles and the set of changed particles.
#include <gtest/gtest.h>

#include <vector>

#include "tethersim/engine/change_set.hpp"
#include "tethersim/engine/particle_roles.hpp"

namespace tethersim::engine {
namespace {

TEST(ParticleRoles, EveryParticleActiveAndOwnedUntilARoleChanges) {
  ParticleRoles roles;
  roles.assign(3);
  EXPECT_TRUE(roles.uniform());
  for (Index i = 0; i < 3; ++i) {
    EXPECT_TRUE(roles.active(i));
    EXPECT_TRUE(roles.owned(i));
    EXPECT_FALSE(roles.removed(i));
  }
  // Setting what is already so changes nothing, uniform or not.
  EXPECT_FALSE(roles.set_active(1, true));
  EXPECT_TRUE(roles.uniform());
  EXPECT_TRUE(roles.set_active(1, false));
  EXPECT_FALSE(roles.uniform());
  EXPECT_FALSE(roles.active(1));
  EXPECT_TRUE(roles.active(0));
  EXPECT_FALSE(roles.set_active(1, false));
  roles.set_owned(2, false);
  EXPECT_FALSE(roles.owned(2));
  EXPECT_TRUE(roles.owned(1));
}

TEST(ParticleRoles, NewSlotsAreFrozenAndRemovedOnesEmpty) {
  ParticleRoles roles;
  roles.assign(2);
  roles.append();
  EXPECT_FALSE(roles.uniform());
  EXPECT_FALSE(roles.active(2));
  EXPECT_FALSE(roles.owned(2));
  EXPECT_FALSE(roles.removed(2));
  roles.mark_removed(0);
  EXPECT_TRUE(roles.removed(0));
  EXPECT_FALSE(roles.active(0));
  EXPECT_FALSE(roles.owned(0));
  // Held again: no longer removed, and as frozen and unowned as the slot was.
  roles.mark_held(0);
  EXPECT_FALSE(roles.removed(0));
  EXPECT_FALSE(roles.active(0));
  roles.set_owned(0, true);
  EXPECT_TRUE(roles.owned(0));
}

TEST(ParticleRoles, RenumberingMovesRolesAndDropsTheTail) {
  ParticleRoles roles;
  roles.assign(4);
  roles.set_active(0, false);
  roles.set_owned(1, false);
  roles.mark_removed(3);
  // 0 -> 2, 1 -> 0, 2 -> 1, 3 -> 3 (dropped: 3 kept).
  std::vector<bool> done;
  roles.renumber(std::vector<Index>{2, 0, 1, 3}, 3, done);
  EXPECT_FALSE(roles.active(2));
  EXPECT_TRUE(roles.owned(2));
  EXPECT_TRUE(roles.active(0));
  EXPECT_FALSE(roles.owned(0));
  EXPECT_TRUE(roles.active(1));
  EXPECT_TRUE(roles.owned(1));
  EXPECT_GE(roles.memory_bytes(), 3u);
}

TEST(ChangeSet, NotesAParticleOnceWithItsFirstSector) {
  ChangeSet changes;
  changes.assign(4);
  changes.note(1, {0, 0, 0}, true);  // not tracking: nothing
  EXPECT_TRUE(changes.empty());
  changes.set_tracking(true);
  changes.note(2, {1, 2, 3}, true);
  changes.note(0, {4, 5, 6}, false);  // an infinite mass or a hub
  changes.note(2, {7, 8, 9}, false);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes.list()[0].particle, 2u);
  EXPECT_EQ(changes.list()[0].sector_before, (SectorCoords{1, 2, 3}));
  EXPECT_TRUE(changes.list()[0].mobile);
  EXPECT_EQ(changes.list()[1].particle, 0u);
  EXPECT_FALSE(changes.list()[1].mobile);
  EXPECT_TRUE(changes.marked(2));
  EXPECT_FALSE(changes.marked(1));
  EXPECT_FALSE(changes.changed(17));  // beyond the slots held: unchanged
}

TEST(ChangeSet, KeepingTheFirstChangesForgetsTheRest) {
  ChangeSet changes;
  changes.assign(5);
  changes.set_tracking(true);
  for (Index i : {4u, 1u, 3u}) changes.note(i, {0, 0, static_cast<std::int32_t>(i)}, true);
  changes.keep_first(1);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_TRUE(changes.marked(4));
  EXPECT_FALSE(changes.marked(1));
  EXPECT_FALSE(changes.marked(3));
  // Forgotten changes are noted again, with the sector given now.
  changes.note(3, {9, 9, 9}, true);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes.list()[1].sector_before, (SectorCoords{9, 9, 9}));
  changes.clear();
  EXPECT_TRUE(changes.empty());
  EXPECT_FALSE(changes.marked(4));
}

TEST(ChangeSet, RenumberingFollowsTheParticles) {
  ChangeSet changes;
  changes.assign(3);
  changes.set_tracking(true);
  changes.note(0, {1, 1, 1}, true);
  std::vector<bool> done;
  changes.renumber(std::vector<Index>{2, 0, 1}, 3, done);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes.list()[0].particle, 2u);
  EXPECT_TRUE(changes.marked(2));
  EXPECT_FALSE(changes.marked(0));
  changes.append();
  EXPECT_FALSE(changes.marked(3));
}

}  // namespace
}  // namespace tethersim::engine
