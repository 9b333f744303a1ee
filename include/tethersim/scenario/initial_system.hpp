#pragma once
// The initial state of a fresh run as a stream: the generator's particles
// (ids 0 ... G-1, each made from its id) then the model's explicit ones
// (particle files and [[initial.particle]] tables) in id order, and the
// tethers of both. A serial run keeps everything (build_initial_particles);
// each rank of a distributed start passes over the stream twice, once to
// check it and learn where the particles are, once to keep its window, so
// that it never holds the whole system (docs/distribution.md, "Start-up").

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "tethersim/model/model.hpp"
#include "tethersim/scenario/generator.hpp"
#include "tethersim/scenario/initial_particles.hpp"
#include "tethersim/scenario/overlap.hpp"

namespace tethersim::scenario {

// What a run needs to know of the whole initial state: counts only.
struct InitialCounts {
  std::vector<std::size_t> count_by_species;
  std::uint64_t particles = 0;
  std::uint64_t tethers = 0;
};

class InitialSystem {
 public:
  // Makes the generator's system (after refusing counts that cannot fit in
  // memory); throws ModelError. Keeps no reference to `model`: every call
  // takes it again (the same model).
  explicit InitialSystem(const Model& model);
  InitialSystem(InitialSystem&&) noexcept;
  InitialSystem& operator=(InitialSystem&&) noexcept;
  ~InitialSystem();

  std::uint64_t size() const { return generated_ + explicit_by_id_.size(); }

  // Every particle in id order.
  void for_each_particle(const Model& model, const std::function<void(const ParticleSpec&)>& visit) const;

  // Pass 1, everything build_initial_particles checks but the overlaps and
  // the action-potential anchors (check_anchors), in its order: each
  // particle (inside the box, finite, infinite masses at rest, unused axes),
  // unique ids, tethers (existing, different ends, a tetherable pair, not
  // stretched, listed once). Throws ModelError with the key of the
  // generator or of the explicit particle at fault.
  InitialCounts check(const Model& model) const;

  // Pass 2: the particles `keep` accepts, sorted by id (counted first, so
  // that no vector grows beyond them), and the tethers between two of them,
  // sorted; count_by_species of what is kept.
  InitialParticles keep(const Model& model, const std::function<bool(const ParticleSpec&)>& keep) const;

  // The error an overlap among `held` (particles of this system sorted by
  // id, as keep gives them) is refused with: on the explicit particle of the
  // pair when there is one (its line is known), else on the generator.
  ModelProblem overlap_problem(const Model& model, std::span<const ParticleSpec> held,
                               const Overlap& overlap) const;

 private:
  std::optional<ParticleSpec> find(const Model& model, ParticleId id) const;
  void for_each_tether(const Model& model, const std::function<void(const TetherSpec&)>& visit) const;

  std::unique_ptr<GeneratedSystem> generated_system_;
  std::uint64_t generated_ = 0;
  // Indices into model.initial().particles in id order.
  std::vector<std::size_t> explicit_by_id_;
};

// With action potentials, exactly one membrane and one zone particle: the
// last check of an initial state, after the overlaps. Throws ModelError.
void check_anchors(const Model& model, const InitialCounts& counts);

}  // namespace tethersim::scenario
