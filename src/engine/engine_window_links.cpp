// Tethers and loaded groups with ghosts one layer deep (docs/owner-computes.md,
// "Links across the window's edge").
//
// A loaded edge makes its two ends move as one: the event that changes a
// member of a loaded group changes every member, and the process that runs
// it must hold them all. So a process holds, besides the particles of its
// window, every particle of a loaded component (the particles joined by
// loaded edges, through infinite-mass anchors too, but not through hubs)
// with a member in its window; an outcome carries the whole component of
// each particle it changed, so every process that holds a piece of a
// component is sent each new version of all of it.
//
// A tether reaches one sector at most, so a tether of a particle in the
// window leads to a particle in the window or one layer beyond it. Such a
// partner may be absent: the tether is kept (the present particle's record,
// and its hash, name it), but never predicted here (the tether source skips
// partners that are not alive); the process that owns either end holds both.
#include <algorithm>
#include <unordered_set>

#include "owner_computes_state.hpp"

namespace tethersim::engine {

void Engine::loaded_component(Index x, std::vector<Index>& out) const {
  out.clear();
  out.push_back(x);
  if (!has_loaded_edges_ || is_hub(x)) return;
  visit_mark_[x] = 1;
  for (std::size_t k = 0; k < out.size(); ++k) {
    loaded_.adjacency().for_each(out[k], [&](Index partner, std::uint32_t) {
      // Hubs are held by every process and never change: a component does
      // not reach through them.
      if (is_hub(partner) || visit_mark_[partner]) return;
      visit_mark_[partner] = 1;
      out.push_back(partner);
    });
  }
  for (Index m : out) visit_mark_[m] = 0;
}

std::vector<Index> Engine::outside_components(const std::vector<Index>& candidates) const {
  // Decided for all before any leaves: a component leaves whole.
  std::vector<Index> leaving, component;
  std::unordered_set<Index> examined;  // members of the components looked at
  for (Index i : candidates) {
    if (!outside_window(i) || examined.count(i) != 0) continue;
    loaded_component(i, component);
    if (component.size() > 1) examined.insert(component.begin(), component.end());
    if (std::none_of(component.begin(), component.end(), [&](Index m) { return !outside_window(m); })) {
      leaving.insert(leaving.end(), component.begin(), component.end());
    }
  }
  return leaving;
}

void Engine::settle_window(const std::vector<Index>& placed) {
  // Each placed particle's component as held here (what the event left as
  // it was included).
  for (Index i : outside_components(placed)) {
    if (!particles_.state[i].alive) continue;  // a lone particle placed twice
    note_change(i);
    make_absent(i);
  }
}

void Engine::tether_stand_in(ParticleId id, SpeciesIndex species) {
  // Its own record is not known: absent, never predicted, it only names
  // the partner. The species is borrowed from the particle that names it,
  // which is not read here: the rules of its events run where it is held,
  // and a particle that comes in brings its whole record.
  ParticleSnapshot p;
  p.id = id;
  p.species = species;
  absent_slot(p);
}

void Engine::add_component_mates(EventOutcome& outcome) const {
  // Each changed particle's component as it is after the event; members
  // the event left as they were go as introductions (EventOutcome), in id
  // order.
  std::vector<Index> changed, mates, component;
  for (const auto& entry : event_changed_) changed.push_back(entry.first);
  for (Index x : changed) {
    if (!particles_.state[x].alive || loaded_.adjacency().empty(x)) continue;
    loaded_component(x, component);
    mates.insert(mates.end(), component.begin(), component.end());
  }
  if (mates.empty()) return;
  std::sort(changed.begin(), changed.end());
  std::sort(mates.begin(), mates.end());
  mates.erase(std::unique(mates.begin(), mates.end()), mates.end());
  for (Index m : mates) {
    if (!std::binary_search(changed.begin(), changed.end(), m)) outcome.introductions.push_back(record(m));
  }
}

}  // namespace tethersim::engine
