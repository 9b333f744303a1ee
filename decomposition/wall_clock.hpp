#pragma once
// Seconds on a monotonic clock, for the time counters (private to
// decomposition/).

#include <chrono>

namespace tethersim::decomposition {

inline double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace tethersim::decomposition
