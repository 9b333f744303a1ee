#pragma once
// Open addressing with linear probing, as the engine's two hash tables use
// it (SparseSectorHeads: occupied sectors; SlotsById: scattered ids):
// Fibonacci hashing, at most 70% full, removal by backward shifting.

#include <cstddef>
#include <cstdint>

namespace tethersim::engine::probing {

// The home bucket of `key` in a table of 2^(64 - shift) buckets: keys next
// to each other land far apart.
inline std::size_t home(std::uint64_t key, int shift) {
  return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> shift);
}

// The same after folding the key's high bits into its low ones. Fibonacci
// hashing maps a lattice of keys (linear indices x + X (y + Y z) of the
// occupied sectors of a sheet) onto a lattice of buckets: at some table
// sizes perfectly (a membrane of 2x10^6 on one rank: 0.01 buckets from home
// on average, a miss read 1.05 buckets), at others onto a few lines (its
// half on a rank, a table half the size: 238 from home, a miss 1 144
// buckets, and the sheet 28 times slower on 2 ranks than on one). The fold
// breaks the lattice (about 1 from home, a miss about 4, whatever the
// size), at the cost of a shift and an exclusive or per lookup.
inline std::size_t folded_home(std::uint64_t key, int shift) { return home(key ^ (key >> 11), shift); }

// A table is given the folded hash when its entries sit on average more
// than this many buckets past their homes (a random hash at 70%: about 1).
inline constexpr double kMostMeanDisplacement = 2.0;

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
