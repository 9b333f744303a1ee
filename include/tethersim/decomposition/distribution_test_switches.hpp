#pragma once
// Switches for testing and debugging the distributed engine, in one place
// (docs/distribution.md, "Testing switches"). None changes a result: they
// force the paths a run rarely takes (undone windows, dropped journals, a
// failing rank) or add checks and traces. The runtime reads them from the
// environment (runtime/distribution_test_switches.cpp); the distributed
// engine reads them only from DistributionSettings::test.

#include <cstddef>
#include <limits>

#include "tethersim/engine/partial_view.hpp"

namespace tethersim::decomposition {

struct DistributionTestSwitches {
  // TETHERSIM_TRACE_WINDOWS: one line on standard error per window, failed
  // attempt, undo, fallback decision and rebalance.
  bool trace_windows = false;
  // TETHERSIM_SHADOW_CHECK: rank 0 keeps a serial engine of the whole
  // system and compares every rank's particles with it after each round.
  bool shadow_check = false;
  // TETHERSIM_SPECULATION_FAIL_ONCE: every speculative window is undone
  // once before it may commit.
  bool fail_every_window_once = false;
  // TETHERSIM_SPECULATION_FAIL_RATE=p: a speculative window fails with
  // probability p (undone whole, or a violation claimed inside it).
  double random_failure_rate = 0.0;
  // TETHERSIM_JOURNAL_FLOOR=k: a speculative window drops its journal once
  // it outgrows k records.
  std::size_t journal_floor = engine::PartialView::kDefaultJournalFloor;
  // TETHERSIM_FAIL_ON_RANK=R@T: rank R fails once its windows reach time
  // T (how a failure on one rank ends the job); -1: none.
  int failing_rank = -1;
  double failing_time = std::numeric_limits<double>::infinity();
  // TETHERSIM_BREAK_SYNCHRONIZATION: each proposed window runs whatever its
  // certificate says. Honoured only by builds with
  // TETHERSIM_SYNC_FAULT_INJECTION (the tests that the bit-identity checks
  // catch a broken synchronization).
  bool break_synchronization = false;
};

}  // namespace tethersim::decomposition
