#pragma once
// The distributed interface of an engine. A serial engine holds every
// particle; a distributed run gives each rank's engine its block and a halo
// and drives it through this view: which particles are active and owned,
// records in and out, the changes to send, and speculative windows that
// can be undone. The engine's public interface is the serial one; this
// view is the only way to the rest, which is implemented in the engine
// (engine_membership.cpp, engine_speculation.cpp) because it touches
// storage, sectors, links and the calendar.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tethersim/engine/engine.hpp"

namespace tethersim::engine {

class PartialView {
 public:
  // The engine's ticks skip walks as a serial one's: what records placed
  // from outside, frozen particles and undone ticks do to the clearances
  // is in tick_clearance.hpp.
  explicit PartialView(Engine& engine) : engine_(&engine) {}

  Engine& engine() const { return *engine_; }

  // --- roles (particle_roles.hpp). Freezing a particle drops its events
  // and restitutions; activating it predicts them again.
  void set_active(Index i, bool active) const { engine_->set_active(i, active); }
  void set_owned(Index i, bool owned) const { engine_->set_owned(i, owned); }
  // Periodic impulses and action-potential transitions happen on every
  // process; exactly one counts them.
  void set_counts_global_events(bool counts) const { engine_->set_counts_global_events(counts); }
  // Events executed here but counted by another process (the duplicated
  // work of components that straddle ranks).
  std::uint64_t uncounted_events() const { return engine_->uncounted_events(); }

  // --- periodic ticks between windows. Whether the next events in the
  // serial order are ticks at t (every particle event before t has run:
  // entries that no longer hold are predicted again; no other global event
  // at t comes first). Then run_ticks_at(t) runs them, outside any window,
  // and returns how many ran. Each lone particle's impulse reads only the
  // particle, so every process that holds it gets the owner's bits with no
  // undo log and no history; a loaded group's reads all its members, which
  // the caller must hold (or replace the copies that missed some).
  bool ticks_come_first(double t) const { return engine_->ticks_come_first(t); }
  std::size_t run_ticks_at(double t) const { return engine_->run_ticks_at(t); }

  // --- changes: particles changed since clear_changes() (change_set.hpp),
  // each once, with the sector it was in before its first change. Off
  // unless track_changes(true).
  using Change = ChangeSet::Change;
  void track_changes(bool on) const { engine_->track_changes(on); }
  const std::vector<Change>& changes() const { return engine_->changes(); }
  void clear_changes() const { engine_->clear_changes(); }

  // --- records in and out (Engine::record and records read them).
  // Inserts a particle, or replaces everything about it with the record:
  // its trajectory and sector, counters, reaction times, and its tethers and
  // loaded edges with the particles held here (others are not represented).
  // A new particle is frozen and not owned. Returns its index.
  Index upsert(const ParticleRecord& record) const { return engine_->upsert(record); }
  // Forgets a particle (it left this process's view). Its slot is reused
  // only after the next renumbering.
  void remove(Index i) const { engine_->remove(i); }

