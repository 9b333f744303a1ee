// Impact times (docs/owner-computes.md, "Impact time"): an outcome of
// another process that arrives after this process has run past its time
// undoes only what it can have changed. Events read exactly the particles
// they change, so what ran here after the outcome's time t can depend on
// its new records only through
//   (a) an event here, after t, that changed one of its particles (it read
//       the old record), or
//   (b) an event the new records would have had here, after t, and did
//       not: a meeting with a particle as it was then, or an event of the
//       particle alone (a sector crossing, a wall, a random impulse).
// The undo goes back to the earliest of these when it lies at or before
// the latest event run here, and no further; the outcome is then placed
// at once, at the instant reached, since nothing run before that instant
// met its records; if one of its own events (a restitution of its loaded
// edges run here among them) is due before that instant, from that event. Undoing
// more is always exact: every bound below is a lower bound, and where one
// cannot be told cheaply (a loaded component coming in whole) the
// outcome's own time is taken.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "owner_computes_state.hpp"
#include "speculation_state.hpp"

namespace tethersim::engine {

namespace {

// The first time in [0, span] at which two straight-line trajectories, dx
// apart with relative velocity dv at its start, come within `reach` (0 when
// they are already), or kInfinity when they do not within the span. A lower
// bound on any pair event the engine would find there: the reach is widened
// by a part in 10^6, far beyond what rounding of the engine's own arithmetic
// (from its own reference time) can move an event by. `half_period`: half
// the shortest periodic box length; while the pair moves less than that
// (less the reach), no other periodic image can come within reach.
// Whether, over the span, a pair moving apart at relative speed sqrt(a)
// could bring another periodic image within `reach`.
bool another_image_may_come(double a, double span, double half_period, double reach) {
  return half_period < kInfinity &&
         (half_period <= reach || a * span * span >= (half_period - reach) * (half_period - reach));
}

double first_within(const Vec3& dx, const Vec3& dv, double reach, double span, double half_period) {
  const double r = reach * (1.0 + 1e-6) + 1e-12;
  const double a = dv.dot(dv);
  if (another_image_may_come(a, span, half_period, r)) return 0.0;
  const double c = dx.dot(dx) - r * r;
  if (c <= 0.0) return 0.0;
  const double b = dx.dot(dv);
  if (b >= 0.0) return kInfinity;  // receding: the distance only grows
  const double d = b * b - a * c;
  if (d < 0.0) return kInfinity;
  const double dt = std::max(0.0, (-b - std::sqrt(d)) / a * (1.0 - 1e-9));
  return dt <= span ? dt : kInfinity;
}

// The first time in [0, span] at which two tethered trajectories, dx apart
// with relative velocity dv, come out to `length` (0 when they already
// are: a taut tether acts at once), or kInfinity. The tether's length is
// narrowed by a part in 10^6, as first_within widens its reach.
double first_beyond(const Vec3& dx, const Vec3& dv, double length, double span, double half_period) {
  if (!(length < kInfinity)) return kInfinity;
  const double r = length * (1.0 - 1e-6) - 1e-12;
  const double a = dv.dot(dv);
  if (another_image_may_come(a, span, half_period, length)) return 0.0;
  const double c = dx.dot(dx) - r * r;
  if (c >= 0.0 || r <= 0.0) return 0.0;
  if (a == 0.0) return kInfinity;
  const double b = dx.dot(dv);
  // c < 0: inside the tether, one root after now.
  const double dt = std::max(0.0, (-b + std::sqrt(b * b - a * c)) / a * (1.0 - 1e-9));
  return dt <= span ? dt : kInfinity;
}

// Whether two sectors are neighbours (or one), across periodic faces too.
bool neighbouring(const SectorGrid& grid, const SectorCoords& a, const SectorCoords& b) {
  for (int k = 0; k < 3; ++k) {
    const std::int32_t d = a[k] > b[k] ? a[k] - b[k] : b[k] - a[k];
    if (d > 1 && !(grid.periodic(k) && d == grid.shape()[k] - 1)) return false;
  }
  return true;
}

// When a particle following `p` first reaches a face of its sector (at
// once when a rounding error put it past one).
double sector_exit(const SectorGrid& grid, const ParticleSnapshot& p) {
  double exit = kInfinity;
  for (int k = 0; k < 3; ++k) {
    if (p.v[k] == 0.0) continue;
    const bool upward = p.v[k] > 0.0;
    const double dt = (grid.face(k, upward ? p.sector[k] + 1 : p.sector[k]) - p.u0[k]) / p.v[k];
    exit = std::min(exit, p.t0 + std::max(dt, 0.0));
  }
  return exit;
}

}  // namespace

template <typename Visit>
void Engine::for_each_saved_since(double t, Visit&& visit) const {
  const auto scan = [&](const SpeculationState& s) {
    if (s.journal_dropped) throw std::logic_error("a segment dropped its journal");
    if (!s.marks.empty() && (s.marks.front().undo != 0 || s.marks.front().journal != 0)) {
      throw std::logic_error("a segment saved records before its first instant");
    }
    auto mark = std::lower_bound(s.marks.begin(), s.marks.end(), t,
                                 [](const SpeculationState::Mark& m, double x) { return m.time < x; });
    for (; mark != s.marks.end(); ++mark) {
      const bool last = mark + 1 == s.marks.end();
      const std::size_t undo_end = last ? s.undo.size() : (mark + 1)->undo;
      const std::size_t journal_end = last ? s.journal.size() : (mark + 1)->journal;
      for (std::size_t k = mark->undo; k < undo_end; ++k) visit(s.undo_index[k], s.undo, k, mark->time);
      for (std::size_t k = mark->journal; k < journal_end; ++k) visit(s.journal_index[k], s.journal, k, mark->time);
    }
  };
  for (const auto& frozen : segments_.frozen) scan(*frozen);
  scan(*speculation_);
}

double Engine::impact_in_logs(const EventOutcome& outcome) const {
  const double t = outcome.key.time;
  // The outcome's particles here, and their new records.
  struct Changed {
    Index here;
    const ParticleRecord* record;
  };
  std::vector<Changed> changed;
  // Absent here now and staying out: only a change here since t (it was
  // here then) can make what ran here depend on it; then its own time.
  // Meetings of the new record with ghosts here come with their own
  // outcomes, and it cannot reach an owned particle before it comes in,
  // which its own outcome announces.
  std::vector<Index> staying_out;
  // A loaded component coming in whole: its own time.
  for (const ParticleRecord& r : outcome.introductions) {
    const Index i = particles_.index_of(r.particle.id);
    if (i == kNoIndex || absent(i)) return t;
  }
  for (const ParticleRecord& r : outcome.records) {
    const Index i = particles_.index_of(r.particle.id);
    if (i == kNoIndex || absent(i)) {
      if (!owner_->window) return t;
      if (r.particle.alive != 0 && owner_->window->contains(r.particle.sector)) {
        // Coming in: nothing here read it since t (it was not here, or
        // its slot's changes since t are (a)); what it would have met is
        // (b), and first_event_of's part once it is placed, as for a
        // particle held here.
        changed.push_back({i, &r});
        continue;
      }
      if (i != kNoIndex) staying_out.push_back(i);
      continue;
    }
    // Loaded groups need nothing more here: every event of a group (a
    // loading, a restitution, a collision of a member) changes every member
    // it moves, and the sender holds whole components, so a member held
    // here is among the outcome's particles and its changes here are (a).
    // What the new edges schedule (their restitutions, global events) is
    // first_event_of's part.
    changed.push_back({i, &r});
  }
  double impact = kInfinity;
  // Until a new record leaves its sector, only particles in the sectors
  // around can come within reach of it (a sector is at least as wide as
  // the reach): pieces elsewhere are passed over, and the search stops at
  // the exit (as the record's own next events would: first_event_of).
  for (const Changed& x : changed) {
    if (x.record->particle.alive != 0) impact = std::min(impact, sector_exit(grid_, x.record->particle));
  }
  // One record saved here before a change at `changed_at` (at or after t):
  // the particle followed it from its t0 until then.
  const auto piece = [&](Index i, const SavedRecords& saved, std::size_t k, double changed_at) {
    if (impact <= t) return;  // nothing earlier can be found
    if (std::find(staying_out.begin(), staying_out.end(), i) != staying_out.end()) {
      impact = t;
      return;
    }
    for (const Changed& x : changed) {
      if (x.here == i) {
        impact = std::min(impact, changed_at);  // (a): an event here read its old record
        return;
      }
    }
    // (b): a meeting with its old piece. A saved record's sector is the one
    // it was in since its previous change (a crossing is a change): a piece
    // in no sector around the new record's never came near it before the
    // record's exit, where the search stops.
    const SectorCoords& sector = saved.particle(k).sector;
    for (const Changed& x : changed) {
      if (!neighbouring(grid_, x.record->particle.sector, sector)) continue;
      impact = std::min(impact, meeting_with_piece(*x.record, saved, k, t, changed_at));
    }
  };
  for_each_saved_since(t, piece);
  return std::max(impact, t);
}

double Engine::meeting_with_piece(const ParticleRecord& r, const SavedRecords& saved, std::size_t k, double t,
                                  double changed_at) const {
  const ParticleSnapshot& y = saved.particle(k);
  if (y.alive == 0 || r.particle.alive == 0) return kInfinity;
  const double start = std::max(t, y.t0);
  double half_period = kInfinity;
  for (int d = 0; d < 3; ++d) {
    if (grid_.periodic(d)) half_period = std::min(half_period, 0.5 * grid_.length()[d]);
  }
  Vec3 dx = y.position(start) - r.particle.position(start);
  dx += grid_.nearest_image_shift(dx);
  const Vec3 dv = y.v - r.particle.v;
  const double span = changed_at - start;
  // The pair's own events (pair_time): a blocking collision at the pair's
  // blocking distance, and for tethered partners a tethering collision at
  // the tether's length.
  const PairParameters& pair = model_.pairs()(r.particle.species, y.species);
  double dt = pair.blocks() ? first_within(dx, dv, pair.blocking, span, half_period) : kInfinity;
  if (saved.tethered_to(k, r.particle.id) || std::find(r.tethers.begin(), r.tethers.end(), y.id) != r.tethers.end()) {
    dt = std::min(dt, first_beyond(dx, dv, pair.tethering, span, half_period));
  }
  return dt < kInfinity ? start + dt : kInfinity;
}

double Engine::first_event_of(const EventOutcome& outcome) const {
  // Placed: its particles' next events from their new records, against
  // every particle as it is now (what was before is impact_in_logs' part).
  // Placing them has just predicted them: the calendar holds those events,
  // unless a particle is held or has none.
  double first = kInfinity;
  for (const ParticleRecord& r : outcome.records) {
    const Index i = particles_.index_of(r.particle.id);
    if (i == kNoIndex) continue;
    // The restitutions of its loaded edges that run here, as placed (one
    // run elsewhere comes as that process's outcome, and is passed over
    // here as run_until passes over such a restitution).
    loaded_.adjacency().for_each(i, [&](Index, std::uint32_t e) {
      if (counted_here(loaded_[e].a, loaded_[e].b)) first = std::min(first, loaded_[e].time);
    });
    if (!has_prediction(i)) continue;
    const double next = calendar_.event(i).time;
    first = std::min(first, next < kInfinity ? next : predict(i).time);
  }
  return first;
}

UndoReach Engine::undo_reach(const EventOutcome& outcome, double from) const {
  // Instant by instant in time order, from the outcome's particles and the
  // pieces their new records come within reach of: an instant that changed
  // a particle already reached reached every particle it changed. What this
  // misses (so a lower bound on what an undo of only the particles
  // concerned takes back): meetings that the re-run trajectories would have
  // had and did not.
  std::vector<bool> reached(particles_.size(), false);
  for (const ParticleRecord& r : outcome.records) {
    const Index i = particles_.index_of(r.particle.id);
    if (i != kNoIndex) reached[i] = true;
  }
  UndoReach out;
  std::vector<Index> changed;
  bool hit = false, open = false;
  double instant = 0.0;
  const auto close = [&]() {
    if (!open) return;
    ++out.instants;
    if (hit) {
      ++out.reached;
      for (Index j : changed) reached[j] = true;
    }
    changed.clear();
    hit = false;
  };
  for_each_saved_since(from, [&](Index i, const SavedRecords& saved, std::size_t k, double time) {
    if (!open || time != instant) {
      close();
      open = true;
      instant = time;
    }
    // A particle the new records come within reach of, before this change
    // of it, is reached (a re-run would meet it), whatever the sectors: the
    // records' straight lines past their sectors' exits are the first guess
    // of where the re-run goes.
    if (!reached[i]) {
      for (const ParticleRecord& r : outcome.records) {
        if (meeting_with_piece(r, saved, k, from, time) < kInfinity) {
          reached[i] = true;
          break;
        }
      }
    }
    changed.push_back(i);
    hit = hit || reached[i];
  });
  close();
  return out;
}

UndoReach Engine::late_undo_reach() const {
  if (!owner_) throw std::logic_error("owner-computes mode is not on");
  return owner_->late_reach;
}

std::optional<double> Engine::take_late_outcome(EventOutcome outcome, int sender) {
  if (!is_straggler(outcome.key)) throw std::logic_error("take_late_outcome: the outcome is not late");
  refuse_if_final(outcome.key);
  const double t = outcome.key.time;
  std::optional<double> undone;
  const auto undo = [&](double from) {
    undo_owner_from(from);
    undone = undone ? std::min(*undone, from) : from;
  };
  const double impact = impact_in_logs(outcome);
  if (impact <= owner_->latest) {
    const UndoReach reach = undo_reach(outcome, impact);
    owner_->late_reach.instants += reach.instants;
    owner_->late_reach.reached += reach.reached;
    undo(impact);
  }
  std::vector<std::uint64_t> produced = produced_hashes(outcome);
  if (!is_straggler(outcome.key)) {
    owner_->foreign.add(std::move(outcome), sender, std::move(produced));  // it waits for its key
    return undone;
  }
  if (!outcome_ready(outcome)) {
    // It read records other than those held here: the usual way, from its
    // own time (placed, or withdrawn by its sender, when they are).
    undo(t);
    owner_->foreign.add(std::move(outcome), sender, std::move(produced));
    return undone;
  }
  note_speculation_time(owner_->latest);
  const ForeignOutcomes::Item& item =
      owner_->foreign.place_at_once(std::move(outcome), sender, owner_->latest, std::move(produced));
  place_outcome_records(item.outcome);
  // Never from before its time (a particle a rounding error past its
  // sector's face crosses "at once", at its trajectory's start): from its
  // time it goes back among the pending and is placed at its key.
  const double next = std::max(first_event_of(item.outcome), t);
  // Undoing from there puts it back and places it at once again.
  if (next <= owner_->latest) undo(next);
  return undone;
}

void Engine::place_again_at_once() {
  for (;;) {
    const std::ptrdiff_t k = owner_->foreign.earliest_at_once(owner_->latest);
    if (k < 0) return;
    if (!outcome_ready(owner_->foreign.pending(k).outcome)) {
      owner_->foreign.forget_at_once(k);
      continue;
    }
    note_speculation_time(owner_->latest);
    place_outcome_records(owner_->foreign.place(k, owner_->latest).outcome);
  }
}

}  // namespace tethersim::engine
