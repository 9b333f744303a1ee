// tethersim run: run a simulation, fresh or from a checkpoint.
#include <mpi.h>

#include <cstdio>
#include <initializer_list>
#include <utility>
#include <filesystem>

#include "command_options.hpp"
#include "distribution_test_switches.hpp"
#include "exit_codes.hpp"
#include "run_session.hpp"
#include "stop_signals.hpp"
#include "tethersim/decomposition/block_layout.hpp"
#include "tethersim/mpi/session.hpp"
#include "tethersim/io/input_error.hpp"

namespace tethersim::app {

namespace {

const char* kDescription =
    "  tethersim run MODEL.toml --output DIR                  start a run\n"
    "  tethersim run --restart DIR|DIR/checkpoint.h5          continue one\n"
    "  tethersim run MODEL.toml --output DIR --continue       start or continue\n"
    "  mpirun -np N tethersim run ...                         on N ranks\n\n"
    "Runs the simulation described by MODEL.toml, or continues one from its\n"
    "checkpoint. Progress lines give the simulated time, events per second,\n"
    "the observables and the time left. The output directory receives\n"
    "trajectory.h5 (H5MD) and trajectory.xdmf (ParaView, VisIt), checkpoint.h5\n"
    "(the previous one kept as checkpoint.prev.h5), observables.jsonl (the\n"
    "observable samples as JSON lines), summary.json and run.log. A\n"
    "directory that holds another run is refused unless --overwrite is given.\n\n"
    "SIGTERM, SIGUSR1 and Ctrl-C, and --max-walltime (less --walltime-margin),\n"
    "write a checkpoint at the next safe point (within about a second) and exit\n"
    "with code 0; continue with --restart DIR. --continue starts the run when\n"
    "DIR holds no checkpoint and continues it (as --restart DIR) when it does,\n"
    "so one command line serves every job of a chain; a run already at its end\n"
    "time exits with code 0. A run whose simulated time stops while events keep\n"
    "coming (a stall) stops after --stall-events events with a checkpoint, a\n"
    "message naming the particles and event kinds, and exit code 1. The output\n"
    "directory is locked (tethersim.lock) while a run writes to it.\n\n"
    "Under mpirun or srun the sector grid is split into blocks, one per rank\n"
    "(--ranks-grid), and the run is the same, bit for bit, on any number of\n"
    "ranks; a restart may use a different number.";


// Every option of the command, with its help.
po::options_description run_options() {
  po::options_description options("Options");
  options.add_options()("model", po::value<std::string>()->value_name("MODEL.toml"), "the model file")(
      "restart", po::value<std::string>()->value_name("CHECKPOINT"),
      "continue from a checkpoint (a file, or a run's output directory)")(
      "output,o", po::value<std::string>()->value_name("DIR"),
      "output directory (default: the model's output.directory; for --restart, the checkpoint's)")(
      "end-time", po::value<double>()->value_name("T"), "simulated time to stop at")(
      "seed", po::value<long long>()->value_name("N"), "random seed (default: the model's run.seed)")(
      "max-walltime", po::value<double>()->value_name("HOURS"),
      "stop with a checkpoint when this many hours of wall time, less the margin, have passed")(
      "walltime-margin", po::value<double>()->value_name("MINUTES"),
      "with --max-walltime: the minutes kept back for the final checkpoint and exit (default: 1% "
      "of --max-walltime; give more for large systems, whose checkpoint takes longer)")(
      "overwrite", "replace the files of another run in the output directory")(
      "continue", "with MODEL.toml and --output DIR: continue DIR's run when it has a checkpoint, else start it")(
      "stall-events", po::value<unsigned long long>()->value_name("N"),
      "stop with a checkpoint and exit 1 after N events without simulated time advancing (default "
      "10^7; 0: never)")(
      "quiet,q", "print nothing but errors (run.log still gets everything)")(
      "distribution-report", "print the per-rank table of a distributed run (windows, rollbacks, bytes, times) "
      "even when nothing in it is amiss; summary.json always holds it")(
      "ranks-grid", po::value<std::string>()->value_name("X,Y,Z"),
      "how MPI ranks split the sector grid (default: the grid with the smallest halos)")(
      "balance", po::value<std::string>()->value_name("auto|off|force|random")->default_value("auto"),
      "move block boundaries to balance measured work (force: one layer at every check; random: "
      "anywhere at every check; both for testing)")(
      "balance-interval", po::value<int>()->value_name("WINDOWS")->default_value(64),
      "windows between load-balance checks")(
      "windows", po::value<std::string>()->value_name("speculative|certified|owner")->default_value("speculative"),
      "how ranks make a window exact: run it and check afterwards, undoing it when the check "
      "fails (speculative), or prove it from speed bounds first (certified); or run each event "
      "once, on the rank that owns it, undoing a rank where another's outcome comes late (owner: "
      "a preview, with TETHERSIM_OWNER_PREVIEW=1: not yet faster than one rank; with tethers or loaded "
      "groups every rank holds the whole system; no action potentials)")(
      "window-memory", po::value<double>()->value_name("MIB"),
      "the most memory each rank's undo log may hold in a speculative window; a window that needs "
      "more ends early (default: a quarter of the rank's particle storage, at least 8 MiB; with periodic impulses, half of it, at least 16 MiB)")(
      "halo-depth", po::value<int>()->value_name("LAYERS")->default_value(decomposition::kHaloDepth),
      "sector layers of each rank's halo, 2 to 8: deeper halos let speculative windows run longer "
      "before a violation and duplicate more events; certified windows need 3 or more")(
      "lean-fallback", po::value<std::string>()->value_name("on|off|random")->default_value("on"),
      "let one rank run everything for a while when that is expected to take less time than "
      "synchronized windows, in systems small enough for one rank (a serial engine of at most "
      "32 MiB) (off: only when a window cannot be certified; random: a seeded coin decides, for "
      "testing)")(
      "record-rounds", po::value<std::string>()->value_name("DIR"),
      "write each rank's CPU time, messages and events round by round into DIR, for "
      "tools/scaling_replay.py to replay the run on a modelled cluster");
  add_model_override_option(options);
  return options;
}

// The model to start, or the checkpoint to continue: --continue picks one
// by whether the output directory holds a checkpoint.
void read_what_to_run(const po::variables_map& values, RunRequest& request) {
  if (values.count("restart")) request.restart = values["restart"].as<std::string>();
  if (values.count("model")) request.model_path = values["model"].as<std::string>();
  if (values.count("continue")) {
    if (request.model_path.empty() || !request.restart.empty() || !values.count("output")) {
      throw UsageError{"run", "--continue needs a model file and --output DIR (and no --restart)"};
    }
    // Like GROMACS -cpi: the same command line starts and continues a run.
    const std::filesystem::path directory = values["output"].as<std::string>();
    std::error_code ec;
    if (std::filesystem::exists(directory / "checkpoint.h5", ec) ||
        std::filesystem::exists(directory / "checkpoint.prev.h5", ec)) {
      request.restart = directory.string();
      request.model_path.clear();
    }
  }
  if (request.model_path.empty() == request.restart.empty()) {
    throw UsageError{"run", "give either a model file or --restart CHECKPOINT"};
  }
}

// --set, and the options that are model keys (--end-time, --seed,
// --output), as overrides in the order given.
void read_overrides(const po::variables_map& values, RunRequest& request) {
  if (values.count("set")) request.overrides = values["set"].as<std::vector<std::string>>();
  if (values.count("end-time")) {
    request.overrides.push_back(number_override("run.end_time", values["end-time"].as<double>()));
  }
  if (values.count("seed")) {
    if (values["seed"].as<long long>() < 0) throw UsageError{"run", "--seed must not be negative"};
    request.overrides.push_back("run.seed=" + std::to_string(values["seed"].as<long long>()));
  }
  if (values.count("output")) {
    request.overrides.push_back(string_override("output.directory", values["output"].as<std::string>()));
  }
}

// When the run stops by itself: wall time, and stalls.
void read_limits(const po::variables_map& values, RunRequest& request) {
  if (values.count("max-walltime")) {
    request.max_walltime_hours = values["max-walltime"].as<double>();
    if (!(request.max_walltime_hours > 0)) throw UsageError{"run", "--max-walltime must be positive"};
  }
  if (values.count("walltime-margin")) {
    if (!values.count("max-walltime")) throw UsageError{"run", "--walltime-margin needs --max-walltime"};
    request.walltime_margin_minutes = values["walltime-margin"].as<double>();
    if (!(request.walltime_margin_minutes >= 0 &&
          request.walltime_margin_minutes < 60.0 * request.max_walltime_hours)) {
      throw UsageError{"run", "--walltime-margin is a number of minutes from 0 to less than --max-walltime"};
    }
  }
  if (values.count("stall-events")) request.stall_events = values["stall-events"].as<unsigned long long>();
}

// An option whose value is one of a few words: its value, or a usage
// error listing the words ("--balance is auto, off, force or random").
template <typename Value>
Value one_of(const po::variables_map& values, const std::string& option,
             std::initializer_list<std::pair<const char*, Value>> choices) {
  const std::string given = values[option].as<std::string>();
  std::string listed;
  std::size_t k = 0;
  for (const auto& [word, value] : choices) {
    if (given == word) return value;
    listed += (k == 0 ? "" : k + 1 == choices.size() ? " or " : ", ") + std::string(word);
    ++k;
  }
  throw UsageError{"run", "--" + option + " is " + listed + ", got '" + given + "'"};
}

decomposition::GridShape read_ranks_grid(const std::string& text) {
  decomposition::GridShape grid{};
  char tail = 0;
  if (std::sscanf(text.c_str(), "%d,%d,%d%c", &grid[0], &grid[1], &grid[2], &tail) != 3 || grid[0] < 1 ||
      grid[1] < 1 || grid[2] < 1) {
    throw UsageError{"run", "--ranks-grid wants three positive counts such as 2,2,1, got '" + text + "'"};
  }
  return grid;
}

// How several ranks share the run.
decomposition::DistributionSettings read_distribution(const po::variables_map& values) {
  using decomposition::BalanceMode, decomposition::WindowMode, decomposition::LeanFallback;
  decomposition::DistributionSettings d;
  if (values.count("ranks-grid")) d.ranks_grid = read_ranks_grid(values["ranks-grid"].as<std::string>());
  d.balance = one_of<BalanceMode>(values, "balance",
                                  {{"auto", BalanceMode::automatic}, {"off", BalanceMode::off},
                                   {"force", BalanceMode::forced}, {"random", BalanceMode::random}});
  d.balance_interval = values["balance-interval"].as<int>();
  if (d.balance_interval < 1) throw UsageError{"run", "--balance-interval must be at least 1"};
  d.windows = one_of<WindowMode>(values, "windows",
                                 {{"speculative", WindowMode::speculative}, {"certified", WindowMode::certified},
                                  {"owner", WindowMode::owner}});
  if (values.count("window-memory")) {
    const double mib = values["window-memory"].as<double>();
    if (!(mib >= 0.01 && mib <= 1e9)) {
      throw UsageError{"run", "--window-memory is a number of MiB from 0.01 to 10^9"};
    }
    d.window_memory = static_cast<std::size_t>(mib * 1048576.0);
  }
  const int halo = values["halo-depth"].as<int>();
  if (halo < decomposition::kMinHaloDepth || halo > decomposition::kMaxHaloDepth) {
    throw UsageError{"run", "--halo-depth is a number of sector layers from " +
                                std::to_string(decomposition::kMinHaloDepth) + " to " +
                                std::to_string(decomposition::kMaxHaloDepth) + ", got " + std::to_string(halo)};
  }
  d.halo_depth = halo;
  if (values.count("record-rounds")) d.record_rounds = values["record-rounds"].as<std::string>();
  if (d.windows == WindowMode::owner && !runtime::owner_preview_asked()) {
    // Exact where tested, but not yet faster than one rank (and with
    // tethers or loaded groups every rank holds the whole system): it must
    // be asked for knowingly (docs/distribution.md, "Owner-computes rounds").
    throw UsageError{"run", "--windows owner is a preview, not yet faster than one rank; "
                            "set TETHERSIM_OWNER_PREVIEW=1 to run it anyway"};
  }
  d.lean_fallback = one_of<LeanFallback>(
      values, "lean-fallback", {{"on", LeanFallback::on}, {"off", LeanFallback::off}, {"random", LeanFallback::random}});
  return d;
}

}  // namespace

int run_main(const Arguments& args) {
  po::options_description options = run_options();
  po::positional_options_description positional;
  positional.add("model", 1);
  po::variables_map values;
  if (!parse_command_line("run", kDescription, args, options, positional, values)) return kExitOk;
  RunRequest request;
  read_what_to_run(values, request);
  read_overrides(values, request);
  read_limits(values, request);
  request.distribution = read_distribution(values);
  request.overwrite = values.count("overwrite") > 0;
  request.quiet = values.count("quiet") > 0;
  request.distribution_report = values.count("distribution-report") > 0;

  // Failures on several ranks end the job inside run_simulation
  // (failure_policy.hpp); a single process reports them from main.
  // Before anything slow, MPI_Init first (a single process starts Open
  // MPI's daemon there, which took over a second on a busy machine): a
  // signal during set-up stops the run at its first safe point, with a
  // checkpoint at the start time, instead of killing it.
  runtime::install_stop_signals();
  const mpi::Session mpi;
  return run_simulation(request, mpi);
}

}  // namespace tethersim::app
