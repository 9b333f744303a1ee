#include "tethersim/io/observables_log.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <istream>
#include <utility>

#include "hdf5_support.hpp"
#include "tethersim/io/json_output.hpp"
#include "tethersim/model/number_format.hpp"

namespace tethersim {

using io_detail::OutputError;

namespace {

// The time of one line, or NaN when the line is not a sample (a line cut
// short by a killed run, or not tethersim's).
double sample_time(const std::string& line) {
  const Json sample = Json::parse(line, nullptr, false);
  if (!sample.is_object()) return std::nan("");
  const auto time = sample.find("time");
  if (time == sample.end() || !time->is_number()) return std::nan("");
  return time->get<double>();
}

}  // namespace

std::uint64_t observables_kept_length(std::istream& in, double time) {
  std::uint64_t kept = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (in.eof()) break;  // no newline: a write cut short
    // Samples are in time order: the first one after `time` (or one that
    // does not read) ends what the restart keeps, like the trajectory's.
    const double t = sample_time(line);
    if (!(t <= time)) break;
    kept += line.size() + 1;
  }
  return kept;
}

ObservablesLog::ObservablesLog(const std::filesystem::path& path, const Model& model, const char* mode)
    : path_(path.string()) {
  for (ObservableColumn& column : observable_columns(model)) {
    if (column.field->in(kInLog)) columns_.push_back(std::move(column));
  }
  file_ = std::fopen(path_.c_str(), mode);
  if (file_ == nullptr) throw OutputError(path_ + ": cannot open: " + std::strerror(errno));
}

ObservablesLog ObservablesLog::create(const std::filesystem::path& path, const Model& model) {
  return ObservablesLog(path, model, "w");
}

ObservablesLog ObservablesLog::append(const std::filesystem::path& path, const Model& model, double time) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    std::uint64_t kept = 0;
    {
      // Line by line: a long run's file need not fit in memory.
      std::ifstream in(path, std::ios::binary);
      if (!in) throw OutputError(path.string() + ": cannot read: " + std::strerror(errno));
      kept = observables_kept_length(in, time);
    }
    if (kept < std::filesystem::file_size(path, ec) && !ec) std::filesystem::resize_file(path, kept, ec);
    if (ec) throw OutputError(path.string() + ": cannot remove the samples after the checkpoint: " + ec.message());
  }
  return ObservablesLog(path, model, "a");
}

ObservablesLog::ObservablesLog(ObservablesLog&& other) noexcept
    : path_(std::move(other.path_)),
      file_(std::exchange(other.file_, nullptr)),
      columns_(std::move(other.columns_)) {}

ObservablesLog& ObservablesLog::operator=(ObservablesLog&& other) noexcept {
  if (this != &other) {
    if (file_ != nullptr) std::fclose(file_);
    path_ = std::move(other.path_);
    file_ = std::exchange(other.file_, nullptr);
    columns_ = std::move(other.columns_);
  }
  return *this;
}

ObservablesLog::~ObservablesLog() {
  if (file_ != nullptr) std::fclose(file_);
}

void ObservablesLog::write(double time, std::int64_t step, const FrameObservables& o) {
  Json sample;
  sample["time"] = json_number(time);
  sample["step"] = step;
  for (const ObservableColumn& column : columns_) sample[column.name] = observable_json(o, column);
  const std::string line = json_text(sample);
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0) {
    throw OutputError(path_ + ": cannot write the observables at t = " + format_number(time) + ": " +
                      std::strerror(errno) + " (disk full?)");
  }
}

}  // namespace tethersim
