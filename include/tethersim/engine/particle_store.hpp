#pragma once
// Particle storage of the engine: a hot 64-byte record per particle (what a
// collision prediction reads) and colder per-particle arrays.
//
// Particles are addressed by a dense local index; their global ids are
// separate. The trajectory is (t0, u0, v): u(t) = u0 + v (t - t0), re-based
// only by events that change the particle (docs/physics.md, "Free flight";
// docs/engine.md, "Exactness and reproducibility").

#include <cstdint>
#include <vector>

#include "tethersim/engine/big_vector.hpp"
#include "tethersim/engine/slots_by_id.hpp"
#include "tethersim/model/initial_state.hpp"
#include "tethersim/model/species.hpp"
#include "tethersim/physics/vector.hpp"

namespace tethersim::engine {

using Index = std::uint32_t;
inline constexpr Index kNoIndex = 0xffffffffU;
static_assert(SlotsById::kNone == kNoIndex);

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
  // Every component of the velocity is zero (not merely its square, which
  // can underflow).
  bool at_rest() const { return v.x() == 0.0 && v.y() == 0.0 && v.z() == 0.0; }
};
static_assert(sizeof(ParticleState) == 64, "the hot particle record must fill one cache line");

struct ParticleStore {
  BigVector<ParticleState> state;
  BigVector<ParticleId> id;
  // Changes of trajectory so far: part of every event's identity (tie keys).
  BigVector<std::uint32_t> counter;
  // Changes of this process's copy of the particle: every counter change,
  // and every time its state is overwritten from outside (a record from
  // another process, a speculative window undone). A calendar entry names
  // its partner's stamp and is valid while the stamp is unchanged: an
  // overwrite may bring back a counter an entry names with another
  // trajectory, a stamp never comes back. Local bookkeeping: never saved,
  // sent or hashed.
  BigVector<std::uint32_t> stamp;

  std::size_t size() const { return state.size(); }
  Index index_of(ParticleId particle_id) const;  // kNoIndex when absent
  void build_id_index();
  // Keeps the index up to date as particles come and go (distributed runs).
  void add_id(ParticleId particle_id, Index index);
  void remove_id(ParticleId particle_id);

  // Every particle index (removed slots excluded) in increasing id order:
  // sums and snapshots are taken in this order, whatever the storage order.
  std::vector<Index> indices_in_id_order() const;

  // Dense ids (the usual case) use a vector indexed by id; sparse ones a
  // hash table of slots (keyed through `id`).
  BigVector<Index> dense_index;
  SlotsById sparse_index;
};

}  // namespace tethersim::engine
