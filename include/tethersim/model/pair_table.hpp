#pragma once
// Per species-pair interaction parameters (docs/physics.md, "Species, pairs
// and infinite masses"), stored as a
// dense symmetric table.

#include <cstddef>
#include <vector>

#include "tethersim/model/species.hpp"
#include "tethersim/physics/vector.hpp"

namespace tethersim {

struct PairParameters {
  double blocking = 0.0;           // 0 = never blocks
  double tethering = kInfinity;    // kInfinity = never has tethering collisions
  double c_rebound = 1.0;
  double c_retract = 1.0;
  double c_revolve = 1.0;
  bool permanent = false;          // tethers of this pair never detach

  bool blocks() const { return blocking > 0.0; }
  bool tetherable() const { return tethering < kInfinity; }
};

class PairTable {
 public:
  PairTable() = default;
  explicit PairTable(std::size_t species_count)
      : count_(species_count), entries_(species_count * species_count) {}

  std::size_t species_count() const { return count_; }

  const PairParameters& operator()(SpeciesIndex a, SpeciesIndex b) const {
    return entries_[index(a, b)];
  }
  // Sets both (a, b) and (b, a).
  void set(SpeciesIndex a, SpeciesIndex b, const PairParameters& p) {
    entries_[index(a, b)] = p;
    entries_[index(b, a)] = p;
  }

 private:
  std::size_t index(SpeciesIndex a, SpeciesIndex b) const { return a * count_ + b; }
  std::size_t count_ = 0;
  std::vector<PairParameters> entries_;
};

}  // namespace tethersim
