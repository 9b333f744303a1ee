// Owner-computes windows: whether two windows share a sector decides which
// ranks exchange outcome batches (OwnerComputesWindows::channel_ranks).
#include <gtest/gtest.h>

#include <vector>

#include "tethersim/engine/sector_window.hpp"

namespace tethersim::testing {
namespace {

engine::SectorWindow line(std::vector<std::uint8_t> x, std::vector<std::uint8_t> y = {1}) {
  engine::SectorWindow w;
  w.in[0] = std::move(x);
  w.in[1] = std::move(y);
  w.in[2] = {1};
  return w;
}

TEST(SectorWindow, MeetsOnlyWhereEveryAxisShares) {
  const engine::SectorWindow left = line({1, 1, 1, 0, 0, 0, 0, 0});
  EXPECT_TRUE(left.meets(line({0, 0, 1, 1, 1, 0, 0, 0})));
  EXPECT_TRUE(line({0, 0, 1, 1, 1, 0, 0, 0}).meets(left));
  EXPECT_FALSE(left.meets(line({0, 0, 0, 1, 1, 1, 0, 0})));
  // Wrapped across a periodic face: its last layer is next to the first.
  EXPECT_TRUE(left.meets(line({1, 0, 0, 0, 0, 1, 1, 1})));
  // Sharing x but not y is no common sector.
  const engine::SectorWindow low = line({1, 1, 1, 0}, {1, 1, 0, 0});
  EXPECT_FALSE(low.meets(line({1, 1, 1, 0}, {0, 0, 1, 1})));
  EXPECT_TRUE(low.meets(line({0, 0, 1, 1}, {0, 1, 1, 0})));
}

}  // namespace
}  // namespace tethersim::testing
