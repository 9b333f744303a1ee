#pragma once
// A rank's particles handed out in id order a slab at a time: a checkpoint
// writes them without a decoded copy of all of them beside its rows (105 MB
// for 10^6 particles on one rank).

#include <cstddef>
#include <utility>
#include <vector>

#include "tethersim/engine/snapshot.hpp"

namespace tethersim::engine {

class ParticleSource {
 public:
  virtual ~ParticleSource() = default;
  virtual std::size_t size() const = 0;
  virtual std::size_t reactions() const = 0;
  // Particles [begin, end) into `out` and their Phi values into phi[r]
  // (both replaced; phi[r][k - begin] for particle k, kInfinity when not a
  // subject of reaction r).
  virtual void read(std::size_t begin, std::size_t end, std::vector<ParticleSnapshot>& out,
                    std::vector<std::vector<double>>& phi) const = 0;
};

// The particles of a snapshot, already decoded (taken from it).
class SnapshotParticles final : public ParticleSource {
 public:
  explicit SnapshotParticles(EngineSnapshot& s)
      : particles_(std::move(s.particles)), phi_(std::move(s.reaction_times)) {
    s.particles.clear();
    s.reaction_times.clear();
  }
  std::size_t size() const override { return particles_.size(); }
  std::size_t reactions() const override { return phi_.size(); }
  void read(std::size_t begin, std::size_t end, std::vector<ParticleSnapshot>& out,
            std::vector<std::vector<double>>& phi) const override {
    out.assign(particles_.begin() + static_cast<std::ptrdiff_t>(begin),
               particles_.begin() + static_cast<std::ptrdiff_t>(end));
    phi.resize(phi_.size());
    for (std::size_t r = 0; r < phi_.size(); ++r) {
      phi[r].assign(phi_[r].begin() + static_cast<std::ptrdiff_t>(begin),
                    phi_[r].begin() + static_cast<std::ptrdiff_t>(end));
    }
  }

 private:
  std::vector<ParticleSnapshot> particles_;
  std::vector<std::vector<double>> phi_;
};

}  // namespace tethersim::engine
