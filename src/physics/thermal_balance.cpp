#include "tethersim/physics/thermal_balance.hpp"

#include <cmath>

namespace tethersim::physics {

double obliquity_second_moment(int dimensions) {
  switch (dimensions) {
    case 3: return 0.5;        // E[U] for u = sqrt(U)
    case 2: return 2.0 / 3.0;  // E[1 - U^2] for u = sqrt(1 - U^2)
    default: return 1.0;
  }
}

double impulse_second_moment(const RandomImpulseSpec& spec, int dimensions) {
  // Gamma(k, mu/k): variance mu^2/k plus the squared mean.
  return spec.mean * spec.mean * (1.0 + 1.0 / spec.shape) * obliquity_second_moment(dimensions);
}

double stokes_friction(double viscosity, double radius) { return 6.0 * M_PI * viscosity * radius; }

double heating_rate(const ThermalParameters& p) {
  return p.impulse_second_moment / (2.0 * p.mass * p.tau);
}

double stationary_kT(const ThermalParameters& p) {
  const double a = p.drag_fraction();
  return p.impulse_second_moment * (2.0 - 2.0 * a + a * a) /
         (2.0 * p.dimensions * p.tau * p.friction * (2.0 - a));
}

double stationary_diffusion(const ThermalParameters& p) {
  const double a = p.drag_fraction();
  return p.impulse_second_moment * (1.0 - a + a * a / 3.0) /
         (2.0 * p.dimensions * p.tau * p.friction * p.friction);
}

double einstein_ratio(double a) { return (1.0 - a + a * a / 3.0) * (2.0 - a) / (2.0 - 2.0 * a + a * a); }

double friction_for_diffusion(double kT, double diffusion, double interval, double mass) {
  const double einstein = kT / diffusion;
  // f(gamma) = gamma - einstein * ratio(gamma interval / m) rises with gamma
  // (the ratio falls from 1 at a = 0 to 1/3 at a = 1), so the root lies
  // between einstein / 3 and einstein, and below mass / interval (a <= 1)
  // when there is one.
  const double most = mass / interval;
  double lo = einstein / 3.0;
  double hi = std::fmin(einstein, most);
  if (lo > most) return lo;
  auto excess = [&](double gamma) { return gamma - einstein * einstein_ratio(gamma * interval / mass); };
  if (excess(hi) < 0.0) return std::nextafter(most, INFINITY);
  // A fixed number of halvings: the same bits everywhere.
  for (int k = 0; k < 200 && lo < hi; ++k) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (excess(mid) < 0.0 ? lo : hi) = mid;
  }
  return hi;
}

double impulse_mean_for_kT(double kT, double friction, double interval, double mass, double tau, double shape,
                           int dimensions) {
  const double a = friction * interval / mass;
  const double second_moment =
      2.0 * dimensions * tau * friction * kT * (2.0 - a) / (2.0 - 2.0 * a + a * a);
  return std::sqrt(second_moment / ((1.0 + 1.0 / shape) * obliquity_second_moment(dimensions)));
}

}  // namespace tethersim::physics
