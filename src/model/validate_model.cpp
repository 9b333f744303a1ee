// Validation of ModelData: every rule a model must obey before a run can
// start, each reported against the dotted key a user would edit.
#include <cmath>
#include <set>
#include <sstream>

#include "tethersim/model/model.hpp"
#include "tethersim/model/number_format.hpp"
#include "tethersim/model/periodic_impulse_kinds.hpp"

namespace tethersim {

namespace {

class ProblemList {
 public:
  void add(std::string key, std::string message) {
    problems_.push_back({std::move(key), std::move(message)});
  }
  // A real number (not NaN), finite unless allow_infinite.
  bool check_number(const std::string& key, double x, bool allow_infinite = false) {
    if (std::isnan(x)) {
      add(key, "must be a number, got nan");
      return false;
    }
    if (!allow_infinite && std::isinf(x)) {
      add(key, "must be finite, got " + format_number(x));
      return false;
    }
    return true;
  }
  void positive(const std::string& key, double x, bool allow_infinite = false) {
    if (check_number(key, x, allow_infinite) && !(x > 0.0)) {
      add(key, "must be positive, got " + format_number(x));
    }
  }
  void non_negative(const std::string& key, double x, bool allow_infinite = false) {
    if (check_number(key, x, allow_infinite) && x < 0.0) {
      add(key, "must not be negative, got " + format_number(x));
    }
  }
  void unit_interval(const std::string& key, double x) {
    if (check_number(key, x) && (x < 0.0 || x > 1.0)) {
      add(key, "must be within [0, 1], got " + format_number(x));
    }
  }
  std::vector<ModelProblem> take() { return std::move(problems_); }

