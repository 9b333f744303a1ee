// Speculative windows: an undo log of every particle a window changes, and
// a history of events for comparing runs of the same particle on several
// processes (docs/distribution.md, "Speculative windows").
#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "owner_computes_state.hpp"
#include "speculation_state.hpp"
#include "tethersim/engine/hash_bits.hpp"
#include "tethersim/engine/record_hash.hpp"
#include "tethersim/engine/particle_words.hpp"
#include "tethersim/physics/counter_rng.hpp"

namespace tethersim::engine {


Engine::~Engine() = default;

void Engine::begin_speculation(const SectorMask& logged_sectors) {
  if (speculation_) throw std::logic_error("a speculative window is already open");
  if (!changes_.tracking()) throw std::logic_error("speculative windows need change tracking");
  if (!changes_.empty()) throw std::logic_error("a speculative window must start with no change pending");
  // Renumbering moves particles between slots, which the logs name: it
  // happens between windows only.
  reorder_when_due(2);
  speculation_ = open_speculation_state();
  speculation_->logged_sectors = &logged_sectors;
}

std::unique_ptr<Engine::SpeculationState> Engine::open_speculation_state(
    std::unique_ptr<SpeculationState> reuse) const {
  auto s = std::make_unique<SpeculationState>();
  s->log.start = clock_;
  const std::size_t n = particles_.size();
  if (reuse && reuse->particles_held <= n) {
    // Only the particles it changed have marks (a segment notes no
    // participants and logs nothing); slots added since are zeroed.
    for (Index i : reuse->undo_index) reuse->per_particle[i] = SpeculationState::PerParticle{};
    if (reuse->particles_held < n) grow_marks(*reuse, n);
    s->per_particle = std::move(reuse->per_particle);
    const auto emptied = [](auto& from, auto& to) {
      from.clear();
      std::swap(to, from);
    };
    emptied(reuse->undo, s->undo);
    emptied(reuse->undo_index, s->undo_index);
    emptied(reuse->journal, s->journal);
    emptied(reuse->journal_index, s->journal_index);
    emptied(reuse->marks, s->marks);
    emptied(reuse->stats_changes, s->stats_changes);
  } else {
    void* zeroed = std::calloc(std::max<std::size_t>(n, 1), sizeof(SpeculationState::PerParticle));
    if (zeroed == nullptr) throw std::bad_alloc();
    s->per_particle.reset(static_cast<SpeculationState::PerParticle*>(zeroed));
  }
  s->particles_held = n;
  s->stats = stats_;
  s->stats_at_last_mark = stats_;
  s->uncounted = uncounted_events_;
  s->clock = clock_;
  s->escapes = escapes_.size();
  s->releases = releases_.size();
  s->periodic_ticks = periodic_tick_;
  s->active_window = active_window_;
  return s;
}

const SpeculationLog& Engine::speculation_log() const {
  if (!speculation_) throw std::logic_error("no speculative window is open");
  return speculation_->log;
}

void Engine::keep_speculation() {
  speculation_.reset();
  segments_ = Segments{};
}

std::size_t Engine::speculation_bytes() const {
  if (!speculation_) return 0;
  std::size_t bytes = speculation_->bytes();
  for (const auto& frozen : segments_.frozen) bytes += frozen->bytes();
  return bytes;
}

bool Engine::note_speculative_change(Index i) {
  SpeculationState& s = *speculation_;
  // A slot appended since the state was opened (a ghost coming in).
  if (i >= s.particles_held) grow_marks(s, particles_.size());
  note_participant(i);
  SpeculationState::PerParticle& p = s.per_particle[i];
  const auto marks = static_cast<std::uint32_t>(s.marks.size());
  if (p.undo_slot != 0) {
    // A later change: the journal keeps the record once per mark.
    if (s.journal_dropped || p.journal_mark == marks) return false;
    p.journal_mark = marks;
    save_record(s.journal, i);
    s.journal_index.push_back(i);
    if (s.journal.size() > std::max(s.undo.size(), journal_floor_)) {
      // In segments the next instant begins a new one instead: every
      // segment can still be undone from any time.
      if (segments_.instants != 0) {
        segments_.due = true;
      } else {
        drop_journal();
      }
    }
    return false;
  }
  // First change in the window: keep the record as it is now. Whether its
  // events are logged is decided by where it starts, too.
  p.journal_mark = marks;
  save_record(s.undo, i);
  p.undo_slot = static_cast<std::uint32_t>(s.undo.size());
  s.undo_index.push_back(i);
  if (s.histories && (!is_owned(i) || s.logged_sectors->contains(sector(i)))) p.logged = 1;
  return true;
}

namespace {

// The statistics as 64-bit words (every field is one or an array of them).
constexpr std::size_t kStatisticsWords = sizeof(EngineStatistics) / sizeof(std::uint64_t);
static_assert(sizeof(EngineStatistics) % sizeof(std::uint64_t) == 0 && kStatisticsWords < 256);
static_assert(std::is_trivially_copyable_v<EngineStatistics>);

std::array<std::uint64_t, kStatisticsWords> statistics_words(const EngineStatistics& s) {
  std::array<std::uint64_t, kStatisticsWords> words;
  std::memcpy(words.data(), &s, sizeof s);
  return words;
}

// Appends (field, now - before) for every field that differs, the
// difference modulo 2^64 in 7-bit groups (most are 1 or a few).
void append_statistics_change(std::vector<std::uint8_t>& out, const EngineStatistics& before,
                              const EngineStatistics& now) {
  const auto a = statistics_words(before), b = statistics_words(now);
  for (std::size_t k = 0; k < kStatisticsWords; ++k) {
    std::uint64_t d = b[k] - a[k];
    if (d == 0) continue;
    out.push_back(static_cast<std::uint8_t>(k));
    while (d >= 0x80) {
      out.push_back(static_cast<std::uint8_t>(d | 0x80));
      d >>= 7;
    }
    out.push_back(static_cast<std::uint8_t>(d));
  }
}

// `start` plus every change in `changes[0, end)`.
EngineStatistics replay_statistics_changes(const EngineStatistics& start, const std::vector<std::uint8_t>& changes,
                                           std::size_t end) {
  auto words = statistics_words(start);
  for (std::size_t at = 0; at < end;) {
    const std::size_t k = changes[at++];
    std::uint64_t d = 0;
    for (int shift = 0;; shift += 7) {
      const std::uint8_t byte = changes[at++];
      d |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) break;
    }
    words[k] += d;
  }
  EngineStatistics s;
  std::memcpy(static_cast<void*>(&s), words.data(), sizeof s);  // trivially copyable (asserted)
  return s;
}

}  // namespace

