// Partial views of the system for distributed runs: which particles have
// events here, whose events are counted here, records of particles, and
// particles coming into and leaving this process's view.
#include <algorithm>

#include "tethersim/engine/engine.hpp"
#include "tethersim/model/pair_order.hpp"

namespace tethersim::engine {

void Engine::set_active(Index i, bool active) {
  if (!roles_.set_active(i, active)) return;
  // Frozen, a particle is no longer moved by ticks: the clearances around
  // it assumed it was. Active again it needs nothing: no walk since the
  // freeze took a clearance from it, and its own prediction below (a
  // mobile one's; no other is predicted) forgets its own.
  if (!active) forget_clearances_around(i);
  if (!particles_.state[i].alive) return;
  if (active) {
    if (particles_.state[i].mobile) repredict(i);
    loaded_.adjacency().for_each(i, [&](Index, std::uint32_t e) {
      if (!loaded_[e].scheduled && can_restitute(loaded_[e])) schedule_restitution(e);
    });
  } else {
    calendar_.remove(i);
    // Its restitutions wait until it is active again (the calendar skips
    // the entries of an older version).
    loaded_.adjacency().for_each(i, [&](Index, std::uint32_t e) {
      if (loaded_[e].scheduled) {
        ++loaded_[e].version;
        loaded_[e].scheduled = false;
      }
    });
  }
}

ParticleSnapshot Engine::particle_snapshot(Index i) const {
  const ParticleState& st = particles_.state[i];
  ParticleSnapshot p;
  p.id = particles_.id[i];
  p.species = st.species;
  p.alive = st.alive;
  p.t0 = st.t0;
  p.u0 = st.u0;
  p.v = st.v;
  p.counter = particles_.counter[i];
  p.sector = sector(i);
  if (has_random_impulses_) {
    p.ri_index = ri_index_[i];
    p.ri_time = ri_time_[i];
  }
  return p;
}

ParticleRecord Engine::record(Index i) const {
  ParticleRecord r;
  r.particle = particle_snapshot(i);
  for (const auto& phi : phi_) r.reaction_times.push_back(phi[i]);
  tethers_.for_each(i, [&](Index j, std::uint32_t) { r.tethers.push_back(particles_.id[j]); });
  std::sort(r.tethers.begin(), r.tethers.end());
  loaded_.adjacency().for_each(i, [&](Index, std::uint32_t e) {
    const LoadedEdge& edge = loaded_[e];
    r.loaded_edges.push_back(
        {particles_.id[edge.a], particles_.id[edge.b], edge.impulse, edge.time, edge.sequence});
  });
  std::sort(r.loaded_edges.begin(), r.loaded_edges.end(), by_ends);
  return r;
}

std::vector<ParticleRecord> Engine::records() const {
  std::vector<ParticleRecord> out;
  for (Index i : particles_.indices_in_id_order()) out.push_back(record(i));
  return out;
}

Index Engine::append_slot() {
  const auto i = static_cast<Index>(particles_.size());
  const std::size_t n = particles_.size() + 1;
  append_gently(particles_.state, ParticleState{});
  // At rest until a record is stored in it.
  if (moving_.size() < index_words(n)) append_gently(moving_, 0);
  drop_index(moving_, i);
  append_gently(particles_.id, 0);
  append_gently(particles_.counter, 0);
  append_gently(particles_.stamp, 0);
  append_gently(coords_, PackedSector{});
  if (has_random_impulses_) {
    append_gently(ri_index_, 0);
    append_gently(ri_time_, kInfinity);
  }
  for (auto& phi : phi_) append_gently(phi, kInfinity);
  append_gently(touched_mark_, 0);
  append_gently(visit_mark_, 0);
  tick_clearance_.append(next_tick_number());
  roles_.append();  // frozen, not owned
  changes_.append();
  if (has_tethers_) tethers_.resize_particles(n);
  if (has_loaded_edges_) loaded_.resize_particles(n);
  calendar_.resize(n);
  if (owner_) grow_owner_state(n);
  return i;
}

Index Engine::upsert(const ParticleRecord& record) {
  const Index i = place_record(record);
  const ParticleState& s = particles_.state[i];
  if (is_active(i)) {
    if (s.alive && s.mobile) {
      repredict(i);
    } else {
      calendar_.remove(i);
    }
  }
  return i;
}

Index Engine::place_record(const ParticleRecord& record) {
  const ParticleSnapshot& p = record.particle;
  Index i = particles_.index_of(p.id);
  if (i == kNoIndex) {
    i = append_slot();
    particles_.id[i] = p.id;
    particles_.add_id(p.id, i);
  } else if (in_grid(i)) {
    grid_.remove(particles_.state, i, sector_of(i));
  }
  store_particle(i, p);
  for (std::size_t r = 0; r < phi_.size(); ++r) {
    phi_[r][i] = r < record.reaction_times.size() ? record.reaction_times[r] : kInfinity;
  }
  roles_.mark_held(i);
  if (in_grid(i)) grid_.insert(particles_.state, i, sector_of(i));
  // A particle that left has none; an absent one keeps its links
  // (engine_window_links.cpp).
  const bool linked = linkable(i);
  sync_tethers(i, linked ? record.tethers : std::vector<ParticleId>{});
  sync_loaded_edges(i, linked ? record.loaded_edges : std::vector<LoadedEdgeSnapshot>{});
  return i;
}

void Engine::sync_tethers(Index i, const std::vector<ParticleId>& partners) {
  if (!has_tethers_) return;
  std::vector<Index> want;
  for (ParticleId id : partners) {
    const Index j = particles_.index_of(id);
    if (j != kNoIndex && linkable(j)) want.push_back(j);
  }
  std::vector<Index> have;
  tethers_.for_each(i, [&](Index j, std::uint32_t) { have.push_back(j); });
  auto changed_partner = [&](Index j) {
    if (is_active(j) && particles_.state[j].mobile) repredict(j);
  };
  for (Index j : have) {
    if (std::find(want.begin(), want.end(), j) != want.end()) continue;
    tethers_.remove(i, j);
    tethers_.remove(j, i);
    changed_partner(j);
  }
  for (Index j : want) {
    if (std::find(have.begin(), have.end(), j) != have.end()) continue;
    tethers_.add(i, j);
    tethers_.add(j, i);
    changed_partner(j);
  }
}

void Engine::sync_loaded_edges(Index i, const std::vector<LoadedEdgeSnapshot>& edges) {
  if (!has_loaded_edges_) return;
  const ParticleId self = particles_.id[i];
  auto partner_of = [&](const LoadedEdgeSnapshot& e) { return e.a == self ? e.b : e.a; };
  std::vector<EdgeIndex> gone;
  loaded_.adjacency().for_each(i, [&](Index j, std::uint32_t e) {
    const ParticleId other = particles_.id[j];
    const bool kept = std::any_of(edges.begin(), edges.end(),
                                  [&](const LoadedEdgeSnapshot& x) { return partner_of(x) == other; });
    if (!kept) gone.push_back(e);
  });
  for (EdgeIndex e : gone) loaded_.remove(e);
  for (const LoadedEdgeSnapshot& x : edges) {
    const Index j = particles_.index_of(partner_of(x));
    if (j == kNoIndex || !linkable(j)) continue;
    EdgeIndex e = loaded_.adjacency().payload(i, j);
    if (e == kNoIndex) {
      e = loaded_.add(particles_.index_of(x.a), particles_.index_of(x.b), x.impulse, x.sequence);
      loaded_[e].time = x.time;
    } else if (!(loaded_[e].impulse == x.impulse) || loaded_[e].time != x.time ||
               loaded_[e].sequence != x.sequence) {
      loaded_[e].impulse = x.impulse;
      loaded_[e].time = x.time;
      loaded_[e].sequence = x.sequence;
      ++loaded_[e].version;
      loaded_[e].scheduled = false;
    }
    if (!loaded_[e].scheduled && can_restitute(loaded_[e])) schedule_restitution(e);
  }
}

void Engine::remove(Index i) {
  ParticleState& s = particles_.state[i];
  if (in_grid(i)) grid_.remove(particles_.state, i, sector_of(i));
  calendar_.remove(i);
  if (has_tethers_) {
    tethers_.for_each(i, [&](Index j, std::uint32_t) { tethers_.remove(j, i); });
    tethers_.clear(i);
  }
  if (has_loaded_edges_) {
    std::vector<EdgeIndex> edges;
    loaded_.adjacency().for_each(i, [&](Index, std::uint32_t e) { edges.push_back(e); });
    for (EdgeIndex e : edges) loaded_.remove(e);
  }
  s.alive = 0;
  ++particles_.counter[i];  // predictions made with it are stale
  ++particles_.stamp[i];
  if (has_random_impulses_) ri_time_[i] = kInfinity;
  roles_.mark_removed(i);
  particles_.remove_id(particles_.id[i]);
}

}  // namespace tethersim::engine
