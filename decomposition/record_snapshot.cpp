#include "tethersim/decomposition/record_snapshot.hpp"

#include <algorithm>

namespace tethersim::decomposition {

namespace {

template <class Link>
void sort_unique(std::vector<Link>& links) {
  auto less = [](const Link& x, const Link& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; };
  auto same = [](const Link& x, const Link& y) { return x.a == y.a && x.b == y.b; };
  std::sort(links.begin(), links.end(), less);
  links.erase(std::unique(links.begin(), links.end(), same), links.end());
}

}  // namespace

engine::EngineSnapshot snapshot_of_records(std::vector<engine::ParticleRecord> records, double time,
                                           std::size_t reactions) {
  std::sort(records.begin(), records.end(),
            [](const auto& x, const auto& y) { return x.particle.id < y.particle.id; });
  engine::EngineSnapshot s;
  s.time = time;
  s.reaction_times.assign(reactions, {});
  s.particles.reserve(records.size());
  for (const engine::ParticleRecord& r : records) {
    s.particles.push_back(r.particle);
    for (std::size_t k = 0; k < reactions; ++k) {
      s.reaction_times[k].push_back(k < r.reaction_times.size() ? r.reaction_times[k] : kInfinity);
    }
    for (ParticleId other : r.tethers) {
      s.tethers.push_back({std::min(r.particle.id, other), std::max(r.particle.id, other)});
    }
    for (const engine::LoadedEdgeSnapshot& e : r.loaded_edges) s.loaded_edges.push_back(e);
  }
  sort_unique(s.tethers);
  sort_unique(s.loaded_edges);
  return s;
}

}  // namespace tethersim::decomposition
