#include "distributed_simulation.hpp"

#include "system_observables.hpp"

#include <string>
#include <vector>

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

std::string DistributedSimulation::stall_description() const {
  // Every rank's description (most are empty: the rank that saw the stall
  // speaks), joined on rank 0.
  const std::string& mine = engine_.stall_description();
  int length = static_cast<int>(mine.size());
  const int ranks = engine_.ranks();
  std::vector<int> lengths(static_cast<std::size_t>(ranks)), offsets(static_cast<std::size_t>(ranks), 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, engine_.comm());
  for (int k = 1; k < ranks; ++k) {
    offsets[static_cast<std::size_t>(k)] = offsets[static_cast<std::size_t>(k - 1)] + lengths[static_cast<std::size_t>(k - 1)];
  }
  std::string all(engine_.rank() == 0 ? static_cast<std::size_t>(offsets.back() + lengths.back()) : 0, ' ');
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, engine_.comm());
  std::string joined;
  for (int k = 0; k < ranks && engine_.rank() == 0; ++k) {
    const std::size_t n = static_cast<std::size_t>(lengths[static_cast<std::size_t>(k)]);
    if (n == 0) continue;
    joined += (joined.empty() ? "" : "; ") + all.substr(static_cast<std::size_t>(offsets[static_cast<std::size_t>(k)]), n);
  }
  return joined;
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
