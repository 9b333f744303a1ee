#include "progress.hpp"

#include <cmath>

#include "tethersim/io/observable_names.hpp"

namespace tethersim::runtime {

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "--";
  // A run that has barely started projects absurd times; past 10^6 hours
  // the digits mean nothing (and the count would overflow a long long).
  if (seconds >= 3.6e9) return ">1e6 h";
  const auto total = static_cast<long long>(seconds + 0.5);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%lld:%02lld:%02lld", total / 3600, total / 60 % 60,
                total % 60);
  return buffer;
}

ProgressPrinter::ProgressPrinter(const Model& model, double start_time, double end_time,
                                 std::FILE* out)
    : model_(model), start_time_(start_time), end_time_(end_time), out_(out) {}

void ProgressPrinter::header() const {
  // One token per column (the observables' names in the trajectory), so
  // that pandas and awk split the lines right.
  std::fprintf(out_, "%14s %6s %12s %11s %14s %9s", "time", "done", "events", "events_per_s",
               "kinetic_energy", "particles");
  for (const std::string& name : model_.output().cluster_species) {
    std::fprintf(out_, " %12s", cluster_observable_name(name).c_str());
  }
  for (const auto& pair : model_.output().tethered_pairs) {
    std::fprintf(out_, " %14s", tethered_observable_name(pair).c_str());
  }
  std::fprintf(out_, " %10s\n", "ETA");
  std::fflush(out_);
}

void ProgressPrinter::line(double time, const FrameObservables& s, std::uint64_t events,
                           double wall_seconds) {
  // The end of a run prints its final line; a progress line may just have
  // shown that same instant (then with no events since: a duplicate).
  if (printed_ && time == last_time_ && events == last_events_) return;
  const double span = end_time_ - start_time_;
  const double done = span > 0 ? (time - start_time_) / span : 1.0;
  const double interval = wall_seconds - last_wall_;
  const double rate = interval > 0 ? static_cast<double>(events - last_events_) / interval : 0.0;
  // Simulated time per wall second over the whole run so far.
  const double eta = done > 0 ? wall_seconds * (1.0 - done) / done : -1.0;
  std::fprintf(out_, "%14.6g %5.1f%% %12llu %11.4g %14.8g %9llu", time, 100.0 * done,
               static_cast<unsigned long long>(events), rate, s.kinetic_energy,
               static_cast<unsigned long long>(s.particles));
  for (std::uint64_t c : s.clusters) std::fprintf(out_, " %12llu", static_cast<unsigned long long>(c));
  for (std::uint64_t c : s.tethered) std::fprintf(out_, " %14llu", static_cast<unsigned long long>(c));
  std::fprintf(out_, " %10s\n", format_duration(eta).c_str());
  std::fflush(out_);
  last_wall_ = wall_seconds;
  last_events_ = events;
  last_time_ = time;
  printed_ = true;
}

}  // namespace tethersim::runtime
