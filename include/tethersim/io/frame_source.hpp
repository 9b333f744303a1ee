#pragma once
// What a rank puts in a trajectory frame: its particles, handed out in id
// order a slab at a time, so that a frame is written without a copy of them
// all beside the rows of one round (56 bytes per particle: 56 MB for 10^6
// particles on one rank), and its tethers.

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "tethersim/model/initial_state.hpp"

namespace tethersim {

struct FrameParticle {
  ParticleId id = 0;
  Vec3 position = Vec3::Zero();
  Vec3 velocity = Vec3::Zero();
};

struct FrameTether {
  ParticleId a = 0;  // a < b
  ParticleId b = 0;
};

class FrameSource {
 public:
  virtual ~FrameSource() = default;
  virtual std::size_t size() const = 0;
  // The id of particle k: strictly increasing in k.
  virtual ParticleId id(std::size_t k) const = 0;
  // Particles [begin, end) into `out` (replaced).
  virtual void read(std::size_t begin, std::size_t end, std::vector<FrameParticle>& out) const = 0;
};

// Particles already made (tests and tools), put in id order here.
class FrameParticleList final : public FrameSource {
 public:
  explicit FrameParticleList(std::vector<FrameParticle> particles) : particles_(std::move(particles)) {
    std::sort(particles_.begin(), particles_.end(),
              [](const FrameParticle& a, const FrameParticle& b) { return a.id < b.id; });
  }
  std::size_t size() const override { return particles_.size(); }
  ParticleId id(std::size_t k) const override { return particles_[k].id; }
  void read(std::size_t begin, std::size_t end, std::vector<FrameParticle>& out) const override {
    out.assign(particles_.begin() + static_cast<std::ptrdiff_t>(begin),
               particles_.begin() + static_cast<std::ptrdiff_t>(end));
  }

 private:
  std::vector<FrameParticle> particles_;
};

}  // namespace tethersim
