#pragma once
// Particle storage of the engine: a hot 64-byte record per particle (what a
// collision prediction reads) and colder per-particle arrays.
//
// Particles are addressed by a dense local index; their global ids are
// separate. The trajectory is (t0, u0, v): u(t) = u0 + v (t - t0), re-based
// only by events that change the particle (DESIGN.md section 2).

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "tethersim/engine/big_vector.hpp"
#include "tethersim/model/initial_state.hpp"
#include "tethersim/model/species.hpp"
#include "tethersim/physics/vector.hpp"

namespace tethersim::engine {

using Index = std::uint32_t;
inline constexpr Index kNoIndex = 0xffffffffU;

struct alignas(64) ParticleState {
  Vec3 u0 = Vec3::Zero();
  Vec3 v = Vec3::Zero();
  double t0 = 0.0;
  // The next particle in the same sector's list: read together with the
  // trajectory when scanning a sector, so a candidate costs one cache line.
  Index next_in_sector = kNoIndex;
  SpeciesIndex species = 0;
  std::uint8_t alive = 1;
  std::uint8_t mobile = 1;  // finite mass: has events of its own

  Vec3 position(double t) const { return u0 + v * (t - t0); }
};
static_assert(sizeof(ParticleState) == 64, "the hot particle record must fill one cache line");

struct ParticleStore {
  BigVector<ParticleState> state;
  BigVector<ParticleId> id;
  // Changes of trajectory so far: part of every event's identity (tie keys)
  // and the test of whether a predicted event is still valid.
  BigVector<std::uint32_t> counter;

  std::size_t size() const { return state.size(); }
  Index index_of(ParticleId particle_id) const;  // kNoIndex when absent
  void build_id_index();

  // Visits every particle index in increasing id order (sums over
  // particles are taken in this order, whatever the storage order).
  template <typename F>
  void for_each_in_id_order(F&& f) const {
    if (sparse_index.empty()) {
      for (Index i : dense_index) {
        if (i != kNoIndex) f(i);
      }
    } else {
      for (Index i : sparse_order) f(i);
    }
  }

  // Dense ids (the usual case) use a vector indexed by id; sparse ones a
  // hash map and an id-sorted list.
  BigVector<Index> dense_index;
  std::unordered_map<ParticleId, Index> sparse_index;
  std::vector<Index> sparse_order;
};

}  // namespace tethersim::engine
