#include "generator_support.hpp"

#include <cmath>
#include <cstdio>

namespace tethersim::scenario {

namespace {
std::string key_of(const std::string& name) { return "initial.parameters." + name; }
}  // namespace

std::optional<SpeciesIndex> ParameterChecks::species(const std::string& name,
                                                     bool finite_mass_required,
                                                     bool infinite_mass_required) {
  const std::string& wanted = parameter_text(params_, name);
  for (std::size_t i = 0; i < model_.species.size(); ++i) {
    const Species& s = model_.species[i];
    if (s.name != wanted) continue;
    if (finite_mass_required && s.infinite_mass()) {
      add(name, "species '" + wanted + "' must have finite mass here");
    }
    if (infinite_mass_required && !s.infinite_mass()) {
      add(name, "species '" + wanted + "' must have infinite mass here");
    }
    return static_cast<SpeciesIndex>(i);
  }
  add(name, "unknown species '" + wanted + "'");
  return std::nullopt;
}

void ParameterChecks::positive(const std::string& name) {
  const double x = parameter_number(params_, name);
  if (!(x > 0.0) || std::isinf(x)) add(name, "must be positive and finite");
}

void ParameterChecks::non_negative(const std::string& name) {
  const double x = parameter_number(params_, name);
  if (!(x >= 0.0) || std::isinf(x)) add(name, "must be finite and not negative");
}

void ParameterChecks::at_least(const std::string& name, std::int64_t minimum) {
  if (parameter_integer(params_, name) < minimum) {
    add(name, "must be at least " + std::to_string(minimum));
  }
}

void ParameterChecks::add(const std::string& name, const std::string& message) {
  problems_.push_back({key_of(name), message});
}

SpeciesIndex species_parameter(const ParameterSet& params, const Model& model,
                               const std::string& name) {
  const auto s = model.find_species(parameter_text(params, name));
  if (!s) throw ModelError({key_of(name), "unknown species '" + parameter_text(params, name) + "'"});
  return *s;
}

ThermalVelocities::ThermalVelocities(const Model& model, double temperature, std::uint64_t count,
                                     const std::function<SpeciesIndex(ParticleId)>& species_of)
    : seed_(model.seed()), dimensions_(model.dimensions()), temperature_(temperature) {
  for (const Species& s : model.species()) mass_.push_back(s.mass);
  // The sums in id order, as the particles of one vector were summed.
  double total_mass = 0.0;
  Vec3 momentum = Vec3::Zero();
  for (ParticleId id = 0; id < count; ++id) {
    const SpeciesIndex s = species_of(id);
    const double m = mass_[s];
    if (is_infinite(m)) continue;
    momentum += m * draw(id, s);
    total_mass += m;
  }
  if (total_mass == 0.0) return;
  drift_ = momentum / total_mass;
  double kinetic = 0.0;
  std::size_t mobile = 0;
  for (ParticleId id = 0; id < count; ++id) {
    const SpeciesIndex s = species_of(id);
    const double m = mass_[s];
    if (is_infinite(m)) continue;
    Vec3 v = draw(id, s);
    v -= drift_;
    kinetic += 0.5 * m * v.squaredNorm();
    ++mobile;
  }
  if (mobile < 2 || kinetic == 0.0) return;
  const double target = 0.5 * dimensions_ * static_cast<double>(mobile - 1) * temperature_;
  scale_ = std::sqrt(target / kinetic);
  scaled_ = true;
}

Vec3 ThermalVelocities::draw(ParticleId id, SpeciesIndex species) const {
  physics::CounterRng rng(seed_, id, physics::RandomStream::initial_state, 1);
  const double sigma = std::sqrt(temperature_ / mass_[species]);
  Vec3 v = Vec3::Zero();
  for (int k = 0; k < dimensions_; ++k) v[k] = sigma * rng.normal();
  return v;
}

Vec3 ThermalVelocities::velocity(ParticleId id, SpeciesIndex species) const {
  Vec3 v = draw(id, species);
  v -= drift_;
  if (scaled_) v *= scale_;
  return v;
}

void assign_thermal_velocities(std::vector<ParticleSpec>& particles, const Model& model,
                               double temperature) {
  const ThermalVelocities thermal(model, temperature, particles.size(),
                                  [&](ParticleId id) { return particles[id].species; });
  for (ParticleSpec& p : particles) {
    if (!model.species(p.species).infinite_mass()) p.velocity = thermal.velocity(p.id, p.species);
  }
}

Vec3 random_point_in_ball(physics::CounterRng& rng, double radius, int dimensions) {
  for (;;) {
    Vec3 x = Vec3::Zero();
    for (int k = 0; k < dimensions; ++k) x[k] = 2.0 * rng.uniform() - 1.0;
    if (x.squaredNorm() <= 1.0) return radius * x;
  }
}

void check_tether_length(const ParticleSpec& a, const ParticleSpec& b, const Model& model,
                         const std::string& parameter) {
  const PairParameters& pp = model.pair(a.species, b.species);
  const double length = (b.position - a.position).norm();
  const std::string pair = model.species(a.species).name + "-" + model.species(b.species).name;
  char buffer[256];
  if (length > pp.tethering * (1.0 + 1e-12)) {
    std::snprintf(buffer, sizeof buffer,
                  "a generated tether %s is %.6g long, beyond the pair's tethering distance "
                  "%.6g: raise pair.%s.tethering or shrink the spacing",
                  pair.c_str(), length, pp.tethering, pair.c_str());
    throw ModelError({"initial.parameters." + parameter, buffer});
  }
  if (length < pp.blocking * (1.0 - 1e-12)) {
    std::snprintf(buffer, sizeof buffer,
                  "a generated tether %s is %.6g long, inside the pair's blocking distance "
                  "%.6g: lower pair.%s.blocking or widen the spacing",
                  pair.c_str(), length, pp.blocking, pair.c_str());
    throw ModelError({"initial.parameters." + parameter, buffer});
  }
}

void check_tether_lengths(const GeneratedState& state, const Model& model,
                          const std::string& parameter) {
  // Particles are generated with dense ids, so id == index.
  for (const TetherSpec& t : state.tethers) {
    check_tether_length(state.particles[t.a], state.particles[t.b], model, parameter);
  }
}

}  // namespace tethersim::scenario
