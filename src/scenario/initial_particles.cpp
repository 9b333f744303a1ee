#include "tethersim/scenario/initial_particles.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "tethersim/scenario/generator.hpp"
#include "tethersim/scenario/memory_budget.hpp"
#include "tethersim/scenario/overlap.hpp"

namespace tethersim::scenario {

namespace {

std::string vector_text(const Vec3& v) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "(%.6g, %.6g, %.6g)", v[0], v[1], v[2]);
  return buffer;
}

// Which model key a particle came from, for error messages: the reader
// records the source line of every explicit particle under its id.
std::string origin_key(const ParticleSpec& p, bool generated) {
  return generated ? "initial.generator" : "initial.particle." + std::to_string(p.id);
}

void check_particles(const Model& model, const std::vector<ParticleSpec>& particles,
                     std::size_t generated_count) {
  const Domain& domain = model.domain();
  for (std::size_t i = 0; i < particles.size(); ++i) {
    const ParticleSpec& p = particles[i];
    const std::string key = origin_key(p, i < generated_count);
    const std::string who = "particle " + std::to_string(p.id) + " (species " +
                            model.species(p.species).name + ")";
    // Trajectories and checkpoints store ids as signed 64-bit integers.
    if (p.id > static_cast<ParticleId>(INT64_MAX)) {
      throw ModelError({key, "particle id " + std::to_string(p.id) +
                                 " is too large (ids must be at most 9223372036854775807)"});
    }
    if (!p.position.allFinite() || !p.velocity.allFinite()) {
      throw ModelError({key, who + " has a position or velocity that is not finite"});
    }
    if (!domain.contains(p.position)) {
      throw ModelError({key, who + " at " + vector_text(p.position) +
                                 " lies outside the box " + vector_text(domain.lo) + " - " +
                                 vector_text(domain.hi)});
    }
    if (model.species(p.species).infinite_mass() && p.velocity.squaredNorm() != 0.0) {
      throw ModelError({key, who + " has infinite mass and must be at rest (velocity " +
                                 vector_text(p.velocity) + ")"});
    }
    for (int k = model.dimensions(); k < 3; ++k) {
      if (p.position[k] != 0.0) {
        throw ModelError({key, who + " lies off the axes of a " +
                                   std::to_string(model.dimensions()) +
                                   "-D model (unused coordinates must be 0)"});
      }
      if (p.velocity[k] != 0.0) {
        throw ModelError({key, who + " moves along an axis a " +
                                   std::to_string(model.dimensions()) + "-D model does not have"});
      }
    }
  }
}

// Generated ids are dense and unique, and the sort is stable, so the later
// of two equal ids is always an explicit particle: report it at its line.
void check_unique_ids(const std::vector<ParticleSpec>& sorted) {
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    if (sorted[i].id == sorted[i - 1].id) {
      throw ModelError({origin_key(sorted[i], false),
                        "duplicate particle id " + std::to_string(sorted[i].id) +
                            " (generated and explicit particles share one id space)"});
    }
  }
}

const ParticleSpec* find_particle(const std::vector<ParticleSpec>& sorted, ParticleId id) {
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), id,
                                   [](const ParticleSpec& p, ParticleId x) { return p.id < x; });
  return it != sorted.end() && it->id == id ? &*it : nullptr;
}

void check_tethers(const Model& model, const std::vector<ParticleSpec>& sorted,
                   std::vector<TetherSpec>& tethers) {
  for (TetherSpec& t : tethers) {
    if (t.a > t.b) std::swap(t.a, t.b);
    const std::string name = "tether " + std::to_string(t.a) + "-" + std::to_string(t.b);
    if (t.a == t.b) throw ModelError({"initial.tethers", name + " joins a particle to itself"});
    const ParticleSpec* a = find_particle(sorted, t.a);
    const ParticleSpec* b = find_particle(sorted, t.b);
    if (a == nullptr || b == nullptr) {
      throw ModelError({"initial.tethers", name + " refers to particle " +
                                               std::to_string(a == nullptr ? t.a : t.b) +
                                               ", which does not exist"});
    }
    const PairParameters& pair = model.pair(a->species, b->species);
    const std::string pair_name =
        model.species(a->species).name + "-" + model.species(b->species).name;
    if (!pair.tetherable()) {
      throw ModelError({"initial.tethers", name + ": pair " + pair_name + " has no tethering distance"});
    }
    // A tether may start slack, never stretched (nor overlapping: check_overlaps).
    Vec3 d = b->position - a->position;
    for (int k = 0; k < 3; ++k) {
      if (wraps(model.domain().boundary[k])) {
        d[k] -= model.domain().length()[k] * std::nearbyint(d[k] / model.domain().length()[k]);
      }
    }
    if (d.norm() > pair.tethering * (1.0 + 1e-9)) {
      throw ModelError({"initial.tethers", name + " is " + std::to_string(d.norm()) +
                                               " long, beyond the " + pair_name +
                                               " tethering distance " +
                                               std::to_string(pair.tethering)});
    }
  }
  std::sort(tethers.begin(), tethers.end(),
            [](const TetherSpec& x, const TetherSpec& y) {
              return x.a != y.a ? x.a < y.a : x.b < y.b;
            });
  for (std::size_t i = 1; i < tethers.size(); ++i) {
    if (tethers[i].a == tethers[i - 1].a && tethers[i].b == tethers[i - 1].b) {
      throw ModelError({"initial.tethers", "tether " + std::to_string(tethers[i].a) + "-" +
                                               std::to_string(tethers[i].b) + " is listed twice"});
    }
  }
}

