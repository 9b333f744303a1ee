#pragma once
// Certified windows (docs/distribution.md, "A certified round"): before a
// window runs, every rank proves from speed bounds, agreed with its
// neighbours, which particles can meet in it (decomposition/certification);
// components with a particle owned here run here, the rest of the halo
// stays frozen, and the changed particles go to every rank whose window
// holds them. The protocol of `--windows certified`, and what speculative
// windows give way to when they keep failing.

#include <memory>
#include <utility>
#include <vector>

#include "tethersim/decomposition/certification.hpp"
#include "tethersim/decomposition/window_length.hpp"
#include "tethersim/decomposition/window_protocol.hpp"

namespace tethersim::decomposition {

class DistributedEngine;

class CertifiedWindows final : public WindowProtocol {
 public:
  explicit CertifiedWindows(DistributedEngine& engine);
  ~CertifiedWindows() override;
  // Certifies a window (halving it until it certifies, or giving it to a
  // fallback), runs it and sends what changed. Always true.
  bool round(double end) override;
  // After a fallback: the next window is back to the usual length.
  void after_fallback();

 private:
  // Certification of [time, time + length) on all ranks; true when every
  // rank certified it.
  bool certify(double length);
  // Runs the certified window to `until`; false when it was halted (and
  // undone on every rank).
  bool execute(double until);
  // Sends owned particles' bounds to the ranks holding them as ghosts and
  // returns what the neighbours sent (collective over the neighbourhood).
  std::vector<SpeedBound> exchange_bounds(const std::vector<std::pair<int, SpeedBound>>& bounds);

  DistributedEngine& d_;  // the mechanism
  std::unique_ptr<Certifier> certifier_;
  WindowLength length_{kCertifiedWindowLengths};
  int rounds_since_ceiling_ = 0;  // since the engine's speed ceiling was exact
};

}  // namespace tethersim::decomposition
