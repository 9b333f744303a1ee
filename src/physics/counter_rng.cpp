#include "tethersim/physics/counter_rng.hpp"

#include <cmath>

#include "tethersim/physics/vector.hpp"

namespace tethersim::physics {

CounterRng::CounterRng(std::uint64_t seed, std::uint64_t particle_id, RandomStream stream,
                       std::uint64_t index)
    : key_{{seed, particle_id}},
      counter_{{static_cast<std::uint64_t>(stream), index, 0, 0}} {}

std::uint64_t CounterRng::next_u64() {
  if (used_ == 4) {
    block_ = Philox()(counter_, key_);
    ++counter_[2];  // the block number within this (stream, index)
    used_ = 0;
  }
  return block_[used_++];
}

double CounterRng::uniform() {
  return static_cast<double>(next_u64() >> 11) * 0x1p-53;
}

double CounterRng::normal() {
  if (has_spare_normal_) {
    has_spare_normal_ = false;
    return spare_normal_;
  }
  const double radius = std::sqrt(-2.0 * std::log(uniform_positive()));
  const double angle = 2.0 * M_PI * uniform();
  spare_normal_ = radius * std::sin(angle);
  has_spare_normal_ = true;
  return radius * std::cos(angle);
}

double draw_exponential(CounterRng& rng, double mean) {
  if (is_infinite(mean)) return kInfinity;
  return -mean * std::log(rng.uniform_positive());
}

double draw_gamma(CounterRng& rng, double shape, double scale) {
  if (shape < 1.0) {
    // Gamma(k) = Gamma(k + 1) U^(1/k).
    const double u = rng.uniform_positive();
    return draw_gamma(rng, shape + 1.0, scale) * std::pow(u, 1.0 / shape);
  }
  // Marsaglia & Tsang (2000).
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    const double x = rng.normal();
    double v = 1.0 + c * x;
    if (v <= 0.0) continue;
    v = v * v * v;
    const double u = rng.uniform_positive();
    const double x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2 || std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v))) {
      return d * v * scale;
    }
  }
}

}  // namespace tethersim::physics
