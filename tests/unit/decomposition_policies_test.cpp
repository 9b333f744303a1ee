// The distributed engine's policies on numbers with known answers: window
// lengths (decomposition/window_length), lean fallbacks
// (decomposition/fallback_policy) and load balance
// (decomposition/load_balancer).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "tethersim/decomposition/fallback_policy.hpp"
#include "tethersim/decomposition/load_balancer.hpp"
#include "tethersim/decomposition/window_length.hpp"

namespace tethersim::decomposition {
namespace {

TEST(WindowLength, CertifiedWindowsGrowByAQuarterAndTrackTheUsualLength) {
  WindowLength w(kCertifiedWindowLengths);
  EXPECT_EQ(w.proposal(), 0.0);
  w.set(1.0);
  EXPECT_TRUE(w.stood(1.0));
  EXPECT_DOUBLE_EQ(w.proposal(), 1.25);
  EXPECT_DOUBLE_EQ(w.typical(), 1.0);
  // Cut short by a scheduled stop: no growth, no new usual length.
  EXPECT_FALSE(w.stood(0.5));
  EXPECT_DOUBLE_EQ(w.proposal(), 1.25);
  EXPECT_TRUE(w.stood(1.25));
  EXPECT_DOUBLE_EQ(w.proposal(), 1.5625);
  EXPECT_DOUBLE_EQ(w.typical(), std::pow(1.25, 0.1));
  // Certified after halvings: the next tries that length; after a
  // fallback, at least the usual one.
  w.set(0.25);
  w.at_least(w.typical());
  EXPECT_DOUBLE_EQ(w.proposal(), std::pow(1.25, 0.1));
  w.at_least(0.5);
  EXPECT_DOUBLE_EQ(w.proposal(), std::pow(1.25, 0.1));
}

TEST(WindowLength, SpeculativeWindowsDoubleUntilCutThenAimBeforeTheViolation) {
  WindowLength w(kSpeculativeWindowLengths);
  w.set(1.0);
  EXPECT_TRUE(w.stood(1.0));
  EXPECT_DOUBLE_EQ(w.proposal(), 2.0);
  EXPECT_FALSE(w.found_limit());
  // Cut at 0.5 from its start: 0.9 * 0.5 is shorter than 0.7 * 2.
  w.cut(2.0, 0.5);
  EXPECT_TRUE(w.found_limit());
  EXPECT_DOUBLE_EQ(w.proposal(), 0.45);
  EXPECT_TRUE(w.stood(0.45));
  EXPECT_DOUBLE_EQ(w.proposal(), 0.45 * 1.1);
  // Nothing stood: shrink only.
  w.cut(1.0, 0.0);
  EXPECT_DOUBLE_EQ(w.proposal(), 0.7);
  // A violation late in the window: the shrink is the shorter.
  w.cut(1.0, 0.9);
  EXPECT_DOUBLE_EQ(w.proposal(), 0.7);
}

// Four windows of 1 s wall time each, 0.5 units of simulated time and 100
// events: weighed, a decision is due (windows cost 2 s per unit of time,
// 200 events per unit of time).
FallbackPolicy weighed_policy(LeanFallback mode = LeanFallback::on) {
  FallbackPolicy p(mode);
  EXPECT_FALSE(p.weigh(0.0, 0.0, 0));
  for (int k = 1; k <= 3; ++k) {
    const double d = static_cast<double>(k);
    EXPECT_FALSE(p.weigh(d, 0.5 * d, 100u * static_cast<std::uint64_t>(k)));
  }
  EXPECT_EQ(p.weigh(4.0, 2.0, 400), mode != LeanFallback::off);
  return p;
}

TEST(FallbackPolicy, BudgetsDoubleUpToTheLargest) {
  FallbackPolicy p(LeanFallback::on);
  EXPECT_EQ(p.next_budget(), kFirstFallbackBudget);
  EXPECT_EQ(p.begin_fallback(0.0), 2.0);
  EXPECT_EQ(p.begin_fallback(0.0), 4.0);
  EXPECT_EQ(p.begin_fallback(200.0), 200.0);
  EXPECT_EQ(p.next_budget(), kLargestFallbackBudget);
}

TEST(FallbackPolicy, WeighsEveryFourWindowsUnlessOff) {
  FallbackPolicy on = weighed_policy();
  EXPECT_DOUBLE_EQ(on.local_costs(2, 0.5, 3.0, 1000, 64.0).windows_wall, 4.0);
  weighed_policy(LeanFallback::off);
}

TEST(FallbackPolicy, EstimatesCostsUntilAFallbackMeasuredThem) {
  FallbackPolicy p = weighed_policy();
  const FallbackCosts estimated = p.local_costs(2, 0.5, 3.0, 1000, 64.0);
  EXPECT_DOUBLE_EQ(estimated.overhead, 1.0);  // one start-up build per rank
  EXPECT_DOUBLE_EQ(estimated.seconds_per_event, 0.003);
  EXPECT_DOUBLE_EQ(estimated.bytes_per_particle, 64.0);
  p.measured_overhead(0.25);
  p.measured_seconds_per_event(1e-4);
  const FallbackCosts measured = p.local_costs(2, 0.5, 3.0, 1000, 64.0);
  EXPECT_DOUBLE_EQ(measured.overhead, 0.25);
  EXPECT_DOUBLE_EQ(measured.seconds_per_event, 1e-4);
}

TEST(FallbackPolicy, EstimatedCheapFallbackPays) {
  FallbackPolicy p = weighed_policy();
  // One rank: 200 events x 0.001 s = 0.2 s per unit of time against the
  // windows' 2; over the first budget (2 events for each of 100 particles,
  // 1 unit of time) 1 + 0.2 < 2.
  const FallbackDecision d = p.decide({4.0, 1.0, 0.001, 64.0}, 100.0, 2.0, 100.0);
  EXPECT_TRUE(d.pays);
  EXPECT_FALSE(d.declined);
  EXPECT_DOUBLE_EQ(d.windows_cost, 2.0);
  EXPECT_DOUBLE_EQ(d.serial_cost, 0.2);
  EXPECT_DOUBLE_EQ(d.covered, 1.0);
  EXPECT_DOUBLE_EQ(p.chosen_budget(), 2.0);
  // Not measured: no run of fallbacks without windows.
  EXPECT_FALSE(p.next_in_streak(2.0));
}

TEST(FallbackPolicy, AnExpensiveEstimateIsTriedOnceThenDeclined) {
  FallbackPolicy p = weighed_policy();
  // A rebuilding of 10 s does not pay over 1 unit of time (10.2 > 2), but
  // it is under a tenth of the windows' cost over the longest fallback
  // (0.1 x 98 x 2 = 19.6): tried once to measure.
  const FallbackCosts costs{4.0, 10.0, 0.001, 64.0};
  EXPECT_TRUE(p.decide(costs, 100.0, 2.0, 100.0).pays);
  const FallbackDecision again = p.decide(costs, 100.0, 2.0, 100.0);
  EXPECT_FALSE(again.pays);
  EXPECT_TRUE(again.declined);
  EXPECT_EQ(p.next_budget(), kFirstFallbackBudget);
}

TEST(FallbackPolicy, TooLargeForOneRankIsDeclinedWhateverTheCosts) {
  FallbackPolicy p = weighed_policy();
  // 2 million particles of 64 bytes: over 32 MiB.
  const FallbackDecision d = p.decide({4.0, 0.0, 0.0, 64.0}, 2e6, 2.0, 100.0);
  EXPECT_FALSE(d.pays);
  EXPECT_TRUE(d.declined);
  EXPECT_FALSE(d.weighed);
}

TEST(FallbackPolicy, MeasuredFallbacksThatPayRunFourInARow) {
  FallbackPolicy p = weighed_policy();
  p.measured_overhead(1.0);
  p.measured_seconds_per_event(0.001);
  // Gain 2 - 0.2 = 1.8 s per unit of time: the rebuilding is bought after
  // 1 / 1.8 units; the fallback covers four times that.
  const FallbackDecision d = p.decide({4.0, 1.0, 0.001, 64.0}, 100.0, 2.0, 100.0);
  EXPECT_TRUE(d.pays);
  EXPECT_TRUE(d.measured);
  EXPECT_DOUBLE_EQ(d.covered, 4.0 / 1.8);
  EXPECT_DOUBLE_EQ(p.chosen_budget(), 4.0 / 1.8 * 200.0 / 100.0);
  for (int k = 1; k <= kFallbacksPerWeighing; ++k) {
    EXPECT_TRUE(p.next_in_streak(2.0));
    EXPECT_EQ(p.streak(), k);
  }
  EXPECT_FALSE(p.next_in_streak(2.0));
  EXPECT_EQ(p.streak(), -1);
}

TEST(FallbackPolicy, AStopTooNearPostponesFallbacksUntilIt) {
  FallbackPolicy p = weighed_policy();
  p.measured_overhead(1.0);
  p.measured_seconds_per_event(0.001);
  // 0.001 units of time to the stop cannot buy a second of rebuilding.
  const FallbackDecision d = p.decide({4.0, 1.0, 0.001, 64.0}, 100.0, 2.0, 2.001);
  EXPECT_FALSE(d.pays);
  EXPECT_TRUE(d.declined);
  EXPECT_FALSE(p.next_in_streak(2.0005));
  EXPECT_TRUE(p.next_in_streak(2.001));
  EXPECT_EQ(p.streak(), 1);
}

TEST(FallbackPolicy, TheTestingCoinDecidesAndStartsRuns) {
  FallbackPolicy p(LeanFallback::random);
  EXPECT_FALSE(p.decide_by_coin(1));
  EXPECT_TRUE(p.decide_by_coin(2));
  EXPECT_FALSE(p.next_in_streak(0.0));
  EXPECT_TRUE(p.decide_by_coin(4));
  EXPECT_TRUE(p.next_in_streak(0.0));
  EXPECT_DOUBLE_EQ(p.chosen_budget(), kFirstFallbackBudget);
}

// 8 layers along x in two blocks, one layer along y and z.
const GridShape kSectors{8, 1, 1};
const GridShape kRanks{2, 1, 1};
const CutPlanes kHalves{std::vector<int>{0, 4, 8}, std::vector<int>{0, 1}, std::vector<int>{0, 1}};
std::uint64_t no_coin() { return 0; }

// Summed counts (LoadBalancer::take_work's layout) with changed particles
// `x` along x, residents `residents` along x, and the seconds of events
// and ticks.
std::vector<double> counts_along_x(const std::vector<double>& x, const std::vector<double>& residents,
                                   double event_seconds, double tick_seconds) {
  std::vector<double> w = x;
  const auto sum = [](const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); };
  w.insert(w.end(), {sum(x), sum(x)});  // the y and z layer
  w.insert(w.end(), residents.begin(), residents.end());
  w.insert(w.end(), {sum(residents), sum(residents), event_seconds, tick_seconds, 0.0, 0.0, 0.0});
  return w;
}

// Changed particles alone (no seconds measured): the work is their count.
std::vector<double> work_along_x(const std::vector<double>& x) {
  return counts_along_x(x, std::vector<double>(x.size(), 0.0), 0.0, 0.0);
}

TEST(LoadBalancer, ChecksEveryIntervalUnlessOff) {
  LoadBalancer b(BalanceMode::automatic, kSectors, 3, 1.1);
  EXPECT_FALSE(b.due());
  EXPECT_FALSE(b.due());
  EXPECT_TRUE(b.due());
  EXPECT_FALSE(b.due());
  LoadBalancer off(BalanceMode::off, kSectors, 1, 1.1);
  EXPECT_FALSE(off.due());
}

TEST(LoadBalancer, CountsWorkByLayerAndStartsAgain) {
  LoadBalancer b(BalanceMode::automatic, kSectors, 1, 1.1);
  b.add_work(std::array<int, 3>{2, 0, 0});
  b.add_work(std::array<int, 3>{2, 0, 0});
  b.add_work(std::array<int, 3>{7, 0, 0});
  b.add_resident(std::array<int, 3>{5, 0, 0});
  b.add_event_seconds(0.25);
  b.add_tick_seconds(0.5);
  const std::vector<double> w = b.take_work(2.0, 0.5, 1000.0);
  ASSERT_EQ(w.size(), 25u);
  EXPECT_EQ(w[2], 2.0);
  EXPECT_EQ(w[7], 1.0);
  EXPECT_EQ(w[8], 3.0);  // y layer 0
  EXPECT_EQ(w[9], 3.0);  // z layer 0
  EXPECT_EQ(w[10 + 5], 1.0);  // the resident, x layer 5
  EXPECT_EQ(w[10 + 8], 1.0);
  EXPECT_EQ(w[20], 0.25);
  EXPECT_EQ(w[21], 0.5);
  EXPECT_EQ(w[22], 2.0);  // the interval's seconds
  EXPECT_EQ(w[23], 0.5);     // the last move's seconds
  EXPECT_EQ(w[24], 1000.0);  // and particles
  const std::vector<double> again = b.take_work(0.0, 0.0, 0.0);
  for (double v : again) EXPECT_EQ(v, 0.0);
}

TEST(LoadBalancer, WeighsEventsAndTicksByTheirSeconds) {
  LoadBalancer b(BalanceMode::automatic, kSectors, 1, 1.1);
  // Every event in layer 0 (a clamped edge), ten particles in every layer.
  const std::vector<double> events{100, 0, 0, 0, 0, 0, 0, 0};
  const std::vector<double> residents(8, 10.0);
  // Counted alone, the events pull the plane to the edge.
  EXPECT_EQ(b.planes(kHalves, kRanks, work_along_x(events), no_coin)[0], (std::vector<int>{0, 2, 8}));
  // When the ticks took nine times the events' seconds, the work is
  // 1 + 10 x 9/80 in layer 0 and 9/8 in each other: 5.5 against 4.5 in
  // the two halves, within the threshold, and the planes stay.
  EXPECT_EQ(b.planes(kHalves, kRanks, counts_along_x(events, residents, 1.0, 9.0), no_coin), kHalves);
  const std::vector<double> w = b.weighed(counts_along_x(events, residents, 1.0, 9.0));
  EXPECT_DOUBLE_EQ(w[0], 1.0 + 10.0 * 9.0 / 80.0);
  EXPECT_DOUBLE_EQ(w[1], 10.0 * 9.0 / 80.0);
  // Equal seconds: layer 0 carries 1.125 of 2, and the plane moves to it.
  EXPECT_EQ(b.planes(kHalves, kRanks, counts_along_x(events, residents, 1.0, 1.0), no_coin)[0],
            (std::vector<int>{0, 2, 8}));
  // Windows without events: their seconds go with the ticks', spread over
  // the particles (even here: the planes stay).
  EXPECT_EQ(b.planes(kHalves, kRanks, counts_along_x(std::vector<double>(8, 0.0), residents, 1.0, 1.0), no_coin),
            kHalves);
}

TEST(LoadBalancer, MovesThePlaneToEqualShares) {
  LoadBalancer b(BalanceMode::automatic, kSectors, 1, 1.1);
  // All work in the first four layers: the halfway point of the work
  // (and a little floor per layer) falls in layer 2.
  const CutPlanes c = b.planes(kHalves, kRanks, work_along_x({10, 10, 10, 10, 0, 0, 0, 0}), no_coin);
  EXPECT_EQ(c[0], (std::vector<int>{0, 3, 8}));
  EXPECT_EQ(c[1], kHalves[1]);
  // Everything in one layer: blocks stay kMinBlockWidth wide.
  const CutPlanes d = b.planes(kHalves, kRanks, work_along_x({0, 0, 0, 0, 0, 0, 0, 9}), no_coin);
  EXPECT_EQ(d[0], (std::vector<int>{0, 6, 8}));
}

TEST(LoadBalancer, MovesOnlyWhenBalanceSavesMoreThanTheMove) {
  LoadBalancer b(BalanceMode::automatic, kSectors, 1, 1.1);
  // All work in the first half (ten particles a layer): balanced, the
  // time to the next check would be half as long. Over 10 s that saves
  // 5 s, over 1 s half a second. The plane moves from layer 4 to 3: the
  // second block gains layer 3's ten particles, at 0.2 s each (the last
  // move: 1 s for 5 particles, summed over the 2 ranks) 2 s.
  auto with_times = [](double horizon, double per_particle) {
    std::vector<double> w = counts_along_x({10, 10, 10, 10, 0, 0, 0, 0}, std::vector<double>(8, 10.0), 0.0, 0.0);
    w[w.size() - 3] = 2 * horizon;
    w[w.size() - 2] = 2 * per_particle * 5;
    w[w.size() - 1] = 2 * 5;
    return w;
  };
  EXPECT_EQ(b.planes(kHalves, kRanks, with_times(10.0, 0.2), no_coin)[0], (std::vector<int>{0, 3, 8}));
  EXPECT_EQ(b.planes(kHalves, kRanks, with_times(1.0, 0.2), no_coin), kHalves);
  // At a tenth of the price, half a second pays for it.
  EXPECT_EQ(b.planes(kHalves, kRanks, with_times(1.0, 0.02), no_coin)[0], (std::vector<int>{0, 3, 8}));
}

TEST(LoadBalancer, KeepsThePlanesWithinTheThreshold) {
  LoadBalancer b(BalanceMode::automatic, kSectors, 1, 1.1);
  // 21 against 19: the heavier slab is 1.05 times the mean.
  EXPECT_EQ(b.planes(kHalves, kRanks, work_along_x({6, 5, 5, 5, 5, 5, 5, 4}), no_coin), kHalves);
  EXPECT_EQ(b.planes(kHalves, kRanks, work_along_x({0, 0, 0, 0, 0, 0, 0, 0}), no_coin), kHalves);
}

TEST(LoadBalancer, ForcedPlanesMoveBackAndForth) {
  LoadBalancer b(BalanceMode::forced, kSectors, 1, 1.1);
  const std::vector<double> none = work_along_x({0, 0, 0, 0, 0, 0, 0, 0});
  const CutPlanes once = b.planes(kHalves, kRanks, none, no_coin);
  EXPECT_EQ(once[0], (std::vector<int>{0, 5, 8}));
  EXPECT_EQ(b.planes(once, kRanks, none, no_coin), kHalves);
}

TEST(LoadBalancer, RandomPlanesComeFromTheCoinWithinTheWidths) {
  LoadBalancer b(BalanceMode::random, kSectors, 1, 1.1);
  const std::vector<double> none = work_along_x({0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(b.planes(kHalves, kRanks, none, [] { return std::uint64_t{9 + 5}; })[0], (std::vector<int>{0, 5, 8}));
  // Layer 1 would leave a block one layer wide.
  EXPECT_EQ(b.planes(kHalves, kRanks, none, [] { return std::uint64_t{1}; })[0], (std::vector<int>{0, 2, 8}));
}

}  // namespace
}  // namespace tethersim::decomposition
