#pragma once
// Loaded edges (docs/physics.md, "Loaded groups"): the forest whose connected components
// are loaded groups. Each edge keeps the restitution impulse, its scheduled
// restitution time and its place in the loading order.

#include <cstdint>
#include <span>
#include <vector>

#include "tethersim/engine/adjacency.hpp"

namespace tethersim::engine {

using EdgeIndex = std::uint32_t;

struct LoadedEdge {
  Index a = kNoIndex;  // the lower particle id of the pair
  Index b = kNoIndex;
  Vec3 impulse = Vec3::Zero();  // p_AB: momentum A gains when the edge restitutes
  double time = kInfinity;      // scheduled restitution
  // Loading order within the group's history: 1 + the largest sequence in
  // the two groups at loading. A function of the group's own past only, so
  // every process computes the same numbers (last in, first out).
  std::uint64_t sequence = 0;
  std::uint32_t version = 0;  // changes when rescheduled or removed
  bool alive = false;
  bool scheduled = false;     // its restitution is in the calendar
};

class LoadedEdges {
 public:
  void resize_particles(std::size_t n) { adjacency_.resize_particles(n); }

  EdgeIndex add(Index a, Index b, const Vec3& impulse, std::uint64_t sequence);
  void remove(EdgeIndex e);

  LoadedEdge& operator[](EdgeIndex e) { return edges_[e]; }
  const LoadedEdge& operator[](EdgeIndex e) const { return edges_[e]; }
  const Adjacency& adjacency() const { return adjacency_; }
  std::size_t open_count() const { return open_; }
  std::size_t memory_bytes() const;
  void renumber(std::span<const Index> new_index);

  template <typename F>
  void for_each_open(F&& f) const {
    for (EdgeIndex e = 0; e < edges_.size(); ++e) {
      if (edges_[e].alive) f(e, edges_[e]);
    }
  }

 private:
  std::vector<LoadedEdge> edges_;
  std::vector<EdgeIndex> free_;
  Adjacency adjacency_;  // payload = edge index
  std::size_t open_ = 0;
};

}  // namespace tethersim::engine
