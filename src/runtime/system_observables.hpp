#pragma once
// Observables and statistics of the whole system from the parts that the
// processes of a communicator hold (one process: the whole engine). Every
// process gets the same values: sums are exact (kinetic energy, momentum)
// or integer, so they do not depend on the number of processes.

#include <mpi.h>

#include "tethersim/engine/engine.hpp"
#include "tethersim/io/trajectory_file.hpp"

namespace tethersim::runtime {

// Collective over `comm`.
FrameObservables system_observables(const engine::Engine& engine, const Model& model, MPI_Comm comm);
engine::EngineStatistics system_statistics(const engine::EngineStatistics& local, MPI_Comm comm);
std::uint64_t system_state_hash(const engine::Engine& engine, MPI_Comm comm);

}  // namespace tethersim::runtime
