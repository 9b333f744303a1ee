#pragma once
// Rows of trajectory and checkpoint arrays ("slots"): a particle's rank in
// the id order of every particle the run started with. Files are therefore
// ordered by id whatever rank wrote them, and a particle keeps its row when
// others leave.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "tethersim/model/initial_state.hpp"

namespace tethersim {

class SlotMap {
 public:
  SlotMap() = default;
  // `ids` sorted and unique. Ids 0..N-1 (what generators make) need no table.
  explicit SlotMap(std::vector<ParticleId> ids);
  // The slots of ids 0..n-1, without a table.
  static SlotMap dense_map(std::uint64_t n) {
    SlotMap m;
    m.size_ = n;
    return m;
  }

  std::uint64_t size() const { return size_; }
  std::uint64_t slot(ParticleId id) const;  // precondition: id is in the map
  // The slot of `id`, or none when the map does not hold it (a trajectory
  // that keeps only some species holds only their particles).
  std::optional<std::uint64_t> find(ParticleId id) const;
  ParticleId id(std::uint64_t slot) const { return dense_ ? slot : ids_[slot]; }
  bool dense() const { return dense_; }

 private:
  std::uint64_t size_ = 0;
  bool dense_ = true;
  std::vector<ParticleId> ids_;  // only when not dense
};

// The near-equal contiguous block of slots rank `rank` of `ranks` handles.
struct SlotRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint64_t size() const { return end - begin; }
};
SlotRange slot_range(std::uint64_t total, int ranks, int rank);
// The rank whose slot_range holds `slot` (< total).
int slot_owner(std::uint64_t total, int ranks, std::uint64_t slot);

// Rows go to the ranks that write them in rounds, so that what a rank
// sends and receives at once stays bounded however many rows it writes:
// round k takes slots [begin + k per_round, begin + (k + 1) per_round) of
// every rank's slot_range, and there are as many rounds as the rank with
// the most slots needs (at least one, so that every rank makes the same
// collective calls).
struct SlotRounds {
  std::uint64_t per_round = 1;
  std::uint64_t count = 1;
  // The part of `range` (a slot_range) written in round `round`.
  SlotRange part(const SlotRange& range, std::uint64_t round) const {
    const std::uint64_t begin = std::min(range.end, range.begin + per_round * round);
    return {begin, std::min(range.end, begin + per_round)};
  }
  // The round of `slot`, in `range`, the slot_range that holds it.
  std::uint64_t round_of(const SlotRange& range, std::uint64_t slot) const {
    return (slot - range.begin) / per_round;
  }
};
SlotRounds slot_rounds(std::uint64_t total, int ranks, std::uint64_t per_round);

// The species of a contiguous range of slots: every slot's, or only those a
// rank writes (its slot_range), so that no rank of a large run holds a
// table of the whole system.
struct SlotSpecies {
  std::uint64_t begin = 0;
  std::vector<SpeciesIndex> species;
  std::uint64_t end() const { return begin + species.size(); }
  bool covers(std::uint64_t first, std::uint64_t last) const { return begin <= first && last <= end(); }
  SpeciesIndex at(std::uint64_t slot) const { return species[slot - begin]; }
};

}  // namespace tethersim
