#pragma once
// Certified isolation windows (docs/distribution.md, "A certified round"):
// before a window [T, T + delta) runs, prove which particles can interact
// in it, reading the engine only.
//
// Nodes are the mobile particles held here (and infinite-mass ones whose
// tethers rules can change). Two nodes are joined when they could interact
// within the window: one loaded group; a blocking gap, or a tether's slack,
// that speeds V_i + V_j could close; a rule that lets one change the
// other's tethers (release, escape). Speeds are bounded by the energy of
// the connected component: V_i = sqrt(2 E_C / m_i), with E_C the kinetic
// energy at T, the energy pending restitutions can return and the impulses
// due in the window. Components only grow as bounds rise; iterate to the
// least fixed point. Where nothing but another particle can turn one, a
// particle alone in its component moves on its straight line: two such are
// joined only when their lines meet in the window, and one such with
// another only when the other's bound can reach its line.
//
// Sparse start: where every particle is plain whatever happens (no tethers,
// loaded edges or random impulses either), nodes start as the owned
// particles with a calendar event in the window and the ghosts of the first
// halo layer; the engine's calendar proves that no two other owned
// particles' lines meet, and a particle left out becomes a node when a
// node's test reaches it, or (a ghost) when its owner's bound arrives.
//
// Every rank computes this over its own view (phase 1), sends the bounds of
// its owned particles to the ranks that hold them as ghosts, and then
// checks (phase 2), with every ghost's bound at least its owner's, that
// each component holding an owned particle is closed (every particle it
// could meet is held here) and that its owned members' bounds cover the
// component's energy. When every rank passes, the owners' bounds form one
// consistent certificate for the whole system (docs/distribution.md gives
// the proof): components with an owned member run here, exactly as in a
// serial run; the rest of the halo stays frozen.

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tethersim/decomposition/block_layout.hpp"
#include "tethersim/engine/engine.hpp"

namespace tethersim::decomposition {

struct SpeedBound {
  ParticleId id = 0;
  double bound = 0.0;
  // The owner does not certify the particle on a straight line (it is in a
  // component, or something else can turn it): no straight-line test for it.
  std::uint64_t turns = 0;
};

struct CertificationStats {
  std::uint64_t nodes = 0;
  std::uint64_t components = 0;        // with two or more members
  std::uint64_t cross_components = 0;  // with owned and ghost members
  std::uint64_t largest_component = 0;
  std::uint64_t active_ghosts = 0;
  double max_bound = 0.0;              // the largest speed bound of an owned node
  double max_speed = 0.0;              // the largest speed at T
};

enum class CertificationFailure {
  none,
  reach,   // the window is too long for the sector size
  depth,   // a component with an owned member reaches too far into the halo
  energy,  // an owned bound does not cover its component (a neighbour's view was larger)
};
const char* to_string(CertificationFailure failure);

class Certifier {
 public:
  // `sparse`: where the model allows it, start from the particles the
  // engine's calendar cannot vouch for instead of every particle (the
  // components are the same; false sweeps everything, for comparison).
  Certifier(const Model& model, const BlockLayout& layout, int rank, bool sparse = true);

  // Window-independent data at the window start: positions, energies, and
  // the random impulses due before start + max_length.
  void prepare(const engine::Engine& engine, double start, double max_length);
  // Phase 1 for a window of `length` (at most max_length): components and
  // bounds over this rank's view. False when the window is too long for the
  // sectors.
  bool local_phase(double length);
  // Bounds of owned particles that the ranks holding them as ghosts need
  // (those above what a particle alone gives), with their destinations.
  void outgoing_bounds(std::vector<std::pair<int, SpeedBound>>& out) const;
  double largest_owned_bound() const { return stats_.max_bound; }
  // Phase 2: `received` are the owners' bounds of ghosts held here; `global_max`
  // the largest bound of any particle. True when certified.
  bool verify_phase(const std::vector<SpeedBound>& received, double global_max);

