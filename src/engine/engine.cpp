// Engine construction, the event loop and event dispatch.
#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/permute.hpp"
#include "tethersim/engine/read_once_pages.hpp"
#include "owner_computes_state.hpp"
#include "pair_offers.hpp"
#include "speculation_state.hpp"
#include "stale_entries.hpp"
#include "tethersim/engine/event_sources.hpp"
#include "tethersim/engine/free_storage.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "tethersim/physics/random_impulse.hpp"

namespace tethersim::engine {

namespace {

bool any_random_impulses(const Model& model) {
  for (const Species& s : model.species()) {
    if (s.random_impulse.enabled()) return true;
  }
  return false;
}

bool any_tetherable_pair(const Model& model) {
  const auto n = static_cast<SpeciesIndex>(model.species().size());
  for (SpeciesIndex a = 0; a < n; ++a) {
    for (SpeciesIndex b = 0; b < n; ++b) {
      if (model.pair(a, b).tetherable()) return true;
    }
  }
  return false;
}

}  // namespace

bool links_possible(const Model& model) {
  return any_tetherable_pair(model) || model.dynamics().restitution_delay > 0.0;
}

bool takes_one_layer_window(const Model& model) {
  if (!links_possible(model)) return true;
  for (std::size_t s = 0; s < model.species().size(); ++s) {
    if (model.is_hub_species(static_cast<SpeciesIndex>(s))) return false;
  }
  return true;
}

Engine::Engine(const Model& model, scenario::InitialParticles initial, std::size_t spare_slots)
    : model_(model), seed_(model.seed()), spare_slots_(spare_slots),
      grid_(model.domain(), model.sector_size(), initial.particles.size()) {
  for (std::size_t s = 0; s < model.species().size(); ++s) {
    mass_.push_back(model.species()[s].mass);
    hub_species_.push_back(model.is_hub_species(static_cast<SpeciesIndex>(s)));
  }
  add_particles(initial);
  schedule_initial_events();
}

void Engine::add_particles(scenario::InitialParticles& initial) {
  std::vector<ParticleSpec>& specs = initial.particles;
  const auto snapshot_of = [&](std::size_t k) {
    const ParticleSpec& p = specs[k];
    ParticleSnapshot s;
    s.id = p.id;
    s.species = p.species;
    s.u0 = p.position;
    s.v = p.velocity;
    s.sector = grid_.coords_of(p.position);
    return s;
  };
  // The specs are put in storage order first (in place), then read once,
  // front to back, their pages returned as the engine's arrays fill: the
  // whole list beside those arrays set the peak memory of a run's start.
  {
    const std::vector<std::uint64_t> order = storage_order(specs.size(), snapshot_of);
    std::vector<Index> new_index(specs.size());
    for (std::size_t k = 0; k < order.size(); ++k) new_index[order[k] & 0xffffffffULL] = static_cast<Index>(k);
    std::vector<bool> done;
    permute(specs, new_index, done);
  }
  ReadOncePages pages(specs.data(), specs.size() * sizeof(ParticleSpec));
  place_particles(specs.size(), snapshot_of, {},
                  [&](std::size_t placed) { pages.read_through(placed * sizeof(ParticleSpec)); });
  free_storage(specs);
  finish_placement();
  // Both ends list each tether: sized once (a membrane's lists are most of
  // its engine's memory, and doubling would leave a third of them spare).
  if (!initial.tethers.empty()) tethers_.reserve_entries(2 * initial.tethers.size());
  for (const TetherSpec& t : initial.tethers) {
    const Index a = particles_.index_of(t.a), b = particles_.index_of(t.b);
    if (a == kNoIndex || b == kNoIndex) continue;  // a partial view holds one end only
    tethers_.add(a, b);
    tethers_.add(b, a);
  }
  free_storage(initial.tethers);
}

void Engine::store_particle(Index i, const ParticleSnapshot& p) {
  ParticleState& s = particles_.state[i];
  s.u0 = p.u0;
  s.v = p.v;
  note_velocity(i);
  s.t0 = p.t0;
  s.species = p.species;
  s.alive = p.alive;
  s.mobile = !model_.species(p.species).infinite_mass();
  particles_.counter[i] = p.counter;
  ++particles_.stamp[i];  // overwritten: no entry naming it survives
  coords_[i] = grid_.pack(p.sector);
  if (has_random_impulses_) {
    ri_index_[i] = p.ri_index;
    ri_time_[i] = p.ri_time;
  }
}

std::vector<std::uint64_t> Engine::storage_order(
    std::size_t count, const std::function<ParticleSnapshot(std::size_t)>& particle_at) const {
  // Storage order: grid particles by sector, then hubs, so that neighbours
  // in space are neighbours in memory (fewer cache misses when predicting).
  // One 8-byte key per particle: (sector, input position), sorted in place.
  std::vector<std::uint64_t> keys(count);
  for (std::size_t k = 0; k < count; ++k) {
    const ParticleSnapshot p = particle_at(k);
    const std::uint64_t sector =
        hub_species_[p.species] || !p.alive ? 0xffffffffULL : grid_.linear(p.sector);
    keys[k] = (sector << 32) | k;
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

void Engine::place_particles(std::size_t count,
                             const std::function<ParticleSnapshot(std::size_t)>& particle_at,
                             const std::vector<std::uint64_t>& order,
                             const std::function<void(std::size_t)>& placed) {
  particles_.state.reserve(count + spare_slots_);
  particles_.counter.reserve(count + spare_slots_);
  particles_.stamp.reserve(count + spare_slots_);
  particles_.id.reserve(count + spare_slots_);
  coords_.reserve(count + spare_slots_);
  has_random_impulses_ = any_random_impulses(model_);
  has_tethers_ = any_tetherable_pair(model_);
  has_loaded_edges_ = model_.dynamics().restitution_delay > 0.0;
  if (has_random_impulses_) {
    ri_index_.reserve(count + spare_slots_);
    ri_time_.reserve(count + spare_slots_);
  }
  moving_.assign(index_words(count), 0);
  speed2_ceiling_ = 0.0;
  // The arrays grow a step at a time as they are filled, so that what a
  // caller reads once can go as it is read: sized whole at once, they were
  // all resident beside the source (the peak memory of a run's start).
  constexpr std::size_t kPlacedStep = std::size_t{1} << 12;
  const auto grow_to = [&](std::size_t slots) {
    particles_.state.resize(slots);
    particles_.id.resize(slots);
    particles_.counter.resize(slots);
    particles_.stamp.resize(slots, 0);
    coords_.resize(slots);
    if (has_random_impulses_) {
      ri_index_.resize(slots, 0);
      ri_time_.resize(slots, kInfinity);
    }
  };
  for (std::size_t k = 0; k < count; ++k) {
    if (k % kPlacedStep == 0) {
      if (placed && k > 0) placed(k);
      grow_to(std::min(count, k + kPlacedStep));
    }
    const ParticleSnapshot p = particle_at(order.empty() ? k : order[k] & 0xffffffffULL);
    const auto i = static_cast<Index>(k);
    particles_.id[i] = p.id;
    store_particle(i, p);
    if (!p.alive) continue;
    if (hub_species_[p.species]) {
      hubs_.push_back(i);
    } else {
      grid_.insert(particles_.state, i, sector_of(i));
    }
  }
  if (placed) placed(count);
}

void Engine::rebuild_moving() {
  moving_.assign(index_words(particles_.size()), 0);
  for (Index i = 0; i < particles_.size(); ++i) note_velocity(i);
}

void Engine::refresh_speed_ceiling() {
  double largest = 0.0;
  for (Index i = 0; i < particles_.size(); ++i) largest = std::max(largest, particles_.state[i].v.squaredNorm());
  speed2_ceiling_ = largest;
}

void Engine::finish_placement() {
  const std::size_t n = particles_.size();
  particles_.build_id_index();
  // Lists a model can never use are not allocated.
  if (has_tethers_) tethers_.resize_particles(n);
  if (has_loaded_edges_) loaded_.resize_particles(n);
  touched_mark_.assign(n, 0);
  visit_mark_.assign(n, 0);
  // The largest coordinate a particle in the grid can have: what the
  // rounding of a tick's re-basing is relative to.
  const Vec3 hi = grid_.lo() + grid_.length();
  tick_clearance_.configure(model_, std::max(grid_.lo().cwiseAbs().maxCoeff(), hi.cwiseAbs().maxCoeff()));
  tick_clearance_.assign(n, next_tick_number());
  roles_.assign(n);
  changes_.assign(n);
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
  for (Index i = 0; i < particles_.size(); ++i) {
    const auto& spec = model_.species(particles_.state[i].species).random_impulse;
    if (has_random_impulses_ && spec.enabled() && particles_.state[i].mobile) {
      ri_time_[i] = physics::draw_random_gap(seed_, particles_.id[i], 0, spec);
    }
  }
  periodic_tick_.assign(model_.periodic_impulses().size(), 0);
  for (std::uint32_t k = 0; k < model_.periodic_impulses().size(); ++k) schedule_periodic(k, 1);
  if (model_.action_potentials().enabled()) {
    phi_.assign(model_.action_potentials().reactions.size(),
                std::vector<double>(particles_.size(), kInfinity));
  }
  schedule_action_potentials(0.0);
  predict_all();
}

// The action-potential transitions at or after `from`.
void Engine::schedule_action_potentials(double from) {
  const ActionPotentials& ap = model_.action_potentials();
  for (std::uint32_t w = 0; w < ap.windows.size(); ++w) {
    for (std::uint32_t edge = 0; edge < 2; ++edge) {
      GlobalEvent e;
      e.time = edge == 0 ? ap.windows[w].start : ap.windows[w].end;
      if (e.time < from) continue;
      e.kind = EventKind::action_potential;
      e.payload = 2 * w + edge;
      e.tie_minor = e.payload;
      global_.push(e);
    }
  }
}

void Engine::predict_all() {
  // The ticks are scheduled now: every clearance starts from the next one.
  tick_clearance_.assign(particles_.size(), next_tick_number());
  tick_clearance_.begin_start();
  calendar_.reset(
      particles_.size(), spare_slots_,
      [](const void* context, Index a, Index b, double time) {
        const Engine& engine = *static_cast<const Engine*>(context);
        return engine.event_precedes(a, engine.calendar_.event_at(a, time), b,
                                     engine.calendar_.event_at(b, time));
      },
      [](const void* context, Index a, double time) {
        const Engine& engine = *static_cast<const Engine*>(context);
        return engine.order_prefix(a, engine.calendar_.event_at(a, time));
      },
      this);
  // Held particles (owner-computes) go through repredict. So do all where
  // nothing will predict particles together again (no periodic impulses):
  // the offers' ring would be a start-up transient of up to 32 bytes per
  // particle (48 on the gas of 10^4, which set its peak) for a saving made
  // once. With periodic impulses the ticks keep the ring anyway.
  if (owner_ || model_.periodic_impulses().empty()) {
    for (Index i = 0; i < particles_.size(); ++i) {
      if (has_prediction(i)) repredict(i);
    }
    tick_clearance_.end_start();
    return;
  }
  // Together, each pair tested once (touched_mark_ is all zero between events).
  for (Index i = 0; i < particles_.size(); ++i) touched_mark_[i] = joint_mark(i, true);
  PairOffers offers(*this, offer_ring_);
  for (Index i = 0; i < particles_.size(); ++i) {
    if (touched_mark_[i] != 0) predict_joint(i, offers);
  }
  for (Index i = 0; i < particles_.size(); ++i) touched_mark_[i] = 0;
  tick_clearance_.end_start();
}

bool Engine::run_until(double end, std::uint64_t max_events) {
  std::uint64_t processed = 0;
  while (processed < max_events) {
    // Particles drift away from their storage neighbours; renumber in
    // sector order after about eight events per particle. A renumbering
    // moves every array in place along the permutation's cycles, a memory
    // miss per particle and array, and after two events per particle it
    // cost more than its order gained (docs/benchmarks.md, 2026-12-06).
    if (!speculation_) reorder_when_due(8);
    drop_stale_globals();
    const bool have_particle = !calendar_.empty();
    const bool have_global = !global_.empty();
    const std::ptrdiff_t foreign =
        owner_ && owner_->foreign.has_pending() ? ready_foreign(have_particle, have_global) : -1;
    if (!have_particle && !have_global && foreign < 0) return true;
    if (foreign >= 0) {
      // Another process's event: its records take their place here.
      const EventKey& key = owner_->foreign.pending(foreign).outcome.key;
      const double t = key.time;
      if (t >= end) return true;
      if (owner_undo_due(key)) return false;
      note_speculation_time(t);
      clock_ = std::max(clock_, t);
      owner_->latest = std::max(owner_->latest, t);
      place_foreign(foreign);
      ++processed;
      continue;
    }
    // Global kinds all have a higher priority than particle kinds, so the
    // time decides and equal times go to the global event.
    const bool take_particle =
        have_particle && (!have_global || calendar_.top_time() < global_.top().time);
    if (take_particle) {
      const Index i = calendar_.top();
      const ParticleEvent e = calendar_.event(i);
      if (e.time >= end) return true;
      // In owner-computes mode an instant is marked only by what runs or
      // is placed (never by a held or stale event), so that instants stay
      // in time order.
      if (speculation_ && !owner_) note_speculation_time(e.time);
      if (renew_if_stale(i, e)) continue;
      if (owner_ && !executes_here(i, e)) {
        hold_event(i, e);
        continue;
      }
      if (owner_) {
        if (e.time < protected_floor()) {
          // Nothing below what may be committed can still happen here: an
          // event there comes from records of two versions that never
          // coexisted (a copy placed from a history its sender has since
          // given up, or one whose partner's newer version is still on its
          // way), and waits, held, for the version or withdrawal that
          // invalidates it. Undoing for it would take this process below
          // the floor it reported.
          hold_event(i, e);
          continue;
        }
        if (owner_undo_due(particle_event_key(i, e))) return false;
        note_speculation_time(e.time);
        owner_->latest = std::max(owner_->latest, e.time);
      }
      clock_ = std::max(clock_, e.time);
      prefetch_next_particle();
      execute_particle_event(i, e);
    } else {
      const GlobalEvent g = global_.top();
      if (g.time >= end) return true;
      if (owner_ && g.kind == EventKind::periodic_impulse) {
        // A tick is a barrier in owner-computes mode: it runs once the
        // agreed floor reaches its time, with nothing kept to undo it
        // (run_committed_tick). Until then this process waits in front of it.
        if (g.time > owner_->agreed) return true;
        global_.pop();
        run_committed_tick(g);
        ++processed;
        continue;
      }
      // A restitution below what may be committed ran where it was
      // counted: it is back only because an undo from after its time
      // restored the calendar entry this process had passed over (the
      // pass is kept at the instant reached then). Its own ones never come
      // back so: they are kept at their own instants.
      const bool elsewhere = owner_ && g.kind == EventKind::restitution &&
                             (g.time < protected_floor() || !restitutes_here(g));
      if (owner_ && !elsewhere && owner_undo_due(global_event_key(g))) return false;
      if (speculation_ && !elsewhere) note_speculation_time(g.time, g.kind == EventKind::restitution);
      global_.pop();
      if (elsewhere) {
        // Its outcome comes from the process that runs it. Passed over here
        // as if run (its instant marked and reached), so that an outcome
        // from before it that comes later is late and undoes back past it,
        // which puts it back in the calendar: such an outcome can hand its
        // participant to this process (a crossing), which then runs it.
        if (g.time >= protected_floor() && g.time >= owner_->latest) {
          note_speculation_time(g.time);
          owner_->latest = g.time;
        }
        continue;
      }
      clock_ = std::max(clock_, g.time);
      if (owner_) owner_->latest = std::max(owner_->latest, g.time);
      execute_global_event(g);
    }
    ++processed;
  }
  return false;
}

Index Engine::attributed_particle(Index a, Index b) const {
  if (b == kNoIndex) return a;
  // Mobile particles first: their owners run their events (an
  // infinite-mass particle in the grid has no events of its own, and its
  // owner may hold neither the partner nor the event), then the rest of
  // the grid, then hubs.
  auto tier = [&](Index i) { return is_hub(i) ? 2 : particles_.state[i].mobile ? 0 : 1; };
  const int ta = tier(a), tb = tier(b);
  if (ta != tb) return ta < tb ? a : b;
  return particles_.id[b] < particles_.id[a] ? b : a;
}

bool Engine::counted_here(Index a, Index b) const {
  if (roles_.uniform() && counts_global_events_) return true;
  const Index attributed = attributed_particle(a, b);
  // Between hubs alone (which no process owns): the global-events process.
  return is_hub(attributed) ? counts_global_events_ : is_owned(attributed);
}

void Engine::execute_particle_event(Index i, const ParticleEvent& e) {
  if (e.partner != kNoIndex && !is_active(e.partner)) {
    // The distributed engine froze the partner because its certification
    // proved this pair cannot meet in the window: running it would be
    // wrong, so stop loudly.
    throw std::logic_error("synchronization error: particle " + std::to_string(particles_.id[i]) +
                           " meets frozen particle " + std::to_string(particles_.id[e.partner]) +
                           " at t = " + std::to_string(e.time));
  }
  counting_ = counted_here(i, e.partner);
  if (counting_) {
    ++stats_.events[static_cast<int>(e.kind)];
  } else {
    ++uncounted_events_;
  }
  last_event_ = {e.kind, i, e.partner};
  mark_for_prediction(i);
  EventKey key;
  if (owner_) {
    key = particle_event_key(i, e);
    collecting_outcome_ = true;
    quiet_event_ = quiet_participants(i, e.partner);
  }
  begin_event(i, e.partner);
  visit_source(ParticleSources{}, e.kind, [&](auto source) { decltype(source)::execute(*this, i, e); });
  end_event(e.time, e.kind);
  if (owner_) finish_outcome(key);
  repredict_touched();
}

void Engine::execute_global_event(const GlobalEvent& g) {
  if (g.kind == EventKind::restitution) {
    counting_ = counted_here(loaded_[g.payload].a, loaded_[g.payload].b);
    if (!counting_) ++uncounted_events_;
  } else {
    counting_ = counts_global_events_;
  }
  count(stats_.events[static_cast<int>(g.kind)]);
  // In owner-computes mode a restitution run here leaves an outcome; the
  // other global events run on every process.
  const bool outcome = owner_ && g.kind == EventKind::restitution;
  EventKey key;
  if (outcome) {
    key = global_event_key(g);
    collecting_outcome_ = true;
  }
  last_event_ = g.kind == EventKind::restitution
                    ? EventTrace{g.kind, loaded_[g.payload].a, loaded_[g.payload].b}
                    : EventTrace{g.kind, kNoIndex, kNoIndex};
  visit_source(GlobalSources{}, g.kind, [&](auto source) { decltype(source)::execute(*this, g); });
  if (outcome) finish_outcome(key);
  repredict_touched();
}

void Engine::prefetch_next_particle() {
  next_hint_ = kNoIndex;
  if (grid_.heads_in_cache()) return;
  const Index q = calendar_.likely_next();
  if (q >= particles_.size()) return;
  next_hint_ = q;
  __builtin_prefetch(&coords_[q]);
  __builtin_prefetch(&particles_.state[q]);
  __builtin_prefetch(&particles_.counter[q]);
  calendar_.prefetch_event(q);
}

void Engine::prefetch_next_neighbourhood() {
  const Index q = next_hint_;
  if (q >= particles_.size()) return;
  grid_.prefetch_around(sector(q));
  const Index partner = calendar_.stored_partner(q);
  if (partner < particles_.size()) {
    __builtin_prefetch(&coords_[partner]);
    __builtin_prefetch(&particles_.state[partner]);
  }
}

void Engine::prefetch_next_partner_neighbourhood() {
  const Index q = std::exchange(next_hint_, kNoIndex);  // a hint serves one event
  if (q >= particles_.size()) return;
  const Index partner = calendar_.stored_partner(q);  // in cache since the last stage
  if (partner < particles_.size()) grid_.prefetch_around(sector(partner));
}

void Engine::repredict_touched() {
  // Many particles at once (a tick, a group) share their pair tests.
  if (joint_prediction_ && touched_.size() >= kJointPrediction) {
    crossed_.particle = kNoIndex;
    predict_together();
    tick_clearance_.end_tick();
    return;
  }
  prefetch_next_neighbourhood();
  for (Index i : touched_) {
    touched_mark_[i] = 0;
    if (has_prediction(i)) repredict(i);
    prefetch_next_partner_neighbourhood();
  }
  touched_.clear();
  crossed_.particle = kNoIndex;
  tick_clearance_.end_tick();
}

}  // namespace tethersim::engine
