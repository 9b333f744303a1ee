// Stalls (docs/engine.md, "Stalls"): the watch that notices simulated time
// stuck while events keep coming, the report that names what is going on,
// and the inputs that used to freeze a run (overlapping starts, degenerate
// tether geometry), which are now placed apart or refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>

#include "engine_test_support.hpp"
#include "tethersim/engine/poll_pacer.hpp"
#include "tethersim/engine/stall_report.hpp"
#include "tethersim/engine/stall_watch.hpp"
#include "tethersim/io/input_error.hpp"

namespace tethersim::testing {
namespace {

// The longest wall time between two polls when each event takes
// `seconds_per_event`, over the first 40 polls of a run.
double longest_poll_seconds(double seconds_per_event) {
  engine::PollPacer pacer;
  double longest = 0.0;
  for (int poll = 0; poll < 40; ++poll) {
    const std::uint64_t ran = pacer.events();
    const double seconds = static_cast<double>(ran) * seconds_per_event;
    longest = std::max(longest, seconds);
    pacer.adapt(ran, seconds);
  }
  return longest;
}

TEST(PollPacer, PollsAboutEvery50MillisecondsWhateverTheEventRate) {
  // From ten million events per second down to one event per 0.2 s, signals
  // and the wall clock are looked at after the first event, then at least
  // every 50 ms (or after every event when one takes longer). A
  // fixed count of 4 096 events polled every 4 s at 1 000 events per second.
  for (double per_event : {1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.2}) {
    EXPECT_LE(longest_poll_seconds(per_event), std::max(engine::PollPacer::kTargetSeconds, per_event))
        << per_event;
  }
}

TEST(PollPacer, FastRunsReachTheFullCountAndSlowOnesRecover) {
  engine::PollPacer pacer;
  EXPECT_EQ(pacer.events(), engine::PollPacer::kFirstEvents);
  for (int k = 0; k < 12; ++k) pacer.adapt(pacer.events(), 1e-5);
  EXPECT_EQ(pacer.events(), engine::PollPacer::kMostEvents);
  pacer.adapt(pacer.events(), 1e-4);  // never above the most
  EXPECT_EQ(pacer.events(), engine::PollPacer::kMostEvents);
  pacer.adapt(pacer.events(), 4.096);  // 1 ms per event
  EXPECT_EQ(pacer.events(), 50u);
  pacer.adapt(3, 1e-6);  // a step cut short (budget, end time) says nothing
  EXPECT_EQ(pacer.events(), 50u);
  pacer.adapt(50, 0.03);  // within the target: kept
  EXPECT_EQ(pacer.events(), 50u);
  for (int k = 0; k < 10; ++k) pacer.adapt(pacer.events(), 1e-6);
  EXPECT_EQ(pacer.events(), engine::PollPacer::kMostEvents);
  engine::PollPacer capped(16);
  for (int k = 0; k < 8; ++k) capped.adapt(capped.events(), 1e-6);
  EXPECT_EQ(capped.events(), 16u);
  capped.adapt(16, 16.0);
  EXPECT_EQ(capped.events(), 1u);
}

TEST(StallWatch, QuietWhileTimeAdvances) {
  engine::StallWatch watch(1000);
  for (std::uint64_t k = 1; k < 100000; ++k) {
    ASSERT_FALSE(watch.stalled(1e-3 * static_cast<double>(k), 100 * k));
  }
}

TEST(StallWatch, StopsAfterTheLimitAtOneInstant) {
  engine::StallWatch watch(1000);
  EXPECT_FALSE(watch.stalled(0.0, 0));
  EXPECT_FALSE(watch.stalled(0.0, 999));
  EXPECT_TRUE(watch.stalled(0.0, 1000));
  EXPECT_EQ(watch.stuck_at(), 0.0);
  EXPECT_EQ(watch.events_since(), 1000u);
}

TEST(StallWatch, ZenoCreepCountsAsNoProgress) {
  // A clock creeping towards 348.366 by ever smaller steps (a Zeno
  // cascade): progress by less than a relative 1e-12 does not count.
  engine::StallWatch watch(10000);
  double t = 348.366;
  double step = 1e-13;
  bool stalled = false;
  for (std::uint64_t k = 1; k <= 20000 && !stalled; ++k) {
    t += step;
    step *= 0.999;
    stalled = watch.stalled(t, k);
  }
  EXPECT_TRUE(stalled);
}

TEST(StallWatch, ProgressMovesTheMarkAndZeroNeverStalls) {
  engine::StallWatch watch(100);
  EXPECT_FALSE(watch.stalled(5.0, 0));
  EXPECT_FALSE(watch.stalled(5.0, 99));
  EXPECT_FALSE(watch.stalled(5.001, 150));  // moved: a new mark
  EXPECT_FALSE(watch.stalled(5.001, 249));
  EXPECT_TRUE(watch.stalled(5.001, 250));
  engine::StallWatch off(0);
  EXPECT_FALSE(off.stalled(1.0, 0));
  EXPECT_FALSE(off.stalled(1.0, 1u << 30));
}

// The thesis started both halves of a synapsin dimer at one point; seeds 2
// and 8 of the example froze in a loaded group holding such a dimer. No
// two generated particles may start closer than their blocking distance.
TEST(PresynapticGenerator, PlacesNoParticlesOverlapping) {
  for (const char* seed : {"run.seed=2", "run.seed=8", "run.seed=2009"}) {
    Simulation sim(example("presynaptic.toml"), {seed});
    const auto& p = sim.initial.particles;
    std::size_t dimers = 0;
    for (std::size_t a = 0; a < p.size(); ++a) {
      if (std::isinf(sim.model.species(p[a].species).mass)) continue;
      for (std::size_t b = a + 1; b < p.size(); ++b) {
        if (std::isinf(sim.model.species(p[b].species).mass)) continue;
        const double d = (p[a].position - p[b].position).norm();
        ASSERT_GE(d, sim.model.pair(p[a].species, p[b].species).blocking)
            << seed << ": particles " << p[a].id << " and " << p[b].id << " overlap";
      }
    }
    for (const TetherSpec& t : sim.initial.tethers) {
      const ParticleSpec& a = p[t.a];
      const ParticleSpec& b = p[t.b];
      if (a.species != b.species) continue;
      ++dimers;
      const double d = (a.position - b.position).norm();
      EXPECT_GT(d, sim.model.pair(a.species, b.species).blocking);
      EXPECT_LT(d, sim.model.pair(a.species, b.species).tethering);
    }
    EXPECT_EQ(dimers, 300u);
  }
}

TEST(PresynapticGenerator, RefusesAnOverpackedCompartment) {
  try {
    Simulation sim(example("presynaptic.toml"), {"pair.V-V.blocking=400.0"});
    FAIL() << "an overpacked compartment was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no room for 100 vesicles"), std::string::npos) << e.what();
  }
}

