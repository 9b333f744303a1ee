#pragma once
// The exact event-driven TPS engine (docs/physics.md for the physics,
// docs/engine.md for the design).
//
// One calendar, events in the total order (time, kind priority, tie key);
// the tie key is a hash of the event's identity (seed, kind, particle ids,
// per-particle counters), never of insertion order, so every process that
// runs the same particles runs the same events in the same order and gets
// the same bits. Every event time is a pure function of the particles'
// stored trajectories (pair times are computed at the later of the two
// re-basing times), so when a prediction is made does not matter.
//
// run_until(T) processes every event before T and stops without touching
// the state: stopping and continuing gives exactly the straight run.

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "tethersim/engine/change_set.hpp"
#include "tethersim/engine/event_key.hpp"
#include "tethersim/engine/event_outcome.hpp"
#include "tethersim/engine/global_calendar.hpp"
#include "tethersim/engine/index_bits.hpp"
#include "tethersim/engine/loaded_edges.hpp"
#include "tethersim/engine/packed_sector.hpp"
#include "tethersim/engine/particle_calendar.hpp"
#include "tethersim/engine/particle_roles.hpp"
#include "tethersim/engine/particle_source.hpp"
#include "tethersim/engine/particle_store.hpp"
#include "tethersim/engine/sector_box.hpp"
#include "tethersim/engine/sector_grid.hpp"
#include "tethersim/engine/sector_mask.hpp"
#include "tethersim/engine/sector_window.hpp"
#include "tethersim/engine/snapshot.hpp"
#include "tethersim/engine/speculation_log.hpp"
#include "tethersim/engine/statistics.hpp"
#include "tethersim/engine/tick_clearance.hpp"
#include "tethersim/model/model.hpp"
#include "tethersim/physics/exact_sum.hpp"
#include "tethersim/scenario/initial_particles.hpp"

namespace tethersim::engine {

// Owner-computes mode: what late outcomes' undos from their impact times
// took back, and how much of it the outcomes' particles reached through the
// events run since (a lower bound on what an undo of only the particles
// concerned would take back).
struct UndoReach {
  std::uint64_t instants = 0;  // instants undone
  std::uint64_t reached = 0;   // of which changed a particle the outcome reached
};

class SavedRecords;  // src/engine/saved_records.hpp

// Whether particles of `model` can be linked: tethers (a tetherable pair)
// or loaded groups (a restitution delay).
bool links_possible(const Model& model);
// Owner-computes ghosts one sector layer deep: hubs are held everywhere
// with the links to the particles held there, so their records differ from
// process to process and an outcome that changes one (a particle loaded or
// tethered to it) cannot be checked. Without links, or without hubs, a
// window one layer deep holds what its events read.
bool takes_one_layer_window(const Model& model);

class Engine {
 public:
  // Takes the initial particles by value: pass them with std::move when
  // they are not needed afterwards, and their memory is released while the
  // engine is built (a lower peak for large systems).
  // `spare_slots`: as for the snapshot constructor below.
  Engine(const Model& model, scenario::InitialParticles initial, std::size_t spare_slots = 0);
  // Rebuilds the engine a snapshot was taken of (same model): it continues
  // exactly as the original would have. A partial view that will gain
  // particles (a distributed rank: migrations, new ghosts) asks for room
  // for `spare_slots` more in its largest particle arrays (states, ids,
  // counters, stamps, sectors, random-impulse state) and its calendar:
  // reserved, not touched, so that its first new particle does not copy
  // them into fresh memory (a tenth of a second at half a million
  // particles). The byte-per-particle marks still grow when it arrives.
  Engine(const Model& model, const EngineSnapshot& snapshot, std::size_t spare_slots = 0);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Processes every event with time < `end` (or stops after `max_events`);
  // true when `end` was reached.
  bool run_until(double end, std::uint64_t max_events = UINT64_MAX);

  // The time of the next event (kInfinity when none): after stopping at an
  // arbitrary point, a consistent stop time is one with no event before it
  // left unprocessed, i.e. next_event_time() when it exceeds time().
  double next_event_time();

  // The dynamic state as of stop time `at` (all events before it processed).
  EngineSnapshot snapshot(double at) const;
  // The same without its particles and Phi values, which particles() hands
  // out a slab at a time (a checkpoint's way: no decoded copy of them all).
  EngineSnapshot snapshot_without_particles(double at) const;
  // The particles snapshot() would hold, in the same order; valid while
  // this engine is neither run nor changed.
  std::unique_ptr<ParticleSource> particle_source() const;

