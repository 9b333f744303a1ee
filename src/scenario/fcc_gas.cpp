// FCC hard-sphere gas: N = 4 C^3 particles in a cubic box of edge C a,
// a = (4 / density)^(1/3), with Maxwell-Boltzmann velocities at kT.
#include <cmath>

#include "generator_support.hpp"
#include "generators.hpp"

namespace tethersim::scenario {

std::string_view FccGas::name() const { return "fcc-gas"; }

std::uint64_t FccGas::particle_count(const ParameterSet& p) const {
  const auto c = static_cast<double>(parameter_integer(p, "cells"));
  return saturating_count(4.0 * c * c * c);
}

std::string_view FccGas::summary() const {
  return "hard spheres on an FCC lattice (N = 4 cells^3) with Maxwell-Boltzmann velocities";
}

const std::vector<ParameterInfo>& FccGas::parameters() const {
  static const std::vector<ParameterInfo> info = {
      {"cells", std::int64_t{14}, "lattice cells per box edge C (N = 4 C^3)"},
      {"density", 0.5, "number density (particles per unit volume)"},
      {"species", std::string("A"), "species of every particle"},
      {"temperature", 1.0, "kT of the initial velocities"},
  };
  return info;
}

namespace {
double lattice_constant(const ParameterSet& p) {
  return std::cbrt(4.0 / parameter_number(p, "density"));
}
}  // namespace

std::optional<Box> FccGas::suggested_box(const ParameterSet& p) const {
  const double edge = static_cast<double>(parameter_integer(p, "cells")) * lattice_constant(p);
  return Box{Vec3::Zero(), Vec3::Constant(edge)};
}

std::vector<ModelProblem> FccGas::check(const ParameterSet& p, const ModelData& m) const {
  ParameterChecks checks(p, m);
  checks.at_least("cells", 1);
  checks.positive("density");
  checks.non_negative("temperature");
  checks.species("species", /*finite_mass_required=*/true);
  if (m.dynamics.dimensions != 3) checks.add("cells", "fcc-gas needs a 3-D model");
  return checks.take();
}

namespace {

// Particle id = 4 ((i C + j) C + k) + b for cell (i, j, k) and basis site b.
class FccSystem final : public GeneratedSystem {
 public:
  FccSystem(std::int64_t cells, double a, const Vec3& origin, SpeciesIndex species, const Model& model,
            double temperature)
      : cells_(cells), a_(a), origin_(origin), species_(species),
        thermal_(model, temperature, 4 * static_cast<std::uint64_t>(cells * cells * cells),
                 [species](ParticleId) { return species; }) {}

  std::uint64_t size() const override { return 4 * static_cast<std::uint64_t>(cells_ * cells_ * cells_); }

  ParticleSpec particle(ParticleId id) const override {
    static const double basis[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
    const auto cell = static_cast<std::int64_t>(id / 4);
    const double* b = basis[id % 4];
    const std::int64_t i = cell / (cells_ * cells_), j = cell / cells_ % cells_, k = cell % cells_;
    ParticleSpec s;
    s.id = id;
    s.species = species_;
    s.position = origin_ + a_ * Vec3(static_cast<double>(i) + b[0], static_cast<double>(j) + b[1],
                                     static_cast<double>(k) + b[2]);
    s.velocity = thermal_.velocity(id, species_);
    return s;
  }

  void for_each_tether(const std::function<void(const TetherSpec&)>&) const override {}

 private:
  std::int64_t cells_;
  double a_;
  Vec3 origin_;
  SpeciesIndex species_;
  ThermalVelocities thermal_;
};

}  // namespace

std::unique_ptr<GeneratedSystem> FccGas::make(const ParameterSet& p, const Model& model) const {
  const auto cells = parameter_integer(p, "cells");
  const double a = lattice_constant(p);
  const SpeciesIndex species = species_parameter(p, model, "species");
  // Neighbours on the lattice are a / sqrt(2) apart: closer than the
  // blocking distance, every particle starts overlapping twelve others,
  // which the dynamics cannot resolve (docs/engine.md, "Stalls").
  const double blocking = model.pair(species, species).blocking;
  if (a / std::sqrt(2.0) < blocking) {
    throw ModelError({"initial.parameters.density",
                      "the lattice would overlap: neighbours " + std::to_string(a / std::sqrt(2.0)) +
                          " apart, closer than the blocking distance " + std::to_string(blocking) +
                          " (the densest packing is density sqrt(2)/blocking^3 = " +
                          std::to_string(std::sqrt(2.0) / (blocking * blocking * blocking)) + ")"});
  }
  const Vec3 origin = model.domain().lo + Vec3::Constant(0.25 * a);
  return std::make_unique<FccSystem>(cells, a, origin, species, model, parameter_number(p, "temperature"));
}

}  // namespace tethersim::scenario
