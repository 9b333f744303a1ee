#include "tethersim/scenario/initial_system.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "tethersim/scenario/memory_budget.hpp"
#include "tethersim/model/pair_order.hpp"

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

void check_particle(const Model& model, const ParticleSpec& p, bool generated) {
  const Domain& domain = model.domain();
  const std::string key = origin_key(p, generated);
  const std::string who = "particle " + std::to_string(p.id) + " (species " + model.species(p.species).name + ")";
  // Trajectories and checkpoints store ids as signed 64-bit integers.
  if (p.id > static_cast<ParticleId>(INT64_MAX)) {
    throw ModelError({key, "particle id " + std::to_string(p.id) +
                               " is too large (ids must be at most 9223372036854775807)"});
  }
  if (!p.position.allFinite() || !p.velocity.allFinite()) {
    throw ModelError({key, who + " has a position or velocity that is not finite"});
  }
  if (!domain.contains(p.position)) {
    throw ModelError({key, who + " at " + vector_text(p.position) + " lies outside the box " +
                               vector_text(domain.lo) + " - " + vector_text(domain.hi)});
  }
  if (model.species(p.species).infinite_mass() && p.velocity.squaredNorm() != 0.0) {
    throw ModelError({key, who + " has infinite mass and must be at rest (velocity " + vector_text(p.velocity) + ")"});
  }
  for (int k = model.dimensions(); k < 3; ++k) {
    if (p.position[k] != 0.0) {
      throw ModelError({key, who + " lies off the axes of a " + std::to_string(model.dimensions()) +
                                 "-D model (unused coordinates must be 0)"});
    }
    if (p.velocity[k] != 0.0) {
      throw ModelError({key, who + " moves along an axis a " + std::to_string(model.dimensions()) +
                                 "-D model does not have"});
    }
  }
}

bool same_tether(const TetherSpec& x, const TetherSpec& y) { return x.a == y.a && x.b == y.b; }

TetherSpec ordered(TetherSpec t) {
  if (t.a > t.b) std::swap(t.a, t.b);
  return t;
}

}  // namespace

InitialSystem::InitialSystem(const Model& model) {
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
    generated_system_ = generator->make(g->parameters, model);
    generated_ = generated_system_->size();
  } else if (auto problem = memory_problem(model, model.initial().particles.size(), "initial",
                                           physical_memory_bytes())) {
    throw ModelError(*problem);
  }
  const std::vector<ParticleSpec>& listed = model.initial().particles;
  explicit_by_id_.resize(listed.size());
  for (std::size_t k = 0; k < listed.size(); ++k) explicit_by_id_[k] = k;
  std::stable_sort(explicit_by_id_.begin(), explicit_by_id_.end(),
                   [&](std::size_t x, std::size_t y) { return listed[x].id < listed[y].id; });
}

InitialSystem::InitialSystem(InitialSystem&&) noexcept = default;
InitialSystem& InitialSystem::operator=(InitialSystem&&) noexcept = default;
InitialSystem::~InitialSystem() = default;

void InitialSystem::for_each_particle(const Model& model,
                                      const std::function<void(const ParticleSpec&)>& visit) const {
  for (ParticleId id = 0; id < generated_; ++id) visit(generated_system_->particle(id));
  for (std::size_t k : explicit_by_id_) visit(model.initial().particles[k]);
}

void InitialSystem::for_each_tether(const Model& model, const std::function<void(const TetherSpec&)>& visit) const {
  if (generated_system_) generated_system_->for_each_tether([&](const TetherSpec& t) { visit(ordered(t)); });
  for (const TetherSpec& t : model.initial().tethers) visit(ordered(t));
}

std::optional<ParticleSpec> InitialSystem::find(const Model& model, ParticleId id) const {
  if (id < generated_) return generated_system_->particle(id);
  const std::vector<ParticleSpec>& listed = model.initial().particles;
  const auto it = std::lower_bound(explicit_by_id_.begin(), explicit_by_id_.end(), id,
                                   [&](std::size_t k, ParticleId x) { return listed[k].id < x; });
  if (it == explicit_by_id_.end() || listed[*it].id != id) return std::nullopt;
  return listed[*it];
}

