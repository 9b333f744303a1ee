#include "run_session.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <utility>

#include "exit_codes.hpp"
#include "failure_policy.hpp"
#include "model_description.hpp"
#include "output_lock.hpp"
#include "progress.hpp"
#include "run_log.hpp"
#include "resource_usage.hpp"
#include "run_summary.hpp"
#include "distributed_simulation.hpp"
#include "distribution_test_switches.hpp"
#include "distribution_shown.hpp"
#include "serial_simulation.hpp"
#include "stop_signals.hpp"
#include "tethersim/io/checkpoint_file.hpp"
#include "tethersim/io/input_error.hpp"
#include "tethersim/io/model_file.hpp"
#include "tethersim/io/observables_log.hpp"
#include "tethersim/io/trajectory_file.hpp"
#include "tethersim/mpi/collectives.hpp"
#include "tethersim/mpi/reductions.hpp"

namespace tethersim::runtime {

namespace fs = std::filesystem;

namespace {

const char* const kRunFiles[] = {"summary.json", "trajectory.h5", "trajectory.xdmf", "checkpoint.h5",
                                 "checkpoint.prev.h5", "observables.jsonl"};

bool holds_a_run(const fs::path& directory) {
  std::error_code ec;
  for (const char* name : kRunFiles) {
    if (fs::exists(directory / name, ec)) return true;
  }
  return false;
}

// A fresh run refuses a directory holding another run's files, unless told
// to replace them; it creates the directory when missing.
void prepare_fresh_directory(const fs::path& directory, bool overwrite) {
  std::error_code ec;
  if (fs::exists(directory, ec) && !fs::is_directory(directory, ec)) {
    throw InputError({directory.string(), 0}, "output.directory", "exists and is not a directory");
  }
  if (holds_a_run(directory)) {
    if (!overwrite) {
      throw InputError({directory.string(), 0}, "output.directory",
                       "already holds a run (summary.json, trajectory or checkpoint); choose "
                       "another --output, pass --overwrite, or continue it with --restart");
    }
    for (const char* name : kRunFiles) fs::remove(directory / name, ec);
  }
  fs::create_directories(directory, ec);
  if (ec || !fs::is_directory(directory)) {
    throw InputError({directory.string(), 0}, "output.directory", "cannot be created: " + ec.message());
  }
  // Fail now, not after hours, when nothing can be written here.
  const fs::path probe = directory / ".tethersim-write-test";
  std::FILE* f = std::fopen(probe.string().c_str(), "w");
  if (f == nullptr) {
    throw InputError({directory.string(), 0}, "output.directory", "is not writable");
  }
  std::fclose(f);
  fs::remove(probe, ec);
}

// The directory (created when missing) with its lock held by this run.
OutputLock lock_directory(const fs::path& directory) {
  std::error_code ec;
  if (fs::exists(directory, ec) && !fs::is_directory(directory, ec)) {
    throw InputError({directory.string(), 0}, "output.directory", "exists and is not a directory");
  }
  fs::create_directories(directory, ec);
  if (ec || !fs::is_directory(directory)) {
    throw InputError({directory.string(), 0}, "output.directory", "cannot be created: " + ec.message());
  }
  return OutputLock(directory);
}

// The k-th multiple of an interval: exact, no accumulated rounding.
struct Schedule {
  double interval = kInfinity;
  std::uint64_t next = 0;  // index of the next time
  double time() const { return is_infinite(interval) ? kInfinity : static_cast<double>(next) * interval; }
  // The first multiple strictly after t (restarts) or at or after t.
  void start_after(double t, bool inclusive) {
    if (is_infinite(interval)) return;
    next = static_cast<std::uint64_t>(std::floor(t / interval));
    while (static_cast<double>(next) * interval < t || (!inclusive && static_cast<double>(next) * interval <= t)) ++next;
  }
};

// A model that cannot be split over ranks, or not over this rank grid, is
// refused with the reason (no MPI call: before the first collective).
void check_distribution(const Model& model, const RunRequest& request, const mpi::Session& mpi) {
  if (mpi.size() == 1) return;
  const std::string problem = decomposition::distribution_problem(model);
  if (!problem.empty()) {
    throw InputError({model.source_path(), 0}, "",
                     "cannot run on " + std::to_string(mpi.size()) + " ranks: " + problem +
                         "; run it on one rank");
  }
  if (request.distribution.windows == decomposition::WindowMode::owner) {
    const std::string missing = decomposition::owner_computes_problem(model);
    if (!missing.empty()) {
      throw InputError({model.source_path(), 0}, "", "--windows owner does not take " + missing +
                                                         " yet; use --windows speculative or certified");
    }
  }
  try {
    decomposition::rank_grid_for(model, mpi.size(), request.distribution);
  } catch (const std::invalid_argument& e) {
    throw InputError({model.source_path(), 0}, "", e.what());
  }
}

struct LoadedRun {
  // On the heap: the simulation keeps a reference to it, and a LoadedRun
  // moves.
  std::unique_ptr<Model> model;
  std::unique_ptr<Simulation> simulation;
  SlotMap slots;
  // The species of the trajectory rows this rank writes (of every row when
  // output.frame_species keeps only some).
  SlotSpecies species_by_slot;
  ParticleCounts counts;
  fs::path directory;
  bool restarted = false;
  double start_time = 0.0;
  // A fresh run's initial particles, until the simulation takes them: the
  // whole state on one process, a stream each rank keeps its window of on
  // several (with what turns a problem the ranks find in their windows into
  // the reader's error).
  scenario::InitialParticles initial;
  std::optional<scenario::InitialSystem> initial_system;
  std::function<InputError(const ModelProblem&)> locate;
  std::function<std::vector<std::string>(const Model&)> finish_checks;
  // The model's warnings (large but possible counts over the run, energy
  // with nothing to remove it), printed once DIR/run.log copies stderr.
  std::vector<std::string> warnings;
};

// Every rank may make the directory of --record-rounds: the first wins, the
// others find it there.
void make_records_directory(const RunRequest& request) {
  const std::string& records = request.distribution.record_rounds;
  if (records.empty()) return;
  std::error_code ignored;
  fs::create_directories(records, ignored);
}

// One process runs the serial engine; several the distributed one. `state`
// is the initial particles of a fresh run (its stream on several ranks) or
// a restart's (slice of the) checkpoint.
template <typename State>
std::unique_ptr<Simulation> make_serial(const Model& model, const RunRequest& request, State&& state) {
  make_records_directory(request);
  auto serial = std::make_unique<SerialSimulation>(model, std::forward<State>(state));
  if (!request.distribution.record_rounds.empty()) serial->record_rounds(request.distribution.record_rounds);
  return serial;
}

template <typename State>
std::unique_ptr<Simulation> make_distributed(const Model& model, const RunRequest& request, State&& state) {
  make_records_directory(request);
  decomposition::DistributionSettings settings = request.distribution;
  settings.test = distribution_test_switches_from_environment();
  return std::make_unique<DistributedSimulation>(model, MPI_COMM_WORLD, std::forward<State>(state), settings);
}

// Large but possible counts over the run and models that heat without
// bound (model_file.hpp), from rank 0.
void print_warnings(const std::vector<std::string>& warnings, const RunRequest& request) {
  if (request.quiet) return;
  for (const std::string& w : warnings) std::fprintf(stderr, "tethersim: warning: %s\n", w.c_str());
}

// The trajectory's rows: slots are positions in id order, and the species
// of the rows this rank writes (of every row when output.frame_species
// keeps only some). `each` visits every initial particle in id order.
void assign_slots(LoadedRun& run, std::uint64_t total, const mpi::Session& mpi,
                  const std::function<void(const std::function<void(const ParticleSpec&)>&)>& each) {
  const SlotRange rows = run.model->output().frame_species.empty() ? slot_range(total, mpi.size(), mpi.rank())
                                                                   : SlotRange{0, total};
  run.species_by_slot.begin = rows.begin;
  run.species_by_slot.species.reserve(rows.size());
  std::uint64_t slot = 0;
  bool dense = true;
  each([&](const ParticleSpec& p) {
    dense = dense && p.id == slot;
    if (slot >= rows.begin && slot < rows.end) run.species_by_slot.species.push_back(p.species);
    ++slot;
  });
  if (dense) {
    run.slots = SlotMap::dense_map(total);
    return;
  }
  std::vector<ParticleId> ids;
  ids.reserve(total);
  each([&](const ParticleSpec& p) { ids.push_back(p.id); });
  run.slots = SlotMap(std::move(ids));
}

// A fresh run's model and initial particles: files only, no collective
// call, the same on every rank. One process builds the whole initial state;
// several ranks each read it as a stream, checked here but for overlaps.
LoadedRun read_fresh(const RunRequest& request, const mpi::Session& mpi) {
  LoadedRun run;
  const ModelFileOptions options{request.overrides, false};
  if (mpi.size() == 1) {
    run.model = std::make_unique<Model>(load_model_file(request.model_path, options, &run.initial, &run.warnings));
    run.counts = count_particles(run.initial);
    assign_slots(run, run.initial.particles.size(), mpi, [&](const auto& visit) {
      for (const ParticleSpec& p : run.initial.particles) visit(p);
    });
  } else {
    StreamedInitial streamed;
    run.model = std::make_unique<Model>(load_model_streamed(request.model_path, options, streamed));
    run.counts = streamed.counts;
    run.initial_system = std::move(streamed.system);
    run.locate = std::move(streamed.locate);
    run.finish_checks = std::move(streamed.finish);
    assign_slots(run, run.counts.particles, mpi,
                 [&](const auto& visit) { run.initial_system->for_each_particle(*run.model, visit); });
  }
  check_distribution(*run.model, request, mpi);
  run.directory = run.model->output().directory;
  return run;
}

// The checkpoints to try, newest first: a directory offers its newest and
// previous one (a damaged newest falls back to the previous), a file itself.
std::vector<std::string> checkpoint_candidates(const std::string& given) {
  std::error_code ec;
  if (!fs::is_directory(given, ec)) return {fs::absolute(given).string()};
  const fs::path dir = fs::absolute(given);
  std::vector<std::string> candidates;
  for (const char* name : {"checkpoint.h5", "checkpoint.prev.h5"}) {
    if (fs::exists(dir / name, ec)) candidates.push_back((dir / name).string());
  }
  if (candidates.empty()) {
    throw InputError({given, 0}, "", "holds no checkpoint (checkpoint.h5 or checkpoint.prev.h5)");
  }
  return candidates;
}

// A restart of a run that already reached its end time: nothing to do,
// which is a success (a job chain's next job must not fail on it).
struct AlreadyFinished : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The model a restart continues: the checkpoint's, with its overrides and
// then the request's; refused when they change the physics, or when the end
// time is not after the checkpoint's. Files only, no MPI call. `warnings`
// (when given) receives the large counts of the continued run.
Model restart_model(const CheckpointHeader& header, const std::string& path, const RunRequest& request,
                    const mpi::Session& mpi, std::vector<std::string>* warnings = nullptr) {
  // The run continues in the checkpoint's directory unless told otherwise;
  // a later override of a key replaces an earlier one.
  std::vector<std::string> overrides;
  auto add = [&](const std::string& assignment) {
    const std::string key = assignment.substr(0, assignment.find('='));
    overrides.erase(std::remove_if(overrides.begin(), overrides.end(),
                                   [&](const std::string& o) { return o.substr(0, o.find('=')) == key; }),
                    overrides.end());
    overrides.push_back(assignment);
  };
  for (const std::string& o : header.overrides) add(o);
  add("output.directory=\"" + fs::path(path).parent_path().string() + "\"");
  for (const std::string& o : request.overrides) add(o);
  Model model =
      load_model_text(header.model_text, header.model_path, ModelFileOptions{overrides, true}, nullptr, warnings);
  if (model.physics_hash() != header.physics_hash) {
    const Model original =
        load_model_text(header.model_text, header.model_path, ModelFileOptions{header.overrides, true});
    if (original.seed() != model.seed()) {
      throw InputError({path, 0}, "--seed",
                       "--seed cannot change on a restart: the checkpointed run uses seed " +
                           std::to_string(original.seed()));
    }
    throw InputError({path, 0}, "--set",
                     "the overrides change the physics of the checkpointed run; on a restart only "
                     "run.end_time and output settings may change");
  }
  if (model.end_time() == header.time) {
    throw AlreadyFinished("tethersim run: nothing to do: " + path + " is at the end time t = " +
                          std::to_string(header.time) + "; pass a later --end-time to extend the run");
  }
  if (!(model.end_time() > header.time)) {
    throw InputError({path, 0}, "run.end_time",
                     "the end time " + std::to_string(model.end_time()) +
                         " is not after the checkpoint time " + std::to_string(header.time) +
                         "; pass a later --end-time");
  }
  check_distribution(model, request, mpi);
  return model;
}

// A restart reads its checkpoint collectively; before that, every rank
// checks alone that there is one to read.
void check_restart_source(const RunRequest& request, const mpi::Session& mpi) {
  const std::vector<std::string> candidates = checkpoint_candidates(request.restart);
  // Not while another run writes there: its checkpoint may be half replaced.
  OutputLock::check_free(fs::path(candidates.front()).parent_path());
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    CheckpointHeader header;
    try {
      header = read_checkpoint_header(candidates[k]);
    } catch (const InputError&) {
      // A damaged newest checkpoint falls back to the previous one.
      if (k + 1 == candidates.size()) throw;
      continue;
    }
    restart_model(header, candidates[k], request, mpi);
    return;
  }
}

LoadedRun load_restart(const RunRequest& request, const mpi::Session& mpi) {
  LoadedRun run;
  const std::vector<std::string> candidates = checkpoint_candidates(request.restart);
  std::string path;
  CheckpointHeader header;
  engine::EngineSnapshot snapshot;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    try {
      header = read_checkpoint_header(candidates[k]);
      // One process reads everything; several read a slice each and
      // redistribute by position.
      snapshot = mpi.size() == 1 ? read_checkpoint(candidates[k], MPI_COMM_SELF, true)
                                 : read_checkpoint(candidates[k], MPI_COMM_WORLD, false);
      path = candidates[k];
      break;
    } catch (const InputError& e) {
      if (k + 1 == candidates.size()) throw;
      std::fprintf(stderr, "tethersim run: %s; using %s\n", e.what(), candidates[k + 1].c_str());
    }
  }
  run.model = std::make_unique<Model>(restart_model(header, path, request, mpi, &run.warnings));
  // The checkpoint's population sizes the sectors as the fresh run's did
  // (it can only have lost particles, and sectors change no bits).
  std::vector<std::uint64_t> count_by_species(run.model->species().size(), 0);
  for (const auto& p : snapshot.particles) ++count_by_species[p.species];
  if (mpi.size() > 1) mpi::sum_in_place(count_by_species, MPI_COMM_WORLD);
  run.model->fit_sectors_to({count_by_species.begin(), count_by_species.end()});
  // The trajectory's rows are every particle's. Slices come in rank order,
  // each sorted by id, and each is the rows slot_range gives the rank: the
  // whole is sorted, and a rank's slice holds the species of the rows it
  // writes. Ids 0..N-1 need no table; others, and a trajectory of some
  // species only, need every slot's on every rank.
  const auto& slice = snapshot.particles;
  const bool several = mpi.size() > 1;
  const std::uint64_t total = several ? mpi::sum<std::uint64_t>(slice.size(), MPI_COMM_WORLD) : slice.size();
  const std::uint64_t last_id = slice.empty() ? 0 : slice.back().id;
  const std::uint64_t largest_id = several ? mpi::max(last_id, MPI_COMM_WORLD) : last_id;
  const bool dense = total == 0 || largest_id == total - 1;
  const SlotRange rows = slot_range(total, mpi.size(), mpi.rank());
  const bool sliced_by_rows = !(several ? mpi::any_rank(rows.size() != slice.size(), MPI_COMM_WORLD)
                                        : rows.size() != slice.size());
  if (dense && run.model->output().frame_species.empty() && sliced_by_rows) {
    run.slots = SlotMap::dense_map(total);
    run.species_by_slot.begin = rows.begin;
    for (const auto& p : slice) run.species_by_slot.species.push_back(p.species);
  } else {
    std::vector<std::uint64_t> pairs;
    for (const auto& p : slice) pairs.insert(pairs.end(), {p.id, p.species});
    if (several) pairs = tethersim::mpi::all_gather(pairs, MPI_COMM_WORLD);
    std::vector<ParticleId> ids;
    for (std::size_t k = 0; k < pairs.size(); k += 2) {
      ids.push_back(pairs[k]);
      run.species_by_slot.species.push_back(static_cast<SpeciesIndex>(pairs[k + 1]));
    }
    run.slots = SlotMap(std::move(ids));
  }
  // Sizes the trajectory's tether chunks, which every rank must create alike.
  std::uint64_t tethers = snapshot.tethers.size();
  if (mpi.size() > 1) tethers = mpi::sum(tethers, MPI_COMM_WORLD);
  run.counts.tethers = tethers;
  run.directory = run.model->output().directory;
  run.restarted = true;
  run.start_time = header.time;
  run.simulation = mpi.size() == 1 ? make_serial(*run.model, request, std::as_const(snapshot))
                                   : make_distributed(*run.model, request, std::move(snapshot));
  return run;
}

