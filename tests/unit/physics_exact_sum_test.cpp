// Exact, order-independent sums (kinetic energy and momentum reported by
// any number of processes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "tethersim/physics/exact_sum.hpp"

namespace tethersim::physics {
namespace {

double sum_of(const std::vector<double>& terms) {
  ExactSum s;
  for (double x : terms) s.add(x);
  return s.value();
}

TEST(ExactSum, SmallIntegersAndHalvesAreExact) {
  EXPECT_EQ(sum_of({}), 0.0);
  EXPECT_EQ(sum_of({1.0, 2.0, 3.5}), 6.5);
  EXPECT_EQ(sum_of({-1.0, 0.25}), -0.75);
  EXPECT_EQ(sum_of({1e300, -1e300, 3.0}), 3.0);
}

TEST(ExactSum, CancellationThatNaiveSummationLoses) {
  // 1 + 1e-17 - 1 is 1e-17 exactly; naive double summation gives 0.
  EXPECT_EQ(sum_of({1.0, 1e-17, -1.0}), 1e-17);
  EXPECT_EQ(sum_of({1e16, 1.0, -1e16}), 1.0);
}

TEST(ExactSum, SubnormalsAndExtremesAreRepresented) {
  const double tiny = std::numeric_limits<double>::denorm_min();
  EXPECT_EQ(sum_of({tiny, tiny}), 2 * tiny);
  const double big = std::numeric_limits<double>::max();
  EXPECT_EQ(sum_of({big, -big, tiny}), tiny);
  EXPECT_EQ(sum_of({big / 2, big / 2}), big);
}

TEST(ExactSum, OrderAndSplittingDoNotChangeTheBits) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-40, 40);
  std::vector<double> terms(20000);
  for (double& x : terms) x = std::ldexp(mantissa(rng), exponent(rng));
  const double reference = sum_of(terms);
  for (int trial = 0; trial < 5; ++trial) {
    std::shuffle(terms.begin(), terms.end(), rng);
    EXPECT_EQ(sum_of(terms), reference);
    // Split into parts summed separately and combined, as ranks do
    // through their canonical digits.
    ExactSum parts[3];
    for (std::size_t k = 0; k < terms.size(); ++k) parts[k % 3].add(terms[k]);
    ExactSum::Digits digits{};
    for (const ExactSum& p : parts) {
      const ExactSum::Digits d = p.canonical_digits();
      for (int k = 0; k < ExactSum::kDigits; ++k) digits[k] += d[k];
    }
    EXPECT_EQ(ExactSum::from_digits(digits).value(), reference);
    ExactSum merged = parts[0];
    merged.add(parts[1]);
    merged.add(parts[2]);
    EXPECT_EQ(merged.value(), reference);
  }
  // And it is the sum: within a rounding of the long-double sum.
  long double naive = 0;
  for (double x : terms) naive += x;
  EXPECT_NEAR(reference, static_cast<double>(naive), 1e-9 * std::fabs(reference) + 1e-9);
}

}  // namespace
}  // namespace tethersim::physics
