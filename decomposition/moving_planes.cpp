// Moving the planes between blocks in place (load balance): each rank
// keeps the particles that stay in its window, with their predictions;
// only the particles that enter a window travel, and only they and the
// particles whose role changed are predicted again. A rebuild from records
// (distributed_rebuild.cpp) predicts every particle anew: on the sheet of
// 2x10^6 on 8 ranks that was 10 to 30 rounds' worth of CPU per move.
#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "tethersim/decomposition/distributed_engine.hpp"
#include "tethersim/decomposition/record_codec.hpp"

namespace tethersim::decomposition {

std::size_t DistributedEngine::move_planes(const CutPlanes& cuts) {
  engine::Engine& e = *engine_;
  const engine::PartialView view(e);
  const BlockLayout before = layout_;
  layout_.set_cuts(cuts);
  // Between windows every copy is its owner's, bit for bit: the owner
  // before the move sends each particle it owned to the windows that
  // gain it. Infinite-mass particles in the grid go too (never sent once
  // placed, because a copy would drop links the receiver holds: a window
  // that gains one holds none of its links yet, and its owner holds them
  // all, each partner being within a sector of it). Particles that left
  // the simulation stay with the rank that owned them.
  std::vector<Bytes> out(static_cast<std::size_t>(ranks_));
  std::vector<int> had, has;
  for (engine::Index i = 0; i < e.particles().size(); ++i) {
    if (e.is_removed(i) || e.is_hub(i) || !e.is_owned(i) || !e.particles().state[i].alive) continue;
    const SectorIndex3 sector = e.sector(i);
    before.window_ranks(sector, had);
    layout_.window_ranks(sector, has);
    std::optional<engine::ParticleRecord> record;
    for (int q : has) {
      if (q == rank_ || std::find(had.begin(), had.end(), q) != had.end()) continue;
      if (!record) record = e.record(i);
      append_record(out[static_cast<std::size_t>(q)], *record);
    }
  }
  for (const Bytes& b : out) counters_.bytes_sent += b.size();
  const std::vector<engine::ParticleRecord> arrived = receive_records(std::move(out));
  // What left this window, then what entered it.
  for (engine::Index i = 0; i < e.particles().size(); ++i) {
    if (e.is_removed(i) || e.is_hub(i) || !e.particles().state[i].alive) continue;
    if (!layout_.in_window(rank_, e.sector(i))) view.remove(i);
  }
  for (const engine::ParticleRecord& r : arrived) view.upsert(r);  // frozen, not owned
  // Roles by the new blocks, in the state the next round expects: after a
  // speculative round every particle is live (a certified round, should
  // one come next, freezes the ghosts itself); after a certified round the
  // ghosts are frozen but for those the last certificate let run, which
  // the next certified round freezes by their ids (active_ghosts_). A
  // particle that became this rank's is predicted (activated); one that
  // became a ghost, or arrived, is frozen unless every particle is live.
  // The particles that stayed keep predictions made without the
  // newcomers, as after a commit's exchange: a newcomer that can meet one
  // of them predicts that meeting itself, being live (a speculative round)
  // or let take part by the certificate (a certified one).
  const bool live = every_particle_live_;
  for (engine::Index i = 0; i < e.particles().size(); ++i) {
    if (e.is_removed(i) || e.is_hub(i) || !e.particles().state[i].alive) continue;
    const bool mobile = e.particles().state[i].mobile;
    const bool owned = layout_.owner(e.sector(i)) == rank_;
    const bool was_owned = e.is_owned(i);
    if (owned != was_owned) view.set_owned(i, owned);
    const bool active = owned || !mobile || live || (!was_owned && e.is_active(i));
    if (active != e.is_active(i)) view.set_active(i, active);
  }
  count_held();
  // Nothing here is a window's change to send.
  view.clear_changes();
  neighbours_ = std::make_unique<NeighbourExchange>(comm_, layout_.neighbours(rank_));
  neighbours_->record_to(recorder_.get());
  return arrived.size();
}

}  // namespace tethersim::decomposition
