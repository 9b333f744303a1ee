#include "serial_simulation.hpp"

#include "system_observables.hpp"

#include <algorithm>

#include "tethersim/engine/stall_report.hpp"

namespace tethersim::runtime {

SerialSimulation::SerialSimulation(const Model& model, scenario::InitialParticles initial)
    : model_(model), engine_(model, std::move(initial)), time_(0.0) {}

SerialSimulation::SerialSimulation(const Model& model, const engine::EngineSnapshot& snapshot)
    : model_(model), engine_(model, snapshot), time_(snapshot.time) {}

namespace {
// Events tied at one instant run before an unscheduled stop; a stalled run
// may never leave its instant, so their number is bounded (about 0.1 s).
constexpr std::uint64_t kMaxTiedEvents = 100000;
}  // namespace

bool SerialSimulation::advance(double end, std::uint64_t max_events) {
  if (!recorder_) return run(end, max_events);
  const std::uint64_t events = engine_.statistics().total_events();
  const std::uint64_t predictions = engine_.statistics().predictions;
  recorder_->begin_round(time_);
  recorder_->enter(decomposition::RoundPhase::execute);
  const bool reached = run(end, max_events);
  recorder_->end_round("serial", time_,
                       {engine_.statistics().total_events() - events, 0, 0,
                        engine_.statistics().predictions - predictions});
  return reached;
}

bool SerialSimulation::run(double end, std::uint64_t max_events) {
  stalled_ = false;
  // Polls of the stop flag and the clock about every 50 ms of wall time.
  pacer_.start();
  while (max_events > 0) {
    const std::uint64_t step = std::min(max_events, pacer_.events());
    if (engine_.run_until(end, step)) {
      time_ = end;
      return true;
    }
    max_events -= step;
    pacer_.polled(step);
    if (watch_.stalled(engine_.time(), engine_.statistics().total_events())) {
      stall_description_ = engine::stall_message(watch_, engine_, end);
      stalled_ = true;
    }
    time_ = std::max(time_, engine_.time());
    if (stalled_ || (stop_poll_ && stop_poll_())) return false;
  }
  return false;
}

double SerialSimulation::consistent_stop_time() {
  // Events tied at the current instant run first (one at a time). A run
  // stuck at one instant stops there, with the tied events it has not run
  // left in its state for a restart to run.
  for (std::uint64_t k = 0; k < kMaxTiedEvents; ++k) {
    const double next = engine_.next_event_time();
    if (next > engine_.time()) {
      time_ = next;
      return next;
    }
    engine_.run_until(kInfinity, 1);
  }
  time_ = engine_.time();
  return time_;
}

FrameObservables SerialSimulation::observables(double) const {
  return system_observables(engine_, model_, MPI_COMM_SELF);
}

}  // namespace tethersim::runtime
