#include "tethersim/scenario/overlap.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

#include "tethersim/physics/counter_rng.hpp"

namespace tethersim::scenario {

namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
using Cell = std::array<std::int64_t, 3>;

bool finite_mass(const Model& model, SpeciesIndex s) { return !model.species(s).infinite_mass(); }

// The blocking distance that makes a pair overlap; 0 when it cannot.
double blocking_between(const Model& model, SpeciesIndex a, SpeciesIndex b) {
  if (!finite_mass(model, a) && !finite_mass(model, b)) return 0.0;
  return model.pair(a, b).blocking;
}

// Distances through the nearest periodic image.
class Separation {
 public:
  explicit Separation(const Model& model) : domain_(model.domain()) {}
  double operator()(const Vec3& a, const Vec3& b) const {
    Vec3 d = b - a;
    for (int k = 0; k < 3; ++k) {
      if (!wraps(domain_.boundary[k])) continue;
      const double length = domain_.length()[k];
      d[k] -= length * std::nearbyint(d[k] / length);
    }
    return d.norm();
  }

 private:
  const Domain& domain_;
};

// Cells of edge at least `edge` over the box: wrapping on periodic axes
// (whole cells per period, so that neighbours across the face are the
// neighbouring cells), unbounded elsewhere.
class CellIndex {
 public:
  CellIndex(const Model& model, double edge) : lo_(model.domain().lo) {
    for (int k = 0; k < 3; ++k) {
      if (k >= model.dimensions()) {
        offsets_[k] = {0};
        continue;
      }
      const double length = model.domain().length()[k];
      periodic_[k] = wraps(model.domain().boundary[k]);
      if (periodic_[k]) {
        count_[k] = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::min(length / edge, 1e15)));
        edge_[k] = length / static_cast<double>(count_[k]);
        offsets_[k] = count_[k] == 1 ? std::vector<std::int64_t>{0}
                      : count_[k] == 2 ? std::vector<std::int64_t>{0, 1}
                                       : std::vector<std::int64_t>{-1, 0, 1};
      } else {
        edge_[k] = edge;
        offsets_[k] = {-1, 0, 1};
      }
    }
  }

  Cell of(const Vec3& x) const {
    Cell c{0, 0, 0};
    for (int k = 0; k < 3; ++k) {
      if (offsets_[k].size() == 1 && !periodic_[k]) continue;  // an unused axis
      const double i = std::clamp(std::floor((x[k] - lo_[k]) / edge_[k]), -1e15, 1e15);
      c[k] = static_cast<std::int64_t>(i);
      if (periodic_[k]) c[k] = std::clamp<std::int64_t>(c[k], 0, count_[k] - 1);
    }
    return c;
  }

  Cell neighbour(const Cell& c, int dx, int dy, int dz) const {
    Cell n{c[0] + offsets_[0][dx], c[1] + offsets_[1][dy], c[2] + offsets_[2][dz]};
    for (int k = 0; k < 3; ++k) {
      if (periodic_[k]) n[k] = (n[k] % count_[k] + count_[k]) % count_[k];
    }
    return n;
  }

  int offsets(int k) const { return static_cast<int>(offsets_[k].size()); }

 private:
  Vec3 lo_;
  std::array<bool, 3> periodic_{false, false, false};
  std::array<std::int64_t, 3> count_{1, 1, 1};
  Vec3 edge_ = Vec3::Ones();
  std::array<std::vector<std::int64_t>, 3> offsets_;
};

// Particles chained by cell: each occupied cell's first particle and a link
// per particle. Where the occupied cells' bounding box has at most a few
// cells per particle (a gas, a membrane), the heads are an array over that
// box in x-fastest order: the 27 cells around a particle are then three
// runs of the array, in cache as the particles are visited in space (a
// hashed table made each of them a cache miss: 3.6 s of a fresh start of
// 10^6 particles). Sparse systems in a large box keep an open-addressed
// table of the occupied cells (its key is the first particle's cell, so it
// holds one index per slot).
class CellChains {
 public:
  CellChains(std::span<const ParticleSpec> particles, const CellIndex& index, const std::vector<char>& in_grid,
             std::size_t members)
      : particles_(particles), index_(index), next_(particles.size(), kNone) {
    lo_.fill(std::numeric_limits<std::int64_t>::max());
    hi_.fill(std::numeric_limits<std::int64_t>::min());
    for (const ParticleSpec& p : particles) {
      if (!in_grid[p.species]) continue;
      const Cell c = index_.of(p.position);
      for (int k = 0; k < 3; ++k) {
        lo_[k] = std::min(lo_[k], c[k]);
        hi_[k] = std::max(hi_[k], c[k]);
      }
    }
    double volume = 1.0;
    for (int k = 0; k < 3; ++k) volume *= members == 0 ? 1.0 : static_cast<double>(hi_[k] - lo_[k]) + 1.0;
    dense_ = members > 0 && volume <= 4.0 * static_cast<double>(members) + 1024.0;
    if (dense_) {
      stride_ = {1, hi_[0] - lo_[0] + 1, (hi_[0] - lo_[0] + 1) * (hi_[1] - lo_[1] + 1)};
      heads_.assign(static_cast<std::size_t>(volume), kNone);
      return;
    }
    std::size_t capacity = 16;
    while (capacity < 2 * members) capacity *= 2;
    heads_.assign(capacity, kNone);
  }

  void add(std::uint32_t i) {
    const Cell cell = index_.of(particles_[i].position);
    const std::size_t slot = dense_ ? place(cell) : find(cell);
    next_[i] = heads_[slot];
    heads_[slot] = i;
  }

