// Certified windows (certified_windows.hpp): each rank proves, from speed
// bounds its neighbours agree to, which of its particles can meet in the
// window, runs those, and keeps the rest of its halo frozen
// (docs/distribution.md, "A certified round").
#include "tethersim/decomposition/certified_windows.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "tethersim/decomposition/distributed_engine.hpp"
#include "wall_clock.hpp"

namespace tethersim::decomposition {

using Halt = DistributedEngine::Halt;

namespace {

// Attempts at certifying one window (each halves it) before a fallback.
constexpr int kMaxAttempts = 24;
// Rounds between exact scans for the engine's speed ceiling, which the
// certificates read instead of every particle's speed: between scans it
// only rises, by the fastest new speed.
constexpr int kCeilingRounds = 16;
// Windows shorter than this fraction of the usual one end in a fallback.
constexpr double kShortest = 1e-3;
// Failed halvings before testing whether an empty window certifies.
constexpr int kStructuralCheck = 3;
// Rounds of phase 2 (bounds sent again after they rose) before a window
// fails on energy.
constexpr int kBoundExchanges = 4;

}  // namespace

CertifiedWindows::CertifiedWindows(DistributedEngine& engine)
    : d_(engine), certifier_(std::make_unique<Certifier>(engine.model_, engine.layout_, engine.rank_)) {}

CertifiedWindows::~CertifiedWindows() = default;

void CertifiedWindows::after_fallback() { length_.at_least(length_.typical()); }

std::vector<SpeedBound> CertifiedWindows::exchange_bounds(const std::vector<std::pair<int, SpeedBound>>& bounds) {
  std::vector<Bytes> out(d_.neighbours_->neighbours().size());
  for (const auto& [rank, bound] : bounds) {
    const int slot = d_.neighbours_->slot(rank);
    if (slot < 0) throw SynchronizationError("a speed bound for a rank outside the neighbourhood");
    Bytes& b = out[static_cast<std::size_t>(slot)];
    const std::size_t at = b.size();
    b.resize(at + sizeof(SpeedBound));
    std::memcpy(b.data() + at, &bound, sizeof(SpeedBound));
  }
  const double exchange_started = seconds_now();
  const ReceivedBytes in = d_.neighbours_->exchange(std::move(out));
  d_.counters_.seconds_wait += seconds_now() - exchange_started;
  std::vector<SpeedBound> received;
  for (std::span<const char> b : in) {
    for (std::size_t at = 0; at + sizeof(SpeedBound) <= b.size(); at += sizeof(SpeedBound)) {
      SpeedBound bound;
      std::memcpy(&bound, b.data() + at, sizeof(SpeedBound));
      received.push_back(bound);
    }
  }
  return received;
}

bool CertifiedWindows::certify(double length) {
  const double started = seconds_now();
  ++d_.counters_.certifications;
  const bool local = certifier_->local_phase(length);
  std::vector<std::pair<int, SpeedBound>> bounds;
  if (local) certifier_->outgoing_bounds(bounds);
  d_.counters_.seconds_certify += seconds_now() - started;
  std::vector<SpeedBound> received = exchange_bounds(bounds);
  CertificationStart start{local ? 0.0 : 1.0, certifier_->largest_owned_bound()};
  d_.agree(start);
  double largest_bound = start.largest_bound;
  bool ok = start.failed == 0.0;
  // Phase 2, repeated while only bounds rose: a rank whose owned bounds
  // rose above what it sent (a neighbour's bounds merged components here)
  // sends them again and every rank verifies again, until no bound moves
  // (the owners' bounds are then one fixed point) or a closure fails.
  for (int exchanges = 1; ok; ++exchanges) {
    const double verify_started = seconds_now();
    ok = certifier_->verify_phase(received, largest_bound);
    const bool again = !ok && certifier_->failure() == CertificationFailure::energy && exchanges < kBoundExchanges;
    if (again) certifier_->rising_bounds(bounds);
    d_.counters_.seconds_certify += seconds_now() - verify_started;
    CertificationVerdict verdict{ok      ? CertificationVerdict::kCertified
                                 : again ? CertificationVerdict::kBoundsRose
                                         : CertificationVerdict::kFailed,
                                 certifier_->largest_owned_bound(), d_.run_totals()};
    d_.agree(verdict);
    d_.take_totals(verdict.totals);
    if (verdict.outcome != CertificationVerdict::kBoundsRose) {
      ok = verdict.outcome == CertificationVerdict::kCertified;
      break;
    }
    ++d_.counters_.bound_exchanges;
    if (!again) bounds.clear();
    received = exchange_bounds(bounds);
    largest_bound = verdict.largest_bound;
    ok = true;
  }
  const auto [owned, ghosts] = certifier_->examined();
  d_.counters_.examined_owned += owned;
  d_.counters_.examined_ghosts += ghosts;
  switch (certifier_->failure()) {
    case CertificationFailure::reach: ++d_.counters_.failures_reach; break;
    case CertificationFailure::depth: ++d_.counters_.failures_depth; break;
    case CertificationFailure::energy: ++d_.counters_.failures_energy; break;
    case CertificationFailure::none: break;
  }
  return ok;
}

bool CertifiedWindows::round(double end) {
  d_.freeze_ghosts();
  ++d_.counters_.certified_rounds;
  const double round_started = seconds_now();
  const double cap = std::min(end, d_.next_transition());
  const double room = cap - d_.time_;
  if (length_.proposal() == 0.0) length_.set(d_.first_proposal(room));
  const double proposal = length_.proposal();
  double length = proposal > 0.0 ? std::min(proposal, room) : room;
  const double first = length;
  // Preparing (and making the speed ceiling exact) counts as certifying.
  const auto prepare = [&](bool refresh_ceiling) {
    const double prepared = seconds_now();
    if (refresh_ceiling) d_.engine_->refresh_speed_ceiling();
    certifier_->prepare(*d_.engine_, d_.time_, length);
    d_.counters_.seconds_certify += seconds_now() - prepared;
  };
  d_.enter(RoundPhase::verify);
  const bool refresh_ceiling = ++rounds_since_ceiling_ >= kCeilingRounds;
  if (refresh_ceiling) rounds_since_ceiling_ = 0;
  prepare(refresh_ceiling);
  int attempts = 0;
  // Fault injection: the proposed window runs whatever its certificate says.
  while (!certify(length) && !d_.break_synchronization_) {
    if (d_.trace_) {
      std::fprintf(stderr, "[rank %d] window [%.17g, +%.6g) failed: %s\n", d_.rank_, d_.time_, length,
                   to_string(certifier_->failure()));
    }
    ++d_.counters_.retries;
    ++attempts;
    length *= 0.5;
    // A cluster that no halo holds whatever the window's length (a long
    // loaded group, taut tethers, particles in contact) shows when even an
    // empty window fails: then shorter windows cannot help. One rank runs
    // everything for a few events per particle, after which the cluster
    // has usually come apart.
    const bool hopeless = attempts == kStructuralCheck && !certify(0.0);
    const double typical = length_.typical();
    const bool too_short = typical > 0.0 && length < kShortest * typical;
    if (hopeless || too_short || attempts >= kMaxAttempts || !(d_.time_ + length > d_.time_)) {
      d_.run_fallback(cap);
      return true;
    }
    // Prepared for the shorter window: the longer one's early particles
    // would do (they include these), but a sparse certificate would then
    // examine up to twice as many.
    prepare(false);
  }
  if (d_.fallback_after_window(round_started, cap)) {
    d_.run_fallback(cap, d_.fallback_policy_.chosen_budget());
    return true;
  }
  // Certified at the first attempt: the window grows; after halvings, the
  // next tries the length that certified.
  if (attempts == 0) {
    length_.stood(first);
  } else {
    length_.set(length);
  }
  // The window's end exactly: windows that reach a scheduled stop end on it.
  const double until = length == room ? cap : d_.time_ + length;
  const CertificationStats& stats = certifier_->stats();
  d_.counters_.components += stats.components;
  d_.counters_.cross_components += stats.cross_components;
  d_.counters_.largest_component = std::max(d_.counters_.largest_component, stats.largest_component);
  d_.counters_.active_ghosts += stats.active_ghosts;
  if (stats.max_speed > 0.0) {
    d_.counters_.bound_over_speed = std::max(d_.counters_.bound_over_speed, stats.max_bound / stats.max_speed);
  }
  if (d_.trace_) {
    std::fprintf(stderr, "[rank %d] window [%.17g, %.17g) attempts %d nodes %llu components %llu cross %llu largest %llu\n",
                 d_.rank_, d_.time_, until, attempts + 1, static_cast<unsigned long long>(stats.nodes),
                 static_cast<unsigned long long>(stats.components),
                 static_cast<unsigned long long>(stats.cross_components),
                 static_cast<unsigned long long>(stats.largest_component));
  }
  if (!execute(until)) return true;
  d_.enter(RoundPhase::commit);
  d_.exchange_changes();
  d_.enter(RoundPhase::other);
  d_.move_clock_to(until);
  d_.maybe_rebalance();
  return true;
}

bool CertifiedWindows::execute(double until) {
  const double started = seconds_now();
  d_.enter(RoundPhase::execute);
  engine::Engine& e = *d_.engine_;
  const engine::PartialView view(e);
  const std::vector<engine::Index>& run = certifier_->active_ghosts();
  std::vector<ParticleId> ids;
  ids.reserve(run.size());
  for (engine::Index i : run) ids.push_back(e.particles().id[i]);
  std::sort(ids.begin(), ids.end());
  for (ParticleId id : d_.active_ghosts_) {
    const engine::Index i = e.particles().index_of(id);
    if (i == engine::kNoIndex || e.is_owned(i) || !e.particles().state[i].mobile) continue;
    if (!std::binary_search(ids.begin(), ids.end(), id)) view.set_active(i, false);
  }
  for (engine::Index i : run) view.set_active(i, true);
  d_.active_ghosts_ = std::move(ids);
  const std::uint64_t counted = e.statistics().total_events();
  const std::uint64_t uncounted = view.uncounted_events();
  // The window keeps an undo log, like a speculative one, so that a stop
  // request or a stall seen by any rank inside it (a frozen window never
  // ends) undoes it on every rank: the run then stops at its start.
  d_.mark_logged_sectors();
  view.begin_speculation(d_.logged_sectors_);
  const Halt halt = d_.run_watched(e, until);
  HaltVerdict verdict{static_cast<double>(halt)};
  d_.agree(verdict);
  if (verdict.halt != 0.0) {
    view.undo_speculation();
    d_.halt_ = static_cast<Halt>(static_cast<int>(verdict.halt));
    d_.counters_.seconds_execute += seconds_now() - started;
    return false;
  }
  view.keep_speculation();
  const std::uint64_t duplicated = view.uncounted_events() - uncounted;
  d_.counters_.events_executed += e.statistics().total_events() - counted + duplicated;
  d_.counters_.events_duplicated += duplicated;
  d_.counters_.seconds_execute += seconds_now() - started;
  return true;
}

}  // namespace tethersim::decomposition
