#pragma once
// One `tethersim run`: loading the model (or a checkpoint), the output
// directory, the event loop with frames, observables, checkpoints, progress,
// stop signals and the wall-time limit, and the summary.

#include <cstdint>
#include <string>
#include <vector>

#include "tethersim/decomposition/distributed_engine.hpp"
#include "tethersim/mpi/session.hpp"
#include "tethersim/engine/stall_watch.hpp"

namespace tethersim::runtime {

struct RunRequest {
  std::string model_path;  // empty when restarting
  std::string restart;     // a checkpoint file, or a directory holding one
  std::vector<std::string> overrides;
  bool overwrite = false;
  bool quiet = false;
  // The per-rank table of a distributed run on stdout even when it does
  // not matter (distribution_matters); summary.json always has it.
  bool distribution_report = false;
  double max_walltime_hours = 0.0;  // 0 = no limit
  // Wall time kept back from max_walltime_hours for the final checkpoint;
  // negative: 1% of the limit.
  double walltime_margin_minutes = -1.0;
  // Events without simulated time advancing that stop the run (0: never).
  std::uint64_t stall_events = engine::kDefaultStallEvents;
  decomposition::DistributionSettings distribution;  // several ranks only
};

// Returns the process exit code; throws InputError for bad input.
int run_simulation(const RunRequest& request, const mpi::Session& mpi);

}  // namespace tethersim::runtime
