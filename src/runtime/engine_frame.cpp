#include "engine_frame.hpp"

#include <algorithm>

namespace tethersim::runtime {

EngineFrameParticles::EngineFrameParticles(const engine::Engine& engine, double t)
    : engine_(engine), t_(t), order_(engine.particles().indices_in_id_order()) {
  const engine::ParticleStore& store = engine.particles();
  order_.erase(std::remove_if(order_.begin(), order_.end(),
                              [&](engine::Index i) { return !store.state[i].alive || !engine.accounted_here(i); }),
               order_.end());
}

void EngineFrameParticles::read(std::size_t begin, std::size_t end, std::vector<FrameParticle>& out) const {
  const engine::ParticleStore& store = engine_.particles();
  out.clear();
  out.reserve(end - begin);
  for (std::size_t k = begin; k < end; ++k) {
    const engine::Index i = order_[k];
    const engine::ParticleState& s = store.state[i];
    out.push_back({store.id[i], s.position(t_), s.v});
  }
}

std::vector<FrameTether> accounted_tethers(const engine::Engine& e) {
  std::vector<FrameTether> tethers;
  tethers.reserve(e.tethers().entries() / 2);  // each is listed at both ends
  const engine::ParticleStore& store = e.particles();
  for (engine::Index i = 0; i < store.size(); ++i) {
    if (e.is_removed(i)) continue;
    e.tethers().for_each(i, [&](engine::Index j, std::uint32_t) {
      if (store.id[i] < store.id[j] && e.counted_here(i, j)) tethers.push_back({store.id[i], store.id[j]});
    });
  }
  return tethers;
}

}  // namespace tethersim::runtime
