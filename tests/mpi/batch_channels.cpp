// Batch channels (include/tethersim/mpi/batch_channels.hpp): every rank
// sends every other rank 400 batches of sizes from 0 to the largest
// allowed, a seeded few at a time between receives, and waits (without
// spinning) when it has nothing to take. Each batch's bytes are a function
// of its sender and its place in the sender's sequence, and its size too,
// so a batch taken out of order, lost, taken twice or cut short fails the
// test. The wait is exercised both ways: for a batch, and for a
// non-blocking barrier posted once this rank has sent everything.
//   mpirun -np N tethersim_batch_channels
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <vector>

#include "tethersim/mpi/batch_channels.hpp"

namespace {

constexpr std::size_t kMaxBytes = 4096;
constexpr std::uint32_t kBatches = 400;

std::size_t batch_size(int sender, int receiver, std::uint32_t seq) {
  // 0 and kMaxBytes both occur, and every size differs from its neighbours'.
  if (seq % 97 == 5) return kMaxBytes;
  if (seq % 89 == 3) return 0;
  return (seq * 2654435761u + static_cast<std::uint32_t>(sender * 31 + receiver * 7)) % kMaxBytes;
}

char batch_byte(int sender, std::uint32_t seq, std::size_t k) {
  return static_cast<char>((static_cast<std::uint32_t>(sender) * 131u + seq * 7u + static_cast<std::uint32_t>(k)) &
                           0xffu);
}

[[noreturn]] void fail(const char* what, int rank) {
  std::fprintf(stderr, "batch_channels: rank %d: %s\n", rank, what);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  {
    std::vector<int> neighbours;
    for (int r = 0; r < ranks; ++r) {
      if (r != rank) neighbours.push_back(r);
    }
    tethersim::mpi::BatchChannels channels(MPI_COMM_WORLD, neighbours, kMaxBytes);
    const std::size_t n = neighbours.size();

    bool refused = false;
    try {
      std::vector<char> too_big(kMaxBytes + 1);
      if (n > 0) channels.send(0, too_big.data(), too_big.size());
    } catch (const std::logic_error&) {
      refused = true;
    }
    if (n > 0 && !refused) fail("a batch larger than the largest was not refused", rank);

    std::vector<std::uint32_t> next_out(n, 0), next_in(n, 0);
    std::mt19937 random(static_cast<unsigned>(rank) * 7919u + 1u);
    std::vector<char> batch;
    auto take = [&](std::size_t from, const void* bytes, std::size_t size) {
      const int sender = neighbours[from];
      const std::uint32_t seq = next_in[from]++;
      if (seq >= kBatches) fail("more batches than were sent", rank);
      if (size != batch_size(sender, rank, seq)) fail("a batch of the wrong size (out of order?)", rank);
      const char* in = static_cast<const char*>(bytes);
      for (std::size_t k = 0; k < size; ++k) {
        if (in[k] != batch_byte(sender, seq, k)) fail("a batch with the wrong bytes (out of order?)", rank);
      }
    };
    auto all_sent = [&] {
      for (std::uint32_t s : next_out) {
        if (s < kBatches) return false;
      }
      return true;
    };
    auto all_taken = [&] {
      for (std::uint32_t s : next_in) {
        if (s < kBatches) return false;
      }
      return true;
    };
    std::vector<MPI_Request> barrier;  // posted once everything is sent
    bool barrier_done = false;
    std::uint64_t waits_for_batches = 0, waits_for_barrier = 0;
    // Rank r sends on every (r + 1)-th turn only: the faster ranks run out
    // of work and wait for the slower ones' batches.
    for (std::uint64_t turn = 0; !(barrier_done && all_taken()); ++turn) {
      for (std::size_t k = 0; k < n && turn % static_cast<std::uint64_t>(rank + 1) == 0; ++k) {
        const auto burst = std::uniform_int_distribution<std::uint32_t>(0, 3)(random);
        for (std::uint32_t b = 0; b < burst && next_out[k] < kBatches; ++b) {
          const std::uint32_t seq = next_out[k]++;
          batch.resize(batch_size(rank, neighbours[k], seq));
          for (std::size_t i = 0; i < batch.size(); ++i) batch[i] = batch_byte(rank, seq, i);
          channels.send(k, batch.data(), batch.size());
        }
      }
      if (all_sent() && barrier.empty()) {
        barrier.push_back(MPI_REQUEST_NULL);
        MPI_Ibarrier(MPI_COMM_WORLD, barrier.data());
      }
      if (channels.receive(take) > 0 || !all_sent()) continue;
      // Nothing arrived and nothing is left to send: wait for a batch or,
      // once posted, the barrier.
      if (barrier_done) {
        std::vector<MPI_Request> none;
        if (channels.wait(none) != -1) fail("a wait with no request returned one", rank);
        ++waits_for_batches;
      } else if (channels.wait(barrier) == 0) {
        barrier_done = true;
        ++waits_for_barrier;
      } else {
        ++waits_for_batches;
      }
    }
    if (channels.sent() != n * kBatches || channels.taken() != n * kBatches) fail("counts differ", rank);
    if (n > 0 && waits_for_barrier != 1) fail("the barrier was not seen through wait()", rank);
    if (rank == 0) {
      std::printf("batch_channels: %d ranks, %u batches each way per pair, in order (rank 0 waited %llu times)\n",
                  ranks, kBatches, static_cast<unsigned long long>(waits_for_batches + waits_for_barrier));
    }
  }
  MPI_Finalize();
  return 0;
}
