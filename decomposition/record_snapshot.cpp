#include "tethersim/decomposition/record_snapshot.hpp"

#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/free_storage.hpp"
#include "tethersim/engine/same_state.hpp"
#include "tethersim/model/pair_order.hpp"

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
  auto same = [](const Link& x, const Link& y) { return x.a == y.a && x.b == y.b; };
  std::sort(links.begin(), links.end(), by_ends);
  for (std::size_t k = 1; k < links.size(); ++k) {
    if (same(links[k - 1], links[k]) && !same_payload(links[k - 1], links[k])) {
      throw std::logic_error("synchronization error: two copies of the link " + std::to_string(links[k].a) +
                             "-" + std::to_string(links[k].b) + " differ");
    }
  }
  links.erase(std::unique(links.begin(), links.end(), same), links.end());
}

}  // namespace

SnapshotAssembly::SnapshotAssembly(double time, std::size_t reactions, std::size_t expected)
    : reactions_(reactions) {
  s_.time = time;
  s_.particles.reserve(expected);
  phi_.reserve(expected * reactions);
}

void SnapshotAssembly::add(const engine::ParticleRecord& r) {
  s_.particles.push_back(r.particle);
  for (std::size_t k = 0; k < reactions_; ++k) {
    phi_.push_back(k < r.reaction_times.size() ? r.reaction_times[k] : kInfinity);
  }
  for (ParticleId other : r.tethers) {
    s_.tethers.push_back({std::min(r.particle.id, other), std::max(r.particle.id, other)});
  }
  for (const engine::LoadedEdgeSnapshot& e : r.loaded_edges) s_.loaded_edges.push_back(e);
}

engine::EngineSnapshot SnapshotAssembly::finish() {
  std::vector<engine::ParticleSnapshot>& arrived = s_.particles;
  auto by_id = [](const engine::ParticleSnapshot& x, const engine::ParticleSnapshot& y) { return x.id < y.id; };
  auto same_id = [](const engine::ParticleSnapshot& x, const engine::ParticleSnapshot& y) { return x.id == y.id; };
  if (reactions_ == 0) {
    // In place: no second array of particles at the peak. std::sort, as
    // the records were sorted before: the same comparisons in the same
    // order pick the same copy of a hub.
    std::sort(arrived.begin(), arrived.end(), by_id);
    arrived.erase(std::unique(arrived.begin(), arrived.end(), same_id), arrived.end());
    sort_unique(s_.tethers);
    sort_unique(s_.loaded_edges);
    return std::move(s_);
  }
  std::vector<std::uint32_t> order(arrived.size());
  for (std::uint32_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t x, std::uint32_t y) { return arrived[x].id < arrived[y].id; });
  order.erase(std::unique(order.begin(), order.end(),
                          [&](std::uint32_t x, std::uint32_t y) { return arrived[x].id == arrived[y].id; }),
              order.end());
  std::vector<engine::ParticleSnapshot> particles;
  particles.reserve(order.size());
  for (std::uint32_t k : order) particles.push_back(arrived[k]);
  s_.reaction_times.assign(reactions_, {});
  for (std::size_t r = 0; r < reactions_; ++r) {
    std::vector<double>& column = s_.reaction_times[r];
    column.reserve(order.size());
    for (std::uint32_t k : order) column.push_back(phi_[k * reactions_ + r]);
  }
  engine::free_storage(phi_);
  s_.particles = std::move(particles);
  sort_unique(s_.tethers);
  sort_unique(s_.loaded_edges);
  return std::move(s_);
}

engine::EngineSnapshot snapshot_of_records(std::vector<engine::ParticleRecord> records, double time,
                                           std::size_t reactions) {
  SnapshotAssembly assembly(time, reactions, records.size());
  for (const engine::ParticleRecord& r : records) assembly.add(r);
  engine::free_storage(records);
  return assembly.finish();
}

void for_each_accounted_record(const engine::Engine& e, const std::function<void(engine::ParticleRecord&&)>& visit) {
  const engine::ParticleStore& store = e.particles();
  for (engine::Index i : store.indices_in_id_order()) {
    if (!e.accounted_here(i)) continue;
    engine::ParticleRecord r = e.record(i);
    auto accounted_link = [&](ParticleId partner) { return e.counted_here(i, store.index_of(partner)); };
    std::erase_if(r.tethers, [&](ParticleId p) { return !accounted_link(p); });
    std::erase_if(r.loaded_edges, [&](const engine::LoadedEdgeSnapshot& x) {
      return !accounted_link(x.a == r.particle.id ? x.b : x.a);
    });
    visit(std::move(r));
  }
}

}  // namespace tethersim::decomposition
