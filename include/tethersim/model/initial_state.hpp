#pragma once
// Initial conditions: a generator with parameters, particle and tether
// files, and explicit particles and tethers, in any combination.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "tethersim/model/species.hpp"
#include "tethersim/physics/vector.hpp"

namespace tethersim {

using ParticleId = std::uint64_t;

struct ParticleSpec {
  ParticleId id = 0;
  SpeciesIndex species = 0;
  Vec3 position = Vec3::Zero();
  Vec3 velocity = Vec3::Zero();
};

struct TetherSpec {
  ParticleId a = 0;
  ParticleId b = 0;
};

using ParameterValue = std::variant<bool, std::int64_t, double, std::string, std::vector<double>>;
using ParameterSet = std::map<std::string, ParameterValue>;

struct GeneratorSpec {
  std::string kind;
  ParameterSet parameters;  // complete: defaults filled in by the reader
};

struct InitialState {
  std::optional<GeneratorSpec> generator;
  std::string particles_file;  // CSV: id,species,x,y,z[,vx,vy,vz]
  std::string tethers_file;    // CSV: a,b
  std::string from;            // a checkpoint or trajectory: its state's particles and tethers
  std::int64_t from_frame = -1;  // the trajectory frame (negative: from the end)
  std::vector<ParticleSpec> particles;
  std::vector<TetherSpec> tethers;
};

}  // namespace tethersim
