// The ids a rank asks for to hold its window's loaded components whole,
// with the tether partners of their members (linked_window_gather.hpp).
#include "tethersim/decomposition/linked_window_gather.hpp"

#include <algorithm>
#include <unordered_map>

namespace tethersim::decomposition {

std::vector<ParticleId> link_ends_to_ask(const std::vector<engine::ParticleRecord>& held,
                                         const engine::SectorWindow& window,
                                         const std::vector<bool>& hub_species,
                                         const std::unordered_set<ParticleId>& asked_before) {
  std::unordered_map<ParticleId, const engine::ParticleRecord*> by_id;
  for (const engine::ParticleRecord& r : held) by_id.emplace(r.particle.id, &r);
  const auto hub = [&](const engine::ParticleRecord& r) { return hub_species[r.particle.species]; };
  // Loaded edges from either end's record (each is sent with one of them).
  std::unordered_map<ParticleId, std::vector<ParticleId>> loaded;
  for (const engine::ParticleRecord& r : held) {
    for (const engine::LoadedEdgeSnapshot& e : r.loaded_edges) {
      loaded[e.a].push_back(e.b);
      loaded[e.b].push_back(e.a);
    }
  }
  std::unordered_set<ParticleId> members, wanted;
  std::vector<ParticleId> stack;
  for (const engine::ParticleRecord& r : held) {
    if (!r.particle.alive || hub(r) || !window.contains(r.particle.sector) || members.count(r.particle.id) != 0) continue;
    stack.push_back(r.particle.id);
    members.insert(r.particle.id);
    while (!stack.empty()) {
      const ParticleId m = stack.back();
      stack.pop_back();
      const auto at = by_id.find(m);
      if (at == by_id.end()) {
        wanted.insert(m);  // named by a loaded edge, never received
        continue;
      }
      const engine::ParticleRecord& record = *at->second;
      // Outside the window its partners may lie beyond the two layers
      // gathered, and links are sent with either end's record.
      if (!window.contains(record.particle.sector)) wanted.insert(m);
      for (ParticleId p : record.tethers) {
        if (by_id.count(p) == 0) wanted.insert(p);
      }
      const auto edges = loaded.find(m);
      if (edges == loaded.end()) continue;
      for (ParticleId p : edges->second) {
        const auto partner = by_id.find(p);
        if (partner != by_id.end() && hub(*partner->second)) continue;  // not through a hub
        if (members.insert(p).second) stack.push_back(p);
      }
    }
  }
  std::vector<ParticleId> out;
  for (ParticleId id : wanted) {
    if (asked_before.count(id) == 0) out.push_back(id);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool answers(const engine::ParticleRecord& r, const std::unordered_set<ParticleId>& asked) {
  if (asked.count(r.particle.id) != 0) return true;
  for (ParticleId p : r.tethers) {
    if (asked.count(p) != 0) return true;
  }
  return std::any_of(r.loaded_edges.begin(), r.loaded_edges.end(), [&](const engine::LoadedEdgeSnapshot& e) {
    return asked.count(e.a == r.particle.id ? e.b : e.a) != 0;
  });
}

}  // namespace tethersim::decomposition
