// Speculative windows (speculative_windows.hpp): every rank runs the window
// with every particle it holds, then checks, from histories its neighbours
// send, that its own particles were computed exactly; the window stands
// only where every rank can say so, and is undone on every rank otherwise
// (docs/distribution.md, "A speculative round").
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>
#include <unordered_map>
#include <unordered_set>

#include "tethersim/decomposition/speculative_windows.hpp"

#include "tethersim/decomposition/distributed_engine.hpp"
#include "tethersim/decomposition/particle_history.hpp"
#include "tethersim/engine/free_storage.hpp"
#include "tethersim/engine/same_state.hpp"
#include "wall_clock.hpp"

namespace tethersim::decomposition {

using Halt = DistributedEngine::Halt;

namespace {

// Undone attempts in a row before a certified round takes one window.
constexpr int kFailuresBeforeCertified = 3;
// The first window, in units of the first certified proposal (a few per
// cent of the particles with an event in it).
constexpr double kFirstWindowFactor = 8.0;

// Events an engine executed since it had run `counted` counted and
// `uncounted` uncounted events: all of them, and those duplicated (run here
// but counted by another rank).
struct Work {
  std::uint64_t executed = 0, duplicated = 0;
};
Work work_since(const engine::PartialView& view, std::uint64_t counted, std::uint64_t uncounted) {
  const std::uint64_t duplicated = view.uncounted_events() - uncounted;
  return {view.engine().statistics().total_events() - counted + duplicated, duplicated};
}

}  // namespace

bool SpeculativeWindows::round(double end) {
  const double round_started = seconds_now();
  d_.make_every_particle_live();
  d_.mark_logged_sectors();
  run_ticks_between_windows();
  // Windows end at the next tick, which the next round runs before its
  // window opens.
  const double cap = std::min({end, d_.next_transition(), next_tick_cap()});
  const double room = cap - d_.time_;
  if (length_.proposal() == 0.0) length_.set(kFirstWindowFactor * d_.first_proposal(room));
  const double length = std::min(length_.proposal(), room);
  // The window's end exactly: windows that reach a scheduled stop end on it.
  const double until = length == room ? cap : d_.time_ + length;
  ++d_.counters_.speculative_windows;
  const double cpu_started = thread_cpu_seconds();
  const Attempt attempt = run_window(until);
  d_.balancer_->add_event_seconds(thread_cpu_seconds() - cpu_started);
  const Claim claim = claim_violation(attempt);
  SpeculativeVerdict verdict{-claim.violation, claim.forced ? 1.0 : 0.0, static_cast<double>(attempt.halt),
                             claim.injected ? 1.0 : 0.0, d_.run_totals()};
  d_.agree(verdict);
  d_.take_totals(verdict.totals);
  const engine::PartialView view(*d_.engine_);
  if (verdict.halt != 0.0) {
    // A halted window is undone whole on every rank, its events never
    // counted: the run stops at the window's start, a consistent time.
    view.undo_speculation();
    ++d_.counters_.rollbacks;
    d_.counters_.events_rolled_back += attempt.executed;
    d_.halt_ = static_cast<Halt>(static_cast<int>(verdict.halt));
    return true;
  }
  const double stands_until = -verdict.negated_violation;
  if (verdict.forced == 0.0 && stands_until == until) {
    commit_window(until, attempt.executed, attempt.duplicated);
    length_.stood(length);
  } else {
    const AfterCut after = cut_short(attempt, claim, verdict, length);
    if (after != AfterCut::go_on) return after == AfterCut::round_over;
  }
  failures_ = 0;
  failed_this_window_ = false;
  if (d_.fallback_after_window(round_started, cap)) {
    d_.run_fallback(cap, d_.fallback_policy_.chosen_budget());
    return true;
  }
  d_.maybe_rebalance();
  return true;
}

SpeculativeWindows::Attempt SpeculativeWindows::run_window(double until) {
  engine::Engine& e = *d_.engine_;
  const engine::PartialView view(e);
  Attempt a;
  a.until = until;
  a.counted = e.statistics().total_events();
  a.uncounted = view.uncounted_events();
  const double started = seconds_now();
  d_.enter(RoundPhase::execute);
  view.set_journal_floor(d_.settings_.test.journal_floor);
  view.begin_speculation(d_.logged_sectors_);
  Halt halt = d_.run_watched(e, until, UINT64_MAX, &a.reached, d_.window_memory());
  // Ended early with its undo log full: the events at the last event's
  // time T may not all have run. Running them (an instant is short) makes
  // the window complete up to just after T, so that it can stand there
  // with nothing to undo, even without a journal.
  a.complete = until;
  if (halt == Halt::none && !a.reached) {
    const double instant_end = std::min(std::nextafter(e.time(), kInfinity), until);
    bool finished = false;
    halt = d_.run_watched(e, instant_end, UINT64_MAX, &finished);
    a.reached = finished && instant_end == until;
    a.complete = finished ? instant_end : e.time();
  }
  a.halt = static_cast<int>(halt);
  d_.counters_.window_peak_bytes = std::max<std::uint64_t>(d_.counters_.window_peak_bytes, view.speculation_bytes());
  if (view.speculation_journal_dropped()) ++d_.counters_.journals_dropped;
  const Work work = work_since(view, a.counted, a.uncounted);
  a.executed = work.executed;
  a.duplicated = work.duplicated;
  d_.counters_.seconds_execute += seconds_now() - started;
  return a;
}

SpeculativeWindows::Claim SpeculativeWindows::claim_violation(const Attempt& a) {
  d_.enter(RoundPhase::verify);
  last_violation_ = HistoryViolation::none;
  Claim c;
  c.violation = std::min(check_histories(a.until), a.until);
  // Ended early with its undo log full: the window stands at most up to
  // where it is complete, like a violation there; the next proposal is
  // shorter.
  if (a.halt == static_cast<int>(Halt::none) && !a.reached) {
    ++d_.counters_.memory_cuts;
    c.violation = std::min(c.violation, a.complete);
    if (d_.trace_) {
      std::fprintf(stderr, "[rank %d] window memory full at t = %.17g (%zu bytes)\n", d_.rank_, d_.engine_->time(),
                   engine::PartialView(*d_.engine_).speculation_bytes());
    }
  }
  // Testing switches: the same bits whatever is undone and run again. A
  // random failure either undoes the whole window or claims a violation at
  // a random time inside it (which keeps the events before that time).
  const double failure_rate = d_.settings_.test.random_failure_rate;
  if (d_.settings_.test.fail_every_window_once && !failed_this_window_) c.forced = true;
  if (failure_rate > 0.0 && static_cast<double>(d_.random_decision() % 1000000) < failure_rate * 1e6) {
    const std::uint64_t how = d_.random_decision();
    if (how % 2 == 0) {
      c.forced = true;
    } else {
      const double fraction = static_cast<double>((how >> 1) % 1000 + 1) / 1002.0;
      const double at = d_.time_ + fraction * (a.until - d_.time_);
      c.injected = at < c.violation;
      c.violation = std::min(c.violation, at);
    }
  }
  return c;
}

SpeculativeWindows::AfterCut SpeculativeWindows::cut_short(const Attempt& a, const Claim& c,
                                                           const SpeculativeVerdict& verdict, double length) {
  const engine::PartialView view(*d_.engine_);
  const double stands_until = -verdict.negated_violation;
  const bool undo_forced = verdict.forced != 0.0;
  const double undo_started = seconds_now();
  // Every event before the earliest violation was exact on every rank:
  // keep them and undo the rest, or (when the window ran global events
  // after it, or none stands) undo it whole.
  const bool keep_before = !undo_forced && stands_until > d_.time_;
  const bool kept = keep_before && view.undo_speculation_from(stands_until);
  if (!kept) view.undo_speculation();
  d_.counters_.seconds_verify += seconds_now() - undo_started;
  const Work work_kept = kept ? work_since(view, a.counted, a.uncounted) : Work{};
  ++d_.counters_.rollbacks;
  d_.counters_.events_rolled_back += a.executed - work_kept.executed;
  if (last_violation_ == HistoryViolation::near) ++d_.counters_.rollbacks_near;
  if (last_violation_ == HistoryViolation::contact) ++d_.counters_.rollbacks_contact;
  if ((c.forced && c.violation == a.until) || c.injected) ++d_.counters_.rollbacks_forced;
  if (d_.trace_) {
    std::fprintf(stderr, "[rank %d] speculative window [%.17g, %.17g) undone, stands until %.17g (%s)\n", d_.rank_,
                 d_.time_, a.until, stands_until,
                 last_violation_ == HistoryViolation::near      ? "near"
                 : last_violation_ == HistoryViolation::contact ? "contact"
                 : c.forced                                     ? "forced"
                                                                : "another rank");
  }
  failed_this_window_ = true;
  // An undo forced for testing says nothing about the window's length,
  // nor does a violation injected for testing.
  if (undo_forced) return AfterCut::round_over;
  if (verdict.injected == 0.0) length_.cut(length, stands_until > d_.time_ ? stands_until - d_.time_ : 0.0);
  if (!(stands_until > d_.time_)) {
    if (++failures_ < kFailuresBeforeCertified) return AfterCut::round_over;
    failures_ = 0;  // a certified round takes the next window
    return AfterCut::give_way;
  }
  if (kept) {
    ++d_.counters_.partial_commits;
    commit_window(stands_until, work_kept.executed, work_kept.duplicated);
  } else {
    // Undone whole: run the events before the violation again (the same
    // events, from the same state) and keep them.
    run_again_and_commit(stands_until);
  }
  return AfterCut::go_on;
}

void SpeculativeWindows::run_again_and_commit(double until) {
  engine::Engine& e = *d_.engine_;
  const engine::PartialView view(e);
  const std::uint64_t counted = e.statistics().total_events();
  const std::uint64_t uncounted = view.uncounted_events();
  const double again = seconds_now();
  d_.enter(RoundPhase::execute);
  view.begin_speculation(d_.logged_sectors_);
  e.run_until(until);
  d_.counters_.seconds_execute += seconds_now() - again;
  const Work work = work_since(view, counted, uncounted);
  ++d_.counters_.partial_commits;
  commit_window(until, work.executed, work.duplicated);
}

void SpeculativeWindows::commit_window(double until, std::uint64_t executed, std::uint64_t duplicated) {
  const double commit_started = seconds_now();
  d_.enter(RoundPhase::commit);
  commit_exchange(until);
  engine::PartialView(*d_.engine_).keep_speculation();
  d_.enter(RoundPhase::other);
  d_.counters_.seconds_exchange += seconds_now() - commit_started;
  ++d_.counters_.commits;
  d_.counters_.events_executed += executed;
  d_.counters_.events_duplicated += duplicated;
  d_.move_clock_to(until);
}

struct SpeculativeWindows::LoggedPaths {
  struct Path {
    engine::Index particle;
    std::uint32_t begin, end;
  };
  std::vector<HistoryStep> steps;
  std::vector<Path> paths;  // in particle order

