#pragma once
// A symmetric neighbourhood of ranks as a distributed-graph communicator,
// and the two neighbour collectives on it: one count to and from every
// neighbour, then the bytes. Header only, on MPI alone.

#include <mpi.h>

#include <exception>
#include <vector>

namespace tethersim::mpi {

class NeighbourGraph {
 public:
  // Collective over `comm`: every rank names its neighbours (each sends to
  // and receives from the same ranks).
  NeighbourGraph(MPI_Comm comm, const std::vector<int>& neighbours) {
    const int degree = static_cast<int>(neighbours.size());
    MPI_Dist_graph_create_adjacent(comm, degree, neighbours.data(), MPI_UNWEIGHTED, degree, neighbours.data(),
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph_);
  }
  ~NeighbourGraph() {
    // Freeing a communicator is collective: not while a failure on this
    // rank unwinds (the job is about to end every rank).
    if (std::uncaught_exceptions() > 0) return;
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && graph_ != MPI_COMM_NULL) MPI_Comm_free(&graph_);
  }
  NeighbourGraph(const NeighbourGraph&) = delete;
  NeighbourGraph& operator=(const NeighbourGraph&) = delete;

  // One int to and from each neighbour, in the order they were named.
  void exchange_counts(const int* send_counts, int* receive_counts) const {
    MPI_Neighbor_alltoall(send_counts, 1, MPI_INT, receive_counts, 1, MPI_INT, graph_);
  }
  // send_counts[k] bytes at send_offsets[k] to neighbour k, and theirs.
  void exchange_bytes(const char* send, const int* send_counts, const int* send_offsets, char* receive,
                      const int* receive_counts, const int* receive_offsets) const {
    MPI_Neighbor_alltoallv(send, send_counts, send_offsets, MPI_BYTE, receive, receive_counts, receive_offsets,
                           MPI_BYTE, graph_);
  }

 private:
  MPI_Comm graph_ = MPI_COMM_NULL;
};

}  // namespace tethersim::mpi
