// Sector crossings, periodic wraps, reflective walls and escapes.
#include "tethersim/engine/engine.hpp"

namespace tethersim::engine {

void Engine::cross_sector(Index i, int axis, bool upward, double) {
  ParticleState& s = particles_.state[i];
  note_change(i);
  SectorCoords& c = coords_[i];
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
  c[axis] = next;
  grid_.insert(particles_.state, i, grid_.linear(c));
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
