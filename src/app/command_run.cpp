// tethersim run MODEL.toml: run a simulation.
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "command_options.hpp"
#include "exit_codes.hpp"
#include "model_description.hpp"
#include "progress.hpp"
#include "resource_usage.hpp"
#include "run_summary.hpp"
#include "tethersim/decomposition/mpi_session.hpp"
#include "tethersim/engine/engine.hpp"
#include "tethersim/io/input_error.hpp"
#include "tethersim/io/model_file.hpp"

namespace tethersim::app {

namespace {

const char* kUsage =
    "Usage: tethersim run MODEL.toml [--output DIR] [--end-time T] [--seed N]\n"
    "                     [--set KEY=VALUE ...] [--overwrite] [--quiet]\n"
    "       mpirun -np N tethersim run MODEL.toml ...\n\n"
    "Runs the simulation described by MODEL.toml from its initial state to\n"
    "the end time, printing progress with an estimate of the time left, and\n"
    "writes DIR/summary.json (events by kind, energies, particles, escapes,\n"
    "events per second, memory). An output directory that already holds a\n"
    "run is refused unless --overwrite is given.";

struct RunRequest {
  std::string model_path;
  std::vector<std::string> overrides;
  bool overwrite = false;
  bool quiet = false;
};

// Refuses to mix two runs in one directory; creates it when missing.
void prepare_output_directory(const std::string& directory, bool overwrite) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(directory, ec) && !fs::is_directory(directory, ec)) {
    throw InputError({directory, 0}, "output.directory", "exists and is not a directory");
  }
  if (!overwrite && fs::exists(fs::path(directory) / "summary.json", ec)) {
    throw InputError({directory, 0}, "output.directory",
                     "already holds a run (summary.json); choose another --output or pass "
                     "--overwrite");
  }
  fs::create_directories(directory, ec);
  if (ec) {
    throw InputError({directory, 0}, "output.directory", "cannot be created: " + ec.message());
  }
}

// Runs the engine to the end time, with progress lines every
// output.progress_seconds of wall time.
void run_engine(const Model& model, engine::Engine& engine, const Stopwatch& clock, bool quiet) {
  const double end = model.end_time();
  ProgressPrinter progress(model, engine.time(), end, stdout);
  if (!quiet) progress.header();
  double next_line = model.output().progress_seconds;
  // Chunks of events between looks at the clock: small enough for timely
  // progress lines, large enough to cost nothing.
  const std::uint64_t chunk = 200000;
  while (!engine.run_until(end, chunk)) {
    if (!quiet && clock.seconds() >= next_line) {
      progress.line(sample_observables(model, engine, engine.time()),
                    engine.statistics().total_events(), clock.seconds());
      next_line = clock.seconds() + model.output().progress_seconds;
    }
  }
  if (!quiet) {
    progress.line(sample_observables(model, engine, end), engine.statistics().total_events(),
                  clock.seconds());
  }
}

int run_serial(const RunRequest& request, const decomposition::MpiSession& mpi) {
  const std::size_t baseline = current_resident_bytes();
  scenario::InitialParticles initial;
  const Model model =
      load_model_file(request.model_path, ModelFileOptions{request.overrides, false}, &initial);
  const std::string directory = model.output().directory;
  if (mpi.is_root()) prepare_output_directory(directory, request.overwrite);
  if (mpi.size() > 1) {
    // The distributed engine is not part of this build: rank 0 runs the
    // whole system and the other ranks wait.
    if (mpi.is_root()) {
      std::fprintf(stderr,
                   "tethersim run: %d MPI ranks started, but this build has no distributed "
                   "engine yet: rank 0 runs the whole system, the other %d ranks wait\n",
                   mpi.size(), mpi.size() - 1);
    } else {
      return kExitOk;
    }
  }
  if (!request.quiet) std::fputs(describe_model(model, initial).c_str(), stdout);

  const Stopwatch clock;
  engine::Engine engine(model, std::move(initial));
  RunTotals totals;
  totals.start_time = engine.time();
  totals.end_time = model.end_time();
  totals.initial = sample_observables(model, engine, engine.time());
  run_engine(model, engine, clock, request.quiet);
  totals.wall_seconds = clock.seconds();
  totals.final = sample_observables(model, engine, model.end_time());
  totals.peak_resident_bytes = peak_resident_bytes();
  totals.baseline_resident_bytes = baseline;
  totals.ranks = 1;
  write_file_atomically((std::filesystem::path(directory) / "summary.json").string(),
                        summary_json(model, engine, totals));
  if (!request.quiet) {
    print_summary(stdout, model, engine, totals);
    std::printf("  summary            %s\n",
                (std::filesystem::path(directory) / "summary.json").string().c_str());
  }
  return kExitOk;
}

}  // namespace

int run_main(const Arguments& args) {
  po::options_description options("Options");
  options.add_options()("model", po::value<std::string>()->required()->value_name("MODEL.toml"),
                        "the model file")(
      "output,o", po::value<std::string>()->value_name("DIR"),
      "output directory (default: the model's output.directory)")(
      "end-time", po::value<double>()->value_name("T"), "simulated time to stop at")(
      "seed", po::value<long long>()->value_name("N"), "random seed (default: the model's run.seed)")(
      "overwrite", "reuse an output directory that holds another run's files")(
      "quiet,q", "print nothing but errors");
  add_model_override_option(options);
  po::positional_options_description positional;
  positional.add("model", 1);
  po::variables_map values;
  if (!parse_command_line("run", kUsage, args, options, positional, values)) return kExitOk;

  RunRequest request;
  request.model_path = values["model"].as<std::string>();
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
  request.overwrite = values.count("overwrite") > 0;
  request.quiet = values.count("quiet") > 0;

  const decomposition::MpiSession mpi;
  try {
    return run_serial(request, mpi);
  } catch (...) {
    // Every rank meets the same bad input; one message is enough.
    if (mpi.is_root()) throw;
    return kExitBadInput;
  }
}

}  // namespace tethersim::app
