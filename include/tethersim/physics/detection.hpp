#pragma once
// Collision detection between two particles on straight-line trajectories
// (docs/physics.md, "Event detection").
//
// Inputs are the separation dx = u_B - u_A and the relative velocity
// dv = v_B - v_A at one reference time; results are times after that
// reference time, kInfinity meaning "no event". Callers pass the pair in
// canonical order (lower id as A) so every process computes the same bits.

#include <algorithm>
#include <cmath>

#include "tethersim/physics/vector.hpp"

namespace tethersim::physics {

// Coefficients of |dx + dv t|^2 - D^2 = a t^2 + b t + c and the discriminant.
struct Quadratic {
  double a;
  double b;
  double c;
  double d;
};

inline Quadratic detection_quadratic(const Vec3& dx, const Vec3& dv, double distance) {
  Quadratic q{};
  q.a = dv.dot(dv);
  q.b = 2.0 * dx.dot(dv);
  q.c = dx.dot(dx) - distance * distance;
  q.d = q.b * q.b - 4.0 * q.a * q.c;
  return q;
}

// numer / denom unless the quotient reaches dt_max (tiny denominators).
inline double guarded_quotient(double numer, double denom, double dt_max) {
  if (numer >= denom * dt_max) return kInfinity;
  return numer / denom;
}

// Below this cosine between separation and relative velocity, a pair in
// contact is in resting contact, not approaching (2^-40: round-off of the
// dot products is some 2^-52; a real approach this close to grazing cannot
// be told from round-off).
inline constexpr double kRestingContactCosine = 0x1p-40;

// A lower bound on when a pair on these lines can come within `reach`,
// robust to rounding of dx and dv far below reach: 0 when it is within
// reach already and not firmly receding; kInfinity when it recedes firmly
// (its distance grows, at an angle well away from a right angle, so that a
// rounding of dv cannot turn it back); else c / (-2b), where its squared
// distance d^2 + 2bt + at^2 would reach reach^2 without the at^2 >= 0 that
// only keeps it further (no square root: a bound is all that is asked).
// Gravity ticks skip the sector walk of particles whose pairs all stay
// beyond reach until the next tick.
inline double time_until_within(const Vec3& dx, const Vec3& dv, double reach) {
  const double b = dx.dot(dv);
  const double d2 = dx.squaredNorm();
  const double c = d2 - reach * reach;
  if (b >= 0.0) {
    if (c > 0.0) return kInfinity;
    return b * b > 1e-12 * d2 * dv.squaredNorm() ? kInfinity : 0.0;
  }
  if (c <= 0.0) return 0.0;
  return c / (-2.0 * b);
}

// Time until the centres come within the blocking distance while approaching.
// Overlapping and approaching -> 0; overlapping and receding -> kInfinity
// (no correction is attempted); D = 0 -> kInfinity. dt_max guards against
// tiny denominators: any time >= dt_max is reported as kInfinity. A pair
// touching or overlapping whose approach is within kRestingContactCosine of
// grazing never collides: after a collision with c = 0 the pair's normal
// velocity is round-off, too small for the impulse mu v_n to change either
// velocity, and the same collision would come again at once without end.
// Inline: the engine calls it for every candidate pair, and most pairs
// recede (b >= 0), which is decided before the rest of the quadratic.
inline double time_to_blocking(const Vec3& dx, const Vec3& dv, double blocking_distance,
                               double dt_max) {
  if (blocking_distance == 0.0) return kInfinity;
  // Receding or grazing (b = 2 dx.dv >= 0): decided before the quadratic.
  if (dx.dot(dv) >= 0.0) return kInfinity;
  const Quadratic q = detection_quadratic(dx, dv, blocking_distance);
  if (q.d < 0.0) return kInfinity;
  if (q.c <= 0.0) {
    const double approach = dx.dot(dv);
    if (approach * approach <= kRestingContactCosine * kRestingContactCosine * q.a * dx.dot(dx)) {
      return kInfinity;
    }
  }
  // The first root; negative numerators (overlap, round-off) collide now.
  const double numer = std::max(-q.b - std::sqrt(q.d), 0.0);
  return guarded_quotient(numer, 2.0 * q.a, dt_max);
}

// Time until the centres reach the tethering distance while separating.
// Inside: the exit time. Taut (outside, not approaching) -> 0 unless the pair
// parts too slowly to matter (b >= a dt_max). Outside and never getting
// inside: the time of closest approach, where the collision becomes a revolve.
// D = kInfinity -> kInfinity. Inline as the blocking detection is: a
// membrane predicts every tether of every particle it moves, each with a
// finite time.
inline double time_to_tethering(const Vec3& dx, const Vec3& dv, double tethering_distance, double dt_max) {
  if (is_infinite(tethering_distance)) return kInfinity;
  const Quadratic q = detection_quadratic(dx, dv, tethering_distance);
  if (q.b >= 0.0 && q.c >= 0.0) {
    // Taut: collide now, unless the pair parts too slowly to matter.
    return q.b >= q.a * dt_max ? kInfinity : 0.0;
  }
  // The second root; d < 0 (outside, passing by) gives the closest approach.
  const double numer = std::max(-q.b + std::sqrt(std::max(q.d, 0.0)), 0.0);
  return guarded_quotient(numer, 2.0 * q.a, dt_max);
}

}  // namespace tethersim::physics
