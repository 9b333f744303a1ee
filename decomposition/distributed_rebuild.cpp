// Rebuilding every rank's engine: the fallback for clusters no halo can
// hold, and moving block boundaries to balance the load.
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

namespace {

void add_statistics(engine::EngineStatistics& to, const engine::EngineStatistics& from) {
  for (std::size_t k = 0; k < to.events.size(); ++k) to.events[k] += from.events[k];
  for (std::size_t k = 0; k < to.responses.size(); ++k) to.responses[k] += from.responses[k];
  to.stale_events += from.stale_events;
  to.predictions += from.predictions;
  to.pair_tests += from.pair_tests;
  to.loadings += from.loadings;
  to.instantaneous += from.instantaneous;
  to.capped_loadings += from.capped_loadings;
  to.attachments += from.attachments;
  to.detachments += from.detachments;
  to.releases += from.releases;
  to.escapes += from.escapes;
  to.largest_group = std::max(to.largest_group, from.largest_group);
}

}  // namespace

void DistributedEngine::fallback(double until, double events_per_particle) {
  const double started = seconds_now();
  ++counters_.fallbacks;
  // Everything to rank 0, which runs the window as one serial engine.
  Bytes mine;
  for (const engine::ParticleRecord& r : accounted_records(*engine_)) append_record(mine, r);
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
      add_statistics(statistics, serial.statistics());
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
  if (recorder_) {
    recorder_->begin_communication();
    recorder_->broadcast(sizeof shared + sizeof(int) + globals.periodic_ticks.size() * sizeof(std::uint64_t), 0);
  }
  mpi::broadcast(shared.data(), shared.size(), 0, comm_);
  until = shared[0];
  halt_ = static_cast<Halt>(static_cast<int>(shared[3]));
  run_seconds = shared[1];
  if (shared[2] > 0.0) serial_seconds_per_event_ = run_seconds / shared[2];
  globals.active_window = mpi::broadcast(globals.active_window, 0, comm_);
  mpi::broadcast(globals.periodic_ticks, 0, comm_);
  if (recorder_) recorder_->end_communication();
  move_clock_to(until);
  deliver_and_build(std::move(after), globals, statistics, escapes, releases);
  counters_.seconds_rebuild += seconds_now() - started;
  fallback_overhead_ = std::max(0.0, seconds_now() - started - run_seconds);
}

void DistributedEngine::maybe_rebalance() {
  if (settings_.balance == BalanceMode::off || ranks_ == 1) return;
  if (++windows_since_balance_ < static_cast<std::uint64_t>(settings_.balance_interval)) return;
  windows_since_balance_ = 0;
  // Work per sector layer along each axis, summed over ranks.
  std::vector<double> work;
  for (const auto& slab : work_by_slab_) work.insert(work.end(), slab.begin(), slab.end());
  if (recorder_) {
    recorder_->begin_communication();
    recorder_->allreduce(work.size() * sizeof(double));
  }
  mpi::sum_in_place(work, comm_);
  if (recorder_) recorder_->end_communication();
  for (auto& slab : work_by_slab_) std::fill(slab.begin(), slab.end(), 0.0);
  std::array<std::vector<int>, 3> cuts = layout_.cuts();
  bool moved = false;
  std::size_t at = 0;
  for (int k = 0; k < 3; ++k) {
    const auto kk = static_cast<std::size_t>(k);
    const int n = layout_.sectors()[kk];
    const int parts = layout_.ranks()[kk];
    std::vector<double> w(work.begin() + static_cast<long>(at), work.begin() + static_cast<long>(at) + n);
    at += static_cast<std::size_t>(n);
    if (parts == 1) continue;
    std::vector<int>& c = cuts[kk];
    const int min_width = n >= kMinBlockWidth * parts ? kMinBlockWidth : 1;
    if (settings_.balance == BalanceMode::forced) {
      // Planes move one layer back and forth: migration and rebuilding are
      // exercised whatever the load (tests).
      for (int b = 1; b < parts; ++b) c[static_cast<std::size_t>(b)] += forced_shift_;
    } else if (settings_.balance == BalanceMode::random) {
      // Anywhere the widths allow (clamped below): results must not care.
      for (int b = 1; b < parts; ++b) {
        c[static_cast<std::size_t>(b)] = static_cast<int>(random_decision() % static_cast<std::uint64_t>(n + 1));
      }
      std::sort(c.begin() + 1, c.end() - 1);
    } else {
      // Imbalance along this axis: the heaviest slab of blocks over the mean.
      std::vector<double> slab(static_cast<std::size_t>(parts), 0.0);
      for (int s = 0; s < n; ++s) slab[static_cast<std::size_t>(std::upper_bound(c.begin(), c.end(), s) - c.begin() - 1)] += w[static_cast<std::size_t>(s)];
      const double total = std::accumulate(slab.begin(), slab.end(), 0.0);
      if (total <= 0.0) continue;
      const double worst = *std::max_element(slab.begin(), slab.end());
      if (worst * parts <= settings_.imbalance_threshold * total) continue;
      // Cut where the cumulative work reaches each equal share (a little
      // work per layer keeps empty regions from collapsing).
      const double floor = 1e-3 * total / n;
      double sum = 0.0, grand = total + floor * n;
      int b = 1;
      for (int s = 0; s < n && b < parts; ++s) {
        sum += w[static_cast<std::size_t>(s)] + floor;
        while (b < parts && sum >= grand * b / parts) c[static_cast<std::size_t>(b++)] = s + 1;
      }
    }
    // Keep every block at least min_width wide, inside the axis.
    for (int b = 1; b < parts; ++b) {
      int& cut = c[static_cast<std::size_t>(b)];
      cut = std::clamp(cut, c[static_cast<std::size_t>(b - 1)] + min_width, n - (parts - b) * min_width);
    }
    if (c != layout_.cuts()[kk]) moved = true;
  }
  if (settings_.balance == BalanceMode::forced) forced_shift_ = -forced_shift_;
  if (!moved) return;
  const double started = seconds_now();
  ++counters_.rebalances;
  if (trace_) std::fprintf(stderr, "[rank %d] rebalance at t = %.17g\n", rank_, time_);
  std::vector<engine::ParticleRecord> records = accounted_records(*engine_);
  const Globals globals = current_globals();
  const engine::EngineStatistics statistics = engine_->statistics();
  const std::vector<engine::EscapeSnapshot> escapes = engine_->escapes();
  const std::vector<engine::ReleaseSnapshot> releases = engine_->releases();
  engine_.reset();  // built again from the records: not held beside them
  layout_.set_cuts(cuts);
  neighbours_ = std::make_unique<NeighbourExchange>(comm_, layout_.neighbours(rank_));
  neighbours_->record_to(recorder_.get());
  redistribute(std::move(records), globals, statistics, escapes, releases);
  counters_.seconds_rebuild += seconds_now() - started;
}

}  // namespace tethersim::decomposition
