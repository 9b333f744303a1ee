#include "tethersim/decomposition/rank_exchange.hpp"

#include <exception>
#include <numeric>
#include <stdexcept>

#include "tethersim/mpi/collectives.hpp"

namespace tethersim::decomposition {

namespace {

using mpi::byte_offsets;
using mpi::message_bytes;

}  // namespace

ReceivedBytes::ReceivedBytes(Bytes all, const std::vector<int>& counts, const std::vector<int>& offsets)
    : all_(std::move(all)) {
  parts_.reserve(counts.size());
  for (std::size_t k = 0; k < counts.size(); ++k) {
    parts_.emplace_back(all_.data() + offsets[k], static_cast<std::size_t>(counts[k]));
  }
}

NeighbourExchange::NeighbourExchange(MPI_Comm comm, std::vector<int> neighbours)
    : neighbours_(std::move(neighbours)), graph_(comm, neighbours_) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  slot_of_rank_.assign(static_cast<std::size_t>(size), -1);
  for (std::size_t k = 0; k < neighbours_.size(); ++k) {
    slot_of_rank_[static_cast<std::size_t>(neighbours_[k])] = static_cast<int>(k);
  }
}

int NeighbourExchange::slot(int rank) const { return slot_of_rank_[static_cast<std::size_t>(rank)]; }

namespace {

// Packs `out` (one buffer per peer, each freed once copied), exchanges the
// sizes with `exchange_counts`, then the bytes with `exchange_bytes`: the
// same for neighbour and all-rank collectives.
template <typename ExchangeCounts, typename ExchangeBytes>
ReceivedBytes exchange_buffers(std::vector<Bytes> out, ExchangeCounts exchange_counts, ExchangeBytes exchange_bytes) {
  const std::size_t n = out.size();
  std::vector<int> send_counts(n), receive_counts(n);
  std::size_t total = 0;
  for (std::size_t k = 0; k < n; ++k) {
    send_counts[k] = message_bytes(out[k].size());
    total += out[k].size();
  }
  Bytes send;
  send.reserve(total);
  for (Bytes& part : out) {
    send.insert(send.end(), part.begin(), part.end());
    Bytes().swap(part);
  }
  exchange_counts(send_counts.data(), receive_counts.data());
  const std::vector<int> send_offsets = byte_offsets(send_counts);
  const std::vector<int> receive_offsets = byte_offsets(receive_counts);
  Bytes receive(static_cast<std::size_t>(std::accumulate(receive_counts.begin(), receive_counts.end(), 0LL)));
  exchange_bytes(send.data(), send_counts.data(), send_offsets.data(), receive.data(), receive_counts.data(),
                 receive_offsets.data());
  return ReceivedBytes(std::move(receive), receive_counts, receive_offsets);
}

}  // namespace

namespace {

std::vector<std::size_t> sizes_of(const std::vector<Bytes>& out) {
  std::vector<std::size_t> sizes;
  sizes.reserve(out.size());
  for (const Bytes& b : out) sizes.push_back(b.size());
  return sizes;
}

std::vector<std::size_t> sizes_of(const ReceivedBytes& in) {
  std::vector<std::size_t> sizes;
  sizes.reserve(in.size());
  for (std::span<const char> part : in) sizes.push_back(part.size());
  return sizes;
}

}  // namespace

ReceivedBytes NeighbourExchange::exchange(std::vector<Bytes> out) {
  if (out.size() != neighbours_.size()) throw std::logic_error("one buffer per neighbour expected");
  for (const Bytes& b : out) bytes_sent_ += b.size();
  RecordedCommunication call(recorder_);
  const std::vector<std::size_t> sent = call.recording() ? sizes_of(out) : std::vector<std::size_t>{};
  ReceivedBytes in = exchange_buffers(
      std::move(out),
      [&](const int* send_counts, int* receive_counts) {
        graph_.exchange_counts(send_counts, receive_counts);
      },
      [&](const char* send, const int* send_counts, const int* send_offsets, char* receive, const int* receive_counts,
          const int* receive_offsets) {
        graph_.exchange_bytes(send, send_counts, send_offsets, receive, receive_counts, receive_offsets);
      });
  if (call.recording()) call.exchange(neighbours_, sent, sizes_of(in));
  return in;
}

ReceivedBytes all_to_all(MPI_Comm comm, std::vector<Bytes> out, RoundRecorder* recorder) {
  RecordedCommunication call(recorder);
  const std::vector<std::size_t> sent = call.recording() ? sizes_of(out) : std::vector<std::size_t>{};
  ReceivedBytes in = exchange_buffers(
      std::move(out),
      [&](const int* send_counts, int* receive_counts) {
        mpi::exchange_counts(send_counts, receive_counts, comm);
      },
      [&](const char* send, const int* send_counts, const int* send_offsets, char* receive, const int* receive_counts,
          const int* receive_offsets) {
        mpi::exchange_bytes(send, send_counts, send_offsets, receive, receive_counts, receive_offsets, comm);
      });
  if (call.recording()) call.all_to_all(sent, sizes_of(in));
  return in;
}

Bytes gather_to_root(MPI_Comm comm, const Bytes& mine, RoundRecorder* recorder) {
  RecordedCommunication call(recorder);
  call.gather(mine.size(), 0);
  return mpi::gather_to_root(mine, comm);
}

}  // namespace tethersim::decomposition
