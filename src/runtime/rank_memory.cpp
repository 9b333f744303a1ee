#include "rank_memory.hpp"

#include "tethersim/mpi/collectives.hpp"

namespace tethersim::runtime {

std::vector<RankMemory> gather_rank_memory(MPI_Comm comm, const RankMemory& local) {
  constexpr std::size_t kFields = 4;
  const std::uint64_t mine[kFields] = {local.engine_bytes, local.peak_resident_bytes,
                                       local.baseline_resident_bytes, local.start_particles};
  const std::vector<std::uint64_t> all = mpi::gather_to_root(mine, kFields, comm);
  std::vector<RankMemory> out;
  for (std::size_t i = 0; i + kFields <= all.size(); i += kFields) {
    out.push_back({all[i], all[i + 1], all[i + 2], all[i + 3]});
  }
  return out;
}

}  // namespace tethersim::runtime
