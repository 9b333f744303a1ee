#pragma once
// The list heads of a mostly empty sector grid: only occupied sectors have
// an entry, so a box of 10^9 sectors holding a few thousand particles costs
// a few hundred kilobytes instead of 4 GB. Open addressing with linear
// probing (keys are linear sector indices, scattered by a multiplicative
// hash); an entry goes when its sector empties, by backward shifting, so
// that lookups never wade through tombstones.

#include <cstdint>
#include <vector>

#include "tethersim/engine/linear_probing.hpp"
#include "tethersim/engine/particle_store.hpp"

namespace tethersim::engine {

class SparseSectorHeads {
 public:
  // Sector indices are below 2^32 - 1 (the grid refuses more): the largest
  // value marks a free slot.
  static constexpr std::uint32_t kFree = 0xffffffffU;

  SparseSectorHeads() { reset(16); }

  // The first particle of `sector`, or kNoIndex when it is empty.
  Index first(std::uint32_t sector) const {
    for (std::size_t slot = home(sector);; slot = (slot + 1) & mask_) {
      if (keys_[slot] == sector) return heads_[slot];
      if (keys_[slot] == kFree) return kNoIndex;
    }
  }
  // The head of `sector`, made (kNoIndex) when it has none. Valid until the
  // next call of head() or erase().
  Index& head(std::uint32_t sector);
  // Drops an empty sector's entry.
  void erase(std::uint32_t sector);
  // Every entry dropped.
  void clear() { reset(16); }

  std::size_t size() const { return size_; }
  // The occupied sectors in increasing order.
  std::vector<std::uint32_t> sectors() const;
  // How many buckets past its home an entry sits, on average: what a
  // lookup of it reads beyond the first (linear_probing.hpp).
  double mean_displacement() const;
  // Whether this table size hashes by Fibonacci hashing (the first
  // choice: rebuild), which crowds some lattices of keys.
  bool fibonacci_hash() const { return !folded_ && multiplier_ == probing::kMultipliers[0]; }
  std::size_t memory_bytes() const {
    return keys_.capacity() * sizeof(std::uint32_t) + heads_.capacity() * sizeof(Index);
  }

 private:
  std::size_t home(std::uint32_t sector) const {
    return probing::home(folded_ ? probing::folded(sector) : sector, multiplier_, shift_);
  }
  // The hashes a table may take: each multiplier, then the first on the
  // folded key.
  static constexpr std::size_t kChoices = probing::kMultipliers.size() + 1;
  void choose(std::size_t choice) {
    folded_ = choice == probing::kMultipliers.size();
    multiplier_ = probing::kMultipliers[folded_ ? 0 : choice];
  }
  // The entries again, in a table of `capacity` buckets, hashed by `choice`.
  void rehash(std::size_t capacity, std::size_t choice);
  void reset(std::size_t capacity);
  void grow();
  // The entries again, in a table of `capacity` buckets.
  void rebuild(std::size_t capacity);

  std::vector<std::uint32_t> keys_;
  std::vector<Index> heads_;
  std::size_t mask_ = 0;
  int shift_ = 64;
  std::size_t size_ = 0;
  // The hash of this table size (rebuild).
  std::uint64_t multiplier_ = probing::kMultipliers[0];
  bool folded_ = false;
  static constexpr std::size_t kJudgedFrom = 4096;
};

}  // namespace tethersim::engine
