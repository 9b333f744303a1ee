#pragma once
// Moving per-particle arrays to a new numbering of the particles, in place.

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "tethersim/engine/particle_store.hpp"

namespace tethersim::engine {

// values[new_index[old]] <- values[old], in place by following the
// permutation's cycles: no second copy of large arrays. `done` is scratch
// space shared by the calls of one renumbering.
template <typename Vector>
void permute(Vector& values, std::span<const Index> new_index, std::vector<bool>& done) {
  if (values.empty()) return;
  done.assign(values.size(), false);
  for (std::size_t start = 0; start < values.size(); ++start) {
    if (done[start]) continue;
    auto carried = std::move(values[start]);
    std::size_t at = start;
    while (!done[at]) {
      done[at] = true;
      const std::size_t to = new_index[at];
      std::swap(carried, values[to]);
      at = to;
    }
  }
}

}  // namespace tethersim::engine
