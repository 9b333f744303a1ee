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

namespace {

// Appends particle i's tethers that this process counts (i the lower id).
void append_counted_tethers(const engine::Engine& e, engine::Index i, std::vector<FrameTether>& out) {
  const engine::ParticleStore& store = e.particles();
  e.tethers().for_each(i, [&](engine::Index j, std::uint32_t) {
    if (store.id[i] < store.id[j] && e.counted_here(i, j)) out.push_back({store.id[i], store.id[j]});
  });
}

}  // namespace

std::vector<FrameTether> accounted_tethers(const engine::Engine& e) {
  std::vector<FrameTether> tethers;
  tethers.reserve(e.tethers().entries() / 2);  // each is listed at both ends
  for (engine::Index i = 0; i < e.particles().size(); ++i) {
    if (!e.is_removed(i)) append_counted_tethers(e, i, tethers);
  }
  return tethers;
}

EngineFrameTethers::EngineFrameTethers(const engine::Engine& engine)
    : engine_(engine), order_(engine.particles().indices_in_id_order()) {
  order_.erase(std::remove_if(order_.begin(), order_.end(), [&](engine::Index i) { return engine.is_removed(i); }),
               order_.end());
}

void EngineFrameTethers::read(std::size_t begin, std::size_t end, std::vector<FrameTether>& out) const {
  out.clear();
  for (std::size_t k = begin; k < end; ++k) {
    // A particle's partners come in list order: its own few sorted.
    const std::size_t first = out.size();
    append_counted_tethers(engine_, order_[k], out);
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
              [](const FrameTether& x, const FrameTether& y) { return x.b < y.b; });
  }
}

}  // namespace tethersim::runtime
