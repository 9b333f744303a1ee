#include "tethersim/io/observables_log.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <istream>
#include <utility>

#include "hdf5_support.hpp"
#include "observable_layout.hpp"
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
  const auto layout = io_detail::observable_layout(model);
  // The first six are the fixed ones write() names itself.
  for (std::size_t k = 6; k < layout.size(); ++k) count_names_.push_back(layout[k].first);
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
      count_names_(std::move(other.count_names_)) {}

ObservablesLog& ObservablesLog::operator=(ObservablesLog&& other) noexcept {
  if (this != &other) {
    if (file_ != nullptr) std::fclose(file_);
    path_ = std::move(other.path_);
    file_ = std::exchange(other.file_, nullptr);
    count_names_ = std::move(other.count_names_);
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
  sample["kinetic_energy"] = json_number(o.kinetic_energy);
  sample["momentum"] = Json::array({json_number(o.momentum.x()), json_number(o.momentum.y()),
                                    json_number(o.momentum.z())});
  sample["particles"] = o.particles;
  sample["escapes"] = o.escapes;
  sample["tethers"] = o.tethers;
  Json events = Json::object();
  for (std::size_t k = 0; k < io_detail::kEventCountColumns.size(); ++k) {
    events[io_detail::kEventCountColumns[k]] = k < o.event_counts.size() ? o.event_counts[k] : 0;
  }
  sample["event_counts"] = std::move(events);
  std::size_t name = 0;
  for (std::uint64_t count : o.clusters) sample[count_names_.at(name++)] = count;
  for (std::uint64_t count : o.tethered) sample[count_names_.at(name++)] = count;
  const std::string line = json_text(sample);
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0) {
    throw OutputError(path_ + ": cannot write the observables at t = " + format_number(time) + ": " +
                      std::strerror(errno) + " (disk full?)");
  }
}

}  // namespace tethersim
