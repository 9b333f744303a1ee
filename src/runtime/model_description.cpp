#include "model_description.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "tethersim/model/hash_text.hpp"
#include "tethersim/physics/thermal_balance.hpp"
#include "tethersim/scenario/memory_budget.hpp"

namespace tethersim::runtime {

namespace {

std::string num(double x) {
  if (is_infinite(x)) return "inf";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", x);
  return buffer;
}

std::string vec(const Vec3& v) { return "(" + num(v[0]) + ", " + num(v[1]) + ", " + num(v[2]) + ")"; }

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s.resize(width, ' ');
  return s;
}

std::string species_list(const Model& model, const std::vector<bool>& mask) {
  std::string out;
  for (std::size_t s = 0; s < mask.size(); ++s) {
    if (mask[s]) out += (out.empty() ? "" : ", ") + model.species()[s].name;
  }
  return out;
}

void describe_species(std::ostringstream& out, const Model& model, const ParticleCounts& counts) {
  out << "species (" << model.species().size() << "):\n"
      << "  " << pad("name", 10) << pad("mass", 12) << pad("radius", 9)
      << pad("random impulses (tau, k, mean)", 34) << "particles\n";
  for (std::size_t s = 0; s < model.species().size(); ++s) {
    const Species& sp = model.species()[s];
    const auto& ri = sp.random_impulse;
    std::string impulses = ri.enabled() ? num(ri.tau) + ", " + num(ri.shape) + ", " + num(ri.mean) : "-";
    std::string count = std::to_string(counts.count_by_species[s]);
    if (model.is_hub_species(static_cast<SpeciesIndex>(s))) count += "  (hub: outside the sector grid)";
    out << "  " << pad(sp.name, 10) << pad(num(sp.mass), 12) << pad(num(sp.radius), 9)
        << pad(impulses, 34) << count << "\n";
  }
}

void describe_pairs(std::ostringstream& out, const Model& model) {
  std::ostringstream rows;
  std::size_t count = 0;
  const auto n = static_cast<SpeciesIndex>(model.species().size());
  for (SpeciesIndex a = 0; a < n; ++a) {
    for (SpeciesIndex b = a; b < n; ++b) {
      const PairParameters& p = model.pair(a, b);
      if (!p.blocks() && !p.tetherable()) continue;
      ++count;
      rows << "  " << pad(model.species(a).name + "-" + model.species(b).name, 12)
           << pad(num(p.blocking), 10) << pad(num(p.tethering), 11)
           << num(p.c_rebound) << " / " << num(p.c_retract) << " / " << num(p.c_revolve)
           << (p.permanent ? "   permanent" : "") << "\n";
    }
  }
  out << "interacting pairs (" << count << "):\n"
      << "  " << pad("pair", 12) << pad("blocking", 10) << pad("tethering", 11)
      << "c_rebound / c_retract / c_revolve\n"
      << rows.str();
  // blocking = 0 means no blocking: said here, so that it is never a
  // surprise that particles of some size overlap.
  std::string crossing;
  for (SpeciesIndex a = 0; a < n; ++a) {
    for (SpeciesIndex b = a; b < n; ++b) {
      const Species& sa = model.species(a);
      const Species& sb = model.species(b);
      if (model.pair(a, b).blocks() || sa.infinite_mass() || sb.infinite_mass() ||
          !(sa.radius + sb.radius > 0.0)) {
        continue;
      }
      crossing += (crossing.empty() ? "" : ", ") + sa.name + "-" + sb.name;
    }
  }
  if (!crossing.empty()) {
    out << "  pass through each other (blocking 0: no blocking, whatever the radii): " << crossing << "\n";
  }
}

// The temperature and diffusion coefficient a lone particle of each species
// with random impulses and one drag settles at (docs/physics.md,
// "Temperature: random impulses against drag"); a thermostat's derived
// parameters.
void describe_thermal_balance(std::ostringstream& out, const Model& model) {
  for (std::size_t s = 0; s < model.species().size(); ++s) {
    const Species& sp = model.species()[s];
    if (!sp.random_impulse.enabled() || sp.infinite_mass()) continue;
    const PeriodicImpulse* drag = nullptr;
    int drags = 0;
    for (const PeriodicImpulse& e : model.periodic_impulses()) {
      if (e.kind == PeriodicImpulseKind::drag && e.applies_to[s]) {
        drag = &e;
        ++drags;
      }
    }
    if (drags != 1 || !(sp.radius > 0.0) || !(drag->viscosity > 0.0)) continue;
    physics::ThermalParameters p;
    p.impulse_second_moment = physics::impulse_second_moment(sp.random_impulse, model.dimensions());
    p.tau = sp.random_impulse.tau;
    p.friction = physics::stokes_friction(drag->viscosity, sp.radius);
    p.interval = drag->interval;
    p.mass = sp.mass;
    p.dimensions = model.dimensions();
    out << "temperature of a lone " << sp.name << ": kT " << num(physics::stationary_kT(p)) << ", diffusion "
        << num(physics::stationary_diffusion(p)) << " (friction " << num(p.friction) << ", drag fraction "
        << num(p.drag_fraction()) << " per tick)";
    if (sp.thermostat.enabled()) {
      out << "; thermostat: random impulses tau " << num(sp.random_impulse.tau) << ", shape "
          << num(sp.random_impulse.shape) << ", mean " << num(sp.random_impulse.mean) << " and drag every "
          << num(p.interval) << ", viscosity " << num(drag->viscosity) << " derived";
    }
    out << "\n";
  }
}

void describe_rules(std::ostringstream& out, const Model& model) {
  const TetherRules& rules = model.rules();
  if (rules.attach.empty() && rules.detach.empty()) {
    out << "tethering rules: none (tethers never form or break)\n";
    return;
  }
  out << "tethering rules:\n";
  auto name = [&](SpeciesIndex s) { return model.species(s).name; };
  auto reaction = [&](int r) { return model.action_potentials().reactions[r].name; };
  for (const AttachRule& r : rules.attach) {
    out << "  attach " << name(r.species_a) << "-" << name(r.species_b) << " on blocking collisions";
    if (r.max_partners_of_a >= 0) out << "; each " << name(r.species_a) << " holds at most " << r.max_partners_of_a << " " << name(r.species_b);
    if (r.max_partners_of_b >= 0 && r.species_a != r.species_b) out << "; each " << name(r.species_b) << " holds at most " << r.max_partners_of_b << " " << name(r.species_a);
    if (r.exclusive_dimer) out << "; not to both ends of one " << name(*r.exclusive_dimer) << " dimer";
    if (r.blocking_reaction >= 0) out << "; refused after reaction " << reaction(r.blocking_reaction);
    out << "\n";
  }
  for (const DetachRule& r : rules.detach) {
    out << "  detach " << name(r.species_a) << "-" << name(r.species_b) << " at tethering collisions";
    if (r.reaction >= 0) out << " after reaction " << reaction(r.reaction);
    if (r.subject_requires_partner) out << " when tethered to a " << name(*r.subject_requires_partner);
    for (SpeciesIndex s : r.subject_releases) out << "; then releases its " << name(s);
    out << "\n";
  }
}

}  // namespace

