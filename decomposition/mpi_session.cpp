#include "tethersim/decomposition/mpi_session.hpp"

#include <mpi.h>

#include <cstdlib>

namespace tethersim::decomposition {

MpiSession::MpiSession() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    // A rank waiting for its neighbours gives its core away instead of
    // spinning on it: ranks often share cores (with each other when
    // oversubscribed, with other jobs on a shared node), and a spinning
    // waiter slows the rank it waits for. Open MPI reads this at MPI_Init;
    // a value the user set wins.
    setenv("OMPI_MCA_mpi_yield_when_idle", "1", 0);
    MPI_Init(nullptr, nullptr);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() {
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (!finalised) MPI_Finalize();
}

}  // namespace tethersim::decomposition