class RunLoop {
 public:
  RunLoop(LoadedRun& run, const RunRequest& request)
      : run_(run), model_(*run.model), sim_(*run.simulation), request_(request),
        progress_(model_, run.start_time, model_.end_time(), stdout) {}

  int execute() {
    const fs::path trajectory_path = run_.directory / "trajectory.h5";
    std::error_code ec;
    // Agreed before any rank creates the file: a rank that looked after
    // another had begun creating it would try to continue a half-made
    // trajectory (seen on restarts into a new directory on 2 ranks).
    const bool continued = sim_.any_rank(run_.restarted && fs::exists(trajectory_path, ec));
    // Every rank has ended its start-up (the agreement waits for all): the
    // loop is timed from here, so that a rank whose start-up took longer
    // does not make another's loop seem longer (on a busy host by up to
    // 0.7 s on the sheet of 2x10^6).
    clock_ = Stopwatch{};
    sim_.count_loop(true);
    if (continued) {
      trajectory_.emplace(TrajectoryFile::append(trajectory_path.string(), sim_.io_comm(), model_,
                                                 run_.slots, run_.species_by_slot, run_.start_time));
    } else {
      trajectory_.emplace(TrajectoryFile::create(trajectory_path.string(), sim_.io_comm(), model_,
                                                 run_.slots, run_.species_by_slot, run_.counts.tethers));
    }
    // The text copy of the samples follows the trajectory's lead (kept up to
    // the checkpoint, or started anew), so that the two always hold the same
    // samples; after the trajectory, which refuses a bad continuation before
    // anything is changed.
    if (is_root()) {
      const fs::path log_path = run_.directory / "observables.jsonl";
      observables_log_.emplace(continued ? ObservablesLog::append(log_path, model_, run_.start_time)
                                         : ObservablesLog::create(log_path, model_));
    }
    const OutputSettings& out = model_.output();
    frames_.interval = out.frame_interval;
    samples_.interval = is_infinite(out.observables_interval) ? out.frame_interval : out.observables_interval;
    checkpoints_.interval = out.checkpoint_interval;
    const bool inclusive = !run_.restarted;
    frames_.start_after(run_.start_time, inclusive);
    samples_.start_after(run_.start_time, inclusive);
    checkpoints_.start_after(run_.start_time, false);
    if (!run_.restarted && is_infinite(samples_.interval)) sample(0.0);
    totals_.initial = sim_.observables(sim_.time());
    totals_.events_before = sim_.statistics().total_events();
    totals_.collisions_before = sim_.statistics().collisions();
    // Checked every few thousand events, even inside a window: a signal or
    // the wall-time limit is honoured within milliseconds of wall time.
    sim_.set_stop_poll([this] { return stop_signal() != 0 || out_of_time(clock_.seconds()); });
    sim_.set_stall_limit(request_.stall_events);
    if (!request_.quiet) progress_.header();
    last_progress_ = clock_.seconds();
    last_wall_checkpoint_ = clock_.seconds();

    const double end = model_.end_time();
    double now = run_.start_time;
    for (;;) {
      const double stop = std::min({frames_.time(), samples_.time(), checkpoints_.time(), end});
      if (!advance_to(stop)) {
        if (stalled_) return finish_stalled();
        // Stop at the first consistent time, but never past the pending
        // scheduled one: when no event comes before it, that is the stop
        // (its frame is written first, as in an uninterrupted run).
        const double t = sim_.consistent_stop_time();
        if (t < stop) return finish_early(t);
        sim_.advance(stop, UINT64_MAX);
        scheduled_outputs(stop);
        return finish_early(stop);
      }
      now = stop;
      scheduled_outputs(now);
      if (now >= end) break;
      if (checkpoints_.time() == now) {
        checkpoint(now);
        ++checkpoints_.next;
      }
    }
    if (is_infinite(samples_.interval)) sample(end);
    const std::string written = checkpoint(end);
    trajectory_->close();
    finish(end, false);
    if (!request_.quiet) std::printf("  checkpoint         %s\n", written.c_str());
    return kExitOk;
  }

