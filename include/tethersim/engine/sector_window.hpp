#pragma once
// The sectors a process holds in owner-computes mode with ghosts one layer
// deep (docs/owner-computes.md, "What a rank holds and runs"): its block of
// sectors and every sector next to it, across periodic faces too. A sector
// is in the window when it is in on every axis.

#include <array>
#include <cstdint>
#include <vector>

#include "tethersim/engine/event_outcome.hpp"
#include "tethersim/engine/sector_box.hpp"
#include "tethersim/engine/sector_grid.hpp"

namespace tethersim::engine {

struct SectorWindow {
  std::array<std::vector<std::uint8_t>, 3> in;  // per axis, one byte per sector layer

  bool contains(const std::array<std::int32_t, 3>& sector) const {
    return in[0][static_cast<std::size_t>(sector[0])] != 0 && in[1][static_cast<std::size_t>(sector[1])] != 0 &&
           in[2][static_cast<std::size_t>(sector[2])] != 0;
  }
  // Whether the window leaves any sector out.
  bool partial() const {
    for (const auto& axis : in) {
      for (std::uint8_t b : axis) {
        if (b == 0) return true;
      }
    }
    return false;
  }

  // Whether a sector lies in both windows (in on every axis in both).
  bool meets(const SectorWindow& other) const {
    for (std::size_t k = 0; k < 3; ++k) {
      bool common = false;
      for (std::size_t c = 0; c < in[k].size() && c < other.in[k].size() && !common; ++c) {
        common = in[k][c] != 0 && other.in[k][c] != 0;
      }
      if (!common) return false;
    }
    return true;
  }

  // Whether one of the outcome's records lies in the window: with the
  // window two layers deep around a block, whether the outcome concerns the
  // process of that block (it holds, or is about to hold, a particle the
  // outcome changed; a crossing moves a particle by one sector, so that
  // takes in every particle it held before the event too).
  bool concerns(const EventOutcome& outcome) const {
    for (const ParticleRecord& r : outcome.records) {
      if (contains(r.particle.sector)) return true;
    }
    for (const ParticleRecord& r : outcome.introductions) {
      if (contains(r.particle.sector)) return true;
    }
    return false;
  }

  // `block` and `depth` layers of sectors around it on `grid` (wrapping on
  // the periodic axes).
  static SectorWindow around(const SectorBox& block, const SectorGrid& grid, std::int32_t depth) {
    SectorWindow w;
    for (std::size_t k = 0; k < 3; ++k) {
      const std::int32_t n = grid.shape()[k];
      w.in[k].assign(static_cast<std::size_t>(n), 0);
      for (std::int32_t c = block.lo[k] - depth; c < block.hi[k] + depth; ++c) {
        std::int32_t s = c;
        if (s < 0 || s >= n) {
          if (!grid.periodic(static_cast<int>(k))) continue;
          s = ((s % n) + n) % n;
        }
        w.in[k][static_cast<std::size_t>(s)] = 1;
      }
    }
    return w;
  }
};

// The block less three sector layers on each side that faces another
// process (an axis the block spans whole faces only itself): an event whose
// participants lie in it concerns no other process, for every record it
// leaves is more than two layers from any other block
// (PartialView::set_quiet_core).
inline SectorBox quiet_core(SectorBox block, const SectorGrid& grid) {
  constexpr std::int32_t kLayers = 3;
  for (std::size_t k = 0; k < 3; ++k) {
    if (block.hi[k] - block.lo[k] >= grid.shape()[k]) continue;
    block.lo[k] += kLayers;
    block.hi[k] = block.hi[k] - kLayers > block.lo[k] ? block.hi[k] - kLayers : block.lo[k];
  }
  return block;
}

}  // namespace tethersim::engine