  // The latest event time processed so far.
  double time() const { return clock_; }
  // The kind and participants (local indices, kNoIndex for none) of the
  // last event run: what a stall report samples.
  struct EventTrace {
    EventKind kind = EventKind::none;
    Index a = kNoIndex;
    Index b = kNoIndex;
  };
  const EventTrace& last_event() const { return last_event_; }
  const Model& model() const { return model_; }
  const ParticleStore& particles() const { return particles_; }
  const SectorGrid& grid() const { return grid_; }
  const TetherLists& tethers() const { return tethers_; }
  const LoadedEdges& loaded_edges() const { return loaded_; }
  const EngineStatistics& statistics() const { return stats_; }
  const std::vector<EscapeSnapshot>& escapes() const { return escapes_; }
  const std::vector<ReleaseSnapshot>& releases() const { return releases_; }
  int active_window() const { return active_window_; }
  SectorCoords sector(Index i) const { return grid_.unpack(coords_[i]); }
  // Asks for particle i's sector and roles ahead of a loop that will read
  // them: a loop over a list of scattered particles otherwise waits on a
  // cache miss for each (a hint; it changes nothing).
  void prefetch_sector_and_roles(Index i) const {
    __builtin_prefetch(&coords_[i]);
    roles_.prefetch(i);
  }
  // The number and time of a particle's next random impulse (kInfinity:
  // none).
  std::uint64_t random_impulse_index(Index i) const { return has_random_impulses_ ? ri_index_[i] : 0; }
  // Particles whose calendar event (its earliest, or a stale one no later)
  // comes before `time`. Any two active particles whose trajectories would
  // meet at t have one of them here for every time after t.
  void particles_with_events_before(double time, std::vector<Index>& out) const {
    calendar_.particles_before(time, out);
  }
  double next_random_impulse(Index i) const { return has_random_impulses_ ? ri_time_[i] : kInfinity; }
  // An upper bound on every particle's squared speed: each velocity the
  // engine stores raises it, and refresh_speed_ceiling() lowers it to the
  // exact largest (a scan of every particle). Certificates need a bound,
  // not the maximum, and cannot afford the scan every window.
  double speed2_ceiling() const { return speed2_ceiling_; }
  void refresh_speed_ceiling();
  // One bit per index: the velocity is not zero. A membrane at rest shows
  // where it moves without a scan of its particles.
  const IndexBits& moving_bits() const { return moving_; }
  // The number of the next tick of each periodic impulse.
  const std::vector<std::uint64_t>& periodic_ticks() const { return periodic_tick_; }
  // The time of the next tick of any periodic impulse (kInfinity: none).
  double next_tick_time() const;
  // Whether the model can form loaded groups (restitution delay > 0).
  bool has_loaded_edges() const { return has_loaded_edges_; }
  // Whether any pair of species can be tethered.
  bool has_tethers() const { return has_tethers_; }

  // Observables of the particles this process accounts for (all of them in
  // a serial engine); sums are exact, so independent of order and of how
  // the particles are split among processes.
  std::size_t alive_count() const;
  double kinetic_energy() const;
  Vec3 momentum() const;
  physics::ExactSum kinetic_energy_sum() const;
  std::array<physics::ExactSum, 3> momentum_sum() const;
  // True for the particles whose state this process accounts for in
  // observables, hashes and snapshots.
  bool accounted_here(Index i) const;
  // True when this process counts events with these participants, and
  // accounts for the tether or loaded edge between them: the owner of
  // attributed_particle(a, b) (b = kNoIndex for one particle).
  bool counted_here(Index a, Index b) const;
  // The participant an event or link is attributed to: the lower id of the
  // mobile ones, else of those in the sector grid, else of the hubs. Its
  // owner always runs the event, whatever the number of ranks, so counts
  // and link records do not depend on how the system is split.
  Index attributed_particle(Index a, Index b) const;
  // Connected components of the tether graph (hubs excluded) that hold at
  // least one particle of `species`.
  std::size_t cluster_count(SpeciesIndex species) const;
  // Particles of `species` tethered to at least one particle of `partner`.
  std::size_t tethered_count(SpeciesIndex species, SpeciesIndex partner) const;
  bool tethered(ParticleId a, ParticleId b) const;
  Vec3 position(ParticleId id, double t) const;

  // An order-independent 64-bit hash of every bit of the dynamic state:
  // each particle's trajectory (t0, u0, v), counter, random-impulse index,
  // tethers and loaded edges (impulse, time, sequence). Equal states give
  // equal hashes whatever the storage order or the process that holds them.
  std::uint64_t state_hash() const;

