#include "placement_grid.hpp"

#include <algorithm>
#include <cmath>

#include "tethersim/physics/counter_rng.hpp"

namespace tethersim::scenario {

PlacementGrid::PlacementGrid(const Model& model) : model_(model) {
  const std::size_t n = model.species().size();
  for (SpeciesIndex a = 0; a < n; ++a) {
    for (SpeciesIndex b = 0; b < n; ++b) {
      if (std::isinf(model.species(a).mass) || std::isinf(model.species(b).mass)) continue;
      cell_ = std::max(cell_, model.pair(a, b).blocking);
    }
  }
  // The model's explicit particles are there before any generated one:
  // a random draw that would overlap one is drawn again.
  for (const ParticleSpec& p : model.initial().particles) add(p.species, p.position);
}

std::size_t PlacementGrid::KeyHash::operator()(const Key& k) const {
  return static_cast<std::size_t>(physics::mix_hash(static_cast<std::uint64_t>(k[0]),
                                                    static_cast<std::uint64_t>(k[1]),
                                                    static_cast<std::uint64_t>(k[2])));
}

PlacementGrid::Key PlacementGrid::key(const Vec3& x) const {
  return {static_cast<std::int64_t>(std::floor(x[0] / cell_)), static_cast<std::int64_t>(std::floor(x[1] / cell_)),
          static_cast<std::int64_t>(std::floor(x[2] / cell_))};
}

bool PlacementGrid::fits(SpeciesIndex species, const Vec3& x) const {
  if (std::isinf(model_.species(species).mass)) return true;
  const Key k = key(x);
  for (std::int64_t dx = -1; dx <= 1; ++dx) {
    for (std::int64_t dy = -1; dy <= 1; ++dy) {
      for (std::int64_t dz = -1; dz <= 1; ++dz) {
        const auto it = cells_.find({k[0] + dx, k[1] + dy, k[2] + dz});
        if (it == cells_.end()) continue;
        for (std::size_t other : it->second) {
          if ((positions_[other] - x).norm() < model_.pair(species, species_[other]).blocking) return false;
        }
      }
    }
  }
  return true;
}

void PlacementGrid::add(SpeciesIndex species, const Vec3& x) {
  if (std::isinf(model_.species(species).mass)) return;
  cells_[key(x)].push_back(positions_.size());
  positions_.push_back(x);
  species_.push_back(species);
}

}  // namespace tethersim::scenario
