#include "distributed_simulation.hpp"

#include "system_observables.hpp"

namespace tethersim::app {

DistributedSimulation::DistributedSimulation(const Model& model, MPI_Comm comm,
                                             const scenario::InitialParticles& initial,
                                             const decomposition::DistributionSettings& settings)
    : model_(model), engine_(model, comm, initial, settings) {}

DistributedSimulation::DistributedSimulation(const Model& model, MPI_Comm comm,
                                             const engine::EngineSnapshot& slice,
                                             const decomposition::DistributionSettings& settings)
    : model_(model), engine_(model, comm, slice, settings) {}

void DistributedSimulation::local_frame(double t, std::vector<FrameParticle>& particles,
                                        std::vector<FrameTether>& tethers) const {
  accounted_frame(engine_.engine(), t, particles, tethers);
}

FrameObservables DistributedSimulation::observables(double) const {
  return system_observables(engine_.engine(), model_, engine_.comm());
}

engine::EngineStatistics DistributedSimulation::statistics() const {
  return system_statistics(engine_.engine().statistics(), engine_.comm());
}

std::uint64_t DistributedSimulation::state_hash() const {
  return system_state_hash(engine_.engine(), engine_.comm());
}

bool DistributedSimulation::any_rank(bool local) const {
  int value = local ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_LOR, engine_.comm());
  return value != 0;
}

std::optional<DistributionReport> DistributedSimulation::distribution(double simulated_time) const {
  return distribution_report(engine_, simulated_time);
}

}  // namespace tethersim::app
