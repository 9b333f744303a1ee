// Partner lists (engine/adjacency.hpp): tethers without payloads, loaded
// edges with them; entries counted through adds, removes, clears and reuse
// of freed entries; renumbering; memory sized by what is held.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "tethersim/engine/adjacency.hpp"

namespace tethersim::engine {
namespace {

template <typename Lists>
std::vector<std::pair<Index, std::uint32_t>> listed(const Lists& lists, Index particle) {
  std::vector<std::pair<Index, std::uint32_t>> out;
  lists.for_each(particle, [&](Index j, std::uint32_t payload) { out.emplace_back(j, payload); });
  std::sort(out.begin(), out.end());
  return out;
}

TEST(PartnerLists, TethersKeepPartnersOnly) {
  TetherLists tethers;
  tethers.resize_particles(4);
  tethers.add(0, 1);
  tethers.add(1, 0);
  tethers.add(0, 2);
  tethers.add(2, 0);
  EXPECT_EQ(tethers.entries(), 4u);
  EXPECT_EQ(listed(tethers, 0), (std::vector<std::pair<Index, std::uint32_t>>{{1, 0}, {2, 0}}));
  EXPECT_TRUE(tethers.contains(2, 0));
  EXPECT_FALSE(tethers.contains(3, 0));
  EXPECT_EQ(tethers.payload(0, 2), 0u);
  EXPECT_EQ(tethers.payload(0, 3), kNoIndex);
  EXPECT_TRUE(tethers.remove(0, 1));
  EXPECT_FALSE(tethers.remove(0, 1));
  EXPECT_EQ(tethers.entries(), 3u);
  tethers.clear(0);
  EXPECT_EQ(tethers.entries(), 2u);
  EXPECT_TRUE(tethers.empty(0));
  EXPECT_EQ(tethers.degree(2), 1u);
  // Freed entries are reused before the store grows.
  const std::size_t bytes = tethers.memory_bytes();
  tethers.add(3, 1);
  tethers.add(3, 2);
  EXPECT_EQ(tethers.memory_bytes(), bytes);
  EXPECT_EQ(tethers.entries(), 4u);
  EXPECT_EQ(listed(tethers, 3), (std::vector<std::pair<Index, std::uint32_t>>{{1, 0}, {2, 0}}));
}

TEST(PartnerLists, EdgesKeepTheirPayloads) {
  Adjacency edges;
  edges.resize_particles(3);
  edges.add(0, 1, 7);
  edges.add(1, 0, 7);
  edges.add(1, 2, 9);
  EXPECT_EQ(edges.payload(1, 2), 9u);
  EXPECT_EQ(edges.payload(0, 1), 7u);
  EXPECT_EQ(listed(edges, 1), (std::vector<std::pair<Index, std::uint32_t>>{{0, 7}, {2, 9}}));
  // Renumbering moves the lists with their particles and renames partners.
  edges.renumber(std::vector<Index>{2, 0, 1});
  EXPECT_EQ(listed(edges, 0), (std::vector<std::pair<Index, std::uint32_t>>{{1, 9}, {2, 7}}));
  EXPECT_EQ(listed(edges, 2), (std::vector<std::pair<Index, std::uint32_t>>{{0, 7}}));
  EXPECT_EQ(edges.entries(), 3u);
}

TEST(PartnerLists, ATetherEntryIsTwoWordsAndAKnownCountLeavesLittleSpare) {
  // 2 x 10^6 membrane particles hold 10^7 tether entries: sized at once,
  // the store holds them with at most an eighth spare, not a doubling's.
  TetherLists tethers;
  const std::size_t particles = 20000, entries = 100000;
  tethers.resize_particles(particles);
  tethers.reserve_entries(entries);
  for (std::size_t k = 0; k < entries; ++k) {
    tethers.add(static_cast<Index>(k % particles), static_cast<Index>((k * 7 + 1) % particles));
  }
  EXPECT_EQ(tethers.entries(), entries);
  // Heads of 4 bytes and entries of 8, each with the gentle slack at most.
  auto gentle = [](std::size_t n) { return n + n / 8 + 1024; };
  EXPECT_LE(tethers.memory_bytes(), 4 * gentle(particles) + 8 * gentle(entries));
  EXPECT_GE(tethers.memory_bytes(), 4 * particles + 8 * entries);
}

}  // namespace
}  // namespace tethersim::engine
