// How the engine stores particles compactly: sector coordinates packed into
// 8 bytes (SectorGrid::pack, unpack), the slots of scattered ids in 4-byte
// buckets (SlotsById), and the pages of a start's particle list given back
// as the engine reads it (ReadOncePages).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "tethersim/engine/read_once_pages.hpp"
#include "tethersim/engine/sector_grid.hpp"
#include "tethersim/engine/slots_by_id.hpp"

namespace tethersim::testing {
namespace {

engine::SectorGrid grid_of(double x, double y, double z) {
  Domain domain;
  domain.hi = Vec3(x, y, z);
  return engine::SectorGrid(domain, 1.0);
}

TEST(PackedSector, EveryCoordinateComesBackOnGridsOfEveryShape) {
  // A long thin box (3 000 000 sectors along one axis), a cube, a flat
  // sheet and a single sector: the fields take the bits each extent needs.
  for (const Vec3& box : {Vec3(10, 3e6, 10), Vec3(126, 126, 126), Vec3(1000, 1000, 3), Vec3(1, 1, 1),
                          Vec3(2e4, 3, 3e4)}) {
    const engine::SectorGrid grid = grid_of(box.x(), box.y(), box.z());
    const auto shape = grid.shape();
    std::mt19937_64 random(5);
    for (int trial = 0; trial < 20000; ++trial) {
      engine::SectorCoords c;
      for (int k = 0; k < 3; ++k) {
        // The corners too: 0 and shape - 1 on every axis.
        const auto pick = random() % 4;
        c[k] = pick == 0 ? 0 : pick == 1 ? shape[k] - 1 : static_cast<std::int32_t>(random() % shape[k]);
      }
      ASSERT_EQ(grid.unpack(grid.pack(c)), c) << "grid " << shape[0] << " x " << shape[1] << " x " << shape[2];
    }
  }
}

TEST(PackedSector, DistinctSectorsPackDistinctly) {
  const engine::SectorGrid grid = grid_of(7, 5, 3);
  std::vector<std::uint64_t> seen;
  for (std::int32_t x = 0; x < 7; ++x) {
    for (std::int32_t y = 0; y < 5; ++y) {
      for (std::int32_t z = 0; z < 3; ++z) seen.push_back(grid.pack({x, y, z}).bits);
    }
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end());
}

// The 27 neighbours of every sector, against a direct enumeration: the
// interior shortcut (fixed offsets, no shifts) and the faces (wrapped with
// a shift on periodic axes, dropped on walls) give the same sectors and
// shifts in the same order.
TEST(SectorNeighbourhood, EverySectorMatchesADirectEnumeration) {
  for (const bool periodic : {true, false}) {
    Domain domain;
    domain.hi = Vec3(7, 5, 9);
    if (periodic) domain.boundary = {Boundary::periodic, Boundary::periodic, Boundary::reflective};
    const engine::SectorGrid grid(domain, 1.0);
    const auto shape = grid.shape();
    std::array<std::uint32_t, 27> sectors;
    std::array<Vec3, 27> shifts;
    for (std::int32_t x = 0; x < shape[0]; ++x) {
      for (std::int32_t y = 0; y < shape[1]; ++y) {
        for (std::int32_t z = 0; z < shape[2]; ++z) {
          const int count = grid.neighbourhood({x, y, z}, sectors, shifts);
          int t = 0;
          for (int dx = -1; dx <= 1; ++dx) {
            for (int dy = -1; dy <= 1; ++dy) {
              for (int dz = -1; dz <= 1; ++dz) {
                engine::SectorCoords n{x + dx, y + dy, z + dz};
                Vec3 shift = Vec3::Zero();
                bool dropped = false;
                for (int k = 0; k < 3; ++k) {
                  if (n[k] >= 0 && n[k] < shape[k]) continue;
                  if (!grid.periodic(k)) {
                    dropped = true;
                    continue;
                  }
                  shift[k] = n[k] < 0 ? -domain.length()[k] : domain.length()[k];
                  n[k] = (n[k] + shape[k]) % shape[k];
                }
                if (dropped) continue;
                ASSERT_LT(t, count);
                ASSERT_EQ(sectors[t], grid.linear(n)) << x << " " << y << " " << z << " neighbour " << t;
                ASSERT_EQ(shifts[t], shift) << x << " " << y << " " << z << " neighbour " << t;
                ++t;
              }
            }
          }
          ASSERT_EQ(t, count);
        }
      }
    }
  }
}

TEST(SlotsById, AgreesWithAMapThroughInsertsErasuresAndReturns) {
  // A window's churn: ids arrive in new slots, leave (their slot keeps the
  // id, as a removed slot does), and come back in another slot. Scattered
  // ids, many sharing probe runs, so that erasure by backward shift must
  // keep every later id reachable.
  engine::SlotsById table;
  engine::SlotsById::Ids ids;
  std::map<ParticleId, std::uint32_t> reference;
  std::mt19937_64 random(11);
  const auto some_id = [&] { return (random() % 3000) * 7919 + 1000000007ULL; };
  for (int step = 0; step < 100000; ++step) {
    const ParticleId id = some_id();
    const auto held = reference.find(id);
    if (held != reference.end() && random() % 2 == 0) {
      table.erase(id, ids);
      reference.erase(held);
    } else if (held == reference.end()) {
      ids.push_back(id);
      const auto slot = static_cast<std::uint32_t>(ids.size() - 1);
      table.insert(slot, ids);
      reference[id] = slot;
    }
    if (step % 499 == 0) {
      ASSERT_EQ(table.size(), reference.size());
      for (int probe = 0; probe < 3000; ++probe) {
        const ParticleId asked = static_cast<ParticleId>(probe) * 7919 + 1000000007ULL;
        const auto found = reference.find(asked);
        ASSERT_EQ(table.find(asked, ids), found == reference.end() ? engine::SlotsById::kNone : found->second)
            << "id " << asked << " at step " << step;
      }
    }
  }
  std::size_t listed = 0;
  table.for_each([&](std::uint32_t slot) {
    ++listed;
    ASSERT_EQ(reference.at(ids[slot]), slot);
  });
  EXPECT_EQ(listed, reference.size());
  // 4 bytes a bucket, at most 70% full after growing by doubling.
  EXPECT_LE(table.memory_bytes(), 2 * 4 * reference.size() * 10 / 7 + 64);
}

TEST(ReadOncePages, PagesReadAreGivenBackAndNothingElseIsTouched) {
  // 8 MiB of ones, not page aligned: what was read reads as zeros once its
  // pages are given back (private anonymous memory), except the partial
  // pages at either end, which may hold the allocator's bookkeeping.
  constexpr std::size_t kWords = (std::size_t{8} << 20) / sizeof(std::uint64_t) + 3;
  std::vector<std::uint64_t> words(kWords, 1);
  const std::size_t bytes = words.size() * sizeof(std::uint64_t);
  engine::ReadOncePages pages(words.data(), bytes);
  // A little read: below the step, nothing goes yet.
  pages.read_through(4096);
  for (std::size_t k = 0; k < 4096 / sizeof(std::uint64_t); ++k) ASSERT_EQ(words[k], 1u);
  // Half read: whole pages inside the first half go, the second half stays.
  pages.read_through(bytes / 2);
  const auto address = [&](std::size_t k) { return reinterpret_cast<std::uintptr_t>(&words[k]); };
  std::size_t zeros_in_first_half = 0;
  for (std::size_t k = 0; k < kWords / 2; ++k) zeros_in_first_half += words[k] == 0 ? 1 : 0;
  EXPECT_GT(zeros_in_first_half, kWords / 2 - 2 * 4096 / sizeof(std::uint64_t));
  for (std::size_t k = kWords / 2 + 1; k < kWords; ++k) ASSERT_EQ(words[k], 1u) << "word " << k;
  // All read: every whole page goes; the words before the first page
  // boundary and after the last are kept.
  pages.read_through(bytes);
  for (std::size_t k = 0; k < kWords; ++k) {
    const bool inside = address(k) >= (address(0) + 4095) / 4096 * 4096 &&
                        address(k) + sizeof(std::uint64_t) <= (address(0) + bytes) / 4096 * 4096;
    if (!inside) {
      ASSERT_EQ(words[k], 1u) << "word " << k << " outside the whole pages";
    }
  }
  std::size_t zeros = 0;
  for (std::uint64_t w : words) zeros += w == 0 ? 1 : 0;
  EXPECT_GT(zeros, kWords - 2 * 4096 / sizeof(std::uint64_t));
}

}  // namespace
}  // namespace tethersim::testing
