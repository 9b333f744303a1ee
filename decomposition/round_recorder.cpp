// Round records: a time-independent trace and per-round lines
// (include/tethersim/decomposition/round_recorder.hpp).
#include "tethersim/decomposition/round_recorder.hpp"

#include <time.h>

#include <cerrno>
#include <cstdarg>
#include <cstring>
#include <stdexcept>

#include "wall_clock.hpp"

namespace tethersim::decomposition {

namespace {

// The trace's hosts compute at 1 Gflop/s: a CPU second is 1e9 flops.
constexpr double kFlopsPerSecond = 1e9;
// Every message of the trace carries one tag: messages between two ranks
// arrive in the order they were sent, as MPI guarantees.
constexpr int kTag = 0;
// Owner-computes rounds' batches, and the agreement's reports and results
// (tags of their own: a receive matches its sender's batches in order,
// whatever else the two exchange).
constexpr int kBatchTag = 1;
constexpr int kReportTag = 2;
constexpr int kResultTag = 3;
// What an agreement's report and result carry (CutMinimum: four doubles).
constexpr std::size_t kAgreementBytes = 4 * sizeof(double);

std::FILE* open_or_throw(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) throw std::runtime_error("--record-rounds: cannot write " + path + ": " + std::strerror(errno));
  return f;
}

std::string rank_file(const std::string& directory, int rank, const char* suffix) {
  char name[64];
  std::snprintf(name, sizeof name, "/rank-%05d%s", rank, suffix);
  return directory + name;
}

}  // namespace

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

RoundRecorder::RoundRecorder(const std::string& directory, int rank, int ranks) : rank_(rank), ranks_(ranks) {
  trace_ = open_or_throw(rank_file(directory, rank, ".ti"));
  rounds_ = open_or_throw(rank_file(directory, rank, ".rounds.jsonl"));
  line("init");
  mark_ = thread_cpu_seconds();
}

RoundRecorder::~RoundRecorder() {
  if (in_round_) enter(phase_);
  count_loop(false);
  if (burst_ > 0.0) line("compute %.9g", burst_ * kFlopsPerSecond);
  line("finalize");
  std::fprintf(rounds_, "{\"loop\": true, \"cpu_outside\": %.9g, \"wall\": %.9g}\n", loop_outside_seconds_,
               loop_wall_seconds_);
  std::fclose(trace_);
  std::fclose(rounds_);
}

void RoundRecorder::line(const char* format, ...) {
  std::fprintf(trace_, "%d ", rank_);
  va_list args;
  va_start(args, format);
  std::vfprintf(trace_, format, args);
  va_end(args);
  std::fputc('\n', trace_);
}

void RoundRecorder::enter(RoundPhase p) {
  const double now = thread_cpu_seconds();
  phase_seconds_[static_cast<std::size_t>(phase_)] += now - mark_;
  burst_ += now - mark_;
  mark_ = now;
  phase_ = p;
}

void RoundRecorder::close_burst() {
  if (in_round_) {
    enter(phase_);
  } else {
    account_outside();
  }
  if (burst_ > 0.0) line("compute %.9g", burst_ * kFlopsPerSecond);
  burst_ = 0.0;
}

void RoundRecorder::begin_communication() { close_burst(); }

void RoundRecorder::end_communication() {
  const double now = thread_cpu_seconds();
  communication_seconds_ += now - mark_;
  mark_ = now;
}

void RoundRecorder::exchange(std::span<const int> peers, std::span<const std::size_t> sent,
                             std::span<const std::size_t> received) {
  // The counts, then the bytes: two rounds of messages to every peer.
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t k = 0; k < peers.size(); ++k) {
      line("irecv %d %d %zu", peers[k], kTag, pass == 0 ? sizeof(int) : received[k]);
    }
    for (std::size_t k = 0; k < peers.size(); ++k) {
      const std::size_t bytes = pass == 0 ? sizeof(int) : sent[k];
      line("isend %d %d %zu", peers[k], kTag, bytes);
      bytes_sent_ += bytes;
      ++messages_sent_;
    }
    line("waitall");
  }
}

