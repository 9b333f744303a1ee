// Runs a model file with the installed libraries and prints what the
// install test compares with the tethersim command's own run:
//   gas_energy MODEL.toml END_TIME [key=value...]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "tethersim/engine/engine.hpp"
#include "tethersim/io/model_file.hpp"
#include "tethersim/scenario/initial_particles.hpp"
#include "tethersim/version.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: gas_energy MODEL.toml END_TIME [key=value...]\n");
    return 2;
  }
  try {
    tethersim::ModelFileOptions options;
    options.overrides.assign(argv + 3, argv + argc);
    tethersim::scenario::InitialParticles initial;
    const tethersim::Model model = tethersim::load_model_file(argv[1], options, &initial);
    const std::size_t particles = initial.particles.size();
    tethersim::engine::Engine engine(model, std::move(initial));
    const double start_energy = engine.kinetic_energy();
    engine.run_until(std::stod(argv[2]));
    const double end_energy = engine.kinetic_energy();

    std::printf("version %s\n", tethersim::kVersion);
    std::printf("model %s\n", model.name().c_str());
    std::printf("particles %zu\n", particles);
    std::printf("events %llu\n", static_cast<unsigned long long>(engine.statistics().total_events()));
    std::printf("kinetic_energy %.17g -> %.17g\n", start_energy, end_energy);
    // Elastic collisions keep the kinetic energy up to rounding.
    if (!(std::abs(end_energy - start_energy) <= 1e-9 * start_energy)) {
      std::fprintf(stderr, "gas_energy: kinetic energy not conserved\n");
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gas_energy: %s\n", e.what());
    return 1;
  }
}
