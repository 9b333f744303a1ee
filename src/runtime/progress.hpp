#pragma once
// Progress lines of a long run: simulated time, events per second, the
// observables and an estimate of the time left.

#include <cstdio>
#include <string>
#include <vector>

#include "observables.hpp"
#include "tethersim/io/trajectory_file.hpp"

namespace tethersim::runtime {

// "1:02:03" for 3723 seconds ("--" when unknown).
std::string format_duration(double seconds);

class ProgressPrinter {
 public:
  ProgressPrinter(const Model& model, double start_time, double end_time, std::FILE* out);
  void header() const;
  // One line: t, % done, events, events/s (since the last line), ETA.
  void line(double time, const FrameObservables& s, std::uint64_t events, double wall_seconds);

 private:
  // The observables the lines show: the table's progress columns.
  std::vector<ObservableColumn> columns_;
  double start_time_;
  double end_time_;
  std::FILE* out_;
  double last_wall_ = 0.0;
  std::uint64_t last_events_ = 0;
  double last_time_ = 0.0;
  bool printed_ = false;
};

}  // namespace tethersim::runtime