ParticleCounts count_particles(const scenario::InitialParticles& initial) {
  return {initial.count_by_species, initial.particles.size(), initial.tethers.size()};
}

std::string describe_model(const Model& model, const ParticleCounts& counts) {
  std::ostringstream out;
  const Domain& dom = model.domain();
  const Dynamics& dyn = model.dynamics();
  out << "model '" << model.name() << "'";
  if (!model.description().empty()) out << ": " << model.description();
  out << "\n  file " << model.source_path() << ", hash " << hash_text(model.hash()) << "\n"
      << "  " << dyn.dimensions << "-D, seed " << model.seed() << ", end time " << num(model.end_time())
      << "\n  theta_revolve " << num(dyn.theta_revolve) << " rad (pi/" << num(M_PI / dyn.theta_revolve)
      << "), restitution delay " << num(dyn.restitution_delay) << " (" << to_string(dyn.schedule)
      << " schedule), dt_max " << num(dyn.dt_max);
  if (dyn.max_group_size > 0) out << ", loaded groups capped at " << dyn.max_group_size;
  if (dyn.tc_elastic_time > 0.0) {
    out << ", collisions elastic within " << num(dyn.tc_elastic_time) << " of a velocity change (TC model)";
  }
  out << "\nbox " << vec(dom.lo) << " to " << vec(dom.hi) << ", boundaries "
      << to_string(dom.boundary[0]) << " / " << to_string(dom.boundary[1]) << " / "
      << to_string(dom.boundary[2]) << "\n";
  if (dom.escape) out << "  escape sphere: radius " << num(dom.escape->radius) << " around " << vec(dom.escape->centre) << "\n";
  const Vec3 length = dom.length();
  long long sectors = 1;
  std::string grid;
  for (int k = 0; k < 3; ++k) {
    const auto n = static_cast<long long>(std::max(1.0, std::floor(length[k] / model.sector_size())));
    sectors *= n;
    grid += (k ? " x " : "") + std::to_string(n);
  }
  out << "sectors: edge " << num(model.sector_size()) << " (minimum " << num(model.min_sector_size())
      << "), grid " << grid << " = " << sectors;
  // A mostly empty box keeps list heads for occupied sectors only.
  if (scenario::sparse_sector_grid(static_cast<std::uint64_t>(sectors), counts.particles)) {
    out << " (sparse: occupied sectors only)";
  }
  out << "\n";
  describe_species(out, model, counts);
  describe_pairs(out, model);
  describe_rules(out, model);
  for (const PeriodicImpulse& e : model.periodic_impulses()) {
    out << "external impulse: " << to_string(e.kind) << " every " << num(e.interval) << " from "
        << num(e.start) << " on " << species_list(model, e.applies_to);
    if (e.kind == PeriodicImpulseKind::gravity) out << ", g = " << vec(e.acceleration);
    else out << ", viscosity " << num(e.viscosity) << ", fluid velocity " << vec(e.fluid_velocity);
    out << "\n";
  }
  describe_thermal_balance(out, model);
  const ActionPotentials& ap = model.action_potentials();
  if (ap.enabled()) {
    out << "action potentials: " << ap.windows.size() << " (";
    for (std::size_t i = 0; i < ap.windows.size(); ++i) {
      out << (i ? ", " : "") << "[" << num(ap.windows[i].start) << ", " << num(ap.windows[i].end) << ")";
    }
    out << "), g_AP " << num(ap.gradient) << ", zone radius " << num(ap.zone_radius) << "; reactions:";
    for (const Reaction& r : ap.reactions) out << " " << r.name << " (" << model.species(r.subject).name << ", T " << num(r.mean_time) << ")";
    out << "\n";
  }
  out << "initial state: " << counts.particles << " particles, " << counts.tethers << " tethers";
  if (const auto& g = model.initial().generator) out << " (generator " << g->kind << ")";
  out << "\n";
  const OutputSettings& o = model.output();
  out << "output: directory " << o.directory << ", frames every " << num(o.frame_interval)
      << ", checkpoints every " << num(o.checkpoint_interval) << "\n";
  // The default writes no frames (a large run's frames are a choice, not a
  // default); say so before the run rather than leave an empty trajectory.
  if (is_infinite(o.frame_interval)) {
    out << "warning: no frames: output.frame_interval is inf, so trajectory.h5 gets no positions (the final "
           "state is in checkpoint.h5); set [output] frame_interval, e.g. "
        << num(model.end_time() / 100.0) << " for 100 frames\n";
  }
  return out.str();
}

}  // namespace tethersim::runtime