 private:
  // Runs to `stop` in chunks, looking after progress lines, wall-clock
  // checkpoints, stop signals and the wall-time limit after every chunk
  // and at every stop. False when the run must end early.
  bool advance_to(double stop) {
    const std::uint64_t chunk = 100000;
    for (;;) {
      const bool reached = sim_.advance(stop, chunk);
      if (sim_.stalled()) {
        stalled_ = true;
        return false;
      }
      if (!keep_going(stop)) return false;
      if (reached) return true;
    }
  }

  // Progress, wall-clock checkpoints; false when a stop signal or the
  // wall-time limit says to end now. Every decision is shared by all ranks
  // (rank 0's clock, any rank's signal), so they make the same collective
  // calls.
  bool keep_going(double stop) {
    const double wall = clock_.seconds();
    const bool root = is_root();
    if (sim_.any_rank(root && !request_.quiet && wall - last_progress_ >= model_.output().progress_seconds)) {
      const FrameObservables now = sim_.observables(sim_.time());
      const std::uint64_t events = sim_.statistics().total_events();
      if (root && !request_.quiet) progress_.line(sim_.time(), now, events, wall);
      last_progress_ = wall;
    }
    // Each rank's own clock: the poll inside windows reads it too, and a
    // window one rank stopped must stop the run on every rank.
    const int signal = stop_signal();
    const bool late = out_of_time(wall);
    if (sim_.any_rank(signal != 0 || late)) {
      stopped_by_ = signal != 0 ? signal_name(signal) : late ? "--max-walltime" : "a signal to another rank";
      return false;
    }
    const double wall_minutes = model_.output().checkpoint_wall_minutes;
    if (sim_.any_rank(root && wall_minutes > 0 && wall - last_wall_checkpoint_ >= 60.0 * wall_minutes)) {
      const double t = sim_.consistent_stop_time();
      if (t < stop) checkpoint(t);
      last_wall_checkpoint_ = clock_.seconds();
    }
    return true;
  }