TEST(FccGasGenerator, RefusesAnOverlappingLattice) {
  try {
    Simulation sim(example("gas.toml"), {"initial.parameters.density=1.5", "initial.parameters.cells=3"});
    FAIL() << "an overlapping lattice was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the lattice would overlap"), std::string::npos) << e.what();
  }
}

// A tethered pair whose tethering distance equals its blocking distance is
// held at exactly one distance and collided without end at t = 0.
TEST(DegenerateTethers, TetheringEqualToBlockingIsRefused) {
  const std::string model =
      line_model(0.0, 1.0, 1.0, 1.0, "tethers = [[0, 1]]") + particle(0, "A", 0.0, 1.0) + particle(1, "A", 1.0, 0.0);
  try {
    Simulation sim(model);
    FAIL() << "tethering == blocking was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("equals the tethering distance"), std::string::npos) << e.what();
  }
}

TEST(DegenerateTethers, ThetaRevolveNextToHalfPiIsRefused) {
  const std::string model = line_model(0.0, 1.0, 1.0, 2.0) + particle(0, "A", 0.0, 1.0);
  for (const double theta : {M_PI / 2.0 - 3e-8, M_PI / 2.0 - 5e-7}) {
    try {
      Simulation sim(model, {"physics.theta_revolve=" + num(theta)});
      FAIL() << "theta_revolve " << theta << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("at least 1e-6 below pi/2"), std::string::npos) << e.what();
    }
  }
  Simulation fine(model, {"physics.theta_revolve=" + num(M_PI / 2.0 - 2e-6)});
  EXPECT_TRUE(fine->run_until(10.0));
}

// The report names the event kinds and the particles (with their species)
// of the events it samples.
TEST(StallReport, NamesKindsAndParticles) {
  const std::string model = line_model(0.0, 1.0) + particle(0, "A", 0.0, 1.0) + particle(1, "A", 3.0, -1.0);
  Simulation sim(model);
  const std::string text = engine::describe_stall(*sim, 10.0, 1000);
  EXPECT_NE(text.find("blocking 1"), std::string::npos) << text;
  EXPECT_NE(text.find("among particles"), std::string::npos) << text;
  EXPECT_NE(text.find(" 0 (A)"), std::string::npos) << text;
  EXPECT_NE(text.find(" 1 (A)"), std::string::npos) << text;
}

}  // namespace
}  // namespace tethersim::testing
