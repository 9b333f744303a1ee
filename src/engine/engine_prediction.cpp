// Predicting each particle's next event and ordering events exactly.
#include <cmath>

#include "tethersim/engine/engine.hpp"
#include "tethersim/physics/counter_rng.hpp"
#include "tethersim/physics/detection.hpp"

namespace tethersim::engine {

void Engine::repredict(Index i) {
  ++stats_.predictions;
  calendar_.set(i, predict(i));
}

Vec3 Engine::image(Index a, Index b, const Vec3& dx) const {
  if (!in_grid(a) || !in_grid(b)) {
    return grid_.nearest_image_shift(dx);
  }
  return grid_.image_shift(coords_[a], coords_[b], dx);
}

Vec3 Engine::separation(Index a, Index b, double t) const {
  const Vec3 dx = particles_.state[b].position(t) - particles_.state[a].position(t);
  return dx + image(a, b, dx);
}

// The time of a pair event, a pure function of the two stored trajectories
// (and sectors), evaluated at the later of the two re-basing times whoever
// asks and whenever. The pair's order does not matter: swapping it negates
// dx and dv exactly (IEEE subtraction, negation and the image shift are
// exactly antisymmetric), and a, b and c of the quadratic are products of
// two such negations, so they come out bit for bit the same.
double Engine::pair_time(Index i, Index j, const Vec3& shift, double distance,
                         EventKind kind) const {
  ++stats_.pair_tests;
  const ParticleState& sa = particles_.state[i];
  const ParticleState& sb = particles_.state[j];
  const double t_ref = std::max(sa.t0, sb.t0);
  const Vec3 dx = (sb.position(t_ref) - sa.position(t_ref)) + shift;
  const Vec3 dv = sb.v - sa.v;
  const double dt_max = model_.dynamics().dt_max;
  const double dt = kind == EventKind::blocking
                        ? physics::time_to_blocking(dx, dv, distance, dt_max)
                        : physics::time_to_tethering(dx, dv, distance, dt_max);
  return dt == kInfinity ? kInfinity : t_ref + dt;
}

std::uint64_t Engine::tie_key(Index owner, const ParticleEvent& e) const {
  const std::uint64_t kind = (static_cast<std::uint64_t>(e.kind) << 8) | e.detail;
  const std::uint64_t stream = static_cast<std::uint64_t>(physics::RandomStream::event_order);
  if (e.partner == kNoIndex) {
    return physics::mix_hash(seed_, stream, kind, particles_.id[owner], ~0ULL, e.counter);
  }
  std::uint64_t id_a = particles_.id[owner], id_b = particles_.id[e.partner];
  std::uint64_t count_a = e.counter, count_b = e.partner_counter;
  if (id_a > id_b) {
    std::swap(id_a, id_b);
    std::swap(count_a, count_b);
  }
  return physics::mix_hash(seed_, stream, kind, id_a, id_b, (count_a << 32) | count_b);
}

bool Engine::event_precedes(Index owner_a, const ParticleEvent& a, Index owner_b,
                            const ParticleEvent& b) const {
  if (a.time != b.time) return a.time < b.time;
  if (priority(a.kind) != priority(b.kind)) return priority(a.kind) < priority(b.kind);
  const std::uint64_t ka = tie_key(owner_a, a), kb = tie_key(owner_b, b);
  if (ka != kb) return ka < kb;
  // Identical keys (the same pair event seen from both sides, or a 2^-64
  // coincidence): fall back on the identity itself.
  if (a.kind != b.kind) return a.kind < b.kind;
  if (a.detail != b.detail) return a.detail < b.detail;
  auto lower = [&](Index owner, const ParticleEvent& e) {
    const ParticleId x = particles_.id[owner];
    return e.partner == kNoIndex ? x : std::min(x, particles_.id[e.partner]);
  };
  return lower(owner_a, a) < lower(owner_b, b);
}

void Engine::crossing_times(Index i, ParticleEvent& best) const {
  const ParticleState& s = particles_.state[i];
  const double dt_max = model_.dynamics().dt_max;
  for (int k = 0; k < 3; ++k) {
    const double vk = s.v[k];
    if (vk == 0.0) continue;
    const bool upward = vk > 0.0;
    const std::int32_t c = coords_[i][k];
    const double dt = (grid_.face(k, upward ? c + 1 : c) - s.u0[k]) / vk;
    if (dt >= dt_max) continue;
    // Round-off can leave a particle a hair past its sector's face: cross
    // at once (never before the trajectory's own start).
    const double t = s.t0 + std::max(dt, 0.0);
    ParticleEvent e;
    e.counter = particles_.counter[i];
    e.time = t;
    e.kind = EventKind::sector_crossing;
    e.detail = static_cast<std::uint8_t>(k | (upward ? 4 : 0));
    const bool box_face = upward ? c == grid_.shape()[k] - 1 : c == 0;
    if (box_face && !grid_.periodic(k)) {
      e.kind = removes(model_.domain().boundary[k]) ? EventKind::escape : EventKind::wall;
    }
    if (t < best.time || (t == best.time && event_precedes(i, e, i, best))) best = e;
  }
}

double Engine::escape_time(Index i) const {
  const auto& sphere = model_.domain().escape;
  if (!sphere) return kInfinity;
  const ParticleState& s = particles_.state[i];
  const Vec3 dx = s.u0 - sphere->centre;
  if (dx.squaredNorm() >= sphere->radius * sphere->radius) return s.t0;
  const double dt = physics::time_to_tethering(dx, s.v, sphere->radius, model_.dynamics().dt_max);
  return dt == kInfinity ? kInfinity : s.t0 + dt;
}

ParticleEvent Engine::predict(Index i) const {
  // Every candidate carries the owner's counter (its tie key's).
  ParticleEvent blank;
  blank.counter = particles_.counter[i];
  ParticleEvent best = blank;
  // The winner's partner counter is read once at the end; on an exact tie
  // (which needs the counters for the tie keys) it is read on the spot.
  bool best_counter_read = true;
  auto read_best_counter = [&] {
    if (!best_counter_read) {
      best.partner_counter = particles_.counter[best.partner];
      best.partner_stamp = particles_.stamp[best.partner];
      best_counter_read = true;
    }
  };
  auto consider = [&](const ParticleEvent& e) {
    if (e.time < best.time) {
      best = e;
      best_counter_read = true;
    } else if (e.time == best.time && e.time != kInfinity) {
      read_best_counter();
      if (event_precedes(i, e, i, best)) best = e;
    }
  };
  auto pair_event = [&](Index j, const Vec3& shift, double distance, EventKind kind) {
    const double t = pair_time(i, j, shift, distance, kind);
    if (t > best.time || t == kInfinity) return;
    ParticleEvent e = blank;
    e.time = t;
    e.partner = j;
    e.kind = kind;
    if (t < best.time) {
      best = e;
      best_counter_read = false;
      return;
    }
    e.partner_counter = particles_.counter[j];
    e.partner_stamp = particles_.stamp[j];
    consider(e);
  };
  const ParticleState& s = particles_.state[i];

  if (has_random_impulses_ && ri_time_[i] != kInfinity) {
    ParticleEvent e = blank;
    e.time = ri_time_[i];
    e.kind = EventKind::random_impulse;
    consider(e);
  }
  crossing_times(i, best);
  if (model_.domain().escape) {
    ParticleEvent e = blank;
    e.time = escape_time(i);
    e.kind = EventKind::escape;
    e.detail = 3;  // the escape sphere, not a box face
    consider(e);
  }

  // Blocking candidates from the 27 sectors around, gathered in waves with
  // prefetches: walking the lists directly chains one memory miss after the
  // other behind unpredictable branches, while waves let them overlap.
  const PairTable& pairs = model_.pairs();
  std::array<std::uint32_t, 27> sectors;
  std::array<Vec3, 27> shifts;
  const int sector_count = grid_.neighbourhood(coords_[i], sectors, shifts);
  for (int k = 0; k < sector_count; ++k) grid_.prefetch(sectors[k]);
  struct Candidate {
    Index particle;
    int sector;  // slot in sectors/shifts
  };
  std::array<Candidate, 27> heads;
  int head_count = 0;
  for (int k = 0; k < sector_count; ++k) {
    const Index j = grid_.first(sectors[k]);
    if (j == kNoIndex) continue;
    __builtin_prefetch(&particles_.state[j]);
    heads[head_count++] = {j, k};
  }
  std::array<Candidate, 64> found;
  std::size_t candidates = 0;
  auto test_found = [&] {
    for (std::size_t c = 0; c < candidates; ++c) {
      const Index j = found[c].particle;
      if (j == i) continue;
      const double blocking = pairs(s.species, particles_.state[j].species).blocking;
      if (blocking > 0.0) pair_event(j, shifts[found[c].sector], blocking, EventKind::blocking);
    }
    candidates = 0;
  };
  for (int h = 0; h < head_count; ++h) {
    for (Index j = heads[h].particle; j != kNoIndex; j = particles_.state[j].next_in_sector) {
      if (candidates == found.size()) test_found();
      found[candidates++] = {j, heads[h].sector};
      const Index next = particles_.state[j].next_in_sector;
      if (next != kNoIndex) __builtin_prefetch(&particles_.state[next]);
    }
  }
  test_found();
  // Hubs and tether partners are not found through sectors: their image
  // comes from the coordinates (or, for hubs, the minimum image).
  auto image_of = [&](Index j) {
    const ParticleState& sj = particles_.state[j];
    const double t_ref = std::max(s.t0, sj.t0);
    return image(i, j, sj.position(t_ref) - s.position(t_ref));
  };
  for (Index h : hubs_for_[s.species]) {
    pair_event(h, image_of(h), pairs(s.species, particles_.state[h].species).blocking,
               EventKind::blocking);
  }
  // Tethering candidates: the tether network (docs/physics.md, "Event detection").
  tethers_.for_each(i, [&](Index j, std::uint32_t) {
    const double tethering = pairs(s.species, particles_.state[j].species).tethering;
    if (tethering < kInfinity) pair_event(j, image_of(j), tethering, EventKind::tethering);
  });
  read_best_counter();
  return best;
}

}  // namespace tethersim::engine
