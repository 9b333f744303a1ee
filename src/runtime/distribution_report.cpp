#include "distribution_report.hpp"

#include <algorithm>

namespace tethersim::runtime {

const DistributionRow* DistributionReport::row(const std::string& name) const {
  for (const DistributionRow& r : rows) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

DistributionReport distribution_report(const decomposition::DistributedEngine& engine, double simulated_time) {
  const decomposition::DistributionCounters& c = engine.counters();
  const std::vector<std::pair<const char*, double>> values = {
      {"windows", static_cast<double>(c.windows)},
      {"speculative_windows", static_cast<double>(c.speculative_windows)},
      {"commits", static_cast<double>(c.commits)},
      {"rollbacks", static_cast<double>(c.rollbacks)},
      {"partial_commits", static_cast<double>(c.partial_commits)},
      {"rollbacks_near", static_cast<double>(c.rollbacks_near)},
      {"rollbacks_contact", static_cast<double>(c.rollbacks_contact)},
      {"rollbacks_forced", static_cast<double>(c.rollbacks_forced)},
      {"events_rolled_back", static_cast<double>(c.events_rolled_back)},
      {"committed_events_per_window",
       c.commits > 0 ? static_cast<double>(c.events_executed) / static_cast<double>(c.windows) : 0.0},
      {"parted_particles", static_cast<double>(c.parted_particles)},
      {"certified_rounds", static_cast<double>(c.certified_rounds)},
      {"certifications", static_cast<double>(c.certifications)},
      {"retries", static_cast<double>(c.retries)},
      {"failed_reach", static_cast<double>(c.failures_reach)},
      {"failed_depth", static_cast<double>(c.failures_depth)},
      {"failed_energy", static_cast<double>(c.failures_energy)},
      {"bound_exchanges", static_cast<double>(c.bound_exchanges)},
      {"fallbacks", static_cast<double>(c.fallbacks)},
      {"fallbacks_declined", static_cast<double>(c.fallbacks_declined)},
      {"memory_cuts", static_cast<double>(c.memory_cuts)},
      {"journals_dropped", static_cast<double>(c.journals_dropped)},
      {"window_peak_bytes", static_cast<double>(c.window_peak_bytes)},
      {"rebalances", static_cast<double>(c.rebalances)},
      {"delta_min", c.windows > 0 ? c.delta_min : 0.0},
      {"delta_mean", c.windows > 0 ? c.delta_sum / static_cast<double>(c.windows) : 0.0},
      {"delta_max", c.delta_max},
      {"events_executed", static_cast<double>(c.events_executed)},
      {"events_unique", static_cast<double>(c.events_executed - c.events_duplicated)},
      {"events_duplicated", static_cast<double>(c.events_duplicated)},
      {"components", static_cast<double>(c.components)},
      {"cross_components", static_cast<double>(c.cross_components)},
      {"largest_component", static_cast<double>(c.largest_component)},
      {"active_ghosts", static_cast<double>(c.active_ghosts)},
      {"examined_owned", static_cast<double>(c.examined_owned)},
      {"examined_ghosts", static_cast<double>(c.examined_ghosts)},
      {"owned", static_cast<double>(c.owned)},
      {"ghosts", static_cast<double>(c.ghosts)},
      {"ghosts_max", static_cast<double>(c.ghosts_max)},
      {"migrations", static_cast<double>(c.migrations)},
      {"bytes_sent", static_cast<double>(c.bytes_sent)},
      {"messages_sent", static_cast<double>(c.messages_sent)},
      {"history_steps_sent", static_cast<double>(c.history_steps_sent)},
      // What the exchange costs per event this rank committed for itself.
      {"bytes_per_committed_event", c.events_executed > c.events_duplicated
                                        ? static_cast<double>(c.bytes_sent) /
                                              static_cast<double>(c.events_executed - c.events_duplicated)
                                        : 0.0},
      {"messages_per_committed_event", c.events_executed > c.events_duplicated
                                           ? static_cast<double>(c.messages_sent) /
                                                 static_cast<double>(c.events_executed - c.events_duplicated)
                                           : 0.0},
      {"bound_over_speed", c.bound_over_speed},
      {"seconds_certify", c.seconds_certify},
      {"seconds_execute", c.seconds_execute},
      {"seconds_exchange", c.seconds_exchange},
      {"seconds_wait", c.seconds_wait},
      {"seconds_verify", c.seconds_verify},
      {"seconds_rebuild", c.seconds_rebuild},
  };
  const std::size_t n = values.size();
  std::vector<double> local(n), lo(n), hi(n), sum(n);
  for (std::size_t k = 0; k < n; ++k) local[k] = values[k].second;
  MPI_Comm comm = engine.comm();
  MPI_Allreduce(local.data(), lo.data(), static_cast<int>(n), MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(local.data(), hi.data(), static_cast<int>(n), MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(local.data(), sum.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, comm);
  DistributionReport r;
  r.ranks = engine.ranks();
  const auto& g = engine.layout().ranks();
  r.rank_grid = std::to_string(g[0]) + "x" + std::to_string(g[1]) + "x" + std::to_string(g[2]);
  for (std::size_t k = 0; k < n; ++k) {
    r.rows.push_back({values[k].first, lo[k], sum[k] / r.ranks, hi[k], sum[k]});
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
