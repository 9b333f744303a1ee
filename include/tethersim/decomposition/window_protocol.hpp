#pragma once
// A window protocol: one way of making a window of the distributed engine
// exact (docs/distribution.md). Speculative windows run first and check
// afterwards (speculative_windows.hpp); certified windows prove first
// (certified_windows.hpp). Each protocol keeps only its own state (its
// window lengths, its failures, what its check found) and works through the
// mechanism every protocol shares, which is DistributedEngine's: the rank's
// engine over its block and halo, the exchanges, the agreements, fallbacks
// and balance. DistributedEngine picks the protocol of each round.

namespace tethersim::decomposition {

class WindowProtocol {
 public:
  virtual ~WindowProtocol() = default;
  // One round: a window that ends at most at `end` is run, made exact and
  // kept (the run's time moves on), or undone; or the round gives the
  // window to a fallback. Collective. False when the protocol gives way:
  // a certified round should take the next window.
  virtual bool round(double end) = 0;
};

}  // namespace tethersim::decomposition
