#pragma once
// When one rank runs everything for a while instead of windows (a lean
// fallback; docs/distribution.md, "Fallbacks"): decisions from measured
// costs and agreed numbers, with their bookkeeping. No MPI and no engine:
// the distributed engine measures, agrees on the costs over ranks and
// hands them in, so every rank takes the same decision.

#include <cstdint>
#include <limits>

namespace tethersim::decomposition {

// When one rank runs everything for a while besides clusters no halo holds:
// when measured costs say it pays; never; on a coin toss (testing: results
// must never depend on the decision).
enum class LeanFallback { on, off, random };

// A fallback runs until the next scheduled stop or this many events per
// particle; each fallback doubles it, up to the largest budget, so that a
// long-lived cluster wider than a halo, or a system too small to gain from
// windows, costs few rebuilds; windows weighed cheaper than a fallback
// bring it back to the first budget.
inline constexpr double kFirstFallbackBudget = 2.0;
inline constexpr double kLargestFallbackBudget = 256.0;
// Windows are weighed against a fallback this many at a time (one
// agreement each); one while fallbacks pay.
inline constexpr int kWindowsPerDecision = 4;
// Fallbacks run one after another, without windows, once fallbacks were
// found to pay.
inline constexpr int kFallbacksPerWeighing = 4;

// What the weighing compares, each the largest over ranks (wall-clock
// figures differ between ranks).
struct FallbackCosts {
  double windows_wall = 0.0;         // seconds the weighed windows took
  double overhead = 0.0;             // a fallback's seconds besides running events
  double seconds_per_event = 0.0;    // one rank running the events
  double bytes_per_particle = 0.0;   // a rank's engine memory per particle held
};

// A weighing's outcome, with the figures it compared (for tracing).
struct FallbackDecision {
  bool pays = false;
  bool declined = false;   // counted as a fallback declined
  bool weighed = false;    // costs were compared (the figures below are set)
  bool measured = false;   // from a fallback's own costs, not estimates
  double windows_cost = 0.0, serial_cost = 0.0, covered = 0.0;
};

class FallbackPolicy {
 public:
  explicit FallbackPolicy(LeanFallback mode) : mode_(mode) {}

  // At a round's start: true when the next fallback of a run without
  // windows is due (fallbacks pay, measured), counted in streak().
  bool next_in_streak(double time);
  int streak() const { return streak_; }

  // After a window, at the next round's start (`time`, wall clock
  // `round_started`, `global_events` agreed in that round): weighs the
  // last window; true when a decision is due.
  bool weigh(double round_started, double time, std::uint64_t global_events);
  // The testing coin's decision (LeanFallback::random).
  bool decide_by_coin(std::uint64_t coin);
  // This rank's costs to agree on: a fallback's own, once one ran, or
  // estimates (the rebuilding as one start-up build per rank, the cost per
  // event from the windows' execution).
  FallbackCosts local_costs(int ranks, double start_build_seconds, double execute_seconds,
                            std::uint64_t events_executed, double bytes_per_particle) const;
  // Whether a fallback up to `cap` (from `time`) takes less wall time than
  // windows like the weighed ones, from agreed costs and `owned` particles.
  FallbackDecision decide(const FallbackCosts& agreed, double owned, double time, double cap);
  // The weighed windows are forgotten (after every decision).
  void forget_windows() { weighed_ = {}; }

  // The budget (events per particle) the last decision chose.
  double chosen_budget() const { return chosen_budget_; }
  // The budget of the next fallback not chosen by a decision.
  double next_budget() const;
  // A fallback starts: its budget, `events_per_particle` or (0) the next.
  double begin_fallback(double events_per_particle);
  // A fallback ended: the next window is not weighed against the last.
  void end_fallback() { after_window_ = false; }
  // A fallback's measured costs: seconds besides running events, and rank
  // 0's seconds per event.
  void measured_overhead(double seconds) { overhead_ = seconds; }
  void measured_seconds_per_event(double seconds) { seconds_per_event_ = seconds; }
  LeanFallback mode() const { return mode_; }

 private:
  bool measured() const { return overhead_ >= 0.0 && seconds_per_event_ > 0.0; }
  // The outcome when windows are cheaper (or the stop too near).
  FallbackDecision decline(FallbackDecision d, double cap);

  LeanFallback mode_;
  double budget_ = 0.0;          // events per particle of the last fallback (0: none since windows won)
  double chosen_budget_ = 0.0;   // the budget the last decision chose
  int windows_per_decision_ = kWindowsPerDecision;
  bool tried_ = false;           // a fallback was tried to measure its costs
  // Fallbacks of a run without windows so far (-1: none, windows run).
  int streak_ = -1;
  // A run of fallbacks starts once the clock reaches this (a decision found
  // one rank cheaper, but the next scheduled stop too near to repay a
  // rebuilding); infinity: none pending.
  double fallbacks_from_ = std::numeric_limits<double>::infinity();
  std::uint64_t events_before_window_ = 0;  // global events before the last window
  bool after_window_ = false;               // the last round ran a window
  // The windows since the last weighing against a fallback.
  struct WeighedWindows {
    int count = 0;
    double wall = 0.0;    // seconds those windows took (this rank)
    double span = 0.0;    // simulated time they covered
    double events = 0.0;  // events they ran (all ranks)
  } weighed_;
  struct RoundStart {
    double wall = 0.0;
    double time = 0.0;
  } previous_round_;
  double overhead_ = -1.0;          // the last fallback's seconds besides events (-1: none yet)
  double seconds_per_event_ = 0.0;  // rank 0's, in the last fallback
};

}  // namespace tethersim::decomposition
