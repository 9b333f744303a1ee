#include "distribution_report.hpp"

#include <algorithm>

#include "tethersim/mpi/reductions.hpp"

namespace tethersim::runtime {

const DistributionRow* DistributionReport::row(const std::string& name) const {
  for (const DistributionRow& r : rows) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

DistributionReport distribution_report(const decomposition::DistributedEngine& engine, double simulated_time) {
  const decomposition::DistributionCounters& c = engine.counters();
  const auto& rows = decomposition::kDistributionCounterRows;
  const std::size_t n = rows.size();
  std::vector<double> local(n);
  for (std::size_t k = 0; k < n; ++k) local[k] = rows[k].value(c);
  std::vector<double> lo = local, hi = local, sum = local;
  mpi::min_in_place(lo, engine.comm());
  mpi::max_in_place(hi, engine.comm());
  mpi::sum_in_place(sum, engine.comm());
  DistributionReport r;
  r.ranks = engine.ranks();
  const auto& g = engine.layout().ranks();
  r.rank_grid = std::to_string(g[0]) + "x" + std::to_string(g[1]) + "x" + std::to_string(g[2]);
  for (std::size_t k = 0; k < n; ++k) {
    r.rows.push_back({std::string(rows[k].name), lo[k], sum[k] / r.ranks, hi[k], sum[k]});
  }
  const DistributionRow* unique = r.row("events_unique");
  const DistributionRow* duplicated = r.row("events_duplicated");
  if (unique->total > 0) r.duplicated_fraction = duplicated->total / unique->total;
  const DistributionRow* execute = r.row("seconds_execute");
  if (execute->mean > 0) r.imbalance = execute->max / execute->mean;
  if (simulated_time > 0) r.windows_per_time_unit = r.row("windows")->max / simulated_time;
  return r;
}

void print_distribution(std::FILE* out, const DistributionReport& r) {
  std::fprintf(out, "  distribution       %d ranks as %s; duplicated events %.2f%%, imbalance %.3f, %.4g windows per time unit\n",
               r.ranks, r.rank_grid.c_str(), 100.0 * r.duplicated_fraction, r.imbalance, r.windows_per_time_unit);
  std::fprintf(out, "    %-20s %14s %14s %14s\n", "per rank", "min", "mean", "max");
  for (const DistributionRow& row : r.rows) {
    std::fprintf(out, "    %-20s %14.6g %14.6g %14.6g\n", row.name.c_str(), row.min, row.mean, row.max);
  }
}

}  // namespace tethersim::runtime
