#include "tethersim/engine/adjacency.hpp"

namespace tethersim::engine {

void Adjacency::add(Index particle, Index partner, std::uint32_t payload) {
  std::uint32_t n;
  if (free_ != kNoIndex) {
    n = free_;
    free_ = nodes_[n].next;
  } else {
    n = static_cast<std::uint32_t>(nodes_.size());
    nodes_.emplace_back();
  }
  nodes_[n] = {partner, payload, head_[particle]};
  head_[particle] = n;
}

bool Adjacency::remove(Index particle, Index partner) {
  std::uint32_t* link = &head_[particle];
  while (*link != kNoIndex) {
    const std::uint32_t n = *link;
    if (nodes_[n].partner == partner) {
      *link = nodes_[n].next;
      nodes_[n] = {kNoIndex, 0, free_};
      free_ = n;
      return true;
    }
    link = &nodes_[n].next;
  }
  return false;
}

bool Adjacency::contains(Index particle, Index partner) const {
  return payload(particle, partner) != kNoIndex;
}

std::uint32_t Adjacency::payload(Index particle, Index partner) const {
  if (head_.empty()) return kNoIndex;
  for (std::uint32_t n = head_[particle]; n != kNoIndex; n = nodes_[n].next) {
    if (nodes_[n].partner == partner) return nodes_[n].payload;
  }
  return kNoIndex;
}

void Adjacency::clear(Index particle) {
  if (head_.empty()) return;
  while (head_[particle] != kNoIndex) {
    const std::uint32_t n = head_[particle];
    head_[particle] = nodes_[n].next;
    nodes_[n] = {kNoIndex, 0, free_};
    free_ = n;
  }
}

std::size_t Adjacency::degree(Index particle) const {
  if (head_.empty()) return 0;
  std::size_t d = 0;
  for (std::uint32_t n = head_[particle]; n != kNoIndex; n = nodes_[n].next) ++d;
  return d;
}

void Adjacency::renumber(const std::vector<Index>& new_index) {
  if (head_.empty()) return;
  BigVector<std::uint32_t> head(head_.size(), kNoIndex);
  for (std::size_t old = 0; old < head_.size(); ++old) head[new_index[old]] = head_[old];
  head_.swap(head);
  for (std::uint32_t n = 0; n < nodes_.size(); ++n) {
    if (nodes_[n].partner != kNoIndex) nodes_[n].partner = new_index[nodes_[n].partner];
  }
}

std::size_t Adjacency::memory_bytes() const {
  return head_.capacity() * sizeof(std::uint32_t) + nodes_.capacity() * sizeof(Node);
}

}  // namespace tethersim::engine
