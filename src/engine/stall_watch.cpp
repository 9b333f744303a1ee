#include "tethersim/engine/stall_watch.hpp"

#include <cmath>

namespace tethersim::engine {

namespace {
constexpr double kProgress = 1e-12;
}  // namespace

bool StallWatch::stalled(double time, std::uint64_t events) {
  last_events_ = events;
  // A clock that moved by more than the tolerance (or a count that went
  // back: another stretch of events) starts a new mark.
  if (!marked_ || events < mark_events_ || time > mark_time_ + kProgress * std::abs(mark_time_) ||
      (mark_time_ == 0.0 && time > 0.0)) {
    marked_ = true;
    mark_time_ = time;
    mark_events_ = events;
    return false;
  }
  return limit_ > 0 && events - mark_events_ >= limit_;
}

void StallWatch::reset() { marked_ = false; }

}  // namespace tethersim::engine
