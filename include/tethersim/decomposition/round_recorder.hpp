#pragma once
// A run's work and communication, round by round, for replaying it as a
// parallel schedule on a modelled cluster (`tethersim run --record-rounds
// DIR`, tools/scaling_replay.py, docs/distribution.md "Replaying a run").
//
// Each rank writes two files into DIR:
//  - rank-NNNNN.ti: a time-independent trace of its run loop in the format
//    SimGrid's SMPI replays: the compute bursts between communications (the
//    thread's CPU seconds, written as flops of a 1 Gflop/s host) and every
//    communication (point-to-point messages to neighbours with their sizes,
//    all-reductions, broadcasts). Owner-computes rounds write each batch
//    they send as an `isend` (tag 1) and each batch they take in at the
//    point it was taken: a blocking `recv` where the rank had waited for
//    it, an `irecv` where it had arrived while the rank worked; their
//    committed floor's agreement, a non-blocking reduction SMPI's replay
//    has no action for, as a report sent to an agreement host numbered
//    after the last rank (`isend RANKS 2 32`) and its result taken from it
//    (`recv` or `irecv RANKS 3 32`, as for batches).
//    tools/scaling_replay.py adds that host, which sends every rank the
//    result once every report has reached it, and makes every receipt
//    blocking unless asked to bind only the waited-for ones.
//  - rank-NNNNN.rounds.jsonl: one line per round (a window, a certified
//    round, a fallback): the CPU seconds of each phase, the seconds spent in
//    communication calls, bytes and messages sent, and the events executed,
//    duplicated and rolled back; then one line for the whole run loop (its
//    CPU seconds outside rounds, its wall seconds).
// The run loop's work between rounds (observables sampled, progress, a
// checkpoint's preparation) is part of the trace while the loop is counted
// (`count_loop`): a run's projected time is then its whole loop, as
// summary.json's loop_seconds measures it, not its rounds alone.
// Thread CPU time, not wall time, is what makes the records honest on a
// machine with fewer cores than ranks: an oversubscribed rank that waits for
// a core is not charged for it.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>

namespace tethersim::decomposition {

// What a rank's CPU was doing between two communications.
enum class RoundPhase : std::uint8_t {
  execute,  // running events (with a speculative window's undo log)
  verify,   // certificates, histories and their comparison, undoing
  commit,   // packing and placing records, keeping a window
  other,    // agreements' preparation, balancing, fallbacks, bookkeeping
};
inline constexpr std::array<std::string_view, 4> kRoundPhaseNames{"execute", "verify", "commit", "other"};

// The work a round did on one rank.
struct RoundWork {
  std::uint64_t executed = 0;     // events run here
  std::uint64_t duplicated = 0;   // run here, counted by another rank
  std::uint64_t rolled_back = 0;  // run here and undone
  // Particle predictions made here (a membrane's ticks are mostly
  // predictions, not events); an undone window's are not counted, since
  // undoing restores the engine's statistics.
  std::uint64_t predictions = 0;
};

// The thread's CPU time in seconds (CLOCK_THREAD_CPUTIME_ID).
double thread_cpu_seconds();

class RoundRecorder {
 public:
  // Opens DIR/rank-NNNNN.ti and DIR/rank-NNNNN.rounds.jsonl (the directory
  // must exist); throws std::runtime_error when it cannot.
  // `ranks`: the run's rank count (the agreement host's number).
  RoundRecorder(const std::string& directory, int rank, int ranks);
  ~RoundRecorder();
  RoundRecorder(const RoundRecorder&) = delete;
  RoundRecorder& operator=(const RoundRecorder&) = delete;

  // The CPU time since the last mark goes to the current phase; `p` is
  // current from here on.
  void enter(RoundPhase p);

  // Brackets one communication call: the CPU time before it closes a
  // compute burst, the time inside it is the round's communication time.
  // Between begin and end, say what was communicated.
  void begin_communication();
  void end_communication();
  // A neighbour exchange: a count to every peer, then the bytes (MPI
  // neighbour collectives post a message to every peer, empty or not).
  void exchange(std::span<const int> peers, std::span<const std::size_t> sent,
                std::span<const std::size_t> received);
  // An exchange with every rank (sizes indexed by rank): counts by
  // all-to-all, then a message to every rank with bytes for it.
  void all_to_all(std::span<const std::size_t> sent, std::span<const std::size_t> received);
  void allreduce(std::size_t bytes);
  void broadcast(std::size_t bytes, int root);
  void gather(std::size_t bytes, int root);
  // Owner-computes rounds: a batch sent to rank `to`, a batch taken from
  // rank `from`, this rank's report to the committed floor's agreement,
  // and its result taken; `waited`: the rank had waited for what it took
  // (it could not go on without it).
  void batch_sent(int to, std::size_t bytes);
  void batch_taken(int from, std::size_t bytes, bool waited);
  void agreement_reported();
  void agreement_taken(bool waited);

