#include "tethersim/engine/poll_pacer.hpp"

#include <algorithm>

namespace tethersim::engine {

void PollPacer::adapt(std::uint64_t ran, double seconds) {
  if (ran == 0) return;
  if (seconds > target_) {
    // Events per target interval at the measured rate (at least one).
    const double fit = static_cast<double>(ran) * target_ / seconds;
    events_ = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(fit), 1, most_);
  } else if (seconds < 0.25 * target_ && ran >= events_) {
    // Only a full step says the rate allows more: a step cut short by the
    // caller's budget or by reaching its end time says nothing.
    events_ = std::min(most_, 2 * events_);
  }
}

}  // namespace tethersim::engine
