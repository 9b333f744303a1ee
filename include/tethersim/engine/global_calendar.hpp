#pragma once
// The calendar of events that belong to no single particle: restitutions
// (one per loaded edge), ticks of periodic impulses and action-potential
// transitions. Rescheduled or cancelled entries are skipped when they
// surface (their version no longer matches).

#include <cstdint>
#include <queue>
#include <vector>

#include "tethersim/engine/event_kind.hpp"
#include "tethersim/physics/vector.hpp"

namespace tethersim::engine {

struct GlobalEvent {
  double time = kInfinity;
  EventKind kind = EventKind::none;
  // Order among equal (time, kind): ascending (major, minor). Restitutions
  // use major = ~sequence so the latest loading restitutes first.
  std::uint64_t tie_major = 0;
  std::uint64_t tie_minor = 0;
  std::uint32_t payload = 0;  // edge, periodic impulse, or action-potential transition
  std::uint32_t version = 0;
};

// True when a must be processed before b.
bool precedes(const GlobalEvent& a, const GlobalEvent& b);

class GlobalCalendar {
 public:
  void push(const GlobalEvent& e) { queue_.push(e); }
  bool empty() const { return queue_.empty(); }
  const GlobalEvent& top() const { return queue_.top(); }
  void pop() { queue_.pop(); }
  std::size_t size() const { return queue_.size(); }
  void clear() { queue_ = {}; }

 private:
  struct Later {
    bool operator()(const GlobalEvent& a, const GlobalEvent& b) const { return precedes(b, a); }
  };
  std::priority_queue<GlobalEvent, std::vector<GlobalEvent>, Later> queue_;
};

}  // namespace tethersim::engine