  std::span<const HistoryStep> of(const Path& p) const {
    return std::span<const HistoryStep>(steps.data() + p.begin, p.end - p.begin);
  }
  // A particle's steps (none when it is not logged).
  std::span<const HistoryStep> of_particle(engine::Index i) const {
    const auto it = std::lower_bound(paths.begin(), paths.end(), i,
                                     [](const Path& p, engine::Index j) { return p.particle < j; });
    return it != paths.end() && it->particle == i ? of(*it) : std::span<const HistoryStep>();
  }
};

namespace {

// Each logged particle's steps, in time order, grouped by particle.
void group_by_particle(const engine::SpeculationLog& log, std::vector<HistoryStep>& steps,
                       auto& paths) {
  std::vector<std::uint32_t> order(log.entries.size());
  for (std::uint32_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return log.entries[a].particle < log.entries[b].particle; });
  steps.reserve(order.size());
  for (std::uint32_t k : order) {
    const engine::HistoryEntry& x = log.entries[k];
    if (paths.empty() || paths.back().particle != x.particle) {
      const auto at = static_cast<std::uint32_t>(steps.size());
      paths.push_back({x.particle, at, at});
    }
    steps.push_back({x.time, x.hash, x.sector});
    ++paths.back().end;
  }
}

}  // namespace