  // After an energy failure: the owned bounds that rose above (or lines
  // lost since) what was sent, to send again; the next verify_phase then
  // starts afresh.
  void rising_bounds(std::vector<std::pair<int, SpeedBound>>& out);
  CertificationFailure failure() const { return failure_; }
  const CertificationStats& stats() const { return stats_; }
  // The particles this certification examined so far (its nodes): owned,
  // and ghosts.
  std::pair<std::uint64_t, std::uint64_t> examined() const;
  // Ghosts to run in the certified window (members of components with an
  // owned particle), as engine indices.
  const std::vector<engine::Index>& active_ghosts() const { return active_ghosts_; }

 private:
  struct Node {
    engine::Index index;
    Vec3 position;       // at the window start
    double inv_mass;     // 0 for infinite mass
    double energy;       // kinetic + restitution energy assigned to it
    int depth;           // sector layers outside this rank's block (0: owned)
    double clearance;    // in the second-last halo layer: distance to the window's outside
    engine::SectorCoords sector;
    SpeciesIndex species;
    bool owned;
    bool tethered;       // has tethers at the window start
  };
  // What a pair test reads, packed (nodes_ in cell order, 32 bytes).
  struct PairPoint {
    Vec3 position;
    std::size_t species;
  };
  struct Impulse {
    double time;
    double amount;  // |J| / sqrt(2 m)
  };

  // Relative and absolute safety margins on every gap test: computed event
  // times carry rounding errors, and a pair certified apart must never be
  // predicted to meet inside the window.
  static constexpr double kRelativeMargin = 1e-6;
  static constexpr double kAbsoluteMargin = 1e-9;  // in sector edges

  // Nodes are numbered 0.. in nodes_; kNoNode: a particle that is none.
  using NodeIndex = std::uint32_t;
  static constexpr NodeIndex kNoNode = std::numeric_limits<NodeIndex>::max();
  // prepare's mark, for a moment, of a sparse start's owned particles whose
  // calendar event comes within the window (the other owned particles'
  // straight lines are proved apart already).
  static constexpr NodeIndex kEarly = kNoNode - 1;
  NodeIndex node_count() const { return static_cast<NodeIndex>(nodes_.size()); }

