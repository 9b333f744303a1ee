// Overlapping starts (scenario/overlap): the pure check over a list of
// particles, and every way a model makes its initial particles refusing
// (or, for random placement, avoiding) an overlap.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tethersim/io/input_error.hpp"
#include "tethersim/io/model_file.hpp"
#include "tethersim/scenario/initial_particles.hpp"
#include "tethersim/scenario/overlap.hpp"

namespace tethersim {
namespace {

// Species A (blocking 1 with itself), B (blocking 0.8 with A, none with
// itself) and an infinite-mass wall W that blocks A at 3 (a hub: farther
// than the finite pairs' cell edge). `extra` adds tables; `initial` is the
// [initial] table's body.
std::string model_text(const std::string& boundary, const std::string& initial,
                       const std::string& extra = "") {
  return "[run]\nend_time = 1.0\n"
         "[domain]\nlo = [0.0, 0.0, 0.0]\nhi = [10.0, 10.0, 10.0]\nboundary = \"" + boundary + "\"\n"
         "[[species]]\nname = \"A\"\nmass = 1.0\nradius = 0.5\n"
         "[[species]]\nname = \"B\"\nmass = 1.0\nradius = 0.4\n"
         "[[species]]\nname = \"W\"\nmass = inf\nradius = 0.5\n"
         "[pair_defaults]\nc = 1.0\n"
         "[[pair]]\nspecies = [\"A\", \"A\"]\nblocking = 1.0\n"
         "[[pair]]\nspecies = [\"A\", \"B\"]\nblocking = 0.8\n"
         "[[pair]]\nspecies = [\"B\", \"B\"]\nblocking = 0.0\n"
         "[[pair]]\nspecies = [\"A\", \"W\"]\nblocking = 3.0\n"
         "[[pair]]\nspecies = [\"B\", \"W\"]\nblocking = 0.0\n"
         "[[pair]]\nspecies = [\"W\", \"W\"]\nblocking = 0.0\n" +
         extra + "[initial]\n" + initial;
}

const std::string kOneParticle = "particle = [{ species = \"A\", position = [5.0, 5.0, 5.0] }]\n";

ParticleSpec particle(ParticleId id, SpeciesIndex species, double x, double y = 5.0, double z = 5.0) {
  ParticleSpec p;
  p.id = id;
  p.species = species;
  p.position = Vec3(x, y, z);
  return p;
}

// The message loading `text` fails with ("" when it loads).
std::string load_problem(const std::string& text) {
  try {
    load_model_text(text, "model.toml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

constexpr SpeciesIndex A = 0, B = 1, W = 2;

TEST(FirstOverlap, NamesTheFirstPairByItsLaterParticle) {
  const Model model = load_model_text(model_text("reflective", kOneParticle), "m.toml");
  const std::vector<ParticleSpec> particles = {particle(0, A, 1.0), particle(1, A, 3.0), particle(2, A, 3.5),
                                               particle(3, A, 1.2)};
  const auto overlap = scenario::first_overlap(particles, model);
  ASSERT_TRUE(overlap.has_value());
  EXPECT_EQ(overlap->first, 1u);
  EXPECT_EQ(overlap->second, 2u);
  EXPECT_DOUBLE_EQ(overlap->distance, 0.5);
  EXPECT_DOUBLE_EQ(overlap->blocking, 1.0);
  EXPECT_EQ(scenario::describe_overlap(particles, model, *overlap),
            "particles 1 (species A) and 2 (species A) overlap: 0.5 apart, closer than their blocking "
            "distance 1 (pair.A-A.blocking)");
}

TEST(FirstOverlap, ContactIsNoOverlapAndPairsWithoutBlockingNeverOverlap) {
  const Model model = load_model_text(model_text("reflective", kOneParticle), "m.toml");
  // A-A exactly at contact, B on top of B, A-B at 0.8.
  const std::vector<ParticleSpec> particles = {particle(0, A, 1.0), particle(1, A, 2.0), particle(2, B, 6.0),
                                               particle(3, B, 6.0), particle(4, A, 6.8)};
  EXPECT_FALSE(scenario::first_overlap(particles, model).has_value());
  const std::vector<ParticleSpec> closer = {particle(0, B, 6.0), particle(1, A, 6.7)};
  EXPECT_TRUE(scenario::first_overlap(closer, model).has_value());
}

TEST(FirstOverlap, SeesAcrossPeriodicFaces) {
  const Model model = load_model_text(model_text("periodic", kOneParticle), "m.toml");
  const std::vector<ParticleSpec> particles = {particle(0, A, 0.1), particle(1, A, 9.8)};
  const auto overlap = scenario::first_overlap(particles, model);
  ASSERT_TRUE(overlap.has_value());
  EXPECT_NEAR(overlap->distance, 0.3, 1e-12);
  const Model walls = load_model_text(model_text("reflective", kOneParticle), "m.toml");
  EXPECT_FALSE(scenario::first_overlap(particles, walls).has_value());
}

TEST(FirstOverlap, HubsReachFartherThanTheGrid) {
  const Model model = load_model_text(model_text("reflective", kOneParticle), "m.toml");
  const std::vector<ParticleSpec> near = {particle(0, W, 5.0), particle(1, A, 7.5), particle(2, B, 5.0)};
  const auto overlap = scenario::first_overlap(near, model);
  ASSERT_TRUE(overlap.has_value());
  EXPECT_EQ(overlap->first, 0u);
  EXPECT_EQ(overlap->second, 1u);
  EXPECT_DOUBLE_EQ(overlap->blocking, 3.0);
  const std::vector<ParticleSpec> far = {particle(0, W, 5.0), particle(1, A, 8.0), particle(2, W, 4.9)};
  EXPECT_FALSE(scenario::first_overlap(far, model).has_value());
}

TEST(FirstOverlap, FindsTheOnlyOverlapAmongManyParticles) {
  const Model model = load_model_text(model_text("periodic", kOneParticle), "m.toml");
  std::vector<ParticleSpec> lattice;
  for (int i = 0; i < 10; ++i) {
    for (int j = 0; j < 10; ++j) {
      for (int k = 0; k < 10; ++k) {
        lattice.push_back(particle(lattice.size(), A, 0.5 + i, 0.5 + j, 0.5 + k));
      }
    }
  }
  EXPECT_FALSE(scenario::first_overlap(lattice, model).has_value());
  lattice[637].position[1] += 0.25;  // 0.75 from its neighbour at +y, 647
  const auto overlap = scenario::first_overlap(lattice, model);
  ASSERT_TRUE(overlap.has_value());
  EXPECT_EQ(overlap->first, 637u);
  EXPECT_EQ(overlap->second, 647u);
}

TEST(FirstOverlap, FindsTheOnlyOverlapBetweenWalls) {
  // Between walls the cells' bounds are those of the particles (an array
  // over them), with nothing beyond them to wrap to.
  const Model model = load_model_text(model_text("reflective", kOneParticle), "m.toml");
  std::vector<ParticleSpec> lattice;
  for (int i = 0; i < 10; ++i) {
    for (int j = 0; j < 10; ++j) {
      for (int k = 0; k < 10; ++k) lattice.push_back(particle(lattice.size(), A, 0.5 + i, 0.5 + j, 0.5 + k));
    }
  }
  EXPECT_FALSE(scenario::first_overlap(lattice, model).has_value());
  lattice[999].position[0] -= 0.3;  // 0.7 from its neighbour at -x, 899
  const auto overlap = scenario::first_overlap(lattice, model);
  ASSERT_TRUE(overlap.has_value());
  EXPECT_EQ(overlap->first, 899u);
  EXPECT_EQ(overlap->second, 999u);
}

TEST(FirstOverlap, FewParticlesInAHugeBoxAreFoundToo) {
  // A box of millions of cells around three particles: the cells are kept
  // in a table of the occupied ones, not an array over their bounds.
  // Particle 0 is far off; 1 and 2 overlap across a cell face.
  std::string text = model_text("reflective", kOneParticle);
  const std::string box = "hi = [10.0, 10.0, 10.0]";
  text.replace(text.find(box), box.size(), "hi = [10.0, 3000000.0, 10.0]");
  const Model model = load_model_text(text, "m.toml");
  const double far = static_cast<double>(1 << 21) + 0.5;
  const std::vector<ParticleSpec> particles = {particle(0, A, 0.5, far, 0.5), particle(1, A, 0.5, 0.5, 1.5),
                                               particle(2, A, 0.5, 0.5, 2.2)};
  const auto overlap = scenario::first_overlap(particles, model);
  ASSERT_TRUE(overlap.has_value());
  EXPECT_EQ(overlap->first, 1u);
  EXPECT_EQ(overlap->second, 2u);
}

TEST(InitialOverlaps, ExplicitParticlesAreRefusedWithThePairNamed) {
  const std::string text = model_text(
      "reflective",
      "particle = [{ species = \"A\", position = [5.0, 5.0, 5.0] }, { species = \"A\", position = [5.2, 5.0, 5.0] }]\n");
  // On the line of the later particle's table.
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(text.find("[5.2")), '\n'));
  EXPECT_EQ(load_problem(text),
            "model.toml:" + std::to_string(line) + ": initial.particle.1: particles 0 (species A) and 1 (species A) overlap: 0.2 apart, "
            "closer than their blocking distance 1 (pair.A-A.blocking)");
}

TEST(InitialOverlaps, SetPositionsAreCheckedToo) {
  const std::string text = model_text(
      "reflective",
      "particle = [{ species = \"A\", position = [5.0, 5.0, 5.0] }, { species = \"A\", position = [8.0, 5.0, 5.0] }]\n");
  EXPECT_EQ(load_problem(text), "");
  ModelFileOptions options;
  options.overrides = {"initial.particle.1.position=[5.5, 5.0, 5.0]"};
  try {
    load_model_text(text, "model.toml", options);
    ADD_FAILURE() << "an overlapping --set position was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("particles 0 (species A) and 1 (species A) overlap: 0.5 apart"),
              std::string::npos)
        << e.what();
  }
}

TEST(InitialOverlaps, LatticeGeneratorsAreRefusedWhereAnExplicitParticleOverlaps) {
  const std::string gas =
      "[run]\nend_time = 1.0\n[[species]]\nname = \"A\"\nmass = 1.0\nradius = 0.5\n"
      "[[pair]]\nspecies = [\"A\", \"A\"]\nc = 1.0\n"
      "[initial]\ngenerator = \"fcc-gas\"\nparameters = { cells = 3 }\n";
  EXPECT_EQ(load_problem(gas), "");
  const std::string problem =
      load_problem(gas + "particle = [{ species = \"A\", position = [0.5, 0.5, 0.5] }]\n");
  EXPECT_NE(problem.find("initial.particle.108: particles 0 (species A) and 108 (species A) overlap"),
            std::string::npos)
      << problem;
}

TEST(InitialOverlaps, RandomPlacementAvoidsExplicitParticles) {
  // 400 particles of A in a box of 1000: without avoiding the explicit ones
  // some would land within their blocking distances.
  const std::string explicit_particles =
      "particle = [{ species = \"W\", position = [5.0, 5.0, 5.0] },"
      " { species = \"B\", position = [2.0, 2.0, 2.0] }]\n";
  const std::string text = model_text(
      "periodic", "generator = \"random-gas\"\nparameters = { count = 400, species = \"A\" }\n" + explicit_particles);
  scenario::InitialParticles initial;
  const Model model = load_model_text(text, "model.toml", {}, &initial);
  ASSERT_EQ(initial.particles.size(), 402u);
  EXPECT_FALSE(scenario::first_overlap(initial.particles, model).has_value());
}

}  // namespace
}  // namespace tethersim
