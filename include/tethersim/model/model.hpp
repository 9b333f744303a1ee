#pragma once
// The validated, immutable description of one simulation.
//
// A Model is built from ModelData (usually by io/model_file) and checked
// once on construction; afterwards nothing can change it, so every layer
// above may rely on its invariants (distances, masses, coefficients,
// references between species, rules and reactions).

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tethersim/model/action_potentials.hpp"
#include "tethersim/model/domain.hpp"
#include "tethersim/model/dynamics.hpp"
#include "tethersim/model/initial_state.hpp"
#include "tethersim/model/output_settings.hpp"
#include "tethersim/model/pair_table.hpp"
#include "tethersim/model/periodic_impulse.hpp"
#include "tethersim/model/species.hpp"
#include "tethersim/model/tether_rules.hpp"
#include "tethersim/model/units.hpp"

namespace tethersim {

struct ModelData {
  std::string name;
  std::string description;
  Units units;  // labels only: in neither hash
  std::uint64_t seed = 1;
  double end_time = 0.0;
  Dynamics dynamics;
  Domain domain;
  std::vector<Species> species;
  PairTable pairs;
  std::vector<PeriodicImpulse> periodic_impulses;
  TetherRules rules;
  ActionPotentials action_potentials;
  InitialState initial;
  OutputSettings output;
  // Provenance, stored with checkpoints so a restart needs no model file:
  // the file's text and the --set overrides applied to it, in order.
  std::string source_path;
  std::string source_text;
  std::vector<std::string> overrides;
};

// One problem found by validation: the key it concerns, in the dotted form
// used by model files and --set (e.g. "species.V.mass"), and what is wrong.
struct ModelProblem {
  std::string key;
  std::string message;
};

// Checks every invariant of ModelData that does not need the initial
// particles; returns the problems in a stable order (empty = valid).
std::vector<ModelProblem> validate_model_data(const ModelData& data);

// Thrown by Model's constructor with the first problem.
class ModelError : public std::runtime_error {
 public:
  explicit ModelError(ModelProblem problem);
  const ModelProblem& problem() const { return problem_; }

 private:
  ModelProblem problem_;
};

// The most sectors a grid may have: sector coordinates and indices are
// 32-bit, and each sector costs memory whether it holds particles or not.
inline constexpr std::uint64_t kMaxSectors = (std::uint64_t{1} << 31) - 1;

class Model {
 public:
  // Validates; throws ModelError.
  explicit Model(ModelData data);

  const std::string& name() const { return data_.name; }
  const std::string& description() const { return data_.description; }
  std::uint64_t seed() const { return data_.seed; }
  double end_time() const { return data_.end_time; }
  const Dynamics& dynamics() const { return data_.dynamics; }
  int dimensions() const { return data_.dynamics.dimensions; }
  const Domain& domain() const { return data_.domain; }
  const std::vector<Species>& species() const { return data_.species; }
  const Species& species(SpeciesIndex s) const { return data_.species[s]; }
  const PairParameters& pair(SpeciesIndex a, SpeciesIndex b) const { return data_.pairs(a, b); }
  const PairTable& pairs() const { return data_.pairs; }
  const std::vector<PeriodicImpulse>& periodic_impulses() const {
    return data_.periodic_impulses;
  }
  const TetherRules& rules() const { return data_.rules; }
  const ActionPotentials& action_potentials() const { return data_.action_potentials; }
  const InitialState& initial() const { return data_.initial; }
  const OutputSettings& output() const { return data_.output; }
  const Units& units() const { return data_.units; }
  const std::string& source_path() const { return data_.source_path; }
  const std::string& source_text() const { return data_.source_text; }
  const ModelData& data() const { return data_; }

  std::optional<SpeciesIndex> find_species(std::string_view name) const;

  // The largest finite interaction distance (blocking or tethering) between
  // two finite-mass species: the smallest legal sector edge. After
  // fit_sectors_to, only between species pairs the population can form.
  double min_sector_size() const { return min_sector_size_; }
  // The sector edge used: the requested one or the minimum.
  double sector_size() const { return sector_size_; }
  // Once the initial state is known (a fresh run's, or a checkpoint's, whose
  // population can only have shrunk): pairs that cannot occur no longer
  // size the sectors. A species with a single particle (a projectile) never
  // meets itself, so its self distance stops setting the edge of every
  // sector. Species never change, so the fitted edge holds for the whole
  // run; sector edges change no event's bits (only the engine's work), so
  // a run ends in the same state either way. Call before anything is built
  // on the sectors (engines, decompositions). A requested edge is kept.
  void fit_sectors_to(const std::vector<std::size_t>& count_by_species);
  // Infinite-mass species whose interaction distances exceed the sector edge
  // (membrane shells, zones): kept out of the sector grid (docs/engine.md,
  // "Particles outside the grid").
  bool is_hub_species(SpeciesIndex s) const { return hub_species_[s]; }

  // A canonical text of every resolved parameter and 64-bit FNV-1a hashes
  // of it: independent of formatting, comments and the order of keys within
  // a table (species, rules and particles keep their order: it numbers them).
  // physics_hash covers the dynamics (seed, species, pairs, rules, domain,
  // external impulses, action potentials); hash adds the initial state.
  // Names, descriptions, the end time and outputs are in neither, so a
  // restart may extend a run or change what it writes.
  const std::string& canonical_text() const { return canonical_text_; }
  std::uint64_t physics_hash() const { return physics_hash_; }
  std::uint64_t hash() const { return hash_; }

 private:
  ModelData data_;
  double min_sector_size_ = 0.0;
  double sector_size_ = 0.0;
  std::vector<bool> hub_species_;
  std::string canonical_text_;
  std::uint64_t physics_hash_ = 0;
  std::uint64_t hash_ = 0;
};

}  // namespace tethersim
