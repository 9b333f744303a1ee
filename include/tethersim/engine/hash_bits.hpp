#pragma once
// The bits of doubles and vectors as hash words: hashes of states compare
// bit patterns, never values (-0.0 and 0.0 differ, as they do in a record).

#include <cstdint>
#include <cstring>

#include "tethersim/physics/counter_rng.hpp"
#include "tethersim/physics/vector.hpp"

namespace tethersim::engine {

inline std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

inline std::uint64_t vector_bits(const Vec3& v) { return physics::mix_hash(bits(v.x()), bits(v.y()), bits(v.z())); }

}  // namespace tethersim::engine