  Node make_node(engine::Index i) const;
  // prepare's steps (certification_prepare.cpp).
  struct NodeChoice;
  NodeChoice choose_nodes(double window_end) const;
  bool releases_in_window(double start, double window_end) const;
  void mark_early_particles(double start, double max_length);
  bool named_candidates_suffice(const NodeChoice& choice) const;
  void consider_node(engine::Index i, NodeChoice& choice);
  void pick_named_nodes(NodeChoice& choice);
  void pick_every_node(NodeChoice& choice);
  void index_nodes(double window_end);
  void add_restitution_energy();
  // A particle left out of a sparse certificate becomes a node (alone);
  // returns it.
  NodeIndex add_node(engine::Index i);
  // Sparse certificates: node i against the particles of the sectors
  // around it (the engine's lists), nodes or not; and against one that is
  // not a node, on its straight line.
  bool test_node_sparse(NodeIndex i, bool first_pass);
  bool test_line(NodeIndex i, engine::Index j, const Vec3& offset);
  // Node i against a particle of its search box seen through `offset`:
  // node nj (test_pair), or, when nj is kNoNode, particle j on its line.
  bool test_candidate(NodeIndex i, NodeIndex nj, engine::Index j, const Vec3& offset) {
    return nj != kNoNode ? test_pair(i, nj, offset) : test_line(i, j, offset);
  }
  // A later pass of a sparse certificate over node i, when its earlier
  // scan still covers it: only the candidates that scan found near
  // (ScanMemory); true when something merged.
  bool rescan_near(NodeIndex i);
  // The sectors node i searches: per axis the offsets lo..hi (-1..1, or
  // 2 towards a face its reach crosses), and for each offset o (slot
  // o + 2) the wrapped sector coordinate (-1: beyond a wall) and the
  // image shift that brings it next to the node.
  struct SearchBox {
    std::array<int, 3> lo{}, hi{};
    std::array<std::array<int, 5>, 3> coordinate{};
    std::array<std::array<double, 5>, 3> shift{};
  };
  SearchBox search_box(NodeIndex i) const;
  // Owned node i's bound (and whether it turns) to every other rank that
  // holds it in this window; `ranks` is scratch.
  void send_bound(std::size_t i, bool turns, std::vector<int>& ranks,
                  std::vector<std::pair<int, SpeedBound>>& out) const;
  NodeIndex find(NodeIndex x);
  void unite(NodeIndex a, NodeIndex b);
  // The bounds of `members` (whole components, in node order) from their
  // components' energies.
  void compute_bounds(const std::vector<NodeIndex>& members);
  // Tests node i against its candidates; true when something merged.
  bool test_node(NodeIndex i, bool first_pass);
  bool test_pair(NodeIndex i, NodeIndex j, const Vec3& offset);
  // Node i against its tether partners (a partner left out is still, and
  // becomes a node when the slack couples them); true when something
  // merged.
  bool test_tethers(NodeIndex i);
  // Whether node i and a particle seen at from_i from it (bound bound_j,
  // on its straight line with velocity v_j when line_j) can come within
  // `blocking` of each other in the window.
  bool may_meet(NodeIndex i, const Vec3& from_i, double blocking, double bound_j, bool line_j, const Vec3& v_j) const;
  // Alone in its component and plain: it moves on its straight line unless
  // it meets another node, so its pairs are tested on that line.
  bool on_line(NodeIndex i) const;
  // How far a node's interactions can reach, as a distance and in sector
  // layers (1 or 2; 3 = too far).
  double reach(NodeIndex i) const;
  // The gap node i's pair tests allow against any particle now: its bound
  // and the largest bound anywhere over the window, with the margins.
  double slack(NodeIndex i) const;
  int reach_layers(NodeIndex i) const;
  // Every particle the node could meet is held here (given its reach in
  // layers).
  bool closed(NodeIndex i, int layers) const;
  bool could_escape(NodeIndex i) const;
  // Orders nodes_ by sector and fills the cell list below.
  void sort_by_sector(const engine::SectorGrid& grid);
  // The cell at cell coordinates (x, y, z).
  std::size_t cell_index(int x, int y, int z) const;
  void structural_edges();
  // Every node whose component's root is marked in root_changed_, in node
  // order.
  std::vector<NodeIndex> members_of_changed_components();
  void iterate(std::vector<NodeIndex> dirty, bool all_nodes);

  const Model& model_;
  const BlockLayout& layout_;
  const int rank_;
  const engine::Engine* engine_ = nullptr;
  double start_ = 0.0;
  double length_ = 0.0;
  double slack_factor_ = 0.0;  // delta with a relative safety margin
  double slack_absolute_ = 0.0;
  double edge_min_ = 0.0;      // smallest sector edge