  bool out_of_time(double wall) const {
    if (!(request_.max_walltime_hours > 0)) return false;
    const double limit = 3600.0 * request_.max_walltime_hours;
    const double margin =
        request_.walltime_margin_minutes >= 0 ? 60.0 * request_.walltime_margin_minutes : 0.01 * limit;
    return wall >= limit - margin;
  }

  // Simulated time stopped while events kept coming: exact dynamics will
  // not leave such a state, so the run ends with a checkpoint (to inspect,
  // or to continue after all) and a failure exit, never silently.
  int finish_stalled() {
    const std::string description = sim_.stall_description();
    const double t = sim_.consistent_stop_time();
    const std::string written = checkpoint(t);
    trajectory_->close();
    finish(t, true);
    if (is_root()) {
      std::fprintf(stderr,
                   "tethersim run: stalled: %s; stopped at t = %.10g with a checkpoint in %s (see "
                   "docs/engine.md, \"Stalls\"; the limit is --stall-events; for inelastic "
                   "collapse, set physics.tc_elastic_time, the TC model)\n",
                   description.c_str(), t, written.c_str());
    }
    return kExitRuntimeFailure;
  }

  bool is_root() const {
    int rank = 0;
    MPI_Comm_rank(sim_.io_comm(), &rank);
    return rank == 0;
  }

