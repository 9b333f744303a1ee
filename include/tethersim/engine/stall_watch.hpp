#pragma once
// Notices a run whose simulated time has stopped while events keep coming:
// a Zeno cascade (inelastic collapse, a loaded group whose restitutions
// re-fire at one instant, particles placed overlapping). Exact event-driven
// dynamics cannot leave such a state by itself, so the run must stop and
// say so instead of burning CPU forever (docs/engine.md, "Stalls").

#include <cstdint>

namespace tethersim::engine {

// The default number of events without progress that counts as a stall:
// at about 10^6 events per second, some ten seconds of a frozen run.
inline constexpr std::uint64_t kDefaultStallEvents = 10'000'000;

class StallWatch {
 public:
  // `limit` events without progress make a stall; 0 never does.
  explicit StallWatch(std::uint64_t limit = kDefaultStallEvents) : limit_(limit) {}

  // Feeds the clock and a count of events run so far (any count that only
  // grows); true once `limit` events ran while the clock stayed within a
  // relative 1e-12 of where it stood. Relative, so units do not matter:
  // a real run needs far more than 10^12 events to move its clock by less.
  bool stalled(double time, std::uint64_t events);
  // Forget the mark (after the counts were reset or a window was undone).
  void reset();

  std::uint64_t limit() const { return limit_; }
  // The clock when progress stopped, and the events run since.
  double stuck_at() const { return mark_time_; }
  std::uint64_t events_since() const { return last_events_ - mark_events_; }

 private:
  std::uint64_t limit_;
  bool marked_ = false;
  double mark_time_ = 0.0;
  std::uint64_t mark_events_ = 0;
  std::uint64_t last_events_ = 0;
};

}  // namespace tethersim::engine
