#pragma once
// Names of the configured observables, for progress lines and summaries.

#include <string>
#include <vector>

#include "tethersim/model/model.hpp"

namespace tethersim::runtime {

// "clusters V" for each output.cluster_species.
std::vector<std::string> cluster_labels(const Model& model);
// "V tethered to D" for each output.tethered_pairs.
std::vector<std::string> tethered_labels(const Model& model);

}  // namespace tethersim::runtime
