#pragma once
// Holds in owner-computes mode (docs/owner-computes.md, "Causality,
// stragglers, holds"): when an event surfaces that another process runs
// (or that has a held participant), its participants leave the calendar
// until a new version of one of them comes. Participants held together
// form a group and are released together: a particle held behind another's
// event must be predicted again when that event's outcome arrives, though
// its own record did not change.

#include <cstdint>
#include <vector>

#include "tethersim/engine/particle_store.hpp"

namespace tethersim::engine {

class EventHolds {
 public:
  void resize(std::size_t particles) { group_.resize(particles, 0); }
  bool any() const { return held_ != 0; }
  bool held(Index i) const { return i < group_.size() && group_[i] != 0; }
  std::size_t held_count() const { return held_; }

  // Holds i in the group of `with` (a new group when `with` is kNoIndex or
  // not held). i must not be held.
  void hold_with(Index i, Index with) {
    std::uint32_t g = with != kNoIndex && held(with) ? group_[with] : 0;
    if (g == 0) {
      if (!free_.empty()) {
        g = free_.back();
        free_.pop_back();
      } else {
        members_.emplace_back();
        g = static_cast<std::uint32_t>(members_.size());
      }
    }
    group_[i] = g;
    members_[g - 1].push_back(i);
    ++held_;
  }

  // Releases the group holding i (nothing when i is not held), passing each
  // member to `released`.
  template <typename F>
  void release_group_of(Index i, F&& released) {
    if (!held(i)) return;
    release(group_[i], released);
  }

  template <typename F>
  void release_all(F&& released) {
    for (std::uint32_t g = 1; g <= members_.size(); ++g) {
      if (!members_[g - 1].empty()) release(g, released);
    }
  }

 private:
  template <typename F>
  void release(std::uint32_t g, F& released) {
    std::vector<Index> members;
    members.swap(members_[g - 1]);
    for (Index m : members) group_[m] = 0;
    held_ -= members.size();
    free_.push_back(g);
    for (Index m : members) released(m);
  }

  std::vector<std::uint32_t> group_;  // per particle: its group + 1, 0 when not held
  std::vector<std::vector<Index>> members_;
  std::vector<std::uint32_t> free_;
  std::size_t held_ = 0;
};

}  // namespace tethersim::engine
