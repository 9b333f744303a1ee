#include "progress.hpp"

#include <cmath>

#include <algorithm>
#include <stdexcept>

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
    : start_time_(start_time), end_time_(end_time), out_(out) {
  for (ObservableColumn& column : observable_columns(model)) {
    if (!column.field->in(kInProgress)) continue;
    if (column.columns != 0) throw std::logic_error("a progress column must be a scalar: " + column.name);
    columns_.push_back(std::move(column));
  }
}

namespace {

// Wide enough for the name and the value (14 for %.8g), so that the
// columns line up under their names.
int column_width(const ObservableColumn& column) {
  const int value = column.field->type() == ObservableType::real ? 14 : 9;
  return std::max(value, static_cast<int>(column.name.size()));
}

}  // namespace

void ProgressPrinter::header() const {
  // One token per column (the observables' names in the trajectory), so
  // that pandas and awk split the lines right.
  std::fprintf(out_, "%14s %6s %12s %11s", "time", "done", "events", "events_per_s");
  for (const ObservableColumn& column : columns_) {
    std::fprintf(out_, " %*s", column_width(column), column.name.c_str());
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
  std::fprintf(out_, "%14.6g %5.1f%% %12llu %11.4g", time, 100.0 * done, static_cast<unsigned long long>(events),
               rate);
  for (const ObservableColumn& column : columns_) {
    if (column.field->type() == ObservableType::real) {
      std::fprintf(out_, " %*.8g", column_width(column), observable_reals(s, column)[0]);
    } else {
      std::fprintf(out_, " %*lld", column_width(column), static_cast<long long>(observable_counts(s, column)[0]));
    }
  }
  std::fprintf(out_, " %10s\n", format_duration(eta).c_str());
  std::fflush(out_);
  last_wall_ = wall_seconds;
  last_events_ = events;
  last_time_ = time;
  printed_ = true;
}

}  // namespace tethersim::runtime
