#pragma once
// The hash of a particle's record as it travels (ParticleRecord): equal to
// Engine::record_hash of the particle once the record is placed, so that a
// process can tell which version a pending outcome produces before placing
// it (owner-computes: an outcome that reads or introduces the version
// another pending outcome produces comes after it).

#include <cstdint>

#include "tethersim/engine/hash_bits.hpp"
#include "tethersim/engine/particle_words.hpp"
#include "tethersim/engine/snapshot.hpp"

namespace tethersim::engine {

inline std::uint64_t particle_record_hash(const ParticleRecord& r, bool random_impulses) {
  std::uint64_t h = particle_record_hash(r.particle, random_impulses);
  for (double phi : r.reaction_times) h = physics::mix_hash(h, bits(phi));
  // Links in any order (the engine's adjacency has none): sums of one term
  // each.
  std::uint64_t links = 0;
  for (ParticleId j : r.tethers) links += physics::mix_hash(1, j);
  for (const LoadedEdgeSnapshot& edge : r.loaded_edges) {
    const ParticleId partner = edge.a == r.particle.id ? edge.b : edge.a;
    links += physics::mix_hash(2, partner, vector_bits(edge.impulse), bits(edge.time), edge.sequence);
  }
  return physics::mix_hash(h, links);
}

}  // namespace tethersim::engine
