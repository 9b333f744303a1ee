#pragma once
// Open addressing with linear probing, as the engine's two hash tables use
// it (SparseSectorHeads: occupied sectors; SlotsById: scattered ids):
// multiplicative hashing, at most 70% full, removal by backward shifting.

#include <array>
#include <cstddef>
#include <cstdint>

namespace tethersim::engine::probing {

// Multipliers of multiplicative hashing, the golden ratio's (Fibonacci
// hashing) first. Each spreads a run of keys (neighbouring sector indices)
// evenly over the table, and each maps a lattice of keys (x + X y) onto a
// lattice of buckets, which at some table sizes crowds onto a few lines,
// but not at the same sizes for the same lattice. The others are
// fractional parts of square roots (of 5, 7 and 2: SHA-2's constants, made
// odd) and xxHash's prime.
inline constexpr std::array<std::uint64_t, 5> kMultipliers = {
    0x9E3779B97F4A7C15ULL, 0x3C6EF372FE94F82BULL, 0xA54FF53A5F1D36F1ULL, 0x6A09E667F3BCC909ULL,
    0xC2B2AE3D27D4EB4FULL};

// The home bucket of `key` in a table of 2^(64 - shift) buckets.
inline std::size_t home(std::uint64_t key, std::uint64_t multiplier, int shift) {
  return static_cast<std::size_t>((key * multiplier) >> shift);
}
// By Fibonacci hashing: keys next to each other land far apart.
inline std::size_t home(std::uint64_t key, int shift) { return home(key, kMultipliers[0], shift); }

// The key with its high bits folded into its low ones, which breaks any
// lattice: then any multiplier spreads the keys as a random hash would.
inline std::uint64_t folded(std::uint64_t key) { return key ^ (key >> 11); }

// How many buckets past its home an entry sits on average under a random
// hash, in a table `fill` full: (1 / (1 - fill) - 1) / 2 for linear probing.
inline double random_mean_displacement(double fill) { return (1.0 / (1.0 - fill) - 1.0) / 2.0; }

// At most 70% full: a probe for a key that is there reads about 2
// buckets, for one that is not about 6, at the fullest.
inline bool over_full(std::size_t entries, std::size_t buckets) { return 10 * entries > 7 * buckets; }

// Backward shift after a removal left `hole`: the entry at `next` (home
// `want`, later in the same run) stays unless its home is not between the
// hole and itself, so that no lookup meets a gap before its key.
inline bool stays(std::size_t hole, std::size_t want, std::size_t next) {
  return hole <= next ? (hole < want && want <= next) : (hole < want || want <= next);
}

}  // namespace tethersim::engine::probing