  // The event sources (event_sources.hpp): each kind of event with its
  // prediction, validity, execution and energy bound. Nested, so that they
  // reach the engine's internals.
  struct RandomImpulseSource;
  struct BoundarySource;
  struct PairSource;
  struct BlockingSource;
  struct TetherSource;
  struct RestitutionSource;
  struct PeriodicImpulseSource;
  struct ActionPotentialSource;

  // Bytes held by the engine's data structures.
  std::size_t memory_bytes() const;
  // An engine that holds only part of the box (a rank's block and halo)
  // keeps the sector heads of the pages its particles occupy, when that is
  // at most half of them (SectorGrid::keep_occupied_pages); no result
  // changes. Returns whether it did.
  bool keep_occupied_sector_pages() { return grid_.keep_occupied_pages(); }

  // Checks internal consistency (sector lists, groups share velocities,
  // tether symmetry, calendar entries, the speed ceiling and moving bits);
  // throws std::logic_error. For tests.
  void check_invariants() const;
  // Checks that the calendar entry of every mobile active particle whose
  // trajectory was re-based at the clock is the event a prediction gives
  // now: every particle after construction, every one a tick moved right
  // after the tick (with the tick clearance stopped: a tick that skips a
  // walk leaves an entry that differs). Throws std::logic_error. For tests.
  void check_predictions_fresh() const;
  // Many particles predicted at once (a tick, a group, the start) share
  // each pair's test between its two particles (pair_offers.hpp). On by
  // default; every history is the same either way, which tests check.
  void set_joint_prediction(bool on) { joint_prediction_ = on; }
  // Gravity ticks skip the sector walk of particles whose clearance
  // reaches the next tick (tick_clearance.hpp). Stopping it (for good)
  // changes no history, only the work; for tests and comparisons.
  void stop_tick_clearance() { tick_clearance_.stop(); }
  bool tick_clearance_on() const { return tick_clearance_.on(); }

  // --- each particle's roles (particle_roles.hpp; in a serial run every
  // particle is active and owned, none removed) and records. What a
  // distributed run does with a partial view goes through PartialView
  // (partial_view.hpp).
  bool is_active(Index i) const { return roles_.active(i); }
  bool is_owned(Index i) const { return roles_.owned(i); }
  bool is_hub(Index i) const { return hub_species_[particles_.state[i].species] != 0; }
  bool is_removed(Index i) const { return roles_.removed(i); }
  // Everything about one particle, with its tethers and loaded edges.
  ParticleRecord record(Index i) const;
  // The records of every particle held (hubs included), in id order.
  std::vector<ParticleRecord> records() const;

 private:
  // --- the distributed interface, reached through PartialView
  // (partial_view.hpp, which says what each does; engine_membership.cpp,
  // engine_speculation.cpp).
  friend class PartialView;
  void set_active(Index i, bool active);
  void set_owned(Index i, bool owned) { roles_.set_owned(i, owned); }
  void set_counts_global_events(bool counts) { counts_global_events_ = counts; }
  std::uint64_t uncounted_events() const { return uncounted_events_; }
  void track_changes(bool on) { changes_.set_tracking(on); }
  const std::vector<ChangeSet::Change>& changes() const { return changes_.list(); }
  void clear_changes() { changes_.clear(); }
  Index upsert(const ParticleRecord& record);
  void remove(Index i);
  void begin_speculation(const SectorMask& logged_sectors);
  bool speculating() const { return speculation_ != nullptr; }
  const SpeculationLog& speculation_log() const;
  void keep_speculation();
  void undo_speculation();
  bool undo_speculation_from(double t);
  std::size_t speculation_bytes() const;
  static constexpr std::size_t kDefaultJournalFloor = 65536;
  void set_journal_floor(std::size_t records) { journal_floor_ = records; }
  bool speculation_journal_dropped() const;
  ParticleRecord record_at_start(Index i) const;
  SectorCoords sector_at_start(Index i) const;
  std::uint64_t record_hash(Index i) const;
  bool ticks_come_first(double t);
  std::size_t run_ticks_at(double t);
  // Speculation in segments (engine_segments.cpp; PartialView says what
  // each does).
  void begin_segments(std::size_t instants_per_segment);
  void undo_segments_from(double t);
  void commit_segments_before(double t);
  std::size_t segment_count() const;
  // Every segment is final: its storage goes to the spares and the change
  // set is emptied; no segment is open until the next is opened.
  void drop_segments();
  // Owner-computes mode (engine_owner_computes.cpp; PartialView documents
  // each).
  void begin_owner_computes(const SectorBox& block, std::size_t instants_per_segment,
                            const SectorWindow* window = nullptr);
  // takes_one_layer_window(model) for this engine's model.
  bool takes_one_layer_window() const { return engine::takes_one_layer_window(model_); }
  void set_quiet_core(const SectorBox& core);
  void end_owner_computes();
  bool owner_computes_on() const { return owner_ != nullptr; }
  void close_owner_round(double until);
  std::vector<EventOutcome> take_outcomes();
  bool is_straggler(const EventKey& key) const;
  std::optional<EventKey> take_undo_due();
  void add_foreign_outcome(EventOutcome outcome, int sender);
  std::optional<double> take_late_outcome(EventOutcome outcome, int sender);
  // Totals over this engine's life (engine_impact.cpp, undo_reach).
  UndoReach late_undo_reach() const;
  void undo_owner_from(double t);
  EventKey cancel_foreign_from(int sender, const EventKey& from);
  EventKey withdraw_foreign(int sender, const EventKey& key);
  void commit_owner_before(double t);
  double floor_time() const;
  double agreement_time(const EventKey& key) const;
  EventKey final_below() const;
  void finish_ticks_at(double t);
  bool tick_next_at(double t);
  // Owner-computes mode: no agreement can give less than `t` any more (the
  // agreed floor, what this process reported to the agreement under way,
  // or the key of a message taken in since): nothing below t may run or
  // be undone here on this process's own account; an event of its own
  // that comes up there is held (docs/distribution.md, "The floor a rank
  // reported").
  void protect_floor(double t);
  // The larger of the committed floor and the one protect_floor set.
  double protected_floor() const;
  double runnable_floor_time() const;
  std::size_t held_count() const;

