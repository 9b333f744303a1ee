// Owner-computes mode (docs/owner-computes.md): this process runs only the
// events whose attributed participant it owns; the others' outcomes come
// from the processes that ran them and are placed once the records they
// read are held here, at the smallest key among what is ready (the serial
// order, event_outcome.hpp); an event that another process runs, or that
// has a held participant, is held until a new version of a participant
// arrives. The process runs ahead in segments and is undone from any time
// above the committed floor when an outcome comes late or is cancelled.
#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

#include "owner_computes_state.hpp"
#include "speculation_state.hpp"
#include "stale_entries.hpp"
#include "tethersim/engine/record_hash.hpp"

namespace tethersim::engine {

void Engine::begin_owner_computes(const SectorBox& block, std::size_t instants_per_segment,
                                  const SectorWindow* window) {
  if (owner_) throw std::logic_error("owner-computes mode is already on");
  // Action potentials (which change reaction times outside any particle
  // event) come in a later step.
  if (model_.action_potentials().enabled()) {
    throw std::logic_error("owner-computes mode does not take action potentials yet");
  }
  track_changes(true);
  begin_segments(instants_per_segment);
  owner_ = std::make_unique<OwnerComputes>();
  owner_->block = block;
  owner_->holds.resize(particles_.size());
  // Particles that left before now go by the sector they left from.
  for (Index i = 0; i < particles_.size(); ++i) {
    if (!is_hub(i)) roles_.set_owned(i, block.contains(sector(i)));
  }
  if (window == nullptr || !window->partial()) return;
  if (!takes_one_layer_window()) {
    throw std::logic_error("owner-computes ghosts one layer deep do not take hubs with tethers or loaded groups yet");
  }
  owner_->window = *window;
  for (std::size_t k = 0; k < 3; ++k) {
    const auto out = std::find(window->in[k].begin(), window->in[k].end(), 0);
    if (out != window->in[k].end()) {
      owner_->outside = {0, 0, 0};
      owner_->outside[k] = static_cast<std::int32_t>(out - window->in[k].begin());
      break;
    }
  }
  // The start's absent particles are part of what the segments undo to
  // (made absent without noting a change).
  std::vector<Index> every(particles_.size());
  for (Index i = 0; i < particles_.size(); ++i) every[i] = i;
  for (Index i : outside_components(every)) make_absent(i);
}

void Engine::grow_owner_state(std::size_t particles) { owner_->holds.resize(particles); }

void Engine::close_owner_round(double until) {
  if (!owner_) throw std::logic_error("owner-computes mode is not on");
  if (!(owner_->latest < until) || !owner_->outbox.empty()) {
    throw std::logic_error("owner-computes: a round ends with events at or after its end");
  }
  // Not commit_owner_before: the agreed floor stays the agreement's (it can
  // lie just before `until`, with a restitution of a tick's instant to run
  // before the tick: agreement_time).
  commit_segments_before(until);
  // Outcomes at or after `until` are void: their senders were undone to it
  // too, and send them again as they run them again in the next round.
  owner_->foreign = ForeignOutcomes{};
  // Nothing is undone below `until` any more: the segments' saved counts
  // would otherwise take the ones added below back.
  drop_segments();
  // Particles drift from their storage neighbours over the rounds, and
  // between rounds no slot is named but by the holds, which are made again
  // as events surface (as after an undo): the engine is numbered again in
  // sector order when a serial run would have renumbered it (run_until:
  // eight events per particle since the last time). A round of the gas is
  // about 20 events per particle; one of the membrane sheet, ended by the
  // run's stops, can be a fraction of one, and renumbering its million
  // particles at every stop was a sixth of a 2-rank run.
  owner_->holds.release_all([&](Index m) { mark_for_prediction(m); });
  repredict_touched();
  reorder_when_due(8);
  owner_->holds.resize(particles_.size());
  speculation_ = open_segment_state();
}

bool Engine::outside_window(Index i) const {
  return owner_->window && in_grid(i) && !owner_->window->contains(sector(i));
}

bool Engine::absent(Index i) const {
  return owner_ && owner_->window && !particles_.state[i].alive && !owner_->window->contains(sector(i));
}

void Engine::make_absent(Index i) {
  // Its tethers and loaded edges stay (engine_window_links.cpp): the
  // present particles' records name them.
  if (in_grid(i)) grid_.remove(particles_.state, i, sector_of(i));
  calendar_.remove(i);
  particles_.state[i].alive = 0;
  roles_.set_owned(i, false);
  ++particles_.counter[i];  // every event predicted with it is now stale
  ++particles_.stamp[i];
  if (has_random_impulses_) ri_time_[i] = kInfinity;
}

Index Engine::absent_slot(const ParticleSnapshot& p) {
  // Never held here before: a placeholder outside the window, so that the
  // undo of what brings it in leaves it absent again.
  const Index i = append_slot();
  particles_.id[i] = p.id;
  particles_.add_id(p.id, i);
  ParticleSnapshot placeholder = p;
  placeholder.alive = 0;
  placeholder.sector = owner_->outside;
  store_particle(i, placeholder);
  roles_.mark_held(i);
  roles_.set_active(i, true);  // predicted once it comes in
  return i;
}

void Engine::end_owner_computes() {
  if (!owner_) throw std::logic_error("owner-computes mode is not on");
  if (owner_->foreign.has_pending()) throw std::logic_error("owner-computes mode ends with outcomes pending");
  owner_->holds.release_all([&](Index m) { mark_for_prediction(m); });
  owner_.reset();
  repredict_touched();
  keep_speculation();
  clear_changes();
}

void Engine::update_owned(Index i) {
  if (is_hub(i)) return;  // no process owns a hub
  // A particle that left the system stays with the process that owned it
  // when it left (its escape ran there): it is accounted for once. An
  // absent one (an undo can take one owned here back to before it came
  // in) is nobody's here.
  if (!particles_.state[i].alive) {
    if (absent(i)) roles_.set_owned(i, false);
    return;
  }
  roles_.set_owned(i, owner_->block.contains(sector(i)));
}

EventKey Engine::global_event_key(const GlobalEvent& g) {
  // The global calendar's order (precedes): each global kind has a
  // priority of its own, then the two tie words.
  EventKey key;
  key.time = g.time;
  key.priority = priority(g.kind);
  key.tie = g.tie_major;
  key.identity = static_cast<std::uint16_t>(static_cast<unsigned>(g.kind) << 8);
  key.lower = g.tie_minor;
  return key;
}

bool Engine::restitutes_here(const GlobalEvent& g) const {
  const LoadedEdge& edge = loaded_[g.payload];
  return counted_here(edge.a, edge.b);  // the process that counts it runs it
}

bool Engine::executes_here(Index i, const ParticleEvent& e) const {
  if (e.partner != kNoIndex && owner_->holds.held(e.partner)) return false;
  return is_owned(attributed_particle(i, e.partner));
}

void Engine::hold_event(Index i, const ParticleEvent& e) {
  EventHolds& holds = owner_->holds;
  const Index p = e.partner;
  if (p != kNoIndex && holds.held(p)) {
    holds.hold_with(i, p);  // behind the partner's hold
  } else {
    holds.hold_with(i, kNoIndex);
    // A particle of infinite mass never changes: nothing to wait for.
    if (p != kNoIndex && particles_.state[p].mobile) {
      holds.hold_with(p, i);
      calendar_.remove(p);
    }
  }
  calendar_.remove(i);
}

void Engine::owner_noted_change(Index i) {
  // A held particle that changes here (a placed version, a periodic
  // impulse) ends its group's hold: the event it waited for is no longer
  // the one its owner will run.
  owner_->holds.release_group_of(i, [&](Index m) { mark_for_prediction(m); });
  if (!collecting_outcome_) return;
  for (const auto& [j, hash] : event_changed_) {
    if (j == i) return;  // changed before in this event: its read record is kept
  }
  if (quiet_event_) {
    // An event of particles in no loaded group changes its participants
    // alone (quiet_participants).
    if (i != last_event_.a && i != last_event_.b) {
      throw std::logic_error("a quiet event changed a particle other than its participants");
    }
    event_changed_.emplace_back(i, 0);
    return;
  }
  event_changed_.emplace_back(i, record_hash(i));
}

void Engine::set_quiet_core(const SectorBox& core) {
  if (!owner_ || !owner_->window) throw std::logic_error("a quiet core needs owner-computes mode with a window");
  owner_->quiet = core;
}

bool Engine::quiet_participants(Index i, Index partner) const {
  if (!owner_->quiet) return false;
  // A member of a loaded group changes with its whole group, which may
  // reach beyond the core.
  const auto quiet = [&](Index x) {
    return !is_hub(x) && owner_->quiet->contains(sector(x)) && (!has_loaded_edges_ || loaded_.adjacency().empty(x));
  };
  return quiet(i) && (partner == kNoIndex || quiet(partner));
}

void Engine::finish_outcome(const EventKey& key) {
  collecting_outcome_ = false;
  if (quiet_event_) {
    quiet_event_ = false;
    for (const auto& changed : event_changed_) update_owned(changed.first);
    event_changed_.clear();
    EventOutcome outcome;
    outcome.key = key;
    owner_->outbox.push_back(std::move(outcome));
    return;
  }
  std::sort(event_changed_.begin(), event_changed_.end(),
            [&](const auto& a, const auto& b) { return particles_.id[a.first] < particles_.id[b.first]; });
  EventOutcome outcome;
  outcome.key = key;
  if (owner_->window && has_loaded_edges_) add_component_mates(outcome);
  std::vector<Index> placed;
  for (const auto& [x, read] : event_changed_) {
    outcome.records.push_back(record(x));
    outcome.read_hashes.push_back(read);
    update_owned(x);  // a crossing may hand it to another process
    placed.push_back(x);
  }
  event_changed_.clear();
  owner_->outbox.push_back(std::move(outcome));
  // A restitution can leave a piece of a group with no member here.
  if (owner_->window) settle_window(placed);
}

bool Engine::outcome_ready(const EventOutcome& outcome) const {
  for (std::size_t k = 0; k < outcome.records.size(); ++k) {
    const Index i = particles_.index_of(outcome.records[k].particle.id);
    // An absent particle's record is not known here: nothing to compare,
    // but the version it read must not be one that another pending outcome
    // makes (within an instant the serial order is not the key order).
    if (owner_->window && (i == kNoIndex || absent(i))) {
      if (made_by_pending(outcome.read_hashes[k], outcome.key.time)) return false;
      continue;
    }
    if (i == kNoIndex || record_hash(i) != outcome.read_hashes[k]) return false;
  }
  // An introduction brings a version in where its particle is absent: not
  // before the pending outcome that makes it, which the sender placed
  // before it ran this event.
  for (const ParticleRecord& r : outcome.introductions) {
    const Index i = particles_.index_of(r.particle.id);
    if (i != kNoIndex && !absent(i)) continue;
    if (made_by_pending(particle_record_hash(r, has_random_impulses_), outcome.key.time)) return false;
  }
  return true;
}

bool Engine::made_by_pending(std::uint64_t hash, double t) const {
  return owner_->foreign.pending_producers(hash, t) != 0;
}

std::vector<std::uint64_t> Engine::produced_hashes(const EventOutcome& outcome) const {
  std::vector<std::uint64_t> produced;
  if (!owner_->window) return produced;  // every record is held: read hashes order them
  for (std::size_t k = 0; k < outcome.records.size(); ++k) {
    // A record the event left as it was (an infinite mass met) makes no new
    // version: outcomes that read it need not wait for this one.
    const std::uint64_t made = particle_record_hash(outcome.records[k], has_random_impulses_);
    if (made != outcome.read_hashes[k]) produced.push_back(made);
  }
  return produced;
}

std::ptrdiff_t Engine::ready_foreign(bool have_particle, bool have_global) const {
  // The local event that comes next bounds the search.
  EventKey bound;
  if (have_particle) {
    const Index i = calendar_.top();
    bound = particle_event_key(i, calendar_.event(i));
  }
  if (have_global) bound = std::min(bound, global_event_key(global_.top()));
  return owner_->foreign.earliest_ready(bound, [&](const EventOutcome& o) { return outcome_ready(o); });
}

void Engine::place_foreign(std::ptrdiff_t pending) {
  const ForeignOutcomes::Item& item = owner_->foreign.place(pending, owner_->foreign.pending(pending).outcome.key.time);
  place_outcome_records(item.outcome);
}

void Engine::place_outcome_records(const EventOutcome& outcome) {
  counting_ = false;
  std::vector<Index> at;
  std::vector<const ParticleRecord*> placing;
  at.reserve(outcome.records.size());
  // Every old record into the undo bookkeeping before any is replaced:
  // placing one record changes its tether partners' lists too.
  const auto take = [&](const ParticleRecord& r, Index i) {
    if (i == kNoIndex) i = absent_slot(r.particle);  // a ghost coming in
    note_change(i);
    at.push_back(i);
    placing.push_back(&r);
  };
  for (const ParticleRecord& r : outcome.records) take(r, particles_.index_of(r.particle.id));
  // Introductions only where absent: a copy held here is kept.
  for (const ParticleRecord& r : outcome.introductions) {
    const Index i = particles_.index_of(r.particle.id);
    if (i == kNoIndex || absent(i)) take(r, i);
  }
  // A tether partner never held here (of a loaded component's member far
  // from the window) gets an absent stand-in, so that the tether, and the
  // record's hash, stay whole (engine_window_links.cpp).
  if (owner_->window && has_tethers_) {
    for (const ParticleRecord* r : placing) {
      for (ParticleId partner : r->tethers) {
        if (particles_.index_of(partner) == kNoIndex) tether_stand_in(partner, r->particle.species);
      }
    }
  }
  for (const ParticleRecord* r : placing) place_record(*r);
  // Ghosts going out (whole components: engine_window_links.cpp).
  if (owner_->window) settle_window(at);
  for (Index i : at) {
    update_owned(i);
    mark_for_prediction(i);
  }
  last_event_ = {EventKind::none, kNoIndex, kNoIndex};
  repredict_touched();
}

std::vector<EventOutcome> Engine::take_outcomes() {
  std::vector<EventOutcome> out;
  out.swap(owner_->outbox);
  return out;
}

void Engine::refuse_if_final(const EventKey& key) const {
  // A tick ran once the agreed floor passed everything before it: an
  // outcome from there would be placed after it (a defect of the
  // agreement), and must stop the run instead.
  if (key < owner_->final_below) {
    throw std::logic_error("owner-computes: an outcome at t = " + std::to_string(key.time) +
                           " comes after the tick at t = " + std::to_string(owner_->final_below.time) +
                           " that ran with everything before it final");
  }
}

void Engine::add_foreign_outcome(EventOutcome outcome, int sender) {
  refuse_if_final(outcome.key);
  if (is_straggler(outcome.key)) {
    throw std::logic_error("an outcome at " + std::to_string(outcome.key.time) +
                           " is not after this engine's clock " + std::to_string(clock_) + ": undo first");
  }
  std::vector<std::uint64_t> produced = produced_hashes(outcome);
  owner_->foreign.add(std::move(outcome), sender, std::move(produced));
}

bool Engine::owner_undo_due(const EventKey& key) {
  // Events ran here after this one's time while it was held (it waited
  // for another process's outcome, or for the records its outcome read):
  // they may have read what it changes, and their instants would take its
  // changes for theirs. The protocol undoes from its time first, as for a
  // late outcome (take_undo_due).
  if (!(key.time < owner_->latest)) return false;
  owner_->undo_due = key;
  return true;
}

std::optional<EventKey> Engine::take_undo_due() {
  std::optional<EventKey> due;
  if (owner_) due.swap(owner_->undo_due);
  return due;
}

bool Engine::is_straggler(const EventKey& key) const {
  return owner_ ? key.time <= owner_->latest : key.time <= clock_;
}

void Engine::undo_owner_from(double t) {
  if (t < owner_->protected_floor) {
    throw std::logic_error("owner-computes: an undo from " + std::to_string(t) + " below the floor " +
                           std::to_string(owner_->protected_floor) + " this process reported");
  }
  undo_segments_from(t);
  pass_over_committed_restitutions();
  owner_->latest = std::min(owner_->latest, std::nextafter(t, -kInfinity));
  // Holds are remade as events surface again.
  owner_->holds.release_all([&](Index m) { mark_for_prediction(m); });
  repredict_touched();
  owner_->foreign.requeue_from(t);
  // Outcomes of undone events that were never taken are void.
  auto& outbox = owner_->outbox;
  outbox.erase(std::remove_if(outbox.begin(), outbox.end(), [&](const EventOutcome& o) { return o.key.time >= t; }),
               outbox.end());
  // Outcomes placed at once after their time, before t: nothing undone
  // here depended on them, so they take their place again at once.
  place_again_at_once();
}

EventKey Engine::cancel_foreign_from(int sender, const EventKey& from) {
  const EventKey placed = owner_->foreign.earliest_placed_from(sender, from);
  if (placed.time < kInfinity) undo_owner_from(placed.time);
  owner_->foreign.drop_pending_from(sender, from);
  return placed;
}

EventKey Engine::withdraw_foreign(int sender, const EventKey& key) {
  const bool placed = owner_->foreign.is_placed(sender, key);
  if (placed) undo_owner_from(key.time);  // puts it back among the pending
  owner_->foreign.drop_pending(sender, key);
  return placed ? key : EventKey{};
}

double Engine::protected_floor() const { return std::max(segments_.committed, owner_->protected_floor); }

void Engine::protect_floor(double t) {
  if (!owner_) throw std::logic_error("owner-computes mode is not on");
  owner_->protected_floor = t;
}

void Engine::commit_owner_before(double t) {
  commit_segments_before(t);
  owner_->foreign.drop_placed_before(t);
  owner_->agreed = std::max(owner_->agreed, t);
}

bool Engine::is_tick_time(double t) const {
  for (const PeriodicImpulse& p : model_.periodic_impulses()) {
    if (!(p.interval > 0.0) || t < p.start) continue;
    // The nearest tick numbers: tick k runs at start + k interval, rounded.
    const double k = std::floor((t - p.start) / p.interval);
    for (double n = std::max(0.0, k - 1.0); n <= k + 1.0; n += 1.0) {
      if (p.start + n * p.interval == t) return true;
    }
  }
  return false;
}

double Engine::agreement_time(const EventKey& key) const {
  // What comes before a tick at the tick's own time (a restitution then)
  // counts as just before it: an agreed floor at a tick's time then means
  // that nothing before the tick is left anywhere, neither to run nor on
  // its way, and the tick may run with nothing kept to undo it
  // (run_committed_tick). Everything else counts at its time.
  if (!owner_ || key.priority >= priority(EventKind::periodic_impulse) || !is_tick_time(key.time)) return key.time;
  return std::nextafter(key.time, -kInfinity);
}

void Engine::pass_over_committed_restitutions() {
  // The undo made the global calendar again from every loaded edge held,
  // and a window's edge can keep a restitution time long past: one among
  // particles beyond the window whose restitution another process ran and
  // whose outcome concerned no particle held here. run_until passes such a
  // restitution over, below the protected floor, without a trace; left at
  // the calendar's top it would hold this process's floor there until the
  // next event runs, and a process undone at every turn (late outcomes
  // while it waits) would report it at every agreement: the floor never
  // rose (a stall, 4 ranks on the membrane sheet). Passed over now, as
  // run_until would.
  for (;;) {
    drop_stale_globals();
    if (global_.empty()) return;
    const GlobalEvent& g = global_.top();
    if (g.kind != EventKind::restitution || !(g.time < protected_floor())) return;
    global_.pop();
  }
}

double Engine::local_floor_time() const {
  double t = calendar_.empty() ? kInfinity : calendar_.top_time();
  if (!global_.empty()) t = std::min(t, agreement_time(global_event_key(global_.top())));
  return t;
}

double Engine::floor_time() const {
  const double local = local_floor_time();
  if (!owner_ || !owner_->foreign.has_pending()) return local;
  return std::min(local, agreement_time(owner_->foreign.pending(0).outcome.key));
}

double Engine::runnable_floor_time() const {
  double t = local_floor_time();
  if (owner_ && owner_->foreign.has_pending()) {
    const std::ptrdiff_t k = owner_->foreign.earliest_ready(EventKey{}, [&](const EventOutcome& o) { return outcome_ready(o); });
    if (k >= 0) t = std::min(t, agreement_time(owner_->foreign.pending(k).outcome.key));
  }
  return t;
}

void Engine::run_committed_tick(const GlobalEvent& g) {
  // The agreed floor reached the tick's time, so every event before it is
  // final on every process (agreement_time): nothing is kept to undo them
  // or the tick. The tick runs with no log (a segment would save every
  // particle's record) and its particles are predicted together, walks
  // skipped where clearances allow, as in a serial run; a late outcome
  // after it undoes no further back than the segment opened after it.
  owner_->foreign.drop_placed_before(std::nextafter(g.time, kInfinity));  // they all came before it
  drop_segments();
  clock_ = std::max(clock_, g.time);
  owner_->latest = std::max(owner_->latest, g.time);
  owner_->final_below = global_event_key(g);
  execute_global_event(g);
  clear_changes();
  speculation_ = open_segment_state();
}

EventKey Engine::final_below() const { return owner_ ? owner_->final_below : EventKey{-kInfinity, 0, 0, 0, 0}; }

void Engine::finish_ticks_at(double t) {
  // Processes that ran a tick at t and processes that had it next must
  // agree on whether it ran: every one runs it when the agreement cleared it.
  while (tick_next_at(t)) {
    const GlobalEvent g = global_.top();
    global_.pop();
    run_committed_tick(g);
  }
}

bool Engine::tick_next_at(double t) {
  if (!owner_ || t > owner_->agreed) return false;
  drop_stale_globals();
  return !global_.empty() && global_.top().time == t && global_.top().kind == EventKind::periodic_impulse;
}

std::size_t Engine::held_count() const { return owner_ ? owner_->holds.held_count() : 0; }


}  // namespace tethersim::engine
