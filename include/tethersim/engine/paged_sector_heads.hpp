#pragma once
// The list heads of a sector grid of which a rank holds only a part (its
// block and halo): heads in pages of 1024 consecutive sectors, a page made
// when a particle first enters one of its sectors. A rank of 8 holding a
// gas of 10^6 keeps about a third of the 8 MB of heads the whole box
// needs, a rank of 64 about a tenth; a serial engine keeps its dense heads.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tethersim/engine/big_vector.hpp"
#include "tethersim/engine/particle_store.hpp"

namespace tethersim::engine {

class PagedSectorHeads {
 public:
  static constexpr unsigned kPageBits = 10;
  static constexpr std::uint64_t kPageSize = std::uint64_t{1} << kPageBits;

  PagedSectorHeads() = default;
  // The pages of `dense` (heads of `count` sectors) that hold a particle.
  PagedSectorHeads(const BigVector<Index>& dense, std::uint64_t count) : count_(count) {
    pages_.resize((count + kPageSize - 1) / kPageSize);
    for (std::uint64_t p = 0; p < pages_.size(); ++p) {
      const std::uint64_t begin = p * kPageSize, end = std::min(count, begin + kPageSize);
      bool occupied = false;
      for (std::uint64_t s = begin; s < end && !occupied; ++s) occupied = dense[s] != kNoIndex;
      if (!occupied) continue;
      pages_[p].assign(kPageSize, kNoIndex);
      for (std::uint64_t s = begin; s < end; ++s) pages_[p][s - begin] = dense[s];
    }
  }

  Index first(std::uint32_t sector) const {
    const std::vector<Index>& page = pages_[sector >> kPageBits];
    return page.empty() ? kNoIndex : page[sector & (kPageSize - 1)];
  }
  Index& head(std::uint32_t sector) {
    std::vector<Index>& page = pages_[sector >> kPageBits];
    if (page.empty()) page.assign(kPageSize, kNoIndex);
    return page[sector & (kPageSize - 1)];
  }
  // Calls f(sector) for every sector of the pages held, in increasing order.
  template <typename F>
  void for_each_sector(F&& f) const {
    for (std::uint64_t p = 0; p < pages_.size(); ++p) {
      if (pages_[p].empty()) continue;
      const std::uint64_t end = std::min(count_, (p + 1) * kPageSize);
      for (std::uint64_t s = p * kPageSize; s < end; ++s) f(static_cast<std::uint32_t>(s));
    }
  }
  void clear() {
    for (std::vector<Index>& page : pages_) std::fill(page.begin(), page.end(), kNoIndex);
  }
  std::uint64_t pages() const { return pages_.size(); }
  std::uint64_t pages_held() const {
    std::uint64_t held = 0;
    for (const std::vector<Index>& page : pages_) held += page.empty() ? 0 : 1;
    return held;
  }
  std::size_t memory_bytes() const {
    return pages_.capacity() * sizeof(std::vector<Index>) + pages_held() * kPageSize * sizeof(Index);
  }

 private:
  std::uint64_t count_ = 0;
  std::vector<std::vector<Index>> pages_;
};

}  // namespace tethersim::engine
