#pragma once
// Point-to-point channels between a rank and its neighbours that carry
// batches of bytes, first in first out per pair, without any collective:
// what the owner-computes mode sends (event outcomes and cancel notices)
// goes out whenever it is made and is taken in whenever the receiver looks.
// Header only, on MPI alone.
//
// One receive per neighbour is always posted, for a batch of at most
// `max_batch_bytes`; it is posted again as soon as a batch has been taken.
// With one receive per source outstanding, batches from a neighbour match
// in the order they were sent (MPI's non-overtaking rule for one source,
// tag and communicator), so a channel is FIFO. Because the receives are
// requests, a rank with nothing to do waits in MPI_Waitany on them and on
// the requests of its own protocol (an asynchronous reduction, say) at
// once; Open MPI gives the core away while it waits (mpi::Session sets
// mpi_yield_when_idle).
//
// The channels own their communicator (a duplicate of the one given), so
// their batches never match another part's messages. Destroy them only
// when every batch sent has been taken (after the protocol's own
// termination agreement): the destructor cancels the posted receives and
// waits for this rank's sends to complete.

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace tethersim::mpi {

class BatchChannels {
 public:
  // Collective over `comm` (it is duplicated). `neighbours`: the ranks this
  // rank exchanges with, each naming this rank in turn.
  BatchChannels(MPI_Comm comm, std::vector<int> neighbours, std::size_t max_batch_bytes)
      : neighbours_(std::move(neighbours)), max_bytes_(max_batch_bytes) {
    if (max_bytes_ == 0 || max_bytes_ > static_cast<std::size_t>(INT32_MAX)) {
      throw std::invalid_argument("batch channels: a batch holds 1 to 2^31 - 1 bytes");
    }
    MPI_Comm_dup(comm, &comm_);
    // Left uninitialised: a page is resident only once a batch reaches it
    // (zeroed buffers of the largest batch for every neighbour held 28 MiB
    // per rank on 8 ranks, whatever was sent).
    receive_buffers_.resize(neighbours_.size());
    for (auto& b : receive_buffers_) b.reset(new char[max_bytes_]);
    receives_.assign(neighbours_.size(), MPI_REQUEST_NULL);
    done_.resize(neighbours_.size());
    statuses_.resize(neighbours_.size());
    for (std::size_t k = 0; k < neighbours_.size(); ++k) post_receive(k);
  }
  ~BatchChannels() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized || comm_ == MPI_COMM_NULL) return;
    for (MPI_Request& r : receives_) {
      if (r == MPI_REQUEST_NULL) continue;
      MPI_Cancel(&r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    // A failure on this rank unwinds: the job is about to end every rank,
    // and a send its peer will never take must not hang the unwinding.
    if (std::uncaught_exceptions() == 0) {
      for (Send& s : sends_) MPI_Wait(&s.request, MPI_STATUS_IGNORE);
      MPI_Comm_free(&comm_);
    }
  }
  BatchChannels(const BatchChannels&) = delete;
  BatchChannels& operator=(const BatchChannels&) = delete;

  const std::vector<int>& neighbours() const { return neighbours_; }
  std::size_t max_batch_bytes() const { return max_bytes_; }

  // Sends `bytes` to neighbour `index` (its place in neighbours()); the
  // batch is copied, so the caller may reuse its buffer at once.
  void send(std::size_t index, const void* bytes, std::size_t size) {
    if (size > max_bytes_) {
      throw std::logic_error("batch channels: a batch of " + std::to_string(size) + " bytes, more than " +
                             std::to_string(max_bytes_));
    }
    reap_sends();
    Send& s = sends_.emplace_back();
    s.bytes.assign(static_cast<const char*>(bytes), static_cast<const char*>(bytes) + size);
    MPI_Isend(s.bytes.data(), static_cast<int>(size), MPI_BYTE, neighbours_.at(index), kTag, comm_, &s.request);
    ++sent_;
  }

  // Takes every batch that has arrived, each neighbour's in the order sent:
  // take(index, bytes, size) for each. Returns how many were taken.
  template <typename Take>
  std::size_t receive(Take&& take) {
    std::size_t taken = 0;
    // What wait() saw arrive first (at most one per neighbour: its receive
    // is posted again only once its batch is taken).
    for (const Arrived& a : arrived_) {
      take_batch(a.index, a.status, take);
      ++taken;
    }
    arrived_.clear();
    for (;;) {
      int count = 0;
      if (receives_.empty()) return taken;
      MPI_Testsome(static_cast<int>(receives_.size()), receives_.data(), &count, done_.data(), statuses_.data());
      if (count == MPI_UNDEFINED || count == 0) return taken;
      // Indices in increasing order: a neighbour's next batch can only
      // complete after it is posted again, so its order is kept.
      for (int k = 0; k < count; ++k) {
        const auto index = static_cast<std::size_t>(done_[static_cast<std::size_t>(k)]);
        take_batch(index, statuses_[static_cast<std::size_t>(k)], take);
        ++taken;
      }
    }
  }

  // Waits until a batch arrives or one of `others` completes, without
  // taking anything: returns the index in `others` of a completed request
  // (set to MPI_REQUEST_NULL, its status in *status), or -1 when a batch
  // is waiting (receive() takes it).
  int wait(std::vector<MPI_Request>& others, MPI_Status* status = MPI_STATUS_IGNORE) {
    if (!arrived_.empty()) return -1;
    std::vector<MPI_Request> all = others;
    all.insert(all.end(), receives_.begin(), receives_.end());
    const auto own = others.size();
    int index = MPI_UNDEFINED;
    MPI_Status s;
    MPI_Waitany(static_cast<int>(all.size()), all.data(), &index, &s);
    if (index == MPI_UNDEFINED) throw std::logic_error("batch channels: waiting for nothing (no neighbour, no request)");
    const auto k = static_cast<std::size_t>(index);
    if (k < own) {
      others[k] = MPI_REQUEST_NULL;
      if (status != MPI_STATUS_IGNORE) *status = s;
      return index;
    }
    // A receive completed inside Waitany: its request is now free, so keep
    // what arrived for the next receive().
    arrived_.push_back({k - own, s});
    receives_[k - own] = MPI_REQUEST_NULL;
    return -1;
  }

  // Batches sent and taken by this rank so far.
  std::uint64_t sent() const { return sent_; }
  std::uint64_t taken() const { return taken_; }

 private:
  static constexpr int kTag = 7;

  struct Send {
    std::vector<char> bytes;
    MPI_Request request = MPI_REQUEST_NULL;
  };
  struct Arrived {
    std::size_t index;
    MPI_Status status;
  };

  void post_receive(std::size_t k) {
    MPI_Irecv(receive_buffers_[k].get(), static_cast<int>(max_bytes_), MPI_BYTE, neighbours_[k], kTag, comm_,
              &receives_[k]);
  }

  template <typename Take>
  void take_batch(std::size_t index, const MPI_Status& status, Take& take) {
    int size = 0;
    MPI_Get_count(&status, MPI_BYTE, &size);
    // The buffer is handed out before the receive is posted again, so the
    // next batch cannot overwrite it while `take` reads it.
    take(index, static_cast<const void*>(receive_buffers_[index].get()), static_cast<std::size_t>(size));
    ++taken_;
    post_receive(index);
  }

  // Sends complete in any order; their buffers are freed from the front.
  void reap_sends() {
    while (!sends_.empty()) {
      int done = 0;
      MPI_Test(&sends_.front().request, &done, MPI_STATUS_IGNORE);
      if (!done) return;
      sends_.pop_front();
    }
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<int> neighbours_;
  std::size_t max_bytes_;
  std::vector<std::unique_ptr<char[]>> receive_buffers_;
  std::vector<MPI_Request> receives_;
  std::vector<int> done_;  // MPI_Testsome's results, kept between calls
  std::vector<MPI_Status> statuses_;
  std::deque<Send> sends_;
  std::vector<Arrived> arrived_;
  std::uint64_t sent_ = 0;
  std::uint64_t taken_ = 0;
};

}  // namespace tethersim::mpi