void Engine::grow_marks(SpeculationState& s, std::size_t particles) {
  void* grown = std::realloc(s.per_particle.get(), particles * sizeof(SpeculationState::PerParticle));
  if (grown == nullptr) throw std::bad_alloc();
  (void)s.per_particle.release();
  s.per_particle.reset(static_cast<SpeculationState::PerParticle*>(grown));
  std::memset(static_cast<void*>(s.per_particle.get() + s.particles_held), 0,
              (particles - s.particles_held) * sizeof(SpeculationState::PerParticle));
  s.particles_held = particles;
}

bool Engine::speculation_journal_dropped() const { return speculation_ && speculation_->journal_dropped; }

void Engine::drop_journal() {
  SpeculationState& s = *speculation_;
  s.journal_dropped = true;
  s.journal.release();
  std::vector<Index>().swap(s.journal_index);
  std::vector<SpeculationState::Mark>().swap(s.marks);
  std::vector<std::uint8_t>().swap(s.stats_changes);
}

void Engine::note_speculation_time(double t, bool journaled) {
  if (segments_.instants != 0 && t > speculation_->latest && speculation_->first_time < t) {
    // A new instant, in a segment that holds earlier ones.
    const SpeculationState& open = *speculation_;
    if (segments_.due || !journaled || open.marks.size() >= segments_.instants) start_segment(t);
  }
  SpeculationState& s = *speculation_;
  if (owner_ && !s.marks.empty() && t < s.marks.back().time) {
    // Its changes would be taken for the later instant's, and an undo from
    // between the two would take them back unasked (run_until stops in
    // front of such an event: owner_undo_due).
    throw std::logic_error("owner-computes: an event at " + std::to_string(t) + " after one at " +
                           std::to_string(s.marks.back().time));
  }
  s.latest = std::max(s.latest, t);
  if (s.journal_dropped) return;
  if (s.marks.empty() || t > s.marks.back().time) {
    SpeculationState::Mark m;
    m.time = t;
    append_statistics_change(s.stats_changes, s.stats_at_last_mark, stats_);
    s.stats_at_last_mark = stats_;
    m.stats_end = static_cast<std::uint32_t>(s.stats_changes.size());
    m.uncounted = uncounted_events_;
    m.clock = clock_;
    m.escapes = static_cast<std::uint32_t>(escapes_.size());
    m.releases = static_cast<std::uint32_t>(releases_.size());
    m.undo = static_cast<std::uint32_t>(s.undo.size());
    m.journal = static_cast<std::uint32_t>(s.journal.size());
    m.entries = static_cast<std::uint32_t>(s.log.entries.size());
    m.contacts = static_cast<std::uint32_t>(s.log.contacts.size());
    m.global_events = s.global_events;
    if (s.marks.empty()) s.first_time = t;
    s.marks.push_back(m);
  }
  if (!journaled) ++s.global_events;
}

