// Set-up, the window loop and certification agreement of the distributed
// engine.
#include "tethersim/decomposition/distributed_engine.hpp"
#include "shadow_check.hpp"
#include "spare_slots.hpp"
#include "wall_clock.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <exception>

#include "tethersim/decomposition/record_snapshot.hpp"
#include "tethersim/engine/free_storage.hpp"
#include "tethersim/physics/counter_rng.hpp"
#include "tethersim/model/periodic_impulse_kinds.hpp"

namespace tethersim::decomposition {

namespace {

// The share of owned particles with an event in the first window.
constexpr double kFirstEarlyShare = 0.03;
constexpr int kFirstHalvings = 12;

}  // namespace

std::string distribution_problem(const Model& model) {
  auto hub = [&](SpeciesIndex s) { return model.is_hub_species(s); };
  auto name = [&](SpeciesIndex s) { return model.species(s).name; };
  for (const AttachRule& r : model.rules().attach) {
    if ((r.max_partners_of_a >= 0 && hub(r.species_a)) || (r.max_partners_of_b >= 0 && hub(r.species_b))) {
      return "an attach rule limits the partners of " +
             name(r.max_partners_of_a >= 0 && hub(r.species_a) ? r.species_a : r.species_b) +
             ", a particle outside the sector grid whose partners are spread over all ranks";
    }
    if (r.exclusive_dimer && hub(*r.exclusive_dimer)) {
      return "an attach rule makes " + name(*r.exclusive_dimer) +
             " an exclusive dimer, but it lives outside the sector grid";
    }
  }
  for (const DetachRule& r : model.rules().detach) {
    if (r.reaction < 0) continue;
    const SpeciesIndex subject = model.action_potentials().reactions[static_cast<std::size_t>(r.reaction)].subject;
    if (hub(subject) && (r.subject_requires_partner || !r.subject_releases.empty())) {
      return "a detach rule reads or drops the tethers of " + name(subject) +
             ", a particle outside the sector grid whose partners are spread over all ranks";
    }
  }
  // The certifier's speed bounds hold for periodic impulses whose kind
  // accepts the species they move (validation refuses the others; a model
  // built without it is refused here).
  for (const PeriodicImpulse& p : model.periodic_impulses()) {
    for (std::size_t s = 0; s < model.species().size(); ++s) {
      if (!p.applies_to[s]) continue;
      const PeriodicImpulseProblem problem = periodic_impulse_problem(p, model.species()[s]);
      if (!problem.message.empty()) {
        return std::string("the ") + to_string(p.kind) + " impulse's " + problem.key + " is " + problem.message +
               ": its speed bound is not known";
      }
    }
  }
  return "";
}

std::string owner_computes_problem(const Model& model) {
  // The engine's owner-computes mode refuses action potentials (they change
  // reaction times outside any particle event). Loaded groups and periodic
  // impulses run (since undos cancel lazily, ranks that run a group's
  // restitutions at one instant no longer undo each other without end).
  if (model.action_potentials().enabled()) return "action potentials";
  return "";
}

GridShape rank_grid_for(const Model& model, int ranks, const DistributionSettings& settings,
                        const std::optional<GridShape>& occupied) {
  const std::string problem = distribution_problem(model);
  if (!problem.empty() && ranks > 1) {
    throw std::invalid_argument("this model cannot run on several ranks: " + problem);
  }
  const engine::SectorGrid grid(model.domain(), model.sector_size());
  const GridShape sectors{grid.shape()[0], grid.shape()[1], grid.shape()[2]};
  if (settings.ranks_grid) {
    const std::string why = rank_grid_problem(ranks, *settings.ranks_grid, sectors);
    if (!why.empty()) throw std::invalid_argument("--ranks-grid: " + why);
    return *settings.ranks_grid;
  }
  const auto chosen = occupied ? choose_rank_grid(ranks, sectors, *occupied) : choose_rank_grid(ranks, sectors);
  if (!chosen) {
    throw std::invalid_argument(std::to_string(ranks) + " ranks cannot split the " + std::to_string(sectors[0]) +
                                "x" + std::to_string(sectors[1]) + "x" + std::to_string(sectors[2]) +
                                " sector grid (at most " + std::to_string(max_ranks(sectors)) + " ranks)");
  }
  return *chosen;
}

DistributedEngine::DistributedEngine(const Model& model, MPI_Comm comm,
                                     const scenario::InitialSystem& initial,
                                     const DistributionSettings& settings)
    : model_(model), comm_(comm), settings_(settings) {
  const double started = seconds_now();
  const engine::SectorGrid grid(model.domain(), model.sector_size());
  // Every rank streams the same initial state: first where the particles
  // are, which the rank grid is cut across, then the window's particles.
  SectorSpan span;
  initial.for_each_particle(model, [&](const ParticleSpec& p) {
    if (!model.is_hub_species(p.species)) span.add(grid.coords_of(p.position));
  });
  start_layout(settings, span);
  // In owner-computes rounds the rank's engine holds the rounds' window
  // from the start (owner_computes_start.cpp); otherwise the halo's.
  scenario::InitialParticles mine = initial.keep(model, [&](const ParticleSpec& p) {
    if (model.is_hub_species(p.species)) return true;
    const auto sector = grid.coords_of(p.position);
    return owner_ ? owner_->held_at_start(sector) : layout_.in_window(rank_, sector);
  });
  start_particles_ = mine.particles.size();
  refuse_overlaps(initial, mine.particles);
  if (owner_) {
    engine_ = owner_->start_engine(std::move(mine));
    count_held();
  } else {
    const std::size_t spare = spare_slots(mine.particles.size());
    engine_ = std::make_unique<engine::Engine>(model, std::move(mine), spare);
    engine_->keep_occupied_sector_pages();
    assign_roles();
  }
  finish_start(started);
}

void DistributedEngine::refuse_overlaps(const scenario::InitialSystem& initial,
                                        std::span<const ParticleSpec> mine) const {
  // Particles closer than their blocking distance are within a sector of
  // each other (hubs, which reach farther, are on every rank), so the rank
  // owning either one holds both. The first pair is ordered by its later
  // id, then its earlier one: the order one process checks in.
  const std::optional<scenario::Overlap> found = scenario::first_overlap(mine, model_);
  constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t later = mpi::min<std::uint64_t>(found ? mine[found->second].id : kNone, comm_);
  if (later == kNone) return;
  const bool has_later = found && mine[found->second].id == later;
  const std::uint64_t earlier = mpi::min<std::uint64_t>(has_later ? mine[found->first].id : kNone, comm_);
  const bool has_pair = has_later && mine[found->first].id == earlier;
  const int speaker = mpi::min(has_pair ? rank_ : ranks_, comm_);
  ModelProblem problem;
  if (rank_ == speaker) problem = initial.overlap_problem(model_, mine, *found);
  mpi::broadcast(problem.key, speaker, comm_);
  mpi::broadcast(problem.message, speaker, comm_);
  throw RefusedStart(problem);
}

DistributedEngine::DistributedEngine(const Model& model, MPI_Comm comm, engine::EngineSnapshot slice,
                                     const DistributionSettings& settings)
    : model_(model), comm_(comm), settings_(settings) {
  const double started = seconds_now();
  start_particles_ = slice.particles.size();
  {
    const engine::SectorGrid grid(model.domain(), model.sector_size());
    SectorSpan span;
    for (const engine::ParticleSnapshot& p : slice.particles) {
      if (!model.is_hub_species(p.species) && p.alive) span.add(p.sector);
    }
    start_layout(settings, span);
  }
  time_ = slice.time;
  // Each particle goes home (id modulo ranks) with its tethers and edges,
  // then on to every rank whose window holds it.
  const auto home = [&](ParticleId id) { return static_cast<int>(id % static_cast<std::uint64_t>(ranks_)); };
  std::vector<Bytes> particles_out(static_cast<std::size_t>(ranks_)), links_out(static_cast<std::size_t>(ranks_));
  for (std::size_t k = 0; k < slice.particles.size(); ++k) {
    engine::ParticleRecord r;
    r.particle = slice.particles[k];
    for (const auto& column : slice.reaction_times) r.reaction_times.push_back(column[k]);
    append_record(particles_out[static_cast<std::size_t>(home(r.particle.id))], r);
  }
  engine::free_storage(slice.particles);
  engine::free_storage(slice.reaction_times);
  // Tethers and loaded edges go to both ends' homes, as bare links (a
  // membrane has three tethers per particle: a whole record for each would
  // make them the largest thing a restart holds).
  enum LinkKind : std::uint8_t { kTether = 0, kLoadedEdge = 1 };
  auto send_link = [&](ParticleId a, ParticleId b, auto&& write) {
    write(links_out[static_cast<std::size_t>(home(a))]);
    if (home(b) != home(a)) write(links_out[static_cast<std::size_t>(home(b))]);
  };
  for (const engine::TetherSnapshot& t : slice.tethers) {
    send_link(t.a, t.b, [&](Bytes& out) {
      put(out, kTether);
      put(out, t.a);
      put(out, t.b);
    });
  }
  for (const engine::LoadedEdgeSnapshot& e : slice.loaded_edges) {
    send_link(e.a, e.b, [&](Bytes& out) {
      put(out, kLoadedEdge);
      append_loaded_edge(out, e);
    });
  }
  engine::free_storage(slice.tethers);
  engine::free_storage(slice.loaded_edges);
  std::vector<engine::ParticleRecord> homed = receive_records(std::move(particles_out));
  std::sort(homed.begin(), homed.end(), [](const auto& x, const auto& y) { return x.particle.id < y.particle.id; });
  auto find_homed = [&](ParticleId id) -> engine::ParticleRecord* {
    auto it = std::lower_bound(homed.begin(), homed.end(), id,
                               [](const engine::ParticleRecord& r, ParticleId v) { return r.particle.id < v; });
    return it != homed.end() && it->particle.id == id ? &*it : nullptr;
  };
  const ReceivedBytes links_in = all_to_all(comm_, std::move(links_out));
  for (std::span<const char> b : links_in) {
    ByteReader in(b.data(), b.size(), "restart link");
    while (!in.done()) {
      const auto kind = in.get<std::uint8_t>();
      if (kind == kTether) {
        const auto a = in.get<ParticleId>(), b_end = in.get<ParticleId>();
        if (auto* r = find_homed(a)) r->tethers.push_back(b_end);
        if (auto* r = find_homed(b_end)) r->tethers.push_back(a);
        continue;
      }
      if (kind != kLoadedEdge) throw SynchronizationError("unknown link kind in a restart exchange");
      const engine::LoadedEdgeSnapshot e = read_loaded_edge(in);
      if (auto* r = find_homed(e.a)) r->loaded_edges.push_back(e);
      if (auto* r = find_homed(e.b)) r->loaded_edges.push_back(e);
    }
  }
  if (owner_) {
    // The run's clocks, counts, escapes and releases go with the records.
    engine_ = owner_->restart_engine(std::move(homed), std::move(slice));
    count_held();
  } else {
    Globals globals{slice.periodic_ticks, slice.active_window};
    redistribute(std::move(homed), globals, slice.statistics, slice.escapes, slice.releases);
  }
  finish_start(started);
}

void DistributedEngine::fail_if_asked() const {
  if (rank_ == settings_.test.failing_rank && time_ >= settings_.test.failing_time) {
    throw std::runtime_error("injected failure at t = " + std::to_string(time_) + " (TETHERSIM_FAIL_ON_RANK)");
  }
}

void DistributedEngine::finish_start(double started) {
  start_build_seconds_ = seconds_now() - started;
  last_move_seconds_ = start_build_seconds_;
  last_move_particles_ = engine_->particles().size();
  last_balance_check_ = seconds_now();
  speculative_ = std::make_unique<SpeculativeWindows>(*this);
  certified_ = std::make_unique<CertifiedWindows>(*this);
  // The start-up's distribution of every particle is counted with the
  // start, not with the exchange that windows, rebalancing and fallbacks
  // cost (bytes per committed event).
  counters_.bytes_sent = 0;
  if (!settings_.record_rounds.empty()) {
    recorder_ = std::make_unique<RoundRecorder>(settings_.record_rounds, rank_, ranks_);
    neighbours_->record_to(recorder_.get());
  }
  if (settings_.test.shadow_check) {
    shadow_ = std::make_unique<ShadowCheck>(model_, comm_, *engine_, time_);
  }
}

DistributedEngine::~DistributedEngine() = default;

void DistributedEngine::start_layout(const DistributionSettings& settings, SectorSpan span) {
  trace_ = settings.test.trace_windows;
#ifdef TETHERSIM_SYNC_FAULT_INJECTION
  break_synchronization_ = settings.test.break_synchronization;
#endif
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &ranks_);
  const engine::SectorGrid grid(model_.domain(), model_.sector_size());
  const GridShape sectors{grid.shape()[0], grid.shape()[1], grid.shape()[2]};
  // Where the particles are, over every rank's part: the grid is cut
  // across them.
  mpi::reduce_in_place(span.lo.data(), 3, MPI_MIN, comm_);
  mpi::reduce_in_place(span.hi.data(), 3, MPI_MAX, comm_);
  std::optional<GridShape> occupied;
  if (span.hi[0] >= span.lo[0]) occupied = GridShape{span.hi[0] - span.lo[0] + 1, span.hi[1] - span.lo[1] + 1, span.hi[2] - span.lo[2] + 1};
  const GridShape shape = rank_grid_for(model_, ranks_, settings, occupied);
  layout_ = BlockLayout(sectors, shape, {grid.periodic(0), grid.periodic(1), grid.periodic(2)}, settings.halo_depth);
  if (settings.windows == WindowMode::owner) owner_ = std::make_unique<OwnerComputesWindows>(*this);
  neighbours_ = std::make_unique<NeighbourExchange>(comm_, layout_.neighbours(rank_));
  balancer_.emplace(settings.balance, sectors, settings.balance_interval, settings.imbalance_threshold);
}

