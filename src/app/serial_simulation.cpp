#include "serial_simulation.hpp"

#include "system_observables.hpp"

#include <algorithm>

namespace tethersim::app {

SerialSimulation::SerialSimulation(const Model& model, scenario::InitialParticles initial)
    : model_(model), engine_(model, std::move(initial)), time_(0.0) {}

SerialSimulation::SerialSimulation(const Model& model, const engine::EngineSnapshot& snapshot)
    : model_(model), engine_(model, snapshot), time_(snapshot.time) {}

bool SerialSimulation::advance(double end, std::uint64_t max_events) {
  const bool reached = engine_.run_until(end, max_events);
  time_ = reached ? end : std::max(time_, engine_.time());
  return reached;
}

double SerialSimulation::consistent_stop_time() {
  const double next = engine_.next_event_time();
  // Events tied at the current instant run first (one at a time).
  if (next <= engine_.time()) {
    engine_.run_until(kInfinity, 1);
    return consistent_stop_time();
  }
  time_ = next;
  return next;
}

void SerialSimulation::local_frame(double t, std::vector<FrameParticle>& particles,
                                   std::vector<FrameTether>& tethers) const {
  accounted_frame(engine_, t, particles, tethers);
}

FrameObservables SerialSimulation::observables(double) const {
  return system_observables(engine_, model_, MPI_COMM_SELF);
}

}  // namespace tethersim::app
