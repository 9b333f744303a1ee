#pragma once
// Owner-computes execution in one process (docs/owner-computes.md, plan
// step 2): one system split by a plane into two engines, each holding every
// particle and running only the events it owns, sending the outcomes to the
// other through a FIFO channel that a seeded scheduler delivers late and in
// uneven bunches. An engine that receives an outcome at or before its clock
// undoes its events from that time (eagerly: the outcome's own time) and
// tells the other to drop what it had sent from then on (a cancel notice),
// which may undo the other in turn. A committed floor (the smallest time
// either engine may still run, place or receive) is agreed now and then,
// and what lies below it is freed.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "engine_test_support.hpp"
#include "tethersim/engine/sector_window.hpp"
#include "tethersim/engine/sent_outcomes.hpp"

namespace tethersim::testing {

struct HarnessOptions {
  double start = 0.0;
  double end = 1.0;
  std::uint64_t seed = 1;
  std::size_t instants_per_segment = 64;
  int cut_axis = 0;  // the plane between the two blocks is across this axis, at its middle
  int longest_run = 40;       // events an engine runs at one turn, at most
  double deliver_rate = 0.5;  // chance that a turn delivers some of a channel
  // Forced rollbacks (plan step 4): at a turn, with this chance, one engine
  // is undone to a random time between the committed floor and its clock,
  // with nothing late to cause it. Eagerly, it cancels everything it sent
  // from then on; lazily, what it sent waits for its re-runs to confirm it.
  double forced_rollback_rate = 0.0;
  bool lazy_forced_rollbacks = false;
  // Undos for late outcomes, cancel notices and held events keep what the
  // engine sent unconfirmed for its re-runs (as the MPI protocol does),
  // instead of cancelling from the late key on.
  bool lazy_undos = false;
  // A late outcome undoes its receiver only from its impact time (where it
  // can first have changed what ran there) and is placed at once when it
  // can be (PartialView::take_late_outcome), instead of undoing from its
  // own time.
  bool impact_undos = false;
  // Ghosts one layer deep (plan step 8): each engine holds its block and
  // one layer of sectors around it, and an outcome goes to the other engine
  // only when one of its particles is within two layers of that engine's
  // block (after the event; a crossing moves a particle by one sector, so
  // that takes in every particle the other held before, too).
  bool one_layer = false;
  // A defect on purpose, to show that the comparison can fail: cancel
  // notices are lost.
  bool lose_cancels = false;
};

struct HarnessCounts {
  std::uint64_t outcomes = 0;
  std::uint64_t stragglers = 0;  // outcomes that came at or before the receiver's clock
  std::uint64_t straggler_undos = 0;  // of those, the ones that undid their receiver
  std::uint64_t cancels = 0;
  std::uint64_t cancel_undos = 0;  // cancel notices that undid a placed outcome
  std::uint64_t identical_resends = 0;  // re-runs not sent again (SentOutcomes)
  std::uint64_t forced_rollbacks = 0;
  std::uint64_t held_undos = 0;  // an engine undone before an event it had held

  std::size_t most_held = 0;
};

class TwoEngineHarness {
 public:
  TwoEngineHarness(const std::string& model, const std::vector<std::string>& overrides, const HarnessOptions& o)
      : options_(o), rng_(o.seed), committed_(o.start) {
    for (int k = 0; k < 2; ++k) sims_.emplace_back(std::make_unique<Simulation>(model, overrides));
    const auto shape = (*sims_[0])->grid().shape();
    const auto axis = static_cast<std::size_t>(o.cut_axis);
    const std::int32_t cut = shape[axis] / 2;
    for (int k = 0; k < 2; ++k) {
      Simulation& sim = *sims_[static_cast<std::size_t>(k)];
      sim->run_until(o.start);
      engine::SectorBox block;
      block.lo = {0, 0, 0};
      block.hi = shape;
      (k == 0 ? block.hi : block.lo)[axis] = cut;
      sim.view().set_counts_global_events(k == 0);
      windows_[k] = engine::SectorWindow::around(block, sim->grid(), 1);
      reach_[k] = engine::SectorWindow::around(block, sim->grid(), 2);
      sim.view().begin_owner_computes(block, o.instants_per_segment, o.one_layer ? &windows_[k] : nullptr);
      // Events deep inside a block leave outcomes of keys alone (as on MPI).
      if (o.one_layer) sim.view().set_quiet_core(engine::quiet_core(block, sim->grid()));
    }
  }

