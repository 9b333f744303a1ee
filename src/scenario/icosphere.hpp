#pragma once
// Geodesic (class I) subdivision of the icosahedron: every edge split into
// `frequency` segments, points projected on the unit sphere. 10 f^2 + 2
// vertices, 30 f^2 edges.

#include <cstdint>
#include <utility>
#include <vector>

#include "tethersim/physics/vector.hpp"

namespace tethersim::scenario {

struct Icosphere {
  std::vector<Vec3> vertices;                              // unit vectors
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;  // a < b, sorted
};

Icosphere make_icosphere(int frequency);

}  // namespace tethersim::scenario
