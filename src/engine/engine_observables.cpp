// Observables, memory accounting and consistency checks.
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>

#include "tethersim/engine/engine.hpp"
#include "tethersim/physics/counter_rng.hpp"

namespace tethersim::engine {

std::size_t Engine::alive_count() const {
  std::size_t n = 0;
  for (const ParticleState& s : particles_.state) n += s.alive;
  return n;
}

double Engine::kinetic_energy() const {
  double e = 0.0;
  particles_.for_each_in_id_order([&](Index i) {
    const ParticleState& s = particles_.state[i];
    if (s.alive && s.mobile) e += 0.5 * mass_[s.species] * s.v.squaredNorm();
  });
  return e;
}

Vec3 Engine::momentum() const {
  Vec3 p = Vec3::Zero();
  particles_.for_each_in_id_order([&](Index i) {
    const ParticleState& s = particles_.state[i];
    if (s.alive && s.mobile) p += mass_[s.species] * s.v;
  });
  return p;
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
    if (s.alive && s.species == species && partners_of_species(i, partner) > 0) ++n;
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

namespace {
std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
std::uint64_t vector_bits(const Vec3& v) {
  return physics::mix_hash(bits(v.x()), bits(v.y()), bits(v.z()));
}
}  // namespace

std::uint64_t Engine::state_hash() const {
  std::uint64_t total = 0;
  for (Index i = 0; i < particles_.size(); ++i) {
    const ParticleState& s = particles_.state[i];
    const ParticleId id = particles_.id[i];
    std::uint64_t h = physics::mix_hash(id, s.alive, bits(s.t0), vector_bits(s.u0), vector_bits(s.v),
                                        particles_.counter[i]);
    if (!ri_index_.empty()) h = physics::mix_hash(h, ri_index_[i], bits(ri_time_[i]));
    // Each tether and loaded edge once, from its lower id, summed: a set,
    // whatever the order of the lists.
    tethers_.for_each(i, [&](Index j, std::uint32_t) {
      if (id < particles_.id[j]) h += physics::mix_hash(1, id, particles_.id[j]);
    });
    loaded_.adjacency().for_each(i, [&](Index j, std::uint32_t e) {
      if (id >= particles_.id[j]) return;
      const LoadedEdge& edge = loaded_[e];
      h += physics::mix_hash(2, id, particles_.id[j], vector_bits(edge.impulse), bits(edge.time),
                             edge.sequence);
    });
    total += physics::mix_hash(h, id);
  }
  return total;
}

std::size_t Engine::memory_bytes() const {
  std::size_t bytes = particles_.state.capacity() * sizeof(ParticleState) +
                      particles_.id.capacity() * sizeof(ParticleId) +
                      particles_.counter.capacity() * sizeof(std::uint32_t) +
                      particles_.dense_index.capacity() * sizeof(Index) +
                      particles_.sparse_index.size() * (sizeof(ParticleId) + sizeof(Index) + 16) +
                      coords_.capacity() * sizeof(SectorCoords) +
                      particles_.sparse_order.capacity() * sizeof(Index) + grid_.memory_bytes() +
                      tethers_.memory_bytes() + loaded_.memory_bytes() +
                      calendar_.memory_bytes() + global_.size() * sizeof(GlobalEvent) +
                      ri_index_.capacity() * sizeof(std::uint64_t) +
                      ri_time_.capacity() * sizeof(double) +
                      touched_mark_.capacity() + visit_mark_.capacity();
  for (const auto& phi : phi_) bytes += phi.capacity() * sizeof(double);
  return bytes;
}

void Engine::check_invariants() const {
  auto fail = [](const std::string& what) { throw std::logic_error("engine invariant: " + what); };
  std::vector<std::uint32_t> listed(particles_.size(), 0);
  for (std::uint64_t sector = 0; sector < grid_.sector_count(); ++sector) {
    for (Index j = grid_.first(static_cast<std::uint32_t>(sector)); j != kNoIndex;
         j = particles_.state[j].next_in_sector) {
      if (!in_grid(j) || sector_of(j) != sector) fail("particle listed in a foreign sector");
      if (grid_.linear(coords_[j]) != sector) fail("sector coordinates disagree");
      ++listed[j];
    }
  }
  for (Index i = 0; i < particles_.size(); ++i) {
    const ParticleState& s = particles_.state[i];
    if (listed[i] != (in_grid(i) ? 1U : 0U)) fail("particle listed " + std::to_string(listed[i]) + " times");
    tethers_.for_each(i, [&](Index j, std::uint32_t) {
      if (!tethers_.contains(j, i)) fail("asymmetric tether");
      if (!particles_.state[j].alive || !s.alive) fail("tether to a removed particle");
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
  }
}

}  // namespace tethersim::engine
