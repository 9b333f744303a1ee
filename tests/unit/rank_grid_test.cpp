// Rank grids over the sector grid (decomposition/rank_grid).
#include <gtest/gtest.h>

#include "tethersim/decomposition/rank_grid.hpp"

namespace tethersim::decomposition {
namespace {

TEST(RankGrid, OneRankOwnsEverything) {
  EXPECT_EQ(choose_rank_grid(1, {10, 10, 10}), (GridShape{1, 1, 1}));
}

TEST(RankGrid, SmallestHaloWins) {
  // Halos are kHaloDepth = 4 layers. On 20^3 sectors an 8x1x1 grid has a
  // halo of 10.5*20*20 - 1000 = 3200 sectors per rank, 4x2x1 one of
  // 13*18*20 - 1000 = 3680, 2x2x2 one of 18^3 - 10^3 = 4832.
  EXPECT_EQ(choose_rank_grid(8, {20, 20, 20}), (GridShape{8, 1, 1}));
  // Many ranks: slabs would be too thin, cubes have the smallest halo.
  EXPECT_EQ(choose_rank_grid(64, {20, 20, 20}), (GridShape{4, 4, 4}));
  // A flat box is never cut across its thin axis.
  EXPECT_EQ(choose_rank_grid(8, {200, 200, 20}), (GridShape{4, 2, 1}));
  const auto g = choose_rank_grid(2, {20, 20, 20});
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ((*g)[0] * (*g)[1] * (*g)[2], 2);
}

TEST(RankGrid, LongBoxesSplitAlongTheirLongAxis) {
  EXPECT_EQ(choose_rank_grid(4, {40, 10, 10}), (GridShape{4, 1, 1}));
  EXPECT_EQ(choose_rank_grid(4, {10, 10, 40}), (GridShape{1, 1, 4}));
}

TEST(RankGrid, FlatSheetsInTallBoxesAreCutAcrossTheSheet) {
  // The box alone says: cut along z, through the empty space above a sheet
  // one sector thick (one rank would hold every particle).
  EXPECT_EQ(choose_rank_grid(2, {10, 10, 40}), (GridShape{1, 1, 2}));
  EXPECT_EQ(choose_rank_grid(2, {10, 10, 40}, {10, 10, 1}), (GridShape{2, 1, 1}));
  EXPECT_EQ(choose_rank_grid(4, {10, 10, 40}, {10, 10, 1}), (GridShape{4, 1, 1}));
  // Particles spread through the box: the same choice as the box's.
  EXPECT_EQ(choose_rank_grid(8, {20, 20, 20}, {20, 20, 20}), choose_rank_grid(8, {20, 20, 20}));
  // Particles too bunched for any cut among them: the box decides.
  EXPECT_EQ(choose_rank_grid(4, {10, 10, 40}, {1, 1, 1}), choose_rank_grid(4, {10, 10, 40}));
}

TEST(RankGrid, BlocksStayAtLeastTwoSectorsWide) {
  EXPECT_FALSE(choose_rank_grid(64, {3, 3, 3}).has_value());
  EXPECT_EQ(max_ranks({3, 3, 3}), 1);
  EXPECT_EQ(max_ranks({8, 6, 5}), 4 * 3 * 2);
  const auto g = choose_rank_grid(3, {6, 2, 2});
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(*g, (GridShape{3, 1, 1}));
}

TEST(RankGrid, ProblemsAreExplained) {
  EXPECT_EQ(rank_grid_problem(8, {2, 2, 2}, {20, 20, 20}), "");
  EXPECT_NE(rank_grid_problem(8, {2, 2, 1}, {20, 20, 20}).find("holds 4 ranks"), std::string::npos);
  EXPECT_NE(rank_grid_problem(8, {8, 1, 1}, {10, 20, 20}).find("too few for 8"), std::string::npos);
}

TEST(RankGrid, BlockRangesTileTheAxis) {
  int next = 0;
  for (int i = 0; i < 3; ++i) {
    const SectorRange r = block_range(10, 3, i);
    EXPECT_EQ(r.begin, next);
    EXPECT_GE(r.end - r.begin, 3);
    next = r.end;
  }
  EXPECT_EQ(next, 10);
}

}  // namespace
}  // namespace tethersim::decomposition
