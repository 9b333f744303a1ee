// Certifier, window-independent part (docs/distribution.md, "A round",
// step 2): the nodes a certificate starts from, their positions, energies
// and impulses, read from the engine once per window.
#include <algorithm>
#include <cmath>

#include "tethersim/decomposition/certification.hpp"
#include "tethersim/engine/event_sources.hpp"
#include "tethersim/physics/random_impulse.hpp"

namespace tethersim::decomposition {

Certifier::Node Certifier::make_node(engine::Index i) const {
  const engine::Engine& engine = *engine_;
  const engine::SectorGrid& grid = engine.grid();
  const engine::ParticleState& s = engine.particles().state[i];
  const Species& species = model_.species(s.species);
  const bool infinite = species.infinite_mass();
  Node node;
  node.index = i;
  node.position = s.position(start_);
  node.inv_mass = infinite ? 0.0 : 1.0 / species.mass;
  node.energy = infinite ? 0.0 : 0.5 * species.mass * s.v.squaredNorm();
  node.sector = engine.sector(i);
  node.depth = layout_.depth(rank_, node.sector);
  node.clearance = 0.0;
  if (node.depth == layout_.halo_depth() - 1) {
    // Only the second-last halo layer needs it (see closed()).
    const engine::SectorCoords& c = node.sector;
    std::array<double, 3> below{}, above{}, edge{};
    for (int k = 0; k < 3; ++k) {
      const auto kk = static_cast<std::size_t>(k);
      edge[kk] = grid.edge()[k];
      below[kk] = k < model_.dimensions() ? node.position[k] - grid.face(k, c[kk]) : edge[kk];
      above[kk] = k < model_.dimensions() ? grid.face(k, c[kk] + 1) - node.position[k] : edge[kk];
    }
    // A position off its sector's frame would make the distance
    // meaningless: count it as on the face.
    for (std::size_t k = 0; k < 3; ++k) {
      if (!(below[k] >= 0.0 && below[k] <= edge[k])) below[k] = 0.0;
      if (!(above[k] >= 0.0 && above[k] <= edge[k])) above[k] = 0.0;
    }
    node.clearance = layout_.clearance(rank_, c, below, above, edge);
  }
  node.species = s.species;
  node.owned = engine.is_owned(i);
  node.tethered = !engine.tethers().empty(i);
  return node;
}

// What prepare decides before it picks the nodes: which species a rule
// concerns, and (still starts) which particles have energy to come.
struct Certifier::NodeChoice {
  // Infinite-mass particles in the grid are nodes only when a rule can
  // change their tethers (a wall that only blocks changes nothing).
  std::vector<bool> rule_species;
  // Still start: elsewhere, a particle at rest with no energy to come (no
  // open loaded edge, no random impulse and no periodic tick due in the
  // window) stays at rest until an event touches it, and such an event
  // needs a moving partner, which is a node and tests it (at rest, as a
  // line of speed 0; through a tether with slack a bound could take up).
  // It becomes a node when a test joins it, or (a ghost) when its owner's
  // bound arrives. A membrane at rest is mostly still.
  bool leave_still = false;
  std::vector<bool> kicked_species;  // a periodic tick is due in the window
  engine::IndexBits energised;       // particles with an open loaded edge
  double window_end = 0.0;
  std::size_t left_still = 0;

