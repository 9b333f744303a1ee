// Collisions, loading and the restitution source (docs/physics.md: "Collision impulses",
// "Loading and restitution", "Tethers forming and breaking").
#include <algorithm>

#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/event_sources.hpp"
#include "tethersim/physics/collision_impulse.hpp"
#include "tethersim/physics/counter_rng.hpp"
#include "tethersim/physics/loading.hpp"

namespace tethersim::engine {

void Engine::set_velocity(Index i, const Vec3& v, double t) {
  note_change(i);
  ParticleState& s = particles_.state[i];
  s.u0 = s.position(t);
  s.t0 = t;
  s.v = v;
  note_velocity(i);
  ++particles_.counter[i];
  ++particles_.stamp[i];
  mark_for_prediction(i);
}

void Engine::set_group_velocity(const Group& g, const Vec3& v, double t) {
  for (Index m : g.members) set_velocity(m, v, t);
}

// The loaded group of `start`: its finite-mass members (in id order), its
// mass summed in id order, infinite when it holds an edge to an
// infinite-mass particle. Infinite-mass particles split groups: the walk
// never passes through them (docs/physics.md, "Infinite masses split groups").
void Engine::collect_group(Index start, Group& group, EdgeIndex skip_edge) const {
  group.members.clear();
  group.velocity = particles_.state[start].v;
  if (!particles_.state[start].mobile) {
    group.mass = kInfinity;
    return;
  }
  bool anchored = false;
  scratch_stack_.clear();
  scratch_stack_.push_back(start);
  visit_mark_[start] = 1;
  while (!scratch_stack_.empty()) {
    const Index m = scratch_stack_.back();
    scratch_stack_.pop_back();
    group.members.push_back(m);
    loaded_.adjacency().for_each(m, [&](Index partner, std::uint32_t edge) {
      if (edge == skip_edge) return;
      if (!particles_.state[partner].mobile) {
        anchored = true;
        return;
      }
      if (!visit_mark_[partner]) {
        visit_mark_[partner] = 1;
        scratch_stack_.push_back(partner);
      }
    });
  }
  for (Index m : group.members) visit_mark_[m] = 0;
  std::sort(group.members.begin(), group.members.end(),
            [&](Index a, Index b) { return particles_.id[a] < particles_.id[b]; });
  if (anchored) {
    group.mass = kInfinity;
    return;
  }
  group.mass = 0.0;
  for (Index m : group.members) group.mass += mass_[particles_.state[m].species];
}

void Engine::collide(Index i, Index j, EventKind kind, double t) {
  Index a = i, b = j;
  if (particles_.id[a] > particles_.id[b]) std::swap(a, b);
  mark_for_prediction(a);
  mark_for_prediction(b);
  const PairParameters& pp = model_.pair(particles_.state[a].species, particles_.state[b].species);
  const bool tethered = tethers_.contains(a, b);
  if (kind == EventKind::tethering) {
    if (!tethered) return;  // detached since the prediction
    int rule = -1;
    if (should_detach(a, b, t, rule)) {
      detach(a, b, rule, t);  // the pair parts with no impulse
      return;
    }
  } else if (!tethered && should_attach(a, b, t)) {
    note_change(a);
    note_change(b);
    tethers_.add(a, b);
    tethers_.add(b, a);
    count(stats_.attachments);
  }

  Group& ga = scratch_a_;
  Group& gb = scratch_b_;
  collect_group(a, ga);
  collect_group(b, gb);
  note_participants(ga.members);
  note_participants(gb.members);
  const physics::PairKinematics pair{separation(a, b, t), ga.velocity, gb.velocity, ga.mass,
                                     gb.mass};
  const Dynamics& dyn = model_.dynamics();
  auto last_change = [&](Index p) {
    return particles_.state[p].mobile ? particles_.state[p].t0 : -kInfinity;
  };
  const bool elastic = physics::elastic_by_tc(t, last_change(a), last_change(b), dyn.tc_elastic_time);
  const physics::CollisionImpulse impulse =
      kind == EventKind::blocking
          ? physics::rebound_impulse(pair, elastic ? 1.0 : pp.c_rebound)
          : physics::tether_impulse(pair, elastic ? 1.0 : pp.c_retract,
                                    elastic ? 1.0 : pp.c_revolve, dyn.theta_revolve);
  count(stats_.responses[static_cast<int>(impulse.response)]);
  if (impulse.response == physics::CollisionResponse::none) return;

  const bool capped =
      dyn.max_group_size > 0 && ga.members.size() + gb.members.size() > dyn.max_group_size;
  if (dyn.restitution_delay == 0.0 || capped) {
    count(stats_.instantaneous);
    if (capped) count(stats_.capped_loadings);
    if (ga.mass != kInfinity) {
      set_group_velocity(ga, physics::velocity_after_impulse_a(ga.velocity, impulse.dp, ga.mass), t);
    }
    if (gb.mass != kInfinity) {
      set_group_velocity(gb, physics::velocity_after_impulse_b(gb.velocity, impulse.dp, gb.mass), t);
    }
    return;
  }
  load(a, b, ga, gb, impulse.dp, t);
}

void Engine::load(Index a, Index b, const Group& ga, const Group& gb, const Vec3& dp, double t) {
  count(stats_.loadings);
  note_change(a);
  note_change(b);
  const Vec3 v_load = physics::load_velocity(ga.velocity, gb.velocity, ga.mass, gb.mass);
  const Vec3 p_ab = physics::restitution_impulse(dp, ga.velocity, gb.velocity, ga.mass, gb.mass);

  // The other edges of the merged group (the walk stops at infinite masses,
  // so a hub's edges to other groups are never read).
  std::uint64_t max_sequence = 0;
  double earliest = kInfinity;
  std::vector<EdgeIndex>& group_edges = scratch_edges_;
  group_edges.clear();
  for (const Group* g : {&ga, &gb}) {
    for (Index m : g->members) {
      loaded_.adjacency().for_each(m, [&](Index partner, std::uint32_t e) {
        // Count each edge once: from its lower-index end, or from the member
        // side when the partner has infinite mass.
        if (particles_.state[partner].mobile && partner < m) return;
        group_edges.push_back(e);
        max_sequence = std::max(max_sequence, loaded_[e].sequence);
        earliest = std::min(earliest, loaded_[e].time);
      });
    }
  }
  const EdgeIndex edge = loaded_.add(a, b, p_ab, max_sequence + 1);
  const Dynamics& dyn = model_.dynamics();
  if (dyn.schedule == RestitutionSchedule::max) {
    loaded_[edge].time =
        physics::restitution_time_max_schedule(t, dyn.restitution_delay, earliest);
  } else {
    // The thesis's "min" scheme (docs/physics.md, "Restitution schedules"):
    // every edge of the merged group waits the full
    // delay from now (last in, first out by sequence at equal times).
    const double time = physics::restitution_time_min_schedule(t, dyn.restitution_delay);
    for (EdgeIndex e : group_edges) {
      note_change(loaded_[e].a);
      note_change(loaded_[e].b);
      loaded_[e].time = time;
      ++loaded_[e].version;
      schedule_restitution(e);
    }
    loaded_[edge].time = time;
  }
  schedule_restitution(edge);

  // A group of infinite mass keeps its velocity, which is then v_load.
  if (ga.mass != kInfinity) set_group_velocity(ga, v_load, t);
  if (gb.mass != kInfinity) set_group_velocity(gb, v_load, t);
  // Like every count, only where the event is counted: a process that ran
  // a particle it does not own may have run it wrongly (a speculative
  // window's halo), and keeps its owner's result instead.
  if (counting_) {
    stats_.largest_group = std::max<std::uint64_t>(stats_.largest_group, ga.members.size() + gb.members.size());
  }
}

void Engine::schedule_restitution(EdgeIndex e) {
  const LoadedEdge& edge = loaded_[e];
  GlobalEvent g;
  g.time = edge.time;
  g.kind = EventKind::restitution;
  g.tie_major = ~edge.sequence;  // later loadings restitute first
  g.tie_minor = physics::mix_hash(seed_, static_cast<std::uint64_t>(EventKind::restitution),
                                  particles_.id[edge.a], particles_.id[edge.b], edge.sequence);
  g.payload = e;
  g.version = edge.version;
  global_.push(g);
  loaded_[e].scheduled = true;
}

bool Engine::can_restitute(const LoadedEdge& edge) const {
  auto ready = [&](Index i) { return is_active(i) || !particles_.state[i].mobile; };
  return ready(edge.a) && ready(edge.b);
}

void Engine::RestitutionSource::execute(Engine& engine, const GlobalEvent& g) {
  const LoadedEdge& edge = engine.loaded_[g.payload];
  engine.begin_event(edge.a, edge.b);
  engine.restitute(g.payload, g.time);
  engine.end_event(g.time, g.kind);
}

void Engine::restitute(EdgeIndex e, double t) {
  const LoadedEdge edge = loaded_[e];
  const Index a = edge.a, b = edge.b;
  const Vec3 v_group = particles_.state[a].mobile ? particles_.state[a].v : particles_.state[b].v;
  note_change(a);
  note_change(b);
  loaded_.remove(e);
  Group& ga = scratch_a_;
  Group& gb = scratch_b_;
  collect_group(a, ga);
  collect_group(b, gb);
  note_participants(ga.members);
  note_participants(gb.members);
  const physics::BranchVelocities after =
      physics::restitution_velocities(v_group, edge.impulse, ga.mass, gb.mass);
  if (ga.mass != kInfinity) set_group_velocity(ga, after.a, t);
  if (gb.mass != kInfinity) set_group_velocity(gb, after.b, t);
  mark_for_prediction(a);
  mark_for_prediction(b);
}

// Restitutes every loaded edge of i at once, latest loading first (a
// particle leaving the simulation cannot stay loaded).
void Engine::force_restitute_all(Index i, double t) {
  for (;;) {
    EdgeIndex latest = kNoIndex;
    loaded_.adjacency().for_each(i, [&](Index, std::uint32_t e) {
      if (latest == kNoIndex || loaded_[e].sequence > loaded_[latest].sequence) latest = e;
    });
    if (latest == kNoIndex) return;
    count(stats_.events[static_cast<int>(EventKind::restitution)]);
    restitute(latest, t);
  }
}

}  // namespace tethersim::engine
