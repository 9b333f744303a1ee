// Random impulses (docs/physics.md, "Random impulses"; "Test oracles", 10):
// statistics with fixed seeds (means and variances within 5 standard errors)
// and reproducibility of the counter-based streams.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <string>

#include "tethersim/physics/counter_rng.hpp"
#include "tethersim/physics/random_impulse.hpp"

namespace tethersim::physics {
namespace {

constexpr int kSamples = 200000;

struct Moments {
  double mean = 0.0;
  double variance = 0.0;
  int n = 0;
  template <typename F>
  static Moments of(F&& draw) {
    Moments m;
    double sum = 0.0, sum2 = 0.0;
    for (int i = 0; i < kSamples; ++i) {
      const double x = draw(i);
      sum += x;
      sum2 += x * x;
    }
    m.n = kSamples;
    m.mean = sum / kSamples;
    m.variance = (sum2 - sum * sum / kSamples) / (kSamples - 1);
    return m;
  }
};

// |sample mean - expected| <= 5 standard errors.
void expect_mean(const Moments& m, double expected, double sigma) {
  EXPECT_NEAR(m.mean, expected, 5.0 * sigma / std::sqrt(static_cast<double>(m.n)));
}

// A distribution known by its raw moments E[X], E[X^2], E[X^3], E[X^4].
struct RawMoments {
  double m1, m2, m3, m4;
  double variance() const { return m2 - m1 * m1; }
  double fourth_central() const {
    return m4 - 4.0 * m1 * m3 + 6.0 * m1 * m1 * m2 - 3.0 * m1 * m1 * m1 * m1;
  }
  // The product of two independent variables.
  RawMoments times(const RawMoments& o) const { return {m1 * o.m1, m2 * o.m2, m3 * o.m3, m4 * o.m4}; }
};

// |sample variance - expected| <= 5 standard errors, with
// Var(s^2) = (mu4 - sigma^4 (n - 3) / (n - 1)) / n.
void expect_variance(const Moments& m, const RawMoments& exact, const char* what = "") {
  const double n = m.n;
  const double sigma2 = exact.variance();
  const double se = std::sqrt((exact.fourth_central() - sigma2 * sigma2 * (n - 3) / (n - 1)) / n);
  EXPECT_NEAR(m.variance, sigma2, 5.0 * se) << what;
}

// Both mean and variance within 5 standard errors.
void expect_distribution(const Moments& m, const RawMoments& exact, const char* what = "") {
  EXPECT_NEAR(m.mean, exact.m1, 5.0 * std::sqrt(exact.variance() / m.n)) << what;
  expect_variance(m, exact, what);
}

// Gamma(shape k, scale theta): E[X^j] = theta^j Gamma(k + j) / Gamma(k).
RawMoments gamma_moments(double k, double theta) {
  return {theta * k, theta * theta * k * (k + 1), std::pow(theta, 3) * k * (k + 1) * (k + 2),
          std::pow(theta, 4) * k * (k + 1) * (k + 2) * (k + 3)};
}

// Obliquity factor u_RI: sqrt(U) in 3-D (E[u^j] = 2 / (j + 2)), sqrt(1 - U^2)
// in 2-D (E[u^j] = sqrt(pi)/2 Gamma(j/2 + 1) / Gamma(j/2 + 3/2)), 1 in 1-D.
RawMoments obliquity_moments(int dimensions) {
  RawMoments r{1.0, 1.0, 1.0, 1.0};
  double* m[] = {&r.m1, &r.m2, &r.m3, &r.m4};
  for (int j = 1; j <= 4; ++j) {
    if (dimensions == 3) *m[j - 1] = 2.0 / (j + 2);
    if (dimensions == 2) {
      *m[j - 1] = std::sqrt(M_PI) / 2 * std::tgamma(j / 2.0 + 1) / std::tgamma(j / 2.0 + 1.5);
    }
  }
  return r;
}

CounterRng stream(int i) {
  return CounterRng(42, static_cast<std::uint64_t>(i), RandomStream::random_impulse, 3);
}

TEST(RandomImpulseStatistics, IntervalsAreExponentialWithMeanTau) {
  const RandomImpulseSpec spec{2.5, 16.0, 3.0};
  const Moments m = Moments::of([&](int i) {
    return draw_random_impulse(42, static_cast<std::uint64_t>(i), 0, spec, 3).gap;
  });
  expect_mean(m, 2.5, 2.5);
  // Variance of an exponential: tau^2; its standard error ~ tau^2 sqrt(8/n).
  EXPECT_NEAR(m.variance, 6.25, 5.0 * 6.25 * std::sqrt(8.0 / kSamples));
}

TEST(RandomImpulseStatistics, MagnitudesAreGammaWithMeanMuAndVarianceMuSquaredOverK) {
  for (double k : {0.5, 1.0, 4.0, 64.0}) {
    const double mu = 3.0;
    const Moments m = Moments::of([&](int i) {
      CounterRng rng = stream(i);
      return draw_gamma(rng, k, mu / k);
    });
    const double variance = mu * mu / k;
    expect_mean(m, mu, std::sqrt(variance));
    // Var(s^2) = sigma^4 (2 / (n - 1) + excess kurtosis / n), kurtosis 6 / k.
    const double se = variance * std::sqrt(2.0 / (kSamples - 1) + 6.0 / k / kSamples);
    EXPECT_NEAR(m.variance, variance, 5.0 * se) << "shape " << k;
  }
}

TEST(RandomImpulseStatistics, ObliquityMeansTwoThirdsIn3D) {
  const Moments m = Moments::of([&](int i) {
    CounterRng rng = stream(i);
    return draw_obliquity(rng, 3);
  });
  // sqrt(U): mean 2/3, variance 1/2 - 4/9 = 1/18, fourth central moment 1/135.
  const RawMoments exact = obliquity_moments(3);
  ASSERT_DOUBLE_EQ(exact.m1, 2.0 / 3.0);
  ASSERT_DOUBLE_EQ(exact.variance(), 1.0 / 18.0);
  ASSERT_NEAR(exact.fourth_central(), 1.0 / 135.0, 1e-15);
  expect_distribution(m, exact);
}

TEST(RandomImpulseStatistics, ObliquityIn2DAnd1D) {
  const Moments m = Moments::of([&](int i) {
    CounterRng rng = stream(i);
    return draw_obliquity(rng, 2);
  });
  // sqrt(1 - U^2): mean pi/4, variance 2/3 - pi^2/16.
  const RawMoments exact = obliquity_moments(2);
  ASSERT_DOUBLE_EQ(exact.m1, M_PI / 4.0);
  ASSERT_DOUBLE_EQ(exact.m2, 2.0 / 3.0);
  ASSERT_DOUBLE_EQ(exact.m3, 3.0 * M_PI / 16.0);
  ASSERT_DOUBLE_EQ(exact.m4, 8.0 / 15.0);
  expect_distribution(m, exact);
  CounterRng rng = stream(0);
  EXPECT_EQ(draw_obliquity(rng, 1), 1.0);
}

TEST(RandomImpulseStatistics, DirectionsAreIsotropicUnitVectors) {
  Vec3 sum = Vec3::Zero();
  double z2 = 0.0, x2 = 0.0;
  for (int i = 0; i < kSamples; ++i) {
    CounterRng rng = stream(i);
    const Vec3 d = draw_direction(rng, 3);
    ASSERT_NEAR(d.norm(), 1.0, 1e-15);
    sum += d;
    z2 += d.z() * d.z();
    x2 += d.x() * d.x();
  }
  const double n = kSamples;
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(sum[k] / n, 0.0, 5.0 * std::sqrt(1.0 / 3.0 / n));
  const double se_square = std::sqrt(4.0 / 45.0 / n);  // Var(z^2) = 1/5 - 1/9
  EXPECT_NEAR(z2 / n, 1.0 / 3.0, 5.0 * se_square);
  EXPECT_NEAR(x2 / n, 1.0 / 3.0, 5.0 * se_square);
}

TEST(RandomImpulseStatistics, DirectionsIn2DStayInThePlaneAnd1DOnTheAxis) {
  int positive = 0;
  for (int i = 0; i < 10000; ++i) {
    CounterRng rng = stream(i);
    const Vec3 d2 = draw_direction(rng, 2);
    EXPECT_EQ(d2.z(), 0.0);
    EXPECT_NEAR(d2.norm(), 1.0, 1e-15);
    const Vec3 d1 = draw_direction(rng, 1);
    EXPECT_EQ(std::abs(d1.x()), 1.0);
    EXPECT_EQ(d1.y(), 0.0);
    positive += d1.x() > 0;
  }
  EXPECT_NEAR(positive, 5000, 5 * 50);  // binomial sd sqrt(10000/4) = 50
}

// The impulse as drawn by the engine: |dp| = p u_RI with p ~ Gamma(k, mu/k)
// independent of u_RI. In 1-D u_RI = 1, so |dp| itself is Gamma(k, mu/k):
// mean mu, variance mu^2 / k.
TEST(RandomImpulseStatistics, ImpulseMagnitudeIn1DIsGammaWithMeanMuAndVarianceMuSquaredOverK) {
  for (double k : {0.5, 4.0, 16.0, 64.0}) {
    const double mu = 3.0;
    const RandomImpulseSpec spec{1.0, k, mu};
    const Moments m = Moments::of([&](int i) {
      return draw_random_impulse(9, static_cast<std::uint64_t>(i), 7, spec, 1).dp.norm();
    });
    const RawMoments exact = gamma_moments(k, mu / k);
    ASSERT_DOUBLE_EQ(exact.m1, mu);
    ASSERT_NEAR(exact.variance(), mu * mu / k, 1e-12 * mu * mu);
    const std::string what = "shape " + std::to_string(k);
    expect_distribution(m, exact, what.c_str());
  }
}

// In 3-D: E|dp| = mu E[u] = 2 mu / 3 (mu_RI is the mean of p, not of |dp|:
// docs/physics.md, "Random impulses"),
// Var|dp| = E[p^2] E[u^2] - (2 mu / 3)^2 = mu^2 (1 + 1/k) / 2 - 4 mu^2 / 9;
// in 2-D the same with the moments of sqrt(1 - U^2).
TEST(RandomImpulseStatistics, ImpulseMagnitudeIsGammaTimesObliquity) {
  for (int dimensions : {3, 2}) {
    for (double k : {4.0, 16.0}) {
      const double mu = 3.0;
      const RandomImpulseSpec spec{1.0, k, mu};
      const Moments m = Moments::of([&](int i) {
        return draw_random_impulse(9, static_cast<std::uint64_t>(i), 7, spec, dimensions).dp.norm();
      });
      const RawMoments exact = gamma_moments(k, mu / k).times(obliquity_moments(dimensions));
      if (dimensions == 3) {
        ASSERT_DOUBLE_EQ(exact.m1, 2.0);
        ASSERT_NEAR(exact.variance(), mu * mu * (1 + 1 / k) / 2 - 4 * mu * mu / 9, 1e-12);
      }
      const std::string what = std::to_string(dimensions) + "-D, shape " + std::to_string(k);
      expect_distribution(m, exact, what.c_str());
    }
  }
}

TEST(RandomReproducibility, SameKeyGivesTheSameBits) {
  const RandomImpulseSpec spec{2.0, 16.0, 5.0};
  const RandomImpulse a = draw_random_impulse(123, 456, 789, spec, 3);
  const RandomImpulse b = draw_random_impulse(123, 456, 789, spec, 3);
  EXPECT_EQ(std::memcmp(&a.gap, &b.gap, sizeof a.gap), 0);
  EXPECT_EQ(std::memcmp(a.dp.data(), b.dp.data(), 3 * sizeof(double)), 0);
}

TEST(RandomReproducibility, EachPartOfTheKeyChangesTheDraw) {
  const RandomImpulseSpec spec{2.0, 16.0, 5.0};
  const RandomImpulse base = draw_random_impulse(123, 456, 789, spec, 3);
  EXPECT_NE(draw_random_impulse(124, 456, 789, spec, 3).dp, base.dp);
  EXPECT_NE(draw_random_impulse(123, 457, 789, spec, 3).dp, base.dp);
  EXPECT_NE(draw_random_impulse(123, 456, 790, spec, 3).dp, base.dp);
  CounterRng s1(1, 2, RandomStream::random_impulse, 3);
  CounterRng s2(1, 2, RandomStream::action_potential, 3);
  EXPECT_NE(s1.next_u64(), s2.next_u64());
}

TEST(RandomReproducibility, UniformsStayInTheirIntervals) {
  CounterRng rng(5, 6, RandomStream::initial_state, 7);
  for (int i = 0; i < 100000; ++i) {
    const double u = rng.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    const double v = rng.uniform_positive();
    ASSERT_GT(v, 0.0);
    ASSERT_LE(v, 1.0);
  }
}

TEST(TieKeys, MixHashSpreadsNearbyInputs) {
  std::set<std::uint64_t> seen;
  for (std::uint64_t a = 0; a < 100; ++a) {
    for (std::uint64_t b = 0; b < 100; ++b) seen.insert(mix_hash(a, b, 3));
  }
  EXPECT_EQ(seen.size(), 10000u);
  EXPECT_NE(mix_hash(1, 2), mix_hash(2, 1));
  EXPECT_EQ(mix_hash(7, 8, 9), mix_hash(7, 8, 9));
}

}  // namespace
}  // namespace tethersim::physics

namespace tethersim::physics {
namespace {
TEST(RandomReproducibility, GapAloneEqualsTheGapOfTheFullDraw) {
  const RandomImpulseSpec spec{1.5, 4.0, 2.0};
  for (std::uint64_t n = 0; n < 100; ++n) {
    EXPECT_EQ(draw_random_gap(8, 21, n, spec), draw_random_impulse(8, 21, n, spec, 3).gap);
  }
}
}  // namespace
}  // namespace tethersim::physics