void RoundRecorder::all_to_all(std::span<const std::size_t> sent, std::span<const std::size_t> received) {
  line("alltoall %zu %zu", sizeof(int), sizeof(int));
  ++collectives_;
  for (std::size_t r = 0; r < received.size(); ++r) {
    if (received[r] > 0 && static_cast<int>(r) != rank_) line("irecv %zu %d %zu", r, kTag, received[r]);
  }
  for (std::size_t r = 0; r < sent.size(); ++r) {
    if (sent[r] == 0 || static_cast<int>(r) == rank_) continue;
    line("isend %zu %d %zu", r, kTag, sent[r]);
    bytes_sent_ += sent[r];
    ++messages_sent_;
  }
  line("waitall");
}

void RoundRecorder::allreduce(std::size_t bytes) {
  line("allreduce %zu 0", bytes);
  ++collectives_;
}

void RoundRecorder::broadcast(std::size_t bytes, int root) {
  line("bcast %zu %d", bytes, root);
  ++collectives_;
}

void RoundRecorder::gather(std::size_t bytes, int root) {
  line("gather %zu %zu %d", bytes, bytes, root);
  ++collectives_;
}

void RoundRecorder::batch_sent(int to, std::size_t bytes) {
  line("isend %d %d %zu", to, kBatchTag, bytes);
  bytes_sent_ += bytes;
  ++messages_sent_;
}

void RoundRecorder::batch_taken(int from, std::size_t bytes, bool waited) {
  line("%s %d %d %zu", waited ? "recv" : "irecv", from, kBatchTag, bytes);
}

void RoundRecorder::agreement_reported() { line("isend %d %d %zu", ranks_, kReportTag, kAgreementBytes); }

void RoundRecorder::agreement_taken(bool waited) {
  line("%s %d %d %zu", waited ? "recv" : "irecv", ranks_, kResultTag, kAgreementBytes);
}

void RoundRecorder::account_outside() {
  const double now = thread_cpu_seconds();
  if (loop_counted_) {
    loop_outside_seconds_ += now - mark_;
    burst_ += now - mark_;
  }
  mark_ = now;
}

void RoundRecorder::count_loop(bool counted) {
  if (counted == loop_counted_) return;
  if (!in_round_) account_outside();
  const double wall = seconds_now();
  if (loop_counted_) loop_wall_seconds_ += wall - loop_counted_since_;
  loop_counted_since_ = wall;
  loop_counted_ = counted;
}

void RoundRecorder::begin_round(double time) {
  if (!in_round_) account_outside();
  in_round_ = true;
  phase_ = RoundPhase::other;
  phase_seconds_ = {};
  communication_seconds_ = 0.0;
  bytes_sent_ = messages_sent_ = collectives_ = 0;
  round_start_time_ = time;
  round_start_wall_ = seconds_now();
}

void RoundRecorder::end_round(std::string_view kind, double time, const RoundWork& work) {
  enter(RoundPhase::other);
  in_round_ = false;
  double cpu = 0.0;
  for (double s : phase_seconds_) cpu += s;
  std::fprintf(rounds_, "{\"round\": %llu, \"kind\": \"%.*s\", \"from\": %.17g, \"to\": %.17g, \"cpu\": %.9g",
               static_cast<unsigned long long>(round_), static_cast<int>(kind.size()), kind.data(),
               round_start_time_, time, cpu);
  for (std::size_t k = 0; k < kRoundPhaseNames.size(); ++k) {
    std::fprintf(rounds_, ", \"cpu_%.*s\": %.9g", static_cast<int>(kRoundPhaseNames[k].size()),
                 kRoundPhaseNames[k].data(), phase_seconds_[k]);
  }
  std::fprintf(rounds_,
               ", \"communication\": %.9g, \"wall\": %.9g, \"bytes_sent\": %llu, \"messages_sent\": %llu, "
               "\"collectives\": %llu, \"executed\": %llu, \"duplicated\": %llu, \"rolled_back\": %llu, "
               "\"predictions\": %llu}\n",
               communication_seconds_, seconds_now() - round_start_wall_,
               static_cast<unsigned long long>(bytes_sent_), static_cast<unsigned long long>(messages_sent_),
               static_cast<unsigned long long>(collectives_), static_cast<unsigned long long>(work.executed),
               static_cast<unsigned long long>(work.duplicated), static_cast<unsigned long long>(work.rolled_back),
               static_cast<unsigned long long>(work.predictions));
  ++round_;
}

}  // namespace tethersim::decomposition
