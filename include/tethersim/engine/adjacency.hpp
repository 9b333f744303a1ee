#pragma once
// Per-particle lists of partners (tethers, loaded edges) in one pooled,
// singly linked store: 4 bytes per particle plus 8 bytes per entry (12 with
// a payload), with no allocation per particle.

#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "tethersim/engine/big_vector.hpp"
#include "tethersim/engine/particle_store.hpp"

namespace tethersim::engine {

// Models that can never use a kind of list (no tetherable pair, no
// restitution delay) leave it unallocated: 0 bytes per particle.
// `kPayload`: each entry carries a 32-bit value (a loaded edge's number);
// tethers need none, and a membrane has millions of them.
template <bool kPayload>
class PartnerLists {
 public:
  void resize_particles(std::size_t n) {
    reserve_gently(head_, n);
    head_.resize(n, kNoIndex);
  }
  bool allocated() const { return !head_.empty(); }
  // Room for `n` entries in all, with the gentle slack (a known count, such
  // as an initial state's tethers, then costs no doubling's spare half).
  void reserve_entries(std::size_t n) { reserve_gently(nodes_, n); }

  // Adds `partner` with a payload (e.g. an edge number) to `particle`'s list.
  void add(Index particle, Index partner, std::uint32_t payload = 0);
  // Removes `partner` from `particle`'s list; false when absent.
  bool remove(Index particle, Index partner);
  bool contains(Index particle, Index partner) const;
  // The payload stored with `partner` (0 without payloads), or kNoIndex
  // when absent.
  std::uint32_t payload(Index particle, Index partner) const;
  void clear(Index particle);

  // f(partner, payload); the payload is 0 without payloads.
  template <typename F>
  void for_each(Index particle, F&& f) const {
    if (head_.empty()) return;
    for (std::uint32_t n = head_[particle]; n != kNoIndex; n = nodes_[n].next) {
      f(nodes_[n].partner, payload_of(nodes_[n]));
    }
  }
  bool empty(Index particle) const { return head_.empty() || head_[particle] == kNoIndex; }
  std::size_t degree(Index particle) const;
  // Entries in all lists (a pair listed at both ends counts twice).
  std::size_t entries() const { return entries_; }

  std::size_t memory_bytes() const;

  // Renumbers particles: new_index[old] for every particle (list heads move
  // with their particles, partners are renamed).
  void renumber(std::span<const Index> new_index);

 private:
  struct NodeWithPayload {
    Index partner;
    std::uint32_t next;
    std::uint32_t payload;
  };
  struct NodeWithoutPayload {
    Index partner;
    std::uint32_t next;
  };
  using Node = std::conditional_t<kPayload, NodeWithPayload, NodeWithoutPayload>;
  static std::uint32_t payload_of(const Node& node) {
    if constexpr (kPayload) {
      return node.payload;
    } else {
      return 0;
    }
  }
  static Node make_node(Index partner, std::uint32_t next, [[maybe_unused]] std::uint32_t payload) {
    if constexpr (kPayload) {
      return {partner, next, payload};
    } else {
      return {partner, next};
    }
  }

  BigVector<std::uint32_t> head_;
  BigVector<Node> nodes_;
  std::uint32_t free_ = kNoIndex;
  std::size_t entries_ = 0;
};

// Loaded edges: the payload is the edge's number.
using Adjacency = PartnerLists<true>;
// Tethers: partners only.
using TetherLists = PartnerLists<false>;

extern template class PartnerLists<true>;
extern template class PartnerLists<false>;

}  // namespace tethersim::engine
