#pragma once
// Gathers, all-to-all exchanges and agreements that several layers need
// (checkpoint records, trajectory rows, observables, rebuilds, stall
// reports), written once:
// each rank's block of trivially copyable values travels as bytes, blocks
// arrive in rank order, and a block too large for MPI's int counts is
// refused with a message instead of overflowing. Header only, on MPI alone,
// so that io, decomposition and the runtime share it without depending on
// each other.

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace tethersim::mpi {

inline int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

inline int size_of(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return size;
}

// A byte count as MPI takes it.
inline int message_bytes(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(INT_MAX)) {
    throw std::runtime_error("a message between ranks exceeds 2 GiB; use more ranks");
  }
  return static_cast<int>(bytes);
}

// Where each rank's block starts in the concatenation of blocks of
// `sizes` bytes (refused past 2 GiB in all).
inline std::vector<int> byte_offsets(const std::vector<int>& sizes) {
  std::vector<int> offsets(sizes.size(), 0);
  std::size_t total = 0;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    offsets[k] = message_bytes(total);
    total += static_cast<std::size_t>(sizes[k]);
  }
  message_bytes(total);
  return offsets;
}

// Whether `mine` holds on any rank: the agreement every rank reaches before
// acting together (stop, write, refuse). Collective.
inline bool any_rank(bool mine, MPI_Comm comm) {
  int value = mine ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_LOR, comm);
  return value != 0;
}

// Every rank's values, concatenated in rank order on rank 0 (empty on the
// others). `counts`, when given, receives on rank 0 how many values each
// rank sent. Collective.
template <typename T>
std::vector<T> gather_to_root(const T* values, std::size_t count, MPI_Comm comm,
                              std::vector<std::size_t>* counts = nullptr) {
  static_assert(std::is_trivially_copyable_v<T>, "values travel as bytes");
  const int ranks = size_of(comm);
  const bool root = rank_of(comm) == 0;
  const int bytes = message_bytes(count * sizeof(T));
  std::vector<int> sizes(static_cast<std::size_t>(ranks));
  MPI_Gather(&bytes, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, comm);
  std::vector<int> offsets;
  std::vector<T> all;
  if (root) {
    offsets = byte_offsets(sizes);
    all.resize((static_cast<std::size_t>(offsets.back()) + static_cast<std::size_t>(sizes.back())) / sizeof(T));
    if (counts != nullptr) {
      counts->clear();
      for (int size : sizes) counts->push_back(static_cast<std::size_t>(size) / sizeof(T));
    }
  }
  MPI_Gatherv(values, bytes, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE, 0, comm);
  return all;
}

template <typename T>
std::vector<T> gather_to_root(const std::vector<T>& values, MPI_Comm comm,
                              std::vector<std::size_t>* counts = nullptr) {
  return gather_to_root(values.data(), values.size(), comm, counts);
}

// Every rank's values, concatenated in rank order, on every rank.
// `counts`, when given, receives how many values each rank sent.
// Collective.
template <typename T>
std::vector<T> all_gather(const std::vector<T>& values, MPI_Comm comm, std::vector<std::size_t>* counts = nullptr) {
  static_assert(std::is_trivially_copyable_v<T>, "values travel as bytes");
  const int bytes = message_bytes(values.size() * sizeof(T));
  std::vector<int> sizes(static_cast<std::size_t>(size_of(comm)));
  MPI_Allgather(&bytes, 1, MPI_INT, sizes.data(), 1, MPI_INT, comm);
  if (counts != nullptr) {
    counts->clear();
    for (int size : sizes) counts->push_back(static_cast<std::size_t>(size) / sizeof(T));
  }
  const std::vector<int> offsets = byte_offsets(sizes);
  std::vector<T> all((static_cast<std::size_t>(offsets.back()) + static_cast<std::size_t>(sizes.back())) / sizeof(T));
  MPI_Allgatherv(values.data(), bytes, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE, comm);
  return all;
}

// Sends send_counts[k] values of `send` (blocks in rank order) to rank k
// and returns the blocks every rank sent here, in rank order. `from`, when
// given, receives where each rank's block starts in the result, then its
// size. Collective.
template <typename T>
std::vector<T> all_to_all(const std::vector<T>& send, const std::vector<std::size_t>& send_counts, MPI_Comm comm,
                          std::vector<std::size_t>* from = nullptr) {
  static_assert(std::is_trivially_copyable_v<T>, "values travel as bytes");
  std::vector<int> send_bytes(send_counts.size());
  for (std::size_t k = 0; k < send_counts.size(); ++k) send_bytes[k] = message_bytes(send_counts[k] * sizeof(T));
  const std::vector<int> send_offsets = byte_offsets(send_bytes);
  std::vector<int> receive_bytes(send_counts.size());
  MPI_Alltoall(send_bytes.data(), 1, MPI_INT, receive_bytes.data(), 1, MPI_INT, comm);
  const std::vector<int> receive_offsets = byte_offsets(receive_bytes);
  std::vector<T> received((static_cast<std::size_t>(receive_offsets.back()) +
                           static_cast<std::size_t>(receive_bytes.back())) / sizeof(T));
  MPI_Alltoallv(send.data(), send_bytes.data(), send_offsets.data(), MPI_BYTE, received.data(), receive_bytes.data(),
                receive_offsets.data(), MPI_BYTE, comm);
  if (from != nullptr) {
    from->clear();
    for (int offset : receive_offsets) from->push_back(static_cast<std::size_t>(offset) / sizeof(T));
    from->push_back(received.size());
  }
  return received;
}

// The two steps of all_to_all for callers that pack their own buffers:
// one count per rank each way, then the bytes. Collective.
inline void exchange_counts(const int* send_counts, int* receive_counts, MPI_Comm comm) {
  MPI_Alltoall(send_counts, 1, MPI_INT, receive_counts, 1, MPI_INT, comm);
}
inline void exchange_bytes(const char* send, const int* send_counts, const int* send_offsets, char* receive,
                           const int* receive_counts, const int* receive_offsets, MPI_Comm comm) {
  MPI_Alltoallv(send, send_counts, send_offsets, MPI_BYTE, receive, receive_counts, receive_offsets, MPI_BYTE,
                comm);
}

}  // namespace tethersim::mpi
