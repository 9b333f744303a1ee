#pragma once
// Redistributing records so that each rank holds one contiguous range of
// slots, sorted (private to io/): the two-phase pattern that lets every
// rank write a single contiguous hyperslab collectively.

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "tethersim/engine/free_storage.hpp"
#include "tethersim/io/slot_map.hpp"
#include "tethersim/mpi/collectives.hpp"
#include "tethersim/mpi/reductions.hpp"

namespace tethersim::io_detail {

// Record: trivially copyable; `slot_of(record)` is the row it belongs to
// (records that can compute it need not store it: a membrane's tethers are
// millions). Returns this rank's records, sorted by slot (stable for equal
// slots, in rank order).
template <typename Record, typename SlotOf>
std::vector<Record> exchange_by_slot(std::vector<Record> local, std::uint64_t total_slots, MPI_Comm comm,
                                     SlotOf slot_of) {
  static_assert(std::is_trivially_copyable_v<Record>);
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  auto by_slot = [&](const Record& a, const Record& b) { return slot_of(a) < slot_of(b); };
  // Sorted runs go out, so what comes in from each rank is a sorted run and
  // merging them replaces a full sort (records usually come in id order).
  if (!std::is_sorted(local.begin(), local.end(), by_slot)) {
    std::stable_sort(local.begin(), local.end(), by_slot);
  }
  // Alone, there is nothing to exchange.
  if (ranks == 1) return local;
  // Sorted by slot, the records are grouped by the rank that writes them
  // (slot ranges ascend with the rank): they go out as they are, with no
  // copy, so that a checkpoint of a large block holds its rows twice at
  // most (what goes out and what comes in), not three times.
  std::vector<std::size_t> send_counts(static_cast<std::size_t>(ranks), 0);
  for (const Record& r : local) ++send_counts[static_cast<std::size_t>(slot_owner(total_slots, ranks, slot_of(r)))];
  std::vector<std::size_t> bounds;
  std::vector<Record> received = mpi::all_to_all(local, send_counts, comm, &bounds);
  engine::free_storage(local);
  // Merge the runs pairwise (stable: equal slots keep rank order).
  for (std::size_t width = 1; width < static_cast<std::size_t>(ranks); width *= 2) {
    for (std::size_t k = 0; k + width < static_cast<std::size_t>(ranks); k += 2 * width) {
      const auto first = received.begin() + static_cast<long>(bounds[k]);
      const auto middle = received.begin() + static_cast<long>(bounds[k + width]);
      const auto last = received.begin() + static_cast<long>(bounds[std::min(k + 2 * width, static_cast<std::size_t>(ranks))]);
      std::inplace_merge(first, middle, last, by_slot);
    }
  }
  return received;
}

// Records with a `std::uint64_t slot` member.
template <typename Record>
std::vector<Record> exchange_by_slot(std::vector<Record> local, std::uint64_t total_slots, MPI_Comm comm) {
  return exchange_by_slot(std::move(local), total_slots, comm, [](const Record& r) { return r.slot; });
}

// The exclusive prefix sum of `count` over ranks, and the total.
struct GlobalOffset {
  std::uint64_t offset = 0;
  std::uint64_t total = 0;
  std::uint64_t most = 0;  // the largest count of any rank
};
inline GlobalOffset global_offset(std::uint64_t count, MPI_Comm comm) {
  return {mpi::sum_before(count, comm), mpi::sum(count, comm), mpi::max(count, comm)};
}

}  // namespace tethersim::io_detail
