#pragma once
// The sector grid: cubic-ish cells of edge >= the largest interaction
// distance between mobile species, with a linked list of the particles in
// each (docs/engine.md; docs/model-format.md, section 7). Candidate partners of a
// particle come from its sector and the 26 around it.

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "tethersim/engine/packed_sector.hpp"
#include "tethersim/engine/paged_sector_heads.hpp"
#include "tethersim/engine/particle_store.hpp"
#include "tethersim/engine/sparse_sector_heads.hpp"
#include "tethersim/model/domain.hpp"

namespace tethersim::engine {

using SectorCoords = std::array<std::int32_t, 3>;

class SectorGrid {
 public:
  SectorGrid() = default;
  // `particles`: how many the grid will hold at first. A mostly empty grid
  // (scenario::sparse_sector_grid: a cluster in a large box, a few
  // particles in a huge one) keeps the heads of occupied sectors only.
  // Which storage a grid uses changes no result, only the memory and the
  // cost of reading a head.
  SectorGrid(const Domain& domain, double sector_size, std::uint64_t particles);
  // The geometry alone (shape, edges, coordinates of positions), with no
  // list heads: for planning where particles go.
  SectorGrid(const Domain& domain, double sector_size);

  const std::array<std::int32_t, 3>& shape() const { return shape_; }
  std::uint64_t sector_count() const { return count_; }
  bool sparse() const { return storage_ == Storage::sparse; }
  bool paged() const { return storage_ == Storage::paged; }
  const Vec3& edge() const { return edge_; }
  const Vec3& lo() const { return lo_; }
  const Vec3& length() const { return length_; }
  bool periodic(int axis) const { return periodic_[axis]; }

  // Away from every face (the neighbourhood of 27 without wrap or drop).
  bool interior(const SectorCoords& c) const {
    return c[0] >= 1 && c[0] <= shape_[0] - 2 && c[1] >= 1 && c[1] <= shape_[1] - 2 && c[2] >= 1 &&
           c[2] <= shape_[2] - 2;
  }
  std::uint32_t linear(const SectorCoords& c) const {
    return static_cast<std::uint32_t>((static_cast<std::int64_t>(c[0]) * shape_[1] + c[1]) *
                                          shape_[2] + c[2]);
  }
  // Coordinates inside the grid, packed for storage (packed_sector.hpp)
  // and back.
  PackedSector pack(const SectorCoords& c) const {
    return {static_cast<std::uint64_t>(c[0]) << shift_[0] | static_cast<std::uint64_t>(c[1]) << shift_[1] |
            static_cast<std::uint64_t>(c[2])};
  }
  SectorCoords unpack(PackedSector p) const {
    return {static_cast<std::int32_t>(p.bits >> shift_[0]),
            static_cast<std::int32_t>(p.bits >> shift_[1] & mask_[1]),
            static_cast<std::int32_t>(p.bits & mask_[2])};
  }
  // The sector holding a position (clamped to the grid).
  SectorCoords coords_of(const Vec3& x) const;
  // Lower face of sector c along an axis; c = shape gives the box face hi
  // exactly, so box-face times do not depend on the sector size.
  double face(int axis, std::int32_t c) const {
    return c == shape_[axis] ? hi_[axis] : lo_[axis] + c * edge_[axis];
  }

  // The lists are threaded through ParticleState::next_in_sector; the grid
  // keeps only the heads (a sector holds a particle or two, so removal walks
  // its list instead of keeping back links).
  void insert(BigVector<ParticleState>& states, Index particle, std::uint32_t sector) {
    Index& head = storage_ == Storage::dense ? heads_[sector] : other_head(sector);
    states[particle].next_in_sector = head;
    head = particle;
  }
  void remove(BigVector<ParticleState>& states, Index particle, std::uint32_t sector) {
    Index* const head = storage_ == Storage::dense ? &heads_[sector] : &other_head(sector);
    Index* link = head;
    while (*link != particle) link = &states[*link].next_in_sector;
    *link = states[particle].next_in_sector;
    states[particle].next_in_sector = kNoIndex;
    if (storage_ == Storage::sparse && *head == kNoIndex) [[unlikely]] sparse_erase(sector);
  }
  // The dense grid is the hot path (dense gases, membranes, serial runs):
  // a load and a branch. A rank's paged grid adds a load; the sparse
  // lookup stays out of line.
  Index first(std::uint32_t sector) const {
    if (storage_ != Storage::dense) [[unlikely]] {
      return storage_ == Storage::paged ? paged_heads_.first(sector) : sparse_first(sector);
    }
    return heads_[sector];
  }
  // Whether the sectors' heads are few enough to stay in a core's cache
  // (a dense grid of at most 2^16 sectors: 256 KiB): a hint for how to
  // read many heads at once (BlockingSource::predict).
  bool heads_in_cache() const { return storage_ == Storage::dense && heads_.size() <= (std::size_t{1} << 16); }
  // Starts loading what first(sector) reads (a dense or paged grid's head;
  // a sparse grid's lookup is left to the hardware).
  void prefetch(std::uint32_t sector) const {
    if (storage_ == Storage::dense) [[likely]] {
      __builtin_prefetch(&heads_[sector]);
    } else if (storage_ == Storage::paged) {
      __builtin_prefetch(paged_heads_.address(sector));
    }
  }
  // Starts loading the heads of the 27 sectors around an interior sector
  // of a dense grid (each row of three, at most two cache lines); nothing
  // for other sectors or storages. A hint only.
  void prefetch_around(const SectorCoords& c) const {
    if (storage_ != Storage::dense || !interior(c)) return;
    const std::int64_t base = linear(c);
    for (std::size_t k = 0; k < 27; k += 3) {
      __builtin_prefetch(&heads_[static_cast<std::size_t>(base + interior_offsets_[k])]);
      __builtin_prefetch(&heads_[static_cast<std::size_t>(base + interior_offsets_[k + 2])]);
    }
  }
  // Calls f(sector) for every sector that may hold particles (all of a
  // dense grid, those of the pages a paged grid holds, the occupied ones of
  // a sparse grid), in increasing order.
  template <typename F>
  void for_each_sector(F&& f) const {
    if (storage_ == Storage::sparse) {
      for (std::uint32_t sector : sparse_heads_.sectors()) f(sector);
    } else if (storage_ == Storage::paged) {
      paged_heads_.for_each_sector(f);
    } else {
      for (std::uint64_t sector = 0; sector < count_; ++sector) f(static_cast<std::uint32_t>(sector));
    }
  }
  // Empties every sector (before re-inserting renumbered particles).
  void clear();
  // A dense grid whose particles occupy at most half of its pages of heads
  // (a rank's block and halo) keeps only those pages from now on; later
  // pages are made as particles enter them. Returns whether it did.
  bool keep_occupied_pages();

