#pragma once
// How deep each rank's halo is (docs/distribution.md): what the choice of a
// rank grid (rank_grid.hpp) weighs and what a block layout
// (block_layout.hpp) builds, in a header of its own so that neither of
// those includes the other.

namespace tethersim::decomposition {

// Sector layers of the halo. Certification needs a cross component to stay
// one interaction reach (up to two sectors) inside the window's edge; a
// fourth layer over three doubles the certified windows on a dense gas for
// 3% more particles per rank at 10^6 per rank (docs/distribution.md).
inline constexpr int kHaloDepth = 4;
// The depths a run may ask for (--halo-depth). Certified windows need 3 or
// more (a cross component must stay an interaction reach inside the
// window); with 2, speculative windows that keep failing fall back to one
// rank.
inline constexpr int kMinHaloDepth = 2;
inline constexpr int kMaxHaloDepth = 8;

}  // namespace tethersim::decomposition
