#pragma once
// Owner-computes rounds, the third window protocol (docs/distribution.md,
// "Owner-computes rounds"): every event runs once, on the rank that owns
// its attributed participant. Each rank holds its block and one sector
// layer around it (with hubs that tethers or loaded groups reach: the
// whole system), runs only its own events, sends each one's outcome (the changed
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

#include <array>
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
#include "tethersim/scenario/initial_particles.hpp"

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

  // Whether a fresh start's particle in `sector` goes into this rank's
  // engine (hubs always do).
  bool held_at_start(const std::array<std::int32_t, 3>& sector) const;
  // The rank's engine for these rounds, from the particles of a fresh start
  // that held_at_start keeps.
  std::unique_ptr<engine::Engine> start_engine(scenario::InitialParticles mine) const;
  // The same from a restart's records, each on one rank (its home), with
  // the run's clocks, counts, escapes and releases (`globals`, no
  // particles). Collective.
  std::unique_ptr<engine::Engine> restart_engine(std::vector<engine::ParticleRecord> homed,
                                                 engine::EngineSnapshot globals);

 private:
  // What each rank's engine holds in these rounds (the same on every
  // rank): its block and one sector layer (`windows`, every rank's), the
  // records gathered two layers deep (`reach`) when particles can be
  // linked (`links`: tethers or loaded groups), then the loaded components
  // reaching the window whole (docs/owner-computes.md, "Links across the
  // window's edge"); or the whole system (`whole`: hubs with links, or no
  // window that leaves any sector out).
  struct Holding {
    std::vector<engine::SectorWindow> windows;
    std::vector<engine::SectorWindow> reach;
    bool links = false;
    bool whole = false;
  };
  // Computed once, from the rank layout, which these rounds never move.
  Holding make_holding() const;
  engine::SectorBox block_of(int rank) const;
  // The ranks this rank exchanges outcome batches with (every one of them
  // has this rank among its own).
  std::vector<int> channel_ranks() const;
  // Whether this rank's engine holds a window that leaves sectors out.
  bool one_layer() const;
  // Owner-computes mode on `e`, with this rank's block and window.
  void begin_rounds(engine::Engine& e) const;
  // Every homed record, on every rank. Collective.
  engine::EngineSnapshot whole_system(std::vector<engine::ParticleRecord> homed);
  // The homed records in this rank's window, as Holding describes.
  // Collective.
  engine::EngineSnapshot window_system(std::vector<engine::ParticleRecord> homed);
  // out[q] to rank q, as records. Collective.
  std::vector<engine::ParticleRecord> exchange_records(std::vector<Bytes> out);
  // Asks every rank for the missing members of the loaded components that
  // reach `window` and for their tether partners, until none is missing
  // anywhere; `mine`: this rank's homed records. Collective.
  void gather_linked(const std::vector<engine::ParticleRecord>& mine, std::vector<engine::ParticleRecord>& held,
                     const engine::SectorWindow& window);
  // The round's start: the rank's engine (start_engine, restart_engine)
  // taken for the round, the batches, the agreement and the testing
  // switches.
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
  const Holding holding_;
  std::unique_ptr<mpi::BatchChannels> channels_;  // to every other rank, made at the first round
};

}  // namespace tethersim::decomposition