  // --- construction (engine.cpp, engine_snapshot.cpp)
  void add_particles(scenario::InitialParticles& initial);
  void restore(const EngineSnapshot& snapshot);
  // The order particles are stored in, as keys (sector, input position)
  // sorted: the input position of storage slot k is order[k] & 0xffffffff.
  std::vector<std::uint64_t> storage_order(std::size_t count,
                                           const std::function<ParticleSnapshot(std::size_t)>& particle_at) const;
  // Storage and sector lists for `count` particles, read one at a time
  // through `particle_at` in the order of `order` (storage_order's keys;
  // empty: the input is in storage order already). The source stays the
  // caller's, so it can be released before the rest of the engine is
  // allocated; `placed(k)`, now and then, says that the first k read are
  // placed.
  void place_particles(std::size_t count, const std::function<ParticleSnapshot(std::size_t)>& particle_at,
                       const std::vector<std::uint64_t>& order,
                       const std::function<void(std::size_t)>& placed = {});
  // Id index, hub lists and the per-particle marks: what placement needs
  // once the source is gone.
  void finish_placement();
  // Slot i takes a snapshot's state (everything but the id and its links).
  void store_particle(Index i, const ParticleSnapshot& p);
  void schedule_initial_events();
  void schedule_action_potentials(double from);
  void predict_all();
  // The calendars' stale entries, as run_until and ticks_come_first meet
  // them (stale_entries.hpp): global events that no longer hold (restitutions of
  // edges removed or rescheduled) are dropped; a particle's entry that no
  // longer holds is counted stale and predicted again (true), else false.
  void drop_stale_globals();
  bool renew_if_stale(Index i, const ParticleEvent& e);

