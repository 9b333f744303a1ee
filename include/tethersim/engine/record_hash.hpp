#pragma once
// The hash of a particle's record as it travels (ParticleRecord): equal to
// Engine::record_hash of the particle once the record is placed (both sum
// the same link terms), so that a
// process can tell which version a pending outcome produces before placing
// it (owner-computes: an outcome that reads or introduces the version
// another pending outcome produces comes after it).

#include <cstdint>

#include "tethersim/engine/hash_bits.hpp"
#include "tethersim/engine/particle_words.hpp"
#include "tethersim/engine/snapshot.hpp"

namespace tethersim::engine {

// A record's links are hashed in any order (the engine's adjacency has
// none): the sum of one term per link, mixed in last.
inline std::uint64_t tether_hash_term(ParticleId partner) { return physics::mix_hash(1, partner); }
inline std::uint64_t loaded_edge_hash_term(ParticleId partner, const Vec3& impulse, double time,
                                           std::uint64_t sequence) {
  return physics::mix_hash(2, partner, vector_bits(impulse), bits(time), sequence);
}

inline std::uint64_t particle_record_hash(const ParticleRecord& r, bool random_impulses) {
  std::uint64_t h = particle_record_hash(r.particle, random_impulses);
  for (double phi : r.reaction_times) h = physics::mix_hash(h, bits(phi));
  std::uint64_t links = 0;
  for (ParticleId j : r.tethers) links += tether_hash_term(j);
  for (const LoadedEdgeSnapshot& edge : r.loaded_edges) {
    links += loaded_edge_hash_term(edge.a == r.particle.id ? edge.b : edge.a, edge.impulse, edge.time, edge.sequence);
  }
  return physics::mix_hash(h, links);
}

}  // namespace tethersim::engine
