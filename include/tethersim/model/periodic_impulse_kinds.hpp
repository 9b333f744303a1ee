#pragma once
// The kinds of periodic impulse, each in one place: its name in model files,
// the impulse it gives a particle, what one tick can add to a component's
// speed bound (certified windows), and the checks its parameters need. The
// engine, the certifier, validation and the model reader ask the kind; none
// of them knows gravity or drag itself.
//
// Adding a kind: an enumerator in PeriodicImpulseKind, its parameters in
// PeriodicImpulse (its numbers listed in `numbers` for validation), a
// struct below with the same members as GravityImpulse, a case
// in visit_periodic_kind and a name in kPeriodicImpulseNames; then its keys
// in the model reader (io/read_interactions.cpp) and docs/model-format.md.
// Dispatch is static (a switch over the kinds, then inlined calls).

#include <array>
#include <cmath>
#include <string>
#include <utility>

#include "tethersim/model/number_format.hpp"
#include "tethersim/model/periodic_impulse.hpp"
#include "tethersim/model/species.hpp"
#include "tethersim/physics/external_impulse.hpp"

namespace tethersim {

// A parameter of a periodic impulse that does not suit a species it moves:
// the key (under external.N) and what is wrong (empty: nothing).
struct PeriodicImpulseProblem {
  const char* key = "";
  std::string message;
};

// A number among a kind's own parameters and what validation requires of
// it (the common ones, interval and start, are checked for every kind).
struct PeriodicImpulseNumber {
  const char* key;
  double PeriodicImpulse::*value;
  bool non_negative;  // else only a finite number
};

// Gravity: m g dt every dt (docs/physics.md, "Periodic impulses").
struct GravityImpulse {
  static constexpr PeriodicImpulseKind kind = PeriodicImpulseKind::gravity;
  static constexpr const char* name = "gravity";
  static constexpr std::array<PeriodicImpulseNumber, 0> numbers{};

  static Vec3 impulse(const PeriodicImpulse& p, const Species& s, const Vec3& /*velocity*/) {
    return physics::gravity_impulse(s.mass, p.acceleration, p.interval);
  }
  // `ticks` ticks on a component of total mass `mass`, whose kinetic energy
  // is at most E: each moves the component's momentum by M |g| dt, so
  // sqrt(E) grows by at most sqrt(M / 2) |g| dt per tick (`root` collects
  // such growth of sqrt(E); `energy` growth of E itself).
  static void add_tick_bound(const PeriodicImpulse& p, double mass, double ticks, double& /*energy*/,
                             double& root) {
    root += ticks * std::sqrt(0.5 * mass) * p.acceleration.norm() * p.interval;
  }
  // What makes the kind unusable on species `s`.
  static PeriodicImpulseProblem species_problem(const PeriodicImpulse&, const Species&) { return {}; }
};

// Stokes drag: 6 pi mu r (v_fluid - v) dt every dt.
struct DragImpulse {
  static constexpr PeriodicImpulseKind kind = PeriodicImpulseKind::drag;
  static constexpr const char* name = "drag";
  static constexpr std::array numbers{PeriodicImpulseNumber{"viscosity", &PeriodicImpulse::viscosity, true}};

  static Vec3 impulse(const PeriodicImpulse& p, const Species& s, const Vec3& velocity) {
    return physics::stokes_drag_impulse(p.viscosity, s.radius, p.fluid_velocity, velocity, p.interval);
  }
  // Drag pulls each velocity towards v_fluid by at most the whole
  // difference (species_problem refuses more), so a tick leaves a
  // component of mass M with at most E + M |v_fluid|^2 / 2.
  static void add_tick_bound(const PeriodicImpulse& p, double mass, double ticks, double& energy,
                             double& /*root*/) {
    energy += ticks * 0.5 * mass * p.fluid_velocity.squaredNorm();
  }
  static PeriodicImpulseProblem species_problem(const PeriodicImpulse& p, const Species& s) {
    if (s.infinite_mass() || !(p.interval > 0.0)) return {};
    const double fraction = physics::stokes_drag_fraction(p.viscosity, s.radius, p.interval, s.mass);
    if (fraction <= 1.0) return {};
    return {"interval", "too long for species '" + s.name + "': one drag impulse would remove " +
                            format_number(fraction) +
                            " times its relative velocity (must be <= 1); shorten the interval"};
  }
};

// Calls f with the kind's struct (a value of it: f(GravityImpulse{}), ...).
template <class F>
decltype(auto) visit_periodic_kind(PeriodicImpulseKind kind, F&& f) {
  switch (kind) {
    case PeriodicImpulseKind::drag: return std::forward<F>(f)(DragImpulse{});
    case PeriodicImpulseKind::gravity: break;
  }
  return std::forward<F>(f)(GravityImpulse{});
}

// Every kind by name, in the order model files list them.
inline constexpr std::pair<const char*, PeriodicImpulseKind> kPeriodicImpulseNames[] = {
    {GravityImpulse::name, GravityImpulse::kind},
    {DragImpulse::name, DragImpulse::kind},
};

// The impulse on a particle of species `s` moving at `velocity`.
inline Vec3 periodic_impulse_on(const PeriodicImpulse& p, const Species& s, const Vec3& velocity) {
  return visit_periodic_kind(p.kind, [&](auto k) { return decltype(k)::impulse(p, s, velocity); });
}

// Calls f(number) for each of the kind's own numbers.
template <class F>
void for_each_periodic_number(PeriodicImpulseKind kind, F&& f) {
  visit_periodic_kind(kind, [&](auto k) {
    for (const PeriodicImpulseNumber& n : decltype(k)::numbers) f(n);
  });
}

// What makes `p` unusable on species `s` (an empty message: nothing).
inline PeriodicImpulseProblem periodic_impulse_problem(const PeriodicImpulse& p, const Species& s) {
  return visit_periodic_kind(p.kind, [&](auto k) { return decltype(k)::species_problem(p, s); });
}

}  // namespace tethersim
