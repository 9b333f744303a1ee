// Block layout (ownership, halo depth, window ranks, neighbours), the
// record codec (every bit travels), and snapshots assembled from records.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "tethersim/decomposition/block_layout.hpp"
#include "tethersim/decomposition/record_codec.hpp"
#include "tethersim/decomposition/record_snapshot.hpp"

namespace tethersim::decomposition {
namespace {

TEST(BlockLayout, EverySectorHasOneOwnerAndBlocksAreNearEqual) {
  const BlockLayout layout({10, 7, 5}, {3, 2, 1}, {true, false, false});
  std::vector<int> count(6, 0);
  for (int x = 0; x < 10; ++x) {
    for (int y = 0; y < 7; ++y) {
      for (int z = 0; z < 5; ++z) {
        const int owner = layout.owner({x, y, z});
        ASSERT_GE(owner, 0);
        ASSERT_LT(owner, 6);
        ++count[static_cast<std::size_t>(owner)];
        EXPECT_EQ(layout.depth(owner, {x, y, z}), 0);
      }
    }
  }
  // 10 sectors over 3 blocks: 3 or 4 layers; 7 over 2: 3 or 4.
  for (int c : count) {
    EXPECT_GE(c, 3 * 3 * 5);
    EXPECT_LE(c, 4 * 4 * 5);
  }
}

TEST(BlockLayout, DepthWrapsAcrossPeriodicFacesOnly) {
  // Two blocks along x: sectors 0-5 and 6-11.
  const BlockLayout periodic({12, 4, 4}, {2, 1, 1}, {true, true, true});
  const BlockLayout open({12, 4, 4}, {2, 1, 1}, {false, false, false});
  const int left = periodic.owner({0, 0, 0});
  EXPECT_EQ(periodic.depth(left, {6, 0, 0}), 1);
  EXPECT_EQ(periodic.depth(left, {11, 0, 0}), 1);  // through the wrap
  EXPECT_EQ(open.depth(open.owner({0, 0, 0}), {11, 0, 0}), 6);
  EXPECT_TRUE(periodic.in_window(left, {8, 0, 0}));
  EXPECT_EQ(periodic.depth(left, {9, 0, 0}), 3);  // wraps: 9 -> 11 -> 0 is 3 layers
}

// Distance from a point to the nearest sector outside a rank's window, by
// brute force over every sector and its periodic images.
double brute_force_clearance(const BlockLayout& layout, int rank, const SectorIndex3& sector,
                             const std::array<double, 3>& below, const std::array<double, 3>& edge,
                             const std::array<bool, 3>& periodic) {
  const GridShape& n = layout.sectors();
  std::array<double, 3> point{};
  for (std::size_t k = 0; k < 3; ++k) point[k] = sector[k] * edge[k] + below[k];
  double best = std::numeric_limits<double>::infinity();
  for (int x = 0; x < n[0]; ++x) {
    for (int y = 0; y < n[1]; ++y) {
      for (int z = 0; z < n[2]; ++z) {
        const SectorIndex3 s{x, y, z};
        if (layout.in_window(rank, s)) continue;
        // Images one period either side along periodic axes.
        for (int ix = -1; ix <= 1; ++ix) {
          for (int iy = -1; iy <= 1; ++iy) {
            for (int iz = -1; iz <= 1; ++iz) {
              const std::array<int, 3> image{ix, iy, iz};
              double d2 = 0.0;
              bool skip = false;
              for (std::size_t k = 0; k < 3; ++k) {
                if (image[k] != 0 && !periodic[k]) skip = true;
                const double lo = (s[k] + image[k] * n[k]) * edge[k];
                const double hi = lo + edge[k];
                const double gap = std::max({lo - point[k], point[k] - hi, 0.0});
                d2 += gap * gap;
              }
              if (!skip) best = std::min(best, std::sqrt(d2));
            }
          }
        }
      }
    }
  }
  return best;
}

TEST(BlockLayout, ClearanceIsTheDistanceToTheWindowsOutside) {
  const std::array<double, 3> edge{1.0, 1.5, 2.0};
  for (const std::array<bool, 3> periodic :
       {std::array<bool, 3>{true, true, false}, std::array<bool, 3>{false, false, false}}) {
    // x: 2 blocks of 10 sectors, so each window leaves 4 layers outside; y:
    // 2 blocks of 6 (a 12-sector window, all of y); z: one block.
    const BlockLayout layout({20, 12, 4}, {2, 2, 1}, periodic);
    int checked = 0;
    for (int rank = 0; rank < 4; ++rank) {
      for (int x = 0; x < 20; ++x) {
        for (int y : {0, 5, 9}) {
          const SectorIndex3 s{x, y, 1};
          if (!layout.in_window(rank, s)) {
            EXPECT_EQ(layout.clearance(rank, s, {0.3, 0.3, 0.3}, {0.7, 1.2, 1.7}, edge), 0.0);
            continue;
          }
          for (double fx : {0.0, 0.25, 1.0}) {
            const std::array<double, 3> below{fx * edge[0], 0.4 * edge[1], 0.5 * edge[2]};
            std::array<double, 3> above{};
            for (std::size_t k = 0; k < 3; ++k) above[k] = edge[k] - below[k];
            const double got = layout.clearance(rank, s, below, above, edge);
            const double want = brute_force_clearance(layout, rank, s, below, edge, periodic);
            if (std::isinf(want)) {
              EXPECT_TRUE(std::isinf(got)) << rank << " " << x << " " << y;
            } else {
              EXPECT_NEAR(got, want, 1e-12) << rank << " " << x << " " << y << " " << fx;
            }
            ++checked;
          }
        }
      }
    }
    EXPECT_GT(checked, 100);
  }
}

TEST(BlockLayout, WindowRanksAreExactlyTheRanksWithinTheHalo) {
  const BlockLayout layout({16, 12, 8}, {4, 3, 2}, {true, false, true});
  std::vector<int> ranks;
  for (int x = 0; x < 16; x += 3) {
    for (int y = 0; y < 12; y += 2) {
      for (int z = 0; z < 8; ++z) {
        layout.window_ranks({x, y, z}, ranks);
        const std::set<int> got(ranks.begin(), ranks.end());
        EXPECT_EQ(got.size(), ranks.size()) << "a rank listed twice";
        for (int r = 0; r < layout.rank_count(); ++r) {
          EXPECT_EQ(got.count(r) == 1, layout.in_window(r, {x, y, z})) << "rank " << r;
        }
      }
    }
  }
}

TEST(BlockLayout, AnyHaloDepthSetsTheWindowsAndTheirRanks) {
  // 40 sectors along x in 4 blocks of 10: a sector 3 layers below block 1
  // is in its window from a depth of 3 on, and the ranks that list it are
  // exactly those whose windows hold it, at every depth allowed.
  for (int h = kMinHaloDepth; h <= kMaxHaloDepth; ++h) {
    const BlockLayout layout({40, 4, 4}, {4, 1, 1}, {false, false, false}, h);
    EXPECT_EQ(layout.halo_depth(), h);
    EXPECT_EQ(layout.in_window(1, {7, 0, 0}), h >= 3) << "depth " << h;
    EXPECT_EQ(layout.in_window(1, {20 + h - 1, 0, 0}), true) << "depth " << h;
    EXPECT_EQ(layout.in_window(1, {20 + h, 0, 0}), false) << "depth " << h;
    std::vector<int> ranks;
    for (int x = 0; x < 40; ++x) {
      layout.window_ranks({x, 0, 0}, ranks);
      for (int r = 0; r < 4; ++r) {
        EXPECT_EQ(std::count(ranks.begin(), ranks.end(), r), layout.in_window(r, {x, 0, 0}) ? 1 : 0)
            << "depth " << h << ", sector " << x << ", rank " << r;
      }
    }
    // Neighbours: the blocks within the halo and two more layers.
    EXPECT_EQ(layout.neighbours(0), (std::vector<int>{1}));
  }
  EXPECT_THROW(BlockLayout({40, 4, 4}, {4, 1, 1}, {false, false, false}, kMinHaloDepth - 1), std::invalid_argument);
  EXPECT_THROW(BlockLayout({40, 4, 4}, {4, 1, 1}, {false, false, false}, kMaxHaloDepth + 1), std::invalid_argument);
}

TEST(BlockLayout, LayersInOtherWindowsMarkExactlyTheSectorsOtherRanksReach) {
  // Uneven cuts, periodic and open axes, one axis of a single block: every
  // sector is reached by another rank's window exactly when one of its
  // three layers is marked.
  BlockLayout layout({24, 12, 8}, {3, 3, 1}, {true, false, true});
  layout.set_cuts({std::vector<int>{0, 2, 14, 24}, std::vector<int>{0, 5, 6, 12}, std::vector<int>{0, 8}});
  std::vector<int> ranks;
  int marked = 0;
  int unmarked = 0;
  for (int rank = 0; rank < layout.rank_count(); ++rank) {
    const auto layers = layout.layers_in_other_windows(rank);
    for (int x = 0; x < 24; ++x) {
      for (int y = 0; y < 12; ++y) {
        for (int z = 0; z < 8; ++z) {
          layout.window_ranks({x, y, z}, ranks);
          const bool reached = std::any_of(ranks.begin(), ranks.end(), [&](int r) { return r != rank; });
          const bool in_mask = layers[0][static_cast<std::size_t>(x)] != 0 ||
                               layers[1][static_cast<std::size_t>(y)] != 0 ||
                               layers[2][static_cast<std::size_t>(z)] != 0;
          ASSERT_EQ(in_mask, reached) << "rank " << rank << " sector " << x << "," << y << "," << z;
          (reached ? marked : unmarked) += 1;
        }
      }
    }
  }
  EXPECT_GT(marked, 0);
  EXPECT_GT(unmarked, 0);
}

TEST(BlockLayout, NeighboursAreSymmetricAndMovedCutsChangeOwners) {
  BlockLayout layout({20, 6, 6}, {5, 1, 1}, {false, false, false});
  for (int r = 0; r < 5; ++r) {
    for (int n : layout.neighbours(r)) {
      const std::vector<int> back = layout.neighbours(n);
      EXPECT_NE(std::find(back.begin(), back.end(), r), back.end());
    }
  }
  // Blocks of 4 sectors; 5 layers reach two blocks away, not three.
  const std::vector<int> of0 = layout.neighbours(0);
  EXPECT_EQ(std::set<int>(of0.begin(), of0.end()), (std::set<int>{1, 2}));
  std::array<std::vector<int>, 3> cuts = layout.cuts();
  cuts[0] = {0, 2, 4, 6, 8, 20};
  layout.set_cuts(cuts);
  EXPECT_EQ(layout.owner({7, 0, 0}), 3);
  EXPECT_EQ(layout.owner({19, 0, 0}), 4);
}

engine::ParticleRecord sample_record(ParticleId id) {
  engine::ParticleRecord r;
  r.particle.id = id;
  r.particle.species = 2;
  r.particle.alive = 1;
  r.particle.t0 = 1.0 / 3.0;
  r.particle.u0 = Vec3(-0.0, std::nextafter(1.0, 2.0), 1e-300);
  r.particle.v = Vec3(std::numeric_limits<double>::denorm_min(), -7.25, 3.0e10);
  r.particle.counter = 4000000000u;
  r.particle.sector = {3, -1, 7};
  r.particle.ri_index = (std::uint64_t{1} << 60) + 5;
  r.particle.ri_time = std::numeric_limits<double>::infinity();
  r.reaction_times = {0.5, std::numeric_limits<double>::infinity()};
  r.tethers = {id + 1, id + 7};
  r.loaded_edges.push_back({id, id + 1, Vec3(0.1, -0.2, 0.3), 2.5, 99});
  return r;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(RecordCodec, EveryBitTravels) {
  Bytes bytes;
  const engine::ParticleRecord a = sample_record(10), b = sample_record(20);
  append_record(bytes, a);
  append_record(bytes, b);
  EXPECT_EQ(bytes.size(), record_size(a) + record_size(b));
  const std::vector<engine::ParticleRecord> back = read_records(bytes.data(), bytes.size());
  ASSERT_EQ(back.size(), 2u);
  const engine::ParticleRecord& r = back[0];
  EXPECT_EQ(r.particle.id, 10u);
  EXPECT_EQ(r.particle.species, 2);
  EXPECT_TRUE(same_bits(r.particle.t0, a.particle.t0));
  for (int k = 0; k < 3; ++k) {
    EXPECT_TRUE(same_bits(r.particle.u0[k], a.particle.u0[k])) << k;
    EXPECT_TRUE(same_bits(r.particle.v[k], a.particle.v[k])) << k;
    EXPECT_EQ(r.particle.sector[static_cast<std::size_t>(k)], a.particle.sector[static_cast<std::size_t>(k)]);
  }
  EXPECT_EQ(r.particle.counter, a.particle.counter);
  EXPECT_EQ(r.particle.ri_index, a.particle.ri_index);
  EXPECT_TRUE(same_bits(r.particle.ri_time, a.particle.ri_time));
  EXPECT_EQ(r.reaction_times, a.reaction_times);
  EXPECT_EQ(r.tethers, a.tethers);
  ASSERT_EQ(r.loaded_edges.size(), 1u);
  EXPECT_EQ(r.loaded_edges[0].sequence, 99u);
  EXPECT_TRUE(same_bits(r.loaded_edges[0].impulse[1], -0.2));
  EXPECT_EQ(back[1].particle.id, 20u);
}

TEST(RecordCodec, TruncatedBufferIsRejected) {
  Bytes bytes;
  append_record(bytes, sample_record(1));
  EXPECT_THROW(read_records(bytes.data(), bytes.size() - 3), std::runtime_error);
}

TEST(RecordSnapshot, LinksComeOnceFromEitherEndAndParticlesInIdOrder) {
  // A hub (id 0) whose record lacks a partner's links, as on rank 0.
  engine::ParticleRecord hub, p5, p3;
  hub.particle.id = 0;
  p5.particle.id = 5;
  p5.tethers = {0, 3};
  p5.loaded_edges.push_back({0, 5, Vec3(1, 0, 0), 4.0, 1});
  p3.particle.id = 3;
  p3.tethers = {5};
  p3.reaction_times = {7.0};
  const engine::EngineSnapshot s = snapshot_of_records({p5, hub, p3}, 2.0, 1);
  ASSERT_EQ(s.particles.size(), 3u);
  EXPECT_EQ(s.particles[0].id, 0u);
  EXPECT_EQ(s.particles[1].id, 3u);
  EXPECT_EQ(s.particles[2].id, 5u);
  ASSERT_EQ(s.tethers.size(), 2u);
  EXPECT_EQ(s.tethers[0].a, 0u);
  EXPECT_EQ(s.tethers[0].b, 5u);
  EXPECT_EQ(s.tethers[1].a, 3u);
  EXPECT_EQ(s.tethers[1].b, 5u);
  ASSERT_EQ(s.loaded_edges.size(), 1u);  // the hub's edge, from its partner
  EXPECT_EQ(s.loaded_edges[0].a, 0u);
  ASSERT_EQ(s.reaction_times.size(), 1u);
  EXPECT_EQ(s.reaction_times[0][1], 7.0);
  EXPECT_TRUE(std::isinf(s.reaction_times[0][0]));
  EXPECT_EQ(s.time, 2.0);
}

}  // namespace
}  // namespace tethersim::decomposition
