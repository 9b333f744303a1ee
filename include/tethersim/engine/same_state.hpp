#pragma once
// Equality bit for bit of what a snapshot holds: what two ranks that ran the
// same particle, or a rank and the serial engine, must agree on exactly
// (-0.0 differs from 0.0; a NaN equals itself).

#include <bit>
#include <cstdint>

#include "tethersim/engine/particle_words.hpp"
#include "tethersim/engine/snapshot.hpp"

namespace tethersim::engine {

inline bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

inline bool same_loaded_edge(const LoadedEdgeSnapshot& x, const LoadedEdgeSnapshot& y) {
  return x.a == y.a && x.b == y.b && same_bits(x.impulse[0], y.impulse[0]) &&
         same_bits(x.impulse[1], y.impulse[1]) && same_bits(x.impulse[2], y.impulse[2]) &&
         same_bits(x.time, y.time) && x.sequence == y.sequence;
}

inline bool same_record(const ParticleRecord& x, const ParticleRecord& y) {
  if (!same_particle_state(x.particle, y.particle) || x.tethers != y.tethers ||
      x.reaction_times.size() != y.reaction_times.size() || x.loaded_edges.size() != y.loaded_edges.size()) {
    return false;
  }
  for (std::size_t k = 0; k < x.reaction_times.size(); ++k) {
    if (!same_bits(x.reaction_times[k], y.reaction_times[k])) return false;
  }
  for (std::size_t k = 0; k < x.loaded_edges.size(); ++k) {
    if (!same_loaded_edge(x.loaded_edges[k], y.loaded_edges[k])) return false;
  }
  return true;
}

}  // namespace tethersim::engine
