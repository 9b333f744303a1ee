#pragma once
// The list heads of a sector grid of which a rank holds only a part (its
// block and halo): heads in pages of 1024 consecutive sectors, a page made
// when a particle first enters one of its sectors. A rank of 8 holding a
// gas of 10^6 keeps 1.5 of the 8.4 MB of heads the whole box needs; a
// serial engine keeps its dense heads.

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
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
  PagedSectorHeads(const BigVector<Index>& dense, std::uint64_t count)
      : count_(count), owned_((count + kPageSize - 1) / kPageSize) {
    read_.assign(owned_.size(), kEmptyPage.data());
    for (std::uint64_t p = 0; p < owned_.size(); ++p) {
      const std::uint64_t begin = p * kPageSize, end = std::min(count, begin + kPageSize);
      bool occupied = false;
      for (std::uint64_t s = begin; s < end && !occupied; ++s) occupied = dense[s] != kNoIndex;
      if (!occupied) continue;
      Index* page = make_page(p);
      for (std::uint64_t s = begin; s < end; ++s) page[s - begin] = dense[s];
    }
  }
  PagedSectorHeads(PagedSectorHeads&&) = default;
  PagedSectorHeads& operator=(PagedSectorHeads&&) = default;

  // Two loads and no branch: a page not held reads as the shared empty one.
  Index first(std::uint32_t sector) const { return read_[sector >> kPageBits][sector & (kPageSize - 1)]; }
  const Index* address(std::uint32_t sector) const { return &read_[sector >> kPageBits][sector & (kPageSize - 1)]; }
  Index& head(std::uint32_t sector) {
    const std::uint64_t p = sector >> kPageBits;
    Index* page = owned_[p] ? owned_[p].get() : make_page(p);
    return page[sector & (kPageSize - 1)];
  }
  // Calls f(sector) for every sector of the pages held, in increasing order.
  template <typename F>
  void for_each_sector(F&& f) const {
    for (std::uint64_t p = 0; p < owned_.size(); ++p) {
      if (!owned_[p]) continue;
      const std::uint64_t end = std::min(count_, (p + 1) * kPageSize);
      for (std::uint64_t s = p * kPageSize; s < end; ++s) f(static_cast<std::uint32_t>(s));
    }
  }
  void clear() {
    for (const std::unique_ptr<Index[]>& page : owned_) {
      if (page) std::fill(page.get(), page.get() + kPageSize, kNoIndex);
    }
  }
  std::uint64_t pages() const { return owned_.size(); }
  std::uint64_t pages_held() const {
    std::uint64_t held = 0;
    for (const std::unique_ptr<Index[]>& page : owned_) held += page ? 1 : 0;
    return held;
  }
  std::size_t memory_bytes() const {
    return owned_.capacity() * sizeof(std::unique_ptr<Index[]>) + read_.capacity() * sizeof(const Index*) +
           pages_held() * kPageSize * sizeof(Index);
  }

 private:
  // What a page not held reads as (constant: shared by every grid).
  static constexpr std::array<Index, kPageSize> kEmptyPage = [] {
    std::array<Index, kPageSize> page{};
    page.fill(kNoIndex);
    return page;
  }();

  Index* make_page(std::uint64_t p) {
    owned_[p] = std::make_unique<Index[]>(kPageSize);
    std::fill(owned_[p].get(), owned_[p].get() + kPageSize, kNoIndex);
    read_[p] = owned_[p].get();
    return owned_[p].get();
  }

  std::uint64_t count_ = 0;
  std::vector<std::unique_ptr<Index[]>> owned_;
  std::vector<const Index*> read_;  // each page's heads, or kEmptyPage
};

}  // namespace tethersim::engine