bool Engine::undo_speculation_from(double t) {
  if (!speculation_) throw std::logic_error("no speculative window is open");
  SpeculationState& s = *speculation_;
  if (s.journal_dropped) return s.latest < t;
  const auto first = std::lower_bound(s.marks.begin(), s.marks.end(), t,
                                      [](const SpeculationState::Mark& m, double x) { return m.time < x; });
  if (first == s.marks.end()) return true;  // nothing ran at or after t
  const SpeculationState::Mark m = *first;
  if (s.global_events != m.global_events) return false;
  // Each particle that changed at or after t goes back to its record before
  // the first of those changes: the window's start for particles first
  // changed then, else their first journal entry from the mark on.
  // Each once: the participant marks (clear between events) say which
  // are taken, so an undo costs what it restores, not a pass over every
  // particle held.
  std::vector<Index> order;
  std::vector<std::pair<const SavedRecords*, std::size_t>> records;
  for (std::size_t k = m.undo; k < s.undo.size(); ++k) {
    s.per_particle[s.undo_index[k]].participant = 1;
    order.push_back(s.undo_index[k]);
    records.emplace_back(&s.undo, k);
  }
  for (std::size_t k = m.journal; k < s.journal.size(); ++k) {
    const Index i = s.journal_index[k];
    if (s.per_particle[i].participant != 0) continue;
    s.per_particle[i].participant = 1;
    order.push_back(i);
    records.emplace_back(&s.journal, k);
  }
  for (Index i : order) s.per_particle[i].participant = 0;
  // Records first, predictions once every one is back (as in
  // undo_speculation).
  for (const auto& [saved, k] : records) place_record(saved->record(k));
  // The change list runs parallel to the undo log (a particle's first
  // change adds to both).
  changes_.keep_first(m.undo);
  for (std::size_t k = m.undo; k < s.undo.size(); ++k) s.per_particle[s.undo_index[k]].undo_slot = 0;
  // A particle that changed before t keeps its undo slot, but the journal
  // entries it had from the mark on are gone: its next change must be
  // journaled again, whatever mark count its last entry was made at (the
  // marks are counted again from here, and would meet that count).
  for (std::size_t k = m.journal; k < s.journal.size(); ++k) {
    s.per_particle[s.journal_index[k]].journal_mark = SpeculationState::kJournalNever;
  }
  s.undo.keep_first(m.undo);
  s.undo_index.resize(m.undo);
  s.journal.keep_first(m.journal);
  s.journal_index.resize(m.journal);
  s.log.entries.resize(m.entries);
  s.log.contacts.resize(m.contacts);
  s.marks.erase(first, s.marks.end());
  if (s.marks.empty()) s.first_time = kInfinity;
  stats_ = replay_statistics_changes(s.stats, s.stats_changes, m.stats_end);
  s.stats_changes.resize(m.stats_end);
  s.stats_at_last_mark = stats_;
  uncounted_events_ = m.uncounted;
  clock_ = m.clock;
  escapes_.resize(m.escapes);
  releases_.resize(m.releases);
  // Periodic ticks, the action-potential window and reaction times did
  // not change from t on (checked above).
  rebuild_global_calendar(t);
  predict_restored(order);
  return true;
}

void Engine::predict_restored(const std::vector<Index>& restored) {
  // Their stamps moved when their records went back, so every entry naming
  // one is stale: a restored counter would otherwise let an entry made in
  // the window pass as valid once the counter climbs back to the value it
  // names.
  for (Index i : restored) {
    if (owner_) update_owned(i);  // an undone crossing is an undone hand-over
    if (has_prediction(i)) {
      repredict(i);
    } else {
      calendar_.remove(i);
    }
  }
}

void Engine::save_reaction_times() {
  if (!speculation_ || speculation_->phi_saved) return;
  speculation_->phi = phi_;
  speculation_->phi_saved = true;
}

void Engine::save_record(SavedRecords& to, Index i) const {
  // The particle state alone when it has no links (most particles, on the
  // path of every event), else the whole record.
  if (phi_.empty() && tethers_.empty(i) && loaded_.adjacency().empty(i)) {
    to.push(particle_snapshot(i));
  } else {
    to.push(record(i));
  }
}

void Engine::note_participant(Index i) const {
  SpeculationState& s = *speculation_;
  // Only the histories read the participants (segments keep none): no
  // touch of the particle's bookkeeping for them.
  if (!s.histories) return;
  std::uint8_t& mark = s.per_particle[i].participant;
  if (mark != 0) return;
  mark = 1;
  s.participants.push_back(i);
}

void Engine::begin_event(Index a, Index b) const {
  if (!speculation_) return;
  note_participant(a);
  if (b != kNoIndex) note_participant(b);
}

