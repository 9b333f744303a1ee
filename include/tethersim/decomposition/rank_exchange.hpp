#pragma once
// Moving bytes between ranks: to the neighbours of a rank's block (every
// window: halos, migration, speed bounds) and to any rank (rare: restarts,
// rebalancing, fallbacks).

#include <mpi.h>

#include <cstdint>
#include <span>
#include <vector>

#include "tethersim/decomposition/record_codec.hpp"
#include "tethersim/decomposition/round_recorder.hpp"
#include "tethersim/mpi/neighbour_graph.hpp"

namespace tethersim::decomposition {

// What an exchange delivered: every peer's bytes in one buffer, in peer
// order, and where each peer's part lies. Handing out parts of one buffer
// instead of a copy per peer keeps a restart's records in memory once.
class ReceivedBytes {
 public:
  ReceivedBytes(Bytes all, const std::vector<int>& counts, const std::vector<int>& offsets);
  ReceivedBytes(ReceivedBytes&&) = default;  // the parts stay valid: a moved vector keeps its buffer
  ReceivedBytes& operator=(ReceivedBytes&&) = default;
  ReceivedBytes(const ReceivedBytes&) = delete;
  ReceivedBytes& operator=(const ReceivedBytes&) = delete;

  std::size_t size() const { return parts_.size(); }
  std::span<const char> operator[](std::size_t k) const { return parts_[k]; }
  auto begin() const { return parts_.begin(); }
  auto end() const { return parts_.end(); }
  std::size_t total_bytes() const { return all_.size(); }

 private:
  Bytes all_;
  std::vector<std::span<const char>> parts_;
};

// A symmetric neighbourhood of ranks (a distributed-graph communicator):
// each exchange sends one buffer to every neighbour and receives one from
// each, with MPI neighbour collectives.
class NeighbourExchange {
 public:
  NeighbourExchange(MPI_Comm comm, std::vector<int> neighbours);
  NeighbourExchange(const NeighbourExchange&) = delete;
  NeighbourExchange& operator=(const NeighbourExchange&) = delete;

  const std::vector<int>& neighbours() const { return neighbours_; }
  // The slot of a rank in neighbours(), or -1.
  int slot(int rank) const;
  // out[k] goes to neighbours()[k]; returns what neighbours()[k] sent.
  // `out` is consumed (each buffer freed once copied for sending).
  ReceivedBytes exchange(std::vector<Bytes> out);
  std::uint64_t bytes_sent() const { return bytes_sent_; }
  // Every exchange from now on is also written to `recorder` (none: not
  // recorded).
  void record_to(RoundRecorder* recorder) { recorder_ = recorder; }

 private:
  RoundRecorder* recorder_ = nullptr;
  std::vector<int> neighbours_;
  mpi::NeighbourGraph graph_;
  std::vector<int> slot_of_rank_;
  std::uint64_t bytes_sent_ = 0;
};

// out[r] goes to rank r of `comm`; returns what each rank sent here.
// `out` is consumed, as by NeighbourExchange::exchange. Written to
// `recorder` when there is one.
ReceivedBytes all_to_all(MPI_Comm comm, std::vector<Bytes> out, RoundRecorder* recorder = nullptr);

// Every rank's bytes, concatenated in rank order on rank 0 (empty
// elsewhere). Written to `recorder` when there is one (as a gather of
// equal parts: a replay's rare fallbacks need no more).
Bytes gather_to_root(MPI_Comm comm, const Bytes& mine, RoundRecorder* recorder = nullptr);

}  // namespace tethersim::decomposition
