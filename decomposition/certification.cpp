#include "tethersim/decomposition/certification.hpp"

#include <algorithm>
#include <cmath>

#include "tethersim/engine/event_sources.hpp"

namespace tethersim::decomposition {

// The speed bounds below account for the energy that restitutions,
// periodic impulses and random impulses can add; every other source keeps
// it. A source that adds energy must bring its bound here first.
static_assert((engine::energy_adding_kinds(engine::ParticleSources{}) |
               engine::energy_adding_kinds(engine::GlobalSources{})) ==
                  ((1 << static_cast<int>(engine::EventKind::restitution)) |
                   (1 << static_cast<int>(engine::EventKind::periodic_impulse)) |
                   (1 << static_cast<int>(engine::EventKind::random_impulse))),
              "an event source adds energy that the certifier does not bound");

const char* to_string(CertificationFailure failure) {
  switch (failure) {
    case CertificationFailure::none: return "none";
    case CertificationFailure::reach: return "reach";
    case CertificationFailure::depth: return "depth";
    case CertificationFailure::energy: return "energy";
  }
  return "?";
}

namespace {

// The least of |start + w s| - bound s over s in [0, window]: how close a
// point moving from `start` with velocity w comes to a ball around the
// origin whose radius grows at `bound` (bound 0: the closest approach of
// two straight lines, in relative terms). The function is convex: its
// minimum is at an end or where its derivative vanishes, where
// (r.w + w.w s)^2 = bound^2 |r + w s|^2, which needs |w| > bound.
double closest_approach(const Vec3& start, const Vec3& w, double bound, double window) {
  const auto f = [&](double s) { return (start + w * s).norm() - bound * s; };
  double lowest = std::min(f(0.0), f(window));
  const double ww = w.squaredNorm(), rw = start.dot(w), bb = bound * bound;
  if (ww > bb) {
    // ww s^2 + 2 rw s + (rw^2 - bb rr) / (ww - bb) = 0. Its discriminant,
    // rw^2 - ww (rw^2 - bb rr) / (ww - bb), is bb ww |p|^2 / (ww - bb) with
    // p the part of r across w: computed so, it cannot cancel to a
    // negative value when bb is small against ww.
    const Vec3 across = start - w * (rw / ww);
    const double root = std::sqrt(bb * ww * across.squaredNorm() / (ww - bb));
    for (double s : {(-rw - root) / ww, (-rw + root) / ww}) lowest = std::min(lowest, f(std::clamp(s, 0.0, window)));
  }
  return lowest;
}

}  // namespace

Certifier::Certifier(const Model& model, const BlockLayout& layout, int rank, bool sparse)
    : model_(model), layout_(layout), rank_(rank) {
  const auto n = static_cast<SpeciesIndex>(model.species().size());
  max_blocking_.assign(n, 0.0);
  blocking_.assign(n * n, 0.0);
  // Partners found through sectors only: hubs are outside the grid (and
  // never change).
  for (SpeciesIndex a = 0; a < n; ++a) {
    for (SpeciesIndex b = 0; b < n; ++b) {
      blocking_[static_cast<std::size_t>(a) * n + b] = model.pair(a, b).blocking;
      if (model.is_hub_species(b)) continue;
      max_blocking_[a] = std::max(max_blocking_[a], model.pair(a, b).blocking);
    }
  }
  const Domain& domain = model.domain();
  straight_lines_ = !domain.escape && model.periodic_impulses().empty() &&
                    model.action_potentials().windows.empty();
  for (int k = 0; k < model.dimensions(); ++k) {
    straight_lines_ = straight_lines_ && wraps(domain.boundary[static_cast<std::size_t>(k)]);
  }
  for (const Species& species : model.species()) straight_lines_ = straight_lines_ && !species.infinite_mass();
  // Still particles are left out where nothing but a moving partner's
  // event touches a particle at rest: no action potentials (their
  // boundaries release tethers by rule) and no escape sphere (a particle
  // at rest outside it escapes at once).
  still_allowed_ = sparse && model.action_potentials().windows.empty() && !model.domain().escape;
  sparse_allowed_ = sparse && straight_lines_;
  for (const Species& species : model.species()) sparse_allowed_ = sparse_allowed_ && !species.random_impulse.enabled();
}

std::size_t Certifier::cell_index(int x, int y, int z) const {
  return (static_cast<std::size_t>(x) * static_cast<std::size_t>(cell_shape_[1]) + static_cast<std::size_t>(y)) *
             static_cast<std::size_t>(cell_shape_[2]) +
         static_cast<std::size_t>(z);
}

Certifier::NodeIndex Certifier::find(NodeIndex x) {
  while (parent_[x] != x) {
    auto& p = parent_[x];
    p = parent_[p];
    x = p;
  }
  return x;
}

void Certifier::unite(NodeIndex a, NodeIndex b) {
  a = find(a);
  b = find(b);
  if (a == b) return;
  if (size_[a] < size_[b]) std::swap(a, b);
  parent_[b] = a;
  size_[a] += size_[b];
  owned_root_[a] |= owned_root_[b];
  root_changed_[a] = 1;
}

void Certifier::compute_bounds(const std::vector<NodeIndex>& members) {
  const auto& periodic = model_.periodic_impulses();
  const std::size_t np = periodic.size();
  // Ticks of each periodic impulse inside the window.
  std::vector<double> ticks(np, 0.0);
  for (std::size_t p = 0; p < np; ++p) {
    std::uint64_t k = engine_->periodic_ticks()[p];
    while (periodic[p].start + static_cast<double>(k) * periodic[p].interval < start_ + length_) {
      ++k;
      ticks[p] += 1.0;
    }
  }
  // Per root (members hold whole components, in node order, so every
  // component sums its members in the same order whichever call does it).
  root_energy_.resize(nodes_.size());
  root_kick_.resize(nodes_.size());
  root_applies_.resize(nodes_.size() * np);
  for (NodeIndex m : members) {
    const NodeIndex r = find(m);
    root_energy_[r] = 0.0;
    root_kick_[r] = 0.0;
    for (std::size_t p = 0; p < np; ++p) root_applies_[r * np + p] = 0.0;
  }
  for (NodeIndex i : members) {
    const NodeIndex r = find(i);
    root_energy_[r] += nodes_[i].energy;
    for (std::size_t k = impulse_begin_[i]; k < impulse_begin_[i + 1]; ++k) {
      if (impulses_[k].time < start_ + length_) root_kick_[r] += impulses_[k].amount;
    }
    if (nodes_[i].inv_mass > 0.0) {
      for (std::size_t p = 0; p < np; ++p) {
        if (periodic[p].applies_to[nodes_[i].species]) root_applies_[r * np + p] += 1.0 / nodes_[i].inv_mass;
      }
    }
  }
  // Per component: each periodic impulse's ticks add to E or to sqrt(E)
  // what its kind says, then every random impulse raises sqrt(E) by at
  // most its source's kick (collected by prepare). The
  // root's kick slot is reused to mark the component done (-1) and its
  // energy slot then holds the bound's E.
  for (NodeIndex m : members) {
    const NodeIndex r = find(m);
    if (root_kick_[r] < 0.0) continue;
    double e = root_energy_[r];
    double root = root_kick_[r];
    for (std::size_t p = 0; p < np; ++p) {
      const double mass = root_applies_[r * np + p];
      if (mass == 0.0 || ticks[p] == 0.0) continue;
      engine::Engine::PeriodicImpulseSource::add_tick_bound(periodic[p], mass, ticks[p], e, root);
    }
    const double sq = std::sqrt(e) + root;
    root_energy_[r] = sq * sq;
    root_kick_[r] = -1.0;
  }
  for (NodeIndex i : members) {
    const NodeIndex r = find(i);
    const double v = std::sqrt(2.0 * root_energy_[r] * nodes_[i].inv_mass);
    bound_[i] = std::max(v, floor_[i]);
  }
}

double Certifier::slack(NodeIndex i) const {
  return (bound_[i] + max_all_bound_) * slack_factor_ + slack_absolute_;
}

double Certifier::reach(NodeIndex i) const {
  return max_blocking_[nodes_[i].species] + slack(i);
}

int Certifier::reach_layers(NodeIndex i) const {
  // Tether partners and the engine's own predictions need one layer.
  return std::max(1, static_cast<int>(std::ceil(reach(i) / edge_min_)));
}

bool Certifier::closed(NodeIndex i, int layers) const {
  const Node& node = nodes_[i];
  if (node.depth + layers <= layout_.halo_depth()) return true;
  // The engine predicts a member's events from the 27 sectors around it:
  // they must all be held.
  if (node.depth >= layout_.halo_depth()) return false;
  // In the halo's second-last layer a reach of two layers may still stop
  // short of the window's edge: what matters is the distance.
  return reach(i) < node.clearance;
}

bool Certifier::could_escape(NodeIndex i) const {
  const Node& node = nodes_[i];
  const double reach = bound_[i] * slack_factor_ + slack_absolute_;
  const Domain& domain = model_.domain();
  for (int k = 0; k < model_.dimensions(); ++k) {
    if (!removes(domain.boundary[static_cast<std::size_t>(k)])) continue;
    if (node.position[k] - domain.lo[k] <= reach || domain.hi[k] - node.position[k] <= reach) return true;
  }
  if (domain.escape) {
    if (domain.escape->radius - (node.position - domain.escape->centre).norm() <= reach) return true;
  }
  return false;
}

bool Certifier::may_meet(NodeIndex i, const Vec3& from_i, double blocking, double bound_j, bool line_j,
                         const Vec3& v_j) const {
  if (blocking <= 0.0) return false;
  // gap = distance - blocking against the slack, compared in squares (no
  // square root; the absolute margin covers the rounding).
  const double within = blocking + (bound_[i] + bound_j) * slack_factor_ + slack_absolute_;
  if (from_i.squaredNorm() > within * within) return false;
  const bool line_i = on_line(i);
  if (!line_i && !line_j) return true;
  // j as seen from i's start: on their lines, j moves with the relative
  // velocity; with one on its line, the other is anywhere its bound takes
  // it (the margins as in the gap test).
  const Vec3& v_i = velocity_[i];
  const Vec3 w = line_i && line_j ? Vec3(v_j - v_i) : line_j ? v_j : Vec3(-v_i);
  const double bound = line_i && line_j ? 0.0 : line_j ? bound_[i] : bound_j;
  return !(closest_approach(from_i, w, bound, slack_factor_) > blocking + slack_absolute_);
}

bool Certifier::test_pair(NodeIndex i, NodeIndex j, const Vec3& offset) {
  const PairPoint& a = points_[i];
  const PairPoint& b = points_[j];
  const auto nj = j;
  if (!may_meet(i, b.position + offset - a.position, blocking_[a.species * max_blocking_.size() + b.species],
                bound_[nj], on_line(j), velocity_[nj])) {
    return false;
  }
  if (find(i) == find(j)) return false;
  unite(i, j);
  return true;
}

bool Certifier::on_line(NodeIndex i) const {
  const auto a = i;
  // Alone: its own root, of size one.
  return straight_[a] && parent_[a] == i && size_[a] == 1;
}

Certifier::SearchBox Certifier::search_box(NodeIndex i) const {
  const Node& node = nodes_[i];
  const engine::SectorGrid& grid = engine_->grid();
  const engine::SectorCoords& c = node.sector;
  const double search = reach(i);
  SearchBox box;
  for (int k = 0; k < 3; ++k) {
    const auto kk = static_cast<std::size_t>(k);
    // Neighbour sectors: one layer, two towards a face the reach crosses.
    box.lo[kk] = -1;
    box.hi[kk] = 1;
    const double edge = grid.edge()[k];
    if (search > edge) {
      if (node.position[k] - grid.face(k, c[kk]) <= search - edge) box.lo[kk] = -2;
      if (grid.face(k, c[kk] + 1) - node.position[k] <= search - edge) box.hi[kk] = 2;
    }
    const int shape = grid.shape()[kk];
    for (int o = box.lo[kk]; o <= box.hi[kk]; ++o) {
      const auto slot = static_cast<std::size_t>(o + 2);
      int v = c[kk] + o;
      box.shift[kk][slot] = 0.0;
      if (v < 0 || v >= shape) {
        if (!grid.periodic(k)) {
          box.coordinate[kk][slot] = -1;
          continue;
        }
        box.shift[kk][slot] = v < 0 ? -grid.length()[k] : grid.length()[k];
        v = (v + shape) % shape;
      }
      box.coordinate[kk][slot] = v;
    }
  }
  return box;
}

bool Certifier::test_node(NodeIndex i, bool first_pass) {
  const SearchBox box = search_box(i);
  const auto& [lo, hi, coordinate, shift] = box;
  // Per axis and offset: the cell coordinate (-1: outside).
  std::array<std::array<int, 5>, 3> cell{};
  for (std::size_t k = 0; k < 3; ++k) {
    for (int o = lo[k]; o <= hi[k]; ++o) {
      const auto slot = static_cast<std::size_t>(o + 2);
      const int v = coordinate[k][slot];
      cell[k][slot] = v < 0 ? -1 : local_of_[k][static_cast<std::size_t>(v)];
    }
  }
  bool merged = false;
  // Tests i against the nodes [begin, end), all seen through one image.
  // In the first pass the pair's lower node tests it, unless that node is
  // still; nodes are in cell order, so without still nodes the lower ones
  // are skipped as a block.
  const auto test_range = [&](std::uint32_t begin, std::uint32_t end, const Vec3& offset, bool extended) {
    const bool lower_tests = first_pass && !extended;
    if (lower_tests && !any_still_) begin = std::max(begin, i + 1);
    for (std::uint32_t nj = begin; nj < end; ++nj) {
        if (nj == i || (lower_tests && nj < i && !still_[nj])) continue;
      merged = test_pair(i, nj, offset) || merged;
    }
  };
  const auto& zs = cell[2];
  const auto& zshift = shift[2];
  // The three cells of a row around the node's own are usually consecutive
  // cells under one image: one range.
  const bool row_in_one_range = lo[2] == -1 && hi[2] == 1 && zs[1] >= 0 && zs[2] == zs[1] + 1 &&
                                zs[3] == zs[1] + 2 && zshift[1] == zshift[2] && zshift[2] == zshift[3];
  for (int ox = lo[0]; ox <= hi[0]; ++ox) {
    const int x = cell[0][static_cast<std::size_t>(ox + 2)];
    if (x < 0) continue;
    for (int oy = lo[1]; oy <= hi[1]; ++oy) {
      const int y = cell[1][static_cast<std::size_t>(oy + 2)];
      if (y < 0) continue;
      const bool row_extended = ox == 2 || ox == -2 || oy == 2 || oy == -2;
      const std::size_t row = cell_index(x, y, 0);
      if (row_in_one_range) {
        const Vec3 offset(shift[0][static_cast<std::size_t>(ox + 2)], shift[1][static_cast<std::size_t>(oy + 2)],
                          zshift[2]);
        test_range(cell_begin_[row + static_cast<std::size_t>(zs[1])], cell_begin_[row + static_cast<std::size_t>(zs[3]) + 1],
                   offset, row_extended);
        continue;
      }
      for (int oz = lo[2]; oz <= hi[2]; ++oz) {
        const int z = zs[static_cast<std::size_t>(oz + 2)];
        if (z < 0) continue;
        const Vec3 offset(shift[0][static_cast<std::size_t>(ox + 2)], shift[1][static_cast<std::size_t>(oy + 2)],
                          zshift[static_cast<std::size_t>(oz + 2)]);
        const std::size_t k = row + static_cast<std::size_t>(z);
        test_range(cell_begin_[k], cell_begin_[k + 1], offset, row_extended || oz == 2 || oz == -2);
      }
    }
  }
  return test_tethers(i) || merged;
}

bool Certifier::test_tethers(NodeIndex i) {
  const Node& node = nodes_[i];
  if (!node.tethered) return false;
  // Copies: a partner left out becomes a node, which moves nodes_.
  const engine::Index index = node.index;
  const engine::SectorCoords c = node.sector;
  const Vec3 position = node.position;
  const SpeciesIndex species = node.species;
  const engine::ParticleStore& store = engine_->particles();
  // Tethers: a taut tether (slack the speeds could take up) couples.
  const bool escaping = could_escape(i);
  bool merged = false;
  engine_->tethers().for_each(index, [&](engine::Index j, std::uint32_t) {
    NodeIndex nj = node_of_[j];
    const engine::ParticleState& s = store.state[j];
    // A partner left out is still (bound 0); one that cannot move (a hub)
    // only turns this node, which its own bound covers.
    if (nj == kNoNode && (!scan_lists_ || engine_->is_removed(j) || !s.alive || !s.mobile)) return;
    const Vec3 other = nj != kNoNode ? nodes_[nj].position : s.position(start_);
    const engine::SectorCoords& other_sector = nj != kNoNode ? nodes_[nj].sector : engine_->sector(j);
    const double bound_j = nj != kNoNode ? bound_[nj] : 0.0;
    bool couple = escaping;  // an escape drops every tether of the particle
    const double tethering = model_.pair(species, s.species).tethering;
    if (!couple && tethering < kInfinity) {
      const Vec3 dx = other - position;
      const double distance = (dx + engine_->grid().image_shift(c, other_sector, dx)).norm();
      couple = tethering - distance <=
               (bound_[i] + bound_j) * slack_factor_ + slack_absolute_;
    }
    if (!couple) return;
    if (nj == kNoNode) nj = add_node(j);
    if (find(i) != find(nj)) {
      unite(i, nj);
      merged = true;
    }
  });
  return merged;
}

Certifier::NodeIndex Certifier::add_node(engine::Index i) {
  // A particle a certificate left out: in a sparse one, plain and alone on
  // its line until now; otherwise still. Either way no impulses are due
  // and no loaded edge is open (the per-node arrays grow by one).
  const NodeIndex n = node_count();
  nodes_.push_back(make_node(i));
  const Node& node = nodes_.back();
  points_.push_back({node.position, node.species});
  velocity_.push_back(engine_->particles().state[i].v);
  node_of_[i] = n;
  mark_node(i);
  impulse_begin_.push_back(impulses_.size());
  const bool plain = straight_lines_ && node.inv_mass > 0.0 && !node.tethered;
  plain_.push_back(plain ? 1 : 0);
  straight_.push_back(plain ? 1 : 0);
  parent_.push_back(n);
  size_.push_back(1);
  owned_root_.push_back(node.owned ? 1 : 0);
  root_changed_.push_back(0);
  still_.push_back(0);
  scans_.emplace_back();
  const double alone = std::sqrt(2.0 * node.energy * node.inv_mass);
  bound_.push_back(alone);
  floor_.push_back(0.0);
  single_bound_.push_back(alone);
  // What the other ranks used for it: its line (phase 1 had not reached it).
  sent_bound_.resize(n, 0.0);
  sent_bound_.push_back(alone);
  sent_straight_.resize(n, 1);
  sent_straight_.push_back(1);
  return n;
}

bool Certifier::test_line(NodeIndex i, engine::Index j, const Vec3& offset) {
  // As test_pair, with j on its straight line (its bound: its speed).
  const PairPoint& a = points_[i];
  const engine::ParticleState& s = engine_->particles().state[j];
  if (!may_meet(i, s.position(start_) + offset - a.position, blocking_[a.species * max_blocking_.size() + s.species],
                s.v.norm(), true, s.v)) {
    return false;
  }
  unite(i, add_node(j));
  return true;
}

bool Certifier::test_node_sparse(NodeIndex i, bool first_pass) {
  const engine::SectorGrid& grid = engine_->grid();
  const engine::ParticleStore& store = engine_->particles();
  const SearchBox box = search_box(i);
  const auto& [lo, hi, coordinate, shift] = box;
  const auto ni = i;
  if (!first_pass) {
    const ScanMemory& memory = scans_[ni];
    bool covered = true;
    for (std::size_t k = 0; k < 3; ++k) covered = covered && lo[k] >= memory.lo[k] && hi[k] <= memory.hi[k];
    // The far gaps were computed with a square root and a subtraction: a
    // relative and an absolute allowance cover their rounding.
    if (covered && memory.far_gap > slack(i) * (1.0 + 1e-9) + 1e-12 * edge_min_) return rescan_near(i);
  }
  // The sectors around (up to 5^3), with the image shift of each.
  std::array<std::uint32_t, 125> sectors{};
  std::array<Vec3, 125> offsets;
  std::array<bool, 125> extended{};  // in the second layer on some axis
  std::size_t count = 0;
  for (int ox = lo[0]; ox <= hi[0]; ++ox) {
    const auto sx = static_cast<std::size_t>(ox + 2);
    if (coordinate[0][sx] < 0) continue;
    for (int oy = lo[1]; oy <= hi[1]; ++oy) {
      const auto sy = static_cast<std::size_t>(oy + 2);
      if (coordinate[1][sy] < 0) continue;
      for (int oz = lo[2]; oz <= hi[2]; ++oz) {
        const auto sz = static_cast<std::size_t>(oz + 2);
        if (coordinate[2][sz] < 0) continue;
        sectors[count] = grid.linear({coordinate[0][sx], coordinate[1][sy], coordinate[2][sz]});
        offsets[count] = Vec3(shift[0][sx], shift[1][sy], shift[2][sz]);
        extended[count] = ox * ox == 4 || oy * oy == 4 || oz * oz == 4;
        grid.prefetch(sectors[count]);
        ++count;
      }
    }
  }
  // Gather the candidates first, list heads and successors prefetched:
  // walking each sector's list in turn chains one memory miss after another.
  candidates_.clear();
  for (std::size_t k = 0; k < count; ++k) {
    const engine::Index j = grid.first(sectors[k]);
    if (j == engine::kNoIndex) continue;
    __builtin_prefetch(&store.state[j]);
    candidates_.push_back({j, static_cast<std::uint32_t>(k)});
  }
  for (std::size_t h = 0, heads = candidates_.size(); h < heads; ++h) {
    const std::uint32_t k = candidates_[h].second;
    for (engine::Index j = store.state[candidates_[h].first].next_in_sector; j != engine::kNoIndex;
         j = store.state[j].next_in_sector) {
      __builtin_prefetch(&store.state[j]);
      candidates_.push_back({j, k});
    }
  }
  bool merged = false;
  // Copies: test_line may add nodes, which moves the per-node arrays.
  const Vec3 position = points_[ni].position;
  const std::size_t species_row = points_[ni].species * max_blocking_.size();
  const double near_gap = 2.0 * slack(i);
  const auto near_begin = static_cast<std::uint32_t>(near_.size());
  double far_gap = kInfinity;
  for (const auto& [j, k] : candidates_) {
    // Most candidates are not nodes: the bit set (in cache) spares a read
    // of node_of_ (usually a miss).
    const NodeIndex nj = is_node(j) ? node_of_[j] : kNoNode;
    if (nj == i) continue;
    const engine::ParticleState& s = store.state[j];
    if (nj == kNoNode && !(s.alive && s.mobile)) continue;  // removed ones are in no sector
    const PairPoint b = nj != kNoNode ? points_[nj] : PairPoint{s.position(start_), s.species};
    const double blocking = blocking_[species_row + b.species];
    if (blocking > 0.0) {
      const double gap = (b.position + offsets[k] - position).norm() - blocking;
      if (gap <= near_gap) {
        near_.push_back({j, offsets[k]});
      } else {
        far_gap = std::min(far_gap, gap);
      }
    }
    // In the first pass every node is tested: a pair of nodes from its
    // lower one (as in test_node, not across a second layer), unless that
    // one is still and skipped.
    if (first_pass && nj != kNoNode && nj < i && !extended[k] && !still_[nj]) continue;
    merged = test_candidate(i, nj, j, offsets[k]) || merged;
  }
  ScanMemory& memory = scans_[ni];
  memory.near_begin = near_begin;
  memory.near_count = static_cast<std::uint32_t>(near_.size()) - near_begin;
  memory.far_gap = far_gap;
  memory.lo = lo;
  memory.hi = hi;
  return test_tethers(i) || merged;
}

bool Certifier::rescan_near(NodeIndex i) {
  const ScanMemory memory = scans_[i];
  bool merged = false;
  for (std::uint32_t e = memory.near_begin; e < memory.near_begin + memory.near_count; ++e) {
    const NearCandidate near = near_[e];
    const NodeIndex nj = is_node(near.particle) ? node_of_[near.particle] : kNoNode;
    if (nj != i) merged = test_candidate(i, nj, near.particle, near.offset) || merged;
  }
  return test_tethers(i) || merged;
}

void Certifier::structural_edges() {
  engine_->loaded_edges().for_each_open([&](engine::EdgeIndex, const engine::LoadedEdge& e) {
    const NodeIndex a = node_of_[e.a], b = node_of_[e.b];
    if (a != kNoNode && b != kNoNode) unite(a, b);
  });
  if (!release_edges_) return;
  for (const DetachRule& rule : model_.rules().detach) {
    if (rule.reaction < 0 || rule.subject_releases.empty()) continue;
    const SpeciesIndex subject = model_.action_potentials().reactions[static_cast<std::size_t>(rule.reaction)].subject;
    for (NodeIndex i = 0; i < node_count(); ++i) {
      if (nodes_[i].species != subject) continue;
      engine_->tethers().for_each(nodes_[i].index, [&](engine::Index j, std::uint32_t) {
        const NodeIndex nj = node_of_[j];
        if (nj == kNoNode) return;
        const SpeciesIndex sj = nodes_[nj].species;
        if (std::find(rule.subject_releases.begin(), rule.subject_releases.end(), sj) !=
            rule.subject_releases.end()) {
          unite(i, nj);
        }
      });
    }
  }
}

std::vector<Certifier::NodeIndex> Certifier::members_of_changed_components() {
  std::vector<NodeIndex> members;
  for (NodeIndex i = 0; i < node_count(); ++i) {
    if (root_changed_[find(i)]) members.push_back(i);
  }
  return members;
}

void Certifier::iterate(std::vector<NodeIndex> dirty, bool all_nodes) {
  // When every node is tested, a pair in neighbouring sectors is tested
  // from its lower node only (a sparse certificate still tests its pairs
  // with the particles that are not nodes from the node).
  bool first_pass = all_nodes;
  for (;;) {
    // Bounds only change in dirty components (and only grow).
    compute_bounds(dirty);
    for (NodeIndex i : dirty) max_all_bound_ = std::max(max_all_bound_, bound_[i]);
    for (NodeIndex i : dirty) {
      const int layers = reach_layers(i);
      if (layers > 2) {
        failure_ = CertificationFailure::reach;
        return;
      }
      // Components and bounds only grow, so a component with an owned
      // member that already reaches too deep into the halo fails the final
      // closure test whatever else merges: stop now. A percolating
      // component would otherwise be re-tested pass after pass.
      if (owned_root_[find(i)] && !closed(i, layers)) {
        failure_ = CertificationFailure::depth;
        return;
      }
    }
    std::fill(root_changed_.begin(), root_changed_.end(), 0);
    bool merged = false;
    if (first_pass) {
      // A still node (bound 0: no energy in its component, no impulse due)
      // cannot close a gap or take up slack; its pairs with moving nodes
      // are tested from their side, and two still nodes cannot interact.
      // Most of a membrane at rest is still. Once its bound rises, its
      // component is dirty and tested in full.
      any_still_ = false;
      for (std::size_t k = 0; k < still_.size(); ++k) {
        still_[k] = bound_[k] == 0.0 ? 1 : 0;
        any_still_ = any_still_ || still_[k];
      }
    }
    for (NodeIndex i : dirty) {
      if (scan_lists_) {
        // Under the still start every particle left out is still too, so a
        // still node is skipped as below; a sparse one is not (its pairs
        // with the lines left out are tested from its side only).
        if (first_pass && !sparse_ && still_[i]) continue;
        merged = test_node_sparse(i, first_pass) || merged;
        continue;
      }
      if (first_pass && still_[i]) continue;
      merged = test_node(i, first_pass) || merged;
    }
    if (!merged) return;
    first_pass = false;
    dirty = members_of_changed_components();
  }
}

bool Certifier::local_phase(double length) {
  length_ = length;
  slack_factor_ = length * (1.0 + kRelativeMargin);
  slack_absolute_ = kAbsoluteMargin * edge_min_;
  failure_ = CertificationFailure::none;
  std::size_t n = nodes_.size();
  parent_.resize(n);
  for (NodeIndex i = 0; i < node_count(); ++i) parent_[i] = i;
  size_.assign(n, 1);
  owned_root_.resize(n);
  for (std::size_t i = 0; i < n; ++i) owned_root_[i] = nodes_[i].owned ? 1 : 0;
  root_changed_.assign(n, 0);
  still_.assign(n, 0);
  scans_.assign(n, ScanMemory{});
  near_.clear();
  bound_.assign(n, 0.0);
  floor_.assign(n, 0.0);
  straight_ = plain_;
  // The particles a sparse certificate leaves out are alone on their
  // lines: their bounds are their speeds (a hair above, for rounding).
  constexpr double kSpeedRounding = 1.0 + 1e-12;
  max_all_bound_ = sparse_ ? max_speed_ * kSpeedRounding : 0.0;
  // What each particle alone would give: neighbours compute the same, so
  // only bounds above it need to travel.
  std::vector<NodeIndex> all(n);
  for (NodeIndex i = 0; i < all.size(); ++i) all[i] = i;
  compute_bounds(all);
  single_bound_ = bound_;
  structural_edges();
  iterate(std::move(all), true);
  n = nodes_.size();  // a sparse certificate may have added nodes
  stats_ = CertificationStats{};
  stats_.nodes = n;
  for (std::size_t i = 0; i < n; ++i) {
    if (nodes_[i].owned) stats_.max_bound = std::max(stats_.max_bound, bound_[i]);
  }
  if (sparse_) stats_.max_bound = std::max(stats_.max_bound, owned_max_speed_ * kSpeedRounding);
  stats_.max_speed = max_speed_;
  sent_bound_ = bound_;
  sent_straight_.resize(n);
  for (NodeIndex i = 0; i < node_count(); ++i) sent_straight_[i] = on_line(i);
  return failure_ == CertificationFailure::none;
}

void Certifier::outgoing_bounds(std::vector<std::pair<int, SpeedBound>>& out) const {
  out.clear();
  std::vector<int> ranks;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    // Where nothing is tested on straight lines, every particle's own
    // state says it turns.
    const bool turns = straight_lines_ && !sent_straight_[i];
    if (!nodes_[i].owned || !(bound_[i] > single_bound_[i] || turns)) continue;
    send_bound(i, turns, ranks, out);
  }
}

