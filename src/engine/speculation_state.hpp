#pragma once
// The engine's bookkeeping while a speculative window is open (private to
// src/engine; every file that constructs or destroys an Engine includes it).

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "saved_records.hpp"
#include "tethersim/engine/engine.hpp"

namespace tethersim::engine {

struct Engine::SpeculationState {
  // The engine as it was just before the first event at `time` (taken when
  // the clock of the events passes a new time): what undoing the window
  // from `time` on restores besides the particles. One per event time, so
  // kept small: the statistics are stored as changes from the previous
  // mark (stats_changes up to stats_end), sizes in 32 bits (a window's logs
  // stay far below 2^32 entries: the window memory ends it first; escapes
  // and releases are at most one per particle, and particle indices are 32
  // bits).
  struct Mark {
    double time = 0.0;
    double clock = 0.0;
    std::uint64_t uncounted = 0;
    std::uint64_t global_events = 0;
    std::uint32_t escapes = 0, releases = 0;
    std::uint32_t undo = 0, journal = 0;  // sizes of the undo log and the journal
    std::uint32_t entries = 0, contacts = 0;  // sizes of the history
    std::uint32_t stats_end = 0;
  };
  // Each mark's statistics minus the previous mark's (the window start's
  // for the first), as (field, difference) pairs for the fields that moved.
  std::vector<std::uint8_t> stats_changes;
  EngineStatistics stats_at_last_mark;
  SpeculationLog log;
  const SectorMask* logged_sectors = nullptr;
  // False in segments (Engine::begin_segments): no history is kept, since
  // nothing compares runs of one particle on several processes there.
  bool histories = true;
  // The time of the window's first event (its first mark), infinite before
  // it: a segment whose first event is at or after an undo's time goes
  // whole.
  double first_time = kInfinity;
  // A segment that a newer one followed: its part of the change set, given
  // back to the engine's when the newer ones are undone and it is the open
  // one again (the change set runs parallel to the open undo log).
  std::vector<ChangeSet::Change> frozen_changes;
  // The undo log: records at the window's start, by particle, in the order
  // of first change (the change set tells which have one).
  SavedRecords undo;
  std::vector<Index> undo_index;
  // The journal: a particle's record before each later change, once per
  // mark (its first change is in undo), so that the window can be undone
  // from any time on and keep what came before.
  std::vector<Mark> marks;
  SavedRecords journal;
  std::vector<Index> journal_index;
  // Set when the journal outgrew the undo log (and the engine's journal
  // floor): events that each change many particles (a loaded group of
  // hundreds, a periodic impulse on every particle) would make it grow by
  // that many records per event. The journal and the marks are then freed
  // and no longer kept: the window can only be undone whole, and its
  // bookkeeping stays near one record per particle it changed.
  bool journal_dropped = false;
  // The latest time any calendar entry was taken at in the window (stale
  // ones included): without a journal, undoing from a later time has
  // nothing to undo.
  double latest = -kInfinity;
  // Periodic impulses and action-potential transitions run in the window
  // (their global effects are not journaled).
  std::uint64_t global_events = 0;
  // The event being processed: its participants, each once.
  mutable std::vector<Index> participants;
  // What the window knows of each particle held at its start, in one
  // array: an event's bookkeeping for a participant then touches one cache
  // line. (With four arrays, at half a million particles per process each
  // was a cache miss per participant and event, about an eighth of a
  // window's execution.) Zero-filled pages from calloc: a window touches a
  // small part of it.
  // A journal mark no mark count reaches (a window ends far below 2^32
  // marks): the particle's next change is journaled.
  static constexpr std::uint32_t kJournalNever = 0xffffffffu;
  struct PerParticle {
    std::uint32_t undo_slot;     // 1 + its place in undo; 0: not changed in the window
    std::uint32_t journal_mark;  // marks when last saved (meaningful once undo_slot != 0)
    std::uint8_t logged;         // its events are logged (sticky for the window)
    std::uint8_t participant;    // takes part in the event being processed
  };
  struct FreeWithFree {
    void operator()(PerParticle* p) const { std::free(p); }
  };
  std::unique_ptr<PerParticle[], FreeWithFree> per_particle;
  std::size_t particles_held = 0;  // the length of per_particle
  // Global state at the window's start.
  EngineStatistics stats;
  std::uint64_t uncounted = 0;
  double clock = 0.0;
  std::size_t escapes = 0;
  std::size_t releases = 0;
  std::vector<std::uint64_t> periodic_ticks;
  int active_window = -1;
  std::vector<std::vector<double>> phi;  // kept at the first action-potential transition
  bool phi_saved = false;

  // What the logs hold. The records' own lists (tethers, loaded edges,
  // reaction times) are left out: empty for most particles, and walking
  // them would cost a pass.
  std::size_t bytes() const {
    return undo.bytes() + journal.bytes() +
           (undo_index.capacity() + journal_index.capacity()) * sizeof(Index) + marks.capacity() * sizeof(Mark) +
           stats_changes.capacity() + log.entries.capacity() * sizeof(HistoryEntry) +
           log.contacts.capacity() * sizeof(OwnedContact) + frozen_changes.capacity() * sizeof(ChangeSet::Change) +
           particles_held * sizeof(PerParticle);
  }
};

}  // namespace tethersim::engine