void DistributedEngine::assign_roles() {
  engine::Engine& e = *engine_;
  const engine::PartialView view(e);
  view.set_counts_global_events(rank_ == 0);
  view.track_changes(true);
  every_particle_live_ = false;
  if (layout_.cuts() != logged_for_cuts_) logged_sectors_ = {};
  for (engine::Index i = 0; i < e.particles().size(); ++i) {
    if (e.is_removed(i)) continue;
    if (e.is_hub(i)) {
      view.set_owned(i, false);
      view.set_active(i, true);
      continue;
    }
    const engine::ParticleState& s = e.particles().state[i];
    // Particles that left the simulation stay with the rank that owned
    // them (only it holds them).
    const bool owned = !s.alive || layout_.owner(e.sector(i)) == rank_;
    view.set_owned(i, owned);
    view.set_active(i, owned || !s.mobile);
  }
  count_held();
  active_ghosts_.clear();
}

void DistributedEngine::count_held() {
  const engine::Engine& e = *engine_;
  counters_.owned = counters_.ghosts = 0;
  for (engine::Index i = 0; i < e.particles().size(); ++i) {
    if (e.is_removed(i) || e.is_hub(i) || !e.particles().state[i].alive) continue;
    (e.is_owned(i) ? counters_.owned : counters_.ghosts) += 1;
  }
  counters_.ghosts_max = std::max(counters_.ghosts_max, counters_.ghosts);
}

