#pragma once
// A particle whose every byte matters, for tests of the particle's external
// forms: a negative zero, a subnormal, an infinity, a counter and an index
// past 2^31 and 2^32, a negative sector.

#include <cmath>
#include <cstdint>
#include <limits>

#include "tethersim/engine/snapshot.hpp"

namespace tethersim::testing {

inline engine::ParticleSnapshot awkward_particle(ParticleId id, SpeciesIndex species) {
  engine::ParticleSnapshot p;
  p.id = id;
  p.species = species;
  p.alive = 1;
  p.t0 = 1.0 / 3.0;
  p.u0 = Vec3(-0.0, std::nextafter(1.0, 2.0), 1e-300);
  p.v = Vec3(std::numeric_limits<double>::denorm_min(), -7.25, 3.0e10);
  p.counter = 4000000000u;
  p.sector = {3, -1, 7};
  p.ri_index = (std::uint64_t{1} << 60) + 5;
  p.ri_time = std::numeric_limits<double>::infinity();
  return p;
}

}  // namespace tethersim::testing
