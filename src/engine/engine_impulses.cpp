// The sources of random impulses, periodic external impulses and action
// potentials.
#include <algorithm>
#include <stdexcept>

#include "event_candidates.hpp"
#include "stale_entries.hpp"
#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/event_sources.hpp"
#include "tethersim/model/periodic_impulse_kinds.hpp"
#include "tethersim/physics/action_potential.hpp"
#include "tethersim/physics/counter_rng.hpp"
#include "tethersim/physics/loading.hpp"
#include "tethersim/physics/random_impulse.hpp"

namespace tethersim::engine {

void Engine::RandomImpulseSource::predict(const Engine& engine, Index i, Candidates& candidates) {
  if (engine.has_random_impulses_ && engine.ri_time_[i] != kInfinity) {
    candidates.single(engine.ri_time_[i], EventKind::random_impulse);
  }
}

void Engine::RandomImpulseSource::execute(Engine& engine, Index i, const ParticleEvent& e) {
  engine.random_impulse(i, e.time);
}

void Engine::PeriodicImpulseSource::execute(Engine& engine, const GlobalEvent& g) {
  engine.periodic_impulse(g.payload, g.time);
}

void Engine::ActionPotentialSource::execute(Engine& engine, const GlobalEvent& g) {
  engine.action_potential_transition(g.payload, g.time);
}

void Engine::apply_impulse(Index i, const Vec3& dp, double t) {
  Group& g = scratch_a_;
  collect_group(i, g);
  note_participants(g.members);
  if (g.mass == kInfinity) return;  // absorbed by an infinite mass
  set_group_velocity(g, physics::impact_velocity(g.velocity, dp, g.mass), t);
}

void Engine::random_impulse(Index i, double t) {
  const auto& spec = model_.species(particles_.state[i].species).random_impulse;
  const ParticleId id = particles_.id[i];
  const std::uint64_t n = ri_index_[i];
  note_change(i);
  apply_impulse(i, physics::draw_random_impulse(seed_, id, n, spec, model_.dimensions()).dp, t);
  ri_index_[i] = n + 1;
  ri_time_[i] += physics::draw_random_gap(seed_, id, n + 1, spec);
}

namespace {
// start + tick * interval, not a running sum: no drift over long runs.
double tick_time(const PeriodicImpulse& p, std::uint64_t tick) {
  return p.start + static_cast<double>(tick) * p.interval;
}
}  // namespace

double Engine::next_tick_time() const {
  double next = kInfinity;
  for (std::size_t k = 0; k < periodic_tick_.size(); ++k) {
    next = std::min(next, tick_time(model_.periodic_impulses()[k], periodic_tick_[k]));
  }
  return next;
}

bool Engine::ticks_come_first(double t) {
  if (speculation_) throw std::logic_error("ticks between windows run outside them");
  // Entries before t that no longer hold are predicted again, as run_until
  // would; one that holds is an event the tick must wait for.
  while (!calendar_.empty() && calendar_.top_time() < t) {
    const Index i = calendar_.top();
    if (!renew_if_stale(i, calendar_.event(i))) return false;
  }
  drop_stale_globals();
  // Global events precede particle events at one time, so a tick at the
  // top of the global calendar is the next event in the serial order.
  return !global_.empty() && global_.top().time == t && global_.top().kind == EventKind::periodic_impulse;
}

std::size_t Engine::run_ticks_at(double t) {
  std::size_t ran = 0;
  while (ticks_come_first(t)) {
    const GlobalEvent g = global_.top();
    global_.pop();
    clock_ = std::max(clock_, g.time);
    execute_global_event(g);
    ++ran;
  }
  return ran;
}

void Engine::schedule_periodic(std::uint32_t which, std::uint64_t tick) {
  const PeriodicImpulse& p = model_.periodic_impulses()[which];
  periodic_tick_[which] = tick;
  GlobalEvent e;
  e.time = tick_time(p, tick);
  e.kind = EventKind::periodic_impulse;
  e.tie_minor = physics::mix_hash(seed_, static_cast<std::uint64_t>(EventKind::periodic_impulse),
                                  which, tick);
  e.payload = which;
  global_.push(e);
}

void Engine::periodic_impulse(std::uint32_t which, double t) {
  const PeriodicImpulse& p = model_.periodic_impulses()[which];
  const std::uint64_t tick = periodic_tick_[which];
  auto impulse_on = [&](Index i, const Vec3& v) -> Vec3 {
    return periodic_impulse_on(p, model_.species(particles_.state[i].species), v);
  };
  // All impulses of a tick happen at one instant. A lone particle's impulse
  // concerns it alone; the members of a loaded group receive theirs in the
  // order of a hash of (seed, tick, id), unbiased and the same everywhere.
  std::vector<Index> order;
  for (Index i = 0; i < particles_.size(); ++i) {
    const ParticleState& s = particles_.state[i];
    if (!s.alive || !s.mobile || !is_active(i) || !p.applies_to[s.species] || visit_mark_[i] == 2) {
      continue;
    }
    // Each lone particle and each group is an event of its own for the
    // histories of speculative windows.
    begin_event(i, kNoIndex);
    if (loaded_.adjacency().empty(i)) {
      set_velocity(i, s.v + impulse_on(i, s.v) / mass_[s.species], t);
      end_event(t, EventKind::periodic_impulse);
      continue;
    }
    Group& g = scratch_a_;
    collect_group(i, g);
    note_participants(g.members);
    for (Index m : g.members) visit_mark_[m] = 2;
    // A group the tick does not move by g dt (held by an infinite mass,
    // or with members it does not apply to) changes its pairs' relative
    // motion: its members are walked (tick_clearance.hpp).
    if (g.mass == kInfinity) {
      if (tick_clearance_.on()) {
        for (Index m : g.members) walk_at_tick(m);
      }
      end_event(t, EventKind::periodic_impulse);
      continue;
    }
    order.clear();
    for (Index m : g.members) {
      if (p.applies_to[particles_.state[m].species]) order.push_back(m);
    }
    const bool by_g_dt = order.size() == g.members.size();
    auto key = [&](Index m) {
      return physics::mix_hash(seed_, static_cast<std::uint64_t>(EventKind::periodic_impulse),
                               which, tick, particles_.id[m]);
    };
    std::sort(order.begin(), order.end(), [&](Index x, Index y) { return key(x) < key(y); });
    Vec3 v = g.velocity;
    for (Index m : order) v = physics::impact_velocity(v, impulse_on(m, v), g.mass);
    set_group_velocity(g, v, t);
    if (!by_g_dt && tick_clearance_.on()) {
      for (Index m : g.members) walk_at_tick(m);
    }
    end_event(t, EventKind::periodic_impulse);
  }
  for (Index i = 0; i < particles_.size(); ++i) {
    if (visit_mark_[i] == 2) visit_mark_[i] = 0;
  }
  schedule_periodic(which, tick + 1);
  // The predictions after the tick may skip the walk for particles whose
  // clearance reaches the next one.
  if (tick_clearance_.on()) tick_clearance_.begin_tick(tick + 1);
}

void Engine::action_potential_transition(std::uint32_t which, double t) {
  const ActionPotentials& ap = model_.action_potentials();
  const std::uint32_t window = which / 2;
  if (which % 2 == 1) {
    active_window_ = -1;
    return;
  }
  active_window_ = static_cast<int>(window);
  save_reaction_times();
  // The compartment and zone centres are the positions of the single
  // membrane and zone particles.
  physics::ActiveZone zone{Vec3::Zero(), Vec3::Zero(), ap.zone_radius};
  for (Index h = 0; h < particles_.size(); ++h) {
    if (particles_.state[h].species == ap.membrane) zone.membrane_centre = particles_.state[h].u0;
    if (particles_.state[h].species == ap.zone) zone.zone_centre = particles_.state[h].u0;
  }
  for (std::size_t r = 0; r < ap.reactions.size(); ++r) {
    const Reaction& reaction = ap.reactions[r];
    std::vector<double>& phi = phi_[r];
    for (Index i = 0; i < particles_.size(); ++i) {
      const ParticleState& s = particles_.state[i];
      if (!s.alive || s.species != reaction.subject) {
        phi[i] = kInfinity;
        continue;
      }
      const double tau = physics::reaction_mean_time(reaction.mean_time, ap.gradient, zone, s.position(t));
      phi[i] = physics::draw_reaction_time(seed_, particles_.id[i], window, r, t, tau);
      // A subject's new reaction time is an event of its own for the
      // histories of speculative windows.
      begin_event(i, kNoIndex);
      end_event(t, EventKind::action_potential);
    }
  }
}

}  // namespace tethersim::engine