std::size_t DistributedEngine::reaction_count() const {
  return model_.action_potentials().enabled() ? model_.action_potentials().reactions.size() : 0;
}

DistributedEngine::Globals DistributedEngine::current_globals() const {
  return {engine_->periodic_ticks(), engine_->active_window()};
}

void DistributedEngine::build(engine::EngineSnapshot s, const Globals& globals,
                              engine::EngineStatistics statistics,
                              std::vector<engine::EscapeSnapshot> escapes,
                              std::vector<engine::ReleaseSnapshot> releases) {
  s.periodic_ticks = globals.periodic_ticks;
  s.active_window = globals.active_window;
  s.statistics = std::move(statistics);
  s.escapes = std::move(escapes);
  s.releases = std::move(releases);
  engine_.reset();  // release the old one first: peaks matter at scale
  engine_ = std::make_unique<engine::Engine>(model_, s, spare_slots(s.particles.size()));
  engine_->keep_occupied_sector_pages();
  assign_roles();
}

double DistributedEngine::next_transition() const {
  double next = kInfinity;
  for (const ActionPotentialWindow& w : model_.action_potentials().windows) {
    for (double t : {w.start, w.end}) {
      if (t > time_) next = std::min(next, t);
    }
  }
  return next;
}

double DistributedEngine::begin_agreement(std::size_t values) {
  const double started = seconds_now();
  if (recorder_) {
    recorder_->begin_communication();
    recorder_->allreduce(values * sizeof(double));
  }
  return started;
}

