#include "tethersim/model/unbounded_heating.hpp"

namespace tethersim {

namespace {

bool dragged(const Model& model, SpeciesIndex s) {
  for (const PeriodicImpulse& e : model.periodic_impulses()) {
    if (e.kind == PeriodicImpulseKind::drag && e.applies_to[s] && e.viscosity > 0.0) return true;
  }
  return false;
}

// Whether a collision of the pair can take kinetic energy away.
bool dissipates(const PairParameters& p) {
  if (p.blocks() && p.c_rebound < 1.0) return true;
  return p.tetherable() && (p.c_retract < 1.0 || p.c_revolve < 1.0);
}

}  // namespace

std::vector<ModelProblem> unbounded_heating(const Model& model) {
  std::vector<ModelProblem> warnings;
  const auto n = static_cast<SpeciesIndex>(model.species().size());
  for (SpeciesIndex s = 0; s < n; ++s) {
    const Species& heated = model.species(s);
    if (!heated.random_impulse.enabled() || heated.infinite_mass() || !(heated.random_impulse.mean > 0.0)) continue;
    // The species the energy can reach: mobile ones through pairs that
    // interact; an infinite mass takes an impulse but never energy.
    std::vector<bool> reached(n, false);
    std::vector<SpeciesIndex> queue{s};
    reached[s] = true;
    bool sink = false;
    while (!queue.empty() && !sink) {
      const SpeciesIndex a = queue.back();
      queue.pop_back();
      if (dragged(model, a)) sink = true;
      for (SpeciesIndex b = 0; b < n && !sink; ++b) {
        const PairParameters& p = model.pair(a, b);
        if (!p.blocks() && !p.tetherable()) continue;
        if (dissipates(p)) sink = true;
        if (!reached[b] && !model.species(b).infinite_mass()) {
          reached[b] = true;
          queue.push_back(b);
        }
      }
    }
    if (sink) continue;
    warnings.push_back({"species." + heated.name + ".random_impulse",
                        "random impulses heat " + heated.name +
                            " without bound: no drag acts on it or on any species it collides with, and "
                            "all their collisions are elastic; add a drag [[external]] or give " +
                            heated.name + " a thermostat (docs/physics.md, \"Temperature\")"});
  }
  return warnings;
}

}  // namespace tethersim
