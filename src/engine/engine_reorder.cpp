// Renumbering particles in sector order (memory locality).
#include <algorithm>

#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/free_storage.hpp"
#include "tethersim/engine/permute.hpp"

namespace tethersim::engine {

void Engine::reorder() {
  // Grid particles by sector, then hubs, then particles that left the
  // simulation; slots of particles removed from this view go last and are
  // dropped.
  // The numbering borrows the storage of the dense id index, which is not
  // read until it is built again afterwards, at the same place: an array
  // of its own was 4 bytes per particle above the engine's arrays for the
  // rest of the run (glibc's heap kept its pages). Sparse ids (a rank's
  // window) have no such storage, and the numbering is mapped on its own.
  const std::size_t n = particles_.size();
  BigVector<Index> borrowed;
  borrowed.swap(particles_.dense_index);
  MappedVector<Index> mapped;
  std::span<Index> new_index;
  if (borrowed.capacity() >= n) {
    borrowed.resize(n);
    new_index = borrowed;
  } else {
    mapped.resize(n);
    new_index = mapped;
  }
  const std::size_t kept = sector_order_numbering(new_index);
  // Pending events that name a dropped partner are predicted afresh.
  std::vector<Index> repredict_after;
  for (Index i = 0; i < n; ++i) {
    if (is_removed(i)) continue;
    // A crossing's runner-up names a partner too.
    const RunnerUp runner_up = calendar_.runner_up(i);
    const Index partner = runner_up.state == RunnerUp::State::pair ? runner_up.partner : calendar_.event(i).partner;
    if (partner != kNoIndex && is_removed(partner) && calendar_.event(i).time != kInfinity) {
      repredict_after.push_back(new_index[i]);
    }
  }
  renumber(new_index, kept);
  free_storage(mapped);
  particles_.dense_index.swap(borrowed);
  particles_.build_id_index();
  for (Index i : repredict_after) repredict(i);
}

std::size_t Engine::sector_order_numbering(std::span<Index> new_index) const {
  const std::size_t n = particles_.size();
  // The sector lists give the grid particles sector by sector: each list
  // (a handful of particles) is sorted by index, which is the order a stable
  // sort by sector would give, at linear cost.
  // The new numbering is written as the order is found (new_index[old] =
  // new): an array of the order beside it was 4 bytes per particle more at
  // the peak of a run.
  Index next = 0;
  std::vector<Index> sector_members;
  grid_.for_each_sector([&](std::uint32_t sector) {
    sector_members.clear();
    for (Index j = grid_.first(sector); j != kNoIndex; j = particles_.state[j].next_in_sector) {
      sector_members.push_back(j);
    }
    std::sort(sector_members.begin(), sector_members.end());
    for (Index j : sector_members) new_index[j] = next++;
  });
  for (Index i = 0; i < n; ++i) {
    if (!in_grid(i) && !is_removed(i) && particles_.state[i].alive) new_index[i] = next++;
  }
  for (Index i = 0; i < n; ++i) {
    if (!is_removed(i) && !particles_.state[i].alive) new_index[i] = next++;
  }
  const std::size_t kept = next;
  for (Index i = 0; i < n; ++i) {
    if (is_removed(i)) new_index[i] = next++;
  }
  return kept;
}

void Engine::renumber(std::span<const Index> new_index, std::size_t kept) {
  const std::size_t n = new_index.size();
  std::vector<bool> done;
  permute(particles_.state, new_index, done);
  permute(particles_.id, new_index, done);
  permute(particles_.counter, new_index, done);
  permute(particles_.stamp, new_index, done);
  permute(coords_, new_index, done);
  permute(ri_index_, new_index, done);
  permute(ri_time_, new_index, done);
  for (auto& phi : phi_) permute(phi, new_index, done);
  permute(tick_clearance_.until(), new_index, done);
  roles_.renumber(new_index, kept, done);
  changes_.renumber(new_index, kept, done);
  if (kept < n) {
    particles_.state.resize(kept);
    particles_.id.resize(kept);
    particles_.counter.resize(kept);
    particles_.stamp.resize(kept);
    coords_.resize(kept);
    if (has_random_impulses_) {
      ri_index_.resize(kept);
      ri_time_.resize(kept);
    }
    for (auto& phi : phi_) phi.resize(kept);
    touched_mark_.resize(kept);
    visit_mark_.resize(kept);
    if (tick_clearance_.on()) tick_clearance_.until().resize(kept);
  }
  rebuild_moving();

  grid_.clear();
  // Insert in reverse so each sector's list runs in ascending index order.
  for (Index i = static_cast<Index>(kept); i-- > 0;) {
    if (in_grid(i)) grid_.insert(particles_.state, i, sector_of(i));
  }
  tethers_.renumber(new_index);
  loaded_.renumber(new_index);
  calendar_.renumber(new_index);
  if (kept < n) {
    if (has_tethers_) tethers_.resize_particles(kept);
    if (has_loaded_edges_) loaded_.resize_particles(kept);
    calendar_.resize(kept);
  }
  for (Index& h : hubs_) h = new_index[h];
  for (auto& hubs : hubs_for_) {
    for (Index& h : hubs) h = new_index[h];
  }
}

}  // namespace tethersim::engine
