#pragma once
// Per-particle lists of partners (tethers, loaded edges) in one pooled,
// singly linked store: 4 bytes per particle plus 12 bytes per entry, with
// no allocation per particle.

#include <cstdint>
#include <vector>

#include "tethersim/engine/big_vector.hpp"
#include "tethersim/engine/particle_store.hpp"

namespace tethersim::engine {

// Models that can never use a kind of list (no tetherable pair, no
// restitution delay) leave it unallocated: 0 bytes per particle.
class Adjacency {
 public:
  void resize_particles(std::size_t n) {
    reserve_gently(head_, n);
    head_.resize(n, kNoIndex);
  }
  bool allocated() const { return !head_.empty(); }

  // Adds `partner` with a payload (e.g. an edge number) to `particle`'s list.
  void add(Index particle, Index partner, std::uint32_t payload = 0);
  // Removes `partner` from `particle`'s list; false when absent.
  bool remove(Index particle, Index partner);
  bool contains(Index particle, Index partner) const;
  // The payload stored with `partner`, or kNoIndex.
  std::uint32_t payload(Index particle, Index partner) const;
  void clear(Index particle);

  template <typename F>
  void for_each(Index particle, F&& f) const {
    if (head_.empty()) return;
    for (std::uint32_t n = head_[particle]; n != kNoIndex; n = nodes_[n].next) {
      f(nodes_[n].partner, nodes_[n].payload);
    }
  }
  bool empty(Index particle) const { return head_.empty() || head_[particle] == kNoIndex; }
  std::size_t degree(Index particle) const;

  std::size_t memory_bytes() const;

  // Renumbers particles: new_index[old] for every particle (list heads move
  // with their particles, partners are renamed).
  void renumber(const std::vector<Index>& new_index);

 private:
  struct Node {
    Index partner;
    std::uint32_t payload;
    std::uint32_t next;
  };
  BigVector<std::uint32_t> head_;
  BigVector<Node> nodes_;
  std::uint32_t free_ = kNoIndex;
};

}  // namespace tethersim::engine
