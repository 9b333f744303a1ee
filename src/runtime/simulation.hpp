#pragma once
// What the run loop needs from a simulation, whether it runs on one process
// or is distributed over many: advancing, stopping consistently, and the
// local pieces of frames and snapshots (gathered collectively by the
// writers in io/).

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <optional>
#include <vector>

#include "distribution_report.hpp"
#include "tethersim/engine/particle_source.hpp"
#include "tethersim/engine/snapshot.hpp"
#include "tethersim/engine/statistics.hpp"
#include "tethersim/io/trajectory_file.hpp"

namespace tethersim::runtime {

class Simulation {
 public:
  virtual ~Simulation() = default;
  // Collective over io_comm(): every rank makes the same calls.
  virtual MPI_Comm io_comm() const = 0;
  virtual double time() const = 0;
  // Processes events before `end` (at most about `max_events` of them);
  // true when `end` was reached (all ranks agree).
  virtual bool advance(double end, std::uint64_t max_events) = 0;
  // A time at which stopping leaves a consistent state (no event before it
  // unprocessed), at or after time(): used for unscheduled checkpoints.
  virtual double consistent_stop_time() = 0;
  // This rank's particles at `t`, read while the simulation stands still,
  // and the tethers whose lower id it owns.
  virtual std::unique_ptr<FrameSource> frame_particles(double t) const = 0;
  virtual std::unique_ptr<FrameTetherSource> frame_tethers() const = 0;
  // Global values, equal on every rank.
  virtual FrameObservables observables(double t) const = 0;
  virtual engine::EngineStatistics statistics() const = 0;
  // This rank's part of the state at a consistent stop time `t`, without
  // its particles, which local_particles() hands out a slab at a time (a
  // checkpoint's way: no decoded copy of them all).
  virtual engine::EngineSnapshot local_snapshot(double t) const = 0;
  virtual std::unique_ptr<engine::ParticleSource> local_particles() const = 0;
  // Bit-level fingerprint of the whole state (equal on every rank).
  virtual std::uint64_t state_hash() const = 0;
  virtual std::size_t memory_bytes() const = 0;  // this rank
  // The particle records this rank's start held at once (its window of a
  // fresh run's initial state or its slice of a checkpoint; everything on
  // one process).
  virtual std::uint64_t start_particles() const = 0;
  // Collective decisions (stop signals, progress, wall-clock checkpoints):
  // true on every rank when true on any.
  virtual bool any_rank(bool local) const = 0;
  virtual int ranks() const = 0;
  // Polled at least every 4096 events and about every 50 ms of wall time,
  // also inside a distributed window (stop signals, the wall-time limit):
  // true makes advance() return early at a consistent time, within a
  // fraction of a second whatever the engine is doing.
  virtual void set_stop_poll(std::function<bool()> poll) = 0;
  // Events run without simulated time advancing that make a stall (0: never).
  virtual void set_stall_limit(std::uint64_t events) = 0;
  // After advance() returned false: it stopped because of a stall (every
  // rank agrees); time() is then a consistent stop time.
  virtual bool stalled() const = 0;
  // Collective: what the stall was (the particles and event kinds), on
  // rank 0.
  virtual std::string stall_description() const = 0;
  // Synchronization counters of a distributed run (collective); empty for
  // one process.
  virtual std::optional<DistributionReport> distribution(double) const { return std::nullopt; }
  // Whether the time from here on, outside advance(), belongs to the run
  // loop (summary.json's loop_seconds): --record-rounds then writes its CPU
  // time into the traces, so that a replay projects the whole loop.
  virtual void count_loop(bool counted) = 0;
};

}  // namespace tethersim::runtime
