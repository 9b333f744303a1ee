#pragma once
// The engine's state in owner-computes mode (private to src/engine; every
// file that constructs or destroys an Engine includes it).

#include <optional>
#include <vector>

#include "event_holds.hpp"
#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/foreign_outcomes.hpp"
#include "tethersim/engine/sector_window.hpp"

namespace tethersim::engine {

struct Engine::OwnerComputes {
  SectorBox block;  // a particle is owned here while its sector is in it
  // Ghosts one layer deep (none: every particle is held here). A particle
  // whose sector is outside the window is absent: a placeholder slot
  // (alive = 0) outside the sectors' lists, never predicted, until an
  // outcome brings it in; so nothing held here meets a stale copy.
  std::optional<SectorWindow> window;
  SectorCoords outside{};  // a sector outside the window, for new placeholders
  // Where an event concerns no other process (PartialView::set_quiet_core).
  std::optional<SectorBox> quiet;
  EventHolds holds;
  ForeignOutcomes foreign;
  std::vector<EventOutcome> outbox;  // outcomes of events run here, not yet taken
  // No event at or after this time has run (or been placed) here in this
  // mode: an outcome after it is not late. A bound, not the clock: an
  // engine built at time T has its clock at T with nothing at T run yet,
  // and an undo from t leaves the clock where its segment began but
  // nothing at or after t run.
  double latest = -kInfinity;
  // No agreement can give less than this any more, as the protocol tells
  // it (Engine::protect_floor): the agreed floor, or what this process
  // reported to the agreement under way, lowered to the key of each
  // message taken in since. Nothing below it runs or is undone here on
  // this process's own account.
  double protected_floor = -kInfinity;
  // The last floor the processes agreed on (commit_owner_before): a tick at
  // or below it runs with nothing kept to undo it, and what came before
  // it is final (Engine::run_committed_tick).
  double agreed = -kInfinity;
  // Every event key below this is final: the last tick run so.
  EventKey final_below{-kInfinity, 0, 0, 0, 0};
  // An event or outcome that came up before `latest` (owner_undo_due):
  // run_until stopped in front of it.
  std::optional<EventKey> undo_due;
  UndoReach late_reach;  // Engine::late_undo_reach
};

}  // namespace tethersim::engine
