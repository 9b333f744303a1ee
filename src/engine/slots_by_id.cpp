#include "tethersim/engine/slots_by_id.hpp"

#include <bit>

#include "tethersim/engine/free_storage.hpp"

namespace tethersim::engine {

void SlotsById::rebuild(std::size_t buckets, const Ids& ids) {
  BigVector<Slot> old;
  old.swap(buckets_);
  buckets_.assign(buckets, kNone);
  mask_ = buckets - 1;
  shift_ = 64 - std::countr_zero(buckets);
  size_ = 0;
  for (Slot s : old) {
    if (s != kNone) insert(s, ids);
  }
}

void SlotsById::reserve(std::size_t entries, const Ids& ids) {
  std::size_t buckets = 16;
  while (probing::over_full(entries, buckets)) buckets *= 2;
  if (buckets > buckets_.size()) rebuild(buckets, ids);
}

void SlotsById::clear() {
  free_storage(buckets_);
  mask_ = 0;
  shift_ = 64;
  size_ = 0;
}

void SlotsById::insert(Slot slot, const Ids& ids) {
  if (buckets_.empty() || probing::over_full(size_ + 1, buckets_.size())) {
    rebuild(buckets_.empty() ? 16 : 2 * buckets_.size(), ids);
  }
  std::size_t b = home(ids[slot]);
  while (buckets_[b] != kNone) b = (b + 1) & mask_;
  buckets_[b] = slot;
  ++size_;
}

void SlotsById::erase(ParticleId id, const Ids& ids) {
  if (size_ == 0) return;
  std::size_t hole = home(id);
  for (;; hole = (hole + 1) & mask_) {
    if (buckets_[hole] == kNone) return;
    if (ids[buckets_[hole]] == id) break;
  }
  // Backward shift: later entries of the run move into the hole.
  for (std::size_t next = (hole + 1) & mask_; buckets_[next] != kNone; next = (next + 1) & mask_) {
    if (probing::stays(hole, home(ids[buckets_[next]]), next)) continue;
    buckets_[hole] = buckets_[next];
    hole = next;
  }
  buckets_[hole] = kNone;
  --size_;
}

}  // namespace tethersim::engine