  // The up to 27 sectors around c (fewer at non-periodic faces, and no
  // sector twice), as linear indices, with the image shift of each: what to
  // add to u_b - u_a for a particle b in that sector and a in sector c (the
  // same value image_shift gives, without reading b's coordinates).
  int neighbourhood(const SectorCoords& c, std::array<std::uint32_t, 27>& out,
                    std::array<Vec3, 27>& shifts) const;
  // The same for a sector away from every face (interior(c)): 27 sectors,
  // every shift zero and left unwritten (writing 27 zero shifts for every
  // prediction was a twentieth of the gas of 10^4's run).
  void interior_neighbourhood(const SectorCoords& c, std::array<std::uint32_t, 27>& out) const {
    const std::int64_t centre = linear(c);
    for (std::size_t t = 0; t < 27; ++t) out[t] = static_cast<std::uint32_t>(centre + interior_offsets_[t]);
  }

  // Displacement of b relative to a along periodic axes, in box lengths,
  // for two particles in sectors ca and cb: the image through which their
  // sectors are neighbours (the only one that can interact before either
  // changes sector). Particles whose sectors are not neighbours get the
  // image nearest to `dx`. Exactly antisymmetric: swapping a and b negates
  // the result bit for bit.
  Vec3 image_shift(const SectorCoords& ca, const SectorCoords& cb, const Vec3& dx) const {
    Vec3 shift = Vec3::Zero();
    for (int k = 0; k < 3; ++k) {
      if (!periodic_[k]) continue;
      const std::int32_t dc = cb[k] - ca[k];
      if (dc == shape_[k] - 1) {
        shift[k] = -length_[k];
      } else if (dc == 1 - shape_[k]) {
        shift[k] = length_[k];
      } else if (dc < -1 || dc > 1) {
        shift[k] = -length_[k] * std::nearbyint(dx[k] / length_[k]);
      }
    }
    return shift;
  }

  // The shift that brings dx to its nearest image along periodic axes (for
  // particles outside the grid); exactly antisymmetric too.
  Vec3 nearest_image_shift(const Vec3& dx) const {
    Vec3 shift = Vec3::Zero();
    for (int k = 0; k < 3; ++k) {
      if (periodic_[k]) shift[k] = -length_[k] * std::nearbyint(dx[k] / length_[k]);
    }
    return shift;
  }

  std::size_t memory_bytes() const;

 private:
  enum class Storage : std::uint8_t { dense, paged, sparse };
  Index sparse_first(std::uint32_t sector) const;
  Index& other_head(std::uint32_t sector);
  void sparse_erase(std::uint32_t sector);

  std::array<std::int32_t, 3> shape_{1, 1, 1};
  // pack(): z in the low bits, then y, then x.
  std::array<int, 2> shift_{0, 0};
  std::array<std::uint64_t, 3> mask_{0, 0, 0};
  // neighbourhood() of a sector away from every face: the 27 linear
  // indices are the sector's own plus these, in the same order.
  std::array<std::int64_t, 27> interior_offsets_{};
  Vec3 edge_ = Vec3::Ones();
  Vec3 lo_ = Vec3::Zero();
  Vec3 length_ = Vec3::Ones();
  Vec3 hi_ = Vec3::Ones();
  std::array<bool, 3> periodic_{false, false, false};
  std::uint64_t count_ = 1;
  Storage storage_ = Storage::dense;
  BigVector<Index> heads_;  // dense: one per sector
  PagedSectorHeads paged_heads_;
  SparseSectorHeads sparse_heads_;
};

}  // namespace tethersim::engine
