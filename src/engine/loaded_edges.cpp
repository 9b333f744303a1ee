#include "tethersim/engine/loaded_edges.hpp"

namespace tethersim::engine {

EdgeIndex LoadedEdges::add(Index a, Index b, const Vec3& impulse, std::uint64_t sequence) {
  EdgeIndex e;
  if (!free_.empty()) {
    e = free_.back();
    free_.pop_back();
  } else {
    e = static_cast<EdgeIndex>(edges_.size());
    edges_.emplace_back();
  }
  LoadedEdge& edge = edges_[e];
  const std::uint32_t version = edge.version + 1;
  edge = LoadedEdge{};
  edge.a = a;
  edge.b = b;
  edge.impulse = impulse;
  edge.sequence = sequence;
  edge.version = version;
  edge.alive = true;
  adjacency_.add(a, b, e);
  adjacency_.add(b, a, e);
  ++open_;
  return e;
}

void LoadedEdges::remove(EdgeIndex e) {
  LoadedEdge& edge = edges_[e];
  adjacency_.remove(edge.a, edge.b);
  adjacency_.remove(edge.b, edge.a);
  edge.alive = false;
  ++edge.version;  // any scheduled restitution of it is now stale
  free_.push_back(e);
  --open_;
}

void LoadedEdges::renumber(std::span<const Index> new_index) {
  adjacency_.renumber(new_index);
  for (LoadedEdge& e : edges_) {
    if (!e.alive) continue;
    e.a = new_index[e.a];
    e.b = new_index[e.b];
  }
}

std::size_t LoadedEdges::memory_bytes() const {
  return edges_.capacity() * sizeof(LoadedEdge) + free_.capacity() * sizeof(EdgeIndex) +
         adjacency_.memory_bytes();
}

}  // namespace tethersim::engine