void Certifier::send_bound(std::size_t i, bool turns, std::vector<int>& ranks,
                           std::vector<std::pair<int, SpeedBound>>& out) const {
  layout_.window_ranks(engine_->sector(nodes_[i].index), ranks);
  const SpeedBound b{engine_->particles().id[nodes_[i].index], bound_[i], turns ? 1u : 0u};
  for (int r : ranks) {
    if (r != rank_) out.push_back({r, b});
  }
}

std::pair<std::uint64_t, std::uint64_t> Certifier::examined() const {
  std::uint64_t owned = 0;
  for (const Node& node : nodes_) owned += node.owned ? 1 : 0;
  return {owned, nodes_.size() - owned};
}

void Certifier::rising_bounds(std::vector<std::pair<int, SpeedBound>>& out) {
  out.clear();
  std::vector<int> ranks;
  for (NodeIndex i = 0; i < node_count(); ++i) {
    if (!nodes_[i].owned) continue;
    stats_.max_bound = std::max(stats_.max_bound, bound_[i]);
    const bool line = on_line(i);
    if (!(bound_[i] > sent_bound_[i]) && !(sent_straight_[i] && !line)) continue;
    sent_bound_[i] = bound_[i];
    sent_straight_[i] = line;
    send_bound(i, straight_lines_ && !line, ranks, out);
  }
  failure_ = CertificationFailure::none;
}

