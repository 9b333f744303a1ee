#include "distribution_shown.hpp"

namespace tethersim::runtime {

bool distribution_matters(const DistributionReport& report, double wall_seconds) {
  if (wall_seconds < 60.0) return false;
  const DistributionRow* rolled_back = report.row("events_rolled_back");
  const DistributionRow* unique = report.row("events_unique");
  const bool rollbacks = rolled_back != nullptr && unique != nullptr && rolled_back->total > 0.1 * unique->total;
  return rollbacks || report.duplicated_fraction > 0.5 || report.imbalance > 1.5;
}

}  // namespace tethersim::runtime
