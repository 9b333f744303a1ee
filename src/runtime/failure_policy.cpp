#include "failure_policy.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "tethersim/mpi/reductions.hpp"

namespace tethersim::runtime {

int agree_on_failure(MPI_Comm comm, const std::optional<RunFailure>& mine) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const int first = mpi::min(mine ? rank : ranks, comm);
  if (first == ranks) return 0;
  const int code = mpi::broadcast(mine ? mine->exit_code : 0, first, comm);
  if (rank == first) {
    std::fprintf(stderr, "%s\n", mine->message.c_str());
    std::fflush(stderr);
  }
  return code;
}

void end_all_ranks(MPI_Comm comm, int exit_code, const std::string& message, bool input_error) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  if (input_error && rank != 0) std::this_thread::sleep_for(std::chrono::milliseconds(500));
  std::fprintf(stderr, "%s (rank %d of %d; ending every rank)\n", message.c_str(), rank, ranks);
  std::fflush(stderr);
  MPI_Abort(comm, exit_code);
  // MPI_Abort does not return; should an implementation return, still end.
  std::_Exit(exit_code);
}

}  // namespace tethersim::runtime
