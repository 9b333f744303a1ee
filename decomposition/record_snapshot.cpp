#include "tethersim/decomposition/record_snapshot.hpp"

#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/same_state.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tethersim::decomposition {

namespace {

bool same_payload(const engine::TetherSnapshot&, const engine::TetherSnapshot&) { return true; }

bool same_payload(const engine::LoadedEdgeSnapshot& x, const engine::LoadedEdgeSnapshot& y) {
  return engine::same_loaded_edge(x, y);
}

// Links arrive from both of their ends' records: one copy each, and the
// copies must agree (a link whose copies differ would make the rebuilt
// state depend on which copy came first).
template <class Link>
void sort_unique(std::vector<Link>& links) {
  auto less = [](const Link& x, const Link& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; };
  auto same = [](const Link& x, const Link& y) { return x.a == y.a && x.b == y.b; };
  std::sort(links.begin(), links.end(), less);
  for (std::size_t k = 1; k < links.size(); ++k) {
    if (same(links[k - 1], links[k]) && !same_payload(links[k - 1], links[k])) {
      throw std::logic_error("synchronization error: two copies of the link " + std::to_string(links[k].a) +
                             "-" + std::to_string(links[k].b) + " differ");
    }
  }
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

std::vector<engine::ParticleRecord> accounted_records(const engine::Engine& e) {
  std::vector<engine::ParticleRecord> out;
  const engine::ParticleStore& store = e.particles();
  for (engine::Index i : store.indices_in_id_order()) {
    if (!e.accounted_here(i)) continue;
    engine::ParticleRecord r = e.record(i);
    auto accounted_link = [&](ParticleId partner) { return e.counted_here(i, store.index_of(partner)); };
    std::erase_if(r.tethers, [&](ParticleId p) { return !accounted_link(p); });
    std::erase_if(r.loaded_edges, [&](const engine::LoadedEdgeSnapshot& x) {
      return !accounted_link(x.a == r.particle.id ? x.b : x.a);
    });
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace tethersim::decomposition