bool Certifier::verify_phase(const std::vector<SpeedBound>& received, double global_max) {
  if (failure_ != CertificationFailure::none) return false;
  max_all_bound_ = std::max(max_all_bound_, global_max);
  // Ghost bounds rise to their owners' values.
  std::vector<NodeIndex> raised;
  for (const SpeedBound& b : received) {
    const engine::Index i = engine_->particles().index_of(b.id);
    if (i == engine::kNoIndex) continue;
    if (node_of_[i] == kNoNode) {
      // A ghost a sparse certificate took for a line: its owner says it is
      // more.
      const engine::ParticleState& s = engine_->particles().state[i];
      if (!scan_lists_ || engine_->is_owned(i) || engine_->is_removed(i) || !s.alive || !s.mobile) continue;
      add_node(i);
    }
    const NodeIndex n = node_of_[i];
    if (nodes_[n].owned) continue;
    const bool turns = b.turns != 0 && straight_[n];
    if (!(b.bound > bound_[n]) && !turns) continue;
    if (turns) straight_[n] = 0;
    floor_[n] = std::max(floor_[n], b.bound);
    raised.push_back(n);
  }
  if (!raised.empty()) {
    // Whole components of raised nodes are re-examined.
    std::fill(root_changed_.begin(), root_changed_.end(), 0);
    for (NodeIndex i : raised) root_changed_[find(i)] = 1;
    iterate(members_of_changed_components(), false);
    if (failure_ != CertificationFailure::none) return false;
  }
  // Components with an owned member: closed (every particle their members
  // could meet is held here) and covered by the owned bounds others used.
  const NodeIndex n = node_count();
  std::vector<std::uint8_t> has_owned(n, 0), has_ghost(n, 0);
  std::vector<std::uint32_t> members(n, 0);
  for (NodeIndex i = 0; i < n; ++i) {
    const NodeIndex r = find(i);
    (nodes_[i].owned ? has_owned : has_ghost)[r] = 1;
    ++members[r];
  }
  active_ghosts_.clear();
  stats_.components = stats_.cross_components = stats_.largest_component = 0;  // phase 2 may run again
  bool unclosed = false, risen = false;
  for (NodeIndex i = 0; i < n; ++i) {
    const NodeIndex r = find(i);
    if (parent_[i] == i && members[i] > 1) {
      ++stats_.components;
      stats_.largest_component = std::max<std::uint64_t>(stats_.largest_component, members[i]);
      if (has_owned[i] && has_ghost[i]) ++stats_.cross_components;
    }
    if (!has_owned[r]) continue;
    if (!closed(i, reach_layers(i))) unclosed = true;
    if (nodes_[i].owned && bound_[i] > sent_bound_[i]) risen = true;
    // Others tested it on a straight line it no longer keeps.
    if (nodes_[i].owned && sent_straight_[i] && !on_line(i)) risen = true;
    if (!nodes_[i].owned) active_ghosts_.push_back(nodes_[i].index);
  }
  // A component that is not closed stays so whatever bounds arrive (they
  // only grow): depth wins, and only risen bounds alone are worth sending
  // again (rising_bounds).
  if (unclosed) {
    failure_ = CertificationFailure::depth;
  } else if (risen) {
    failure_ = CertificationFailure::energy;
  }
  stats_.nodes = n;
  // In engine order, as the ghosts are activated.
  std::sort(active_ghosts_.begin(), active_ghosts_.end());
  stats_.active_ghosts = active_ghosts_.size();
  return failure_ == CertificationFailure::none;
}

}  // namespace tethersim::decomposition
