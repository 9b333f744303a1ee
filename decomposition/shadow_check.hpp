#pragma once
// A developer's check of the distributed engine (TETHERSIM_SHADOW_CHECK=1):
// rank 0 keeps a serial engine of the whole system beside the distributed
// one and, after every round, compares it with what the ranks hold, bit for
// bit, the ghosts every rank holds included (a ghost must be its particle
// after every round). It names the first round, particle and field that
// differ, which the end-of-run comparisons of the rank-invariance tests
// cannot. It costs a gather of every particle per round: for debugging and
// tests only.

#include <mpi.h>

#include <memory>

#include "tethersim/engine/engine.hpp"

namespace tethersim::decomposition {

class ShadowCheck {
 public:
  // Collective: rank 0 builds the serial engine from every rank's records.
  ShadowCheck(const Model& model, MPI_Comm comm, const engine::Engine& local, double time);
  ~ShadowCheck();
  ShadowCheck(const ShadowCheck&) = delete;
  ShadowCheck& operator=(const ShadowCheck&) = delete;

  // Collective: the serial engine runs to `time` and must equal the union of
  // the ranks' accounted records, and every ghost its particle; throws
  // SynchronizationError otherwise.
  void check(const engine::Engine& local, double time);

 private:
  const Model& model_;
  MPI_Comm comm_;
  int rank_ = 0;
  std::unique_ptr<engine::Engine> serial_;  // rank 0 only
};

}  // namespace tethersim::decomposition
