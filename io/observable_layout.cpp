#include "observable_layout.hpp"

#include "tethersim/io/observable_names.hpp"

namespace tethersim::io_detail {

std::vector<std::pair<std::string, std::size_t>> observable_layout(const Model& model) {
  std::vector<std::pair<std::string, std::size_t>> layout = {
      {"kinetic_energy", 0}, {"momentum", 3}, {"particles", 0}, {"escapes", 0}, {"tethers", 0},
      {"event_counts", kEventCountColumns.size()}};
  for (const std::string& s : model.output().cluster_species) layout.push_back({cluster_observable_name(s), 0});
  for (const auto& p : model.output().tethered_pairs) layout.push_back({tethered_observable_name(p), 0});
  return layout;
}

}  // namespace tethersim::io_detail
