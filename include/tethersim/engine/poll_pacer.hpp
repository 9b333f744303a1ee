#pragma once
// How many events a run executes between looks at the wall clock and the
// stop flag. A fixed count answers a signal late when events are slow (a
// large loaded group, a tether network re-predicted at every event): at
// 1 000 events per second, 4 096 events are four seconds. The pacer adapts
// the count to the measured time per event so that polls come about every
// 50 ms of wall time whatever the event rate, and never more than `most`
// events apart (fast runs keep their fixed, cheap cadence).

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace tethersim::engine {

class PollPacer {
 public:
  static constexpr std::uint64_t kMostEvents = 4096;
  static constexpr double kTargetSeconds = 0.05;

  // The first poll comes after one event, so that a run of slow events is
  // polled soon after it starts; fast runs reach `most` after twelve
  // doublings (a few microseconds of polls).
  static constexpr std::uint64_t kFirstEvents = 1;

  explicit PollPacer(std::uint64_t most = kMostEvents, double target_seconds = kTargetSeconds)
      : most_(most < 1 ? 1 : most),
        target_(target_seconds),
        events_(std::min(most_, kFirstEvents)),
        last_(Clock::now()) {}

  // Events to run before the next poll.
  std::uint64_t events() const { return events_; }
  // Starts the clock for the next step (a caller that paused between runs,
  // to write a frame, does not count the pause as the events' time).
  void start() { last_ = Clock::now(); }
  // Called at each poll: reads the clock and adapts the count to the time
  // `ran` events took since the previous poll or start.
  void polled(std::uint64_t ran) {
    const Clock::time_point now = Clock::now();
    adapt(ran, std::chrono::duration<double>(now - last_).count());
    last_ = now;
  }
  // The rule itself (public for tests): a step slower than the target
  // shrinks the count in proportion, a step under a quarter of it doubles
  // the count, both within [1, most].
  void adapt(std::uint64_t ran, double seconds);

 private:
  using Clock = std::chrono::steady_clock;
  std::uint64_t most_;
  double target_;
  std::uint64_t events_;
  Clock::time_point last_;
};

}  // namespace tethersim::engine
