// Observables, memory accounting and consistency checks.
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>

#include "pair_time.hpp"
#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/hash_bits.hpp"
#include "tethersim/engine/particle_words.hpp"
#include "tethersim/physics/counter_rng.hpp"

namespace tethersim::engine {

// Observables sum the particles this process accounts for: all of them in
// a serial engine; in a distributed one its own (and the hubs on the rank
// that counts global events), so that sums over ranks are the totals.
bool Engine::accounted_here(Index i) const {
  if (is_removed(i)) return false;
  return is_hub(i) ? counts_global_events_ : is_owned(i);
}

std::size_t Engine::alive_count() const {
  std::size_t n = 0;
  for (Index i = 0; i < particles_.size(); ++i) n += particles_.state[i].alive && accounted_here(i);
  return n;
}

physics::ExactSum Engine::kinetic_energy_sum() const {
  physics::ExactSum e;
  for (Index i = 0; i < particles_.size(); ++i) {
    const ParticleState& s = particles_.state[i];
    if (s.alive && s.mobile && accounted_here(i)) e.add(0.5 * mass_[s.species] * s.v.squaredNorm());
  }
  return e;
}

std::array<physics::ExactSum, 3> Engine::momentum_sum() const {
  std::array<physics::ExactSum, 3> p;
  for (Index i = 0; i < particles_.size(); ++i) {
    const ParticleState& s = particles_.state[i];
    if (!s.alive || !s.mobile || !accounted_here(i)) continue;
    const Vec3 pi = mass_[s.species] * s.v;
    for (int k = 0; k < 3; ++k) p[k].add(pi[k]);
  }
  return p;
}

double Engine::kinetic_energy() const { return kinetic_energy_sum().value(); }

Vec3 Engine::momentum() const {
  const auto p = momentum_sum();
  return {p[0].value(), p[1].value(), p[2].value()};
}

std::size_t Engine::cluster_count(SpeciesIndex species) const {
  // Union-find over tethers between particles in the grid (hubs such as a
  // membrane shell tethered to everything would join all clusters).
  std::vector<Index> parent(particles_.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](Index x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (Index i = 0; i < particles_.size(); ++i) {
    if (!in_grid(i)) continue;
    tethers_.for_each(i, [&](Index j, std::uint32_t) {
      if (in_grid(j)) parent[find(i)] = find(j);
    });
  }
  std::vector<std::uint8_t> seen(particles_.size(), 0);
  std::size_t clusters = 0;
  for (Index i = 0; i < particles_.size(); ++i) {
    const ParticleState& s = particles_.state[i];
    if (!s.alive || s.species != species) continue;
    const Index root = find(i);
    if (!seen[root]) {
      seen[root] = 1;
      ++clusters;
    }
  }
  return clusters;
}

std::size_t Engine::tethered_count(SpeciesIndex species, SpeciesIndex partner) const {
  std::size_t n = 0;
  for (Index i = 0; i < particles_.size(); ++i) {
    const ParticleState& s = particles_.state[i];
    if (s.alive && s.species == species && accounted_here(i) && partners_of_species(i, partner) > 0) ++n;
  }
  return n;
}

bool Engine::tethered(ParticleId a, ParticleId b) const {
  const Index ia = particles_.index_of(a), ib = particles_.index_of(b);
  return ia != kNoIndex && ib != kNoIndex && tethers_.contains(ia, ib);
}

Vec3 Engine::position(ParticleId id, double t) const {
  return particles_.state[particles_.index_of(id)].position(t);
}


// A sum of independent terms (each particle, each tether, each loaded edge),
// so that it does not depend on storage order, and the parts that several
// processes hold add up to the hash of the whole state.
std::uint64_t Engine::state_hash() const {
  std::uint64_t total = 0;
  for (Index i = 0; i < particles_.size(); ++i) {
    if (!accounted_here(i)) continue;
    const ParticleId id = particles_.id[i];
    total += physics::mix_hash(particle_state_hash(particle_snapshot(i), has_random_impulses_), id);
  }
  // Each tether and loaded edge once, by the process that counts its events.
  for (Index i = 0; i < particles_.size(); ++i) {
    if (is_removed(i)) continue;
    const ParticleId id = particles_.id[i];
    tethers_.for_each(i, [&](Index j, std::uint32_t) {
      if (id < particles_.id[j] && counted_here(i, j)) total += physics::mix_hash(1, id, particles_.id[j]);
    });
    loaded_.adjacency().for_each(i, [&](Index j, std::uint32_t e) {
      if (id >= particles_.id[j] || !counted_here(i, j)) return;
      const LoadedEdge& edge = loaded_[e];
      total += physics::mix_hash(2, id, particles_.id[j], vector_bits(edge.impulse), bits(edge.time),
                                 edge.sequence);
    });
  }
  return total;
}

std::size_t Engine::memory_bytes() const {
  std::size_t bytes = particles_.state.capacity() * sizeof(ParticleState) +
                      particles_.id.capacity() * sizeof(ParticleId) +
                      particles_.counter.capacity() * sizeof(std::uint32_t) +
                      particles_.stamp.capacity() * sizeof(std::uint32_t) +
                      particles_.dense_index.capacity() * sizeof(Index) +
                      particles_.sparse_index.memory_bytes() +
                      coords_.capacity() * sizeof(PackedSector) +
                      grid_.memory_bytes() +
                      tethers_.memory_bytes() + loaded_.memory_bytes() +
                      calendar_.memory_bytes() + global_.size() * sizeof(GlobalEvent) +
                      ri_index_.capacity() * sizeof(std::uint64_t) +
                      ri_time_.capacity() * sizeof(double) +
                      touched_mark_.capacity() + visit_mark_.capacity() + tick_clearance_.memory_bytes() +
                      roles_.memory_bytes() +
                      offer_ring_.capacity() * sizeof(ParticleEvent) +
                      changes_.memory_bytes();
  for (const auto& phi : phi_) bytes += phi.capacity() * sizeof(double);
  return bytes;
}

void Engine::check_invariants() const {
  auto fail = [](const std::string& what) { throw std::logic_error("engine invariant: " + what); };
  std::vector<std::uint32_t> listed(particles_.size(), 0);
  grid_.for_each_sector([&](std::uint32_t sector) {
    if (grid_.sparse() && grid_.first(sector) == kNoIndex) fail("a sparse grid keeps an empty sector");
    for (Index j = grid_.first(sector); j != kNoIndex; j = particles_.state[j].next_in_sector) {
      if (!in_grid(j) || sector_of(j) != sector) fail("particle listed in a foreign sector");
      if (sector_of(j) != sector) fail("sector coordinates disagree");
      ++listed[j];
    }
  });
  for (Index i = 0; i < particles_.size(); ++i) {
    const ParticleState& s = particles_.state[i];
    if (listed[i] != (in_grid(i) ? 1U : 0U)) fail("particle listed " + std::to_string(listed[i]) + " times");
    if (s.at_rest() == has_index(moving_, i)) fail("moving bit disagrees with the velocity");
    if (s.v.squaredNorm() > speed2_ceiling_) fail("a speed above the speed ceiling");
    tethers_.for_each(i, [&](Index j, std::uint32_t) {
      if (!tethers_.contains(j, i)) fail("asymmetric tether");
      // A link may lead to an absent particle of owner-computes mode (alive
      // 0, held), never to or from one this engine forgot (removed).
      if (is_removed(j) || is_removed(i)) fail("tether to a removed particle");
    });
    if (!s.alive) continue;
    if (s.mobile && !s.v.allFinite()) fail("non-finite velocity");
    if (!s.mobile && s.v.squaredNorm() != 0.0) fail("an infinite mass moves");
    loaded_.adjacency().for_each(i, [&](Index j, std::uint32_t e) {
      if (!loaded_[e].alive) fail("dead loaded edge in a list");
      if (s.mobile && particles_.state[j].mobile && !(s.v == particles_.state[j].v)) {
        fail("loaded particles with different velocities");
      }
    });
    // A pair event that still counts as valid (its partner's stamp is the
    // one it names) must be what the two trajectories give now: pair times
    // are pure functions of them. An entry that outlived an overwrite of
    // its partner would not be.
    const ParticleEvent e = calendar_.event(i);
    if (e.time == kInfinity || e.partner == kNoIndex || !is_active(i)) continue;
    const Index j = e.partner;
    if (!particles_.state[j].alive || particles_.stamp[j] != e.partner_stamp) continue;
    if (e.kind != EventKind::blocking && e.kind != EventKind::tethering) continue;
    const PairParameters& pp = model_.pair(s.species, particles_.state[j].species);
    const double t_ref = std::max(s.t0, particles_.state[j].t0);
    const Vec3 shift = image(i, j, particles_.state[j].position(t_ref) - s.position(t_ref));
    const double t = pair_time(i, j, shift, e.kind == EventKind::blocking ? pp.blocking : pp.tethering, e.kind);
    if (!(t == e.time)) fail("a valid calendar entry disagrees with its pair's trajectories");
  }
}

void Engine::check_predictions_fresh() const {
  const EngineStatistics kept = stats_;  // predicting counts pair tests
  for (Index i = 0; i < particles_.size(); ++i) {
    if (!has_prediction(i) || particles_.state[i].t0 != clock_) continue;
    const ParticleEvent stored = calendar_.event(i);
    const ParticleEvent fresh = predict(i);
    const bool same = stored.time == fresh.time && stored.kind == fresh.kind && stored.detail == fresh.detail &&
                      stored.partner == fresh.partner && stored.counter == fresh.counter &&
                      (fresh.partner == kNoIndex || (stored.partner_counter == fresh.partner_counter &&
                                                     stored.partner_stamp == fresh.partner_stamp));
    if (!same) {
      stats_ = kept;
      throw std::logic_error("engine invariant: particle " + std::to_string(particles_.id[i]) +
                             "'s calendar entry is not its prediction");
    }
  }
  stats_ = kept;
}

}  // namespace tethersim::engine
