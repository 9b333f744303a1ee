#pragma once
// Owner-computes rounds, the third window protocol (docs/distribution.md,
// "Owner-computes rounds"): every event runs once, on the rank that owns
// its attributed participant. Each rank holds its block and one sector
// layer around it (models with tethers or loaded groups: the whole
// system), runs only its own events, sends each one's outcome (the changed
// records) to the ranks it concerns as it happens, and places theirs at
// their keys; an outcome that arrives before the rank's latest event
// undoes the rank from where it can have changed what ran (its impact
// time), and what the undone events had sent waits for their re-runs,
// which confirm it or withdraw it (lazy cancellation). Ranks run ahead
// without waiting for each other, at most a throttled stretch past the
// committed floor (GVT: the smallest time any rank may still run, place
// or withdraw, counting what is in flight), below which nothing is ever
// undone; the floor is agreed beside the work (mpi::CutMinimum). The
// round ends when the floor reaches its end, or at the floor when a stop,
// a stall or the round's event budget asks for it.
//
// A preview (docs/distribution.md: exact on the grids and models tested).

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
  // Every rank's accounted particles, on every rank, as one engine. Both
  // free the rank's own engine once its records are packed.
  std::unique_ptr<engine::Engine> whole_system(const Turn& t);
  // The accounted particles in this rank's window (`windows`: every
  // rank's, one layer deep), as one engine; with `links` (tethers or
  // loaded groups), in its `reach` (every rank's, two layers deep) and the
  // loaded components reaching the window whole (linked_window_gather.hpp).
  std::unique_ptr<engine::Engine> window_system(const std::vector<engine::SectorWindow>& windows,
                                                const std::vector<engine::SectorWindow>& reach, const Turn& t,
                                                bool links);
  // out[q] to rank q, as records. Collective.
  std::vector<engine::ParticleRecord> exchange_records(std::vector<Bytes> out);
  // Asks every rank for the missing members of the loaded components that
  // reach `window` and for their tether partners, until none is missing
  // anywhere; `mine`: this rank's accounted records. Collective.
  void gather_linked(const std::vector<engine::ParticleRecord>& mine, std::vector<engine::ParticleRecord>& held,
                     const engine::SectorWindow& window);
  // The round's engine from a snapshot of the records it holds, with the
  // global clocks the rank's engine had before the round (t.globals).
  std::unique_ptr<engine::Engine> round_engine(engine::EngineSnapshot s, const Turn& t) const;
  // The round's start: the engine of this rank's window (or of the whole
  // system) in owner-computes mode, the batches, the agreement and the
  // testing switches; the rank's own engine is freed.
  void open_round(Turn& t);
  // Outcomes of the events just run (and the cancels they imply) into the
  // batches of the ranks they concern.
  void publish(Turn& t, double end);
  // A key about to be sent (its batch is pending): the agreement counts it.
  void note_sending(Turn& t, const engine::EventKey& key);
  // How far this rank may run now: the agreed floor (or the earliest time
  // any rank can run by itself) and the throttle's stretch.
  double horizon(const Turn& t) const;
  // Sends the pending batches that carry something (every one, empty or
  // not, with `markers`), tagged with the agreement's epoch.
  void send_pending(Turn& t, bool markers);
  // Sends one batch on channel k (counted).
  void transmit(std::size_t k, const Bytes& batch);
  // The testing switch TETHERSIM_OWNER_FAIL_RATE: undoes this rank from a
  // random time above the committed floor, now and then; whether it did.
  bool forced_undo(Turn& t);
  // Places what the other ranks sent, undoing this rank where it is late;
  // returns how many batches it took.
  std::size_t receive(Turn& t, double end);
  // Undoes this rank before an event it held while later ones ran, if
  // run_until stopped in front of one; whether it undid.
  bool undo_if_due(Turn& t);
  // Runs `undo` (which returns the time it undid from, if it undid
  // anything), counts the rollback and the events it took back; what this
  // rank sent from that time on waits, unconfirmed, for the re-runs.
  // Whether it undid anything.
  template <typename Undo>
  bool counted_undo(Turn& t, Undo&& undo);
  // The committed floor's agreement (mpi::CutMinimum), beside the work:
  // enters the next one (sending every neighbour a batch), reports when it
  // may, and takes the result when the reduction is complete (true then).
  bool move_agreement_on(Turn& t, double end);
  void enter_agreement(Turn& t);
  // Applies an agreement's result: the floor rises, what is below it is
  // committed; the round ends (t.over) at its end, a stop, a stall or its
  // budget. Every rank takes the same results, so every rank ends alike.
  void take_agreement(Turn& t, double end);
  // Blocks until a batch arrives or the agreement's reduction completes;
  // returns the seconds it waited.
  double wait_for_work(Turn& t);
  // Collective, at the round's end: takes every batch still in flight.
  void drain(Turn& t);
  // The round halts as a stall: the rounds did `spent` ("ran N events")
  // without the floor passing `floor`.
  void stalled(Turn& t, const std::string& spent, double floor);
  // The round's engine, at `until`, becomes the rank's (the next round
  // goes on with it).
  void hand_back(Turn& t, double until);

  DistributedEngine& d_;
  std::unique_ptr<mpi::BatchChannels> channels_;  // to every other rank, made at the first round
};

}  // namespace tethersim::decomposition
