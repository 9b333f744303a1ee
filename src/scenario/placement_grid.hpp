#pragma once
// Where a generator may still put a particle: a hash grid of the particles
// placed so far that answers whether a new one would start closer to any of
// them than their blocking distance. Overlapping starts are not a state the
// dynamics can leave cleanly: an overlapping pair that approaches collides
// again at once, and a group of them can repeat that at one instant for
// ever (private to src/scenario).

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "tethersim/model/model.hpp"

namespace tethersim::scenario {

class PlacementGrid {
 public:
  // Finite-mass particles of `model` in free space (no periodic images),
  // starting with the model's explicit particles (and those of its files).
  explicit PlacementGrid(const Model& model);

  // True when a particle of `species` at `x` is at least the blocking
  // distance from every particle added so far.
  bool fits(SpeciesIndex species, const Vec3& x) const;
  void add(SpeciesIndex species, const Vec3& x);

 private:
  using Key = std::array<std::int64_t, 3>;
  struct KeyHash {
    std::size_t operator()(const Key& k) const;
  };
  Key key(const Vec3& x) const;

  const Model& model_;
  double cell_ = 1.0;  // the largest blocking distance between finite masses
  std::vector<Vec3> positions_;
  std::vector<SpeciesIndex> species_;
  std::unordered_map<Key, std::vector<std::size_t>, KeyHash> cells_;
};

}  // namespace tethersim::scenario