// Generated ids are 0 ... generated_count - 1, so an overlap is blamed on
// the explicit particle of the pair when there is one (its line is known).
void check_overlaps(const Model& model, const std::vector<ParticleSpec>& sorted,
                    std::size_t generated_count) {
  const std::optional<Overlap> overlap = first_overlap(sorted, model);
  if (!overlap) return;
  const ParticleSpec& later = sorted[overlap->second];
  const ParticleSpec& earlier = sorted[overlap->first];
  const bool later_generated = later.id < generated_count;
  const ParticleSpec& blamed = later_generated ? earlier : later;
  throw ModelError({origin_key(blamed, later_generated && earlier.id < generated_count),
                    describe_overlap(sorted, model, *overlap)});
}

void check_action_potential_anchors(const Model& model, const InitialParticles& init) {
  const ActionPotentials& ap = model.action_potentials();
  if (!ap.enabled()) return;
  for (auto [species, key] : {std::make_pair(ap.membrane, "action_potential.membrane"),
                              std::make_pair(ap.zone, "action_potential.zone")}) {
    const std::size_t n = init.count_by_species[species];
    if (n != 1) {
      throw ModelError({key, "species '" + model.species(species).name +
                                 "' must have exactly one particle, found " + std::to_string(n)});
    }
  }
}

}  // namespace

InitialParticles build_initial_particles(const Model& model) {
  InitialParticles init;
  std::size_t generated_count = 0;
  if (const auto& g = model.initial().generator) {
    const Generator* generator = find_generator(g->kind);
    if (generator == nullptr) {
      throw ModelError({"initial.generator", "unknown generator '" + g->kind + "'"});
    }
    // Before generating: parameters can ask for more than memory holds.
    const std::uint64_t generated = generator->particle_count(g->parameters);
    const std::uint64_t total = saturating_count(static_cast<double>(generated) +
                                                 static_cast<double>(model.initial().particles.size()));
    if (auto problem = memory_problem(model, total, "initial.generator", physical_memory_bytes())) {
      throw ModelError(*problem);
    }
    GeneratedState state = generator->generate(g->parameters, model);
    generated_count = state.particles.size();
    init.particles = std::move(state.particles);
    init.tethers = std::move(state.tethers);
  }
  if (!model.initial().generator) {
    if (auto problem = memory_problem(model, model.initial().particles.size(), "initial",
                                      physical_memory_bytes())) {
      throw ModelError(*problem);
    }
  }
  init.particles.insert(init.particles.end(), model.initial().particles.begin(),
                        model.initial().particles.end());
  init.tethers.insert(init.tethers.end(), model.initial().tethers.begin(),
                      model.initial().tethers.end());

  check_particles(model, init.particles, generated_count);
  // Generators produce sorted ids: skip the sort (and its memory) then.
  auto by_id = [](const ParticleSpec& a, const ParticleSpec& b) { return a.id < b.id; };
  if (!std::is_sorted(init.particles.begin(), init.particles.end(), by_id)) {
    std::sort(init.particles.begin(), init.particles.end(), by_id);
  }
  check_unique_ids(init.particles);
  check_tethers(model, init.particles, init.tethers);
  check_overlaps(model, init.particles, generated_count);

  init.count_by_species.assign(model.species().size(), 0);
  for (const ParticleSpec& p : init.particles) ++init.count_by_species[p.species];
  check_action_potential_anchors(model, init);
  return init;
}

}  // namespace tethersim::scenario
