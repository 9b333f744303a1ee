#pragma once
// When a distributed run's per-rank table (distribution_report.hpp) is worth
// the end-of-run screen: summary.json always holds it, but 50 lines of
// window counters under every small run hide the summary above them.

#include "distribution_report.hpp"

namespace tethersim::runtime {

// A run of at least a minute whose ranks lost much of their work: more
// than a tenth of the committed events rolled back, more than half of them
// duplicated, or the slowest rank executing for over 1.5 times the mean.
// Shorter runs only show the table when asked (--distribution-report).
bool distribution_matters(const DistributionReport& report, double wall_seconds);

}  // namespace tethersim::runtime
