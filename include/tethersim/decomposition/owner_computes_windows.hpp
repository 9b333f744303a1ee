#pragma once
// Owner-computes rounds, the third window protocol (docs/distribution.md,
// "Owner-computes rounds"): every event runs once, on the rank that owns
// its attributed participant. Each rank holds the whole system for the
// round, runs only its own events, sends each one's outcome (the changed
// records) to every other rank as it happens, and places theirs at their
// keys; an outcome that arrives before the rank's latest event undoes the
// rank to that time, and what the undone events had sent waits for their
// re-runs, which confirm it or withdraw it (lazy cancellation). Ranks run
// ahead without waiting for each other; after every turn (one to 256
// events) they agree on a committed floor (GVT: no message in flight, the
// smallest time any rank may still run, place or withdraw), below which
// nothing is ever undone. The round ends when the floor reaches its end, or
// at the floor when a stop, a stall or the round's event budget asks for it.
//
// Every rank holding every particle is this protocol's first form, a
// preview (docs/distribution.md: exact on the grids and models tested;
// slow): ghosts one sector layer deep, entering and leaving, and undo back
// to an outcome's impact time come next (the engine's owner-computes mode
// is written for either).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tethersim/decomposition/byte_buffer.hpp"
#include "tethersim/decomposition/window_protocol.hpp"
#include "tethersim/engine/event_key.hpp"
#include "tethersim/engine/sector_box.hpp"
#include "tethersim/engine/sector_window.hpp"
#include "tethersim/engine/sent_outcomes.hpp"
#include "tethersim/engine/snapshot.hpp"

namespace tethersim::engine {
class Engine;
}  // namespace tethersim::engine

namespace tethersim::mpi {
class BatchChannels;
}

namespace tethersim::decomposition {

class DistributedEngine;

class OwnerComputesWindows final : public WindowProtocol {
 public:
  explicit OwnerComputesWindows(DistributedEngine& engine);
  ~OwnerComputesWindows() override;
  // Runs from the engine's time to `end`, or to an agreed floor short of
  // it (a stop, a stall, the round's budget). Always true.
  bool round(double end) override;

  struct Turn;  // one round's state (owner_computes_windows.cpp)

 private:
  engine::SectorBox block_of(int rank) const;
  // Every rank's accounted particles, on every rank, as one engine.
  std::unique_ptr<engine::Engine> whole_system();
  // The accounted particles in this rank's window (`windows`: every
  // rank's, one layer deep), as one engine.
  std::unique_ptr<engine::Engine> window_system(const std::vector<engine::SectorWindow>& windows);
  // The round's engine from a snapshot of the records it holds, with the
  // global clocks of this rank's engine (consumed).
  std::unique_ptr<engine::Engine> round_engine(engine::EngineSnapshot s) const;
  // Outcomes of the events just run (and the cancels they imply) into the
  // batches of the ranks they concern.
  void publish(Turn& t, double end);
  void send_pending(Turn& t);
  // Places what the other ranks sent, undoing this rank where it is late.
  void receive(Turn& t);
  // Undoes this rank before an event it held while later ones ran, if
  // run_until stopped in front of one.
  void undo_if_due(Turn& t);
  // Runs `undo` (which returns the time it undid from, if it undid
  // anything), counts the rollback and the events it took back; what this
  // rank sent from that time on waits, unconfirmed, for the re-runs.
  template <typename Undo>
  void counted_undo(Turn& t, Undo&& undo);
  // Collective: waits until no batch is in flight, then agrees on the
  // floor and on whether to stop. True when the round is over.
  bool agree_on_floor(Turn& t, double end);
  // The round halts as a stall: the rounds did `spent` ("ran N events")
  // without the floor passing `floor`.
  void stalled(Turn& t, const std::string& spent, double floor);
  // Hands the state at `until` back to the windows of every rank.
  void hand_back(Turn& t, double until);

  DistributedEngine& d_;
  std::unique_ptr<mpi::BatchChannels> channels_;  // to every other rank, made at the first round
};

}  // namespace tethersim::decomposition
