#include <cstdint>
#include <stdexcept>

#include "generators.hpp"

namespace tethersim::scenario {

std::vector<const Generator*> all_generators() {
  static const FccGas fcc_gas;
  static const RandomGas random_gas;
  static const Presynaptic presynaptic;
  static const MembraneSphere membrane_sphere;
  static const MembraneSheet membrane_sheet;
  return {&fcc_gas, &random_gas, &presynaptic, &membrane_sphere, &membrane_sheet};
}

const Generator* find_generator(std::string_view name) {
  for (const Generator* g : all_generators()) {
    if (g->name() == name) return g;
  }
  return nullptr;
}

namespace {
const ParameterValue& lookup(const ParameterSet& params, const std::string& name) {
  const auto it = params.find(name);
  if (it == params.end()) throw std::logic_error("generator parameter '" + name + "' missing");
  return it->second;
}
}  // namespace

std::uint64_t saturating_count(double count) {
  // 2^64 is exact in a double; anything from there up (or NaN) saturates.
  constexpr double kLimit = 18446744073709551616.0;
  if (!(count < kLimit)) return UINT64_MAX;
  return count <= 0.0 ? 0 : static_cast<std::uint64_t>(count);
}

double parameter_number(const ParameterSet& params, const std::string& name) {
  const ParameterValue& v = lookup(params, name);
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  return std::get<double>(v);
}

std::int64_t parameter_integer(const ParameterSet& params, const std::string& name) {
  return std::get<std::int64_t>(lookup(params, name));
}

bool parameter_flag(const ParameterSet& params, const std::string& name) {
  return std::get<bool>(lookup(params, name));
}

const std::string& parameter_text(const ParameterSet& params, const std::string& name) {
  return std::get<std::string>(lookup(params, name));
}

Vec3 parameter_vector(const ParameterSet& params, const std::string& name) {
  const auto& xs = std::get<std::vector<double>>(lookup(params, name));
  Vec3 v = Vec3::Zero();
  for (std::size_t k = 0; k < xs.size() && k < 3; ++k) v[static_cast<int>(k)] = xs[k];
  return v;
}

}  // namespace tethersim::scenario
