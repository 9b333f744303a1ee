#pragma once
// Empties a container and returns its memory. `v = {}` on a std::vector
// picks the initializer-list assignment, which keeps the capacity: large
// temporaries released that way still count in the peak memory.

#include <utility>

namespace tethersim::engine {

template <typename Container>
void free_storage(Container& c) {
  Container().swap(c);
}

}  // namespace tethersim::engine
