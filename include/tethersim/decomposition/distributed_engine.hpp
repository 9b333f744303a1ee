#pragma once
// The distributed engine (docs/distribution.md): each
// rank runs the unchanged serial Engine over the particles of its block of
// sectors and a halo of ghosts, window after window. A window [T, T+delta)
// runs only once certification proved which particles can interact in it
// (decomposition/certification): components with a particle owned here run
// here, the rest of the halo stays frozen. Components that straddle ranks
// run on every rank that owns one of their particles, with identical bits;
// each rank keeps its own particles' results. Afterwards the changed
// particles go to every rank whose window holds them (halos and migration).
// That is the certified protocol (certified_windows.hpp); the default,
// speculative one (speculative_windows.hpp) runs every held particle first
// and undoes what the neighbours' histories show was not exact. Each
// protocol is an object holding its own state; this class is the mechanism
// they share and picks the protocol of each round. A component too wide
// for the halo is run by one rank for all (fallback); block boundaries move
// to balance the load. The result is the serial run's, bit for bit, on any
// number of ranks.

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "tethersim/decomposition/agreements.hpp"
#include "tethersim/decomposition/block_layout.hpp"
#include "tethersim/decomposition/certification.hpp"
#include "tethersim/decomposition/certified_windows.hpp"
#include "tethersim/decomposition/distribution_counters.hpp"
#include "tethersim/decomposition/distribution_test_switches.hpp"
#include "tethersim/decomposition/fallback_policy.hpp"
#include "tethersim/decomposition/load_balancer.hpp"
#include "tethersim/decomposition/owner_computes_windows.hpp"
#include "tethersim/decomposition/rank_exchange.hpp"
#include "tethersim/decomposition/round_recorder.hpp"
#include "tethersim/decomposition/speculative_windows.hpp"
#include "tethersim/decomposition/window_length.hpp"
#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/partial_view.hpp"
#include "tethersim/engine/poll_pacer.hpp"
#include "tethersim/engine/stall_watch.hpp"
#include "tethersim/mpi/reductions.hpp"
#include "tethersim/scenario/initial_particles.hpp"
#include "tethersim/scenario/initial_system.hpp"

namespace tethersim::decomposition {

class ShadowCheck;

// How a window is made safe: run first and check afterwards, undoing it
// when the check fails (speculative), or prove it first from speed bounds
// (certified; also what a speculative round falls back to when windows
// keep failing); or each event run once, by the rank that owns it, with
// the others undone where its outcome comes late (owner-computes rounds;
// models without action potentials).
enum class WindowMode { speculative, certified, owner };

struct DistributionSettings {
  std::optional<GridShape> ranks_grid;  // chosen from the rank count and box when empty
  BalanceMode balance = BalanceMode::automatic;
  int balance_interval = 64;            // windows between load checks
  double imbalance_threshold = 1.10;    // largest over mean work that moves the planes
  // Let one rank run everything for a while when certified windows cost
  // more than that (a small or tightly bound system, or a large one on few
  // ranks); off, only windows that cannot be certified at all fall back.
  LeanFallback lean_fallback = LeanFallback::on;
  WindowMode windows = WindowMode::speculative;
  // The most a rank's undo log and history may hold in one speculative
  // window, in bytes; a window that needs more ends early at the time
  // reached (0: a quarter of the engine's own memory, at least
  // kMinWindowMemory; with periodic impulses, which change every particle,
  // half of it, at least kMinWindowMemoryWithTicks).
  std::size_t window_memory = 0;
  // Sector layers of each rank's halo (kMinHaloDepth to kMaxHaloDepth):
  // deeper halos let speculative windows run longer before a violation
  // and duplicate more events.
  int halo_depth = kHaloDepth;
  // Where each rank writes its round records (round_recorder.hpp); empty:
  // none are written.
  std::string record_rounds;
  // Testing and debugging switches (read from the environment by the
  // runtime, never here).
  DistributionTestSwitches test;
};

inline constexpr std::size_t kMinWindowMemory = std::size_t{8} << 20;
inline constexpr std::size_t kMinWindowMemoryWithTicks = std::size_t{16} << 20;

// Why a model cannot run on several ranks (empty: it can).
std::string distribution_problem(const Model& model);
// What of a model owner-computes rounds do not take yet (empty: nothing).
std::string owner_computes_problem(const Model& model);

// The rank grid a run of `ranks` ranks uses (given or chosen); throws
// std::invalid_argument when the model or grid does not allow it. No MPI
// call: every rank can check before the first collective.
// With `occupied` (how many sectors the particles span along each axis),
// the grid is chosen over the particles rather than the box.
GridShape rank_grid_for(const Model& model, int ranks, const DistributionSettings& settings,
                        const std::optional<GridShape>& occupied = std::nullopt);

// The sectors particles occupy, as a box of sector indices.
struct SectorSpan {
  std::array<int, 3> lo{std::numeric_limits<int>::max(), std::numeric_limits<int>::max(),
                        std::numeric_limits<int>::max()};
  std::array<int, 3> hi{std::numeric_limits<int>::min(), std::numeric_limits<int>::min(),
                        std::numeric_limits<int>::min()};
  template <typename Sector>
  void add(const Sector& s) {
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], static_cast<int>(s[k]));
      hi[k] = std::max(hi[k], static_cast<int>(s[k]));
    }
  }
};