  // A round's records. The CPU time between rounds is the trace's (a
  // compute burst before the next round's first communication) while the
  // loop is counted, and left out otherwise (start-up, checkpoint writes,
  // whose collective I/O is not recorded).
  void begin_round(double time);
  void end_round(std::string_view kind, double time, const RoundWork& work);

  // From here on, the CPU and wall time outside rounds is the run loop's
  // (true) or not (false: the start-up before the loop, a checkpoint's
  // write, what follows the loop). The loop's line is written when the
  // recorder closes.
  void count_loop(bool counted);

 private:
  void close_burst();
  // The CPU time since the last mark, outside any round: the loop's when
  // it is counted, dropped otherwise.
  void account_outside();
  void line(const char* format, ...) __attribute__((format(printf, 2, 3)));

  int rank_;
  int ranks_;
  std::FILE* trace_ = nullptr;
  std::FILE* rounds_ = nullptr;
  double mark_ = 0.0;
  double burst_ = 0.0;  // CPU seconds not yet written as a compute burst
  RoundPhase phase_ = RoundPhase::other;
  bool in_round_ = false;
  // The run loop: counted now, since when (wall), and its totals.
  bool loop_counted_ = false;
  double loop_counted_since_ = 0.0;
  double loop_outside_seconds_ = 0.0;  // CPU, outside rounds
  double loop_wall_seconds_ = 0.0;
  // The current round.
  std::uint64_t round_ = 0;
  double round_start_time_ = 0.0;
  double round_start_wall_ = 0.0;
  std::array<double, kRoundPhaseNames.size()> phase_seconds_{};
  double communication_seconds_ = 0.0;
  std::uint64_t bytes_sent_ = 0, messages_sent_ = 0, collectives_ = 0;
};

// One communication call bracketed for a recorder (nothing when there is
// none): made just before the call, told what the call communicates, and
// the bracket closes when it goes out of scope (an exception included).
class RecordedCommunication {
 public:
  explicit RecordedCommunication(RoundRecorder* recorder) : recorder_(recorder) {
    if (recorder_ != nullptr) recorder_->begin_communication();
  }
  ~RecordedCommunication() {
    if (recorder_ != nullptr) recorder_->end_communication();
  }
  RecordedCommunication(const RecordedCommunication&) = delete;
  RecordedCommunication& operator=(const RecordedCommunication&) = delete;

  bool recording() const { return recorder_ != nullptr; }
  void exchange(std::span<const int> peers, std::span<const std::size_t> sent, std::span<const std::size_t> received) {
    if (recorder_ != nullptr) recorder_->exchange(peers, sent, received);
  }
  void all_to_all(std::span<const std::size_t> sent, std::span<const std::size_t> received) {
    if (recorder_ != nullptr) recorder_->all_to_all(sent, received);
  }
  void allreduce(std::size_t bytes) {
    if (recorder_ != nullptr) recorder_->allreduce(bytes);
  }
  void broadcast(std::size_t bytes, int root) {
    if (recorder_ != nullptr) recorder_->broadcast(bytes, root);
  }
  void gather(std::size_t bytes, int root) {
    if (recorder_ != nullptr) recorder_->gather(bytes, root);
  }
  void batch_sent(int to, std::size_t bytes) {
    if (recorder_ != nullptr) recorder_->batch_sent(to, bytes);
  }
  void batch_taken(int from, std::size_t bytes, bool waited) {
    if (recorder_ != nullptr) recorder_->batch_taken(from, bytes, waited);
  }
  void agreement_reported() {
    if (recorder_ != nullptr) recorder_->agreement_reported();
  }
  void agreement_taken(bool waited) {
    if (recorder_ != nullptr) recorder_->agreement_taken(waited);
  }

 private:
  RoundRecorder* recorder_;
};

}  // namespace tethersim::decomposition