  // Whether engine k holds (or is about to hold) any particle of the outcome.
  bool concerns(int k, const engine::EventOutcome& outcome) const {
    return !options_.one_layer || reach_[k].concerns(outcome);
  }

  Simulation& sim(int k) { return *sims_[static_cast<std::size_t>(k)]; }
  const HarnessCounts& counts() const { return counts_; }

  // Runs both engines to the end; false when it did not finish in
  // `max_turns` turns.
  bool run(std::uint64_t max_turns = 5000000) {
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (std::uint64_t turn = 0; turn < max_turns; ++turn) {
      const int k = static_cast<int>(rng_() % 2);
      view(k).engine().run_until(options_.end, 1 + rng_() % static_cast<std::uint64_t>(options_.longest_run));
      sent_[k].commit_before(view(k).final_below());  // a tick ran: what came before it is final
      for (engine::EventOutcome& outcome : view(k).take_outcomes()) {
        if (!concerns(1 - k, outcome)) {
          // What was sent at this key before (other bits) is withdrawn.
          for (const engine::EventKey& key : sent_[k].pass(outcome).withdraw) send_withdrawal(k, key);
          continue;
        }
        const engine::SentOutcomes::Offer offer = sent_[k].offer(outcome);
        for (const engine::EventKey& key : offer.withdraw) send_withdrawal(k, key);
        if (!offer.send) continue;  // a re-run gave the bits already sent
        channel_[1 - k].push_back({false, false, outcome.key, std::move(outcome)});
        ++counts_.outcomes;
      }
      // Instants before what the engine can still run by itself are over
      // (as the MPI protocol judges them).
      const double over_before = std::min(view(k).runnable_floor_time(), options_.end);
      for (const engine::EventKey& key : sent_[k].missing_before(over_before)) send_withdrawal(k, key);
      // After what ran before it was sent (as the MPI protocol does).
      if (const auto due = view(k).take_undo_due()) {
        ++counts_.held_undos;
        view(k).undo_owner_from(due->time);
        undid(k, due->time, *due);
      }
      counts_.most_held = std::max(counts_.most_held, view(k).held_count());
      if (unit(rng_) < options_.deliver_rate) {
        const int to = static_cast<int>(rng_() % 2);
        // Up to the whole channel: lateness stays bounded by a few turns.
        const auto n = options_.deliver_rate >= 1.0 ? channel_[to].size() : rng_() % (channel_[to].size() + 1);
        for (std::uint64_t m = 0; m < n && !channel_[to].empty(); ++m) deliver(to);
      }
      if (unit(rng_) < options_.forced_rollback_rate) force_rollback(static_cast<int>(rng_() % 2));
      if (turn % 16 == 0) commit();
      if (finished()) {
        for (int e = 0; e < 2; ++e) {
          view(e).end_owner_computes();
          counts_.identical_resends += sent_[e].identical_resends();
        }
        return true;
      }
    }
    return false;
  }

 private:
  struct Message {
    bool cancel = false;
    bool withdrawal = false;  // with cancel: this key alone
    engine::EventKey key;  // the outcome's, or where the cancel starts
    engine::EventOutcome outcome;
  };

  engine::PartialView view(int k) { return sim(k).view(); }