  // Frames and observable samples due at `now`.
  void scheduled_outputs(double now) {
    if (frames_.time() == now) {
      write_frame(now);
      ++frames_.next;
    }
    if (samples_.time() == now) {
      sample(now);
      ++samples_.next;
    }
  }

  // An observable sample: into the trajectory (collective) and, on rank 0,
  // into observables.jsonl under the same step.
  void sample(double t) {
    const FrameObservables values = sim_.observables(t);
    const std::int64_t step = trajectory_->write_observables(t, values);
    if (observables_log_) observables_log_->write(t, step, values);
  }

  int finish_early(double t) {
    const std::string written = checkpoint(t);
    trajectory_->close();
    finish(t, true);
    // One line for the run, from rank 0 (which knows of its own signal and
    // of the wall-time limit; other ranks' signals reach it as "another rank").
    if (is_root()) {
      std::fprintf(stderr,
                   "tethersim run: stopped by %s at t = %.10g: checkpoint written to %s; continue with "
                   "'tethersim run --restart %s'\n",
                   stopped_by_.c_str(), t, written.c_str(), run_.directory.string().c_str());
    }
    return kExitOk;
  }

  void write_frame(double t) {
    // Pages freed since the last output (a checkpoint's snapshot, a start's
    // copies) go back before this one takes its own: one process keeps
    // freed memory for speed, but its peak is set here (docs/engine.md).
    return_free_heap_pages();
    // A frame's size is what it adds to the file (its chunks are allocated
    // as the datasets grow), its time the write and the flush.
    const std::string& path = trajectory_->path();
    std::error_code ec;
    const std::uintmax_t before = fs::file_size(path, ec);
    const double started = clock_.seconds();
    trajectory_->write_frame(t, *sim_.frame_particles(t), *sim_.frame_tethers());
    totals_.frame_seconds += clock_.seconds() - started;
    ++totals_.frames_written;
    const std::uintmax_t after = fs::file_size(path, ec);
    if (!ec && after > before) totals_.frame_bytes += after - before;
  }