void Engine::end_event(double t, EventKind kind) {
  if (!speculation_) return;
  SpeculationState& s = *speculation_;
  if (!s.histories) return;  // no participants noted
  bool owned = false, other = false;
  for (Index x : s.participants) {
    if (is_hub(x)) continue;
    (is_owned(x) ? owned : other) = true;
  }
  // Every event that read an owned particle and another: the other's state
  // mattered to the owned particle from this time on.
  const bool contact = owned && other;
  // The event's identity: its kind, time and participants (in any order),
  // computed only when some participant's history needs it (most events
  // are deep inside a block, where none does).
  std::uint64_t event = 0;
  bool identified = false;
  for (Index x : s.participants) {
    SpeculationState::PerParticle& p = s.per_particle[x];
    p.participant = 0;
    if (is_hub(x)) continue;
    if (contact && !is_owned(x)) s.log.contacts.push_back({x, t, s.participants.size() > 2});
    if (p.logged == 0) {
      if (is_owned(x) && !s.logged_sectors->contains(sector(x))) continue;
      p.logged = 1;
    }
    if (!identified) {
      std::uint64_t ids = 0;
      for (Index y : s.participants) ids += physics::mix_hash(3, particles_.id[y]);
      event = physics::mix_hash(bits(t), static_cast<std::uint64_t>(kind), ids, s.participants.size());
      identified = true;
    }
    s.log.entries.push_back({t, physics::mix_hash(event, record_hash(x)), x, sector(x)});
  }
  s.participants.clear();
}

std::uint64_t Engine::record_hash(Index i) const {
  // Every particle field (the field list), then the reaction times and the
  // links, which a record holds besides.
  std::uint64_t h = particle_record_hash(particle_snapshot(i), has_random_impulses_);
  for (const auto& phi : phi_) h = physics::mix_hash(h, bits(phi[i]));
  // Links in any order: sums of one term each (record_hash.hpp).
  std::uint64_t links = 0;
  tethers_.for_each(i, [&](Index j, std::uint32_t) { links += tether_hash_term(particles_.id[j]); });
  loaded_.adjacency().for_each(i, [&](Index j, std::uint32_t e) {
    const LoadedEdge& edge = loaded_[e];
    links += loaded_edge_hash_term(particles_.id[j], edge.impulse, edge.time, edge.sequence);
  });
  return physics::mix_hash(h, links);
}

ParticleRecord Engine::record_at_start(Index i) const {
  if (speculation_ && changes_.changed(i)) return speculation_->undo.record(speculation_->per_particle[i].undo_slot - 1);
  return record(i);
}

SectorCoords Engine::sector_at_start(Index i) const {
  if (speculation_ && changes_.changed(i)) {
    return speculation_->undo.particle(speculation_->per_particle[i].undo_slot - 1).sector;
  }
  return sector(i);
}

void Engine::undo_speculation() {
  if (!speculation_) throw std::logic_error("no speculative window is open");
  std::unique_ptr<SpeculationState> owned_state = std::move(speculation_);
  SpeculationState& s = *owned_state;
  // Clearances are kept as tick numbers modulo 256, compared only within
  // 66 of the next tick; an undone tick takes the numbers back, so every
  // one is forgotten (tick_clearance.hpp). Restored particles would be
  // forgotten anyway by their predictions below; this keeps the encoding's
  // premise for the others too (a tick's particles that it did not change,
  // such as a group held by an infinite mass, walked at every tick), which
  // no test can tell apart today.
  const bool ticks_undone = periodic_tick_ != s.periodic_ticks;
  periodic_tick_ = s.periodic_ticks;
  if (ticks_undone) tick_clearance_.forget_all(next_tick_number());
  // Records go back first; predictions wait until every one is back (a
  // prediction reads partners that may not be restored yet).
  for (std::size_t k = 0; k < s.undo.size(); ++k) place_record(s.undo.record(k));
  stats_ = s.stats;
  uncounted_events_ = s.uncounted;
  clock_ = s.clock;
  escapes_.resize(s.escapes);
  releases_.resize(s.releases);
  active_window_ = s.active_window;
  if (s.phi_saved) phi_ = std::move(s.phi);
  rebuild_global_calendar(s.log.start);
  predict_restored(s.undo_index);
  clear_changes();
}

void Engine::rebuild_global_calendar(double from) {
  global_.clear();
  loaded_.for_each_open([&](EdgeIndex e, const LoadedEdge& edge) {
    loaded_[e].scheduled = false;
    if (can_restitute(edge)) schedule_restitution(e);
  });
  for (std::uint32_t k = 0; k < periodic_tick_.size(); ++k) schedule_periodic(k, periodic_tick_[k]);
  schedule_action_potentials(from);
}

}  // namespace tethersim::engine
