#pragma once
// A global minimum taken without stopping the ranks (Mattern's cut over
// FIFO channels): what the owner-computes mode's committed floor (GVT) is.
// Header only, on MPI alone.
//
// Each rank holds a value that only falls when a batch arrives (a
// rank's earliest pending work: what it sends can start work no earlier
// than the batch's least key). The minimum over ranks of those values,
// taken at one instant, is not enough: a batch in flight is in nobody's
// value. Rounds fix that. In round g a rank tags every batch it sends
// with g (its epoch). It enters round g+1 when it chooses to (`enter`) or,
// before it takes a batch tagged g+1 in, when one arrives (`saw` says so):
// on entering, it sends every neighbour a batch at once, empty if it has
// nothing for it (a marker), and from then until it reports it keeps the
// least key it sends (`note_sent`). Because channels are FIFO, once a
// rank has seen a batch of the new epoch from every neighbour, every batch
// sent to it before its senders entered has been taken; it then reports
// min(value, least key sent since entering) into a non-blocking
// reduction, and keeps running. When the reduction completes, its minimum
// is a floor nothing can go below again:
//   - a batch sent before its sender entered was taken before its
//     receiver reported, so the receiver's value covers it;
//   - one sent after entering and before reporting is in its sender's
//     least key sent;
//   - one sent after its sender reported comes from work at or above the
//     sender's value then, or above a key it took since, which by
//     induction over sends in real time is at least the minimum.
// Every rank takes part in every round (the reduction is collective):
// a rank learns of a round from its own choice or its first batch of the
// next epoch. A rank whose round is still reducing when a batch of the
// next epoch arrives waits for its reduction, which has every rank's
// contribution already (the sender has its result).
//
// Beside the minimum, each report carries a value combined as a maximum
// (a flag: stop), one combined as a sum (a count: events run) and one
// combined as a plain minimum (without the keys in flight: the earliest
// work a rank can do by itself, for a throttle), all read with the same
// cut.

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace tethersim::mpi {

class CutMinimum {
 public:
  struct Result {
    double minimum = 0.0;
    double maximum = 0.0;
    double sum = 0.0;
    double least = 0.0;  // the plain minimum of the reports' `least`
  };

  // Collective over `comm` (it is duplicated, so that the reductions
  // never match another part's collectives). `neighbours`: how many
  // channels this rank takes batches from.
  CutMinimum(MPI_Comm comm, std::size_t neighbours) : seen_(neighbours, 0) { MPI_Comm_dup(comm, &comm_); }
  ~CutMinimum() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized || comm_ == MPI_COMM_NULL) return;
    // Only after a completed round (a pending reduction is every rank's).
    if (!in_flight()) MPI_Comm_free(&comm_);
  }
  CutMinimum(const CutMinimum&) = delete;
  CutMinimum& operator=(const CutMinimum&) = delete;

  // The tag of the batches this rank sends now.
  std::uint64_t epoch() const { return epoch_; }
  // A round is open (entered and not yet completed here).
  bool open() const { return open_; }
  // This rank has reported and not yet taken the round's result.
  bool reporting() const { return open_ && reported_; }
  // What this rank reported to the open round (reporting() only): the
  // round's result is at most this.
  double reported() const { return -out_[0]; }

  // Enters the next round: the caller sends every neighbour a batch now,
  // tagged with the new epoch(), and passes the least key it carries here
  // (`sending`: infinity for markers alone). Only when no round is open.
  void enter(double sending) {
    if (open_) throw std::logic_error("cut minimum: a round entered while one is open");
    ++epoch_;
    open_ = true;
    reported_ = false;
    least_sent_ = sending;
  }
  // A key sent now (an outcome's, a withdrawal's time).
  void note_sent(double key) {
    if (open_ && !reported_ && key < least_sent_) least_sent_ = key;
  }
  // A batch tagged `epoch` came from neighbour `index`, about to be taken
  // in. Returns whether this rank must first enter the next round
  // (complete() first if it is reporting: wait()).
  bool saw(std::size_t index, std::uint64_t epoch) {
    if (epoch > epoch_ + 1) throw std::logic_error("cut minimum: a batch two rounds ahead");
    if (epoch > seen_.at(index)) seen_[index] = epoch;
    return epoch > epoch_;
  }
  // Every neighbour has entered this round: nothing sent before reached
  // this rank untaken, so it may report.
  bool may_report() const {
    if (!open_ || reported_) return false;
    for (std::uint64_t e : seen_) {
      if (e < epoch_) return false;
    }
    return true;
  }
  // Reports `value` (this rank's least pending key now), `maximum`, `sum`
  // and `least`; the reduction runs while the caller works.
  void report(double value, double maximum, double sum, double least) {
    if (!may_report()) throw std::logic_error("cut minimum: a report before every neighbour entered");
    reported_ = true;
    out_[0] = -(value < least_sent_ ? value : least_sent_);
    out_[1] = maximum;
    out_[2] = -least;
    out_[3] = sum;
    MPI_Iallreduce(out_, in_, 3, MPI_DOUBLE, MPI_MAX, comm_, &requests_[0]);
    MPI_Iallreduce(out_ + 3, in_ + 3, 1, MPI_DOUBLE, MPI_SUM, comm_, &requests_[1]);
  }
  // Whether the reduction has completed (it makes MPI progress too).
  bool test() {
    if (!reporting()) return false;
    if (!in_flight()) return true;
    int done = 0;
    MPI_Testall(2, requests_, &done, MPI_STATUSES_IGNORE);
    return done != 0;
  }
  // Waits for the reduction (the caller knows it is complete elsewhere).
  void wait() { MPI_Waitall(2, requests_, MPI_STATUSES_IGNORE); }
  // The requests a waiting caller adds to its own wait (null when not
  // reporting); one of them completing is not the round completing: ask
  // test().
  void add_requests(std::vector<MPI_Request>& to) const {
    for (MPI_Request r : requests_) {
      if (r != MPI_REQUEST_NULL) to.push_back(r);
    }
  }
  // Takes back a request a wait completed (MPI set it to null there).
  void completed_elsewhere(MPI_Request before) {
    for (MPI_Request& r : requests_) {
      if (r == before) r = MPI_REQUEST_NULL;
    }
  }
  // After test() or wait(): the round's result; the round is closed.
  Result complete() {
    if (in_flight()) throw std::logic_error("cut minimum: a round completed before its reduction");
    if (!reporting()) throw std::logic_error("cut minimum: no round to complete");
    open_ = false;
    return {-in_[0], in_[1], in_[3], -in_[2]};
  }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<std::uint64_t> seen_;  // per neighbour, the latest epoch of a batch taken
  std::uint64_t epoch_ = 0;
  bool open_ = false;
  bool reported_ = false;
  bool in_flight() const { return requests_[0] != MPI_REQUEST_NULL || requests_[1] != MPI_REQUEST_NULL; }

  double least_sent_ = std::numeric_limits<double>::infinity();
  double out_[4] = {0, 0, 0, 0};
  double in_[4] = {0, 0, 0, 0};
  MPI_Request requests_[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
};

}  // namespace tethersim::mpi