void DistributedEngine::end_agreement(double started) {
  if (recorder_) recorder_->end_communication();
  counters_.seconds_wait += seconds_now() - started;
}

bool DistributedEngine::advance(double end, std::uint64_t event_budget) {
  const std::uint64_t start_events = global_events_;
  halt_ = Halt::none;
  while (time_ < end) {
    recorded_round(end);
    if (halt_ != Halt::none) return false;
    if (shadow_) shadow_->check(*engine_, time_);
    fail_if_asked();
    if (time_ < end && global_events_ - start_events >= event_budget) return false;
  }
  return true;
}

bool DistributedEngine::fallback_after_window(double round_started, double cap) {
  // global_events_ was agreed during this round: it counts the unique
  // events committed before this window.
  if (!fallback_policy_.weigh(round_started, time_, global_events_)) return false;
  const bool pays = fallback_policy_.mode() == LeanFallback::random ? fallback_policy_.decide_by_coin(random_decision())
                                                                     : fallback_pays(cap);
  fallback_policy_.forget_windows();
  return pays;
}

std::uint64_t DistributedEngine::random_decision() {
  return physics::mix_hash(model_.seed(), 0x7e57ULL, ++random_decisions_);
}

bool DistributedEngine::fallback_pays(double cap) {
  // Wall-clock figures differ between ranks: agree on the largest, so that
  // every rank takes the same decision. Results never depend on it.
  const engine::Engine& e = *engine_;
  const double bytes_per_particle =
      static_cast<double>(e.memory_bytes()) / static_cast<double>(std::max<std::size_t>(e.particles().size(), 1));
  AgreedFallbackCosts agreed{fallback_policy_.local_costs(ranks_, start_build_seconds_, counters_.seconds_execute,
                                                          counters_.events_executed, bytes_per_particle)};
  agree(agreed);
  const double owned = static_cast<double>(std::max<std::uint64_t>(global_owned_, 1));
  const FallbackDecision d = fallback_policy_.decide(agreed.costs, owned, time_, cap);
  if (d.declined) ++counters_.fallbacks_declined;
  if (d.weighed && trace_ && rank_ == 0) {
    std::fprintf(stderr,
                 "[rank 0] windows %.3g s per unit of time, one rank %.3g (%s) and %.3g s rebuilding: %s over %.3g\n",
                 d.windows_cost, d.serial_cost, d.measured ? "measured" : "estimated", agreed.costs.overhead,
                 d.pays ? "fallback" : "windows", d.covered);
  }
  return d.pays;
}

