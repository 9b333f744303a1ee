#pragma once
// DIR/run.log: a copy of everything rank 0 prints on stdout and stderr while
// a run is under way (all of it, with --quiet too) (the model, progress lines, the summary table, a stop
// message), so that the record of a batch job sits beside its data whatever
// the job script does with the terminal output.

#include <cstdio>
#include <filesystem>
#include <string>

namespace tethersim::runtime {

// "# tethersim 0.1.0, started 2026-01-02 03:04:05 UTC on 4 MPI ranks": the
// line that opens each run's part of the log.
std::string run_log_header(bool continued, int ranks);

class RunLog {
 public:
  // Opens DIR/run.log for appending (a continued run adds to the same log),
  // writes `first_line`, and from then on copies stdout and stderr into it
  // until destroyed. `quiet` (--quiet): stdout goes to the log only, so the
  // log is complete whatever the terminal shows. Without a log file
  // (unwritable directory) it does nothing: the run's output is not worth
  // failing for.
  RunLog(const std::filesystem::path& directory, const std::string& first_line, bool quiet = false);
  ~RunLog();
  RunLog(const RunLog&) = delete;
  RunLog& operator=(const RunLog&) = delete;
  // Whether stdout and stderr reach the log.
  bool active() const { return saved_out_ != nullptr; }

 private:
  std::FILE* log_ = nullptr;
  std::FILE* saved_out_ = nullptr;
  std::FILE* saved_err_ = nullptr;
};

}  // namespace tethersim::runtime
