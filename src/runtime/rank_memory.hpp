#pragma once
// Memory of every rank, gathered for the run summary: one rank's figures
// say nothing about a run whose ranks each hold a block, a halo and their
// exchange buffers.

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace tethersim::runtime {

struct RankMemory {
  std::uint64_t engine_bytes = 0;            // the engine's data structures
  std::uint64_t peak_resident_bytes = 0;     // the process's peak
  std::uint64_t baseline_resident_bytes = 0; // before the model was loaded
  std::uint64_t start_particles = 0;         // particle records its start held at once
};

// Collective over `comm`: every rank's figures, in rank order, on rank 0
// (empty elsewhere).
std::vector<RankMemory> gather_rank_memory(MPI_Comm comm, const RankMemory& local);

}  // namespace tethersim::runtime