  // --- speculative windows (engine_speculation.cpp). A distributed run may
  // run a window before it knows the window is exact, and undo it. Between
  // begin_speculation() (at a stop time, with change tracking on) and
  // keep_speculation() or undo_speculation(), the engine keeps every
  // changed particle's record as it was at the start (its undo log) and a
  // history of the events (speculation_log()) for the particles that are
  // not owned here or whose sector is at some point in `logged_sectors`
  // (kept by reference until the window ends).
  void begin_speculation(const SectorMask& logged_sectors) const { engine_->begin_speculation(logged_sectors); }
  // The mask must outlive the window: a temporary would be read after its end.
  void begin_speculation(const SectorMask&&) const = delete;
  bool speculating() const { return engine_->speculating(); }
  const SpeculationLog& speculation_log() const { return engine_->speculation_log(); }
  // The window stands: the state stays, the logs go.
  void keep_speculation() const { engine_->keep_speculation(); }
  // Everything goes back to the window's start, bit for bit: particles,
  // links, counters, statistics, escapes and releases, periodic ticks,
  // action potentials, the clock. Calendar entries made in the window are
  // all dropped (a restored counter would make one of them look valid
  // again once the counter climbs back to the value it names).
  void undo_speculation() const { engine_->undo_speculation(); }
  // Undoes the events at or after t and keeps those before: the engine is
  // then, bit for bit, what run_until(t) from the window's start would have
  // left (the calendar as after undo_speculation()), still speculating,
  // with changes() and the log holding only the events before t. Returns
  // false and changes nothing when a periodic impulse or an
  // action-potential transition ran at or after t, or when the window's
  // events changed so many particles each that it stopped keeping the
  // journal this needs and some event ran at or after t (undo the whole
  // window).
  bool undo_speculation_from(double t) const { return engine_->undo_speculation_from(t); }
  // Bytes the open window's undo log, journal, marks and history hold (0
  // with no window open): they grow with the window's events, so a
  // distributed run ends a window early when they pass its limit.
  std::size_t speculation_bytes() const { return engine_->speculation_bytes(); }
  // A window keeps a journal (what undo_speculation_from needs) until it
  // holds more records than both the undo log and this floor; the open
  // window then drops it (events that each change hundreds of particles:
  // a loaded group, a periodic impulse on every particle). Tests lower it.
  static constexpr std::size_t kDefaultJournalFloor = Engine::kDefaultJournalFloor;
  void set_journal_floor(std::size_t records) const { engine_->set_journal_floor(records); }
  bool speculation_journal_dropped() const { return engine_->speculation_journal_dropped(); }
  // The record a particle had when the window started (itself when it has
  // not changed since).
  ParticleRecord record_at_start(Index i) const { return engine_->record_at_start(i); }
  // Its sector when the window started (no copy of the record).
  SectorCoords sector_at_start(Index i) const { return engine_->sector_at_start(i); }
  // --- speculation in segments (engine_segments.cpp): what a rank that
  // runs ahead of its neighbours keeps, so that it can undo its events
  // from any time above a committed floor, again and again, and free what
  // lies below it. Begun as a window (change tracking on, no change
  // pending) but without histories; a new segment starts at the first new
  // instant after `instants_per_segment` instants, where the journal would
  // outgrow the undo log, and at every periodic impulse and
  // action-potential transition (their effects are undone whole, with the
  // segment they begin). keep_speculation() ends it, keeping the state.
  void begin_segments(std::size_t instants_per_segment) const { engine_->begin_segments(instants_per_segment); }
  // Undoes every event at or after t (t not below the committed floor):
  // the engine is then, bit for bit, what run_until(t) from the first
  // segment's start would have left, and still in segments.
  void undo_segments_from(double t) const { engine_->undo_segments_from(t); }
  // Events before t stand (t becomes the committed floor): segments that
  // hold only such events are freed.
  void commit_segments_before(double t) const { engine_->commit_segments_before(t); }
  // Segments held, the open one included (0 when not in segments).
  std::size_t segment_count() const { return engine_->segment_count(); }
  // --- owner-computes mode (engine_owner_computes.cpp;
  // docs/owner-computes.md). The engine runs only the events whose
  // attributed participant (Engine::attributed_particle) it owns, a particle
  // being owned while its sector is in `block`; an event another process
  // runs, or one with a held participant, is held (its participants leave
  // the calendar) until a new version of one of them arrives. Every event
  // run here leaves an outcome (take_outcomes). Other processes' outcomes
  // are placed once the records they read are the ones held here, at the
  // smallest key among what is ready and the next local event. The engine
  // runs in segments of `instants_per_segment` instants, so it can be
  // undone from any time above the committed floor. Not yet for action
  // potentials (logic_error).
  // With a window (SectorWindow::around the block, one layer deep), only
  // the particles in it, and the loaded components with a member in it,
  // are held: the others are absent (their links kept) until an outcome
  // brings them in, and one that takes them out makes them absent
  // (engine_window_links.cpp).
  void begin_owner_computes(const SectorBox& block, std::size_t instants_per_segment,
                            const SectorWindow* window = nullptr) const {
    engine_->begin_owner_computes(block, instants_per_segment, window);
  }
  // With a window one layer deep: sectors so far inside the block that an
  // event whose participants all lie in them concerns no other process
  // (every record it leaves is more than two layers from any other block:
  // the block less three layers on each side that faces another process,
  // since an event moves a particle by one sector at most). Such an
  // event's outcome carries its key alone (no records, no read hashes:
  // the hashing and copying it saves was a tenth of a rank's time), which
  // is what SentOutcomes::pass needs.
  void set_quiet_core(const SectorBox& core) const { engine_->set_quiet_core(core); }
  // Whether begin_owner_computes takes a window one layer deep with this
  // model: not with hubs that tethers or loaded groups can reach (a hub's
  // links differ from process to process).
  bool takes_one_layer_window() const { return engine_->takes_one_layer_window(); }
  // Back to a plain engine with the state kept (no outcome may be pending).
  void end_owner_computes() const { engine_->end_owner_computes(); }
  bool owner_computes_on() const { return engine_->owner_computes_on(); }
  // A round ends at `until` with everything before it final, nothing
  // pending and nothing run at or after it: the segments go. The engine
  // stays in owner-computes mode, to serve the run between rounds and go on
  // with the next (its counts, escapes and releases are the run's since
  // it was built).
  void close_owner_round(double until) const { engine_->close_owner_round(until); }
  // The outcomes of the events run here since the last call, in the order
  // they ran.
  std::vector<EventOutcome> take_outcomes() const { return engine_->take_outcomes(); }
  // An outcome at or before the latest event run here in this mode came
  // late: events run here may have read what it changes, or (at that
  // instant) have come after it. Undo from its time before adding it. (Not
  // the clock: an engine built at T, or undone back to T, has run nothing
  // at T.)
  bool is_straggler(const EventKey& key) const { return engine_->is_straggler(key); }
  // An event of this engine, or an outcome that became ready, came up
  // before the latest event run here (it was held while later ones ran,
  // which may have read what it changes): run_until stopped in front of
  // it. Undo from its key's time, as for a late outcome, and run on.
  std::optional<EventKey> take_undo_due() const { return engine_->take_undo_due(); }
  // Another process's outcome: placed once the records it read are the
  // ones held here and its key comes before the engine's next event.
  void add_foreign_outcome(EventOutcome outcome, int sender) const {
    engine_->add_foreign_outcome(std::move(outcome), sender);
  }
  // A late outcome (is_straggler): undoes this engine only from where the
  // outcome can first have changed what ran here (its impact time:
  // engine_impact.cpp), if that is at or before the latest event run, and
  // places it at once when it can be; returns the time undone from (none:
  // nothing was undone). The same bits as undoing from its time and adding it.
  std::optional<double> take_late_outcome(EventOutcome outcome, int sender) const {
    return engine_->take_late_outcome(std::move(outcome), sender);
  }
  // Of the instants the late outcomes' undos took back (from their impact
  // times), those that changed a particle the outcome's particles reach
  // through the events run since: a lower bound on what an undo of only
  // the particles concerned would take back (totals over the engine's life).
  UndoReach late_undo_reach() const { return engine_->late_undo_reach(); }
  // Undoes every event at or after t (placed outcomes go back to wait for
  // their keys; outcomes of undone events not yet taken are dropped; holds
  // are made again as events surface).
  void undo_owner_from(double t) const { engine_->undo_owner_from(t); }
  // `sender` undid its events from the key `from` on: its outcomes at or
  // after it are void. Returns the key of the earliest one this engine had
  // placed (it was undone from that key's time), or a key at kInfinity.
  EventKey cancel_foreign_from(int sender, const EventKey& from) const {
    return engine_->cancel_foreign_from(sender, from);
  }
  // `sender` withdrew its outcome of `key` (a re-run did not give it, or
  // gave other bits): it is dropped, and if it was placed this engine is
  // undone from its time first. Returns `key` if it was placed, else a key
  // at kInfinity.
  EventKey withdraw_foreign(int sender, const EventKey& key) const { return engine_->withdraw_foreign(sender, key); }
  // Nothing before t will be undone or cancelled: its bookkeeping goes.
  void commit_owner_before(double t) const { engine_->commit_owner_before(t); }
  // A lower bound on the time of anything this engine may still run or
  // place (held events excluded: their outcomes come from elsewhere).
  double floor_time() const { return engine_->floor_time(); }
  // The time at which the committed floor's agreement counts what comes
  // at `key` (to run, to place, on its way or to cancel): its time, or
  // just before it when it comes before a periodic impulse at that very
  // time. A tick runs once the agreed floor reaches its time, with nothing
  // kept to undo it (docs/owner-computes.md, "Ticks as barriers"), so the
  // floor must not reach it while anything before it is left.
  double agreement_time(const EventKey& key) const { return engine_->agreement_time(key); }
  // Every key below this is final on every process (the last tick run).
  EventKey final_below() const { return engine_->final_below(); }
  // Runs the ticks at t that the agreed floor has cleared and this engine
  // has not run yet: a round that ends at such a tick hands back one state.
  void finish_ticks_at(double t) const { engine_->finish_ticks_at(t); }
  // Whether this engine's next global event is a periodic tick at t that
  // the agreed floor has cleared (finish_ticks_at would run it).
  bool tick_next_at(double t) const { return engine_->tick_next_at(t); }
  // Nothing below t may run or be undone on this engine's own account
  // (Engine::protect_floor).
  void protect_floor(double t) const { engine_->protect_floor(t); }
  double protected_floor() const { return engine_->protected_floor(); }
  // The same without pending outcomes that are not ready (they wait for
  // something another process sends): the earliest time this engine can
  // still run or place anything by itself.
  double runnable_floor_time() const { return engine_->runnable_floor_time(); }
  std::size_t held_count() const { return engine_->held_count(); }

  // A hash of everything a record holds (trajectory, counter, sector,
  // random-impulse and reaction state, tethers and loaded edges by id).
  std::uint64_t record_hash(Index i) const { return engine_->record_hash(i); }

 private:
  Engine* engine_;
};

}  // namespace tethersim::engine
