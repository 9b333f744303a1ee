#include "tethersim/physics/random_impulse.hpp"

#include <cmath>

namespace tethersim::physics {

double draw_obliquity(CounterRng& rng, int dimensions) {
  switch (dimensions) {
    case 3: return std::sqrt(rng.uniform());
    case 2: {
      const double u = rng.uniform();
      return std::sqrt(1.0 - u * u);
    }
    default: return 1.0;
  }
}

Vec3 draw_direction(CounterRng& rng, int dimensions) {
  switch (dimensions) {
    case 3: {
      const double z = 2.0 * rng.uniform() - 1.0;
      const double phi = 2.0 * M_PI * rng.uniform();
      const double r = std::sqrt(1.0 - z * z);
      return {r * std::cos(phi), r * std::sin(phi), z};
    }
    case 2: {
      const double phi = 2.0 * M_PI * rng.uniform();
      return {std::cos(phi), std::sin(phi), 0.0};
    }
    default: return {(rng.next_u64() & 1U) ? 1.0 : -1.0, 0.0, 0.0};
  }
}

double draw_random_gap(std::uint64_t seed, std::uint64_t particle_id, std::uint64_t impulse_index,
                       const RandomImpulseSpec& spec) {
  CounterRng rng(seed, particle_id, RandomStream::random_impulse, impulse_index);
  return draw_exponential(rng, spec.tau);
}

RandomImpulse draw_random_impulse(std::uint64_t seed, std::uint64_t particle_id,
                                  std::uint64_t impulse_index, const RandomImpulseSpec& spec,
                                  int dimensions) {
  CounterRng rng(seed, particle_id, RandomStream::random_impulse, impulse_index);
  RandomImpulse impulse;
  impulse.gap = draw_exponential(rng, spec.tau);
  const double magnitude = draw_gamma(rng, spec.shape, spec.mean / spec.shape);
  const double obliquity = draw_obliquity(rng, dimensions);
  impulse.dp = (magnitude * obliquity) * draw_direction(rng, dimensions);
  return impulse;
}

}  // namespace tethersim::physics
