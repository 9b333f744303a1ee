// tethersim bench: the elastic hard-sphere gas, the standard benchmark of
// event-driven molecular dynamics (diameter 1, mass 1, kT = 1, number
// density 0.5, periodic cube, FCC start with N = 4 C^3).
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include "command_options.hpp"
#include "exit_codes.hpp"
#include "resource_usage.hpp"
#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/partial_view.hpp"
#include "tethersim/mpi/session.hpp"
#include "engine_frame.hpp"
#include "tethersim/io/checkpoint_file.hpp"
#include "tethersim/io/trajectory_file.hpp"
#include "tethersim/io/model_file.hpp"
#include "tethersim/scenario/initial_particles.hpp"

namespace tethersim::app {

namespace {

// The same physics as examples/gas.toml, built in so the benchmark needs
// no file.
std::string gas_model(long cells, long seed, double sector = 0.0) {
  return "[model]\nname = \"gas-benchmark\"\n[run]\nend_time = 1e9\nseed = " +
         std::to_string(seed) +
         "\n[physics]\nrestitution_delay = 0.0\n[domain]\nboundary = \"periodic\"\nsector_size = " +
         std::to_string(sector) + "\n"
         "[[species]]\nname = \"A\"\nmass = 1.0\nradius = 0.5\n"
         "[[pair]]\nspecies = [\"A\", \"A\"]\nblocking = 1.0\nc = 1.0\n"
         "[initial]\ngenerator = \"fcc-gas\"\n[initial.parameters]\ncells = " +
         std::to_string(cells) + "\ndensity = 0.5\nspecies = \"A\"\ntemperature = 1.0\n";
}

// Runs until `collisions` more blocking collisions have happened.
void run_collisions(engine::Engine& engine, std::uint64_t collisions) {
  const std::uint64_t target = engine.statistics().collisions() + collisions;
  while (engine.statistics().collisions() < target) {
    const std::uint64_t left = target - engine.statistics().collisions();
    engine.run_until(kInfinity, std::max<std::uint64_t>(left, 1000));
  }
}

// The fixed cost of a process (code pages, libraries, allocator arenas)
// is paid by a tiny warm-up gas first, so that the peak measured above the
// baseline is what the particles cost. Returns that baseline.
std::size_t warm_up_baseline() {
  scenario::InitialParticles tiny;
  const Model tiny_model = load_model_text(gas_model(2, 1), "gas-warm-up", {}, &tiny);
  engine::Engine warm_up(tiny_model, std::move(tiny));
  run_collisions(warm_up, 1000);
  return current_resident_bytes();
}

// --io, frames: each written as a run writes it (read from the engine a
// round at a time, flushed), after some collisions moved the particles.
void time_frames(engine::Engine& engine, const Model& model, const SlotMap& slots, const std::string& dir) {
  const std::size_t n = engine.particles().size();
  SlotSpecies species;
  species.species.assign(n, 0);
  // The benchmark's own file, removed afterwards (with its XDMF sidecar).
  const std::filesystem::path path = std::filesystem::path(dir) / "bench-frames.h5";
  TrajectoryFile trajectory = TrajectoryFile::create(path.string(), MPI_COMM_SELF, model, slots, species, 0);
  for (int repeat = 0; repeat < 3; ++repeat) {
    run_collisions(engine, n / 4);
    const double t = engine.time();
    const auto size_before = std::filesystem::file_size(path);
    const Stopwatch write_clock;
    FrameTetherList no_tethers;
    trajectory.write_frame(t, runtime::EngineFrameParticles(engine, t), no_tethers);
    const double write_seconds = write_clock.seconds();
    // What the frame added to the file (its chunks are allocated as it is
    // extended, so the file's growth is the frame, whatever fields it keeps).
    const double megabytes = static_cast<double>(std::filesystem::file_size(path) - size_before) / 1e6;
    std::printf("frame %d: %.1f MB; write %.3f s: %.0f MB/s\n", repeat + 1, megabytes, write_seconds,
                megabytes / write_seconds);
  }
  trajectory.close();
  std::filesystem::remove(path);
  std::filesystem::remove(std::filesystem::path(path).replace_extension(".xdmf"));
}

// --io: the snapshot and the collective write of a checkpoint, timed, then
// frames.
void time_checkpoints(engine::Engine& engine, const Model& model, const std::string& dir) {
  const mpi::Session mpi;
  std::filesystem::create_directories(dir);
  const std::size_t n = engine.particles().size();
  std::vector<ParticleId> ids(n);
  for (std::size_t k = 0; k < ids.size(); ++k) ids[k] = k;
  const SlotMap slots(std::move(ids));
  run_collisions(engine, n);  // some collisions: realistic counters
  for (int repeat = 0; repeat < 3; ++repeat) {
    // As a run writes one: the state without its particles, which the
    // writer takes from the engine a slab at a time.
    const Stopwatch snapshot_clock;
    engine::EngineSnapshot snapshot = engine.snapshot_without_particles(engine.next_event_time());
    const std::unique_ptr<engine::ParticleSource> particles = engine.particle_source();
    const double snapshot_seconds = snapshot_clock.seconds();
    const Stopwatch write_clock;
    const std::string path = write_checkpoint(dir, MPI_COMM_SELF, model, slots, std::move(snapshot), *particles);
    const double write_seconds = write_clock.seconds();
    const double megabytes = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
    std::printf("checkpoint %d: %.1f MB; snapshot %.3f s, write %.3f s: %.0f MB/s (%.0f MB/s with the snapshot)\n",
                repeat + 1, megabytes, snapshot_seconds, write_seconds, megabytes / write_seconds,
                megabytes / (write_seconds + snapshot_seconds));
  }
  time_frames(engine, model, slots, dir);
}

// --segments S: the same collisions while keeping what a rank that runs
// ahead of its neighbours keeps to undo them (segments of S instants, no
// histories), committing every S events below the time reached S events
// before (as a global virtual time one interval behind would): the cost of
// being able to undo, per event. Returns the most segments held.
std::size_t run_collisions_undoable(engine::Engine& engine, std::uint64_t collisions, std::size_t instants,
                                    std::size_t* most_bytes) {
  const engine::PartialView view(engine);
  view.track_changes(true);
  view.begin_segments(instants);
  const std::uint64_t target = engine.statistics().collisions() + collisions;
  double previous_interval = engine.time();
  std::size_t most_segments = 0;
  while (engine.statistics().collisions() < target) {
    engine.run_until(kInfinity, instants);
    most_segments = std::max(most_segments, view.segment_count());
    *most_bytes = std::max(*most_bytes, view.speculation_bytes());
    view.commit_segments_before(previous_interval);
    previous_interval = engine.time();
  }
  view.keep_speculation();
  view.clear_changes();
  view.track_changes(false);
  return most_segments;
}

// The timed collisions: rates, the work per event, memory and energy drift.
void time_collisions(engine::Engine& engine, double collisions_wanted, std::size_t baseline_bytes,
                     std::size_t segment_instants) {
  const double n = static_cast<double>(engine.particles().size());
  const engine::EngineStatistics before = engine.statistics();
  const double energy_before = engine.kinetic_energy();
  const Stopwatch timed;
  std::size_t most_segments = 0, most_bytes = 0;
  if (segment_instants == 0) {
    run_collisions(engine, static_cast<std::uint64_t>(collisions_wanted));
  } else {
    most_segments = run_collisions_undoable(engine, static_cast<std::uint64_t>(collisions_wanted),
                                            segment_instants, &most_bytes);
  }
  const double seconds = timed.seconds();
  const engine::EngineStatistics& after = engine.statistics();
  const double collisions = static_cast<double>(after.collisions() - before.collisions());
  const double events = static_cast<double>(after.total_events() - before.total_events());
  const double crossings = static_cast<double>(
      after.events[static_cast<int>(engine::EventKind::sector_crossing)] -
      before.events[static_cast<int>(engine::EventKind::sector_crossing)]);
  std::printf("timed: %.0f collisions, %.0f sector crossings, %.0f events in %.2f s\n", collisions,
              crossings, events, seconds);
  std::printf("  collisions/s   %12.0f\n  events/s       %12.0f\n", collisions / seconds,
              events / seconds);
  std::printf("  stale events per collision  %.3f, predictions per event %.3f, pair tests per "
              "event %.2f\n",
              static_cast<double>(after.stale_events - before.stale_events) / collisions,
              static_cast<double>(after.predictions - before.predictions) / events,
              static_cast<double>(after.pair_tests - before.pair_tests) / events);
  std::printf("  engine bytes/particle   %8.1f\n"
              "  peak memory bytes/particle %5.1f  (peak resident size above the %.1f MB the\n"
              "                                    process held after a 32-particle warm-up)\n",
              static_cast<double>(engine.memory_bytes()) / n,
              static_cast<double>(peak_resident_bytes() - baseline_bytes) / n,
              static_cast<double>(baseline_bytes) / 1e6);
  std::printf("  relative energy drift   %8.2e\n",
              (engine.kinetic_energy() - energy_before) / energy_before);
  if (segment_instants != 0) {
    std::printf("  undoable in segments of %zu instants: at most %zu segments, %.1f bytes/particle\n",
                segment_instants, most_segments, static_cast<double>(most_bytes) / n);
  }
}

}  // namespace

int bench_main(const Arguments& args) {
  // One process, like a run on one rank.
  keep_freed_memory();
  po::options_description options("Options");
  options.add_options()("cells,C", po::value<long>()->value_name("C")->default_value(14),
                        "FCC cells per edge: N = 4 C^3 (14, 30, 63 -> 10 976, 108 000, 1 000 188)")(
      "collisions", po::value<double>()->value_name("N")->default_value(1e7), "collisions to time")(
      "melt", po::value<double>()->value_name("K")->default_value(5.0),
      "collisions per particle before timing starts (N melt / 2 collisions)")(
      "seed", po::value<long>()->value_name("N")->default_value(1), "random seed of the initial velocities")(
      "sector-size", po::value<double>()->value_name("E")->default_value(0.0),
      "sector edge (0: the minimum, the diameter)")(
      "segments", po::value<long>()->value_name("S")->default_value(0),
      "time the collisions undoable, in segments of S instants committed every S events (0: off)")(
      "io", po::value<std::string>()->value_name("DIR"),
      "time checkpoint writing into DIR instead (snapshot and collective write, 3 times), then 3 "
      "frames (DIR/bench-frames.h5, removed afterwards)");
  po::positional_options_description positional;
  po::variables_map values;
  if (!parse_command_line("bench",
                          "Times the elastic hard-sphere gas (diameter 1, mass 1, kT = 1,\n"
                          "number density 0.5, periodic cube, FCC start) and reports\n"
                          "collisions per second, all events per second and bytes per particle.",
                          args, options, positional, values)) {
    return kExitOk;
  }
  const long cells = values["cells"].as<long>();
  if (cells < 2) throw UsageError{"bench", "--cells must be at least 2"};
  const long segments = values["segments"].as<long>();
  if (segments < 0) throw UsageError{"bench", "--segments must be 0 or more"};
  const std::size_t baseline_bytes = warm_up_baseline();
  const Stopwatch setup;
  scenario::InitialParticles initial;
  const Model model =
      load_model_text(gas_model(cells, values["seed"].as<long>(), values["sector-size"].as<double>()),
                      "gas-benchmark", {}, &initial);
  const double n = static_cast<double>(initial.particles.size());
  engine::Engine engine(model, std::move(initial));
  std::printf("gas benchmark: N = %.0f (C = %ld), box %.4g^3, sector edge %.4g, setup %.2f s\n", n,
              cells, model.domain().length().x(), engine.grid().edge().x(), setup.seconds());
  if (values.count("io")) {
    time_checkpoints(engine, model, values["io"].as<std::string>());
    return kExitOk;
  }
  const Stopwatch melt;
  run_collisions(engine, static_cast<std::uint64_t>(values["melt"].as<double>() * n / 2.0));
  std::printf("melted: %llu collisions in %.2f s\n",
              static_cast<unsigned long long>(engine.statistics().collisions()), melt.seconds());
  time_collisions(engine, values["collisions"].as<double>(), baseline_bytes, static_cast<std::size_t>(segments));
  return kExitOk;
}

}  // namespace tethersim::app
