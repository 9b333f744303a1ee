// Two concentric geodesic shells tethered within and between layers, and a
// projectile falling on the top (docs/physics.md, "The published models").
// The inner radius is chosen so that the mean inner edge equals `spacing`;
// particle count 2 (10 f^2 + 2) (+1 projectile) for frequency f.
#include <cmath>

#include "generator_support.hpp"
#include "generators.hpp"
#include "icosphere.hpp"

namespace tethersim::scenario {

std::string_view MembraneSphere::name() const { return "membrane-sphere"; }

std::uint64_t MembraneSphere::particle_count(const ParameterSet& p) const {
  const auto f = static_cast<double>(parameter_integer(p, "frequency"));
  return saturating_count(2.0 * (10.0 * f * f + 2.0) + (parameter_flag(p, "projectile") ? 1.0 : 0.0));
}

std::string_view MembraneSphere::summary() const {
  return "two concentric icosahedral shells, tethered within and between layers, and a "
         "projectile";
}

const std::vector<ParameterInfo>& MembraneSphere::parameters() const {
  static const std::vector<ParameterInfo> info = {
      {"frequency", std::int64_t{8},
       "edge subdivisions f of the icosahedron: 2 (10 f^2 + 2) shell particles"},
      {"spacing", 1.0, "mean distance between tethered neighbours of the inner shell"},
      {"layer_gap", 1.0, "radial distance between the two shells"},
      {"centre", std::vector<double>{0.0, 0.0, 0.0}, "centre of the shells"},
      {"inner_species", std::string("P"), "species of the inner shell"},
      {"outer_species", std::string("P"), "species of the outer shell"},
      {"projectile", true, "add a projectile above the top of the sphere"},
      {"projectile_species", std::string("X"), "species of the projectile"},
      {"projectile_speed", 1.0, "initial downward speed of the projectile"},
      {"projectile_distance", 3.0, "initial gap between the projectile and the outer shell"},
  };
  return info;
}

namespace {

// Mean edge of the unit-sphere grid, so that radius = spacing / mean.
double inner_radius(const ParameterSet& p, const Icosphere* sphere) {
  const auto f = static_cast<double>(parameter_integer(p, "frequency"));
  if (sphere == nullptr) {
    // Close estimate without building the grid (for the box): the projected
    // grid edge is about 1.1 times the icosahedron edge 1.0515 over f.
    return parameter_number(p, "spacing") * f / (1.0515 * 1.1);
  }
  double total = 0.0;
  for (const auto& [a, b] : sphere->edges) total += (sphere->vertices[a] - sphere->vertices[b]).norm();
  return parameter_number(p, "spacing") / (total / static_cast<double>(sphere->edges.size()));
}

}  // namespace

std::optional<Box> MembraneSphere::suggested_box(const ParameterSet& p) const {
  const double reach = 1.25 * (inner_radius(p, nullptr) + parameter_number(p, "layer_gap")) +
                       parameter_number(p, "projectile_distance") +
                       2.0 * parameter_number(p, "spacing");
  const Vec3 centre = parameter_vector(p, "centre");
  return Box{centre - Vec3::Constant(reach), centre + Vec3::Constant(reach)};
}

std::vector<ModelProblem> MembraneSphere::check(const ParameterSet& p,
                                                const ModelData& m) const {
  ParameterChecks checks(p, m);
  checks.at_least("frequency", 1);
  checks.positive("spacing");
  checks.positive("layer_gap");
  checks.non_negative("projectile_speed");
  checks.non_negative("projectile_distance");
  checks.species("inner_species", true);
  checks.species("outer_species", true);
  if (parameter_flag(p, "projectile")) checks.species("projectile_species", true);
  if (m.dynamics.dimensions != 3) checks.add("frequency", "membrane-sphere needs a 3-D model");
  return checks.take();
}

std::unique_ptr<GeneratedSystem> MembraneSphere::make(const ParameterSet& p, const Model& model) const {
  return std::make_unique<StoredSystem>(generate_whole(p, model));
}

GeneratedState MembraneSphere::generate_whole(const ParameterSet& p, const Model& model) const {
  const Icosphere sphere = make_icosphere(static_cast<int>(parameter_integer(p, "frequency")));
  const double r_inner = inner_radius(p, &sphere);
  const double r_outer = r_inner + parameter_number(p, "layer_gap");
  const Vec3 centre = parameter_vector(p, "centre");
  const SpeciesIndex layers[2] = {species_parameter(p, model, "inner_species"),
                                  species_parameter(p, model, "outer_species")};
  const double radii[2] = {r_inner, r_outer};
  const auto n = static_cast<ParticleId>(sphere.vertices.size());

  GeneratedState state;
  state.particles.reserve(2 * n + 1);
  for (int layer = 0; layer < 2; ++layer) {
    for (const Vec3& direction : sphere.vertices) {
      ParticleSpec s;
      s.id = state.particles.size();
      s.species = layers[layer];
      s.position = centre + radii[layer] * direction;
      state.particles.push_back(s);
    }
  }
  state.tethers.reserve(2 * sphere.edges.size() + n);
  for (ParticleId layer = 0; layer < 2; ++layer) {
    for (const auto& [a, b] : sphere.edges) state.tethers.push_back({layer * n + a, layer * n + b});
  }
  for (ParticleId i = 0; i < n; ++i) state.tethers.push_back({i, n + i});
  check_tether_lengths(state, model, "spacing");

  if (parameter_flag(p, "projectile")) {
    ParticleSpec s;
    s.id = state.particles.size();
    s.species = species_parameter(p, model, "projectile_species");
    s.position = centre + (r_outer + parameter_number(p, "projectile_distance")) * Vec3::UnitZ();
    s.velocity = -parameter_number(p, "projectile_speed") * Vec3::UnitZ();
    state.particles.push_back(s);
  }
  return state;
}

}  // namespace tethersim::scenario
