#include "rank_memory.hpp"

namespace tethersim::runtime {

std::vector<RankMemory> gather_rank_memory(MPI_Comm comm, const RankMemory& local) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::uint64_t mine[3] = {local.engine_bytes, local.peak_resident_bytes,
                                 local.baseline_resident_bytes};
  std::vector<std::uint64_t> all(rank == 0 ? 3 * static_cast<std::size_t>(size) : 0);
  MPI_Gather(mine, 3, MPI_UINT64_T, all.data(), 3, MPI_UINT64_T, 0, comm);
  std::vector<RankMemory> out;
  for (std::size_t i = 0; i + 2 < all.size(); i += 3) out.push_back({all[i], all[i + 1], all[i + 2]});
  return out;
}

}  // namespace tethersim::runtime
