// Owner-computes rounds (owner_computes_windows.hpp). The loop is turn
// after turn: run a few events (this rank's own, and others' outcomes
// placed) up to the throttle's horizon, send their outcomes, take in what
// arrived, and move the committed floor's agreement on. The agreement runs
// beside the work (mpi::CutMinimum: batches tagged with epochs, a
// non-blocking reduction), one round of it always under way; a rank with
// nothing to run waits on its channels and that reduction at once, which
// gives its core away (mpi::Session). Only the round's end is synchronous:
// every batch in flight is taken before the state is handed back.
#include "tethersim/decomposition/owner_computes_windows.hpp"

#include "owner_testing_switches.hpp"
#include "owner_throttle.hpp"

#include <mpi.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tethersim/decomposition/agreements.hpp"
#include "tethersim/decomposition/distributed_engine.hpp"
#include "tethersim/decomposition/outcome_codec.hpp"
#include "tethersim/decomposition/record_codec.hpp"
#include "tethersim/engine/partial_view.hpp"
#include "tethersim/mpi/batch_channels.hpp"
#include "tethersim/mpi/cut_minimum.hpp"
#include "tethersim/mpi/reductions.hpp"
#include "wall_clock.hpp"

namespace tethersim::decomposition {

namespace {

// Events a rank runs between two looks at its channels and the floor, at
// most: a look is then a small share. A turn
// that brought a late outcome halves the next one, down to one event, and
// a turn without doubles it (a late outcome that undid nothing counts as
// none). Without impact times an outcome undid its receiver as soon as
// its time was before the receiver's latest event, whichever particles it
// touched: two ranks that both ran far ahead undid each other back to the
// other's first event at every turn (measured: 252 events undone per late
// outcome at 256 per turn). Short turns kept that waste small.
constexpr std::uint64_t kMostTurnEvents = 256;
// A round ends at the floor once its ranks ran this many events per
// particle (at least kMinRoundEvents), so that progress is reported and
// checkpoints are written in a long run.
constexpr double kRoundEventsPerParticle = 20.0;
constexpr double kMinRoundEvents = 1e5;
// Agreements (rounds of the floor's) without the floor rising that make a
// stall even when no events run.
constexpr std::uint64_t kMostAgreementsWithoutProgress = std::uint64_t{1} << 14;
// A batch is sent once it holds this much, and never holds more than the
// channels' largest.
constexpr std::size_t kSendAtBytes = std::size_t{1} << 18;
constexpr std::size_t kMaxBatchBytes = std::size_t{4} << 20;

// Every batch begins with its sender's epoch (mpi::CutMinimum).
constexpr std::size_t kEpochBytes = sizeof(std::uint64_t);

void fresh_batch(Bytes& b) { b.assign(kEpochBytes, 0); }
bool carries_nothing(const Bytes& b) { return b.size() <= kEpochBytes; }


}  // namespace

struct OwnerComputesWindows::Turn {
  std::unique_ptr<engine::Engine> e;
  engine::SentOutcomes sent;
  std::vector<Bytes> pending;  // per neighbour (channels_->neighbours()), the next batch
  double pending_least = kInfinity;  // the least key in them
  std::unique_ptr<mpi::CutMinimum> cut;  // the committed floor's agreement
  std::unique_ptr<OwnerTestingSwitches> switches;
  bool over = false;                     // an agreement ended the round
  // With ghosts one layer deep, per neighbour: the sectors within two
  // layers of its block, where an outcome's record concerns it (empty:
  // every outcome goes to every rank).
  std::vector<engine::SectorWindow> reach;
  double floor = 0.0;  // the last agreed committed floor
  // The earliest time any rank could run or place something by itself, at
  // the last agreement (the throttle's base: the floor itself can be held
  // by an outcome that waits for a rank the throttle holds back).
  double least_runnable = 0.0;
  std::uint64_t events = 0;        // run here this round (undone ones too)
  std::uint64_t turn_events = 1;   // the next turn's length (events)
  bool late = false;               // the last turn brought a late outcome
  std::uint64_t since_progress = 0;  // agreements since the floor last rose
  double all_events = 0.0;         // run on every rank this round (agreed)
  double events_at_progress = 0.0; // all_events when the floor last rose
  DistributedEngine::Halt halt = DistributedEngine::Halt::none;
  bool budget_spent = false;
  // The throttle: how far past the agreed floor this rank runs, in its own
  // events (converted to time with its measured rate), adapted to the
  // share of what it ran that was undone.
  OwnerThrottle throttle;
  // What this rank last waited for (wait_for_work), for the round
  // records: the next batch taken, or the agreement's next result, is one
  // it could not go on without (the replay's binding receipts); the
  // round-end drain's batches all are.
  bool waited_for_batch = false;
  bool waited_for_agreement = false;
  bool draining = false;
  double started_at = 0.0;  // the round's start time
  std::uint64_t kept_at_start = 0;  // the engine's events when the round began
};

namespace {

// The engine's owner-computes side (a view: the engine's own interface
// keeps it apart).
engine::PartialView view_of(const OwnerComputesWindows::Turn& t) { return engine::PartialView(*t.e); }

}  // namespace

OwnerComputesWindows::OwnerComputesWindows(DistributedEngine& engine) : d_(engine), holding_(make_holding()) {}
OwnerComputesWindows::~OwnerComputesWindows() = default;

void OwnerComputesWindows::open_round(Turn& t) {
  t.floor = d_.time_;
  t.least_runnable = d_.time_;
  t.started_at = d_.time_;
  // An outcome goes only to the ranks within two layers of whose blocks
  // one of its records lies (a crossing moves a particle one sector: that
  // takes in every rank that held it before, too); from a rank that holds
  // the whole system, to every rank.
  if (one_layer()) {
    for (int q : channels_->neighbours()) t.reach.push_back(holding_.reach[static_cast<std::size_t>(q)]);
  }
  t.pending.resize(channels_->neighbours().size());
  for (Bytes& b : t.pending) fresh_batch(b);
  t.cut = std::make_unique<mpi::CutMinimum>(d_.comm_, t.pending.size());
  t.switches = std::make_unique<OwnerTestingSwitches>(d_.rank_, d_.counters_.owner_rounds, t.pending.size());
  // The rank's engine (start_engine, restart_engine, or the last round's):
  // it goes on, its counts the run's.
  if (!engine::PartialView(*d_.engine_).owner_computes_on()) {
    throw std::logic_error("owner-computes: the rank's engine was not built for these rounds");
  }
  t.e = std::move(d_.engine_);
  t.kept_at_start = t.e->statistics().total_events();
}

bool OwnerComputesWindows::round(double end) {
  if (!channels_) {
    channels_ = std::make_unique<mpi::BatchChannels>(d_.comm_, channel_ranks(), kMaxBatchBytes);
  }
  ++d_.counters_.owner_rounds;
  d_.enter(RoundPhase::other);
  if (d_.global_owned_ == 0) {
    // The first round of a run: its length is counted per particle too.
    RunTotals totals = d_.run_totals();
    d_.agree(totals);
    d_.take_totals(totals);
  }
  Turn t;
  open_round(t);
  const engine::PartialView view(*t.e);
  for (;;) {
    if (t.switches->signals_at_tick() && view.tick_next_at(t.floor)) std::raise(SIGTERM);
    if (d_.stop_poll_ && d_.stop_poll_()) t.halt = DistributedEngine::Halt::stop;
    std::uint64_t ran = 0;
    if (t.halt == DistributedEngine::Halt::none && view_of(t).floor_time() < end) {
      const double run_started = seconds_now();
      d_.enter(RoundPhase::execute);
      const std::uint64_t before = t.e->statistics().total_events();
      t.throttle.adapt();
      t.e->run_until(std::min(end, horizon(t)), t.turn_events);
      // What was sent before a tick that ran is final (the tick waited for
      // the agreement to pass everything before it).
      t.sent.commit_before(view.final_below());
      ran = t.e->statistics().total_events() - before;
      t.events += ran;
      t.throttle.ran(ran);
      d_.counters_.seconds_execute += seconds_now() - run_started;
      d_.enter(RoundPhase::other);
    }
    // What ran before an event that came up below the latest one is sent
    // before the undo: a rank that erased it unsent would run into the same
    // event again and again, while the neighbour that needs those outcomes
    // to see the event never gets them.
    publish(t, end);
    const bool undid = undo_if_due(t) || forced_undo(t);
    t.late = false;
    send_pending(t, false);
    t.switches->release(false, [&](std::size_t k, const Bytes& b) { transmit(k, b); });
    const std::size_t taken = receive(t, end);
    const bool agreed = move_agreement_on(t, end);
    d_.counters_.window_peak_bytes = std::max<std::uint64_t>(d_.counters_.window_peak_bytes, view.speculation_bytes());
    if (t.over) break;
    if (ran == 0 && taken == 0 && !undid && !agreed) {
      // Held back by the throttle, or waiting for others (outcomes not
      // ready, the round's end).
      const double runnable = view_of(t).runnable_floor_time();
      const bool throttled = runnable < end && runnable >= horizon(t);
      const double waited = wait_for_work(t);
      if (throttled) d_.counters_.seconds_throttled += waited;
    }
    t.turn_events = t.late ? std::max<std::uint64_t>(1, t.turn_events / 2)
                           : std::min(kMostTurnEvents, 2 * t.turn_events);
  }
  drain(t);
  double until = t.halt == DistributedEngine::Halt::none && !t.budget_spent ? end : t.floor;
  if (until < end) {
    // Everything at or after the floor is undone: the state is the one at
    // the floor on every rank (what it sent there is void with it). The
    // floor can lie just before the round's start (a restitution at a
    // tick's time, agreement_time): nothing of the start's instant stands
    // then. A tick at the floor that the agreement cleared runs on the
    // ranks that had it next, as it ran on the others: the ranks hand
    // back one state.
    until = std::max(until, t.started_at);
    view_of(t).finish_ticks_at(until);
    view_of(t).protect_floor(until);
    view_of(t).undo_owner_from(until);
  }
  hand_back(t, until);
  return true;
}

double OwnerComputesWindows::horizon(const Turn& t) const {
  // From the floor, or from the earliest time any rank can run or place
  // something by itself when that is later: the floor can be held by an
  // outcome waiting for what a throttled rank has still to run.
  const double stretch =
      t.throttle.stretch(t.e->statistics().total_events() - t.kept_at_start, t.e->time() - t.started_at);
  return std::max(t.floor, t.least_runnable) + stretch;
}

void OwnerComputesWindows::publish(Turn& t, double end) {
  const engine::PartialView view(*t.e);
  for (engine::EventOutcome& outcome : view.take_outcomes()) {
    // With windows one layer deep most outcomes concern no other rank.
    bool anyone = t.reach.empty();
    for (std::size_t k = 0; k < t.reach.size() && !anyone; ++k) anyone = t.reach[k].concerns(outcome);
    const engine::SentOutcomes::Offer offer = anyone ? t.sent.offer(outcome) : t.sent.pass(outcome);
    // A withdrawal goes to every rank: one that never had the outcome
    // drops nothing.
    for (const engine::EventKey& key : offer.withdraw) {
      for (Bytes& b : t.pending) append_withdrawal(b, key);
      note_sending(t, key);
      ++d_.counters_.cancels_sent;
    }
    if (!offer.send) continue;  // a re-run gave the bits already sent
    bool full = false;
    for (std::size_t k = 0; k < t.pending.size(); ++k) {
      if (!t.reach.empty() && !t.reach[k].concerns(outcome)) continue;
      append_outcome(t.pending[k], outcome);
      full = full || t.pending[k].size() >= kSendAtBytes;
    }
    note_sending(t, outcome.key);
    if (full) send_pending(t, false);
  }
  // An instant before everything this rank can still run or place by
  // itself (or the end) is over: what its re-runs did not give again is
  // void. Not the clock: after an undo it stays where the undone segment
  // began until an event runs, so a rank with nothing left to run would
  // keep an outcome its re-run no longer gives, and the committed floor
  // with it, for ever. Not the floor either: a pending outcome that is not
  // ready waits for another rank, which may wait for this rank's
  // withdrawal (two ranks that each hold the other's stale outcome of one
  // instant). An event that comes back later (held here behind another's,
  // or after such an outcome is placed) is sent again: a withdrawal too
  // many is only work.
  const double clock = std::min(view_of(t).runnable_floor_time(), end);
  for (const engine::EventKey& key : t.sent.missing_before(clock)) {
    for (Bytes& b : t.pending) append_withdrawal(b, key);
    note_sending(t, key);
    ++d_.counters_.cancels_sent;
  }
}

void OwnerComputesWindows::note_sending(Turn& t, const engine::EventKey& key) {
  // At the time the agreement counts it (a key before a tick at the
  // tick's time counts as just before it: Engine::agreement_time).
  const double at = view_of(t).agreement_time(key);
  t.pending_least = std::min(t.pending_least, at);
  t.cut->note_sent(at);
}

void OwnerComputesWindows::send_pending(Turn& t, bool markers) {
  d_.enter(RoundPhase::commit);
  const std::uint64_t epoch = t.cut->epoch();
  for (std::size_t k = 0; k < t.pending.size(); ++k) {
    Bytes& b = t.pending[k];
    if (carries_nothing(b) && !markers) continue;
    if (b.size() > kMaxBatchBytes) {
      throw std::runtime_error("owner-computes: a batch of " + std::to_string(b.size()) +
                               " bytes is more than a channel carries (" + std::to_string(kMaxBatchBytes) + ")");
    }
    std::memcpy(b.data(), &epoch, kEpochBytes);
    if (t.switches->hold(k)) {
      t.switches->keep(k, std::move(b));
    } else {
      transmit(k, b);
    }
    fresh_batch(b);
  }
  t.pending_least = kInfinity;
  d_.enter(RoundPhase::other);
}

void OwnerComputesWindows::transmit(std::size_t k, const Bytes& batch) {
  RecordedCommunication call(d_.recorder_.get());
  channels_->send(k, batch.data(), batch.size());
  call.batch_sent(channels_->neighbours()[k], batch.size());
  d_.counters_.bytes_sent += batch.size();
  ++d_.counters_.messages_sent;
}

bool OwnerComputesWindows::forced_undo(Turn& t) {
  // Never below the protected floor: an undo there would take this rank's
  // floor under the minimum being agreed, which only a message (counted by
  // its sender) may do.
  const double lowest = view_of(t).protected_floor();
  if (!t.switches->fail_now() || !(t.e->time() > lowest)) return false;
  const double from = t.switches->between(lowest, t.e->time());
  ++d_.counters_.forced_undos;
  return counted_undo(t, [&]() -> std::optional<double> {
    view_of(t).undo_owner_from(from);
    return from;
  });
}

template <typename Undo>
bool OwnerComputesWindows::counted_undo(Turn& t, Undo&& undo) {
  const std::uint64_t before = t.e->statistics().total_events();
  const std::optional<double> from = undo();
  if (!from) return false;
  d_.counters_.events_rolled_back += before - t.e->statistics().total_events();
  t.throttle.undone(before - t.e->statistics().total_events());
  ++d_.counters_.rollbacks;
  // Lazily: cancelling at once what the undone events sent would undo the
  // neighbours, whose re-sent outcomes would be late here again, without
  // end when both run events at one instant (sent_outcomes.hpp).
  t.sent.undone_lazily(*from);
  return true;
}

bool OwnerComputesWindows::undo_if_due(Turn& t) {
  const engine::PartialView view(*t.e);
  return counted_undo(t, [&]() -> std::optional<double> {
    const std::optional<engine::EventKey> due = view.take_undo_due();
    if (!due) return std::nullopt;
    ++d_.counters_.held_undos;
    view.undo_owner_from(due->time);
    return due->time;
  });
}

std::size_t OwnerComputesWindows::receive(Turn& t, double end) {
  const engine::PartialView view(*t.e);
  d_.enter(RoundPhase::verify);
  const std::size_t taken = channels_->receive([&](std::size_t index, const void* data, std::size_t size) {
    const int sender = channels_->neighbours()[index];
    // Replayed, this rank goes on from here only once the batch is there
    // (with every receipt binding; or only when it waited for it here).
    RecordedCommunication(d_.recorder_.get()).batch_taken(sender, size, t.waited_for_batch || t.draining);
    t.waited_for_batch = false;
    const char* bytes = static_cast<const char*>(data);
    std::uint64_t epoch = 0;
    std::memcpy(&epoch, bytes, kEpochBytes);
    if (t.cut->saw(index, epoch)) {
      // The sender has the last agreement's result and began the next
      // one: this rank finishes the last and enters the next before it
      // takes the batch in (everything it sends from now on is counted).
      if (t.cut->reporting()) {
        const double started = seconds_now();
        {
          RecordedCommunication call(d_.recorder_.get());
          t.cut->wait();
        }
        t.waited_for_agreement = true;
        d_.counters_.seconds_wait += seconds_now() - started;
        take_agreement(t, end);
        if (t.over) throw std::logic_error("owner-computes: a batch of a round after the last one");
      }
      enter_agreement(t);
    }
    read_outcome_batch(
        bytes + kEpochBytes, size - kEpochBytes,
        [&](engine::EventOutcome&& o) {
          const double at = view.agreement_time(o.key);
          if (at < view.protected_floor()) view.protect_floor(std::max(t.floor, at));
          if (!view.is_straggler(o.key)) {
            view.add_foreign_outcome(std::move(o), sender);
            return;
          }
          // Undone only from where it can have changed what ran here.
          ++d_.counters_.late_outcomes;
          const engine::UndoReach before = view.late_undo_reach();
          counted_undo(t, [&]() -> std::optional<double> {
            const std::optional<double> from = view.take_late_outcome(std::move(o), sender);
            if (from) t.late = true;
            return from;
          });
          const engine::UndoReach after = view.late_undo_reach();
          d_.counters_.late_undo_instants += after.instants - before.instants;
          d_.counters_.late_undo_instants_reached += after.reached - before.reached;
        },
        [&](const engine::EventKey& key) {
          const double at = view.agreement_time(key);
          if (at < view.protected_floor()) view.protect_floor(std::max(t.floor, at));
          // Undone back to the withdrawn outcome if it was placed here.
          counted_undo(t, [&]() -> std::optional<double> {
            const engine::EventKey placed = view.withdraw_foreign(sender, key);
            if (!(placed.time < kInfinity)) return std::nullopt;
            return placed.time;
          });
        });
  });
  d_.enter(RoundPhase::other);
  return taken;
}

void OwnerComputesWindows::enter_agreement(Turn& t) {
  // Everything waiting to go goes now, tagged with the new epoch: a batch
  // to every neighbour (empty ones are the markers that tell it this rank
  // entered), its least key counted as sent in this agreement.
  t.cut->enter(t.pending_least);
  send_pending(t, true);
}

bool OwnerComputesWindows::move_agreement_on(Turn& t, double end) {
  if (!t.cut->open()) enter_agreement(t);
  if (t.cut->may_report()) {
    // The smallest time this rank may still run, place, or cancel from;
    // whether it asks to stop; the events it ran this round.
    const double floor =
        std::min({view_of(t).floor_time(), view_of(t).agreement_time(t.sent.earliest_unconfirmed()), end});
    {
      RecordedCommunication call(d_.recorder_.get());
      t.cut->report(floor, static_cast<double>(t.halt), static_cast<double>(t.events),
                    std::min(view_of(t).runnable_floor_time(), end));
      call.agreement_reported();
    }
    // Only a message may take this rank below its report now, and never
    // below the message's key (lowered in receive).
    view_of(t).protect_floor(std::max(t.floor, t.cut->reported()));
  }
  if (!t.cut->test()) return false;
  take_agreement(t, end);
  return true;
}

double OwnerComputesWindows::wait_for_work(Turn& t) {
  // Nothing to run below the horizon, nothing arrived: wait for a batch
  // or for the agreement (which may raise the horizon), core given away.
  std::vector<MPI_Request> requests;
  t.cut->add_requests(requests);
  if (requests.empty() && channels_->neighbours().empty()) return 0.0;
  if (t.switches->holding()) return 0.0;  // held batches go out at later turns
  const std::vector<MPI_Request> before = requests;
  const double started = seconds_now();
  // Waiting is no work: replayed, the wait is the batch or the agreement's
  // result that ends it, received where it is taken.
  int index = -1;
  {
    RecordedCommunication call(d_.recorder_.get());
    index = channels_->wait(requests);
  }
  if (index >= 0) t.cut->completed_elsewhere(before[static_cast<std::size_t>(index)]);
  (index >= 0 ? t.waited_for_agreement : t.waited_for_batch) = true;
  const double waited = seconds_now() - started;
  d_.counters_.seconds_wait += waited;
  return waited;
}

void OwnerComputesWindows::take_agreement(Turn& t, double end) {
  ++d_.counters_.gvt_rounds;
  RecordedCommunication(d_.recorder_.get()).agreement_taken(t.waited_for_agreement);
  t.waited_for_agreement = false;
  const mpi::CutMinimum::Result agreed = t.cut->complete();
  const double gvt = agreed.minimum;
  t.least_runnable = agreed.least;
  t.halt = static_cast<DistributedEngine::Halt>(static_cast<int>(agreed.maximum));
  t.all_events = agreed.sum;
  if (gvt > t.floor) {
    t.events_at_progress = t.all_events;
    t.floor = gvt;
    t.since_progress = 0;
  } else if (++t.since_progress > kMostAgreementsWithoutProgress) {
    // Nothing runs and the floor stays: an event no rank will run (a
    // defect of this mode, docs/distribution.md). A stall, not a hang.
    stalled(t, "made " + std::to_string(t.since_progress) + " agreements", gvt);
    t.over = true;
    return;
  }
  if (gvt >= end) {
    t.over = true;
    return;
  }
  const engine::PartialView view(*t.e);
  view.commit_owner_before(gvt);
  view.protect_floor(t.floor);
  t.sent.commit_before(gvt);
  if (t.halt != DistributedEngine::Halt::none) {
    t.over = true;
    return;
  }
  // Events keep coming while the floor stays: a stall (every rank has the
  // same agreed counts, so every rank ends the round here).
  if (d_.stall_limit_ > 0 && t.all_events - t.events_at_progress > static_cast<double>(d_.stall_limit_)) {
    stalled(t, "ran " + std::to_string(static_cast<std::uint64_t>(t.all_events - t.events_at_progress)) + " events", gvt);
    t.over = true;
    return;
  }
  const double asked = t.switches->round_events();
  const double budget =
      asked > 0.0 ? asked : std::max(kMinRoundEvents, kRoundEventsPerParticle * static_cast<double>(d_.global_owned_));
  if (t.all_events >= budget && gvt > d_.time_) {
    t.budget_spent = true;
    t.over = true;
  }
}

void OwnerComputesWindows::drain(Turn& t) {
  // Collective: every batch still in flight is taken (the agreement that
  // ended the round was the last: nothing taken now reaches below it).
  const double started = seconds_now();
  t.draining = true;
  for (;;) {
    send_pending(t, false);
    t.switches->release(true, [&](std::size_t k, const Bytes& b) { transmit(k, b); });
    std::int64_t in_flight = static_cast<std::int64_t>(channels_->sent()) - static_cast<std::int64_t>(channels_->taken());
    {
      RecordedCommunication call(d_.recorder_.get());
      mpi::reduce_in_place(&in_flight, 1, MPI_SUM, d_.comm_);
      call.allreduce(sizeof in_flight);
    }
    if (in_flight == 0) break;
    receive(t, kInfinity);
  }
  d_.counters_.seconds_wait += seconds_now() - started;
}

void OwnerComputesWindows::stalled(Turn& t, const std::string& spent, double floor) {
  t.halt = DistributedEngine::Halt::stall;
  d_.stall_description_ = "rank " + std::to_string(d_.rank_) + ": owner-computes rounds " + spent +
                          " without the committed time passing t = " + std::to_string(floor);
}

void OwnerComputesWindows::hand_back(Turn& t, double until) {
  const double started = seconds_now();
  d_.enter(RoundPhase::commit);
  // The round's engine becomes the rank's until the next round goes on
  // with it: its owned particles' records are exact at `until` (every
  // outcome before it that changed one went to every rank that holds it
  // and was placed there; the shadow check and the one-rank bits of the
  // mpi.sync.*owner* tests compare them), and what the run reads between
  // rounds (frames, observables, checkpoints, the state hash) reads the
  // particles it accounts for. Its segments go (everything before `until`
  // is final).
  d_.counters_.events_executed += t.e->statistics().total_events() - t.kept_at_start;
  engine::PartialView(*t.e).close_owner_round(until);
  d_.engine_ = std::move(t.e);
  d_.halt_ = t.halt;
  d_.move_clock_to(until);
  d_.count_held();
  // The run's totals: the next round's length is counted in events per
  // particle, and the run loop's progress and checkpoints in events.
  RunTotals totals = d_.run_totals();
  d_.agree(totals);
  d_.take_totals(totals);
  d_.counters_.seconds_rebuild += seconds_now() - started;
}

}  // namespace tethersim::decomposition
