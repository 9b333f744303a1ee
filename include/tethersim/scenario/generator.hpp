#pragma once
// Scenario generators: named builders of initial particles and tethers
// (fcc gas, presynaptic terminal, membranes ...), selected and parameterised
// from a model file's [initial] table.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tethersim/model/initial_state.hpp"
#include "tethersim/model/model.hpp"

namespace tethersim::scenario {

struct ParameterInfo {
  std::string name;
  ParameterValue default_value;  // also fixes the parameter's type
  std::string help;
};

struct GeneratedState {
  std::vector<ParticleSpec> particles;
  std::vector<TetherSpec> tethers;
};

// What a generator made, particle by particle: ids are dense from 0, and
// each particle is a pure function of its id (the model's values it needs
// are captured when the system is made), so that a rank of a distributed
// start computes only the particles it keeps and holds nothing per particle
// for the rest. Tethers come in a fixed order, each joining two different
// generated particles, none listed twice; the generator has checked their
// lengths against the pairs. Lattices compute particles on demand; a
// generator whose placements depend on earlier ones (random-gas,
// presynaptic) or on a mesh (membrane-sphere) keeps its particles whole.
class GeneratedSystem {
 public:
  virtual ~GeneratedSystem() = default;
  virtual std::uint64_t size() const = 0;
  // precondition: id < size()
  virtual ParticleSpec particle(ParticleId id) const = 0;
  virtual void for_each_tether(const std::function<void(const TetherSpec&)>& visit) const = 0;
};

// A system made whole: its particles (id == index) and tethers.
class StoredSystem final : public GeneratedSystem {
 public:
  explicit StoredSystem(GeneratedState state) : state_(std::move(state)) {}
  std::uint64_t size() const override { return state_.particles.size(); }
  ParticleSpec particle(ParticleId id) const override { return state_.particles[id]; }
  void for_each_tether(const std::function<void(const TetherSpec&)>& visit) const override {
    for (const TetherSpec& t : state_.tethers) visit(t);
  }

 private:
  GeneratedState state_;
};

struct Box {
  Vec3 lo;
  Vec3 hi;
};

class Generator {
 public:
  virtual ~Generator() = default;
  virtual std::string_view name() const = 0;
  virtual std::string_view summary() const = 0;
  virtual const std::vector<ParameterInfo>& parameters() const = 0;

  // How many particles make() will make (explicit particles without an
  // id are numbered after them), computed without overflow: parameters too
  // large give UINT64_MAX, which the memory check refuses.
  virtual std::uint64_t particle_count(const ParameterSet& params) const = 0;

  // A box that fits the generated particles, used when the model file gives
  // no [domain] lo/hi. Needs only the parameters.
  virtual std::optional<Box> suggested_box(const ParameterSet&) const { return std::nullopt; }

  // Checks the parameters against the model (species exist, counts are
  // sensible ...); problems use keys "initial.parameters.<name>".
  virtual std::vector<ModelProblem> check(const ParameterSet& params,
                                          const ModelData& model) const = 0;

  // Makes the particles and tethers (GeneratedSystem); ids start at 0 and
  // are dense. Deterministic: a pure function of the model (its seed
  // included). Throws ModelError for a geometry the model's pairs refuse.
  virtual std::unique_ptr<GeneratedSystem> make(const ParameterSet& params, const Model& model) const = 0;
};

const Generator* find_generator(std::string_view name);
std::vector<const Generator*> all_generators();

// A count computed in floating point (so that no parameter can overflow
// it), as an integer; UINT64_MAX when it does not fit.
std::uint64_t saturating_count(double count);

// Typed access to a complete parameter set (defaults filled in).
double parameter_number(const ParameterSet& params, const std::string& name);
std::int64_t parameter_integer(const ParameterSet& params, const std::string& name);
bool parameter_flag(const ParameterSet& params, const std::string& name);
const std::string& parameter_text(const ParameterSet& params, const std::string& name);
Vec3 parameter_vector(const ParameterSet& params, const std::string& name);

}  // namespace tethersim::scenario
