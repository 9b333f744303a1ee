#pragma once
// Building engines from inline model text in tests.

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/partial_view.hpp"
#include "tethersim/physics/collision_impulse.hpp"
#include "tethersim/io/model_file.hpp"
#include "tethersim/scenario/initial_particles.hpp"

namespace tethersim::testing {

// A model, its initial particles and an engine over them, kept together
// (the engine refers to the model).
struct Simulation {
  explicit Simulation(const std::string& toml, std::vector<std::string> overrides = {})
      : model(load_model_text(toml, "test.toml", ModelFileOptions{std::move(overrides), false},
                              &initial)),
        engine(std::make_unique<engine::Engine>(model, initial)) {}

  scenario::InitialParticles initial;  // filled while the model loads
  Model model;
  std::unique_ptr<engine::Engine> engine;

  engine::Engine& operator*() { return *engine; }
  engine::Engine* operator->() { return engine.get(); }
  // The engine's distributed interface (speculative windows, records in).
  engine::PartialView view() { return engine::PartialView(*engine); }
  double x(ParticleId id, double t) const { return engine->position(id, t).x(); }
  Vec3 v(ParticleId id) const {
    return engine->particles().state[engine->particles().index_of(id)].v;
  }
  std::uint64_t count(engine::EventKind kind) const {
    return engine->statistics().events[static_cast<int>(kind)];
  }
  std::uint64_t responses(physics::CollisionResponse r) const {
    return engine->statistics().responses[static_cast<int>(r)];
  }
};

// Random impulses, loaded groups restituting on the "min" schedule, tethers
// that form and break, and an open face that particles leave through.
inline const char* const kBusyGas =
    "[run]\nend_time = 10.0\nseed = 4\n[physics]\nrestitution_delay = 0.05\nrestitution_schedule = \"min\"\n"
    "[domain]\nlo = [0.0, 0.0, 0.0]\nhi = [10.0, 10.0, 10.0]\nboundary = [\"open\", \"periodic\", \"periodic\"]\n"
    "[[species]]\nname = \"A\"\nmass = 1.0\nradius = 0.5\n"
    "random_impulse = { tau = 0.3, shape = 4.0, mean = 1.0 }\n"
    "[[pair]]\nspecies = [\"A\", \"A\"]\nblocking = 1.0\ntethering = 1.4\nc = 0.7\n"
    "[[attach]]\nspecies = [\"A\", \"A\"]\nmax_partners = { A = 2 }\n"
    "[[detach]]\nspecies = [\"A\", \"A\"]\n"
    "[initial]\ngenerator = \"random-gas\"\n[initial.parameters]\ncount = 400\nspecies = \"A\"\n";

// The same physics counted by two runs: events by kind, collision
// responses, loadings (the engine's own work may differ).
inline void expect_same_physics_counts(const engine::EngineStatistics& a, const engine::EngineStatistics& b) {
  for (std::size_t k = 0; k < a.events.size(); ++k) EXPECT_EQ(a.events[k], b.events[k]) << "kind " << k;
  for (std::size_t k = 0; k < a.responses.size(); ++k) EXPECT_EQ(a.responses[k], b.responses[k]) << "response " << k;
  EXPECT_EQ(a.loadings, b.loadings);
}

// Runs both engines to `end`: the same state and the same physics counts.
inline void expect_same_run(engine::Engine& a, engine::Engine& b, double end) {
  a.run_until(end);
  b.run_until(end);
  EXPECT_EQ(a.state_hash(), b.state_hash());
  expect_same_physics_counts(a.statistics(), b.statistics());
}

// The text of a shipped example model (examples/NAME).
inline std::string example(const std::string& name) {
  std::ifstream in(std::string(TETHERSIM_SOURCE_DIR) + "/examples/" + name);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline std::string num(double x) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  std::string s = buffer;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

inline std::string vec(const Vec3& v) { return "[" + num(v.x()) + ", " + num(v.y()) + ", " + num(v.z()) + "]"; }

// [[initial.particle]] tables (3-D vectors, or 1-D values).
inline std::string particle(ParticleId id, const char* species, const Vec3& x, const Vec3& v = Vec3::Zero()) {
  return "[[initial.particle]]\nid = " + std::to_string(id) + "\nspecies = \"" + species +
         "\"\nposition = " + vec(x) + "\nvelocity = " + vec(v) + "\n";
}
inline std::string particle(ParticleId id, const char* species, double x, double v) {
  return particle(id, species, Vec3(x, 0, 0), Vec3(v, 0, 0));
}

// A 1-D model of unit masses (species A) on a line, up to its [initial]
// table; `initial_extra` goes inside [initial] (e.g. "tethers = [[0, 1]]").
inline std::string line_model(double restitution_delay, double c, double blocking = 1.0,
                              double tethering = -1.0, const std::string& initial_extra = "") {
  std::string pair = "[[pair]]\nspecies = [\"A\", \"A\"]\nblocking = " + num(blocking) +
                     "\nc = " + num(c) + "\n";
  if (tethering > 0) pair += "tethering = " + num(tethering) + "\n";
  return "[model]\ndimensions = 1\n[run]\nend_time = 10.0\n[physics]\nrestitution_delay = " +
         num(restitution_delay) +
         "\n[domain]\nlo = [-1000.0]\nhi = [1000.0]\nboundary = \"reflective\"\n"
         "[[species]]\nname = \"A\"\nmass = 1.0\nradius = 0.5\n" + pair + "[initial]\n" +
         initial_extra + "\n";
}

}  // namespace tethersim::testing