// Raised when ranks disagree on a particle they both computed: a broken
// synchronization, never a user error.
class SynchronizationError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// An initial state the ranks refused together (the first overlapping pair
// of any window, agreed on): thrown by every rank alike, so that they can
// end without an abort.
class RefusedStart : public ModelError {
 public:
  using ModelError::ModelError;
};

class DistributedEngine {
 public:
  // A fresh run: every rank streams the same initial state, once to learn
  // where the particles are (the rank grid), once to keep what its window
  // holds, and checks that window for overlapping pairs. The ranks agree on
  // the first pair by id, so that every rank throws the same ModelError,
  // the one a single process gives (RefusedStart; docs/distribution.md,
  // "Start-up").
  DistributedEngine(const Model& model, MPI_Comm comm, const scenario::InitialSystem& initial,
                    const DistributionSettings& settings);
  // A restart: `slice` is this rank's part of a checkpoint (read_checkpoint
  // with slices); particles are redistributed by position. The slice's
  // storage is released as soon as its particles and links are sent on
  // (pass it with std::move): a restart's peak is what a rank holds.
  DistributedEngine(const Model& model, MPI_Comm comm, engine::EngineSnapshot slice,
                    const DistributionSettings& settings);
  ~DistributedEngine();
  DistributedEngine(const DistributedEngine&) = delete;
  DistributedEngine& operator=(const DistributedEngine&) = delete;

  // The end of the last window: every event before it processed on every
  // rank, none at or after it.
  double time() const { return time_; }
  // Runs windows until `end`, or until about `event_budget` events ran over
  // all ranks, or until a halt (below); true when `end` was reached.
  // Collective.
  bool advance(double end, std::uint64_t event_budget);

  // Why the last advance() ended early besides its budget, agreed by every
  // rank: a stop asked by the poll, or a stall (simulated time stuck while
  // events keep coming). The window in progress is then undone (or, run on
  // one rank, dropped): time() is a consistent stop time.
  enum class Halt : int { none = 0, stop = 1, stall = 2 };
  Halt halt() const { return halt_; }
  // Polled every few thousand events inside windows, on every rank (stop
  // signals, the wall-time limit): a rank busy in a long window, or in one
  // that never ends, must still notice.
  void set_stop_poll(std::function<bool()> poll) { stop_poll_ = std::move(poll); }
  // Events without progress of the clock that make a stall (0: never).
  void set_stall_limit(std::uint64_t events) {
    stall_limit_ = events;
    committed_watch_ = engine::StallWatch(events);
  }
  // This rank's description of the stall it saw (empty: none).
  const std::string& stall_description() const { return stall_description_; }
  // Whether the time outside rounds from here on is the run loop's
  // (--record-rounds, RoundRecorder::count_loop).
  void count_loop(bool counted) {
    if (recorder_) recorder_->count_loop(counted);
  }