  // --- prediction (engine_prediction.cpp; each source predicts its own
  // kinds, offering them to the running best, event_candidates.hpp)
  class Candidates;
  class PairOffers;
  void repredict(Index i);
  ParticleEvent predict(Index i) const;
  // Every source offers its candidates; the best wins.
  ParticleEvent best_of(Candidates& candidates) const;
  void offer_all(Candidates& candidates) const;
  // The sector crossing being run, when the particle's next prediction may
  // look ahead only (cross_sector); particle kNoIndex otherwise.
  struct CrossedSector {
    Index particle = kNoIndex;
    int axis = 0;
    bool upward = false;
    Index partner = kNoIndex;  // a blocking runner-up in the sectors around, offered again
  };
  // After a sector crossing that may look ahead only (crossed_): every
  // source but the blocking one as usual, the blocking one the sectors
  // that came into reach and the crossing's runner-up.
  void offer_after_crossing(Candidates& candidates, const CrossedSector& crossed) const;
  // Whether the runner-up of a crossing into sector c still stands for
  // every candidate the sectors both around c and around the old sector
  // can offer (docs/engine.md, "A crossing looks ahead only").
  bool runner_up_covers(const RunnerUp& runner_up, const SectorCoords& c) const;
  // Predicts the particles of touched_ again, in ascending index order,
  // each pair of them tested once (pair_offers.hpp). The same calendar
  // entries as repredict on each in turn.
  void predict_together();
  // Whether the calendar holds a prediction for particle i: alive, mobile
  // and active.
  bool has_prediction(Index i) const {
    const ParticleState& s = particles_.state[i];
    return s.alive && s.mobile && is_active(i);
  }
  // What predict_together marks a particle with in touched_mark_: 0 (not
  // predicted), PairOffers::kAlone, kTogether or, at a tick, kWithoutWalk
  // (its clearance reaches the next tick, and nothing asked for a walk).
  std::uint8_t joint_mark(Index i, bool must_walk) const;
  // Whether a walk of particle i (a look-ahead after a crossing, or not)
  // notes its clearance, and what the prediction then keeps of it
  // (tick_clearance.hpp).
  bool wants_clearance(Index i, bool ahead) const;
  void note_clearance(Index i, const Candidates& candidates, bool clearing, bool ahead);
  // Particle i frozen (no longer moved by ticks) voids its clearance and
  // those of every particle in the 27 sectors around it: they walk at the
  // next tick (tick_clearance.hpp).
  void forget_clearances_around(Index i);
  // A tick's particle whose sector walk is skipped (tick_clearance.hpp):
  // every source but the walk (the hubs are still offered).
  void offer_without_walk(Candidates& candidates) const;
  // Marks a particle a tick leaves to walk (tick_clearance.hpp).
  void walk_at_tick(Index i) {
    mark_for_prediction(i);
    touched_mark_[i] = kMustWalk;
  }
  static constexpr std::uint8_t kMustWalk = 2;  // in touched_mark_ before predict_together
  // The number of the next tick of the first periodic impulse (the only
  // one when ticks skip walks), 0 without any.
  std::uint64_t next_tick_number() const { return periodic_tick_.empty() ? 0 : periodic_tick_[0]; }
  // Predicts marked particle i, one of those predicted together in
  // ascending index order.
  void predict_joint(Index i, PairOffers& offers);
  // Time of a pair event; `shift` is the periodic image of j seen from i.
  double pair_time(Index i, Index j, const Vec3& shift, double distance, EventKind kind) const;
  // The periodic shift to add to u_b - u_a (= dx) for the image the pair can
  // interact through, and u_b(t) - u_a(t) through that image.
  Vec3 image(Index a, Index b, const Vec3& dx) const;
  Vec3 separation(Index a, Index b, double t) const;
  bool event_precedes(Index owner_a, const ParticleEvent& a, Index owner_b,
                      const ParticleEvent& b) const;
  std::uint64_t tie_key(Index owner, const ParticleEvent& e) const;
  // A 32-bit prefix of event_precedes' order at one instant, for the
  // calendar's heap (ParticleCalendar::OrderPrefix).
  std::uint32_t order_prefix(Index owner, const ParticleEvent& e) const;
  // The event's place in the serial order as a value (event_key.hpp), the
  // order event_precedes compares.
  EventKey particle_event_key(Index i, const ParticleEvent& e) const;

  // --- memory layout (engine_reorder.cpp)
  // Renumbers particles in sector order so that neighbours in space are
  // neighbours in memory. Changes no result: nothing depends on local
  // indices, only on ids and trajectories.
  void reorder();
  // Renumbers once the particles ran more than `events_per_particle` events
  // each (plus a thousand) since the last renumbering: inline, since the
  // run loop asks before every event.
  void reorder_when_due(std::uint64_t events_per_particle) {
    const std::uint64_t done = stats_.total_events();
    if (done - events_at_reorder_ > events_per_particle * particles_.size() + 1000) {
      reorder();
      events_at_reorder_ = done;
    }
  }
  // Writes the sector order's numbering (new_index[old] = new) and returns
  // the number of slots not removed from this view (they come first).
  std::size_t sector_order_numbering(std::span<Index> new_index) const;
  // Moves every per-particle array and every stored index to it.
  void renumber(std::span<const Index> new_index, std::size_t kept);

