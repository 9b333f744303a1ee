#pragma once
// The synchronization counters of a distributed run, as min / mean / max
// over ranks (summary.json "distribution", the end-of-run table).

#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tethersim/decomposition/distributed_engine.hpp"

namespace tethersim::runtime {

struct DistributionRow {
  std::string name;
  double min = 0.0;
  double mean = 0.0;
  double max = 0.0;
  double total = 0.0;
};

struct DistributionReport {
  int ranks = 1;
  std::string rank_grid;  // "2x1x1"
  std::vector<DistributionRow> rows;
  // Derived, over all ranks.
  double duplicated_fraction = 0.0;  // duplicated / unique events
  double imbalance = 1.0;            // largest over mean execute time
  double windows_per_time_unit = 0.0;

  const DistributionRow* row(const std::string& name) const;
};

// Collective over the engine's communicator.
DistributionReport distribution_report(const decomposition::DistributedEngine& engine, double simulated_time);

void print_distribution(std::FILE* out, const DistributionReport& report);

}  // namespace tethersim::runtime
