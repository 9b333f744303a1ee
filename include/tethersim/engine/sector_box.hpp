#pragma once
// A box of sectors, [lo, hi) on each axis: the block a process owns in
// owner-computes mode (a particle is owned where its sector lies).

#include <array>
#include <cstdint>

namespace tethersim::engine {

struct SectorBox {
  std::array<std::int32_t, 3> lo{};
  std::array<std::int32_t, 3> hi{};

  bool contains(const std::array<std::int32_t, 3>& sector) const {
    for (std::size_t k = 0; k < 3; ++k) {
      if (sector[k] < lo[k] || sector[k] >= hi[k]) return false;
    }
    return true;
  }
};

}  // namespace tethersim::engine
