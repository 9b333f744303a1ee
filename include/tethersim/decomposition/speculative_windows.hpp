#pragma once
// Speculative windows, the default window protocol (docs/distribution.md,
// "A speculative round"): every rank runs the window with every particle it
// holds, ghosts included, under an undo log; then each checks, from the
// histories its neighbours send of their own particles, that its own were
// computed exactly. The window stands up to the earliest time every rank
// can vouch for, and is undone on every rank after it. Periodic ticks run
// between windows, with no undo log ("Ticks between windows").

#include <cstdint>
#include <span>
#include <vector>

#include "tethersim/decomposition/agreements.hpp"
#include "tethersim/decomposition/rank_exchange.hpp"
#include "tethersim/decomposition/window_length.hpp"
#include "tethersim/decomposition/window_protocol.hpp"
#include "tethersim/model/initial_state.hpp"

namespace tethersim::decomposition {

class DistributedEngine;

// Why a speculative window's check found this rank's own particles not
// computed exactly: a ghost whose runs parted came near them (its true run
// reached where they were), or one of them read such a ghost after the
// parting (a contact).
enum class HistoryViolation { none, near, contact };

class SpeculativeWindows final : public WindowProtocol {
 public:
  explicit SpeculativeWindows(DistributedEngine& engine) : d_(engine) {}
  // One attempt at a window run first and checked afterwards: committed
  // (time moves on) or undone. False after three undone attempts in a row.
  bool round(double end) override;

 private:
  // A window run up to `until` (or cut at the window memory) under an undo
  // log, and what it ran.
  struct Attempt {
    double until = 0.0;
    int halt = 0;               // DistributedEngine::Halt
    bool reached = false;       // ran up to `until`
    double complete = 0.0;      // every event before it ran (< until after a memory cut)
    std::uint64_t counted = 0, uncounted = 0;  // the engine's counts before it
    std::uint64_t executed = 0, duplicated = 0;
  };
  Attempt run_window(double until);
  // What this rank claims of the window: the earliest time its own
  // particles may not be exact (its check, its memory cut), and the
  // testing switches' forced undo or injected violation.
  struct Claim {
    double violation = 0.0;
    bool forced = false, injected = false;
  };
  Claim claim_violation(const Attempt& attempt);
  // After a window the ranks did not keep whole: keeps what stood (cut
  // short, or run again) or undoes it; what the round does next.
  enum class AfterCut { go_on, round_over, give_way };
  AfterCut cut_short(const Attempt& attempt, const Claim& claim, const SpeculativeVerdict& verdict, double length);
  // Sends the histories of owned particles to the ranks that hold them or
  // whose windows they entered, and checks the histories of this rank's
  // ghosts against them. The earliest time from which this rank's own
  // particles may not have been run exactly (+infinity when the whole
  // window is exact).
  double check_histories(double until);
  // The window's logged steps grouped by particle (speculative_windows.cpp).
  struct LoggedPaths;
  // Sends each owned particle's logged steps to every rank whose window it
  // was in; returns what the neighbours sent of theirs.
  ReceivedBytes send_histories(const LoggedPaths& logged);
  // The earliest time from which an owned particle may have run otherwise
  // than it truly did, judged from the neighbours' histories of their own
  // particles (`in`) against the runs here.
  double earliest_violation(const LoggedPaths& logged, const ReceivedBytes& in, double until);
  // Sends what changed, keeps the window's events and moves time to `until`.
  void commit_window(double until, std::uint64_t executed, std::uint64_t duplicated);
  // After a window was undone whole: runs it again up to `until` and keeps it.
  void run_again_and_commit(double until);
  // After a window every rank kept up to `until`: the owners' records
  // replace the ghosts whose runs parted before it (asked for by id; a
  // ghost run as its owner ran it is already exact), particles migrate,
  // ghosts leave or arrive.
  void commit_exchange(double until);
  // Its parts: what to ask for, reset and send, gathered before anything
  // changes; a neighbour exchange, counted; the owners' answers to what
  // was asked of this rank (and where the newcomers' records start in
  // each request); the arrivals placed, migrations and departures done.
  struct CommitPlan;
  CommitPlan plan_commit(double until);
  ReceivedBytes exchange_counted(std::vector<Bytes> out);
  // The neighbour slot of `rank`, to which a record or history of
  // `particle` goes; a rank that is not a neighbour is a synchronization
  // error.
  std::size_t neighbour_slot(int rank, ParticleId particle) const;
  std::vector<Bytes> answer_requests(const ReceivedBytes& first, std::vector<std::span<const char>>& newcomers) const;
  void place_arrivals(const CommitPlan& plan, const std::vector<std::span<const char>>& newcomers,
                      const ReceivedBytes& answers);

  // --- periodic ticks between windows (ticks_between_windows.cpp)
  // At a tick's time: runs the ticks due now before the window opens, with
  // no undo log, when every rank can (one agreement); otherwise the window
  // runs them.
  void run_ticks_between_windows();
  // The next tick after the run's time, where windows end (+infinity: none).
  double next_tick_cap() const;
  // Whether every loaded group with a particle this rank owns is held here
  // whole (no member in the halo's last layer).
  bool owned_groups_held_whole() const;
  // After a tick: the owners' records replace the ghosts of particles in
  // loaded groups, whose copies here may have missed members (collective
  // over the neighbourhood).
  void refresh_loaded_ghosts();

  DistributedEngine& d_;  // the mechanism
  WindowLength length_{kSpeculativeWindowLengths};
  int failures_ = 0;  // consecutive undone attempts
  // Testing switch (fail_every_window_once): this window was undone once.
  bool failed_this_window_ = false;
  // Why the last check of histories found this rank's particles inexact.
  HistoryViolation last_violation_ = HistoryViolation::none;
  // The ghosts the last check found run here otherwise than by their
  // owners, from when, and the neighbour slot of the owner that reported
  // them (-1: the owner reported no change, so it is as it was at the
  // window's start). By id: a window run again before its commit starts a
  // new undo log, and nothing may depend on it not renumbering.
  struct Parting {
    ParticleId particle;
    double time;
    int slot;
  };
  std::vector<Parting> partings_;
};

}  // namespace tethersim::decomposition
