#include "tethersim/decomposition/mpi_session.hpp"

#include <mpi.h>

namespace tethersim::decomposition {

MpiSession::MpiSession() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) MPI_Init(nullptr, nullptr);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() {
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (!finalised) MPI_Finalize();
}

}  // namespace tethersim::decomposition
