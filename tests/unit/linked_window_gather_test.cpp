// What a rank asks for at an owner-computes round's start with tethers and
// loaded groups: the members of every loaded component reaching its window
// (through anchors, not hubs), those outside the window again for the
// records that name them, and the tether partners of members it lacks;
// nothing twice, nothing for particles outside every component.
#include <gtest/gtest.h>

#include <unordered_set>
#include <vector>

#include "tethersim/decomposition/linked_window_gather.hpp"

namespace tethersim::testing {
namespace {

// A line of 10 sectors along x (one along y and z); the window holds 0-3.
engine::SectorWindow window_0_to_3() {
  engine::SectorWindow w;
  w.in[0] = {1, 1, 1, 1, 0, 0, 0, 0, 0, 0};
  w.in[1] = {1};
  w.in[2] = {1};
  return w;
}

engine::ParticleRecord at_sector(ParticleId id, std::int32_t x, SpeciesIndex species = 0) {
  engine::ParticleRecord r;
  r.particle.id = id;
  r.particle.species = species;
  r.particle.sector = {x, 0, 0};
  return r;
}

void load(engine::ParticleRecord& r, ParticleId a, ParticleId b) {
  engine::LoadedEdgeSnapshot e;
  e.a = a;
  e.b = b;
  r.loaded_edges.push_back(e);
}

TEST(LinkedWindowGather, AsksForComponentsReachingTheWindowAndTheirTetherPartners) {
  const std::vector<bool> hubs{false, true};  // species 1 is a hub
  std::vector<engine::ParticleRecord> held;
  // 1 (in the window) loaded to 2 (sector 5, held), which is loaded to 3
  // (never received: named by 2's record only) and tethered to 4 (never
  // received).
  held.push_back(at_sector(1, 3));
  held.push_back(at_sector(2, 5));
  load(held.back(), 1, 2);
  load(held.back(), 2, 3);
  held.back().tethers = {4};
  // 5 (in the window) loaded to the hub 6, which is loaded to 7 (sector 8,
  // held): a component does not reach through a hub.
  held.push_back(at_sector(5, 2));
  load(held.back(), 5, 6);
  held.push_back(at_sector(6, 9, 1));
  held.push_back(at_sector(7, 8));
  load(held.back(), 6, 7);
  // 8 and 9: a component outside the window, tethered to 10: none asked.
  held.push_back(at_sector(8, 7));
  load(held.back(), 8, 9);
  held.back().tethers = {10};
  held.push_back(at_sector(9, 7));
  // 11 in the window, tethered to 12, never received (a lone tether of a
  // window particle: its partner is asked for).
  held.push_back(at_sector(11, 0));
  held.back().tethers = {12};

  const engine::SectorWindow window = window_0_to_3();
  std::unordered_set<ParticleId> asked;
  EXPECT_EQ(decomposition::link_ends_to_ask(held, window, hubs, asked), (std::vector<ParticleId>{2, 3, 4, 12}));
  // The answers come; 3 is loaded to 13 further on: only 13 is new.
  asked = {2, 3, 4, 12};
  held.push_back(at_sector(3, 6));
  load(held.back(), 2, 3);
  load(held.back(), 3, 13);
  held.push_back(at_sector(4, 6));
  held.push_back(at_sector(12, 4));
  EXPECT_EQ(decomposition::link_ends_to_ask(held, window, hubs, asked), (std::vector<ParticleId>{13}));
  asked.insert(13);
  held.push_back(at_sector(13, 7));
  EXPECT_TRUE(decomposition::link_ends_to_ask(held, window, hubs, asked).empty());
}

TEST(LinkedWindowGather, ARecordAnswersForItselfAndForItsPartners) {
  engine::ParticleRecord r = at_sector(1, 0);
  r.tethers = {2};
  load(r, 1, 3);
  load(r, 0, 1);
  const auto answered = [&](std::vector<ParticleId> ids) {
    return !decomposition::answers_by_rank({r}, {ids})[0].empty();
  };
  EXPECT_TRUE(answered({1}));
  EXPECT_TRUE(answered({2}));
  EXPECT_TRUE(answered({3}));
  EXPECT_TRUE(answered({0}));
  EXPECT_FALSE(answered({4, 5}));
  EXPECT_FALSE(answered({}));
}

TEST(LinkedWindowGather, EachRankGetsEveryRecordAnsweringItOnce) {
  std::vector<engine::ParticleRecord> mine{at_sector(1, 0), at_sector(2, 0), at_sector(3, 0)};
  mine[0].tethers = {2};
  load(mine[1], 2, 7);
  // Rank 0 asks for 2 (itself, and named by 1's tether), rank 1 for nothing,
  // rank 2 for 7 and 2 (2 answers both, once), rank 3 for 9 (nobody).
  const std::vector<std::vector<std::size_t>> out = decomposition::answers_by_rank(mine, {{2}, {}, {7, 2}, {9}});
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0], (std::vector<std::size_t>{0, 1}));
  EXPECT_TRUE(out[1].empty());
  EXPECT_EQ(out[2], (std::vector<std::size_t>{0, 1}));
  EXPECT_TRUE(out[3].empty());
}

}  // namespace
}  // namespace tethersim::testing
