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

std::vector<std::vector<std::size_t>> answers_by_rank(const std::vector<engine::ParticleRecord>& mine,
                                                      const std::vector<std::vector<ParticleId>>& asked) {
  // One pass over the records, whatever the number of ranks: each asked
  // id names the ranks that asked for it.
  std::unordered_map<ParticleId, std::vector<std::size_t>> askers;
  for (std::size_t q = 0; q < asked.size(); ++q) {
    for (ParticleId id : asked[q]) askers[id].push_back(q);
  }
  std::vector<std::vector<std::size_t>> out(asked.size());
  if (askers.empty()) return out;
  std::vector<std::size_t> ranks;
  const auto note = [&](ParticleId id) {
    const auto at = askers.find(id);
    if (at != askers.end()) ranks.insert(ranks.end(), at->second.begin(), at->second.end());
  };
  for (std::size_t k = 0; k < mine.size(); ++k) {
    const engine::ParticleRecord& r = mine[k];
    ranks.clear();
    note(r.particle.id);
    for (ParticleId p : r.tethers) note(p);
    for (const engine::LoadedEdgeSnapshot& e : r.loaded_edges) note(e.a == r.particle.id ? e.b : e.a);
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    for (std::size_t q : ranks) out[q].push_back(k);
  }
  return out;
}

}  // namespace tethersim::decomposition
