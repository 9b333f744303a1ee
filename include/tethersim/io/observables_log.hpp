#pragma once
// DIR/observables.jsonl: the observable samples of trajectory.h5 as JSON
// lines, one object per sample (time, step, then every observable under its
// name in the trajectory), for tools that read text: pandas, jq, awk, a
// `tail -f` of a running job. Written by rank 0 only; continuations append
// to it as they append to the trajectory, so that a run continued from a
// checkpoint leaves the same file as one that never stopped.

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <istream>
#include <string>
#include <vector>

#include "tethersim/io/observable_fields.hpp"
#include "tethersim/model/model.hpp"

namespace tethersim {

class ObservablesLog {
 public:
  // A fresh run's file, replacing any there.
  static ObservablesLog create(const std::filesystem::path& path, const Model& model);
  // A continuation's from a checkpoint at `time`: the samples up to `time`
  // are kept and those after it removed (they will be written again), like
  // the trajectory's. A file that is not there is started anew.
  static ObservablesLog append(const std::filesystem::path& path, const Model& model, double time);

  ObservablesLog(ObservablesLog&& other) noexcept;
  ObservablesLog& operator=(ObservablesLog&& other) noexcept;
  ObservablesLog(const ObservablesLog&) = delete;
  ObservablesLog& operator=(const ObservablesLog&) = delete;
  ~ObservablesLog();

  // One line, flushed at once: a checkpoint written after it never finds
  // the file behind the trajectory. A line that cannot be written (disk
  // full) throws a runtime error naming the file, as the trajectory does.
  void write(double time, std::int64_t step, const FrameObservables& observables);

 private:
  ObservablesLog(const std::filesystem::path& path, const Model& model, const char* mode);
  std::string path_;
  std::FILE* file_ = nullptr;
  // The keys of a line after time and step (kObservableFields).
  std::vector<ObservableColumn> columns_;
};

// The length in bytes of the part of an observables.jsonl to keep on a
// restart at `time`: every complete line up to the first that does not read
// as a sample or lies after `time`.
std::uint64_t observables_kept_length(std::istream& in, double time);

}  // namespace tethersim