  void deliver(int to) {
    Message m = std::move(channel_[to].front());
    channel_[to].pop_front();
    if (m.cancel) {
      ++counts_.cancels;
      const engine::EventKey placed = m.withdrawal ? view(to).withdraw_foreign(1 - to, m.key)
                                                   : view(to).cancel_foreign_from(1 - to, m.key);
      if (placed.time < kInfinity) {
        ++counts_.cancel_undos;
        undid(to, placed.time, placed);
      }
      return;
    }
    if (!view(to).is_straggler(m.outcome.key)) {
      view(to).add_foreign_outcome(std::move(m.outcome), 1 - to);
      return;
    }
    ++counts_.stragglers;
    if (!options_.impact_undos) {
      ++counts_.straggler_undos;
      view(to).undo_owner_from(m.key.time);
      undid(to, m.key.time, m.key);
      view(to).add_foreign_outcome(std::move(m.outcome), 1 - to);
      return;
    }
    if (const std::optional<double> from = view(to).take_late_outcome(std::move(m.outcome), 1 - to)) {
      ++counts_.straggler_undos;
      // Everything run from that instant on is undone.
      engine::EventKey key;
      key.time = *from;
      key.priority = std::numeric_limits<int>::min();
      undid(to, *from, key);
    }
  }

  // Engine k was undone from `instant` because of what came at `key`.
  void undid(int k, double instant, const engine::EventKey& key) {
    if (options_.lazy_undos) {
      sent_[k].undone_lazily(instant);
    } else if (auto cancel = sent_[k].undone(instant, key)) {
      send_cancel(k, *cancel);
    }
  }

  // Undoes engine k to a random time above the committed floor, as a
  // rollback whose cause is unknown: its re-runs must give the same bits.
  void force_rollback(int k) {
    const double clock = std::min(view(k).engine().time(), options_.end);
    if (!(clock > committed_)) return;
    const double t = std::uniform_real_distribution<double>(committed_, clock)(rng_);
    ++counts_.forced_rollbacks;
    view(k).undo_owner_from(t);
    engine::EventKey from;  // lazily: nothing void yet, everything from t unconfirmed
    if (!options_.lazy_forced_rollbacks) {
      from.time = t;  // eagerly: everything sent from t on is void
      from.priority = std::numeric_limits<int>::min();
    }
    undid(k, t, from);
  }

  void send_cancel(int k, const engine::EventKey& from) {
    if (!options_.lose_cancels) channel_[1 - k].push_back({true, false, from, {}});
  }

  void send_withdrawal(int k, const engine::EventKey& key) {
    if (!options_.lose_cancels) channel_[1 - k].push_back({true, true, key, {}});
  }

  // Times as the agreement counts them (PartialView::agreement_time).
  double in_flight_floor() {
    double t = kInfinity;
    for (const auto& channel : channel_) {
      for (const Message& m : channel) t = std::min(t, view(0).agreement_time(m.key));
    }
    return t;
  }

  void commit() {
    double floor = in_flight_floor();
    for (int k = 0; k < 2; ++k) {
      floor = std::min({floor, view(k).floor_time(), view(k).agreement_time(sent_[k].earliest_unconfirmed())});
    }
    floor = std::min(floor, options_.end);
    for (int k = 0; k < 2; ++k) {
      view(k).commit_owner_before(floor);
      sent_[k].commit_before(floor);
    }
    committed_ = std::max(committed_, floor);
  }

  bool finished() {
    if (!channel_[0].empty() || !channel_[1].empty()) return false;
    for (int k = 0; k < 2; ++k) {
      if (view(k).floor_time() < options_.end) return false;
    }
    // Every instant before the end is over: an outcome no re-run gave
    // again is cancelled now, not left with the neighbour.
    bool settled = true;
    for (int k = 0; k < 2; ++k) {
      for (const engine::EventKey& key : sent_[k].missing_before(options_.end)) {
        send_withdrawal(k, key);
        settled = false;
      }
    }
    return settled;
  }

  HarnessOptions options_;
  std::mt19937_64 rng_;
  std::vector<std::unique_ptr<Simulation>> sims_;
  std::deque<Message> channel_[2];  // channel_[k]: to engine k
  engine::SentOutcomes sent_[2];   // what engine k sent, above the floor
  HarnessCounts counts_;
  double committed_;  // the last floor committed below (the start at first)
  engine::SectorWindow windows_[2];  // what engine k holds with ghosts one layer deep
  engine::SectorWindow reach_[2];    // two layers: where an outcome concerns engine k
};

}  // namespace tethersim::testing
