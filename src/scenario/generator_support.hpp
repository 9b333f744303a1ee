#pragma once
// Helpers shared by the generators (private to src/scenario).

#include <functional>
#include <string>
#include <vector>

#include "tethersim/physics/counter_rng.hpp"
#include "tethersim/scenario/generator.hpp"

namespace tethersim::scenario {

// Collects parameter problems under "initial.parameters.<name>".
class ParameterChecks {
 public:
  ParameterChecks(const ParameterSet& params, const ModelData& model)
      : params_(params), model_(model) {}

  // The named parameter must name a species; returns it when it does.
  std::optional<SpeciesIndex> species(const std::string& name, bool finite_mass_required,
                                      bool infinite_mass_required = false);
  void positive(const std::string& name);
  void non_negative(const std::string& name);
  void at_least(const std::string& name, std::int64_t minimum);
  void add(const std::string& name, const std::string& message);
  std::vector<ModelProblem> take() { return std::move(problems_); }

 private:
  const ParameterSet& params_;
  const ModelData& model_;
  std::vector<ModelProblem> problems_;
};

SpeciesIndex species_parameter(const ParameterSet& params, const Model& model,
                               const std::string& name);

// Maxwell-Boltzmann velocities at temperature kT for the finite-mass
// generated particles (ids 0 .. count-1, in the model's dimensions), then
// the centre-of-mass drift removed and the kinetic energy rescaled to
// exactly (dims/2)(N-1) kT. Each particle's draw comes from its own counter
// stream, so a velocity is a function of the id and two sums over every
// particle, which the constructor takes in id order (two passes of draws,
// nothing kept per particle): a lattice computes any particle's velocity
// on demand.
class ThermalVelocities {
 public:
  ThermalVelocities(const Model& model, double temperature, std::uint64_t count,
                    const std::function<SpeciesIndex(ParticleId)>& species_of);
  // precondition: `species` has finite mass
  Vec3 velocity(ParticleId id, SpeciesIndex species) const;

 private:
  Vec3 draw(ParticleId id, SpeciesIndex species) const;

  std::uint64_t seed_;
  int dimensions_;
  double temperature_;
  std::vector<double> mass_;
  Vec3 drift_ = Vec3::Zero();
  double scale_ = 1.0;
  bool scaled_ = false;
};

// The same for particles built whole (id == index).
void assign_thermal_velocities(std::vector<ParticleSpec>& particles, const Model& model,
                               double temperature);

// Uniform in the ball (disc, segment) of the given radius.
Vec3 random_point_in_ball(physics::CounterRng& rng, double radius, int dimensions);

// Throws ModelError for the parameter when two tethered particles start
// farther apart than their tethering distance or closer than their blocking
// distance: a generator whose geometry does not fit the model's pairs.
void check_tether_length(const ParticleSpec& a, const ParticleSpec& b, const Model& model,
                         const std::string& parameter);
// Every tether of `state` in order (particles with dense ids).
void check_tether_lengths(const GeneratedState& state, const Model& model,
                          const std::string& parameter);

}  // namespace tethersim::scenario
