// Predicting each particle's next event (every source offers its
// candidates) and ordering events exactly.
#include <algorithm>
#include <array>
#include <cmath>
#include <type_traits>

#include "event_candidates.hpp"
#include "owner_computes_state.hpp"
#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/event_sources.hpp"
#include "tethersim/physics/counter_rng.hpp"
#include "tethersim/physics/detection.hpp"

namespace tethersim::engine {

void Engine::repredict(Index i) {
  if (owner_ && owner_->holds.held(i)) {
    calendar_.remove(i);  // held until a new version of a participant comes
    return;
  }
  ++stats_.predictions;
  Candidates candidates(*this, i);
  const bool ahead = crossed_.particle == i;
  const bool clearing = wants_clearance(i, ahead);
  if (clearing) candidates.want_clearance();
  if (ahead) {
    offer_after_crossing(candidates, crossed_);
    crossed_.particle = kNoIndex;
  } else {
    offer_all(candidates);
  }
  const ParticleEvent& best = candidates.best();
  calendar_.set(i, best, candidates.runner_up());
  note_clearance(i, candidates, clearing, ahead);
}

bool Engine::wants_clearance(Index i, bool ahead) const {
  if (!tick_clearance_.on() || !in_grid(i)) return false;
  // Walks at a tick and at the start note it; a crossing's look-ahead only
  // keeps one the particle holds. Other walks (an event's) forget it: the
  // particle walks at the next tick, where most of them had nothing to
  // skip anyway, and noting it in every walk of a busy membrane cost more
  // than the ticks saved.
  if (ahead) return tick_clearance_.holds(i, next_tick_number());
  return tick_clearance_.in_tick() || tick_clearance_.at_start();
}

void Engine::note_clearance(Index i, const Candidates& candidates, bool clearing, bool ahead) {
  if (!tick_clearance_.on() || !in_grid(i)) return;
  if (clearing) {
    if (ahead) {
      tick_clearance_.narrow(i, candidates.clearance(), next_tick_number());
    } else {
      tick_clearance_.keep(i, candidates.clearance(), next_tick_number());
    }
  } else if (!ahead) {
    tick_clearance_.forget(i, next_tick_number());
  }
}

void Engine::forget_clearances_around(Index i) {
  if (!tick_clearance_.on()) return;
  const std::uint64_t next_tick = next_tick_number();
  tick_clearance_.forget(i, next_tick);
  if (!in_grid(i)) return;
  std::array<std::uint32_t, 27> sectors;
  std::array<Vec3, 27> shifts;
  const int count = grid_.neighbourhood(sector(i), sectors, shifts);
  for (int k = 0; k < count; ++k) {
    for (Index j = grid_.first(sectors[static_cast<std::size_t>(k)]); j != kNoIndex;
         j = particles_.state[j].next_in_sector) {
      tick_clearance_.forget(j, next_tick);
    }
  }
}

Vec3 Engine::image(Index a, Index b, const Vec3& dx) const {
  if (!in_grid(a) || !in_grid(b)) {
    return grid_.nearest_image_shift(dx);
  }
  return grid_.image_shift(sector(a), sector(b), dx);
}

Vec3 Engine::separation(Index a, Index b, double t) const {
  const Vec3 dx = particles_.state[b].position(t) - particles_.state[a].position(t);
  return dx + image(a, b, dx);
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

namespace {

constexpr int kPriorityBits = 5;
constexpr bool priorities_fit() {
  for (std::size_t k = 0; k <= kEventKindCount; ++k) {
    if (priority(static_cast<EventKind>(k)) >= (1 << kPriorityBits)) return false;
  }
  return true;
}
static_assert(priorities_fit());

}  // namespace

std::uint32_t Engine::order_prefix(Index owner, const ParticleEvent& e) const {
  // Top bit set (a computed prefix is never 0), then the priority, then the
  // tie key's top bits: the order of event_precedes at one instant, cut
  // short. Equal prefixes are decided by event_precedes itself.
  constexpr int kTieBits = 31 - kPriorityBits;
  return (std::uint32_t{1} << 31) | static_cast<std::uint32_t>(priority(e.kind)) << kTieBits |
         static_cast<std::uint32_t>(tie_key(owner, e) >> (64 - kTieBits));
}

bool Engine::event_precedes(Index owner_a, const ParticleEvent& a, Index owner_b,
                            const ParticleEvent& b) const {
  if (a.time != b.time) return a.time < b.time;
  if (priority(a.kind) != priority(b.kind)) return priority(a.kind) < priority(b.kind);
  // Equal time and priority (rare): the whole key, the one another process
  // computes for the same event (owner-computes mode compares those).
  return particle_event_key(owner_a, a) < particle_event_key(owner_b, b);
}

EventKey Engine::particle_event_key(Index i, const ParticleEvent& e) const {
  EventKey key;
  key.time = e.time;
  key.priority = priority(e.kind);
  key.tie = tie_key(i, e);
  // Identical tie keys (the same pair event seen from both sides, or a
  // 2^-64 coincidence) fall back on the identity itself.
  key.identity = static_cast<std::uint16_t>((static_cast<unsigned>(e.kind) << 8) | e.detail);
  key.lower = e.partner == kNoIndex ? particles_.id[i] : std::min(particles_.id[i], particles_.id[e.partner]);
  return key;
}

ParticleEvent Engine::predict(Index i) const {
  Candidates candidates(*this, i);
  return best_of(candidates);
}

ParticleEvent Engine::best_of(Candidates& candidates) const {
  offer_all(candidates);
  return candidates.best();
}

void Engine::offer_all(Candidates& candidates) const {
  const Index i = candidates.owner();
  for_each_source(ParticleSources{}, [&](auto source) { decltype(source)::predict(*this, i, candidates); });
}

void Engine::offer_after_crossing(Candidates& candidates, const CrossedSector& crossed) const {
  const Index i = candidates.owner();
  for_each_source(ParticleSources{}, [&](auto source) {
    using Source = decltype(source);
    if constexpr (std::is_same_v<Source, BlockingSource>) {
      BlockingSource::predict_ahead(*this, i, crossed, candidates);
    } else {
      Source::predict(*this, i, candidates);
    }
  });
}

bool Engine::runner_up_covers(const RunnerUp& runner_up, const SectorCoords& c) const {
  if (runner_up.state == RunnerUp::State::none) return true;
  if (runner_up.state != RunnerUp::State::pair) return false;
  const Index j = runner_up.partner;
  // A partner changed since has been predicted again, but what the runner-up
  // stood for (every other pair around was no earlier) is gone with it.
  if (!particles_.state[j].alive || particles_.stamp[j] != runner_up.partner_stamp) return false;
  // Tether partners and hubs are offered again by their own sources; a
  // blocking partner in the grid only by the sector walk, so it must still
  // be around the new sector (where it meets this particle through no
  // periodic image: c is away from every face).
  if (runner_up.kind != EventKind::blocking || !in_grid(j)) return true;
  const SectorCoords cj = sector(j);
  for (int k = 0; k < 3; ++k) {
    if (cj[k] < c[k] - 1 || cj[k] > c[k] + 1) return false;
  }
  return true;
}

std::uint8_t Engine::joint_mark(Index i, bool must_walk) const {
  if (!has_prediction(i)) return 0;
  if (!in_grid(i)) return PairOffers::kAlone;
  if (tick_clearance_.in_tick() && !must_walk && tick_clearance_.clears(i)) return PairOffers::kWithoutWalk;
  return PairOffers::kTogether;
}

void Engine::offer_without_walk(Candidates& candidates) const {
  const Index i = candidates.owner();
  for_each_source(ParticleSources{}, [&](auto source) {
    using Source = decltype(source);
    if constexpr (std::is_same_v<Source, BlockingSource>) {
      BlockingSource::offer_hubs(*this, i, candidates);
    } else {
      Source::predict(*this, i, candidates);
    }
  });
}

void Engine::predict_joint(Index i, PairOffers& offers) {
  ++stats_.predictions;
  Candidates candidates(*this, i, offers);
  const bool walk = touched_mark_[i] != PairOffers::kWithoutWalk;
  const bool clearing = walk && wants_clearance(i, false);
  if (clearing) candidates.want_clearance();
  if (walk) {
    offer_all(candidates);
  } else {
    offer_without_walk(candidates);
    ++stats_.walks_skipped;
  }
  const ParticleEvent& best = candidates.best();
  calendar_.set(i, best, candidates.runner_up());
  if (walk) note_clearance(i, candidates, clearing, false);
}

void Engine::predict_together() {
  std::size_t predicted = 0;
  for (Index i : touched_) {
    if (owner_ && owner_->holds.held(i)) {
      // Held until a new version of a participant comes (as repredict).
      calendar_.remove(i);
      touched_mark_[i] = 0;
      continue;
    }
    touched_mark_[i] = joint_mark(i, touched_mark_[i] == kMustWalk);
    predicted += touched_mark_[i] != 0 ? 1 : 0;
  }
  // Ascending index order: a pass over every particle when the touched ones
  // are a good part of all (a tick), else over them sorted.
  PairOffers offers(*this, offer_ring_);
  if (predicted * 8 >= particles_.size()) {
    for (Index i = 0; i < particles_.size(); ++i) {
      if (touched_mark_[i] != 0) predict_joint(i, offers);
    }
  } else {
    std::sort(touched_.begin(), touched_.end());
    for (Index i : touched_) {
      if (touched_mark_[i] != 0) predict_joint(i, offers);
    }
  }
  for (Index i : touched_) touched_mark_[i] = 0;
  touched_.clear();
}

}  // namespace tethersim::engine
