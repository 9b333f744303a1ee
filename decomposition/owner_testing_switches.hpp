#pragma once
// Testing switches of owner-computes rounds, read from the environment
// once per round. Results never depend on them: a run with them must end
// with the same bits as one without (the mpi.sync.*owner* tests).
//   TETHERSIM_OWNER_DELAY=p      each batch is held back, with probability
//                                p, for 1 to 8 loop turns (a channel stays
//                                FIFO: what follows a held batch waits
//                                behind it), so outcomes, withdrawals and
//                                the agreement's markers come late;
//   TETHERSIM_OWNER_FAIL_RATE=p  at each turn, with probability p, the
//                                rank is undone from a random time between
//                                the committed floor and its latest event;
//   TETHERSIM_OWNER_ROUND_EVENTS=n  a round ends at the committed floor
//                                once the ranks ran n events in it (not 20
//                                per particle, at least 10^5), so that small
//                                runs end rounds between their stops too.
//   TETHERSIM_OWNER_SIGNAL_AT_TICK=r  rank r sends itself SIGTERM at its
//                                first turn in front of a periodic tick
//                                that the agreed floor has reached (it
//                                has not run the tick; others may have):
//                                the stop must hand back one state.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <random>
#include <vector>

#include "tethersim/decomposition/byte_buffer.hpp"

namespace tethersim::decomposition {

class OwnerTestingSwitches {
 public:
  OwnerTestingSwitches(int rank, std::uint64_t round, std::size_t channels)
      : delay_(rate("TETHERSIM_OWNER_DELAY")),
        fail_(rate("TETHERSIM_OWNER_FAIL_RATE")),
        round_events_(rate("TETHERSIM_OWNER_ROUND_EVENTS")),
        signals_at_tick_(names_rank("TETHERSIM_OWNER_SIGNAL_AT_TICK", rank)),
        held_(channels),
        random_(0x5851f42d4c957f2dull * (round + 1) + static_cast<std::uint64_t>(rank)) {}

  // Whether this rank stops itself in front of an agreed tick.
  bool signals_at_tick() const { return signals_at_tick_; }
  // The events after which a round ends (0: the round's own rule).
  double round_events() const { return round_events_; }
  bool delays() const { return delay_ > 0.0; }
  // Whether a batch to channel k must wait now (it is held, or one before
  // it is).
  bool hold(std::size_t k) { return delay_ > 0.0 && (!held_[k].empty() || unit() < delay_); }
  void keep(std::size_t k, Bytes batch) {
    held_[k].push_back({std::move(batch), turn_ + 1 + random_() % 8});
  }
  // The next loop turn: send(k, batch) for every held batch now due (all
  // of them with `every`), each channel's in order.
  template <typename Send>
  void release(bool every, Send&& send) {
    ++turn_;
    for (std::size_t k = 0; k < held_.size(); ++k) {
      while (!held_[k].empty() && (every || held_[k].front().due <= turn_)) {
        send(k, held_[k].front().batch);
        held_[k].pop_front();
      }
    }
  }
  bool holding() const {
    for (const auto& q : held_) {
      if (!q.empty()) return true;
    }
    return false;
  }
  // A time to undo from, between `floor` and `latest`, when this turn
  // forces a rollback.
  bool fail_now() { return fail_ > 0.0 && unit() < fail_; }
  double between(double floor, double latest) { return floor + unit() * (latest - floor); }

 private:
  struct Held {
    Bytes batch;
    std::uint64_t due;
  };
  static bool names_rank(const char* name, int rank) {
    const char* v = std::getenv(name);
    return v != nullptr && std::atoi(v) == rank;
  }
  static double rate(const char* name) {
    const char* v = std::getenv(name);
    return v != nullptr ? std::atof(v) : 0.0;
  }
  double unit() { return std::uniform_real_distribution<double>(0.0, 1.0)(random_); }

  double delay_;
  double fail_;
  double round_events_;
  bool signals_at_tick_;
  std::vector<std::deque<Held>> held_;
  std::mt19937_64 random_;
  std::uint64_t turn_ = 0;
};

}  // namespace tethersim::decomposition
