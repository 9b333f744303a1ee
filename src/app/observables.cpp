#include "observables.hpp"

namespace tethersim::app {

ObservableSample sample_observables(const Model& model, const engine::Engine& engine, double time) {
  ObservableSample s;
  s.time = time;
  s.kinetic_energy = engine.kinetic_energy();
  s.momentum = engine.momentum();
  s.particles = engine.alive_count();
  s.escapes = engine.escapes().size();
  for (const std::string& name : model.output().cluster_species) {
    s.clusters.push_back(engine.cluster_count(*model.find_species(name)));
  }
  for (const auto& pair : model.output().tethered_pairs) {
    s.tethered.push_back(
        engine.tethered_count(*model.find_species(pair[0]), *model.find_species(pair[1])));
  }
  return s;
}

std::vector<std::string> cluster_labels(const Model& model) {
  std::vector<std::string> out;
  for (const std::string& name : model.output().cluster_species) out.push_back("clusters " + name);
  return out;
}

std::vector<std::string> tethered_labels(const Model& model) {
  std::vector<std::string> out;
  for (const auto& pair : model.output().tethered_pairs) {
    out.push_back(pair[0] + " tethered to " + pair[1]);
  }
  return out;
}

}  // namespace tethersim::app
