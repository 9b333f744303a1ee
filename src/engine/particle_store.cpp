#include "tethersim/engine/particle_store.hpp"

#include <algorithm>
#include <numeric>

namespace tethersim::engine {

void ParticleStore::build_id_index() {
  dense_index.clear();
  sparse_index.clear();
  sparse_order.clear();
  ParticleId max_id = 0;
  for (ParticleId i : id) max_id = std::max(max_id, i);
  if (id.empty() || max_id < 2 * id.size() + 1024) {
    dense_index.assign(id.empty() ? 0 : max_id + 1, kNoIndex);
    for (std::size_t i = 0; i < id.size(); ++i) dense_index[id[i]] = static_cast<Index>(i);
  } else {
    for (std::size_t i = 0; i < id.size(); ++i) sparse_index[id[i]] = static_cast<Index>(i);
    sparse_order.resize(id.size());
    std::iota(sparse_order.begin(), sparse_order.end(), 0);
    std::sort(sparse_order.begin(), sparse_order.end(), [&](Index a, Index b) { return id[a] < id[b]; });
  }
}

Index ParticleStore::index_of(ParticleId particle_id) const {
  if (!sparse_index.empty()) {
    const auto it = sparse_index.find(particle_id);
    return it == sparse_index.end() ? kNoIndex : it->second;
  }
  return particle_id < dense_index.size() ? dense_index[particle_id] : kNoIndex;
}

}  // namespace tethersim::engine
