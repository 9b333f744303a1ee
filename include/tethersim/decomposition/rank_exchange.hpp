#pragma once
// Moving bytes between ranks: to the neighbours of a rank's block (every
// window: halos, migration, speed bounds) and to any rank (rare: restarts,
// rebalancing, fallbacks).

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "tethersim/decomposition/record_codec.hpp"

namespace tethersim::decomposition {

// A symmetric neighbourhood of ranks (a distributed-graph communicator):
// each exchange sends one buffer to every neighbour and receives one from
// each, with MPI neighbour collectives.
class NeighbourExchange {
 public:
  NeighbourExchange(MPI_Comm comm, std::vector<int> neighbours);
  ~NeighbourExchange();
  NeighbourExchange(const NeighbourExchange&) = delete;
  NeighbourExchange& operator=(const NeighbourExchange&) = delete;

  const std::vector<int>& neighbours() const { return neighbours_; }
  // The slot of a rank in neighbours(), or -1.
  int slot(int rank) const;
  // out[k] goes to neighbours()[k]; returns what neighbours()[k] sent.
  std::vector<Bytes> exchange(const std::vector<Bytes>& out);
  std::uint64_t bytes_sent() const { return bytes_sent_; }

 private:
  MPI_Comm graph_ = MPI_COMM_NULL;
  std::vector<int> neighbours_;
  std::vector<int> slot_of_rank_;
  std::uint64_t bytes_sent_ = 0;
};

// out[r] goes to rank r of `comm`; returns what each rank sent here.
std::vector<Bytes> all_to_all(MPI_Comm comm, const std::vector<Bytes>& out);

// Every rank's bytes, concatenated in rank order on rank 0 (empty
// elsewhere).
Bytes gather_to_root(MPI_Comm comm, const Bytes& mine);

}  // namespace tethersim::decomposition
