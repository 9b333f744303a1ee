#include "serial_simulation.hpp"

#include <algorithm>

namespace tethersim::app {

SerialSimulation::SerialSimulation(const Model& model, scenario::InitialParticles initial)
    : model_(model), engine_(model, std::move(initial)), time_(0.0) {}

SerialSimulation::SerialSimulation(const Model& model, const engine::EngineSnapshot& snapshot)
    : model_(model), engine_(model, snapshot), time_(snapshot.time) {}

bool SerialSimulation::advance(double end, std::uint64_t max_events) {
  const bool reached = engine_.run_until(end, max_events);
  time_ = reached ? end : std::max(time_, engine_.time());
  return reached;
}

double SerialSimulation::consistent_stop_time() {
  const double next = engine_.next_event_time();
  // Events tied at the current instant run first (one at a time).
  if (next <= engine_.time()) {
    engine_.run_until(kInfinity, 1);
    return consistent_stop_time();
  }
  time_ = next;
  return next;
}

void SerialSimulation::local_frame(double t, std::vector<FrameParticle>& particles,
                                   std::vector<FrameTether>& tethers) const {
  particles.clear();
  tethers.clear();
  const engine::ParticleStore& store = engine_.particles();
  for (engine::Index i = 0; i < store.size(); ++i) {
    const engine::ParticleState& s = store.state[i];
    if (!s.alive) continue;
    particles.push_back({store.id[i], s.position(t), s.v});
    engine_.tethers().for_each(i, [&](engine::Index j, std::uint32_t) {
      if (store.id[i] < store.id[j]) tethers.push_back({store.id[i], store.id[j]});
    });
  }
}

FrameObservables SerialSimulation::observables(double) const {
  FrameObservables o;
  o.kinetic_energy = engine_.kinetic_energy();
  o.momentum = engine_.momentum();
  o.particles = engine_.alive_count();
  o.escapes = engine_.escapes().size();
  std::uint64_t tethers = 0;
  const engine::ParticleStore& store = engine_.particles();
  for (engine::Index i = 0; i < store.size(); ++i) {
    engine_.tethers().for_each(i, [&](engine::Index j, std::uint32_t) { tethers += store.id[i] < store.id[j]; });
  }
  o.tethers = tethers;
  for (const std::string& name : model_.output().cluster_species) {
    o.clusters.push_back(engine_.cluster_count(*model_.find_species(name)));
  }
  for (const auto& pair : model_.output().tethered_pairs) {
    o.tethered.push_back(
        engine_.tethered_count(*model_.find_species(pair[0]), *model_.find_species(pair[1])));
  }
  o.event_counts.assign(engine_.statistics().events.begin(), engine_.statistics().events.end());
  return o;
}

}  // namespace tethersim::app