  std::vector<Node> nodes_;
  std::vector<PairPoint> points_;
  std::vector<Vec3> velocity_;  // per node, in node order
  std::vector<NodeIndex> node_of_;  // engine index -> node (kNoNode: none)
  engine::IndexBits node_bits_;  // engine indices that are nodes
  void mark_node(engine::Index i) { engine::add_index(node_bits_, i); }
  bool is_node(engine::Index i) const { return engine::has_index(node_bits_, i); }
  std::vector<std::size_t> impulse_begin_;
  std::vector<Impulse> impulses_;
  std::vector<double> max_blocking_;  // per species
  std::vector<double> blocking_;      // per species pair, flat
  // Cell list: nodes_ is sorted by sector; the cells cover, per axis, the
  // sector coordinates within two layers of a node (the widest search),
  // numbered in increasing order. Cell k's nodes are
  // [cell_begin_[k], cell_begin_[k + 1]). Contiguous nodes make the pair
  // tests read memory in order instead of following the engine's lists.
  std::array<std::vector<int>, 3> local_of_;  // sector coordinate -> cell coordinate (-1: none)
  std::array<int, 3> cell_shape_{0, 0, 0};
  std::vector<std::uint32_t> cell_begin_;
  std::vector<std::uint32_t> sort_cell_;  // sort_by_sector's buffers
  std::vector<std::uint32_t> sort_next_;
  std::vector<Node> sorted_nodes_;
  // Per node: bound and the bound alone (its own energy only).
  std::vector<double> bound_;
  std::vector<double> single_bound_;
  std::vector<double> root_energy_;   // compute_bounds' sums per root
  std::vector<double> root_kick_;
  std::vector<double> root_applies_;  // per root and periodic impulse: mass it applies to
  std::vector<double> sent_bound_;  // phase-1 bounds: what the other ranks use
  std::vector<double> floor_;       // owners' bounds of ghosts (phase 2)
  std::vector<NodeIndex> parent_;
  std::vector<NodeIndex> size_;
  std::vector<std::uint8_t> root_changed_;
  std::vector<std::uint8_t> owned_root_;  // per root: the component has an owned member
  std::vector<std::uint8_t> still_;       // first pass: the node's bound is 0
  // Per node: may be tested on straight lines (plain, and its owner does not
  // say it turns); and whether phase 1 left it alone on one.
  std::vector<std::uint8_t> plain_;  // prepare: nothing but another node can turn it
  std::vector<std::uint8_t> straight_;
  std::vector<std::uint8_t> sent_straight_;
  // Nothing outside the nodes turns a particle in this model (periodic box,
  // no infinite masses, no periodic impulses, no action potentials): a node
  // without tethers, loaded edges or impulses due, alone in its component,
  // moves on a straight line through the window.
  bool straight_lines_ = false;
  // Sparse certificates (prepare): allowed by the model and the options,
  // and used for this window; the early particles (calendar events inside
  // the window) and the largest speed of an owned particle.
  bool sparse_allowed_ = false;
  bool sparse_ = false;
  // Still particles may be left out (the model allows it and the options
  // do), and this window left some or all plain ones out: nodes then find
  // their partners through the engine's lists (test_node_sparse), not the
  // cell list of nodes.
  bool still_allowed_ = false;
  bool scan_lists_ = false;
  std::vector<engine::Index> early_;
  std::vector<std::pair<engine::Index, std::uint32_t>> candidates_;  // test_node_sparse: particle, sector slot
  // What a sparse scan of a node learnt, for the later passes of the same
  // window: every candidate of its search box whose gap was within twice
  // its slack then is near (its entries in near_); the others' smallest gap
  // is far_gap. While the box does not grow and far_gap exceeds the node's
  // slack (bounds only grow, and none exceeds the largest), no far
  // candidate can pass the gap test that every join needs, so a rescan
  // tests the near ones alone and merges exactly what a full one would.
  // Most later-pass scans (members of a merged component, whose bound rose
  // a little) find nothing new.
  struct ScanMemory {
    std::uint32_t near_begin = 0;
    std::uint32_t near_count = 0;
    double far_gap = -kInfinity;  // -inf: not scanned in this window
    std::array<int, 3> lo{}, hi{};
  };
  struct NearCandidate {
    engine::Index particle;
    Vec3 offset;
  };
  std::vector<ScanMemory> scans_;
  std::vector<NearCandidate> near_;
  double owned_max_speed_ = 0.0;
  bool any_still_ = false;
  double max_speed_ = 0.0;      // the largest speed at the window start
  double max_all_bound_ = 0.0;  // the largest bound any particle can have (phase 2)
  bool release_edges_ = false;

  CertificationFailure failure_ = CertificationFailure::none;
  CertificationStats stats_;
  std::vector<engine::Index> active_ghosts_;
};

}  // namespace tethersim::decomposition
