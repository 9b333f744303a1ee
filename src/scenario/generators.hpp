#pragma once
// The built-in generators (private to src/scenario; reached through
// find_generator / all_generators).

#include "tethersim/scenario/generator.hpp"

namespace tethersim::scenario {

#define TETHERSIM_GENERATOR_INTERFACE                                                    \
  std::string_view name() const override;                                                \
  std::string_view summary() const override;                                             \
  const std::vector<ParameterInfo>& parameters() const override;                         \
  std::vector<ModelProblem> check(const ParameterSet&, const ModelData&) const override; \
  std::unique_ptr<GeneratedSystem> make(const ParameterSet&, const Model&) const override; \
  std::uint64_t particle_count(const ParameterSet&) const override;

// Elastic hard-sphere gas on an FCC lattice (the event-driven MD benchmark).
class FccGas final : public Generator {
 public:
  TETHERSIM_GENERATOR_INTERFACE
  std::optional<Box> suggested_box(const ParameterSet&) const override;
};

// N particles placed uniformly at random without overlaps.
class RandomGas final : public Generator {
 public:
  TETHERSIM_GENERATOR_INTERFACE
  // Built whole: each placement depends on earlier ones (or on the mesh).
  GeneratedState generate_whole(const ParameterSet&, const Model&) const;
};

// The thesis presynaptic nerve terminal (docs/physics.md, "The published models").
class Presynaptic final : public Generator {
 public:
  TETHERSIM_GENERATOR_INTERFACE
  // Built whole: each placement depends on earlier ones (or on the mesh).
  GeneratedState generate_whole(const ParameterSet&, const Model&) const;
  std::optional<Box> suggested_box(const ParameterSet&) const override;
};

// Two concentric geodesic icosahedral shells and a projectile (docs/physics.md,
// "The published models").
class MembraneSphere final : public Generator {
 public:
  TETHERSIM_GENERATOR_INTERFACE
  // Built whole: each placement depends on earlier ones (or on the mesh).
  GeneratedState generate_whole(const ParameterSet&, const Model&) const;
  std::optional<Box> suggested_box(const ParameterSet&) const override;
};

// A two-layer square sheet clamped on two edges and a projectile
// (docs/physics.md, "The published models").
class MembraneSheet final : public Generator {
 public:
  TETHERSIM_GENERATOR_INTERFACE
  std::optional<Box> suggested_box(const ParameterSet&) const override;
};

#undef TETHERSIM_GENERATOR_INTERFACE

}  // namespace tethersim::scenario
