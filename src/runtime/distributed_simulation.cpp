#include "distributed_simulation.hpp"

#include "system_observables.hpp"
#include "tethersim/mpi/collectives.hpp"

#include <string>
#include <vector>

namespace tethersim::runtime {

DistributedSimulation::DistributedSimulation(const Model& model, MPI_Comm comm,
                                             const scenario::InitialSystem& initial,
                                             const decomposition::DistributionSettings& settings)
    : model_(model), engine_(model, comm, initial, settings) {}

DistributedSimulation::DistributedSimulation(const Model& model, MPI_Comm comm,
                                             engine::EngineSnapshot&& slice,
                                             const decomposition::DistributionSettings& settings)
    : model_(model), engine_(model, comm, std::move(slice), settings) {}

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
  std::vector<std::size_t> lengths;
  const std::vector<char> all = mpi::gather_to_root(mine.data(), mine.size(), engine_.comm(), &lengths);
  std::string joined;
  std::size_t offset = 0;
  for (std::size_t n : lengths) {
    if (n > 0) joined += (joined.empty() ? "" : "; ") + std::string(all.data() + offset, n);
    offset += n;
  }
  return joined;
}

bool DistributedSimulation::any_rank(bool local) const { return mpi::any_rank(local, engine_.comm()); }

std::optional<DistributionReport> DistributedSimulation::distribution(double simulated_time) const {
  return distribution_report(engine_, simulated_time);
}

}  // namespace tethersim::runtime
