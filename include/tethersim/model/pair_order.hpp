#pragma once
// The order of particle pairs (tethers and loaded edges: any record whose
// ends are `a` < `b`) wherever they are sorted, searched or merged: by the
// lower id, then the other. One definition, because snapshots, checkpoints,
// frames and the ranks' exchanges must all agree on it.

namespace tethersim {

struct ByEnds {
  template <typename Pair>
  bool operator()(const Pair& x, const Pair& y) const {
    return x.a != y.a ? x.a < y.a : x.b < y.b;
  }
};
inline constexpr ByEnds by_ends{};

}  // namespace tethersim
