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
#include "tethersim/model/pair_order.hpp"

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

// A frame's tethers as a sequence of groups (an engine's particles in id
// order, each with the tethers whose lower-id end it is), in ascending
// (a, b) order over the whole sequence. One process writes them a slab of
// groups at a time, so that a membrane's millions of tethers are never all
// held beside the engine.
class FrameTetherSource {
 public:
  virtual ~FrameTetherSource() = default;
  virtual std::size_t groups() const = 0;
  // The tethers of groups [begin, end), in (a, b) order, into `out`
  // (replaced).
  virtual void read(std::size_t begin, std::size_t end, std::vector<FrameTether>& out) const = 0;
  // Every tether at once (several ranks exchange them whole); a source that
  // holds them hands them over (it is empty afterwards).
  virtual std::vector<FrameTether> take_all() {
    std::vector<FrameTether> all;
    read(0, groups(), all);
    return all;
  }
};

// Tethers already made (several ranks, tests and tools), one a group,
// sorted here.
class FrameTetherList final : public FrameTetherSource {
 public:
  FrameTetherList() = default;
  explicit FrameTetherList(std::vector<FrameTether> tethers) : tethers_(std::move(tethers)) {
    std::sort(tethers_.begin(), tethers_.end(), by_ends);
  }
  std::size_t groups() const override { return tethers_.size(); }
  void read(std::size_t begin, std::size_t end, std::vector<FrameTether>& out) const override {
    out.assign(tethers_.begin() + static_cast<std::ptrdiff_t>(begin),
               tethers_.begin() + static_cast<std::ptrdiff_t>(end));
  }
  std::vector<FrameTether> take_all() override { return std::move(tethers_); }

 private:
  std::vector<FrameTether> tethers_;
};

}  // namespace tethersim
