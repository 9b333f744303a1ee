#pragma once
// A particle's history over a speculative window, as the engine logged it
// (one step per event it took part in: when, a hash of the event and of its
// record after it, and its sector after it), and what comparing two
// histories of one particle tells: when two processes' runs of it parted,
// and where it went afterwards in either (docs/distribution.md,
// "Speculative windows").

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "tethersim/decomposition/record_codec.hpp"
#include "tethersim/engine/speculation_log.hpp"
#include "tethersim/model/initial_state.hpp"

namespace tethersim::decomposition {

using SectorIndex3 = std::array<std::int32_t, 3>;

struct HistoryStep {
  double time = 0.0;
  std::uint64_t hash = 0;
  SectorIndex3 sector{0, 0, 0};
  bool operator==(const HistoryStep& o) const { return time == o.time && hash == o.hash; }
};

struct ParticleHistory {
  ParticleId id = 0;
  SectorIndex3 start_sector{0, 0, 0};  // its sector when the window started
  std::vector<HistoryStep> steps;      // in time order
};

void append_history(Bytes& out, ParticleId id, const SectorIndex3& start_sector, std::span<const HistoryStep> steps);
std::vector<ParticleHistory> read_histories(const char* data, std::size_t size);

// The time at which two histories of one particle part: the time of the
// first step where they differ (the earlier of the two, or the step one
// has and the other lacks); +infinity when they are the same.
double parting_time(std::span<const HistoryStep> a, std::span<const HistoryStep> b);

// The earliest time in [from, end) at which the particle, on the path a
// history describes (start sector, then each step's sector from its time
// on), is in a sector for which `near` holds; +infinity if it never is.
double first_time_near(const SectorIndex3& start, std::span<const HistoryStep> steps, double from, double end,
                       const std::function<bool(const SectorIndex3&)>& near);

}  // namespace tethersim::decomposition
