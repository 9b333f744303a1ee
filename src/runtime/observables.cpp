#include "observables.hpp"

namespace tethersim::runtime {

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

}  // namespace tethersim::runtime