  const engine::Engine& engine() const { return *engine_; }
  // The particle records this rank's start held at once: its window of the
  // initial state, or its slice of the checkpoint.
  std::uint64_t start_particles() const { return start_particles_; }
  const BlockLayout& layout() const { return layout_; }
  const DistributionCounters& counters() const { return counters_; }
  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }
  int ranks() const { return ranks_; }

 private:
  // The window protocols work through this class's mechanism.
  friend class SpeculativeWindows;
  friend class CertifiedWindows;
  friend class OwnerComputesWindows;

  struct Globals {
    std::vector<std::uint64_t> periodic_ticks;
    int active_window = -1;
  };

  void start_layout(const DistributionSettings& settings, SectorSpan span);
  // Throws the agreed RefusedStart when any rank's window holds an
  // overlapping pair (collective).
  void refuse_overlaps(const scenario::InitialSystem& initial, std::span<const ParticleSpec> mine) const;
  // The end of either constructor, started at `started`: the start-up's
  // time, the bytes sent counted from here, and the developer's shadow
  // check when asked for (collective).
  void finish_start(double started);
  // Throws on the rank TETHERSIM_FAIL_ON_RANK names once it is due.
  void fail_if_asked() const;
  // Action-potential reactions each particle carries a time for.
  std::size_t reaction_count() const;
  // Builds this rank's engine from the snapshot of its window (consumed).
  void build(engine::EngineSnapshot snapshot, const Globals& globals,
             engine::EngineStatistics statistics, std::vector<engine::EscapeSnapshot> escapes,
             std::vector<engine::ReleaseSnapshot> releases);
  void assign_roles();
  // The owned and ghost particles this rank holds now (counters_.owned,
  // ghosts, ghosts_max), after its roles changed.
  void count_held();
  // Sends `out` (one buffer of records per rank, consumed) to every rank
  // and decodes what comes in.
  std::vector<engine::ParticleRecord> receive_records(std::vector<Bytes> out) const;
  // Encodes a record into the buffer of every rank whose window holds it
  // (a dead one for the owner of its sector only, a hub for all);
  // `ranks` is scratch space, reused from record to record.
  void pack_for_holders(std::vector<Bytes>& out, const engine::ParticleRecord& record,
                        std::vector<int>& ranks) const;
  // Sends records to every rank whose window holds them and rebuilds every
  // engine. Consumes `records` (freed once encoded: a restart holds few
  // copies).
  void redistribute(std::vector<engine::ParticleRecord> records, const Globals& globals,
                    const engine::EngineStatistics& statistics,
                    const std::vector<engine::EscapeSnapshot>& escapes,
                    const std::vector<engine::ReleaseSnapshot>& releases);
  // Sends `out` (one buffer of records per rank, consumed) to every rank
  // and assembles what comes in as one snapshot (hubs, which come from
  // every rank, once).
  engine::EngineSnapshot exchange_snapshot(std::vector<Bytes> out);
  // The same from records already packed (pack_for_holders), consumed.
  void deliver_and_build(std::vector<Bytes> out, const Globals& globals,
                         const engine::EngineStatistics& statistics,
                         const std::vector<engine::EscapeSnapshot>& escapes,
                         const std::vector<engine::ReleaseSnapshot>& releases);
  Globals current_globals() const;

  // One window ending at most at `end`: speculative, or certified when
  // speculation keeps failing or is not asked for.
  void round(double end);
  // round(), with its records written when asked (--record-rounds).
  void recorded_round(double end);
  // The phase a recorded round's CPU time goes to from here on.
  void enter(RoundPhase p) {
    if (recorder_) recorder_->enter(p);
  }
  // Before a certified round: ghosts take part in events only where a
  // certificate lets them.
  void freeze_ghosts();
  // Every held particle takes part in events (speculative windows run the
  // halo too).
  void make_every_particle_live();
  // The sectors whose particles' histories are kept: those in some other
  // rank's window (marked again only when the cut planes moved).
  void mark_logged_sectors();
  // The run's clock moves to `until`, the end of a window every rank keeps
  // (committed, certified or run by a fallback): counted, and watched for a
  // stall spread over windows.
  void move_clock_to(double until);
  // The first window length to propose, agreed by all ranks (collective).
  double first_proposal(double room);
  // Runs `engine` to `until` (or for `budget` events), polling for a stop
  // and watching for a stall every few thousand events; what stopped it
  // short. `reached`: whether `until` was reached.
  // With `memory_limit`, it also stops (not reached) once the engine's
  // speculation bytes pass it.
  Halt run_watched(engine::Engine& engine, double until, std::uint64_t budget = UINT64_MAX,
                   bool* reached = nullptr, std::size_t memory_limit = SIZE_MAX);
  // The window memory of this rank (settings or automatic).
  std::size_t window_memory() const;
  void exchange_changes();
  // Which ranks a changed owned particle's record goes to after a window:
  // every other rank whose window held it before (c.sector_before) or holds
  // it now (a certified round: they refresh their copies), or only those
  // whose windows it entered in the window (a speculative commit: the
  // others ran it exactly or ask for it).
  enum class Recipients { every_window, new_windows };
  // After a window: appends a changed owned particle's record to `out` (one
  // buffer per neighbour) for the `who` ranks, and counts the work where it
  // happened. `before` and `after` are scratch.
  void send_changed_record(const engine::PartialView::Change& c, Recipients who, std::vector<Bytes>& out,
                           std::vector<int>& before, std::vector<int>& after);
  // Runs [time_, until) on rank 0 for everything (a cluster no halo holds).
  // Runs everything on rank 0 until `until` or until `events_per_particle`
  // events per particle have happened, whichever comes first.
  void fallback(double until, double events_per_particle);
  // A fallback of `events_per_particle` (0: the next budget, each one
  // doubling it).
  void run_fallback(double cap, double events_per_particle = 0.0);
  // Called after each window: every few windows, true when a fallback
  // costs less than going on with windows like them (fallback_policy_).
  bool fallback_after_window(double round_started, double cap);
  // Collective: whether a fallback to `cap` would take less wall time than
  // windows like the last ones (measured costs, agreed over ranks).
  bool fallback_pays(double cap);
  // The testing modes' coin: the same sequence on every rank, from the
  // model's seed (so a failing test can be repeated).
  std::uint64_t random_decision();
  void maybe_rebalance();
  // Moves the planes between blocks to `cuts` in place, between windows
  // (moving_planes.cpp): particles that enter a window travel, the rest
  // stay with their predictions. Returns how many this rank received.
  std::size_t move_planes(const CutPlanes& cuts);
  // Collective agreement on the named fields of `a` (agreements.hpp),
  // recorded and timed.
  template <typename Agreement>
  void agree(Agreement& a) {
    const double started = begin_agreement(mpi::MaxAndSum::values_of(a));
    max_and_sum_.agree(a, comm_);
    end_agreement(started);
  }
  double begin_agreement(std::size_t values);
  void end_agreement(double started);
  // This rank's share of the run's totals (RunTotals), and the agreed
  // totals kept.
  RunTotals run_totals() const {
    return {static_cast<double>(counters_.events_executed - counters_.events_duplicated),
            static_cast<double>(counters_.owned)};
  }
  void take_totals(const RunTotals& t) {
    global_events_ = static_cast<std::uint64_t>(t.unique_events);
    global_owned_ = static_cast<std::uint64_t>(t.owned);
  }
  // The next action-potential transition after time_ (windows end there).
  double next_transition() const;

  const Model& model_;
  MPI_Comm comm_;
  int rank_ = 0;
  int ranks_ = 1;
  BlockLayout layout_;
  DistributionSettings settings_;
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<NeighbourExchange> neighbours_;
  std::unique_ptr<RoundRecorder> recorder_;  // --record-rounds
  mpi::MaxAndSum max_and_sum_;  // agree()'s one collective
  double time_ = 0.0;
  FallbackPolicy fallback_policy_{settings_.lean_fallback};
  std::uint64_t global_owned_ = 0;     // particles on all ranks (agreed)
  double start_build_seconds_ = 0.0;       // building this rank's engine at start-up
  // Load balance: the wall clock at the last check, and what the last move
  // of the planes took (before any, the start-up's build).
  double last_balance_check_ = 0.0;
  double last_move_seconds_ = 0.0;
  std::size_t last_move_particles_ = 0;  // the particles this rank gained in it
  std::uint64_t start_particles_ = 0;
  std::vector<ParticleId> active_ghosts_;  // ghosts running in the current window
  std::uint64_t global_events_ = 0;    // executed on all ranks (agreed)
  std::optional<LoadBalancer> balancer_;  // made with the layout
  std::uint64_t random_decisions_ = 0;  // testing modes: decisions drawn so far
  bool trace_ = false;                  // settings_.test.trace_windows
  bool break_synchronization_ = false;  // fault injection builds only
  std::unique_ptr<ShadowCheck> shadow_;  // settings_.test.shadow_check: a serial engine to compare with
  // Speculative windows.
  engine::SectorMask logged_sectors_;  // what other ranks' windows reach
  std::array<std::vector<int>, 3> logged_for_cuts_;  // the cut planes they were marked for
  bool every_particle_live_ = false;
  std::unique_ptr<SpeculativeWindows> speculative_;
  std::unique_ptr<CertifiedWindows> certified_;
  std::unique_ptr<OwnerComputesWindows> owner_;  // settings_.windows == owner
  int certified_rounds_left_ = 0;  // certified rounds before speculating again
  DistributionCounters counters_;
  std::function<bool()> stop_poll_;
  // How often run_watched looks at the stop flag, the clock and the window's
  // memory; it learns the event rate across windows.
  engine::PollPacer poll_pacer_;
  std::uint64_t stall_limit_ = engine::kDefaultStallEvents;
  // The clock as windows commit, against this rank's events: a stall
  // spread over many committed windows (move_clock_to).
  engine::StallWatch committed_watch_;
  bool stalled_across_windows_ = false;
  Halt halt_ = Halt::none;
  std::string stall_description_;
};

}  // namespace tethersim::decomposition
