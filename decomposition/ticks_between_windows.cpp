// Periodic ticks between speculative windows (docs/distribution.md, "Ticks
// between windows"). A tick of gravity or drag changes every particle at
// one instant known in advance on every rank. Inside a window it would put
// every particle in the undo log (a record with its tether list each); run
// at the window's start, before the window opens, it needs no undo: every
// rank applies it to the particles it holds, owned or not, and each lone
// particle's impulse reads that particle alone, whose copy is exact between
// windows.
#include <algorithm>
#include <vector>

#include "tethersim/decomposition/distributed_engine.hpp"
#include "tethersim/decomposition/speculative_windows.hpp"
#include "tethersim/decomposition/record_codec.hpp"
#include "tethersim/engine/same_state.hpp"
#include "tethersim/mpi/reductions.hpp"
#include "wall_clock.hpp"

namespace tethersim::decomposition {

double SpeculativeWindows::next_tick_cap() const {
  const double next = d_.engine_->next_tick_time();
  return next > d_.time_ ? next : kInfinity;
}

bool SpeculativeWindows::owned_groups_held_whole() const {
  const engine::Engine& e = *d_.engine_;
  const engine::Adjacency& edges = e.loaded_edges().adjacency();
  // A member in the halo's last layer may have a partner this rank does not
  // hold; one layer further in, its partners (in contact, so in the 27
  // sectors around it) are all held, so the group as seen here is whole.
  const int deepest = d_.layout_.halo_depth() - 1;
  std::vector<std::uint8_t> seen(e.particles().size(), 0);
  std::vector<engine::Index> stack;
  for (engine::Index i = 0; i < e.particles().size(); ++i) {
    if (seen[i] || e.is_removed(i) || !e.is_owned(i) || edges.empty(i)) continue;
    stack.assign(1, i);
    seen[i] = 1;
    while (!stack.empty()) {
      const engine::Index m = stack.back();
      stack.pop_back();
      if (d_.layout_.depth(d_.rank_, e.sector(m)) > deepest) return false;
      edges.for_each(m, [&](engine::Index partner, std::uint32_t) {
        // As the engine collects a group: an infinite mass anchors it and
        // is not crossed.
        if (seen[partner] || !e.particles().state[partner].mobile) return;
        seen[partner] = 1;
        stack.push_back(partner);
      });
    }
  }
  return true;
}

void SpeculativeWindows::refresh_loaded_ghosts() {
  engine::Engine& e = *d_.engine_;
  const engine::PartialView view(e);
  const engine::Adjacency& edges = e.loaded_edges().adjacency();
  std::vector<Bytes> out(d_.neighbours_->neighbours().size());
  std::vector<int> ranks;
  for (engine::Index i = 0; i < e.particles().size(); ++i) {
    if (e.is_removed(i) || !e.is_owned(i) || edges.empty(i) || !e.particles().state[i].mobile) continue;
    if (!d_.logged_sectors_.contains(e.sector(i))) continue;
    d_.layout_.window_ranks(e.sector(i), ranks);
    for (int q : ranks) {
      if (q != d_.rank_) append_record(out[neighbour_slot(q, e.particles().id[i])], e.record(i));
    }
  }
  const ReceivedBytes in = exchange_counted(std::move(out));
  for (std::span<const char> buffer : in) {
    for (const engine::ParticleRecord& r : read_records(buffer.data(), buffer.size())) {
      const engine::Index i = e.particles().index_of(r.particle.id);
      if (i == engine::kNoIndex || e.is_owned(i)) {
        throw SynchronizationError("particle " + std::to_string(r.particle.id) +
                                   " after a tick: sent to a rank that does not hold it as a ghost");
      }
      if (engine::same_record(e.record(i), r)) continue;
      view.set_active(view.upsert(r), true);
    }
  }
}

void SpeculativeWindows::run_ticks_between_windows() {
  engine::Engine& e = *d_.engine_;
  if (e.next_tick_time() != d_.time_) return;
  const engine::PartialView view(e);
  // Every rank must be able to: the ticks are its next events, and (a tick
  // on a loaded group reads all its members) it holds the whole group of
  // every particle it owns; the ghosts' copies, which may miss members,
  // are then replaced by their owners'. Otherwise the window runs them.
  const bool groups = e.has_loaded_edges();
  const bool can = view.ticks_come_first(d_.time_) && (!groups || owned_groups_held_whole());
  const double agreement = d_.begin_agreement(1);
  const bool every_rank_can = mpi::min<int>(can ? 1 : 0, d_.comm_) == 1;
  d_.end_agreement(agreement);
  if (!every_rank_can) return;
  const std::uint64_t counted = e.statistics().total_events();
  const double started = seconds_now();
  d_.enter(RoundPhase::execute);
  const double cpu_started = thread_cpu_seconds();
  view.run_ticks_at(d_.time_);
  d_.balancer_->add_tick_seconds(thread_cpu_seconds() - cpu_started);
  d_.counters_.seconds_execute += seconds_now() - started;
  ++d_.counters_.ticks_between_windows;
  d_.counters_.events_executed += e.statistics().total_events() - counted;
  if (groups) {
    d_.enter(RoundPhase::commit);
    const double exchange_started = seconds_now();
    refresh_loaded_ghosts();
    d_.counters_.seconds_exchange += seconds_now() - exchange_started;
  }
  // Every copy changed as its owner's did: nothing to send.
  view.clear_changes();
  d_.enter(RoundPhase::other);
}

}  // namespace tethersim::decomposition
