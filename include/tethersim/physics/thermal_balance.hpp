#pragma once
// The balance between random impulses and drag (docs/physics.md, "Temperature:
// random impulses against drag"): the stationary temperature and diffusion
// coefficient of a lone particle heated by random impulses (a Poisson process
// of mean interval tau) and cooled by drag ticks (v -> (1 - a) v every
// `interval`, a = friction interval / mass), exactly for this discrete
// model, and the inverse: the impulse and drag parameters that give a chosen
// kT and diffusion coefficient.

#include "tethersim/physics/random_impulse.hpp"

namespace tethersim::physics {

// E[u_RI^2], the second moment of the obliquity: 1/2 in 3-D, 2/3 in 2-D, 1 in 1-D.
double obliquity_second_moment(int dimensions);

// E|dp|^2 of one random impulse: mean^2 (1 + 1/shape) E[u_RI^2].
double impulse_second_moment(const RandomImpulseSpec& spec, int dimensions);

// The friction coefficient of a drag: gamma = 6 pi mu r.
double stokes_friction(double viscosity, double radius);

// What keeps a lone particle's velocity in balance: the random impulses'
// E|dp|^2 / tau and the drag ticks' friction, interval and the mass.
struct ThermalParameters {
  double impulse_second_moment = 0.0;  // E|dp|^2
  double tau = 0.0;                    // mean interval of random impulses
  double friction = 0.0;               // gamma (6 pi mu r for Stokes drag)
  double interval = 0.0;               // drag ticks
  double mass = 1.0;
  int dimensions = 3;

  // a = gamma interval / m: the fraction of the velocity one tick removes.
  double drag_fraction() const { return friction * interval / mass; }
};

// The mean rate at which random impulses add kinetic energy: E|dp|^2 / (2 m tau).
double heating_rate(const ThermalParameters& p);

// The stationary kT = m <|v|^2> / d, averaged over time (exact):
//   kT = E|dp|^2 (2 - 2a + a^2) / (2 d tau gamma (2 - a)).
double stationary_kT(const ThermalParameters& p);

// The long-time diffusion coefficient, MSD / (2 d t) (exact):
//   D = E|dp|^2 (1 - a + a^2/3) / (2 d tau gamma^2).
double stationary_diffusion(const ThermalParameters& p);

// D gamma / kT as a function of a alone: 1 in the limit a -> 0 (Einstein),
// (1 - a + a^2/3)(2 - a) / (2 - 2a + a^2) in general, 1/3 at a = 1.
double einstein_ratio(double drag_fraction);

// The friction gamma for which the discrete model diffuses with `diffusion`
// at `kT` with drag ticks every `interval`: the root of
// gamma = (kT / D) einstein_ratio(gamma interval / m), found by bisection.
// Returns a value above mass / interval when no gamma with a <= 1 gives it.
double friction_for_diffusion(double kT, double diffusion, double interval, double mass);

// The random-impulse mean mu_RI (for the given tau and shape) that makes the
// stationary temperature kT under a drag of `friction` every `interval`.
double impulse_mean_for_kT(double kT, double friction, double interval, double mass, double tau, double shape,
                           int dimensions);

}  // namespace tethersim::physics