  // --- execution (each event by its source, event_sources.hpp)
  void execute_particle_event(Index i, const ParticleEvent& e);
  void execute_global_event(const GlobalEvent& e);
  void repredict_touched();
  // Prefetching for the event likely to come next (a hint; it changes
  // nothing): that particle's records while the current event runs, then
  // the heads of the sectors around it before the current event's walks,
  // so that its own walk finds them in cache. Only where the heads are
  // out of cache (large grids, where the walk waits on memory).
  void prefetch_next_particle();
  void prefetch_next_neighbourhood();
  void prefetch_next_partner_neighbourhood();
  bool in_grid(Index i) const {
    return particles_.state[i].alive && !hub_species_[particles_.state[i].species];
  }
  // Counts an occurrence when the current event is counted here.
  void count(std::uint64_t& counter) const {
    if (counting_) ++counter;
  }
  // Notes that a particle is about to change (track_changes), before any
  // of its fields does (a speculative window keeps its record then).
  void note_change(Index i) {
    if (owner_) owner_noted_change(i);
    const bool mobile = particles_.state[i].mobile;
    if (!speculation_) {
      changes_.note(i, sector(i), mobile);
    } else if (note_speculative_change(i)) {
      changes_.note_first(i, sector(i), mobile);
    }
  }
  // A new slot at the end of every per-particle array.
  Index append_slot();
  // Keeps speed2_ceiling_ and moving_ true after particle i's velocity was
  // stored (every store goes through set_velocity or store_particle).
  void note_velocity(Index i) {
    const ParticleState& s = particles_.state[i];
    speed2_ceiling_ = std::max(speed2_ceiling_, s.v.squaredNorm());
    if (s.at_rest()) {
      drop_index(moving_, i);
    } else {
      add_index(moving_, i);
    }
  }
  // moving_ sized for every slot and filled from the stored velocities.
  void rebuild_moving();
  ParticleSnapshot particle_snapshot(Index i) const;
  // particle_source()'s: the particles accounted here in id order
  // (engine_snapshot.cpp).
  class IdOrderParticles;
  // Makes the particle's tethers and loaded edges with the particles held
  // here those of the record.
  void sync_tethers(Index i, const std::vector<ParticleId>& partners);
  void sync_loaded_edges(Index i, const std::vector<LoadedEdgeSnapshot>& edges);
  // Restitution of an edge is scheduled while both ends can have events.
  bool can_restitute(const LoadedEdge& edge) const;
  std::uint32_t sector_of(Index i) const { return grid_.linear(sector(i)); }
  // Queues a particle for re-prediction after the current event.
  void mark_for_prediction(Index i) {
    if (!touched_mark_[i]) {
      touched_mark_[i] = 1;
      touched_.push_back(i);
    }
  }
  // Re-bases a particle's trajectory at t with a new velocity.
  void set_velocity(Index i, const Vec3& v, double t);

  // --- speculative windows (engine_speculation.cpp)
  struct SpeculationState;
  // True at the particle's first change in the window (the change set
  // then lists it).
  bool note_speculative_change(Index i);
  // The event about to run happens at t (run_until calls it before each);
  // journaled says whether its effects are all in particle records (not a
  // periodic impulse or an action-potential transition).
  void note_speculation_time(double t, bool journaled = true);
  // Frees the journal and the marks and stops keeping them for the rest of
  // the window (engine/speculation_state.hpp says when).
  void drop_journal();
  // Predicts afresh (or drops from the calendar) particles whose records
  // an undo put back, once every record is back.
  void predict_restored(const std::vector<Index>& restored);
  // The event being processed reads (or writes) particle i.
  void note_participant(Index i) const;
  void note_participants(const std::vector<Index>& members) const {
    if (speculation_) for (Index m : members) note_participant(m);
  }
  void begin_event(Index a, Index b) const;
  void end_event(double t, EventKind kind);
  // Keeps every reaction time before an action potential changes them.
  void save_reaction_times();
  // Appends particle i's record to an undo log or journal.
  void save_record(SavedRecords& to, Index i) const;
  // The bookkeeping of a window or segment that begins now (no checks),
  // in the storage of `reuse` when given (a committed segment's: its
  // buffers keep their capacity, so a new segment neither grows them again
  // nor faults fresh pages in).
  std::unique_ptr<SpeculationState> open_speculation_state(std::unique_ptr<SpeculationState> reuse = nullptr) const;
  // A segment's bookkeeping (no histories), in a committed segment's
  // storage when there is one.
  std::unique_ptr<SpeculationState> open_segment_state();
  // A new segment from the first event at t on (t later than every event
  // run): the open one is kept, frozen, beneath it.
  void start_segment(double t);
  // upsert() without the particle's own prediction.
  Index place_record(const ParticleRecord& record);

