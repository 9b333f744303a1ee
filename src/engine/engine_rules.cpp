// Tethering rules and action-potential gating (docs/physics.md, "Tethers
// forming and breaking" and "Action potentials").
#include "tethersim/engine/engine.hpp"

namespace tethersim::engine {

bool Engine::reaction_passed(int reaction, Index subject, double t) const {
  return active_window_ >= 0 && t >= phi_[static_cast<std::size_t>(reaction)][subject];
}

std::size_t Engine::partners_of_species(Index i, SpeciesIndex s) const {
  std::size_t n = 0;
  tethers_.for_each(i, [&](Index p, std::uint32_t) { n += particles_.state[p].species == s; });
  return n;
}

namespace {

// Orders (a, b) so that x has species first and y species second; false
// when the pair is not of these species.
bool match(SpeciesIndex first, SpeciesIndex second, Index a, Index b, SpeciesIndex sa,
           SpeciesIndex sb, Index& x, Index& y) {
  if (sa == first && sb == second) {
    x = a;
    y = b;
    return true;
  }
  if (sa == second && sb == first) {
    x = b;
    y = a;
    return true;
  }
  return false;
}

}  // namespace

bool Engine::should_attach(Index a, Index b, double t) const {
  const SpeciesIndex sa = particles_.state[a].species, sb = particles_.state[b].species;
  for (const AttachRule& rule : model_.rules().attach) {
    Index x, y;
    if (!match(rule.species_a, rule.species_b, a, b, sa, sb, x, y)) continue;
    if (rule.max_partners_of_a >= 0 &&
        partners_of_species(x, rule.species_b) >= static_cast<std::size_t>(rule.max_partners_of_a)) {
      continue;
    }
    if (rule.max_partners_of_b >= 0 &&
        partners_of_species(y, rule.species_a) >= static_cast<std::size_t>(rule.max_partners_of_b)) {
      continue;
    }
    if (rule.exclusive_dimer) {
      // The dimer half, and the particle it would bind.
      const SpeciesIndex dimer = *rule.exclusive_dimer;
      const Index half = particles_.state[x].species == dimer ? x : y;
      const Index other = half == x ? y : x;
      bool shared = false;
      tethers_.for_each(half, [&](Index partner, std::uint32_t) {
        if (particles_.state[partner].species != dimer) return;
        if (speculation_) note_participant(partner);  // its tethers decide
        if (tethers_.contains(partner, other)) shared = true;
      });
      if (shared) continue;
    }
    if (rule.blocking_reaction >= 0) {
      const SpeciesIndex subject_species = model_.action_potentials().reactions[rule.blocking_reaction].subject;
      const Index subject = particles_.state[x].species == subject_species ? x : y;
      if (reaction_passed(rule.blocking_reaction, subject, t)) continue;
    }
    return true;
  }
  return false;
}

bool Engine::should_detach(Index a, Index b, double t, int& fired_rule) const {
  const SpeciesIndex sa = particles_.state[a].species, sb = particles_.state[b].species;
  if (model_.pair(sa, sb).permanent) return false;
  const auto& rules = model_.rules().detach;
  for (std::size_t k = 0; k < rules.size(); ++k) {
    const DetachRule& rule = rules[k];
    Index x, y;
    if (!match(rule.species_a, rule.species_b, a, b, sa, sb, x, y)) continue;
    if (rule.reaction >= 0) {
      const SpeciesIndex subject_species = model_.action_potentials().reactions[rule.reaction].subject;
      const Index subject = particles_.state[x].species == subject_species ? x : y;
      if (!reaction_passed(rule.reaction, subject, t)) continue;
      if (rule.subject_requires_partner &&
          partners_of_species(subject, *rule.subject_requires_partner) == 0) {
        continue;
      }
    }
    fired_rule = static_cast<int>(k);
    return true;
  }
  return false;
}

void Engine::detach(Index a, Index b, int rule_index, double t) {
  count(stats_.detachments);
  note_change(a);
  note_change(b);
  tethers_.remove(a, b);
  tethers_.remove(b, a);
  const DetachRule& rule = model_.rules().detach[static_cast<std::size_t>(rule_index)];
  if (rule.reaction < 0 || rule.subject_releases.empty()) return;
  // The subject lets go of its other partners of the listed species too
  // (a fusing vesicle leaves its docking site and synapsins behind).
  const SpeciesIndex subject_species = model_.action_potentials().reactions[rule.reaction].subject;
  const Index subject = particles_.state[a].species == subject_species ? a : b;
  std::vector<Index> released;
  tethers_.for_each(subject, [&](Index p, std::uint32_t) {
    const SpeciesIndex s = particles_.state[p].species;
    for (SpeciesIndex r : rule.subject_releases) {
      if (s == r) released.push_back(p);
    }
  });
  for (Index p : released) {
    note_change(p);
    tethers_.remove(subject, p);
    tethers_.remove(p, subject);
    mark_for_prediction(p);
  }
  count(stats_.releases);
  if (counting_) releases_.push_back({particles_.id[subject], t});
}

}  // namespace tethersim::engine
