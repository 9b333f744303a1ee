#pragma once
// Whether what a run does over its whole length can be done, decided from
// the model and its particle counts before the run starts. Every schedule
// of a run (frames, observable samples, checkpoints, periodic impulse
// ticks, random impulses) makes a count over the run from its interval;
// an interval far too short for the run (1e-300 in a run to t = 20) would
// otherwise start a run that never ends while it fills the disk. A count
// that cannot fit is refused with the count and its size; a large but
// possible one gets a warning with the estimate (docs/model-format.md,
// "Run size").

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "tethersim/model/model.hpp"

namespace tethersim::scenario {

// The most particle updates (a frame or sample row, a checkpoint record, an
// impulse on one particle) one schedule may need over the run: at 10^9 a
// second, more than any machine does, 10^18 take over 30 years.
inline constexpr double kMaxRunUpdates = 1e18;
// Above this many a run takes hours or days on the fastest machines: a
// warning.
inline constexpr double kLargeRunUpdates = 1e12;
// The most bytes of frames or of observable samples a run may write (1 PiB),
// and more than the free space where they go is refused too; more than
// kLargeOutputBytes, or than half the free space, is a warning.
inline constexpr double kMaxOutputBytes = 1125899906842624.0;
inline constexpr double kLargeOutputBytes = 1e11;
// What one observable sample writes at least: a JSON line of about 340
// bytes (observables.jsonl) and its row in trajectory.h5.
inline constexpr double kBytesPerSample = 256.0;

struct RunBudget {
  std::optional<ModelProblem> refusal;  // the first count that cannot fit
  std::vector<ModelProblem> warnings;   // large but possible counts
};

// The budget of a run from t = 0 to the model's end time. `count_by_species`
// is the initial particles of each species; when it is unknown (empty, as
// for a restart) every schedule is counted with one particle, so only its
// count is checked. `free_disk_bytes` is the space where the output goes (0:
// unknown, then only the fixed bound applies). Compressed frames are
// counted by their updates only (their bytes are not known in advance).
RunBudget run_budget(const Model& model, const std::vector<std::size_t>& count_by_species,
                     double free_disk_bytes);

// The bytes available to an unprivileged writer in `directory`, or in its
// nearest existing parent when it does not exist yet (0 when unknown).
double free_disk_bytes(const std::string& directory);

}  // namespace tethersim::scenario
