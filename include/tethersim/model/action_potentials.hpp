#pragma once
// Action potentials and their reactions (docs/physics.md, "Action potentials").

#include <string>
#include <vector>

#include "tethersim/model/species.hpp"

namespace tethersim {

// One reaction type, e.g. SV: a synapsin losing its affinity for vesicles.
// Its subject species holds the per-particle reaction time Phi.
struct Reaction {
  std::string name;
  SpeciesIndex subject = 0;
  double mean_time = 1.0;  // T_AP
};

struct ActionPotentialWindow {
  double start = 0.0;
  double end = 0.0;  // active on [start, end)
};

struct ActionPotentials {
  SpeciesIndex membrane = 0;  // the compartment centre is its single particle
  SpeciesIndex zone = 0;      // the active-zone centre is its single particle
  double zone_radius = 0.0;   // r_Z
  double gradient = 0.0;      // g_AP
  std::vector<Reaction> reactions;
  std::vector<ActionPotentialWindow> windows;

  bool enabled() const { return !windows.empty(); }
  int reaction_index(const std::string& name) const;
};

}  // namespace tethersim
