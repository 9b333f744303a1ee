#pragma once
// A set of sectors given axis by axis: a sector is in it when its layer on
// any axis is marked. The sectors a rank logs in a speculative window (those
// other ranks' windows reach) have this form, since blocks are products of
// intervals, and three rows of layers cost nothing next to a byte per
// sector of a mostly empty box.

#include <array>
#include <cstdint>
#include <vector>

namespace tethersim::engine {

struct SectorMask {
  std::array<std::vector<std::uint8_t>, 3> layers;  // per axis, one byte per sector layer

  // Not yet marked for any grid.
  bool empty() const { return layers[0].empty(); }

  bool contains(const std::array<std::int32_t, 3>& sector) const {
    return layers[0][static_cast<std::size_t>(sector[0])] != 0 ||
           layers[1][static_cast<std::size_t>(sector[1])] != 0 ||
           layers[2][static_cast<std::size_t>(sector[2])] != 0;
  }
  // Every sector of a grid of `shape`, or none of them.
  static SectorMask all(const std::array<std::int32_t, 3>& shape) { return filled(shape, 1); }
  static SectorMask none(const std::array<std::int32_t, 3>& shape) { return filled(shape, 0); }

 private:
  static SectorMask filled(const std::array<std::int32_t, 3>& shape, std::uint8_t value) {
    SectorMask mask;
    for (int k = 0; k < 3; ++k) mask.layers[static_cast<std::size_t>(k)].assign(static_cast<std::size_t>(shape[static_cast<std::size_t>(k)]), value);
    return mask;
  }
};

}  // namespace tethersim::engine
