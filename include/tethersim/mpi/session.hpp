#pragma once
// MPI for the length of one command: initialised on construction, finalised
// on destruction. Works the same under mpirun, srun and as a plain process.
// In the mpi layer so that every command may hold one, whatever layers it
// uses (io-only commands such as `tethersim info` too).

#include <mpi.h>

#include <cstdlib>

namespace tethersim::mpi {

class Session {
 public:
  Session() {
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (!initialised) {
      // A rank waiting for its neighbours gives its core away instead of
      // spinning on it: ranks often share cores (with each other when
      // oversubscribed, with other jobs on a shared node), and a spinning
      // waiter slows the rank it waits for. Open MPI reads this at MPI_Init;
      // a value the user set wins.
      setenv("OMPI_MCA_mpi_yield_when_idle", "1", 0);
      // Collective writes gather through an 8 MiB buffer per aggregating
      // rank instead of Open MPI's 32 MiB: the larger one set rank 0's
      // peak memory (141 against 120 MiB for a gas of 10^6 on 8 ranks)
      // and wrote the checkpoint no faster.
      setenv("OMPI_MCA_io_ompio_bytes_per_agg", "8388608", 0);
      MPI_Init(nullptr, nullptr);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  ~Session() {
    int finalised = 0;
    MPI_Finalized(&finalised);
    if (!finalised) MPI_Finalize();
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace tethersim::mpi