 private:
  std::vector<ModelProblem> problems_;
};

const std::string& species_name(const ModelData& d, SpeciesIndex s) { return d.species[s].name; }

std::string pair_key(const ModelData& d, SpeciesIndex a, SpeciesIndex b) {
  if (a > b) std::swap(a, b);
  return "pair." + species_name(d, a) + "-" + species_name(d, b);
}

void validate_globals(const ModelData& d, ProblemList& p) {
  if (!(d.end_time > 0.0) || std::isinf(d.end_time)) {
    if (p.check_number("run.end_time", d.end_time)) {
      p.add("run.end_time", "must be positive, got " + format_number(d.end_time));
    }
  }
  const Dynamics& dyn = d.dynamics;
  if (dyn.dimensions < 1 || dyn.dimensions > 3) {
    p.add("model.dimensions", "must be 1, 2 or 3, got " + std::to_string(dyn.dimensions));
  }
  // Within about 1e-7 of pi/2 the revolve response's round-off margin
  // carries the angle past pi/2 and a revolving pair collides without end
  // at one instant; 1e-6 keeps well clear of that.
  constexpr double kThetaGap = 1e-6;
  if (p.check_number("physics.theta_revolve", dyn.theta_revolve) &&
      !(dyn.theta_revolve > 0.0 && dyn.theta_revolve < M_PI / 2.0)) {
    p.add("physics.theta_revolve",
          "must be an angle in (0, pi/2) radians, got " + format_number(dyn.theta_revolve));
  } else if (dyn.theta_revolve > M_PI / 2.0 - kThetaGap) {
    p.add("physics.theta_revolve",
          "must be at least 1e-6 below pi/2 (nearer, the revolve geometry degenerates in floating "
          "point and a tethered pair collides without end), got " + format_number(dyn.theta_revolve));
  }
  p.non_negative("physics.restitution_delay", dyn.restitution_delay);
  p.non_negative("physics.tc_elastic_time", dyn.tc_elastic_time);
  p.positive("physics.dt_max", dyn.dt_max);
  // Predicted times dt_max or more ahead count as "never", and are not
  // predicted again until something else happens to the particle. Every
  // trajectory starts at t >= 0, so with dt_max beyond the end time nothing
  // dropped that way could have happened within the run; a shorter dt_max
  // lets particles fly through each other (a gas with dt_max below its mean
  // free time stops after one event).
  if (dyn.dt_max > 0.0 && d.end_time > 0.0 && !(dyn.dt_max > d.end_time)) {
    p.add("physics.dt_max", "must exceed the end time " + format_number(d.end_time) + ", got " +
                                format_number(dyn.dt_max) +
                                " (events predicted dt_max or more ahead are dropped, so particles "
                                "would pass through each other)");
  }
}

void validate_domain(const ModelData& d, ProblemList& p) {
  const Domain& dom = d.domain;
  static const char* axis_names[3] = {"x", "y", "z"};
  for (int k = 0; k < 3; ++k) {
    if (!p.check_number("domain.lo", dom.lo[k]) || !p.check_number("domain.hi", dom.hi[k])) {
      continue;
    }
    if (k >= d.dynamics.dimensions && !(dom.lo[k] <= 0.0 && dom.hi[k] >= 0.0)) {
      p.add("domain.lo", std::string("a ") + std::to_string(d.dynamics.dimensions) +
                             "-D model keeps its particles at 0 on axis " + axis_names[k] +
                             ", so the box must contain 0 there");
    }
    if (!(dom.lo[k] < dom.hi[k])) {
      p.add("domain.hi", std::string("must exceed domain.lo on axis ") + axis_names[k] + " (" +
                             format_number(dom.hi[k]) + " <= " + format_number(dom.lo[k]) + ")");
    }
  }
  p.non_negative("domain.sector_size", dom.requested_sector_size);
  if (dom.escape) {
    p.positive("domain.escape_radius", dom.escape->radius);
    for (int k = 0; k < 3; ++k) p.check_number("domain.escape_centre", dom.escape->centre[k]);
  }
}

void validate_species(const ModelData& d, ProblemList& p) {
  if (d.species.empty()) p.add("species", "at least one [[species]] is required");
  std::set<std::string> seen;
  for (const Species& s : d.species) {
    const std::string key = "species." + s.name;
    if (s.name.empty()) p.add("species.name", "must not be empty");
    if (!seen.insert(s.name).second) p.add(key + ".name", "duplicate species name '" + s.name + "'");
    p.positive(key + ".mass", s.mass, /*allow_infinite=*/true);
    p.non_negative(key + ".radius", s.radius);
    const auto& ri = s.random_impulse;
    if (ri.enabled() || std::isnan(ri.tau)) {
      p.positive(key + ".random_impulse.tau", ri.tau, true);
      p.positive(key + ".random_impulse.shape", ri.shape);
      p.non_negative(key + ".random_impulse.mean", ri.mean);
      if (s.infinite_mass() && ri.enabled()) {
        p.add(key + ".random_impulse",
              "species of infinite mass cannot receive random impulses (it never moves)");
      }
    }
  }
}

void validate_pairs(const ModelData& d, ProblemList& p) {
  const auto n = static_cast<SpeciesIndex>(d.species.size());
  if (d.pairs.species_count() != n) {
    p.add("pair", "internal: pair table does not match the species list");
    return;
  }
  for (SpeciesIndex a = 0; a < n; ++a) {
    for (SpeciesIndex b = a; b < n; ++b) {
      const PairParameters& pp = d.pairs(a, b);
      const std::string key = pair_key(d, a, b);
      p.non_negative(key + ".blocking", pp.blocking);
      if (p.check_number(key + ".tethering", pp.tethering, true) && !(pp.tethering > 0.0)) {
        p.add(key + ".tethering", "must be positive (or inf for never), got " +
                                      format_number(pp.tethering));
      }
      p.unit_interval(key + ".c_rebound", pp.c_rebound);
      p.unit_interval(key + ".c_retract", pp.c_retract);
      p.unit_interval(key + ".c_revolve", pp.c_revolve);
      if (pp.tetherable() && pp.blocking > pp.tethering) {
        p.add(key + ".blocking", "blocking distance " + format_number(pp.blocking) +
                                     " exceeds the tethering distance " +
                                     format_number(pp.tethering) +
                                     " of this tetherable pair (a tethered pair could never "
                                     "be both apart and together)");
      } else if (pp.tetherable() && pp.blocks() && pp.blocking == pp.tethering) {
        p.add(key + ".blocking", "equals the tethering distance " + format_number(pp.tethering) +
                                     ": a tethered pair held at exactly one distance collides without "
                                     "end at one instant; make tethering larger than blocking");
      }
      if (d.species[a].infinite_mass() && d.species[b].infinite_mass() &&
          (pp.blocks() || pp.tetherable())) {
        p.add(key, "both species have infinite mass, so they can never exchange an impulse: "
                   "set blocking = 0 and leave tethering unset");
      }
      if (pp.permanent && !pp.tetherable()) {
        p.add(key + ".permanent", "a permanent tether needs a finite tethering distance");
      }
    }
  }
}

void validate_periodic_impulses(const ModelData& d, ProblemList& p) {
  for (std::size_t i = 0; i < d.periodic_impulses.size(); ++i) {
    const PeriodicImpulse& e = d.periodic_impulses[i];
    const std::string key = "external." + std::to_string(i);
    p.positive(key + ".interval", e.interval);
    p.non_negative(key + ".start", e.start);
    bool any = false;
    for (std::size_t s = 0; s < e.applies_to.size() && s < d.species.size(); ++s) {
      if (!e.applies_to[s]) continue;
      any = true;
      if (d.species[s].infinite_mass()) {
        p.add(key + ".species", "species '" + d.species[s].name +
                                    "' has infinite mass; external impulses cannot move it");
      }
    }
    if (!any) p.add(key + ".species", "applies to no species");
    for (int k = 0; k < 3; ++k) {
      p.check_number(key + ".g", e.acceleration[k]);
      p.check_number(key + ".fluid_velocity", e.fluid_velocity[k]);
      if (k >= d.dynamics.dimensions && (e.acceleration[k] != 0.0 || e.fluid_velocity[k] != 0.0)) {
        p.add(key, "has a component along an axis a " + std::to_string(d.dynamics.dimensions) +
                       "-D model does not have");
      }
    }
    for_each_periodic_number(e.kind, [&](const PeriodicImpulseNumber& n) {
      if (n.non_negative) {
        p.non_negative(key + "." + n.key, e.*n.value);
      } else {
        p.check_number(key + "." + n.key, e.*n.value);
      }
    });
    // What the kind itself needs of each species it moves.
    for (std::size_t s = 0; s < e.applies_to.size() && s < d.species.size(); ++s) {
      if (!e.applies_to[s]) continue;
      const PeriodicImpulseProblem problem = periodic_impulse_problem(e, d.species[s]);
      if (!problem.message.empty()) p.add(key + "." + problem.key, problem.message);
    }
  }
}

bool in_pair(SpeciesIndex s, SpeciesIndex a, SpeciesIndex b) { return s == a || s == b; }

void validate_reaction_use(const ModelData& d, ProblemList& p, const std::string& key,
                           int reaction, SpeciesIndex a, SpeciesIndex b) {
  if (reaction < 0) return;
  const auto& reactions = d.action_potentials.reactions;
  if (static_cast<std::size_t>(reaction) >= reactions.size()) {
    p.add(key, "refers to an undefined reaction");
    return;
  }
  if (!in_pair(reactions[reaction].subject, a, b)) {
    p.add(key, "reaction '" + reactions[reaction].name + "' has subject species '" +
                   species_name(d, reactions[reaction].subject) +
                   "', which is not one of this rule's two species");
  }
}

void validate_rules(const ModelData& d, ProblemList& p) {
  const auto n = d.species.size();
  for (std::size_t i = 0; i < d.rules.attach.size(); ++i) {
    const AttachRule& r = d.rules.attach[i];
    const std::string key = "attach." + std::to_string(i);
    if (r.species_a >= n || r.species_b >= n) {
      p.add(key + ".species", "refers to an unknown species");
      continue;
    }
    const PairParameters& pp = d.pairs(r.species_a, r.species_b);
    if (!pp.blocks()) {
      p.add(key + ".species", "tethers attach on blocking collisions, but " +
                                  pair_key(d, r.species_a, r.species_b) +
                                  " has blocking distance 0: the rule could never fire");
    }
    if (!pp.tetherable()) {
      p.add(key + ".species", pair_key(d, r.species_a, r.species_b) +
                                  " has no tethering distance: a tether of it would hold nothing");
    }
    if (r.exclusive_dimer && !in_pair(*r.exclusive_dimer, r.species_a, r.species_b)) {
      p.add(key + ".exclusive_dimer", "must be one of the rule's two species");
    }
    if (r.exclusive_dimer && in_pair(*r.exclusive_dimer, r.species_a, r.species_b) &&
        !d.pairs(*r.exclusive_dimer, *r.exclusive_dimer).tetherable()) {
      p.add(key + ".exclusive_dimer", "species '" + species_name(d, *r.exclusive_dimer) +
                                          "' cannot be tethered to itself, so it forms no dimers");
    }
    validate_reaction_use(d, p, key + ".unless_reaction", r.blocking_reaction, r.species_a,
                          r.species_b);
  }
  for (std::size_t i = 0; i < d.rules.detach.size(); ++i) {
    const DetachRule& r = d.rules.detach[i];
    const std::string key = "detach." + std::to_string(i);
    if (r.species_a >= n || r.species_b >= n) {
      p.add(key + ".species", "refers to an unknown species");
      continue;
    }
    const PairParameters& pp = d.pairs(r.species_a, r.species_b);
    if (!pp.tetherable()) {
      p.add(key + ".species", "tethers detach at tethering collisions, but " +
                                  pair_key(d, r.species_a, r.species_b) +
                                  " has no tethering distance: the rule could never fire");
    }
    if (pp.permanent) {
      p.add(key + ".species", pair_key(d, r.species_a, r.species_b) +
                                  " is permanent: its tethers never detach");
    }
    validate_reaction_use(d, p, key + ".reaction", r.reaction, r.species_a, r.species_b);
    if ((r.subject_requires_partner || !r.subject_releases.empty()) && r.reaction < 0) {
      p.add(key + ".reaction", "'requires' and 'release' need a reaction to name the subject");
    }
  }
}

void validate_action_potentials(const ModelData& d, ProblemList& p) {
  const ActionPotentials& ap = d.action_potentials;
  // Checked whenever [action_potential] says anything, even with no window
  // (rules may name its reactions).
  if (!ap.enabled() && ap.reactions.empty()) return;
  const auto n = d.species.size();
  if (ap.membrane >= n || ap.zone >= n) {
    p.add("action_potential", "membrane and zone must name species");
    return;
  }
  if (ap.membrane == ap.zone) {
    p.add("action_potential.zone", "must differ from action_potential.membrane");
  }
  if (!d.species[ap.membrane].infinite_mass()) {
    p.add("action_potential.membrane", "species '" + species_name(d, ap.membrane) +
                                           "' must have infinite mass (a fixed compartment)");
  }
  if (!d.species[ap.zone].infinite_mass()) {
    p.add("action_potential.zone",
          "species '" + species_name(d, ap.zone) + "' must have infinite mass (a fixed zone)");
  }
  p.positive("action_potential.zone_radius", ap.zone_radius);
  p.non_negative("action_potential.gradient", ap.gradient);
  std::set<std::string> names;
  if (ap.reactions.size() > 255) p.add("action_potential.reactions", "at most 255 reactions");
  for (std::size_t i = 0; i < ap.reactions.size(); ++i) {
    const Reaction& r = ap.reactions[i];
    const std::string key = "action_potential.reactions." + std::to_string(i);
    if (r.name.empty()) p.add(key + ".name", "must not be empty");
    if (!names.insert(r.name).second) p.add(key + ".name", "duplicate reaction '" + r.name + "'");
    p.positive(key + ".mean_time", r.mean_time, true);
    if (r.subject >= n) p.add(key + ".subject", "refers to an unknown species");
  }
  double previous_end = 0.0;
  for (std::size_t i = 0; i < ap.windows.size(); ++i) {
    const ActionPotentialWindow& w = ap.windows[i];
    const std::string key = "action_potential.windows." + std::to_string(i);
    p.non_negative(key + ".start", w.start);
    p.check_number(key + ".end", w.end);
    if (!(w.end > w.start)) {
      p.add(key + ".end", "must be after start (" + format_number(w.end) +
                              " <= " + format_number(w.start) + ")");
    }
    if (w.start < previous_end) {
      p.add(key + ".start", "overlaps the previous action potential (which ends at " +
                                format_number(previous_end) + ")");
    }
    previous_end = w.end;
  }
}

void validate_output(const ModelData& d, ProblemList& p) {
  const OutputSettings& o = d.output;
  if (o.directory.empty()) p.add("output.directory", "must not be empty");
  p.positive("output.frame_interval", o.frame_interval, true);
  p.positive("output.observables_interval", o.observables_interval, true);
  p.positive("output.checkpoint_interval", o.checkpoint_interval, true);
  p.non_negative("output.checkpoint_wall_minutes", o.checkpoint_wall_minutes);
  p.positive("output.progress_seconds", o.progress_seconds, true);
}

}  // namespace

std::vector<ModelProblem> validate_model_data(const ModelData& data) {
  ProblemList problems;
  validate_globals(data, problems);
  validate_domain(data, problems);
  validate_species(data, problems);
  if (!data.species.empty()) {
    validate_pairs(data, problems);
    validate_periodic_impulses(data, problems);
    validate_rules(data, problems);
    validate_action_potentials(data, problems);
  }
  validate_output(data, problems);
  return problems.take();
}

}  // namespace tethersim