void DistributedEngine::run_fallback(double cap, double events_per_particle) {
  fallback(cap, fallback_policy_.begin_fallback(events_per_particle));
  certified_->after_fallback();
  fallback_policy_.end_fallback();
}

double DistributedEngine::first_proposal(double room) {
  // The first window (after a start or a restart) has no history: a long
  // one fails, and each failure certifies most particles. Start where a
  // few per cent of the particles have a calendar event in the window, the
  // share that certified windows usually hold; growth does the rest. Every
  // rank must propose the same length: the shortest.
  const std::size_t want = std::max<std::size_t>(1, static_cast<std::size_t>(kFirstEarlyShare *
                                                                             static_cast<double>(counters_.owned)));
  double length = room;
  std::vector<engine::Index> early;
  // At most 2^-12 of the room: many events at the window start (contacts)
  // must not make the first window vanish.
  for (int halvings = 0; halvings < kFirstHalvings; ++halvings) {
    early.clear();
    engine_->particles_with_events_before(time_ + length, early);
    if (early.size() <= want) break;
    length *= 0.5;
  }
  ShortestLength shortest{-length};
  agree(shortest);
  return -shortest.negated;
}

void DistributedEngine::recorded_round(double end) {
  if (!recorder_) {
    round(end);
    return;
  }
  const DistributionCounters before = counters_;
  const std::uint64_t predictions = engine_->statistics().predictions;
  recorder_->begin_round(time_);
  round(end);
  const std::uint64_t predicted = engine_->statistics().predictions;
  const char* kind = counters_.fallbacks > before.fallbacks                  ? "fallback"
                     : counters_.certified_rounds > before.certified_rounds ? "certified"
                     : counters_.owner_rounds > before.owner_rounds         ? "owner"
                                                                            : "speculative";
  recorder_->end_round(kind, time_,
                       {// Everything run here: what stood and what was undone.
                        counters_.events_executed - before.events_executed + counters_.events_rolled_back -
                            before.events_rolled_back,
                        counters_.events_duplicated - before.events_duplicated,
                        counters_.events_rolled_back - before.events_rolled_back,
                        predicted > predictions ? predicted - predictions : 0});
}