  // The first particle of `cell` (kNone when empty); next(i) follows.
  std::uint32_t head(const Cell& cell) const {
    if (!dense_) return heads_[find(cell)];
    for (int k = 0; k < 3; ++k) {
      if (cell[k] < lo_[k] || cell[k] > hi_[k]) return kNone;
    }
    return heads_[place(cell)];
  }
  std::uint32_t next(std::uint32_t i) const { return next_[i]; }

 private:
  // Dense: the cell's place in its bounding box (precondition: inside).
  std::size_t place(const Cell& cell) const {
    return static_cast<std::size_t>((cell[0] - lo_[0]) + stride_[1] * (cell[1] - lo_[1]) +
                                    stride_[2] * (cell[2] - lo_[2]));
  }
  // Hashed: the cell's slot, or the empty one that would be its own.
  std::size_t find(const Cell& cell) const {
    const std::size_t mask = heads_.size() - 1;
    std::size_t slot = static_cast<std::size_t>(physics::mix_hash(
                           static_cast<std::uint64_t>(cell[0]), static_cast<std::uint64_t>(cell[1]),
                           static_cast<std::uint64_t>(cell[2]))) & mask;
    while (heads_[slot] != kNone && index_.of(particles_[heads_[slot]].position) != cell) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  std::span<const ParticleSpec> particles_;
  const CellIndex& index_;
  bool dense_ = false;
  Cell lo_{}, hi_{};  // the occupied cells' bounds
  Cell stride_{1, 1, 1};
  std::vector<std::uint32_t> heads_;
  std::vector<std::uint32_t> next_;
};

// Keeps the pair that comes first: by its later particle, then its earlier.
void keep_first(std::optional<Overlap>& best, const Overlap& found) {
  if (!best || found.second < best->second ||
      (found.second == best->second && found.first < best->first)) {
    best = found;
  }
}

}  // namespace

std::optional<Overlap> first_overlap(std::span<const ParticleSpec> particles, const Model& model) {
  const std::size_t species = model.species().size();
  // The cell edge: the largest blocking distance between finite masses.
  // Infinite masses that block no farther share the grid; the others (hubs)
  // are compared with every finite particle.
  double edge = 0.0;
  for (SpeciesIndex a = 0; a < species; ++a) {
    for (SpeciesIndex b = 0; b < species; ++b) {
      if (finite_mass(model, a) && finite_mass(model, b)) edge = std::max(edge, model.pair(a, b).blocking);
    }
  }
  std::vector<char> in_grid(species, 0);
  std::vector<char> hub(species, 0);
  for (SpeciesIndex s = 0; s < species; ++s) {
    double reach = 0.0;
    for (SpeciesIndex b = 0; b < species; ++b) reach = std::max(reach, blocking_between(model, s, b));
    if (reach == 0.0) continue;
    if (finite_mass(model, s) || reach <= edge) {
      in_grid[s] = 1;
    } else {
      hub[s] = 1;
    }
  }

  const Separation separation(model);
  std::optional<Overlap> best;
  auto test = [&](std::size_t i, std::size_t j) {
    const double blocking = blocking_between(model, particles[i].species, particles[j].species);
    if (blocking <= 0.0) return;
    const double d = separation(particles[i].position, particles[j].position);
    if (d < blocking * kOverlapTolerance) keep_first(best, {std::min(i, j), std::max(i, j), d, blocking});
  };

  for (std::size_t h = 0; h < particles.size(); ++h) {
    if (!hub[particles[h].species]) continue;
    for (std::size_t f = 0; f < particles.size(); ++f) {
      if (finite_mass(model, particles[f].species)) test(h, f);
    }
  }

  if (edge > 0.0) {
    const CellIndex index(model, edge);
    std::size_t members = 0;
    for (const ParticleSpec& p : particles) members += in_grid[p.species];
    CellChains chains(particles, index, in_grid, members);
    for (std::size_t i = 0; i < particles.size(); ++i) {
      if (in_grid[particles[i].species]) chains.add(static_cast<std::uint32_t>(i));
    }
    // Each pair once, from its later particle; the first later particle
    // with a partner ends the search (no grid pair can come before it).
    for (std::size_t i = 0; i < particles.size(); ++i) {
      if (best && best->second <= i) break;
      if (!in_grid[particles[i].species]) continue;
      const Cell cell = index.of(particles[i].position);
      for (int dx = 0; dx < index.offsets(0); ++dx) {
        for (int dy = 0; dy < index.offsets(1); ++dy) {
          for (int dz = 0; dz < index.offsets(2); ++dz) {
            for (std::uint32_t j = chains.head(index.neighbour(cell, dx, dy, dz)); j != kNone; j = chains.next(j)) {
              if (j < i) test(j, i);
            }
          }
        }
      }
    }
  }
  return best;
}

std::string describe_overlap(std::span<const ParticleSpec> particles, const Model& model,
                             const Overlap& overlap) {
  const ParticleSpec& a = particles[overlap.first];
  const ParticleSpec& b = particles[overlap.second];
  char buffer[512];
  std::snprintf(buffer, sizeof buffer,
                "particles %llu (species %s) and %llu (species %s) overlap: %.6g apart, closer than "
                "their blocking distance %.6g (pair.%s-%s.blocking)",
                static_cast<unsigned long long>(a.id), model.species(a.species).name.c_str(),
                static_cast<unsigned long long>(b.id), model.species(b.species).name.c_str(),
                overlap.distance, overlap.blocking, model.species(a.species).name.c_str(),
                model.species(b.species).name.c_str());
  return buffer;
}

}  // namespace tethersim::scenario
