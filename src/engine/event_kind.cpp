#include "tethersim/engine/event_kind.hpp"

#include "tethersim/engine/global_calendar.hpp"

namespace tethersim::engine {

const char* to_string(EventKind kind) {
  switch (kind) {
    case EventKind::action_potential: return "action_potential";
    case EventKind::restitution: return "restitution";
    case EventKind::periodic_impulse: return "periodic_impulse";
    case EventKind::random_impulse: return "random_impulse";
    case EventKind::blocking: return "blocking";
    case EventKind::tethering: return "tethering";
    case EventKind::wall: return "wall";
    case EventKind::escape: return "escape";
    case EventKind::sector_crossing: return "sector_crossing";
    case EventKind::none: return "none";
  }
  return "unknown";
}

bool precedes(const GlobalEvent& a, const GlobalEvent& b) {
  if (a.time != b.time) return a.time < b.time;
  if (a.kind != b.kind) return priority(a.kind) < priority(b.kind) ||
                               (priority(a.kind) == priority(b.kind) && a.kind < b.kind);
  if (a.tie_major != b.tie_major) return a.tie_major < b.tie_major;
  if (a.tie_minor != b.tie_minor) return a.tie_minor < b.tie_minor;
  return a.payload < b.payload;
}

}  // namespace tethersim::engine
