#pragma once
// The calendars' stale entries, as run_until and ticks_come_first meet
// them. Inline, in the one header both include: run_until meets a stale
// entry every few events, and a call there costs what the check does.

#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/event_sources.hpp"

namespace tethersim::engine {

inline void Engine::drop_stale_globals() {
  while (!global_.empty() && !event_holds(GlobalSources{}, *this, global_.top())) global_.pop();
}

inline bool Engine::renew_if_stale(Index i, const ParticleEvent& e) {
  if (event_holds(ParticleSources{}, *this, e)) return false;
  ++stats_.stale_events;
  repredict(i);
  return true;
}

}  // namespace tethersim::engine
