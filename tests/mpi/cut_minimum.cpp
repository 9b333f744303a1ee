// The committed floor's agreement without stopping the ranks
// (include/tethersim/mpi/cut_minimum.hpp), on a toy optimistic workload:
// every rank holds pending items (keys); it takes its least, and from it
// sends items with keys at or above it to seeded random ranks (or keeps
// them), looks at its channels only every few steps (so that batches stay
// in flight), and enters, reports and takes the agreement's rounds as the
// owner-computes rounds do. What must hold, checked on every rank:
//   - no item ever arrives, or is made here, with a key below a floor this
//     rank has taken (the floor is a true lower bound of all work to come,
//     with batches in flight);
//   - every rank takes the same sequence of results (each is collective);
//   - the floor rises to the end, where every rank stops in the same round,
//     with the items sent and taken counting alike on every rank.
// A cut that missed a batch in flight (a rank reporting before its
// neighbours' markers, least keys sent not counted) lets the floor pass an
// item still travelling, which the first check sees.
//   mpirun -np N tethersim_cut_minimum
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <queue>
#include <random>
#include <vector>

#include "tethersim/mpi/batch_channels.hpp"
#include "tethersim/mpi/cut_minimum.hpp"

namespace {

constexpr double kEnd = 400.0;
constexpr std::size_t kMaxBytes = 1 << 16;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

[[noreturn]] void fail(const char* what, int rank, double a = 0, double b = 0) {
  std::fprintf(stderr, "cut_minimum: rank %d: %s (%g, %g)\n", rank, what, a, b);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}

struct Rank {
  int rank = 0;
  int ranks = 1;
  std::vector<int> neighbours;
  tethersim::mpi::BatchChannels* channels = nullptr;
  tethersim::mpi::CutMinimum* cut = nullptr;
  std::priority_queue<double, std::vector<double>, std::greater<>> pending;
  std::vector<std::vector<char>> out;  // per neighbour: epoch header, then keys
  double out_least = kInfinity;
  double floor = -kInfinity;
  std::vector<double> results;  // every floor taken, in order
  std::uint64_t items_sent = 0;
  std::uint64_t items_taken = 0;
  bool over = false;

  void fresh(std::vector<char>& b) { b.assign(sizeof(std::uint64_t), 0); }

  void send(bool markers) {
    const std::uint64_t epoch = cut->epoch();
    for (std::size_t k = 0; k < out.size(); ++k) {
      if (out[k].size() == sizeof(std::uint64_t) && !markers) continue;
      std::memcpy(out[k].data(), &epoch, sizeof epoch);
      channels->send(k, out[k].data(), out[k].size());
      fresh(out[k]);
    }
    out_least = kInfinity;
  }

  void enter() {
    cut->enter(out_least);
    send(true);
  }

  void take_result() {
    const tethersim::mpi::CutMinimum::Result r = cut->complete();
    if (r.minimum < floor) fail("the floor fell", rank, r.minimum, floor);
    if (!pending.empty() && pending.top() < r.minimum) fail("work held here is below the floor", rank, pending.top(), r.minimum);
    floor = r.minimum;
    // The maximum and the plain minimum come with the same cut.
    if (r.maximum != static_cast<double>(ranks - 1)) fail("the maximum is not the largest rank", rank, r.maximum);
    if (r.minimum > std::min(r.least, kEnd)) fail("the floor above the least pending item reported", rank, r.minimum, r.least);
    results.push_back(r.minimum);
    results.push_back(r.sum);
    results.push_back(r.least);
    if (r.minimum >= kEnd) over = true;
  }

  void receive() {
    channels->receive([&](std::size_t index, const void* data, std::size_t size) {
      const char* bytes = static_cast<const char*>(data);
      std::uint64_t epoch = 0;
      std::memcpy(&epoch, bytes, sizeof epoch);
      if (cut->saw(index, epoch)) {
        if (cut->reporting()) {
          cut->wait();
          take_result();
          if (over) fail("a batch of a round after the last", rank);
        }
        enter();
      }
      for (std::size_t at = sizeof epoch; at < size; at += sizeof(double)) {
        double key = 0;
        std::memcpy(&key, bytes + at, sizeof key);
        if (key < floor) fail("an item arrived below the floor taken", rank, key, floor);
        pending.push(key);
        ++items_taken;
      }
    });
  }

