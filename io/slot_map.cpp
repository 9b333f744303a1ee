#include "tethersim/io/slot_map.hpp"

#include <algorithm>

namespace tethersim {

SlotMap::SlotMap(std::vector<ParticleId> ids) : size_(ids.size()) {
  dense_ = ids.empty() || ids.back() == ids.size() - 1;  // sorted, unique: 0..N-1
  if (!dense_) ids_ = std::move(ids);
}

std::uint64_t SlotMap::slot(ParticleId id) const {
  if (dense_) return id;
  return static_cast<std::uint64_t>(std::lower_bound(ids_.begin(), ids_.end(), id) - ids_.begin());
}

std::optional<std::uint64_t> SlotMap::find(ParticleId id) const {
  if (dense_) return id < size_ ? std::optional<std::uint64_t>(id) : std::nullopt;
  const auto at = std::lower_bound(ids_.begin(), ids_.end(), id);
  if (at == ids_.end() || *at != id) return std::nullopt;
  return static_cast<std::uint64_t>(at - ids_.begin());
}

SlotRange slot_range(std::uint64_t total, int ranks, int rank) {
  const auto r = static_cast<std::uint64_t>(rank);
  const auto p = static_cast<std::uint64_t>(ranks);
  return {total * r / p, total * (r + 1) / p};
}

int slot_owner(std::uint64_t total, int ranks, std::uint64_t slot) {
  int lo = 0, hi = ranks - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (slot_range(total, ranks, mid).begin <= slot) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

SlotRounds slot_rounds(std::uint64_t total, int ranks, std::uint64_t per_round) {
  const auto p = static_cast<std::uint64_t>(ranks);
  const std::uint64_t most = (total + p - 1) / p;  // no slot_range is larger
  return {per_round, std::max<std::uint64_t>(1, (most + per_round - 1) / per_round)};
}

}  // namespace tethersim
