// Engine construction, the event loop and event dispatch.
#include "tethersim/engine/engine.hpp"

#include <algorithm>
#include <numeric>

#include "tethersim/physics/random_impulse.hpp"

namespace tethersim::engine {

Engine::Engine(const Model& model, scenario::InitialParticles initial)
    : model_(model), seed_(model.seed()), grid_(model.domain(), model.sector_size()) {
  for (std::size_t s = 0; s < model.species().size(); ++s) {
    mass_.push_back(model.species()[s].mass);
    hub_species_.push_back(model.is_hub_species(static_cast<SpeciesIndex>(s)));
  }
  add_particles(initial);
  schedule_initial_events();
}

void Engine::add_particles(scenario::InitialParticles& initial) {
  const std::size_t n = initial.particles.size();
  // Storage order: grid particles by sector, then hubs, so that neighbours
  // in space are neighbours in memory (fewer cache misses when predicting).
  // One 8-byte key per particle: (sector, input position), sorted in place.
  std::vector<std::uint64_t> keys(n);
  for (std::size_t k = 0; k < n; ++k) {
    const ParticleSpec& p = initial.particles[k];
    const std::uint64_t sector = model_.is_hub_species(p.species)
                                     ? 0xffffffffULL
                                     : grid_.linear(grid_.coords_of(p.position));
    keys[k] = (sector << 32) | k;
  }
  std::sort(keys.begin(), keys.end());
  std::vector<std::uint32_t> order(n);
  for (std::size_t k = 0; k < n; ++k) order[k] = static_cast<std::uint32_t>(keys[k] & 0xffffffffULL);
  keys = {};

  particles_.state.resize(n);
  particles_.id.resize(n);
  particles_.counter.assign(n, 0);
  coords_.resize(n);
  // Lists a model can never use are not allocated.
  bool tetherable = false;
  for (SpeciesIndex a = 0; a < model_.species().size(); ++a) {
    for (SpeciesIndex b = 0; b < model_.species().size(); ++b) tetherable |= model_.pair(a, b).tetherable();
  }
  if (tetherable) tethers_.resize_particles(n);
  if (model_.dynamics().restitution_delay > 0.0) loaded_.resize_particles(n);
  touched_mark_.assign(n, 0);
  visit_mark_.assign(n, 0);
  for (std::size_t k = 0; k < n; ++k) {
    const ParticleSpec& p = initial.particles[order[k]];
    const auto i = static_cast<Index>(k);
    ParticleState& s = particles_.state[i];
    s.u0 = p.position;
    s.v = p.velocity;
    s.t0 = 0.0;
    s.species = p.species;
    s.mobile = !model_.species(p.species).infinite_mass();
    particles_.id[i] = p.id;
    coords_[i] = grid_.coords_of(p.position);
    if (model_.is_hub_species(p.species)) {
      hubs_.push_back(i);
    } else {
      grid_.insert(particles_.state, i, grid_.linear(coords_[i]));
    }
  }
  // The initial particles are copied: release them before the rest of the
  // engine is allocated.
  initial.particles.clear();
  initial.particles.shrink_to_fit();
  particles_.build_id_index();
  for (const TetherSpec& t : initial.tethers) {
    const Index a = particles_.index_of(t.a), b = particles_.index_of(t.b);
    tethers_.add(a, b);
    tethers_.add(b, a);
  }
  initial.tethers.clear();
  initial.tethers.shrink_to_fit();
  // Hubs a species can block with: tested directly, not through sectors.
  hubs_for_.assign(model_.species().size(), {});
  for (Index h : hubs_) {
    for (std::size_t s = 0; s < model_.species().size(); ++s) {
      if (model_.pair(static_cast<SpeciesIndex>(s), particles_.state[h].species).blocks()) {
        hubs_for_[s].push_back(h);
      }
    }
  }
}

void Engine::schedule_initial_events() {
  const std::size_t n = particles_.size();
  bool any_random = false;
  for (const Species& s : model_.species()) any_random |= s.random_impulse.enabled();
  if (any_random) {
    ri_index_.assign(n, 0);
    ri_time_.assign(n, kInfinity);
    for (Index i = 0; i < n; ++i) {
      const auto& spec = model_.species(particles_.state[i].species).random_impulse;
      if (spec.enabled() && particles_.state[i].mobile) {
        ri_time_[i] = physics::draw_random_gap(seed_, particles_.id[i], 0, spec);
      }
    }
  }
  periodic_tick_.assign(model_.periodic_impulses().size(), 0);
  for (std::uint32_t k = 0; k < model_.periodic_impulses().size(); ++k) schedule_periodic(k, 1);

  const ActionPotentials& ap = model_.action_potentials();
  if (ap.enabled()) {
    phi_.assign(ap.reactions.size(), std::vector<double>(n, kInfinity));
    for (std::uint32_t w = 0; w < ap.windows.size(); ++w) {
      for (std::uint32_t edge = 0; edge < 2; ++edge) {
        GlobalEvent e;
        e.time = edge == 0 ? ap.windows[w].start : ap.windows[w].end;
        e.kind = EventKind::action_potential;
        e.payload = 2 * w + edge;
        e.tie_minor = e.payload;
        global_.push(e);
      }
    }
  }

  calendar_.reset(n, [this](Index a, Index b, double time) {
    return event_precedes(a, calendar_.event_at(a, time), b, calendar_.event_at(b, time));
  });
  for (Index i = 0; i < n; ++i) {
    if (particles_.state[i].mobile) repredict(i);
  }
}

bool Engine::run_until(double end, std::uint64_t max_events) {
  std::uint64_t processed = 0;
  while (processed < max_events) {
    // Particles drift away from their storage neighbours; renumber in
    // sector order after about two events per particle.
    const std::uint64_t done = stats_.total_events();
    if (done - events_at_reorder_ > 2 * particles_.size() + 1000) {
      reorder();
      events_at_reorder_ = done;
    }
    // Drop restitutions of edges that were removed or rescheduled.
    while (!global_.empty()) {
      const GlobalEvent& g = global_.top();
      if (g.kind != EventKind::restitution) break;
      const LoadedEdge& edge = loaded_[g.payload];
      if (edge.alive && edge.version == g.version) break;
      global_.pop();
    }
    const bool have_particle = !calendar_.empty();
    const bool have_global = !global_.empty();
    if (!have_particle && !have_global) return true;
    // Global kinds all have a higher priority than particle kinds, so the
    // time decides and equal times go to the global event.
    const bool take_particle =
        have_particle && (!have_global || calendar_.top_time() < global_.top().time);
    if (take_particle) {
      const Index i = calendar_.top();
      const ParticleEvent e = calendar_.event(i);
      if (e.time >= end) return true;
      if (e.partner != kNoIndex && (!particles_.state[e.partner].alive ||
                                    particles_.counter[e.partner] != e.partner_counter)) {
        ++stats_.stale_events;
        repredict(i);
        continue;
      }
      clock_ = std::max(clock_, e.time);
      execute_particle_event(i, e);
    } else {
      const GlobalEvent g = global_.top();
      if (g.time >= end) return true;
      global_.pop();
      clock_ = std::max(clock_, g.time);
      execute_global_event(g);
    }
    ++processed;
  }
  return false;
}

void Engine::execute_particle_event(Index i, const ParticleEvent& e) {
  ++stats_.events[static_cast<int>(e.kind)];
  const int axis = e.detail & 3;
  const bool upward = (e.detail & 4) != 0;
  mark_for_prediction(i);
  switch (e.kind) {
    case EventKind::random_impulse: random_impulse(i, e.time); break;
    case EventKind::blocking:
    case EventKind::tethering: collide(i, e.partner, e.kind, e.time); break;
    case EventKind::wall: reflect(i, axis, e.time); break;
    case EventKind::escape: escape(i, e.time); break;
    case EventKind::sector_crossing: cross_sector(i, axis, upward, e.time); break;
    default: break;
  }
  repredict_touched();
}

void Engine::execute_global_event(const GlobalEvent& g) {
  ++stats_.events[static_cast<int>(g.kind)];
  switch (g.kind) {
    case EventKind::restitution: restitute(g.payload, g.time); break;
    case EventKind::periodic_impulse: periodic_impulse(g.payload, g.time); break;
    case EventKind::action_potential: action_potential_transition(g.payload, g.time); break;
    default: break;
  }
  repredict_touched();
}

void Engine::repredict_touched() {
  for (Index i : touched_) {
    touched_mark_[i] = 0;
    if (particles_.state[i].alive && particles_.state[i].mobile) repredict(i);
  }
  touched_.clear();
}

}  // namespace tethersim::engine
