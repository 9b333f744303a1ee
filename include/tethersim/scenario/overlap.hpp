#pragma once
// Overlapping starts: two particles closer than their pair's blocking
// distance. The dynamics cannot leave such a state cleanly (an overlapping
// pair that approaches collides again at once, and inside a loaded group it
// can do so for ever at one instant), so no run starts from one.

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include "tethersim/model/model.hpp"

namespace tethersim::scenario {

struct Overlap {
  std::size_t first = 0;   // indices into the particles given, first < second
  std::size_t second = 0;
  double distance = 0.0;   // nearest periodic image
  double blocking = 0.0;   // the pair's blocking distance
};

// Closer than this fraction of the blocking distance is an overlap: particles
// placed exactly at contact (lattices, membranes) may come out a rounding
// error closer.
inline constexpr double kOverlapTolerance = 1.0 - 1e-9;

// The first overlapping pair among `particles` (in their order: the pair
// whose later particle comes first, then the earlier partner), or none.
// Pairs of two infinite masses never interact and pairs with no blocking
// distance never overlap. A pure function: a cell grid of edge the largest
// blocking distance between finite masses finds every other pair among the
// 27 neighbouring cells, in O(N) time and about 12 bytes per particle.
// Infinite-mass particles whose blocking distance reaches farther (hubs such
// as a compartment membrane, few by nature) are compared with every finite
// particle.
std::optional<Overlap> first_overlap(std::span<const ParticleSpec> particles, const Model& model);

// "particles 3 (species A) and 7 (species A) are 0.2 apart, closer than
// their blocking distance 1 (overlapping starts are refused)".
std::string describe_overlap(std::span<const ParticleSpec> particles, const Model& model,
                             const Overlap& overlap);

}  // namespace tethersim::scenario
