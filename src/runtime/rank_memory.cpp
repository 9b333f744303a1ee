#include "rank_memory.hpp"

#include "tethersim/mpi/collectives.hpp"

namespace tethersim::runtime {

std::vector<RankMemory> gather_rank_memory(MPI_Comm comm, const RankMemory& local) {
  const std::uint64_t mine[3] = {local.engine_bytes, local.peak_resident_bytes,
                                 local.baseline_resident_bytes};
  const std::vector<std::uint64_t> all = mpi::gather_to_root(mine, 3, comm);
  std::vector<RankMemory> out;
  for (std::size_t i = 0; i + 2 < all.size(); i += 3) out.push_back({all[i], all[i + 1], all[i + 2]});
  return out;
}

}  // namespace tethersim::runtime
