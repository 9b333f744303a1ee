// Moving particle states between ranks: after every window (halos and
// migration), and wholesale (restarts, rebalancing, fallbacks).
#include <algorithm>
#include <optional>

#include "tethersim/decomposition/distributed_engine.hpp"
#include "tethersim/decomposition/record_snapshot.hpp"
#include "tethersim/engine/free_storage.hpp"
#include "tethersim/engine/particle_words.hpp"
#include "wall_clock.hpp"

namespace tethersim::decomposition {

void DistributedEngine::send_changed_record(const engine::PartialView::Change& c, Recipients who,
                                            std::vector<Bytes>& out, std::vector<int>& before,
                                            std::vector<int>& after) {
  const engine::Engine& e = *engine_;
  const SectorIndex3& sector = e.sector(c.particle);
  // Load measure for balancing: where the events happened.
  balancer_->add_work(sector);
  // Most changed particles are deep inside the block, in no other rank's
  // window (logged_sectors_ marks the sectors that are, for the current
  // cuts): no record to build.
  const bool in_others_now = logged_sectors_.contains(sector);
  if (!in_others_now && (who == Recipients::new_windows || !logged_sectors_.contains(c.sector_before))) return;
  layout_.window_ranks(sector, after);
  layout_.window_ranks(c.sector_before, before);
  if (who == Recipients::every_window) {
    after.insert(after.end(), before.begin(), before.end());
    std::sort(after.begin(), after.end());
    after.erase(std::unique(after.begin(), after.end()), after.end());
  } else {
    std::erase_if(after, [&](int q) { return std::find(before.begin(), before.end(), q) != before.end(); });
  }
  std::optional<engine::ParticleRecord> record;
  for (int q : after) {
    if (q == rank_) continue;
    const int slot = neighbours_->slot(q);
    if (slot < 0) {
      throw SynchronizationError("particle " + std::to_string(e.particles().id[c.particle]) +
                                 " moved beyond the ranks this rank exchanges with");
    }
    if (!record) record = e.record(c.particle);
    append_record(out[static_cast<std::size_t>(slot)], *record);
  }
}

void DistributedEngine::exchange_changes() {
  const double started = seconds_now();
  engine::Engine& e = *engine_;
  const engine::PartialView view(e);
  mark_logged_sectors();
  const std::vector<engine::PartialView::Change> changes = view.changes();
  view.clear_changes();
  std::vector<Bytes> out(neighbours_->neighbours().size());
  std::vector<int> before, after;
  std::vector<ParticleId> expected;  // ghosts run here: their owners must report them
  for (const engine::PartialView::Change& c : changes) {
    const engine::Index i = c.particle;
    // An infinite-mass particle never moves: what changes on it is its
    // links, and those travel with its mobile partners' records (the rank
    // that runs a link's events, which may not own the particle, is the
    // partner's owner). Its own record is never sent after it is placed.
    if (!c.mobile) continue;
    if (!e.is_owned(i)) {
      if (e.is_active(i)) expected.push_back(e.particles().id[i]);
      continue;
    }
    send_changed_record(c, Recipients::every_window, out, before, after);
  }
  const std::uint64_t sent_before = neighbours_->bytes_sent();
  const double wait_started = seconds_now();
  const ReceivedBytes in = neighbours_->exchange(std::move(out));
  const double wait_ended = seconds_now();
  counters_.seconds_wait += wait_ended - wait_started;
  counters_.bytes_sent += neighbours_->bytes_sent() - sent_before;

  // Particles that left this rank's block: ghosts now, or gone from view.
  for (const engine::PartialView::Change& c : changes) {
    const engine::Index i = c.particle;
    if (e.is_hub(i) || !e.is_owned(i) || !e.particles().state[i].alive) continue;
    const SectorIndex3& sector = e.sector(i);
    if (layout_.owner(sector) == rank_) continue;
    ++counters_.migrations;
    if (layout_.in_window(rank_, sector)) {
      view.set_owned(i, false);
      view.set_active(i, !e.particles().state[i].mobile);
    } else {
      view.remove(i);
    }
  }
  // What the owners changed.
  std::sort(expected.begin(), expected.end());
  std::vector<ParticleId> reported;
  for (std::span<const char> buffer : in) {
    for (const engine::ParticleRecord& r : read_records(buffer.data(), buffer.size())) {
      const ParticleId id = r.particle.id;
      engine::Index i = e.particles().index_of(id);
      if (i != engine::kNoIndex && e.is_owned(i)) {
        throw SynchronizationError("two ranks own particle " + std::to_string(id));
      }
      if (i != engine::kNoIndex && e.is_active(i) && e.particles().state[i].mobile) {
        reported.push_back(id);
        if (!engine::same_particle_state(e.record(i).particle, r.particle)) {
          throw SynchronizationError("ranks " + std::to_string(rank_) +
                                     " and its neighbour computed particle " + std::to_string(id) +
                                     " differently in the window ending at t = " +
                                     std::to_string(time_));
        }
      }
      if (!r.particle.alive || !layout_.in_window(rank_, r.particle.sector)) {
        if (i != engine::kNoIndex) view.remove(i);
        continue;
      }
      i = view.upsert(r);
      if (layout_.owner(r.particle.sector) == rank_) {
        view.set_owned(i, true);
        view.set_active(i, true);
      } else if (!e.particles().state[i].mobile) {
        view.set_active(i, true);
      }
    }
  }
  std::sort(reported.begin(), reported.end());
  for (ParticleId id : expected) {
    if (!std::binary_search(reported.begin(), reported.end(), id)) {
      throw SynchronizationError("particle " + std::to_string(id) + " changed here but its owner reported no change");
    }
  }
  count_held();
  const double ended = seconds_now();
  counters_.seconds_exchange += ended - started - (wait_ended - wait_started);
}

std::vector<engine::ParticleRecord> DistributedEngine::receive_records(std::vector<Bytes> out) const {
  const ReceivedBytes in = all_to_all(comm_, std::move(out), recorder_.get());
  // Room for every record at once (no copy of them all while growing).
  std::vector<engine::ParticleRecord> records;
  records.reserve(most_records_in(in.total_bytes()));
  for (std::span<const char> b : in) read_records_into(b.data(), b.size(), records);
  return records;
}

void DistributedEngine::pack_for_holders(std::vector<Bytes>& out, const engine::ParticleRecord& r,
                                         std::vector<int>& ranks) const {
  if (model_.is_hub_species(r.particle.species)) {
    // Every rank holds the hubs; their tethers come with their partners.
    engine::ParticleRecord hub = r;
    hub.tethers.clear();
    hub.loaded_edges.clear();
    for (Bytes& b : out) append_record(b, hub);
    return;
  }
  if (!r.particle.alive) {
    append_record(out[static_cast<std::size_t>(layout_.owner(r.particle.sector))], r);
    return;
  }
  layout_.window_ranks(r.particle.sector, ranks);
  for (int q : ranks) append_record(out[static_cast<std::size_t>(q)], r);
}

void DistributedEngine::redistribute(std::vector<engine::ParticleRecord> records,
                                     const Globals& globals, const engine::EngineStatistics& statistics,
                                     const std::vector<engine::EscapeSnapshot>& escapes,
                                     const std::vector<engine::ReleaseSnapshot>& releases) {
  std::vector<Bytes> out(static_cast<std::size_t>(ranks_));
  std::vector<int> ranks;
  for (const engine::ParticleRecord& r : records) pack_for_holders(out, r, ranks);
  engine::free_storage(records);
  deliver_and_build(std::move(out), globals, statistics, escapes, releases);
}

void DistributedEngine::deliver_and_build(std::vector<Bytes> out, const Globals& globals,
                                          const engine::EngineStatistics& statistics,
                                          const std::vector<engine::EscapeSnapshot>& escapes,
                                          const std::vector<engine::ReleaseSnapshot>& releases) {
  build(exchange_snapshot(std::move(out)), globals, statistics, escapes, releases);
}

engine::EngineSnapshot DistributedEngine::exchange_snapshot(std::vector<Bytes> out) {
  for (const Bytes& b : out) counters_.bytes_sent += b.size();
  // Decoded straight into the snapshot (hubs arrive from every rank that
  // sent them: one is kept), and the bytes released before an engine is
  // built from it.
  std::optional<ReceivedBytes> in(all_to_all(comm_, std::move(out), recorder_.get()));
  SnapshotAssembly assembly(time_, reaction_count(), most_records_in(in->total_bytes()));
  for (std::span<const char> b : *in) {
    read_records_each(b.data(), b.size(), [&](const engine::ParticleRecord& r) { assembly.add(r); });
  }
  in.reset();
  return assembly.finish();
}

}  // namespace tethersim::decomposition
