#pragma once
// The throttle of owner-computes rounds (docs/distribution.md,
// "Owner-computes rounds"): how far past the agreed floor a rank may run,
// counted in its own events (`optimism`) and turned into simulated time
// with its measured time per event. Each time the rank has run
// kAdaptEvery events, the share of them undone since adapts it, as the
// speculative windows' controller adapts their length: grown below
// kCalmShare, shrunk above twice that. Results never depend on it.
//
// A testing switch, TETHERSIM_OWNER_OPTIMISM=k, holds it at k (1: ranks
// wait on each other almost at every event; 1e9: no throttle).
#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "tethersim/physics/vector.hpp"

namespace tethersim::decomposition {

class OwnerThrottle {
 public:
  OwnerThrottle() {
    if (const char* fixed = std::getenv("TETHERSIM_OWNER_OPTIMISM")) {
      optimism_ = std::atof(fixed);
      fixed_ = true;
    }
  }

  // Events run, and events undone, since the last look.
  void ran(std::uint64_t events) { ran_ += events; }
  void undone(std::uint64_t events) { undone_ += events; }

  // Adapts the optimism once enough has run since it last did.
  void adapt() {
    if (ran_ < kAdaptEvery || fixed_) return;
    const double share = static_cast<double>(undone_) / static_cast<double>(ran_);
    if (share < kCalmShare) optimism_ = std::min(kMostOptimism, optimism_ * kGrow);
    if (share > 2 * kCalmShare) optimism_ = std::max(kLeastOptimism, optimism_ * kShrink);
    ran_ = undone_ = 0;
  }

  // The stretch past the floor in simulated time, for a rank that has kept
  // `kept` events over `covered` time units this round (infinite before it
  // has kept any: the first turns are short anyway).
  double stretch(std::uint64_t kept, double covered) const {
    if (kept == 0 || !(covered > 0.0)) return kInfinity;
    return optimism_ * covered / static_cast<double>(kept);
  }

 private:
  static constexpr double kFirstOptimism = 256.0;
  static constexpr double kLeastOptimism = 8.0;
  static constexpr double kMostOptimism = 1e7;
  static constexpr std::uint64_t kAdaptEvery = 2048;
  static constexpr double kCalmShare = 0.05;
  static constexpr double kGrow = 1.1;
  static constexpr double kShrink = 0.7;

  double optimism_ = kFirstOptimism;
  bool fixed_ = false;
  std::uint64_t ran_ = 0;
  std::uint64_t undone_ = 0;
};

}  // namespace tethersim::decomposition
