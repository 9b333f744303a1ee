#pragma once
// Scenario generators: named builders of initial particles and tethers
// (fcc gas, presynaptic terminal, membranes ...), selected and parameterised
// from a model file's [initial] table.

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

  // How many particles generate() will make (explicit particles without an
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

  // Builds the particles and tethers; ids start at 0 and are dense.
  // Deterministic: a pure function of the model (its seed included).
  virtual GeneratedState generate(const ParameterSet& params, const Model& model) const = 0;
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
