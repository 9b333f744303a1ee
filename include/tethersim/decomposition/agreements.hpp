#pragma once
// What the ranks of a distributed run agree on, round by round: structs of
// named fields, each with its role (the largest over ranks, or the sum),
// reduced together by one collective (mpi::MaxAndSum::agree; the
// distributed engine's agree() records and times it). A minimum is agreed
// as the largest of its negation.

#include "tethersim/decomposition/fallback_policy.hpp"
#include "tethersim/mpi/reductions.hpp"

namespace tethersim::decomposition {

using mpi::Combine;

// Totals over ranks that every round's last agreement carries.
struct RunTotals {
  double unique_events = 0.0;  // events committed so far, each counted once
  double owned = 0.0;          // particles
  template <typename F>
  void each(F&& f) {
    f(unique_events, Combine::sum);
    f(owned, Combine::sum);
  }
};

// Certification, phase 1: whether some rank's local phase failed, and the
// largest speed bound of an owned particle.
struct CertificationStart {
  double failed = 0.0;           // 1: some rank failed
  double largest_bound = 0.0;
  template <typename F>
  void each(F&& f) {
    f(failed, Combine::max);
    f(largest_bound, Combine::max);
  }
};

// Certification, phase 2: the worst outcome over ranks.
struct CertificationVerdict {
  static constexpr double kCertified = 0.0, kBoundsRose = 1.0, kFailed = 2.0;
  double outcome = kCertified;
  double largest_bound = 0.0;
  RunTotals totals;
  template <typename F>
  void each(F&& f) {
    f(outcome, Combine::max);
    f(largest_bound, Combine::max);
    totals.each(f);
  }
};

// The first window length every rank can take: the shortest proposed.
struct ShortestLength {
  double negated = 0.0;  // minus the length
  template <typename F>
  void each(F&& f) {
    f(negated, Combine::max);
  }
};

// Whether some rank was asked to stop or saw a stall inside a window (the
// largest Halt: a stall).
struct HaltVerdict {
  double halt = 0.0;
  template <typename F>
  void each(F&& f) {
    f(halt, Combine::max);
  }
};

// A speculative window's check over ranks.
struct SpeculativeVerdict {
  double negated_violation = 0.0;  // minus the earliest violation on any rank
  double forced = 0.0;             // 1: some rank forced an undo (testing)
  double halt = 0.0;               // the largest Halt seen
  double injected = 0.0;           // 1: some rank injected a violation (testing)
  RunTotals totals;                // before this window
  template <typename F>
  void each(F&& f) {
    f(negated_violation, Combine::max);
    f(forced, Combine::max);
    f(halt, Combine::max);
    f(injected, Combine::max);
    totals.each(f);
  }
};

// A fallback's costs, each the largest over ranks.
struct AgreedFallbackCosts {
  FallbackCosts costs;
  template <typename F>
  void each(F&& f) {
    f(costs.windows_wall, Combine::max);
    f(costs.overhead, Combine::max);
    f(costs.seconds_per_event, Combine::max);
    f(costs.bytes_per_particle, Combine::max);
  }
};

}  // namespace tethersim::decomposition