  void queue(std::size_t k, double key) {
    const std::size_t at = out[k].size();
    out[k].resize(at + sizeof key);
    std::memcpy(out[k].data() + at, &key, sizeof key);
    out_least = std::min(out_least, key);
    cut->note_sent(key);
    ++items_sent;
  }
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  {
    Rank r;
    r.rank = rank;
    r.ranks = ranks;
    for (int q = 0; q < ranks; ++q) {
      if (q != rank) r.neighbours.push_back(q);
    }
    tethersim::mpi::BatchChannels channels(MPI_COMM_WORLD, r.neighbours, kMaxBytes);
    tethersim::mpi::CutMinimum cut(MPI_COMM_WORLD, r.neighbours.size());
    r.channels = &channels;
    r.cut = &cut;
    r.out.resize(r.neighbours.size());
    for (auto& b : r.out) r.fresh(b);
    std::mt19937_64 random(0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(rank + 1));
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int k = 0; k < 20; ++k) r.pending.push(unit(random) * 2.0);

    std::uint64_t steps = 0;
    while (!r.over) {
      // A step: take the least item below the end and the throttle, and
      // make new ones from it (sent, kept, or none).
      const double horizon = r.floor + 3.0;
      if (!r.pending.empty() && r.pending.top() < std::min(kEnd, horizon)) {
        const double key = r.pending.top();
        r.pending.pop();
        const int made = static_cast<int>(unit(random) * 2.6);
        for (int m = 0; m < made; ++m) {
          // Zero delays too: an item at the key it came from.
          const double next = unit(random) < 0.1 ? key : key + unit(random) * 1.5;
          if (r.neighbours.empty() || unit(random) < 0.4) {
            r.pending.push(next);
          } else {
            r.queue(static_cast<std::size_t>(unit(random) * static_cast<double>(r.neighbours.size())), next);
          }
        }
        if (r.pending.size() < 4) r.pending.push(key + unit(random));
      }
      ++steps;
      // Batches go out and come in only now and then.
      if (unit(random) < 0.3) r.send(false);
      if (unit(random) < 0.3) r.receive();
      if (!cut.open()) r.enter();
      if (cut.may_report()) {
        const double least = r.pending.empty() ? kInfinity : r.pending.top();
        cut.report(std::min(least, kEnd), static_cast<double>(rank), static_cast<double>(r.items_sent), least);
      }
      if (cut.test()) r.take_result();
      if (steps > 50000000) fail("no end after 5 10^7 steps", rank);
    }
    // Every batch still travelling is taken (as a round's drain does).
    for (;;) {
      r.send(false);
      std::int64_t in_flight = static_cast<std::int64_t>(channels.sent()) - static_cast<std::int64_t>(channels.taken());
      MPI_Allreduce(MPI_IN_PLACE, &in_flight, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
      if (in_flight == 0) break;
      r.receive();
    }
    std::uint64_t counts[2] = {r.items_sent, r.items_taken};
    MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (counts[0] != counts[1]) fail("items sent and taken differ", rank, static_cast<double>(counts[0]), static_cast<double>(counts[1]));
    // The same results on every rank, and enough of them to mean something.
    std::uint64_t n = r.results.size();
    std::uint64_t most = n;
    MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    if (n != most) fail("ranks took different numbers of results", rank, static_cast<double>(n), static_cast<double>(most));
    std::vector<double> first(r.results);
    MPI_Bcast(first.data(), static_cast<int>(first.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (first != r.results) fail("ranks took different results", rank);
    if (ranks > 1 && n / 3 < 20) fail("too few rounds to test anything", rank, static_cast<double>(n / 3));
    if (rank == 0) std::printf("cut_minimum: %d ranks, %llu rounds, %llu items sent\n", ranks,
                               static_cast<unsigned long long>(n / 3), static_cast<unsigned long long>(counts[0]));
  }
  MPI_Finalize();
  return 0;
}
