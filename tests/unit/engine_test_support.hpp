#pragma once
// Building engines from inline model text in tests.

#include <memory>
#include <string>

#include "tethersim/engine/engine.hpp"
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
  double x(ParticleId id, double t) const { return engine->position(id, t).x(); }
  Vec3 v(ParticleId id) const {
    return engine->particles().state[engine->particles().index_of(id)].v;
  }
};

// A 1-D model of equal unit masses on a line (header only; add particles).
inline std::string line_model(double restitution_delay, double c_rebound, double blocking = 1.0,
                              double tethering = -1.0) {
  std::string pair = "[[pair]]\nspecies = [\"A\", \"A\"]\nblocking = " + std::to_string(blocking) +
                     "\nc = " + std::to_string(c_rebound) + "\n";
  if (tethering > 0) pair += "tethering = " + std::to_string(tethering) + "\n";
  return "[model]\ndimensions = 1\n[run]\nend_time = 10.0\n[physics]\nrestitution_delay = " +
         std::to_string(restitution_delay) +
         "\n[domain]\nlo = [-20.0]\nhi = [20.0]\nboundary = \"reflective\"\n"
         "[[species]]\nname = \"A\"\nmass = 1.0\nradius = 0.5\n" + pair + "[initial]\n";
}

inline std::string particle(ParticleId id, const char* species, double x, double v) {
  return "[[initial.particle]]\nid = " + std::to_string(id) + "\nspecies = \"" + species +
         "\"\nposition = [" + std::to_string(x) + "]\nvelocity = [" + std::to_string(v) + "]\n";
}

}  // namespace tethersim::testing
