#pragma once
// Configurable tethering rules (docs/physics.md, "Tethers forming and
// breaking"): when a blocking
// collision attaches a tether and when a tethering collision detaches one.

#include <cstdint>
#include <optional>
#include <vector>

#include "tethersim/model/species.hpp"

namespace tethersim {

// Tethers form on blocking collisions of an untethered pair of these species
// when every condition holds.
struct AttachRule {
  SpeciesIndex species_a = 0;
  SpeciesIndex species_b = 0;
  // "A particle of species_a may hold at most max_partners_of_a tethers to
  // particles of species_b" (and the same for b). -1 = no limit.
  int max_partners_of_a = -1;
  int max_partners_of_b = -1;
  // Dimer exclusivity: when set to one of the two species (say S), a particle
  // of the other species (V) may not attach to an S whose S-partners are
  // already tethered to that V.
  std::optional<SpeciesIndex> exclusive_dimer;
  // Gating: during an action potential the attachment is refused once the
  // reaction time Phi[reaction][subject] has passed.
  int blocking_reaction = -1;
};

// Tethers of this pair detach at their next tethering collision when every
// condition holds (and the pair is not permanent).
struct DetachRule {
  SpeciesIndex species_a = 0;
  SpeciesIndex species_b = 0;
  // -1: always (a breakable bond). Otherwise only during an action
  // potential, once Phi[reaction][subject] has passed.
  int reaction = -1;
  // The reaction's subject must also be tethered to a particle of this
  // species (a vesicle fuses only when docked).
  std::optional<SpeciesIndex> subject_requires_partner;
  // After detaching, the subject also drops its tethers to these species
  // (an exocytosed vesicle leaves its docking site behind).
  std::vector<SpeciesIndex> subject_releases;
};

struct TetherRules {
  std::vector<AttachRule> attach;
  std::vector<DetachRule> detach;
};

}  // namespace tethersim
