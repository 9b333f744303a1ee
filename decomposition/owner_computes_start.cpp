// The engine a rank runs owner-computes rounds with, built once, at the
// run's start or restart, from the particles its window holds, and kept
// from round to round (owner_computes_windows.hpp). Building it straight
// from the start's stream or the checkpoint's records means no engine with
// the speculative windows' deeper halo is ever built in this mode: at
// 8 ranks that engine, held beside the records packed for the first round,
// was the whole of a rank's peak memory.
#include <mpi.h>

#include <unordered_set>
#include <utility>
#include <vector>

#include "tethersim/decomposition/distributed_engine.hpp"
#include "tethersim/decomposition/linked_window_gather.hpp"
#include "tethersim/decomposition/owner_computes_windows.hpp"
#include "tethersim/decomposition/record_codec.hpp"
#include "tethersim/decomposition/record_snapshot.hpp"
#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/free_storage.hpp"
#include "tethersim/engine/partial_view.hpp"
#include "tethersim/mpi/collectives.hpp"
#include "spare_slots.hpp"

namespace tethersim::decomposition {

namespace {

// Instants per undo segment (the engine's owner-computes mode).
constexpr std::size_t kInstantsPerSegment = 256;

}  // namespace

engine::SectorBox OwnerComputesWindows::block_of(int rank) const {
  const std::array<int, 3> block = d_.layout_.block_of_rank(rank);
  engine::SectorBox box;
  for (std::size_t a = 0; a < 3; ++a) {
    const std::vector<int>& cuts = d_.layout_.cuts()[a];
    box.lo[a] = cuts[static_cast<std::size_t>(block[a])];
    box.hi[a] = cuts[static_cast<std::size_t>(block[a]) + 1];
  }
  return box;
}

OwnerComputesWindows::Holding OwnerComputesWindows::make_holding() const {
  // The same on every rank (the windows are every rank's): the start's
  // exchanges are collective, so whether they gather windows or the whole
  // system is one decision.
  const engine::SectorGrid grid(d_.model_.domain(), d_.model_.sector_size());
  Holding h;
  bool any_partial = false;
  for (int q = 0; q < d_.ranks_; ++q) {
    h.windows.push_back(engine::SectorWindow::around(block_of(q), grid, 1));
    any_partial = any_partial || h.windows.back().partial();
  }
  h.links = engine::links_possible(d_.model_);
  h.whole = !any_partial || !engine::takes_one_layer_window(d_.model_);
  if (!h.whole) {
    for (int q = 0; q < d_.ranks_; ++q) h.reach.push_back(engine::SectorWindow::around(block_of(q), grid, 2));
  }
  return h;
}

std::vector<int> OwnerComputesWindows::channel_ranks() const {
  const Holding& h = holding_;
  // Without links an event changes particles of the window of the rank
  // that runs it (its participants: an owned particle and a partner at
  // most a sector away), and its outcome goes to the ranks whose reach
  // holds one of them: only ranks whose reach meets this rank's window
  // ever hear from it. Taken both ways, so that every channel has two
  // ends. With links an event can change a loaded component's members
  // anywhere, and with the whole system held an outcome goes to every
  // rank: channels to every other rank then.
  std::vector<int> out;
  const auto r = static_cast<std::size_t>(d_.rank_);
  for (int q = 0; q < d_.ranks_; ++q) {
    if (q == d_.rank_) continue;
    const auto k = static_cast<std::size_t>(q);
    if (h.whole || h.links || h.reach[k].meets(h.windows[r]) || h.reach[r].meets(h.windows[k])) out.push_back(q);
  }
  return out;
}

bool OwnerComputesWindows::one_layer() const {
  return !holding_.whole && holding_.windows[static_cast<std::size_t>(d_.rank_)].partial();
}

bool OwnerComputesWindows::held_at_start(const engine::SectorCoords& sector) const {
  const Holding& h = holding_;
  // A start has no loaded groups, and a tether is no longer than a sector
  // (a species whose links reach farther is a hub): two layers hold every
  // tether partner of the window's particles, which is what the records'
  // gather (gather_linked) would bring.
  if (h.whole) return true;
  const std::vector<engine::SectorWindow>& kept = h.links ? h.reach : h.windows;
  return kept[static_cast<std::size_t>(d_.rank_)].contains(sector);
}

void OwnerComputesWindows::begin_rounds(engine::Engine& e) const {
  const engine::PartialView view(e);
  view.set_counts_global_events(d_.rank_ == 0);
  const engine::SectorWindow& window = holding_.windows[static_cast<std::size_t>(d_.rank_)];
  const bool partial = one_layer();
  view.begin_owner_computes(block_of(d_.rank_), kInstantsPerSegment, partial ? &window : nullptr);
  if (partial) view.set_quiet_core(engine::quiet_core(block_of(d_.rank_), e.grid()));
}

std::unique_ptr<engine::Engine> OwnerComputesWindows::start_engine(scenario::InitialParticles mine) const {
  const std::size_t spare = spare_slots(mine.particles.size());
  auto e = std::make_unique<engine::Engine>(d_.model_, std::move(mine), spare);
  begin_rounds(*e);
  return e;
}

std::unique_ptr<engine::Engine> OwnerComputesWindows::restart_engine(std::vector<engine::ParticleRecord> homed,
                                                                     engine::EngineSnapshot globals) {
  engine::EngineSnapshot s = holding_.whole ? whole_system(std::move(homed)) : window_system(std::move(homed));
  s.periodic_ticks = std::move(globals.periodic_ticks);
  s.active_window = globals.active_window;
  s.statistics = std::move(globals.statistics);
  s.escapes = std::move(globals.escapes);
  s.releases = std::move(globals.releases);
  auto e = std::make_unique<engine::Engine>(d_.model_, s, spare_slots(s.particles.size()));
  begin_rounds(*e);
  return e;
}

engine::EngineSnapshot OwnerComputesWindows::whole_system(std::vector<engine::ParticleRecord> homed) {
  Bytes mine;
  for (const engine::ParticleRecord& r : homed) append_record(mine, r);
  engine::free_storage(homed);
  Bytes all = mpi::all_gather(mine, d_.comm_);
  d_.counters_.bytes_sent += mine.size() * static_cast<std::size_t>(d_.ranks_ - 1);
  engine::free_storage(mine);
  engine::EngineSnapshot s = snapshot_of_records(read_records(all.data(), all.size()), d_.time_, d_.reaction_count());
  engine::free_storage(all);
  return s;
}

engine::EngineSnapshot OwnerComputesWindows::window_system(std::vector<engine::ParticleRecord> homed) {
  const Holding& h = holding_;
  // Each record to the ranks whose windows hold it (hubs to every rank; a
  // particle that left the system to the owner of the sector it left
  // from, which accounts for it). With tethers or loaded groups, two
  // layers deep, and then the loaded components (linked_window_gather.hpp),
  // which the homed records answer for.
  const std::vector<engine::SectorWindow>& sent_to = h.links ? h.reach : h.windows;
  std::vector<Bytes> out(static_cast<std::size_t>(d_.ranks_));
  std::vector<int> ranks;
  for (const engine::ParticleRecord& r : homed) {
    if (d_.model_.is_hub_species(r.particle.species) || !r.particle.alive) {
      d_.pack_for_holders(out, r, ranks);
      continue;
    }
    for (int q = 0; q < d_.ranks_; ++q) {
      if (sent_to[static_cast<std::size_t>(q)].contains(r.particle.sector)) append_record(out[static_cast<std::size_t>(q)], r);
    }
  }
  if (!h.links) {
    engine::free_storage(homed);
    return d_.exchange_snapshot(std::move(out));
  }
  std::vector<engine::ParticleRecord> held = exchange_records(std::move(out));
  gather_linked(homed, held, h.windows[static_cast<std::size_t>(d_.rank_)]);
  engine::free_storage(homed);
  return snapshot_of_records(std::move(held), d_.time_, d_.reaction_count());
}

std::vector<engine::ParticleRecord> OwnerComputesWindows::exchange_records(std::vector<Bytes> out) {
  for (const Bytes& b : out) d_.counters_.bytes_sent += b.size();
  return d_.receive_records(std::move(out));
}

void OwnerComputesWindows::gather_linked(const std::vector<engine::ParticleRecord>& mine,
                                         std::vector<engine::ParticleRecord>& held, const engine::SectorWindow& window) {
  std::vector<bool> hub_species;
  for (std::size_t s = 0; s < d_.model_.species().size(); ++s) {
    hub_species.push_back(d_.model_.is_hub_species(static_cast<SpeciesIndex>(s)));
  }
  std::unordered_set<ParticleId> asked;
  // A component grows by at least one loaded edge per pass: the passes are
  // as many as the longest chain reaching out of a window.
  for (;;) {
    const std::vector<ParticleId> ask = link_ends_to_ask(held, window, hub_species, asked);
    asked.insert(ask.begin(), ask.end());
    std::vector<std::size_t> counts;
    const std::vector<ParticleId> every = mpi::all_gather(ask, d_.comm_, &counts);
    if (every.empty()) return;  // no rank misses anything
    std::vector<std::vector<ParticleId>> by_rank(counts.size());
    std::size_t from = 0;
    for (std::size_t q = 0; q < counts.size(); ++q) {
      by_rank[q].assign(every.begin() + static_cast<std::ptrdiff_t>(from),
                        every.begin() + static_cast<std::ptrdiff_t>(from + counts[q]));
      from += counts[q];
    }
    std::vector<Bytes> out(static_cast<std::size_t>(d_.ranks_));
    const std::vector<std::vector<std::size_t>> answering = answers_by_rank(mine, by_rank);
    for (std::size_t q = 0; q < answering.size(); ++q) {
      for (std::size_t k : answering[q]) {
        if (!d_.model_.is_hub_species(mine[k].particle.species)) append_record(out[q], mine[k]);
      }
    }
    std::vector<engine::ParticleRecord> more = exchange_records(std::move(out));
    held.insert(held.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
}

}  // namespace tethersim::decomposition