  // Owner-computes mode (engine_owner_computes.cpp).
  struct OwnerComputes;
  static EventKey global_event_key(const GlobalEvent& g);
  bool restitutes_here(const GlobalEvent& g) const;
  bool executes_here(Index i, const ParticleEvent& e) const;
  void hold_event(Index i, const ParticleEvent& e);
  // Whether the event or outcome at `key` must wait for an undo from its
  // time (it came up before the latest event run here); notes it if so.
  bool owner_undo_due(const EventKey& key);
  // The next local event's time (particle calendar or global calendar), as
  // agreement_time counts it.
  double local_floor_time() const;
  // Pops the restitutions at the global calendar's top that run_until
  // would pass over as run elsewhere (below the protected floor).
  void pass_over_committed_restitutions();
  // Whether a periodic impulse ticks at exactly t (one of any number).
  bool is_tick_time(double t) const;
  // Throws when `key` comes before the last tick run (nothing before it
  // may arrive any more).
  void refuse_if_final(const EventKey& key) const;
  // Runs tick g once everything before it is final on every process
  // (docs/owner-computes.md, "Ticks as barriers").
  void run_committed_tick(const GlobalEvent& g);
  // The pending outcome to place before the next local event (-1: none).
  std::ptrdiff_t ready_foreign(bool have_particle, bool have_global) const;
  void place_foreign(std::ptrdiff_t pending);
  void place_outcome_records(const EventOutcome& outcome);
  // Ghosts one layer deep (engine_owner_computes.cpp).
  bool absent(Index i) const;
  // Held in the sectors' lists, but outside the window.
  bool outside_window(Index i) const;
  void make_absent(Index i);
  Index absent_slot(const ParticleSnapshot& p);
  void tether_stand_in(ParticleId id, SpeciesIndex species);
  // Links across the window's edge (engine_window_links.cpp): x and every
  // particle joined to it by loaded edges (not through hubs); the particles
  // held here of the components of `candidates` that have no member in the
  // window (each component once); those of the placed particles made
  // absent; the outcome of the event that ends widened to the changed
  // particles' components.
  void loaded_component(Index x, std::vector<Index>& out) const;
  std::vector<Index> outside_components(const std::vector<Index>& candidates) const;
  void settle_window(const std::vector<Index>& placed);
  void add_component_mates(EventOutcome& outcome) const;
  // A link may lead to an absent particle (its slot stands for it).
  bool linkable(Index j) const { return particles_.state[j].alive || absent(j); }
  void grow_owner_state(std::size_t particles);
  static void grow_marks(SpeculationState& s, std::size_t particles);
  // Impact times (engine_impact.cpp): where a late outcome can first have
  // changed what ran here.
  double impact_in_logs(const EventOutcome& outcome) const;
  // Every record the undo segments saved at an instant at or after t (the
  // record before the particle's first change at that instant), instant by
  // instant: visit(particle, records, k, instant).
  template <typename Visit>
  void for_each_saved_since(double t, Visit&& visit) const;
  double first_event_of(const EventOutcome& outcome) const;
  UndoReach undo_reach(const EventOutcome& outcome, double from) const;
  // When a new record `r` (from t, on its straight line) first comes
  // within reach of a piece the logs saved (saved.particle(k), followed
  // until `changed_at`), or kInfinity: a lower bound on any event between
  // them while the record's line holds.
  double meeting_with_piece(const ParticleRecord& r, const SavedRecords& saved, std::size_t k, double t,
                            double changed_at) const;
  void place_again_at_once();
  void owner_noted_change(Index i);
  void finish_outcome(const EventKey& key);
  // Whether an event of `i` (and `partner`, if any) concerns no other
  // process: both lie in the quiet core.
  bool quiet_participants(Index i, Index partner) const;
  void update_owned(Index i);
  bool outcome_ready(const EventOutcome& outcome) const;
  bool made_by_pending(std::uint64_t hash, double t) const;
  std::vector<std::uint64_t> produced_hashes(const EventOutcome& outcome) const;
  void rebuild_global_calendar(double from);

  // --- collisions and loaded groups (engine_collisions.cpp)
  struct Group {
    std::vector<Index> members;  // sorted by id; finite-mass particles only
    double mass = 0.0;           // kInfinity when anchored to an infinite mass
    Vec3 velocity = Vec3::Zero();
  };
  void collect_group(Index start, Group& group, EdgeIndex skip_edge = kNoIndex) const;
  void collide(Index i, Index j, EventKind kind, double t);
  void load(Index a, Index b, const Group& ga, const Group& gb, const Vec3& dp, double t);
  void restitute(EdgeIndex e, double t);
  void set_group_velocity(const Group& g, const Vec3& v, double t);
  void schedule_restitution(EdgeIndex e);
  void force_restitute_all(Index i, double t);

  // --- tethering rules (engine_rules.cpp)
  bool should_attach(Index a, Index b, double t) const;
  bool should_detach(Index a, Index b, double t, int& fired_rule) const;
  void detach(Index a, Index b, int rule, double t);
  bool reaction_passed(int reaction, Index subject, double t) const;
  std::size_t partners_of_species(Index i, SpeciesIndex s) const;

  // --- boundaries (engine_boundaries.cpp)
  void cross_sector(Index i, int axis, bool upward, double t);
  void reflect(Index i, int axis, double t);
  void escape(Index i, double t);