  std::string checkpoint(double t) {
    // Everything the trajectory holds before t is on disk before the
    // checkpoint is (a killed run restarts from it and keeps those rows).
    trajectory_->flush();
    return_free_heap_pages();
    const double started = clock_.seconds();
    sim_.count_loop(false);  // as loop_seconds leaves the write out
    const std::string path = write_checkpoint(run_.directory.string(), sim_.io_comm(), model_, run_.slots,
                                              sim_.local_snapshot(t), *sim_.local_particles());
    sim_.count_loop(true);
    totals_.checkpoint_seconds += clock_.seconds() - started;
    ++totals_.checkpoints;
    std::error_code ec;
    totals_.checkpoint_bytes += fs::file_size(path, ec);
    return path;
  }

  void finish(double t, bool interrupted) {
    totals_.start_time = run_.start_time;
    totals_.end_time = t;
    totals_.wall_seconds = clock_.seconds();
    sim_.count_loop(false);
    totals_.ranks = sim_.ranks();
    totals_.final = sim_.observables(t);
    totals_.peak_resident_bytes = peak_resident_bytes();
    totals_.baseline_resident_bytes = baseline_;
    totals_.interrupted = interrupted;
    totals_.restarted = run_.restarted;
    totals_.state_hash = sim_.state_hash();
    totals_.memory_bytes = sim_.memory_bytes();
    totals_.rank_memory = gather_rank_memory(
        sim_.io_comm(), {sim_.memory_bytes(), totals_.peak_resident_bytes, baseline_, sim_.start_particles()});
    totals_.frames = trajectory_ ? trajectory_->frames() : 0;
    totals_.distribution = sim_.distribution(t - run_.start_time);
    const engine::EngineStatistics stats = sim_.statistics();
    if (!is_root()) return;
    if (!request_.quiet && !interrupted) {
      progress_.line(t, totals_.final, stats.total_events(), totals_.wall_seconds);
    }
    write_file_atomically((run_.directory / "summary.json").string(), summary_json(model_, stats, totals_));
    if (!request_.quiet) {
      // The per-rank table is summary.json's; on stdout when asked for or
      // when it explains a slow run, else one line pointing to it.
      RunTotals shown = totals_;
      const bool table = totals_.distribution &&
                         (request_.distribution_report || distribution_matters(*totals_.distribution, totals_.wall_seconds));
      if (!table) shown.distribution.reset();
      print_summary(stdout, model_, stats, shown);
      if (totals_.distribution && !table) {
        const DistributionReport& d = *totals_.distribution;
        std::printf("  distribution       %d ranks as %s; duplicated events %.2f%%, imbalance %.3f (per rank: "
                    "summary.json \"distribution\", or --distribution-report)\n",
                    d.ranks, d.rank_grid.c_str(), 100.0 * d.duplicated_fraction, d.imbalance);
      }
      std::printf("  output             %s (trajectory.h5, trajectory.xdmf, observables.jsonl, summary.json)\n",
                  run_.directory.string().c_str());
    }
  }

