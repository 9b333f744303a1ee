// Writes a trajectory and a checkpoint of one deterministic state with the
// particles scattered over however many ranks run it; the files must not
// depend on that number. Then reads the checkpoint back in slices and
// checks that together they hold the whole state.
//   mpirun -np N tethersim_io_ranks_writer OUTPUT_DIR SOURCE_DIR
#include <mpi.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "tethersim/engine/engine.hpp"
#include "tethersim/io/checkpoint_file.hpp"
#include "tethersim/io/model_file.hpp"
#include "tethersim/io/trajectory_file.hpp"
#include "tethersim/physics/counter_rng.hpp"

using namespace tethersim;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (argc != 3) {
    if (rank == 0) std::fprintf(stderr, "usage: %s OUTPUT_DIR SOURCE_DIR\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const std::string out = argv[1];
  if (rank == 0) std::filesystem::create_directories(out);
  MPI_Barrier(MPI_COMM_WORLD);
  int failures = 0;
  auto fail = [&](const char* what) {
    std::fprintf(stderr, "rank %d: %s\n", rank, what);
    ++failures;
  };

  // Every rank computes the same state: a small presynaptic terminal at t = 30.
  std::ifstream in(std::string(argv[2]) + "/examples/presynaptic.toml");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  scenario::InitialParticles initial;
  ModelFileOptions options;
  options.overrides = {"initial.parameters.vesicles=20", "initial.parameters.synapsin_dimers=60",
                       "initial.parameters.docking_sites=10", "output.frame_interval=10.0",
                       "output.directory=\"unused\"", "action_potential.windows=[{ start = 10.0, end = 40.0 }]"};
  const Model model = load_model_text(text, "presynaptic.toml", options, &initial);
  std::vector<ParticleId> ids;
  SlotSpecies species;  // every slot's
  for (const ParticleSpec& p : initial.particles) {
    ids.push_back(p.id);
    species.species.push_back(p.species);
  }
  const SlotMap slots(ids);
  engine::Engine engine(model, initial);

  // This rank "owns" a scattered subset: by a hash of the id.
  auto owner = [&](ParticleId id) { return static_cast<int>(physics::mix_hash(id, 99) % static_cast<std::uint64_t>(ranks)); };
  TrajectoryFile trajectory = TrajectoryFile::create(out + "/trajectory.h5", MPI_COMM_WORLD, model, slots, species,
                                                     initial.tethers.size());
  for (double t : {0.0, 10.0, 20.0, 30.0}) {
    engine.run_until(t);
    std::vector<FrameParticle> particles;
    std::vector<FrameTether> tethers;
    const engine::EngineSnapshot s = engine.snapshot(t);
    for (const auto& p : s.particles) {
      if (p.alive && owner(p.id) == rank) particles.push_back({p.id, p.u0 + p.v * (t - p.t0), p.v});
    }
    for (const auto& e : s.tethers) {
      if (owner(e.a) == rank) tethers.push_back({e.a, e.b});
    }
    FrameTetherList tether_list(std::move(tethers));
    trajectory.write_frame(t, FrameParticleList(std::move(particles)), tether_list);
    FrameObservables o;
    o.kinetic_energy = engine.kinetic_energy();
    o.momentum = engine.momentum();
    o.particles = engine.alive_count();
    o.tethers = s.tethers.size();
    o.clusters = {engine.cluster_count(*model.find_species("V"))};
    o.tethered = {engine.tethered_count(*model.find_species("V"), *model.find_species("D"))};
    trajectory.write_observables(t, o);
  }
  trajectory.close();

  // The checkpoint: each rank passes its share of everything.
  const engine::EngineSnapshot whole = engine.snapshot(30.0);
  engine::EngineSnapshot mine = whole;
  mine.particles.clear();
  mine.tethers.clear();
  mine.loaded_edges.clear();
  for (auto& column : mine.reaction_times) column.clear();
  for (std::size_t k = 0; k < whole.particles.size(); ++k) {
    if (owner(whole.particles[k].id) != rank) continue;
    mine.particles.push_back(whole.particles[k]);
    for (std::size_t r = 0; r < whole.reaction_times.size(); ++r) {
      mine.reaction_times[r].push_back(whole.reaction_times[r][k]);
    }
  }
  for (const auto& t : whole.tethers) {
    if (owner(t.a) == rank) mine.tethers.push_back(t);
  }
  for (const auto& e : whole.loaded_edges) {
    if (owner(e.a) == rank) mine.loaded_edges.push_back(e);
  }
  if (rank != 0) {
    mine.escapes.clear();
    mine.releases.clear();
    mine.statistics = engine::EngineStatistics{};
  }
  write_checkpoint(out, MPI_COMM_WORLD, model, slots, std::move(mine));

  // Read back in slices: together they are the whole state.
  const engine::EngineSnapshot slice = read_checkpoint(out + "/checkpoint.h5", MPI_COMM_WORLD, false);
  std::uint64_t counts[3] = {slice.particles.size(), slice.tethers.size(), slice.loaded_edges.size()};
  std::uint64_t totals[3] = {0, 0, 0};
  MPI_Allreduce(counts, totals, 3, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (totals[0] != whole.particles.size()) fail("particle slices do not add up");
  if (totals[1] != whole.tethers.size()) fail("tether slices do not add up");
  if (totals[2] != whole.loaded_edges.size()) fail("loaded-edge slices do not add up");
  for (const auto& p : slice.particles) {
    const auto& q = *std::lower_bound(whole.particles.begin(), whole.particles.end(), p.id,
                                      [](const engine::ParticleSnapshot& x, ParticleId id) { return x.id < id; });
    if (!(q.u0 == p.u0) || !(q.v == p.v) || q.t0 != p.t0 || q.counter != p.counter || q.sector != p.sector) {
      fail("a particle read back differs");
      break;
    }
  }
  // Everything on rank 0: rebuilds an engine that continues identically.
  const engine::EngineSnapshot all = read_checkpoint(out + "/checkpoint.h5", MPI_COMM_WORLD, true);
  if (rank == 0) {
    engine::Engine resumed(model, all);
    if (resumed.state_hash() != engine.state_hash()) fail("the restored engine differs");
    engine.run_until(50.0);
    resumed.run_until(50.0);
    if (resumed.state_hash() != engine.state_hash()) fail("the restored engine diverges");
    if (all.escapes.size() != whole.escapes.size() || all.releases.size() != whole.releases.size()) {
      fail("escapes or releases lost");
    }
  }
  int any = 0;
  MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && any == 0) std::printf("io on %d ranks: ok\n", ranks);
  MPI_Finalize();
  return any == 0 ? 0 : 1;
}
