#pragma once
// A set of particle indices as one bit per index in 64-bit words: the
// engine's moving bits and the certifier's node and candidate sets, small
// enough to stay in cache where a byte per particle would not, and
// combined a word at a time.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tethersim/engine/particle_store.hpp"

namespace tethersim::engine {

using IndexBits = std::vector<std::uint64_t>;

// Words for indices 0..count-1.
inline std::size_t index_words(std::size_t count) { return (count + 63) / 64; }

inline bool has_index(const IndexBits& bits, Index i) { return ((bits[i / 64] >> (i % 64)) & 1U) != 0; }
inline void add_index(IndexBits& bits, Index i) { bits[i / 64] |= std::uint64_t{1} << (i % 64); }
inline void drop_index(IndexBits& bits, Index i) { bits[i / 64] &= ~(std::uint64_t{1} << (i % 64)); }

// Calls f(i) for every index in the set, in increasing order.
template <typename F>
void for_each_index(const IndexBits& bits, F&& f) {
  for (std::size_t w = 0; w < bits.size(); ++w) {
    for (std::uint64_t word = bits[w]; word != 0; word &= word - 1) {
      f(static_cast<Index>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(word))));
    }
  }
}

}  // namespace tethersim::engine
