#pragma once
// The engine's state in owner-computes mode (private to src/engine; every
// file that constructs or destroys an Engine includes it).

#include <vector>

#include "event_holds.hpp"
#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/foreign_outcomes.hpp"

namespace tethersim::engine {

struct Engine::OwnerComputes {
  SectorBox block;  // a particle is owned here while its sector is in it
  EventHolds holds;
  ForeignOutcomes foreign;
  std::vector<EventOutcome> outbox;  // outcomes of events run here, not yet taken
};

}  // namespace tethersim::engine
