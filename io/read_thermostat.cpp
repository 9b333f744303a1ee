// A species' thermostat (model-format.md, "Thermostat"): kT and a diffusion
// coefficient or friction, from which the species' random impulses and its
// drag are derived (docs/physics.md, "Temperature: random impulses against
// drag").
#include <cmath>

#include "model_reading.hpp"
#include "tethersim/physics/thermal_balance.hpp"

namespace tethersim::io_detail {

namespace {

// The drag fraction a thermostat aims for when its interval is not given:
// small enough that the run is close to the continuum limit (Einstein's
// relation holds to a/2 = 5%; the derivation is exact whatever a is), large
// enough that ticks stay cheap.
constexpr double kDefaultDragFraction = 0.1;

double positive(TableReader& t, const std::string& name, double value) {
  if (!(value > 0.0) || !std::isfinite(value)) t.fail(name, "must be positive and finite, got " + std::to_string(value));
  return value;
}

}  // namespace

void read_thermostat(TableReader& species_table, Species& s, const ReadContext& ctx) {
  std::optional<TableReader> t = species_table.table("thermostat");
  if (!t) return;
  if (species_table.has("random_impulse")) {
    t->fail_here("conflicts with random_impulse: the thermostat derives the random impulses; give one or the other");
  }
  if (s.infinite_mass()) t->fail_here("a species of infinite mass never moves: it cannot have a temperature");
  if (!(s.radius > 0.0)) {
    t->fail_here("needs a positive radius: the thermostat's drag is Stokes drag, 6 pi mu r (v_fluid - v)");
  }
  const double kT = positive(*t, "kT", t->required_number("kT"));
  const bool has_diffusion = t->has("diffusion");
  if (has_diffusion == t->has("friction")) {
    t->fail_here("give exactly one of 'diffusion' (diffusion coefficient D) or 'friction' (gamma = kT / D)");
  }
  const double diffusion = has_diffusion ? positive(*t, "diffusion", t->number("diffusion", 0.0)) : 0.0;
  double friction = has_diffusion ? 0.0 : positive(*t, "friction", t->number("friction", 0.0));
  double interval = 0.0;
  if (t->has("interval")) {
    interval = positive(*t, "interval", t->number("interval", 0.0));
    if (has_diffusion) friction = physics::friction_for_diffusion(kT, diffusion, interval, s.mass);
  } else {
    // Ticks that remove kDefaultDragFraction of the velocity: with a fixed,
    // the friction for D is explicit.
    if (has_diffusion) friction = kT / diffusion * physics::einstein_ratio(kDefaultDragFraction);
    interval = kDefaultDragFraction * s.mass / friction;
  }
  if (friction * interval / s.mass > 1.0) {
    t->fail(has_diffusion ? "diffusion" : "friction",
            "one drag tick would remove more than all of the velocity (friction * interval / mass = " +
                std::to_string(friction * interval / s.mass) + " > 1): shorten the interval");
  }
  s.random_impulse.tau = t->has("tau") ? positive(*t, "tau", t->number("tau", 0.0)) : interval;
  s.random_impulse.shape = t->has("shape") ? positive(*t, "shape", t->number("shape", 1.0)) : 1.0;
  s.random_impulse.mean = physics::impulse_mean_for_kT(kT, friction, interval, s.mass, s.random_impulse.tau,
                                                       s.random_impulse.shape, ctx.data.dynamics.dimensions);
  s.thermostat = {kT, friction, interval};
  t->finish();
}

void add_thermostat_drags(ReadContext& ctx) {
  ModelData& d = ctx.data;
  const std::size_t given = d.periodic_impulses.size();
  for (std::size_t s = 0; s < d.species.size(); ++s) {
    const Species& species = d.species[s];
    if (!species.thermostat.enabled()) continue;
    const std::string key = "species." + species.name + ".thermostat";
    for (std::size_t k = 0; k < given; ++k) {
      const PeriodicImpulse& e = d.periodic_impulses[k];
      if (e.kind == PeriodicImpulseKind::drag && e.applies_to[s]) {
        throw InputError(ctx.sources.find(key), key,
                         "conflicts with the [[external]] drag number " + std::to_string(k + 1) +
                             ", which applies to " + species.name +
                             ": the thermostat sets the species' drag; leave it out of that [[external]]");
      }
    }
    PeriodicImpulse drag;
    drag.kind = PeriodicImpulseKind::drag;
    drag.interval = species.thermostat.interval;
    drag.viscosity = species.thermostat.friction / (6.0 * M_PI * species.radius);
    drag.applies_to.assign(d.species.size(), false);
    drag.applies_to[s] = true;
    drag.interval_key = key + ".interval";
    d.periodic_impulses.push_back(drag);
  }
}

}  // namespace tethersim::io_detail
