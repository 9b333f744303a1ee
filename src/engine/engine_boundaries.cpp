// The boundary source: sector crossings, periodic wraps, reflective walls
// and escapes (through an open face or the escape sphere).
#include <algorithm>

#include "event_candidates.hpp"
#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/event_sources.hpp"
#include "tethersim/physics/detection.hpp"

namespace tethersim::engine {

void Engine::BoundarySource::predict(const Engine& engine, Index i, Candidates& candidates) {
  const ParticleState& s = engine.particles_.state[i];
  const double dt_max = engine.model_.dynamics().dt_max;
  const SectorCoords sector = engine.sector(i);
  // The faces of the particle's sector ahead of it on each axis; a face of
  // the box that does not wrap is a wall or an open face.
  for (int k = 0; k < 3; ++k) {
    const double vk = s.v[k];
    if (vk == 0.0) continue;
    const bool upward = vk > 0.0;
    const std::int32_t c = sector[k];
    const double dt = (engine.grid_.face(k, upward ? c + 1 : c) - s.u0[k]) / vk;
    if (dt >= dt_max) continue;
    // Round-off can leave a particle a hair past its sector's face: cross
    // at once (never before the trajectory's own start).
    const double t = s.t0 + std::max(dt, 0.0);
    EventKind kind = EventKind::sector_crossing;
    const bool box_face = upward ? c == engine.grid_.shape()[k] - 1 : c == 0;
    if (box_face && !engine.grid_.periodic(k)) {
      kind = removes(engine.model_.domain().boundary[k]) ? EventKind::escape : EventKind::wall;
    }
    candidates.single(t, kind, static_cast<std::uint8_t>(k | (upward ? 4 : 0)));
  }
  // The escape sphere: leaving it (at once when already outside).
  const auto& sphere = engine.model_.domain().escape;
  if (sphere) {
    const Vec3 dx = s.u0 - sphere->centre;
    double t = s.t0;
    if (dx.squaredNorm() < sphere->radius * sphere->radius) {
      const double dt = physics::time_to_tethering(dx, s.v, sphere->radius, dt_max);
      t = dt == kInfinity ? kInfinity : s.t0 + dt;
    }
    candidates.single(t, EventKind::escape, 3);  // detail 3: the sphere, not a box face
  }
}

void Engine::BoundarySource::execute(Engine& engine, Index i, const ParticleEvent& e) {
  const int axis = e.detail & 3;
  const bool upward = (e.detail & 4) != 0;
  switch (e.kind) {
    case EventKind::wall: engine.reflect(i, axis, e.time); break;
    case EventKind::escape: engine.escape(i, e.time); break;
    default: engine.cross_sector(i, axis, upward, e.time); break;
  }
}

void Engine::cross_sector(Index i, int axis, bool upward, double) {
  ParticleState& s = particles_.state[i];
  note_change(i);
  SectorCoords c = sector(i);
  std::int32_t next = c[axis] + (upward ? 1 : -1);
  const std::int32_t shape = grid_.shape()[axis];
  if (next < 0 || next >= shape) {
    // Periodic wrap: the same physical trajectory, described from the
    // other side of the box (t0 and v untouched). The new u0 changes the
    // bits of later predictions with this particle, so earlier ones must
    // not survive: the counter makes them stale.
    next = (next + shape) % shape;
    s.u0[axis] += upward ? -grid_.length()[axis] : grid_.length()[axis];
    ++particles_.counter[i];
    ++particles_.stamp[i];
  }
  grid_.remove(particles_.state, i, grid_.linear(c));
  const bool interior_before = grid_.interior(c);
  c[axis] = next;
  coords_[i] = grid_.pack(c);
  grid_.insert(particles_.state, i, grid_.linear(c));
  // The trajectory is the same, so the next prediction need look only at
  // the sectors that came into reach, if what the last one saw still
  // stands (docs/engine.md, "A crossing looks ahead only"). Both sectors
  // away from every face: no wrap, no periodic image, 9 sectors ahead.
  // The calendar entry is still the crossing being run.
  if (interior_before && grid_.interior(c)) {
    const RunnerUp runner_up = calendar_.runner_up(i);
    if (runner_up_covers(runner_up, c)) {
      const bool offered_again = runner_up.state == RunnerUp::State::pair && runner_up.kind == EventKind::blocking &&
                                 in_grid(runner_up.partner);
      crossed_ = {i, axis, upward, offered_again ? runner_up.partner : kNoIndex};
    }
  }
}

void Engine::reflect(Index i, int axis, double t) {
  Group& g = scratch_a_;
  collect_group(i, g);
  note_participants(g.members);
  if (g.mass == kInfinity) return;
  Vec3 v = g.velocity;
  v[axis] = -v[axis];
  set_group_velocity(g, v, t);
}

void Engine::escape(Index i, double t) {
  force_restitute_all(i, t);
  ParticleState& s = particles_.state[i];
  note_change(i);
  if (counting_) escapes_.push_back({particles_.id[i], s.species, t, s.position(t), s.v});
  count(stats_.escapes);
  tethers_.for_each(i, [&](Index partner, std::uint32_t) {
    note_change(partner);
    tethers_.remove(partner, i);
    mark_for_prediction(partner);
  });
  tethers_.clear(i);
  grid_.remove(particles_.state, i, sector_of(i));
  s.alive = 0;
  ++particles_.counter[i];  // every event predicted with it is now stale
  ++particles_.stamp[i];
  calendar_.remove(i);
  if (has_random_impulses_) ri_time_[i] = kInfinity;
}

}  // namespace tethersim::engine
