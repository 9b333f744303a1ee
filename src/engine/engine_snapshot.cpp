// Snapshots of the engine state, and engines rebuilt from them.
#include <algorithm>

#include "tethersim/engine/engine.hpp"
#include "tethersim/model/pair_order.hpp"
#include "owner_computes_state.hpp"
#include "speculation_state.hpp"

namespace tethersim::engine {

Engine::Engine(const Model& model, const EngineSnapshot& snapshot, std::size_t spare_slots)
    : model_(model), seed_(model.seed()), spare_slots_(spare_slots),
      grid_(model.domain(), model.sector_size(), snapshot.particles.size()) {
  for (std::size_t s = 0; s < model.species().size(); ++s) {
    mass_.push_back(model.species()[s].mass);
    hub_species_.push_back(model.is_hub_species(static_cast<SpeciesIndex>(s)));
  }
  restore(snapshot);
}

void Engine::restore(const EngineSnapshot& snapshot) {
  const auto snapshot_at = [&](std::size_t k) { return snapshot.particles[k]; };
  place_particles(snapshot.particles.size(), snapshot_at, storage_order(snapshot.particles.size(), snapshot_at));
  finish_placement();
  auto index = [&](ParticleId id) { return particles_.index_of(id); };
  // A partial view (a rank's particles and halo) holds some pairs by one
  // end only: those are not represented.
  if (!snapshot.tethers.empty()) tethers_.reserve_entries(2 * snapshot.tethers.size());
  for (const TetherSnapshot& t : snapshot.tethers) {
    if (index(t.a) == kNoIndex || index(t.b) == kNoIndex) continue;
    tethers_.add(index(t.a), index(t.b));
    tethers_.add(index(t.b), index(t.a));
  }
  for (const LoadedEdgeSnapshot& e : snapshot.loaded_edges) {
    if (index(e.a) == kNoIndex || index(e.b) == kNoIndex) continue;
    const EdgeIndex edge = loaded_.add(index(e.a), index(e.b), e.impulse, e.sequence);
    loaded_[edge].time = e.time;
    schedule_restitution(edge);
  }
  periodic_tick_ = snapshot.periodic_ticks;
  for (std::uint32_t k = 0; k < periodic_tick_.size(); ++k) schedule_periodic(k, periodic_tick_[k]);
  active_window_ = snapshot.active_window;
  if (model_.action_potentials().enabled()) {
    phi_.assign(model_.action_potentials().reactions.size(),
                std::vector<double>(particles_.size(), kInfinity));
    for (std::size_t r = 0; r < phi_.size() && r < snapshot.reaction_times.size(); ++r) {
      for (std::size_t k = 0; k < snapshot.particles.size(); ++k) {
        phi_[r][index(snapshot.particles[k].id)] = snapshot.reaction_times[r][k];
      }
    }
  }
  // Transitions at the snapshot time itself have not happened yet.
  schedule_action_potentials(snapshot.time);
  escapes_ = snapshot.escapes;
  releases_ = snapshot.releases;
  stats_ = snapshot.statistics;
  // Placed in storage order: no renumbering is due until the particles
  // have drifted again (the statistics count the events since t = 0).
  events_at_reorder_ = stats_.total_events();
  clock_ = snapshot.time;
  predict_all();
}

// The particles accounted here, decoded a slab at a time.
class Engine::IdOrderParticles final : public ParticleSource {
 public:
  IdOrderParticles(const Engine& engine, std::vector<Index> order) : engine_(engine), order_(std::move(order)) {}
  std::size_t size() const override { return order_.size(); }
  std::size_t reactions() const override { return engine_.phi_.size(); }
  void read(std::size_t begin, std::size_t end, std::vector<ParticleSnapshot>& out,
            std::vector<std::vector<double>>& phi) const override {
    out.clear();
    out.reserve(end - begin);
    for (std::size_t k = begin; k < end; ++k) out.push_back(engine_.particle_snapshot(order_[k]));
    phi.resize(engine_.phi_.size());
    for (std::size_t r = 0; r < phi.size(); ++r) {
      phi[r].clear();
      phi[r].reserve(end - begin);
      for (std::size_t k = begin; k < end; ++k) phi[r].push_back(engine_.phi_[r][order_[k]]);
    }
  }

 private:
  const Engine& engine_;
  std::vector<Index> order_;
};

// The particles this process accounts for (all of them in a serial engine),
// and the tethers and loaded edges whose events it counts.
std::unique_ptr<ParticleSource> Engine::particle_source() const {
  std::vector<Index> order = particles_.indices_in_id_order();
  order.erase(std::remove_if(order.begin(), order.end(), [&](Index i) { return !accounted_here(i); }),
              order.end());
  return std::make_unique<IdOrderParticles>(*this, std::move(order));
}

EngineSnapshot Engine::snapshot(double at) const {
  EngineSnapshot s = snapshot_without_particles(at);
  const std::unique_ptr<ParticleSource> source = particle_source();
  source->read(0, source->size(), s.particles, s.reaction_times);
  return s;
}

EngineSnapshot Engine::snapshot_without_particles(double at) const {
  EngineSnapshot s;
  s.time = at;
  // At most one entry of two per pair: a membrane's tethers are most of a
  // checkpoint's transient memory, and growth by doubling would add a third.
  s.tethers.reserve(tethers_.entries() / 2);
  for (Index i = 0; i < particles_.size(); ++i) {
    if (is_removed(i)) continue;
    const ParticleId id = particles_.id[i];
    tethers_.for_each(i, [&](Index j, std::uint32_t) {
      if (id < particles_.id[j] && counted_here(i, j)) s.tethers.push_back({id, particles_.id[j]});
    });
    loaded_.adjacency().for_each(i, [&](Index j, std::uint32_t e) {
      if (id >= particles_.id[j] || !counted_here(i, j)) return;
      const LoadedEdge& edge = loaded_[e];
      s.loaded_edges.push_back({id, particles_.id[j], edge.impulse, edge.time, edge.sequence});
    });
  }
  std::sort(s.tethers.begin(), s.tethers.end(), by_ends);
  std::sort(s.loaded_edges.begin(), s.loaded_edges.end(), by_ends);
  s.periodic_ticks = periodic_tick_;
  s.active_window = active_window_;
  s.escapes = escapes_;
  s.releases = releases_;
  s.statistics = stats_;
  return s;
}

double Engine::next_event_time() {
  for (;;) {
    while (!global_.empty() && global_.top().kind == EventKind::restitution) {
      const LoadedEdge& edge = loaded_[global_.top().payload];
      if (edge.alive && edge.version == global_.top().version) break;
      global_.pop();
    }
    if (calendar_.empty()) break;
    const Index i = calendar_.top();
    const ParticleEvent e = calendar_.event(i);
    if (e.partner == kNoIndex || (particles_.state[e.partner].alive &&
                                  particles_.stamp[e.partner] == e.partner_stamp)) {
      break;
    }
    ++stats_.stale_events;
    repredict(i);
  }
  double t = calendar_.empty() ? kInfinity : calendar_.top_time();
  if (!global_.empty()) t = std::min(t, global_.top().time);
  return t;
}

}  // namespace tethersim::engine