InitialCounts InitialSystem::check(const Model& model) const {
  InitialCounts counts;
  counts.count_by_species.assign(model.species().size(), 0);
  // Each particle: the generated ones, then the explicit ones as listed.
  for (ParticleId id = 0; id < generated_; ++id) {
    const ParticleSpec p = generated_system_->particle(id);
    check_particle(model, p, true);
    ++counts.count_by_species[p.species];
  }
  const std::vector<ParticleSpec>& listed = model.initial().particles;
  for (const ParticleSpec& p : listed) {
    check_particle(model, p, false);
    ++counts.count_by_species[p.species];
  }
  counts.particles = size();

  // Generated ids are 0 ... G-1, so the smallest id given twice is an
  // explicit one: report it at its line.
  std::optional<ParticleId> duplicate;
  for (std::size_t k = 0; k < explicit_by_id_.size(); ++k) {
    const ParticleId id = listed[explicit_by_id_[k]].id;
    if (id < generated_ || (k > 0 && listed[explicit_by_id_[k - 1]].id == id)) {
      duplicate = duplicate ? std::min(*duplicate, id) : id;
    }
  }
  if (duplicate) {
    throw ModelError({"initial.particle." + std::to_string(*duplicate),
                      "duplicate particle id " + std::to_string(*duplicate) +
                          " (generated and explicit particles share one id space)"});
  }

  // Tethers, in the order listed (generated first).
  const Domain& domain = model.domain();
  for_each_tether(model, [&](const TetherSpec& t) {
    ++counts.tethers;
    const std::string name = "tether " + std::to_string(t.a) + "-" + std::to_string(t.b);
    if (t.a == t.b) throw ModelError({"initial.tethers", name + " joins a particle to itself"});
    const std::optional<ParticleSpec> a = find(model, t.a), b = find(model, t.b);
    if (!a || !b) {
      throw ModelError({"initial.tethers", name + " refers to particle " + std::to_string(!a ? t.a : t.b) +
                                               ", which does not exist"});
    }
    const PairParameters& pair = model.pair(a->species, b->species);
    const std::string pair_name = model.species(a->species).name + "-" + model.species(b->species).name;
    if (!pair.tetherable()) {
      throw ModelError({"initial.tethers", name + ": pair " + pair_name + " has no tethering distance"});
    }
    // A tether may start slack, never stretched (nor overlapping: the
    // overlap check).
    Vec3 d = b->position - a->position;
    for (int k = 0; k < 3; ++k) {
      if (wraps(domain.boundary[k])) d[k] -= domain.length()[k] * std::nearbyint(d[k] / domain.length()[k]);
    }
    if (d.norm() > pair.tethering * (1.0 + 1e-9)) {
      throw ModelError({"initial.tethers", name + " is " + std::to_string(d.norm()) + " long, beyond the " +
                                               pair_name + " tethering distance " + std::to_string(pair.tethering)});
    }
  });
  // Listed twice: generated tethers are unique, so one of the two is
  // explicit; the smallest such pair is reported.
  std::vector<TetherSpec> listed_tethers;
  for (const TetherSpec& t : model.initial().tethers) listed_tethers.push_back(ordered(t));
  std::sort(listed_tethers.begin(), listed_tethers.end(), by_ends);
  std::optional<TetherSpec> twice;
  auto note = [&](const TetherSpec& t) {
    if (!twice || by_ends(t, *twice)) twice = t;
  };
  for (std::size_t k = 1; k < listed_tethers.size(); ++k) {
    if (same_tether(listed_tethers[k], listed_tethers[k - 1])) note(listed_tethers[k]);
  }
  if (generated_system_ && !listed_tethers.empty()) {
    generated_system_->for_each_tether([&](const TetherSpec& g) {
      const TetherSpec t = ordered(g);
      if (std::binary_search(listed_tethers.begin(), listed_tethers.end(), t, by_ends)) note(t);
    });
  }
  if (twice) {
    throw ModelError({"initial.tethers", "tether " + std::to_string(twice->a) + "-" + std::to_string(twice->b) +
                                             " is listed twice"});
  }
  return counts;
}

InitialParticles InitialSystem::keep(const Model& model, const std::function<bool(const ParticleSpec&)>& keep) const {
  InitialParticles kept;
  std::size_t count = 0;
  for_each_particle(model, [&](const ParticleSpec& p) { count += keep(p) ? 1 : 0; });
  kept.particles.reserve(count);
  kept.count_by_species.assign(model.species().size(), 0);
  for_each_particle(model, [&](const ParticleSpec& p) {
    if (!keep(p)) return;
    kept.particles.push_back(p);
    ++kept.count_by_species[p.species];
  });
  auto held = [&](ParticleId id) {
    const auto it = std::lower_bound(kept.particles.begin(), kept.particles.end(), id,
                                     [](const ParticleSpec& p, ParticleId x) { return p.id < x; });
    return it != kept.particles.end() && it->id == id;
  };
  for_each_tether(model, [&](const TetherSpec& t) {
    if (held(t.a) && held(t.b)) kept.tethers.push_back(t);
  });
  std::sort(kept.tethers.begin(), kept.tethers.end(), by_ends);
  return kept;
}

ModelProblem InitialSystem::overlap_problem(const Model& model, std::span<const ParticleSpec> held,
                                            const Overlap& overlap) const {
  const ParticleSpec& later = held[overlap.second];
  const ParticleSpec& earlier = held[overlap.first];
  const bool later_generated = later.id < generated_;
  const ParticleSpec& blamed = later_generated ? earlier : later;
  return {origin_key(blamed, later_generated && earlier.id < generated_), describe_overlap(held, model, overlap)};
}

void check_anchors(const Model& model, const InitialCounts& counts) {
  const ActionPotentials& ap = model.action_potentials();
  if (!ap.enabled()) return;
  for (auto [species, key] : {std::make_pair(ap.membrane, "action_potential.membrane"),
                              std::make_pair(ap.zone, "action_potential.zone")}) {
    const std::size_t n = counts.count_by_species[species];
    if (n != 1) {
      throw ModelError({key, "species '" + model.species(species).name + "' must have exactly one particle, found " +
                                 std::to_string(n)});
    }
  }
}

InitialParticles build_initial_particles(const Model& model) {
  const InitialSystem system(model);
  const InitialCounts counts = system.check(model);
  InitialParticles init = system.keep(model, [](const ParticleSpec&) { return true; });
  if (const std::optional<Overlap> overlap = first_overlap(init.particles, model)) {
    throw ModelError(system.overlap_problem(model, init.particles, *overlap));
  }
  check_anchors(model, counts);
  return init;
}

}  // namespace tethersim::scenario
