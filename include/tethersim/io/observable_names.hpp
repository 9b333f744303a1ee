#pragma once
// The names of the per-species observables, as the trajectory
// (/observables/<name>), observables.jsonl and the progress columns all
// spell them: one token each, so that pandas and awk split lines right.

#include <array>
#include <string>

namespace tethersim {

// Clusters of `species` (output.cluster_species).
inline std::string cluster_observable_name(const std::string& species) { return "clusters_" + species; }

// Particles of pair[0] tethered to one of pair[1] (output.tethered_pairs).
inline std::string tethered_observable_name(const std::array<std::string, 2>& pair) {
  return "tethered_" + pair[0] + "_" + pair[1];
}

}  // namespace tethersim