  LoadedRun& run_;
  const Model& model_;
  Simulation& sim_;
  const RunRequest& request_;
  ProgressPrinter progress_;
  std::optional<TrajectoryFile> trajectory_;
  std::optional<ObservablesLog> observables_log_;  // rank 0 only
  Schedule frames_, samples_, checkpoints_;
  Stopwatch clock_;
  std::size_t baseline_ = current_resident_bytes();
  double last_progress_ = 0.0;
  double last_wall_checkpoint_ = 0.0;
  std::string stopped_by_;
  bool stalled_ = false;
  RunTotals totals_;
};

// Starts the simulation and runs it: collective from the first call on.
int start_and_run(LoadedRun& run, const RunRequest& request, const mpi::Session& mpi) {
  try {
    if (run.restarted) {
      run = load_restart(request, mpi);
    } else if (mpi.size() == 1) {
      run.simulation = make_serial(*run.model, request, std::move(run.initial));
    } else {
      run.simulation = make_distributed(*run.model, request, *run.initial_system);
      run.initial_system.reset();
      try {
        run.warnings = run.finish_checks(*run.model);
      } catch (const InputError& e) {
        // Equal on every rank (counts only): they end alike.
        if (mpi.is_root()) std::fprintf(stderr, "tethersim: error: %s\n", e.what());
        return kExitBadInput;
      }
    }
  } catch (const std::invalid_argument& e) {
    // The rank count or grid does not suit the model (every rank agrees).
    throw InputError({request.model_path.empty() ? request.restart : request.model_path, 0}, "", e.what());
  } catch (const decomposition::RefusedStart& e) {
    // An overlap in the initial state, found in a rank's window: every rank
    // agreed on the pair (the first by id) and throws the same, so they end
    // alike, with the reader's message, as bad input read by every rank.
    if (mpi.is_root()) std::fprintf(stderr, "tethersim: error: %s\n", run.locate(e.problem()).what());
    return kExitBadInput;
  }
  print_warnings(run.warnings, request);
  // Rank 0 locks and prepares the output directory, before touching any
  // file in it; every rank learns how it went.
  std::string problem;
  OutputLock lock;
  if (mpi.is_root()) {
    try {
      lock = lock_directory(run.directory);
      if (!run.restarted) {
        prepare_fresh_directory(run.directory, request.overwrite);
      } else {
        std::error_code ec;
        fs::create_directories(run.directory, ec);
      }
    } catch (const InputError& e) {
      problem = e.what();
    }
  }
  if (mpi.size() > 1) mpi::broadcast(problem, 0, MPI_COMM_WORLD);
  if (!problem.empty()) {
    // Every rank knows: end alike, without an abort.
    if (mpi.is_root()) std::fprintf(stderr, "tethersim: error: %s\n", problem.c_str());
    return kExitBadInput;
  }
  // From here on rank 0's terminal output goes to DIR/run.log as well; with
  // --quiet to the log only, which still gets everything.
  std::optional<RunLog> log;
  if (mpi.is_root()) log.emplace(run.directory, run_log_header(run.restarted, mpi.size()), request.quiet);
  print_warnings(run.warnings, request);
  RunRequest shown = request;
  if (log && log->active()) shown.quiet = false;
  if (!shown.quiet) {
    if (run.restarted) {
      std::printf("continuing model '%s' from its checkpoint at t = %.10g to t = %.10g%s\n",
                  run.model->name().c_str(), run.start_time, run.model->end_time(),
                  mpi.size() > 1 ? (" on " + std::to_string(mpi.size()) + " ranks").c_str() : "");
    } else {
      std::fputs(describe_model(*run.model, run.counts).c_str(), stdout);
      if (mpi.size() > 1) std::printf("running on %d MPI ranks\n", mpi.size());
    }
  }
  RunLoop loop(run, shown);
  return loop.execute();
}

}  // namespace

