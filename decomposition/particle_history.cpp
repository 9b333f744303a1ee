#include "tethersim/decomposition/particle_history.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace tethersim::decomposition {

void append_history(Bytes& out, ParticleId id, const SectorIndex3& start_sector, std::span<const HistoryStep> steps) {
  reserve_for(out, 8 + 12 + 4 + steps.size() * (8 + 8 + 12));
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
  ByteReader in(data, size, "particle history");
  while (!in.done()) {
    ParticleHistory h;
    h.id = in.get<std::uint64_t>();
    for (std::int32_t& c : h.start_sector) c = in.get<std::int32_t>();
    const auto n = in.get<std::uint32_t>();
    h.steps.resize(n);
    for (HistoryStep& s : h.steps) {
      s.time = in.get<double>();
      s.hash = in.get<std::uint64_t>();
      for (std::int32_t& c : s.sector) c = in.get<std::int32_t>();
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
