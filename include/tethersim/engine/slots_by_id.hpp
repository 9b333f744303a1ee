#pragma once
// The slot of each particle id, for ids too scattered for a table indexed
// by id (a rank's window of a large system). Open addressing with linear
// probing over slots alone: the id of a slot is read from the particle
// store's id array, so a bucket is 4 bytes. As a std::unordered_map it took
// about 32 bytes per particle held (5.8 MB of a rank's 56 MB heap peak on
// the gas of 10^6 on 8 ranks). An entry goes by backward shifting, so that
// lookups never wade through tombstones.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tethersim/engine/big_vector.hpp"
#include "tethersim/engine/linear_probing.hpp"
#include "tethersim/model/initial_state.hpp"

namespace tethersim::engine {

class SlotsById {
 public:
  using Slot = std::uint32_t;
  static constexpr Slot kNone = 0xffffffffU;
  using Ids = BigVector<ParticleId>;

  // The slot holding `id` (ids[slot] == id), or kNone.
  Slot find(ParticleId id, const Ids& ids) const {
    if (size_ == 0) return kNone;
    for (std::size_t b = home(id);; b = (b + 1) & mask_) {
      const Slot s = buckets_[b];
      if (s == kNone) return kNone;
      if (ids[s] == id) return s;
    }
  }
  // Adds `slot`, whose id is already ids[slot] and not in the table.
  void insert(Slot slot, const Ids& ids);
  // Drops the entry of `id` (ids unchanged since it was inserted).
  void erase(ParticleId id, const Ids& ids);
  // Room for `entries` without growing.
  void reserve(std::size_t entries, const Ids& ids);
  void clear();

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  // Every slot in the table, in no particular order.
  template <typename F>
  void for_each(F&& f) const {
    for (Slot s : buckets_) {
      if (s != kNone) f(s);
    }
  }
  std::size_t memory_bytes() const { return buckets_.capacity() * sizeof(Slot); }

 private:
  std::size_t home(ParticleId id) const { return probing::home(id, shift_); }
  void rebuild(std::size_t buckets, const Ids& ids);

  BigVector<Slot> buckets_;
  std::size_t mask_ = 0;
  int shift_ = 64;
  std::size_t size_ = 0;
};

}  // namespace tethersim::engine
