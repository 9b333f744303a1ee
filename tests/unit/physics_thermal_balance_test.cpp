// The balance of random impulses against drag (docs/physics.md,
// "Temperature: random impulses against drag"): the derivation as pure
// functions, the thermostat keys of a species, and a gas of lone particles
// whose measured temperature and diffusion coefficient match the derived
// values within a bound computed from its samples.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "engine_test_support.hpp"
#include "tethersim/io/input_error.hpp"
#include "tethersim/model/unbounded_heating.hpp"
#include "tethersim/physics/thermal_balance.hpp"

namespace tethersim::testing {
namespace {

using physics::ThermalParameters;

ThermalParameters parameters(double second_moment, double tau, double friction, double interval, double mass,
                             int dims) {
  return {.impulse_second_moment = second_moment, .tau = tau, .friction = friction, .interval = interval,
          .mass = mass, .dimensions = dims};
}

TEST(ThermalBalance, ObliquityAndImpulseMoments) {
  EXPECT_DOUBLE_EQ(physics::obliquity_second_moment(3), 0.5);
  EXPECT_DOUBLE_EQ(physics::obliquity_second_moment(2), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(physics::obliquity_second_moment(1), 1.0);
  physics::RandomImpulseSpec spec{1.0, 2.0, 3.0};  // tau 1, shape 2, mean 3
  EXPECT_DOUBLE_EQ(physics::impulse_second_moment(spec, 3), 9.0 * 1.5 * 0.5);
  EXPECT_DOUBLE_EQ(physics::impulse_second_moment(spec, 1), 9.0 * 1.5);
}

TEST(ThermalBalance, MomentsMatchDrawnImpulses) {
  // E|dp|^2 of the generator's own draws, in 3-D and 2-D.
  for (int dims : {3, 2}) {
    const physics::RandomImpulseSpec spec{1.0, 0.7, 2.0};
    const int n = 200000;
    double sum = 0.0, sum2 = 0.0;
    for (int k = 0; k < n; ++k) {
      const double x = physics::draw_random_impulse(5, 9, static_cast<std::uint64_t>(k), spec, dims).dp.squaredNorm();
      sum += x;
      sum2 += x * x;
    }
    const double mean = sum / n;
    const double se = std::sqrt((sum2 / n - mean * mean) / n);
    EXPECT_NEAR(mean, physics::impulse_second_moment(spec, dims), 4.0 * se) << dims << "-D";
  }
}

TEST(ThermalBalance, ContinuumLimitIsTheFluctuationDissipationRelation) {
  // a -> 0: kT = E|dp|^2 / (2 d tau gamma) and D = kT / gamma.
  const ThermalParameters p = parameters(3.0, 0.5, 2.0, 1e-9, 1.0, 3);
  const double kT = 3.0 / (2 * 3 * 0.5 * 2.0);
  EXPECT_NEAR(physics::stationary_kT(p), kT, 1e-8 * kT);
  EXPECT_NEAR(physics::stationary_diffusion(p), kT / 2.0, 1e-8 * kT);
  // Heating E|dp|^2/(2 m tau) = cooling 2 gamma/m KE = gamma d kT / m.
  EXPECT_NEAR(physics::heating_rate(p), 2.0 * 3 * kT, 1e-8);
}

TEST(ThermalBalance, DiscreteValuesAtFullDrag) {
  // a = 1: every tick stops the particle. <|v|^2> grows linearly between
  // ticks from 0: kT = m q dt / (2 d), q = E|dp|^2 / (m^2 tau); and each
  // impulse moves the particle for a time uniform on (0, dt): D = E|dp|^2 dt^2 / (3 2 d tau m^2).
  const double dt = 0.5, m = 2.0, s2 = 1.3, tau = 0.2;
  const ThermalParameters p = parameters(s2, tau, m / dt, dt, m, 2);
  EXPECT_DOUBLE_EQ(p.drag_fraction(), 1.0);
  EXPECT_NEAR(physics::stationary_kT(p), m * s2 / (m * m * tau) * dt / 4.0, 1e-12);
  EXPECT_NEAR(physics::stationary_diffusion(p), s2 * dt * dt / (3.0 * 4.0 * tau * m * m), 1e-12);
  EXPECT_NEAR(physics::einstein_ratio(1.0), 1.0 / 3.0, 1e-15);
  EXPECT_DOUBLE_EQ(physics::einstein_ratio(0.0), 1.0);
}

TEST(ThermalBalance, InversesGiveBackTheirInputs) {
  for (int dims : {1, 2, 3}) {
    const double kT = 4.1, D = 0.7, dt = 0.03, m = 5.0, tau = 0.01, shape = 2.5;
    const double gamma = physics::friction_for_diffusion(kT, D, dt, m);
    const double mean = physics::impulse_mean_for_kT(kT, gamma, dt, m, tau, shape, dims);
    const physics::RandomImpulseSpec spec{tau, shape, mean};
    const ThermalParameters p = parameters(physics::impulse_second_moment(spec, dims), tau, gamma, dt, m, dims);
    EXPECT_NEAR(physics::stationary_kT(p), kT, 1e-12 * kT);
    EXPECT_NEAR(physics::stationary_diffusion(p), D, 1e-12 * D);
    EXPECT_LT(gamma, kT / D);  // the discrete model diffuses less than Einstein's kT / gamma
  }
  // No friction with a <= 1 gives it: above mass / interval.
  EXPECT_GT(physics::friction_for_diffusion(1.0, 1e-6, 1.0, 1.0), 1.0);
}

// --- the model file ----------------------------------------------------

std::string gas(int dims, const std::string& thermostat, const std::string& extra = "", int count = 64) {
  const std::string box = dims == 3 ? "[-1000.0, -1000.0, -1000.0]" : "[-1000.0, -1000.0]";
  const std::string top = dims == 3 ? "[1000.0, 1000.0, 1000.0]" : "[1000.0, 1000.0]";
  return "[model]\ndimensions = " + std::to_string(dims) +
         "\n[run]\nend_time = 1000.0\nseed = 3\n[domain]\nlo = " + box + "\nhi = " + top +
         "\nboundary = \"reflective\"\nsector_size = 250.0\n"
         "[[species]]\nname = \"A\"\nmass = 1.0\nradius = 0.5\n" + thermostat +
         "\n[[pair]]\nspecies = [\"A\", \"A\"]\nblocking = 0.0\n" + extra +
         "[initial]\ngenerator = \"random-gas\"\n[initial.parameters]\ncount = " + std::to_string(count) +
         "\ntemperature = 1.0\nmargin = 500.0\n";
}

std::string refusal(const std::string& text) {
  try {
    load_model_text(text, "test.toml", {}, nullptr);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Thermostat, DerivesRandomImpulsesAndDrag) {
  const Model model = load_model_text(gas(3, "thermostat = { kT = 2.0, diffusion = 0.5 }"), "test.toml", {}, nullptr);
  const Species& a = model.species(0);
  ASSERT_TRUE(a.thermostat.enabled());
  // Default interval: a = 0.1; tau = interval; shape 1.
  EXPECT_NEAR(a.thermostat.friction * a.thermostat.interval / a.mass, 0.1, 1e-15);
  EXPECT_EQ(a.random_impulse.tau, a.thermostat.interval);
  EXPECT_EQ(a.random_impulse.shape, 1.0);
  ASSERT_EQ(model.periodic_impulses().size(), 1u);
  const PeriodicImpulse& drag = model.periodic_impulses()[0];
  EXPECT_EQ(drag.kind, PeriodicImpulseKind::drag);
  EXPECT_EQ(drag.interval, a.thermostat.interval);
  const ThermalParameters p =
      parameters(physics::impulse_second_moment(a.random_impulse, 3), a.random_impulse.tau,
                 physics::stokes_friction(drag.viscosity, a.radius), drag.interval, a.mass, 3);
  EXPECT_NEAR(physics::stationary_kT(p), 2.0, 1e-12);
  EXPECT_NEAR(physics::stationary_diffusion(p), 0.5, 1e-12);
}

TEST(Thermostat, RefusesConflictingSettings) {
  EXPECT_EQ(refusal(gas(3, "thermostat = { kT = 1.0, diffusion = 1.0, friction = 1.0 }")),
            "test.toml:15: species.A.thermostat: give exactly one of 'diffusion' (diffusion coefficient D) or "
            "'friction' (gamma = kT / D)");
  EXPECT_NE(refusal(gas(3, "thermostat = { kT = 1.0, friction = 1.0 }\nrandom_impulse = { tau = 1.0, mean = 1.0 }"))
                .find("species.A.thermostat: conflicts with random_impulse"),
            std::string::npos);
  EXPECT_NE(refusal(gas(3, "thermostat = { kT = 1.0, friction = 1.0 }",
                        "[[external]]\nkind = \"drag\"\nviscosity = 1.0\ninterval = 0.1\n"))
                .find("species.A.thermostat: conflicts with the [[external]] drag number 1"),
            std::string::npos);
  EXPECT_NE(refusal(gas(3, "thermostat = { kT = -1.0, friction = 1.0 }")).find("species.A.thermostat.kT: must be positive"),
            std::string::npos);
  EXPECT_NE(refusal(gas(3, "thermostat = { kT = 1.0, friction = 1.0, interval = 2.0 }"))
                .find("species.A.thermostat.friction: one drag tick would remove more than all"),
            std::string::npos);
}

TEST(Thermostat, ModelsWithoutItKeepTheirHash) {
  // The thermostat's own numbers are not hashed: only what it derives.
  const Model plain = load_model_text(gas(3, ""), "test.toml", {}, nullptr);
  const Model again = load_model_text(gas(3, "") + "\n", "test.toml", {}, nullptr);
  EXPECT_EQ(plain.hash(), again.hash());
  EXPECT_FALSE(plain.species(0).thermostat.enabled());
}

TEST(UnboundedHeating, WarnsOnlyWhenNothingRemovesEnergy) {
  const std::string impulses = "random_impulse = { tau = 1.0, mean = 1.0 }";
  const Model heated = load_model_text(gas(3, impulses), "test.toml", {}, nullptr);
  const auto warnings = unbounded_heating(heated);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].key, "species.A.random_impulse");
  EXPECT_NE(warnings[0].message.find("random impulses heat A without bound"), std::string::npos);
  const std::string drag = "[[external]]\nkind = \"drag\"\nviscosity = 0.1\ninterval = 0.1\n";
  EXPECT_TRUE(unbounded_heating(load_model_text(gas(3, impulses, drag), "test.toml", {}, nullptr)).empty());
  EXPECT_TRUE(unbounded_heating(load_model_text(gas(3, "thermostat = { kT = 1.0, friction = 1.0 }"), "test.toml",
                                                {}, nullptr))
                  .empty());
  // An inelastic collision removes energy: not certain, no warning.
  std::string inelastic = gas(3, impulses);
  inelastic.replace(inelastic.find("blocking = 0.0"), 14, "c = 0.9");
  EXPECT_TRUE(unbounded_heating(load_model_text(inelastic, "test.toml", {}, nullptr)).empty());
}

// --- the measured relation ---------------------------------------------

// Mean and standard error of independent values.
struct Estimate {
  double mean = 0.0, error = 0.0;
};
Estimate estimate(const std::vector<double>& x) {
  double s = 0.0, s2 = 0.0;
  for (double v : x) s += v;
  const double n = static_cast<double>(x.size());
  const double mean = s / n;
  for (double v : x) s2 += (v - mean) * (v - mean);
  return {mean, std::sqrt(s2 / (n - 1.0) / n)};
}

// A gas of 256 lone particles (blocking 0) of mass 1 at kT = 1 with friction
// 1 and drag ticks removing 0.3 of the velocity, far from the continuum
// limit, so that the exact discrete values and the continuum ones differ by
// many standard errors. Each particle's time-averaged kT (sampled at times
// spaced by an irrational multiple of the tick, so that the sample phases
// cover the tick uniformly) and its squared displacements over
// non-overlapping windows are independent of every other particle's: the
// bound is 4 standard errors of the mean over particles.
void check_measured_relation(int dims) {
  const double kT = 1.0, friction = 1.0, interval = 0.3;
  Simulation sim(gas(dims, "thermostat = { kT = 1.0, friction = 1.0, interval = 0.3, tau = 0.15 }", "", 256));
  const Species& a = sim.model.species(0);
  const ThermalParameters p = parameters(physics::impulse_second_moment(a.random_impulse, dims),
                                         a.random_impulse.tau, friction, interval, 1.0, dims);
  ASSERT_NEAR(physics::stationary_kT(p), kT, 1e-12);
  const double diffusion = physics::stationary_diffusion(p);
  const std::size_t n = sim->alive_count();
  const double burn_in = 20.0, spacing = interval * 1.6180339887498949, window = 60.0;
  const int windows = 5;
  sim->run_until(burn_in);
  std::vector<double> energy(n, 0.0);
  std::vector<std::vector<Vec3>> start(n);
  auto positions = [&](double t) {
    std::vector<Vec3> x(n);
    for (std::size_t k = 0; k < n; ++k) x[k] = sim->position(static_cast<ParticleId>(k), t);
    return x;
  };
  std::vector<double> squared(n, 0.0);
  std::vector<Vec3> origin = positions(burn_in);
  int samples = 0;
  double t = burn_in;
  for (int w = 0; w < windows; ++w) {
    const double end = burn_in + (w + 1) * window;
    for (; t + spacing <= end; ++samples) {
      t += spacing;
      sim->run_until(t);
      for (std::size_t k = 0; k < n; ++k) energy[k] += sim.v(static_cast<ParticleId>(k)).squaredNorm() / dims;
    }
    sim->run_until(end);
    const std::vector<Vec3> x = positions(end);
    for (std::size_t k = 0; k < n; ++k) squared[k] += (x[k] - origin[k]).squaredNorm();
    origin = x;
  }
  std::vector<double> per_particle_kT(n), per_particle_D(n);
  // The window's MSD is 2 d D (window - m/gamma (1 - e^(-gamma window/m))) to
  // first order in the velocity's memory; the correction is 1.7% here.
  const double effective = window - 1.0 / friction;
  for (std::size_t k = 0; k < n; ++k) {
    per_particle_kT[k] = energy[k] / samples;
    per_particle_D[k] = squared[k] / (windows * 2.0 * dims * effective);
  }
  const Estimate measured_kT = estimate(per_particle_kT);
  const Estimate measured_D = estimate(per_particle_D);
  EXPECT_NEAR(measured_kT.mean, kT, 4.0 * measured_kT.error) << dims << "-D, " << samples << " samples";
  EXPECT_NEAR(measured_D.mean, diffusion, 4.0 * measured_D.error) << dims << "-D";
  // The test can tell: the continuum formula (a -> 0) for the same impulses is far outside.
  const double continuum_kT = p.impulse_second_moment / (2.0 * dims * p.tau * friction);
  EXPECT_GT(std::fabs(measured_kT.mean - continuum_kT), 4.0 * measured_kT.error) << dims << "-D";
  EXPECT_GT(std::fabs(measured_D.mean - kT / friction), 4.0 * measured_D.error) << dims << "-D";  // Einstein's
  EXPECT_LT(measured_kT.error, 0.01 * kT);
}

TEST(ThermalBalanceMeasured, GasOfLoneParticles3D) { check_measured_relation(3); }
TEST(ThermalBalanceMeasured, GasOfLoneParticles2D) { check_measured_relation(2); }

}  // namespace
}  // namespace tethersim::testing
