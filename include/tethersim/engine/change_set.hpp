#pragma once
// The particles an engine changed since it was last asked (trajectory,
// sector, tethers, loaded edges, random-impulse state), each once, with the
// sector it was in before its first change: what a distributed run sends
// its neighbours, and what a speculative window keeps an undo record of.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "tethersim/engine/big_vector.hpp"
#include "tethersim/engine/particle_store.hpp"
#include "tethersim/engine/permute.hpp"
#include "tethersim/engine/sector_grid.hpp"

namespace tethersim::engine {

class ChangeSet {
 public:
  struct Change {
    Index particle;
    SectorCoords sector_before;
    // A finite-mass particle (not a hub or a clamped particle, which are
    // infinitely heavy and never move): known when it changes, while its
    // state is in the cache, so that readers of the list need not fetch it
    // again.
    bool mobile = false;
  };

  // Off (the default), note() records nothing. The marks (a byte per
  // particle) are allocated once tracking is first turned on: a serial
  // run never tracks.
  void set_tracking(bool on) {
    tracking_ = on;
    if (on && !allocated_) {
      marked_.assign(slots_, 0);
      allocated_ = true;
    }
  }
  bool tracking() const { return tracking_; }

  void assign(std::size_t n) {
    slots_ = n;
    if (allocated_) marked_.assign(n, 0);
  }
  void append() {
    ++slots_;
    if (allocated_) append_gently(marked_, 0);
  }

  // Particle i is about to change; `sector` is where it is now.
  void note(Index i, const SectorCoords& sector, bool mobile) {
    if (tracking_ && !marked_[i]) note_first(i, sector, mobile);
  }
  // The same, from a caller that knows i is tracked and not marked yet (a
  // speculative window keeps its own mark): no read of the mark.
  void note_first(Index i, const SectorCoords& sector, bool mobile) {
    marked_[i] = 1;
    changes_.push_back({i, sector, mobile});
  }
  // Whether particle i changed (`i` in range; changed() also takes slots
  // added since, which have not).
  bool marked(Index i) const { return marked_[i] != 0; }
  bool changed(Index i) const { return i < marked_.size() && marked_[i] != 0; }
  const std::vector<Change>& list() const { return changes_; }
  bool empty() const { return changes_.empty(); }
  std::size_t size() const { return changes_.size(); }

  void clear() { keep_first(0); }
  // Forgets every change after the first `count` (an undone part of a
  // window: its particles are as they were before those changes).
  void keep_first(std::size_t count) {
    for (std::size_t k = count; k < changes_.size(); ++k) marked_[changes_[k].particle] = 0;
    changes_.resize(count);
  }

  // Hands the list over and starts an empty one.
  std::vector<Change> take() {
    for (const Change& c : changes_) marked_[c.particle] = 0;
    std::vector<Change> list;
    list.swap(changes_);
    return list;
  }
  // The list becomes `list` (one take() handed over, its particles
  // unchanged since), every earlier mark gone.
  void restore(const std::vector<Change>& list) {
    clear();
    for (const Change& c : list) note_first(c.particle, c.sector_before, c.mobile);
  }

  // Particle i becomes new_index[i]; slots from `kept` on are dropped.
  void renumber(std::span<const Index> new_index, std::size_t kept, std::vector<bool>& done) {
    permute(marked_, new_index, done);
    if (kept < marked_.size()) marked_.resize(kept);
    slots_ = std::min(slots_, kept);
    for (Change& c : changes_) c.particle = new_index[c.particle];
  }
  std::size_t memory_bytes() const { return marked_.capacity() + changes_.capacity() * sizeof(Change); }

 private:
  bool tracking_ = false;
  std::size_t slots_ = 0;  // particle slots (marked_'s size once allocated)
  bool allocated_ = false;
  BigVector<std::uint8_t> marked_;
  std::vector<Change> changes_;
};

}  // namespace tethersim::engine
