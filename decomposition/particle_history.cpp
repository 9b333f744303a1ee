#include "tethersim/decomposition/particle_history.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace tethersim::decomposition {

namespace {

template <typename T>
void put(Bytes& out, const T& value) {
  const std::size_t at = out.size();
  out.resize(at + sizeof(T));
  std::memcpy(out.data() + at, &value, sizeof(T));
}

template <typename T>
T get(const char* data, std::size_t size, std::size_t& at) {
  if (at + sizeof(T) > size) throw std::runtime_error("particle history buffer is truncated");
  T value;
  std::memcpy(&value, data + at, sizeof(T));
  at += sizeof(T);
  return value;
}

}  // namespace

void append_history(Bytes& out, ParticleId id, const SectorIndex3& start_sector, std::span<const HistoryStep> steps) {
  const std::size_t needed = out.size() + 8 + 12 + 4 + steps.size() * (8 + 8 + 12);
  if (needed > out.capacity()) out.reserve(std::max(needed, 2 * out.capacity()));
  put<std::uint64_t>(out, id);
  for (std::int32_t c : start_sector) put(out, c);
  put<std::uint32_t>(out, static_cast<std::uint32_t>(steps.size()));
  for (const HistoryStep& s : steps) {
    put(out, s.time);
    put(out, s.hash);
    for (std::int32_t c : s.sector) put(out, c);
  }
}

std::vector<ParticleHistory> read_histories(const char* data, std::size_t size) {
  std::vector<ParticleHistory> out;
  std::size_t at = 0;
  while (at < size) {
    ParticleHistory h;
    h.id = get<std::uint64_t>(data, size, at);
    for (std::int32_t& c : h.start_sector) c = get<std::int32_t>(data, size, at);
    const auto n = get<std::uint32_t>(data, size, at);
    h.steps.resize(n);
    for (HistoryStep& s : h.steps) {
      s.time = get<double>(data, size, at);
      s.hash = get<std::uint64_t>(data, size, at);
      for (std::int32_t& c : s.sector) c = get<std::int32_t>(data, size, at);
    }
    out.push_back(std::move(h));
  }
  return out;
}

double parting_time(std::span<const HistoryStep> a, std::span<const HistoryStep> b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t k = 0; k < n; ++k) {
    if (!(a[k] == b[k])) return std::min(a[k].time, b[k].time);
  }
  if (a.size() > n) return a[n].time;
  if (b.size() > n) return b[n].time;
  return kInfinity;
}

double first_time_near(const SectorIndex3& start, std::span<const HistoryStep> steps, double from, double end,
                       const std::function<bool(const SectorIndex3&)>& near) {
  // Segment k is [time of step k, time of step k + 1) in step k's sector;
  // before the first step, the start sector.
  SectorIndex3 sector = start;
  double since = -kInfinity;
  for (std::size_t k = 0; k <= steps.size(); ++k) {
    const double until = k < steps.size() ? steps[k].time : end;
    // The segment [since, until] touches [from, end): its end counts too
    // (events at one instant: the step at `until` may be the parting one).
    if (until >= from && since < end && near(sector)) return std::max(since, from);
    if (k == steps.size()) break;
    sector = steps[k].sector;
    since = steps[k].time;
  }
  return kInfinity;
}

}  // namespace tethersim::decomposition
