// Rebuilding every rank's engine (the fallback for clusters no halo can
// hold), and when block boundaries move to balance the load
// (moving_planes.cpp moves them).
#include <algorithm>
#include <cstdio>
#include <array>
#include <cmath>
#include <numeric>

#include "tethersim/decomposition/distributed_engine.hpp"
#include "tethersim/engine/free_storage.hpp"
#include "tethersim/decomposition/record_snapshot.hpp"
#include "tethersim/mpi/reductions.hpp"
#include "wall_clock.hpp"

namespace tethersim::decomposition {

void DistributedEngine::fallback(double until, double events_per_particle) {
  const double started = seconds_now();
  ++counters_.fallbacks;
  // Everything to rank 0, which runs the window as one serial engine.
  Bytes mine;
  for_each_accounted_record(*engine_, [&](engine::ParticleRecord&& r) { append_record(mine, r); });
  enter(RoundPhase::other);
  Bytes all = gather_to_root(comm_, mine, recorder_.get());
  counters_.bytes_sent += mine.size();

  Globals globals = current_globals();
  engine::EngineStatistics statistics = engine_->statistics();
  std::vector<engine::EscapeSnapshot> escapes = engine_->escapes();
  std::vector<engine::ReleaseSnapshot> releases = engine_->releases();
  // Every rank's engine is built again from what rank 0 sends back: freed
  // now, rank 0 does not hold its part beside the whole system.
  engine_.reset();
  // Rank 0 packs the state after the window straight from its engine for
  // the ranks that hold each particle, rather than making a vector of
  // records of the whole system first and holding it beside their bytes.
  std::vector<Bytes> after(static_cast<std::size_t>(ranks_));
  auto pack_every_particle = [&](const engine::Engine& e) {
    std::vector<int> ranks;
    for (engine::Index i : e.particles().indices_in_id_order()) pack_for_holders(after, e.record(i), ranks);
  };
  double run_seconds = 0.0, run_events = 0.0;
  Halt halt = Halt::none;
  if (rank_ == 0) {
    engine::EngineSnapshot s = snapshot_of_records(read_records(all.data(), all.size()), time_, reaction_count());
    engine::free_storage(all);
    s.periodic_ticks = globals.periodic_ticks;
    s.active_window = globals.active_window;
    const auto budget = static_cast<std::uint64_t>(events_per_particle * static_cast<double>(s.particles.size())) + 1;
    engine::Engine serial(model_, s);
    const double run_started = seconds_now();
    enter(RoundPhase::execute);
    // Stopped by the budget, the window ends at the next event's time, once
    // every event simultaneous with the last one has been processed: then
    // all events before the end are done and none at or after it. Both
    // runs are watched: a stall or a stop request drops the window.
    bool reached = false;
    halt = run_watched(serial, until, budget, &reached);
    if (halt == Halt::none && !reached) {
      // The events tied with the last one: all those before the next
      // representable time.
      halt = run_watched(serial, std::nextafter(serial.time(), kInfinity));
      until = std::min(until, serial.next_event_time());
    }
    run_seconds = seconds_now() - run_started;
    enter(RoundPhase::other);
    if (halt != Halt::none) {
      // Nothing of the window stays: every rank keeps the state it had.
      pack_every_particle(engine::Engine(model_, s));
      until = time_;
    } else {
      counters_.events_executed += serial.statistics().total_events();
      statistics.add(serial.statistics());
      escapes.insert(escapes.end(), serial.escapes().begin(), serial.escapes().end());
      releases.insert(releases.end(), serial.releases().begin(), serial.releases().end());
      pack_every_particle(serial);
      globals = {serial.periodic_ticks(), serial.active_window()};
    }
    run_events = static_cast<double>(serial.statistics().total_events());
  }
  // The clocks of every rank move on together; the run's cost steers the
  // next lean-window decision.
  std::array<double, 4> shared{until, run_seconds, run_events, static_cast<double>(halt)};
  {
    RecordedCommunication call(recorder_.get());
    call.broadcast(sizeof shared + sizeof(int) + globals.periodic_ticks.size() * sizeof(std::uint64_t), 0);
    mpi::broadcast(shared.data(), shared.size(), 0, comm_);
    globals.active_window = mpi::broadcast(globals.active_window, 0, comm_);
    mpi::broadcast(globals.periodic_ticks, 0, comm_);
  }
  until = shared[0];
  halt_ = static_cast<Halt>(static_cast<int>(shared[3]));
  run_seconds = shared[1];
  if (shared[2] > 0.0) fallback_policy_.measured_seconds_per_event(run_seconds / shared[2]);
  move_clock_to(until);
  deliver_and_build(std::move(after), globals, statistics, escapes, releases);
  counters_.seconds_rebuild += seconds_now() - started;
  fallback_policy_.measured_overhead(std::max(0.0, seconds_now() - started - run_seconds));
}

void DistributedEngine::maybe_rebalance() {
  if (ranks_ == 1 || !balancer_->due()) return;
  // Work per sector layer along each axis, summed over ranks: the ticks'
  // lies where the particles are.
  const engine::Engine& e = *engine_;
  for (engine::Index i = 0; i < e.particles().size(); ++i) {
    if (e.is_removed(i) || !e.is_owned(i) || e.is_hub(i) || !e.particles().state[i].mobile) continue;
    balancer_->add_resident(e.sector(i));
  }
  const double now = seconds_now();
  std::vector<double> work =
      balancer_->take_work(now - last_balance_check_, last_move_seconds_, static_cast<double>(last_move_particles_));
  last_balance_check_ = now;
  {
    RecordedCommunication call(recorder_.get());
    call.allreduce(work.size() * sizeof(double));
    mpi::sum_in_place(work, comm_);
  }
  const CutPlanes cuts = balancer_->planes(layout_.cuts(), layout_.ranks(), work, [this] { return random_decision(); });
  if (cuts == layout_.cuts()) return;
  const double started = seconds_now();
  ++counters_.rebalances;
  if (trace_) std::fprintf(stderr, "[rank %d] rebalance at t = %.17g\n", rank_, time_);
  last_move_particles_ = move_planes(cuts);
  last_move_seconds_ = seconds_now() - started;
  counters_.seconds_rebuild += last_move_seconds_;
}

}  // namespace tethersim::decomposition