int run_simulation(const RunRequest& given, const mpi::Session& mpi) {
  // One process keeps freed memory for reuse; several ranks do not (it
  // cost them a third more memory for no steady gain: docs/engine.md).
  if (mpi.size() == 1) keep_freed_memory();
  // Rank 0 speaks for all.
  RunRequest request = given;
  if (!mpi.is_root()) request.quiet = true;
  // Reading the model and checking the restart's source touch files only:
  // bad input fails on every rank alike, and the ranks agree on it before
  // the first collective call, so that it ends with one message and no
  // rank waiting for another.
  LoadedRun run;
  std::optional<RunFailure> failure;
  try {
    if (request.restart.empty()) {
      run = read_fresh(request, mpi);
    } else {
      check_restart_source(request, mpi);
      run.restarted = true;
    }
  } catch (const AlreadyFinished& e) {
    // Every rank read the same checkpoint and ends alike.
    if (!request.quiet) std::printf("%s\n", e.what());
    return kExitOk;
  } catch (const InputError& e) {
    failure = RunFailure{kExitBadInput, std::string("tethersim: error: ") + e.what()};
  } catch (const std::exception& e) {
    failure = RunFailure{kExitRuntimeFailure, std::string("tethersim: failed: ") + e.what()};
  }
  if (mpi.size() == 1) {
    if (failure) {
      std::fprintf(stderr, "%s\n", failure->message.c_str());
      return failure->exit_code;
    }
    return start_and_run(run, request, mpi);
  }
  if (const int code = agree_on_failure(MPI_COMM_WORLD, failure)) return code;
  // From here on the ranks call collectives: an error on one rank ends them
  // all at once, before anything collective is torn down (another rank may
  // be waiting in a collective call that would never return).
  try {
    return start_and_run(run, request, mpi);
  } catch (const InputError& e) {
    end_all_ranks(MPI_COMM_WORLD, kExitBadInput, std::string("tethersim: error: ") + e.what(), true);
  } catch (const std::exception& e) {
    end_all_ranks(MPI_COMM_WORLD, kExitRuntimeFailure, std::string("tethersim: failed: ") + e.what(), false);
  }
}

}  // namespace tethersim::runtime
