#pragma once
// What a frame takes from an engine: the particles this process accounts for
// (alive), read in id order when the writer asks for them, and the tethers
// it counts.

#include <vector>

#include "tethersim/engine/engine.hpp"
#include "tethersim/io/frame_source.hpp"

namespace tethersim::runtime {

// Holds an index per particle (4 bytes), not the particles' values: a
// frame's rows are made a round at a time.
class EngineFrameParticles final : public FrameSource {
 public:
  // The engine must not change while the source is read.
  EngineFrameParticles(const engine::Engine& engine, double t);
  std::size_t size() const override { return order_.size(); }
  ParticleId id(std::size_t k) const override { return engine_.particles().id[order_[k]]; }
  void read(std::size_t begin, std::size_t end, std::vector<FrameParticle>& out) const override;

 private:
  const engine::Engine& engine_;
  double t_;
  std::vector<engine::Index> order_;
};

// The tethers whose lower-id particle this process counts.
std::vector<FrameTether> accounted_tethers(const engine::Engine& engine);

// The same tethers, a group per particle in id order (an index per
// particle, 4 bytes, not the pairs), for one process's frames.
class EngineFrameTethers final : public FrameTetherSource {
 public:
  // The engine must not change while the source is read.
  explicit EngineFrameTethers(const engine::Engine& engine);
  std::size_t groups() const override { return order_.size(); }
  void read(std::size_t begin, std::size_t end, std::vector<FrameTether>& out) const override;

 private:
  const engine::Engine& engine_;
  std::vector<engine::Index> order_;
};

}  // namespace tethersim::runtime