double SpeculativeWindows::check_histories(double until) {
  const double started = seconds_now();
  LoggedPaths logged;
  group_by_particle(engine::PartialView(*d_.engine_).speculation_log(), logged.steps, logged.paths);
  d_.counters_.seconds_verify += seconds_now() - started;
  const ReceivedBytes in = send_histories(logged);
  const double verify_started = seconds_now();
  const double violation = earliest_violation(logged, in, until);
  d_.counters_.seconds_verify += seconds_now() - verify_started;
  return violation;
}

ReceivedBytes SpeculativeWindows::send_histories(const LoggedPaths& logged) {
  const double started = seconds_now();
  const engine::Engine& e = *d_.engine_;
  const engine::PartialView view(*d_.engine_);
  // Owned particles' histories go to every rank whose window they were in.
  std::vector<Bytes> out(d_.neighbours_->neighbours().size());
  std::vector<int> ranks, all;
  for (const LoggedPaths::Path& p : logged.paths) {
    const engine::Index i = p.particle;
    if (!e.is_owned(i)) continue;
    const SectorIndex3 start_sector = view.sector_at_start(i);
    const auto path = logged.of(p);
    d_.layout_.window_ranks(start_sector, all);
    for (const HistoryStep& s : path) {
      d_.layout_.window_ranks(s.sector, ranks);
      all.insert(all.end(), ranks.begin(), ranks.end());
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    for (int q : all) {
      if (q == d_.rank_) continue;
      append_history(out[neighbour_slot(q, e.particles().id[i])], e.particles().id[i], start_sector, path);
      d_.counters_.history_steps_sent += path.size();
    }
  }
  const std::uint64_t sent_before = d_.neighbours_->bytes_sent();
  d_.counters_.seconds_verify += seconds_now() - started;
  const double wait_started = seconds_now();
  const std::size_t messages = out.size();
  ReceivedBytes in = d_.neighbours_->exchange(std::move(out));
  d_.counters_.seconds_wait += seconds_now() - wait_started;
  d_.counters_.bytes_sent += d_.neighbours_->bytes_sent() - sent_before;
  d_.counters_.messages_sent += messages;
  return in;
}

double SpeculativeWindows::earliest_violation(const LoggedPaths& logged, const ReceivedBytes& in, double until) {
  engine::Engine& e = *d_.engine_;
  const engine::PartialView view(e);
  const engine::SpeculationLog& log = view.speculation_log();
  const engine::SectorGrid& grid = e.grid();
  const double start = log.start;
  const std::vector<LoggedPaths::Path>& paths = logged.paths;
  const std::vector<HistoryStep>& all_steps = logged.steps;
  auto steps_of = [&](const LoggedPaths::Path& p) { return logged.of(p); };
  auto path_of = [&](engine::Index i) { return logged.of_particle(i); };
  auto start_of = [&](engine::Index i) { return view.sector_at_start(i); };

  // Where this rank's particles were: its block, and the halo sectors its
  // own particles (or particles loaded or ruled together with them in a
  // group event) visited. A particle whose runs parted is harmless while it stays out
  // of reach of all of those.
  std::unordered_set<std::uint32_t> occupied;
  for (const LoggedPaths::Path& p : paths) {
    if (!e.is_owned(p.particle)) continue;
    for (const HistoryStep& s : steps_of(p)) {
      if (d_.layout_.depth(d_.rank_, s.sector) > 0) occupied.insert(grid.linear(s.sector));
    }
  }
  for (const engine::OwnedContact& c : log.contacts) {
    if (!c.group) continue;
    occupied.insert(grid.linear(start_of(c.particle)));
    for (const HistoryStep& s : path_of(c.particle)) occupied.insert(grid.linear(s.sector));
  }
  std::array<std::uint32_t, 27> around;
  std::array<Vec3, 27> shifts;
  auto near = [&](const SectorIndex3& s) {
    if (d_.layout_.depth(d_.rank_, s) <= 1) return true;
    if (occupied.empty()) return false;
    const int n = grid.neighbourhood(s, around, shifts);
    for (int k = 0; k < n; ++k) {
      if (occupied.count(around[static_cast<std::size_t>(k)]) != 0) return true;
    }
    return false;
  };

  // The earliest time from which some owned particle's run may not be
  // exact, and why: the window stands up to that time.
  double violation = kInfinity;
  auto violate = [&](double t, HistoryViolation why, engine::Index i) {
    if (!(t < violation)) return;
    violation = t;
    last_violation_ = why;
    if (d_.trace_) {
      std::fprintf(stderr, "[rank %d] window violated at t = %.17g by particle %llu (%s)\n", d_.rank_, t,
                   static_cast<unsigned long long>(i == engine::kNoIndex ? 0 : e.particles().id[i]),
                   why == HistoryViolation::near ? "its true run comes near" : "read after parting");
    }
  };
  std::unordered_map<engine::Index, double> parted;
  partings_.clear();
  // A particle whose runs parted at t: its true run must stay out of reach
  // of this rank's particles (else this rank missed an event with it), and
  // its run here must not be read by an event with one of them (below).
  // `slot`: the neighbour that reported its true run (-1: none did).
  auto judge = [&](engine::Index i, double t, const SectorIndex3& true_start, std::span<const HistoryStep> truth,
                   int slot) {
    ++d_.counters_.parted_particles;
    if (i != engine::kNoIndex) {
      parted[i] = t;
      partings_.push_back({e.particles().id[i], t, slot});
    }
    violate(first_time_near(true_start, truth, t, until, near), HistoryViolation::near, i);
  };
  std::vector<std::uint8_t> reported(e.particles().size(), 0);
  for (std::size_t slot = 0; slot < in.size(); ++slot) {
    const std::span<const char> buffer = in[slot];
    for (const ParticleHistory& h : read_histories(buffer.data(), buffer.size())) {
      const engine::Index i = e.particles().index_of(h.id);
      if (i == engine::kNoIndex) {
        // Not held here when the window started: its run here is missing.
        judge(i, start, h.start_sector, h.steps, static_cast<int>(slot));
        continue;
      }
      if (e.is_owned(i)) throw SynchronizationError("two ranks own particle " + std::to_string(h.id));
      reported[i] = 1;
      const double t = parting_time(path_of(i), h.steps);
      if (t != kInfinity) judge(i, t, h.start_sector, h.steps, static_cast<int>(slot));
    }
  }
  // Ghosts that took part in events here while their owners saw none.
  for (const LoggedPaths::Path& p : paths) {
    const engine::Index i = p.particle;
    if (e.is_owned(i) || reported[i] != 0) continue;
    judge(i, all_steps[p.begin].time, start_of(i), {}, -1);
  }
  for (const engine::OwnedContact& c : log.contacts) {
    const auto it = parted.find(c.particle);
    if (it != parted.end() && c.time >= it->second) violate(c.time, HistoryViolation::contact, c.particle);
  }
  return violation;
}

struct SpeculativeWindows::CommitPlan {
  std::vector<Bytes> requests;                // per neighbour: the ids of parted ghosts asked of it
  std::vector<engine::ParticleRecord> reset;  // parted ghosts their owners never changed
  std::vector<Bytes> records;                 // per neighbour: owned records that entered its window
  std::vector<engine::Index> left;            // owned particles that left the block
  std::vector<engine::Index> kept_ghosts;     // ghosts kept as run here
};

void SpeculativeWindows::commit_exchange(double until) {
  CommitPlan plan = plan_commit(until);
  // First exchange: the ids asked for, then the records of newcomers.
  const std::size_t slots = d_.neighbours_->neighbours().size();
  std::vector<Bytes> out(slots);
  for (std::size_t k = 0; k < slots; ++k) {
    Bytes& o = out[k];
    const std::uint64_t asked = plan.requests[k].size() / sizeof(std::uint64_t);
    reserve_for(o, sizeof asked + plan.requests[k].size() + plan.records[k].size());
    put(o, asked);
    o.insert(o.end(), plan.requests[k].begin(), plan.requests[k].end());
    o.insert(o.end(), plan.records[k].begin(), plan.records[k].end());
  }
  engine::free_storage(plan.records);
  const ReceivedBytes first = exchange_counted(std::move(out));
  // Second: the owned particles' records asked for (taken before any
  // particle leaves).
  std::vector<std::span<const char>> newcomers(slots);
  const ReceivedBytes second = exchange_counted(answer_requests(first, newcomers));
  place_arrivals(plan, newcomers, second);
}

SpeculativeWindows::CommitPlan SpeculativeWindows::plan_commit(double until) {
  engine::Engine& e = *d_.engine_;
  const engine::PartialView view(e);
  const std::size_t slots = d_.neighbours_->neighbours().size();
  CommitPlan plan;
  plan.requests.resize(slots);
  plan.records.resize(slots);
  // Every ghost run here as its owner ran it up to `until` is exact: its
  // history (each event's time, kind, participants and the whole record
  // after it) is the owner's. The others are put right: those the owner
  // never changed go back to the window's start here; the rest are asked
  // of their owners by id. Infinite-mass particles are never sent (their
  // links travel with their mobile partners' records).
  std::unordered_set<engine::Index> replaced;
  for (const Parting& p : partings_) {
    if (!(p.time < until)) continue;
    const engine::Index i = e.particles().index_of(p.particle);
    if (i == engine::kNoIndex) throw SynchronizationError("a parted ghost left this rank before its commit");
    if (!e.particles().state[i].mobile) continue;
    replaced.insert(i);
    if (p.slot < 0) {
      plan.reset.push_back(view.record_at_start(i));
    } else {
      put<std::uint64_t>(plan.requests[static_cast<std::size_t>(p.slot)], p.particle);
    }
  }
  // One pass over the changed particles (each visit of a particle's role,
  // sector and state is a cache miss at half a million particles), before
  // anything changes: owned ones that entered other ranks' windows go
  // there, and some left the block; ghosts kept as run here may have left
  // the window, died, or come into the block.
  std::vector<int> before, after;
  const std::vector<engine::PartialView::Change>& changes = view.changes();
  // Far enough ahead for the memory to answer while this loop runs.
  constexpr std::size_t kPrefetchAhead = 16;
  for (std::size_t k = 0; k < changes.size(); ++k) {
    if (k + kPrefetchAhead < changes.size()) e.prefetch_sector_and_roles(changes[k + kPrefetchAhead].particle);
    const engine::PartialView::Change& c = changes[k];
    const engine::Index i = c.particle;
    if (!c.mobile) continue;
    if (!e.is_owned(i)) {
      if (replaced.count(i) == 0) plan.kept_ghosts.push_back(i);
      continue;
    }
    d_.send_changed_record(c, DistributedEngine::Recipients::new_windows, plan.records, before, after);
    // Particles that left the simulation stay where they were owned.
    if (d_.layout_.owner(e.sector(i)) != d_.rank_ && e.particles().state[i].alive) plan.left.push_back(i);
  }
  return plan;
}

std::size_t SpeculativeWindows::neighbour_slot(int rank, ParticleId particle) const {
  const int slot = d_.neighbours_->slot(rank);
  if (slot < 0) {
    throw SynchronizationError("particle " + std::to_string(particle) +
                               " moved beyond the ranks this rank exchanges with");
  }
  return static_cast<std::size_t>(slot);
}

ReceivedBytes SpeculativeWindows::exchange_counted(std::vector<Bytes> out) {
  const std::size_t messages = out.size();
  const std::uint64_t sent_before = d_.neighbours_->bytes_sent();
  const double wait_started = seconds_now();
  ReceivedBytes in = d_.neighbours_->exchange(std::move(out));
  d_.counters_.seconds_wait += seconds_now() - wait_started;
  d_.counters_.bytes_sent += d_.neighbours_->bytes_sent() - sent_before;
  d_.counters_.messages_sent += messages;
  return in;
}

std::vector<Bytes> SpeculativeWindows::answer_requests(const ReceivedBytes& first,
                                                       std::vector<std::span<const char>>& newcomers) const {
  const engine::Engine& e = *d_.engine_;
  std::vector<Bytes> answers(newcomers.size());
  for (std::size_t k = 0; k < newcomers.size(); ++k) {
    ByteReader in(first[k].data(), first[k].size(), "commit request");
    const auto asked = in.get<std::uint64_t>();
    for (std::uint64_t n = 0; n < asked; ++n) {
      const auto id = in.get<std::uint64_t>();
      const engine::Index i = e.particles().index_of(id);
      if (i == engine::kNoIndex || !e.is_owned(i)) {
        throw SynchronizationError("a neighbour asked for particle " + std::to_string(id) + ", which this rank does not own");
      }
      append_record(answers[k], e.record(i));
    }
    const std::size_t at = sizeof(std::uint64_t) * (1 + asked);
    newcomers[k] = first[k].subspan(at);
  }
  return answers;
}

void SpeculativeWindows::place_arrivals(const CommitPlan& plan, const std::vector<std::span<const char>>& newcomers,
                                        const ReceivedBytes& answers) {
  engine::Engine& e = *d_.engine_;
  const engine::PartialView view(e);
  // Particles that left this rank's block: ghosts now, or gone from view.
  for (const engine::Index i : plan.left) {
    ++d_.counters_.migrations;
    if (d_.layout_.in_window(d_.rank_, e.sector(i))) {
      view.set_owned(i, false);
    } else {
      view.remove(i);
    }
  }
  // A ghost (or a particle that is no longer one) as its owner has it.
  auto place = [&](const engine::ParticleRecord& r) {
    const ParticleId id = r.particle.id;
    engine::Index i = e.particles().index_of(id);
    if (i != engine::kNoIndex && e.is_owned(i)) throw SynchronizationError("two ranks own particle " + std::to_string(id));
    if (!r.particle.alive || !d_.layout_.in_window(d_.rank_, r.particle.sector)) {
      if (i != engine::kNoIndex) view.remove(i);
      return;
    }
    // A ghost that parted only after `until` is already as its owner has it.
    if (i == engine::kNoIndex || !engine::same_record(e.record(i), r)) i = view.upsert(r);
    // Migrated here.
    if (d_.layout_.owner(r.particle.sector) == d_.rank_) view.set_owned(i, true);
    view.set_active(i, true);
  };
  for (std::size_t k = 0; k < newcomers.size(); ++k) {
    for (const engine::ParticleRecord& r : read_records(newcomers[k].data(), newcomers[k].size())) place(r);
    for (const engine::ParticleRecord& r : read_records(answers[k].data(), answers[k].size())) place(r);
  }
  for (const engine::ParticleRecord& r : plan.reset) {
    const engine::Index i = e.particles().index_of(r.particle.id);
    if (i != engine::kNoIndex && !engine::same_record(e.record(i), r)) view.upsert(r);
  }
  // Ghosts kept as run here: where their owners have them.
  for (const engine::Index i : plan.kept_ghosts) {
    if (e.is_removed(i) || e.is_owned(i)) continue;
    const SectorIndex3& sector = e.sector(i);
    if (!e.particles().state[i].alive || !d_.layout_.in_window(d_.rank_, sector)) {
      view.remove(i);
    } else if (d_.layout_.owner(sector) == d_.rank_) {
      view.set_owned(i, true);
    }
  }
  view.clear_changes();
  d_.counters_.owned = d_.counters_.ghosts = 0;
  for (engine::Index i = 0; i < e.particles().size(); ++i) {
    if (e.is_removed(i) || e.is_hub(i) || !e.particles().state[i].alive) continue;
    (e.is_owned(i) ? d_.counters_.owned : d_.counters_.ghosts) += 1;
  }
  d_.counters_.ghosts_max = std::max(d_.counters_.ghosts_max, d_.counters_.ghosts);
}

}  // namespace tethersim::decomposition