void DistributedEngine::round(double end) {
  if (owner_) {
    owner_->round(end);
    return;
  }
  if (fallback_policy_.next_in_streak(time_)) {
    if (trace_ && rank_ == 0) {
      std::fprintf(stderr, "[rank 0] fallback %d of a run without windows\n", fallback_policy_.streak());
    }
    run_fallback(std::min(end, next_transition()));
    return;
  }
  if (settings_.windows == WindowMode::speculative && certified_rounds_left_ == 0) {
    // Windows that keep failing: a certified round takes the next one.
    if (!speculative_->round(end)) certified_rounds_left_ = 1;
    return;
  }
  if (certified_rounds_left_ > 0) --certified_rounds_left_;
  certified_->round(end);
}

void DistributedEngine::make_every_particle_live() {
  if (every_particle_live_) return;
  engine::Engine& e = *engine_;
  const engine::PartialView view(e);
  for (engine::Index i = 0; i < e.particles().size(); ++i) {
    if (e.is_removed(i) || e.is_hub(i) || e.is_active(i)) continue;
    view.set_active(i, true);
  }
  active_ghosts_.clear();
  every_particle_live_ = true;
}

void DistributedEngine::mark_logged_sectors() {
  if (!logged_sectors_.empty() && logged_for_cuts_ == layout_.cuts()) return;
  // Axis by axis: a byte per sector of a mostly empty box would cost more
  // than the particles.
  logged_sectors_.layers = layout_.layers_in_other_windows(rank_);
  logged_for_cuts_ = layout_.cuts();
}

void DistributedEngine::freeze_ghosts() {
  if (!every_particle_live_) return;
  engine::Engine& e = *engine_;
  const engine::PartialView view(e);
  for (engine::Index i = 0; i < e.particles().size(); ++i) {
    if (e.is_removed(i) || e.is_hub(i) || e.is_owned(i) || !e.particles().state[i].mobile) continue;
    view.set_active(i, false);
  }
  active_ghosts_.clear();
  every_particle_live_ = false;
}

}  // namespace tethersim::decomposition
