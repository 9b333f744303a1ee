#pragma once
// A particle's sector coordinates as the engine stores them: packed into
// 8 bytes, each axis in as many bits as the grid's extent along it needs
// (SectorGrid::pack and unpack). As three 32-bit integers they took 12
// bytes (4 of a gas particle's 148 in the engine). A grid has fewer than
// 2^31 sectors, so the three fields take at most 34 bits.

#include <cstdint>

namespace tethersim::engine {

struct PackedSector {
  std::uint64_t bits = 0;
};

}  // namespace tethersim::engine
