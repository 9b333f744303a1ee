#include "tethersim/engine/event_kind.hpp"

#include "tethersim/engine/global_calendar.hpp"

namespace tethersim::engine {

const char* to_string(EventKind kind) {
  const auto index = static_cast<std::size_t>(kind);
  if (index < kEventKindCount) return kEventKindNames[index];
  return kind == EventKind::none ? "none" : "unknown";
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
