#include "tethersim/engine/adjacency.hpp"

#include "tethersim/engine/permute.hpp"

namespace tethersim::engine {

template <bool kPayload>
void PartnerLists<kPayload>::add(Index particle, Index partner, std::uint32_t payload) {
  std::uint32_t n;
  if (free_ != kNoIndex) {
    n = free_;
    free_ = nodes_[n].next;
  } else {
    // Gentle growth (an eighth), not doubling: a membrane's lists are
    // large, and tethers that form during a run add few entries at a time.
    n = static_cast<std::uint32_t>(nodes_.size());
    append_gently(nodes_, Node{});
  }
  nodes_[n] = make_node(partner, head_[particle], payload);
  head_[particle] = n;
  ++entries_;
}

template <bool kPayload>
bool PartnerLists<kPayload>::remove(Index particle, Index partner) {
  std::uint32_t* link = &head_[particle];
  while (*link != kNoIndex) {
    const std::uint32_t n = *link;
    if (nodes_[n].partner == partner) {
      *link = nodes_[n].next;
      nodes_[n] = make_node(kNoIndex, free_, 0);
      free_ = n;
      --entries_;
      return true;
    }
    link = &nodes_[n].next;
  }
  return false;
}

template <bool kPayload>
bool PartnerLists<kPayload>::contains(Index particle, Index partner) const {
  return payload(particle, partner) != kNoIndex;
}

template <bool kPayload>
std::uint32_t PartnerLists<kPayload>::payload(Index particle, Index partner) const {
  if (head_.empty()) return kNoIndex;
  for (std::uint32_t n = head_[particle]; n != kNoIndex; n = nodes_[n].next) {
    if (nodes_[n].partner == partner) return payload_of(nodes_[n]);
  }
  return kNoIndex;
}

template <bool kPayload>
void PartnerLists<kPayload>::clear(Index particle) {
  if (head_.empty()) return;
  while (head_[particle] != kNoIndex) {
    const std::uint32_t n = head_[particle];
    head_[particle] = nodes_[n].next;
    nodes_[n] = make_node(kNoIndex, free_, 0);
    free_ = n;
    --entries_;
  }
}

template <bool kPayload>
std::size_t PartnerLists<kPayload>::degree(Index particle) const {
  if (head_.empty()) return 0;
  std::size_t d = 0;
  for (std::uint32_t n = head_[particle]; n != kNoIndex; n = nodes_[n].next) ++d;
  return d;
}

template <bool kPayload>
void PartnerLists<kPayload>::renumber(std::span<const Index> new_index) {
  if (head_.empty()) return;
  // In place: a renamed copy beside the heads was 4 bytes per particle at
  // the renumbering's peak.
  std::vector<bool> done;
  permute(head_, new_index, done);
  for (std::uint32_t n = 0; n < nodes_.size(); ++n) {
    if (nodes_[n].partner != kNoIndex) nodes_[n].partner = new_index[nodes_[n].partner];
  }
}

template <bool kPayload>
std::size_t PartnerLists<kPayload>::memory_bytes() const {
  return head_.capacity() * sizeof(std::uint32_t) + nodes_.capacity() * sizeof(Node);
}

template class PartnerLists<true>;
template class PartnerLists<false>;

}  // namespace tethersim::engine