  bool still(const engine::Engine& engine, engine::Index i, const engine::ParticleState& s) const {
    return leave_still && s.mobile && s.at_rest() && !kicked_species[s.species] &&
           !engine::has_index(energised, i) && !(engine.next_random_impulse(i) < window_end);
  }
};

Certifier::NodeChoice Certifier::choose_nodes(double window_end) const {
  const engine::Engine& engine = *engine_;
  NodeChoice choice;
  choice.window_end = window_end;
  choice.rule_species.assign(model_.species().size(), false);
  for (const AttachRule& r : model_.rules().attach) {
    choice.rule_species[r.species_a] = choice.rule_species[r.species_b] = true;
  }
  for (const DetachRule& r : model_.rules().detach) {
    choice.rule_species[r.species_a] = choice.rule_species[r.species_b] = true;
  }
  choice.leave_still = !sparse_ && still_allowed_;
  choice.kicked_species.assign(model_.species().size(), false);
  if (!choice.leave_still) return choice;
  const auto& periodic = model_.periodic_impulses();
  for (std::size_t p = 0; p < periodic.size(); ++p) {
    const double next_tick =
        periodic[p].start + static_cast<double>(engine.periodic_ticks()[p]) * periodic[p].interval;
    if (!(next_tick < window_end)) continue;
    for (std::size_t k = 0; k < choice.kicked_species.size(); ++k) {
      if (periodic[p].applies_to[k]) choice.kicked_species[k] = true;
    }
  }
  choice.energised.assign(engine::index_words(engine.particles().size()), 0);
  engine.loaded_edges().for_each_open([&](engine::EdgeIndex, const engine::LoadedEdge& e) {
    for (engine::Index i : {e.a, e.b}) engine::add_index(choice.energised, i);
  });
  return choice;
}

// Releases (a detach that drops the subject's other tethers) only happen
// during action potentials.
bool Certifier::releases_in_window(double start, double window_end) const {
  for (const DetachRule& r : model_.rules().detach) {
    if (r.reaction < 0 || r.subject_releases.empty()) continue;
    for (const ActionPotentialWindow& w : model_.action_potentials().windows) {
      if (w.start < window_end && w.end > start) return true;
    }
  }
  return false;
}

void Certifier::mark_early_particles(double start, double max_length) {
  early_.clear();
  // A window ends at start + length, or at a scheduled stop computed as
  // start + (stop - start), which can round an ulp above: a relative
  // margin and two ulps cover both.
  const double end = start + max_length * (1.0 + kRelativeMargin);
  engine_->particles_with_events_before(std::nextafter(std::nextafter(end, kInfinity), kInfinity), early_);
  for (engine::Index i : early_) node_of_[i] = kEarly;
}

// A particle that could be a node becomes one, unless a sparse or still
// start leaves it out. What the pair tests need later is copied into the
// node.
void Certifier::consider_node(engine::Index i, NodeChoice& choice) {
  const engine::Engine& engine = *engine_;
  const engine::ParticleState& s = engine.particles().state[i];
  if (engine.is_removed(i) || !s.alive || engine.is_hub(i)) return;
  if (model_.species(s.species).infinite_mass() && !choice.rule_species[s.species]) return;
  if (sparse_ && engine.is_owned(i) && node_of_[i] != kEarly) return;
  // Ghosts next to the block are nodes: this calendar's predictions may
  // predate their refresh. Deeper ones meet an owned particle only after
  // a sector crossing, which the calendar of one of the two's owners
  // holds: that owner tests the pair, and says in phase 2 if the ghost
  // turns (verify_phase then adds it).
  if (sparse_ && !engine.is_owned(i) && layout_.depth(rank_, engine.sector(i)) > 1) return;
  if (choice.still(engine, i, s)) {
    ++choice.left_still;
    return;
  }
  nodes_.push_back(make_node(i));
}

// Whether the particles the engine names without reading every record
// hold every node: a sparse start, or a still one where no species could
// have energy to come while at rest (impulses) or be an immobile node (a
// rule).
bool Certifier::named_candidates_suffice(const NodeChoice& choice) const {
  if (!choice.leave_still) return sparse_;
  if (std::any_of(choice.kicked_species.begin(), choice.kicked_species.end(), [](bool k) { return k; })) {
    return false;
  }
  for (std::size_t k = 0; k < model_.species().size(); ++k) {
    const Species& species = model_.species(static_cast<SpeciesIndex>(k));
    if (species.random_impulse.enabled() || (species.infinite_mass() && choice.rule_species[k])) return false;
  }
  return true;
}

// The nodes among the named particles, in engine order (the engine's
// arrays are read in order).
void Certifier::pick_named_nodes(NodeChoice& choice) {
  const engine::Engine& engine = *engine_;
  const engine::ParticleStore& store = engine.particles();
  engine::IndexBits candidates(engine::index_words(store.size()), 0);
  const auto name = [&](engine::Index i) { engine::add_index(candidates, i); };
  if (sparse_) {
    for (engine::Index i : early_) {
      if (engine.is_owned(i)) name(i);
    }
    for (engine::Index i = 0; i < store.size(); ++i) {
      if (!engine.is_owned(i) && !engine.is_removed(i) && layout_.depth(rank_, engine.sector(i)) <= 1) name(i);
    }
    // A bound on every speed without reading every record.
    max_speed_ = owned_max_speed_ = engine.speed2_ceiling();
  } else {
    const engine::IndexBits& moving = engine.moving_bits();
    for (std::size_t w = 0; w < candidates.size(); ++w) candidates[w] = moving[w] | choice.energised[w];
    // The particles left out are at rest: the moving ones hold the
    // largest speed.
    engine::for_each_index(
        moving, [&](engine::Index i) { max_speed_ = std::max(max_speed_, store.state[i].v.squaredNorm()); });
    // Everything not named is still.
    choice.left_still = 1;
  }
  engine::for_each_index(candidates, [&](engine::Index i) { consider_node(i, choice); });
}

// The nodes among every particle, with the largest speeds (squared: square
// roots once, in prepare).
void Certifier::pick_every_node(NodeChoice& choice) {
  const engine::Engine& engine = *engine_;
  const engine::ParticleStore& store = engine.particles();
  for (engine::Index i = 0; i < store.size(); ++i) {
    const engine::ParticleState& s = store.state[i];
    if (engine.is_removed(i) || !s.alive || engine.is_hub(i)) continue;
    const double speed2 = s.v.squaredNorm();
    max_speed_ = std::max(max_speed_, speed2);
    if (engine.is_owned(i)) owned_max_speed_ = std::max(owned_max_speed_, speed2);
    consider_node(i, choice);
  }
}

// Each node's number, velocity and random impulses due in the window, and
// whether nothing but another node can turn it.
void Certifier::index_nodes(double window_end) {
  const engine::Engine& engine = *engine_;
  const engine::ParticleStore& store = engine.particles();
  for (const Node& node : nodes_) points_.push_back({node.position, node.species});
  plain_.assign(nodes_.size(), 0);
  velocity_.resize(nodes_.size());
  const std::uint64_t seed = model_.seed();
  for (std::size_t n = 0; n < nodes_.size(); ++n) {
    const Node& node = nodes_[n];
    const engine::Index i = node.index;
    node_of_[i] = static_cast<NodeIndex>(n);
    mark_node(i);
    velocity_[n] = store.state[i].v;
    const std::size_t first_impulse = impulses_.size();
    impulse_begin_.push_back(first_impulse);
    const Species& species = model_.species(node.species);
    if (node.inv_mass > 0.0 && species.random_impulse.enabled()) {
      double t = engine.next_random_impulse(i);
      std::uint64_t k = engine.random_impulse_index(i);
      const ParticleId id = store.id[i];
      while (t < window_end) {
        const double j =
            physics::draw_random_impulse(seed, id, k, species.random_impulse, model_.dimensions()).dp.norm();
        impulses_.push_back({t, engine::Engine::RandomImpulseSource::root_energy_kick(j, species.mass)});
        t += physics::draw_random_gap(seed, id, k + 1, species.random_impulse);
        ++k;
      }
    }
    plain_[n] = straight_lines_ && node.inv_mass > 0.0 && !node.tethered && impulses_.size() == first_impulse;
  }
  impulse_begin_.push_back(impulses_.size());
}

// The energy a pending restitution can return, on one end.
void Certifier::add_restitution_energy() {
  engine_->loaded_edges().for_each_open([&](engine::EdgeIndex, const engine::LoadedEdge& e) {
    const NodeIndex a = node_of_[e.a], b = node_of_[e.b];
    if (a == kNoNode && b == kNoNode) return;
    const double inv_a = a != kNoNode ? nodes_[a].inv_mass : 0.0;
    const double inv_b = b != kNoNode ? nodes_[b].inv_mass : 0.0;
    nodes_[a != kNoNode ? a : b].energy += engine::Engine::RestitutionSource::energy_bound(e.impulse, inv_a, inv_b);
    if (a != kNoNode) plain_[a] = 0;
    if (b != kNoNode) plain_[b] = 0;
  });
}

void Certifier::prepare(const engine::Engine& engine, double start, double max_length) {
  engine_ = &engine;
  start_ = start;
  const engine::ParticleStore& store = engine.particles();
  edge_min_ = engine.grid().edge().head(model_.dimensions()).minCoeff();
  nodes_.clear();
  points_.clear();
  impulses_.clear();
  impulse_begin_.clear();
  max_speed_ = 0.0;
  owned_max_speed_ = 0.0;
  node_of_.assign(store.size(), kNoNode);
  node_bits_.assign(engine::index_words(store.size()), 0);
  // Sparse: where every particle is plain (no tethers can exist, no loaded
  // edge is open, no random impulses), an owned particle whose calendar
  // event comes after the window moves on its straight line, and the
  // engine's calendar already proves that no other such particle's line
  // meets it (Engine::particles_with_events_before). Only the owned
  // particles with an earlier event and the ghosts (whose lines this
  // calendar does not cover) start as nodes; a particle left out joins
  // when a node's test reaches it (add_node).
  sparse_ = sparse_allowed_ && !engine.tethers().allocated() && engine.loaded_edges().open_count() == 0;
  const double window_end = start + max_length;
  release_edges_ = releases_in_window(start, window_end);
  NodeChoice choice = choose_nodes(window_end);
  if (sparse_) mark_early_particles(start, max_length);
  // The particles that could be nodes: every particle, or where the start
  // is sparse or still, those the engine names without reading every
  // record.
  if (named_candidates_suffice(choice)) {
    pick_named_nodes(choice);
  } else {
    pick_every_node(choice);
  }
  scan_lists_ = sparse_ || choice.left_still > 0;
  max_speed_ = std::sqrt(max_speed_);
  owned_max_speed_ = std::sqrt(owned_max_speed_);
  if (sparse_) {
    for (engine::Index i : early_) node_of_[i] = kNoNode;
  }
  // With particles left out, engine order is the cell order's stand-in:
  // test_node_sparse walks the engine's sector lists.
  if (!scan_lists_) sort_by_sector(engine.grid());
  index_nodes(window_end);
  add_restitution_energy();
}

void Certifier::sort_by_sector(const engine::SectorGrid& grid) {
  // Per axis: the sector coordinates within two layers of a node (wrapped
  // on periodic axes), in increasing order.
  std::size_t cells = 1;
  for (std::size_t k = 0; k < 3; ++k) {
    const int shape = grid.shape()[k];
    std::vector<int>& local = local_of_[k];
    local.assign(static_cast<std::size_t>(shape), -1);
    for (const Node& node : nodes_) {
      for (int o = -2; o <= 2; ++o) {
        int v = node.sector[k] + o;
        if (v < 0 || v >= shape) {
          if (!grid.periodic(static_cast<int>(k))) continue;
          v = (v + shape) % shape;
        }
        local[static_cast<std::size_t>(v)] = 0;
      }
    }
    int count = 0;
    for (int& l : local) {
      if (l == 0) l = count++;
    }
    cell_shape_[k] = count;
    cells *= static_cast<std::size_t>(count);
  }
  // Counting sort by cell; within a cell, engine order (stable). The
  // buffers persist between windows: fresh ones of this size would cost a
  // page fault per 4 kB every window.
  std::vector<std::uint32_t>& cell = sort_cell_;
  cell.resize(nodes_.size());
  cell_begin_.assign(cells + 1, 0);
  for (std::size_t n = 0; n < nodes_.size(); ++n) {
    // A node's own sector always has a cell (it was marked above).
    const engine::SectorCoords& c = nodes_[n].sector;
    cell[n] = static_cast<std::uint32_t>(cell_index(local_of_[0][static_cast<std::size_t>(c[0])],
                                                    local_of_[1][static_cast<std::size_t>(c[1])],
                                                    local_of_[2][static_cast<std::size_t>(c[2])]));
    ++cell_begin_[cell[n] + 1];
  }
  for (std::size_t k = 0; k < cells; ++k) cell_begin_[k + 1] += cell_begin_[k];
  sort_next_.assign(cell_begin_.begin(), cell_begin_.end() - 1);
  sorted_nodes_.resize(nodes_.size());
  for (std::size_t n = 0; n < nodes_.size(); ++n) sorted_nodes_[sort_next_[cell[n]]++] = nodes_[n];
  nodes_.swap(sorted_nodes_);
}

}  // namespace tethersim::decomposition
