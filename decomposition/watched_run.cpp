// Running a window while watching the wall clock and simulated time: a
// window has no bound on its events (a dense cluster, or a Zeno cascade
// that never reaches the window's end), and the ranks only meet at its
// end, so each rank must notice a stop request or a stall by itself.
#include <algorithm>
#include <string>

#include "tethersim/decomposition/distributed_engine.hpp"
#include "tethersim/engine/stall_report.hpp"

namespace tethersim::decomposition {

namespace {
// A window's undo log grows by a few hundred bytes per event: a small
// window memory is checked more often, so that it is not overshot by much.
constexpr std::uint64_t kWindowBytesPerEvent = 512;
}  // namespace

DistributedEngine::Halt DistributedEngine::run_watched(engine::Engine& e, double until, std::uint64_t budget,
                                                       bool* reached, std::size_t memory_limit) {
  if (reached) *reached = false;
  const engine::PartialView view(e);
  auto stalled = [&](const engine::StallWatch& w) {
    stall_description_ = "rank " + std::to_string(rank_) + ": " + engine::stall_message(w, e, until);
    return Halt::stall;
  };
  // A stall the committed windows showed (below) stops the run here, in a
  // window that is then undone: describing it runs events.
  if (stalled_across_windows_) return stalled(committed_watch_);
  engine::StallWatch watch(stall_limit_);
  // Stop requests and stalls are polled about every 50 ms of wall time (a
  // clock read and a flag). The window's memory is checked every so many
  // events from its start (the same checks whatever the wall clock does),
  // often enough that a small window memory is not overshot by much.
  const std::uint64_t memory_poll =
      std::clamp<std::uint64_t>(memory_limit / kWindowBytesPerEvent, std::uint64_t{64}, engine::PollPacer::kMostEvents);
  std::uint64_t to_memory_check = memory_poll;
  poll_pacer_.start();
  for (;;) {
    const std::uint64_t step = std::min({budget, poll_pacer_.events(), to_memory_check});
    if (e.run_until(until, step)) {
      if (reached) *reached = true;
      return Halt::none;
    }
    budget -= step;
    poll_pacer_.polled(step);
    if (budget == 0) return Halt::none;
    to_memory_check -= step;
    if (to_memory_check == 0) {
      to_memory_check = memory_poll;
      const std::size_t held = view.speculation_bytes();
      counters_.window_peak_bytes = std::max<std::uint64_t>(counters_.window_peak_bytes, held);
      if (held > memory_limit) return Halt::none;
    }
    if (watch.stalled(e.time(), e.statistics().total_events() + view.uncounted_events())) return stalled(watch);
    if (stop_poll_ && stop_poll_()) return Halt::stop;
  }
}

void DistributedEngine::move_clock_to(double until) {
  ++counters_.windows;
  counters_.delta_sum += until - time_;
  counters_.delta_min = std::min(counters_.delta_min, until - time_);
  counters_.delta_max = std::max(counters_.delta_max, until - time_);
  time_ = until;
  // A stall can also be spread over many windows that each commit: ones
  // that end early with their undo log full, or fallbacks that stop after
  // their budget of events, each a little further along a Zeno creep. The
  // watch inside a window starts afresh with every window; this one sees
  // the committed clock and this rank's events across all of them.
  if (committed_watch_.stalled(time_, counters_.events_executed)) stalled_across_windows_ = true;
}

std::size_t DistributedEngine::window_memory() const {
  if (settings_.window_memory > 0) return settings_.window_memory;
  // A periodic impulse (gravity) changes every particle at each tick: the
  // undo log then holds a record for every particle, and the journal of
  // their later changes grows to its floor (65 536 records) before it is
  // dropped. Such models keep the larger memory: at a quarter of the
  // engine, at least 8 MiB, every window of the membrane sheet of 80 000
  // on 2 ranks ended at its first tick (t = 10 -> 13: 43 windows instead of
  // 3, its loop 1.60-1.71 s -> 2.03-2.08 s). Later ticks in a window add
  // nothing: a particle's record is kept once.
  if (!model_.periodic_impulses().empty()) {
    return std::max(kMinWindowMemoryWithTicks, engine_->memory_bytes() / 2);
  }
  return std::max(kMinWindowMemory, engine_->memory_bytes() / 4);
}

}  // namespace tethersim::decomposition