  // --- external impulses and action potentials (engine_impulses.cpp)
  void random_impulse(Index i, double t);
  void periodic_impulse(std::uint32_t which, double t);
  void action_potential_transition(std::uint32_t which, double t);
  void schedule_periodic(std::uint32_t which, std::uint64_t tick);
  void apply_impulse(Index i, const Vec3& dp, double t);

  const Model& model_;
  const std::uint64_t seed_;
  const std::size_t spare_slots_ = 0;  // room reserved in the particle arrays
  ParticleStore particles_;
  SectorGrid grid_;
  BigVector<PackedSector> coords_;
  TetherLists tethers_;
  LoadedEdges loaded_;
  ParticleCalendar calendar_;
  GlobalCalendar global_;

  // Species data cached for the hot paths.
  std::vector<double> mass_;                    // by species
  std::vector<std::uint8_t> hub_species_;       // by species: kept out of the grid
  std::vector<std::vector<Index>> hubs_for_;    // by species: hubs it can block with
  std::vector<Index> hubs_;                     // infinite-mass particles outside the grid

  // Which per-particle structures the model can use (they are not
  // allocated otherwise).
  bool has_random_impulses_ = false;
  bool has_tethers_ = false;
  bool has_loaded_edges_ = false;

  // Random impulses: the number of the next impulse and its time.
  BigVector<std::uint64_t> ri_index_;
  BigVector<double> ri_time_;

  // Periodic impulses: the tick number of the next one, per impulse.
  std::vector<std::uint64_t> periodic_tick_;

  // Action potentials: the active window (-1: none) and Phi[reaction][particle].
  int active_window_ = -1;
  std::vector<std::vector<double>> phi_;

  ParticleRoles roles_;
  bool counts_global_events_ = true;
  bool counting_ = true;  // the event being processed is counted here
  std::uint64_t uncounted_events_ = 0;
  EventTrace last_event_;
  ChangeSet changes_;
  IndexBits moving_;
  double speed2_ceiling_ = 0.0;
  std::unique_ptr<SpeculationState> speculation_;
  // Segments (begin_segments): the frozen ones beneath the open one,
  // oldest first; a new one starts at the next instant after this many
  // instants (0: not in segments), or sooner when one is due (the journal
  // outgrew the undo log); nothing before `committed` may be undone.
  struct Segments {
    std::vector<std::unique_ptr<SpeculationState>> frozen;
    // Committed segments' storage, for the next ones (a segment's marks
    // are an array over every slot: allocating and zeroing one at every
    // segment cost as much as a tenth of the events' time).
    std::vector<std::unique_ptr<SpeculationState>> spares;
    std::size_t instants = 0;
    bool due = false;
    double committed = -kInfinity;
  };
  Segments segments_;
  // Owner-computes mode: the block owned here, holds, foreign outcomes and
  // the outcomes of events run here (null in every other mode). While an
  // event runs here, `event_changed_` collects the particles it changes
  // (first change first) for its outcome.
  std::unique_ptr<OwnerComputes> owner_;
  bool collecting_outcome_ = false;
  // The event running now concerns no other process (set_quiet_core): its
  // outcome carries its key alone.
  bool quiet_event_ = false;
  // Each changed particle with the hash of its record before the event.
  std::vector<std::pair<Index, std::uint64_t>> event_changed_;
  std::size_t journal_floor_ = kDefaultJournalFloor;

  double clock_ = 0.0;
  std::uint64_t events_at_reorder_ = 0;
  mutable EngineStatistics stats_;  // pair_tests is counted by const predictions
  std::vector<EscapeSnapshot> escapes_;  // as the snapshot keeps them
  std::vector<ReleaseSnapshot> releases_;

  // Particles changed by the event being processed; re-predicted after it.
  std::vector<Index> touched_;
  BigVector<std::uint8_t> touched_mark_;
  // From this many touched particles on, they are predicted together.
  static constexpr std::size_t kJointPrediction = 4;
  bool joint_prediction_ = true;
  // Gravity ticks that skip the sector walk where they can.
  TickClearance tick_clearance_;
  // The running bests of predict_together's partners (pair_offers.hpp).
  std::vector<ParticleEvent> offer_ring_;
  CrossedSector crossed_;  // see CrossedSector
  Index next_hint_ = kNoIndex;  // prefetch_next_particle's particle
  // Scratch space reused by every event.
  mutable Group scratch_a_, scratch_b_;
  mutable std::vector<Index> scratch_stack_;
  std::vector<EdgeIndex> scratch_edges_;
  mutable BigVector<std::uint8_t> visit_mark_;
};

}  // namespace tethersim::engine
