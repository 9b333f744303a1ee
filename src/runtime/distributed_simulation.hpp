#pragma once
// The system spread over the ranks of a communicator (decomposition/):
// every rank holds its block of sectors and a halo, and the collective
// calls of the run loop gather what the writers and the summary need.

#include "engine_frame.hpp"
#include "simulation.hpp"
#include "tethersim/decomposition/distributed_engine.hpp"

namespace tethersim::runtime {

class DistributedSimulation final : public Simulation {
 public:
  DistributedSimulation(const Model& model, MPI_Comm comm, const scenario::InitialSystem& initial,
                        const decomposition::DistributionSettings& settings);
  // `slice` is consumed: its storage goes once its particles are sent on.
  DistributedSimulation(const Model& model, MPI_Comm comm, engine::EngineSnapshot&& slice,
                        const decomposition::DistributionSettings& settings);

  MPI_Comm io_comm() const override { return engine_.comm(); }
  double time() const override { return engine_.time(); }
  bool advance(double end, std::uint64_t max_events) override { return engine_.advance(end, max_events); }
  // Windows end at consistent times: every event before, none after.
  double consistent_stop_time() override { return engine_.time(); }
  std::unique_ptr<FrameSource> frame_particles(double t) const override {
    return std::make_unique<EngineFrameParticles>(engine_.engine(), t);
  }
  std::unique_ptr<FrameTetherSource> frame_tethers() const override {
    return std::make_unique<FrameTetherList>(accounted_tethers(engine_.engine()));
  }
  FrameObservables observables(double t) const override;
  engine::EngineStatistics statistics() const override;
  engine::EngineSnapshot local_snapshot(double t) const override { return engine_.engine().snapshot_without_particles(t); }
  std::unique_ptr<engine::ParticleSource> local_particles() const override { return engine_.engine().particle_source(); }
  std::uint64_t state_hash() const override;
  std::size_t memory_bytes() const override { return engine_.engine().memory_bytes(); }
  std::uint64_t start_particles() const override { return engine_.start_particles(); }
  bool any_rank(bool local) const override;
  int ranks() const override { return engine_.ranks(); }
  void set_stop_poll(std::function<bool()> poll) override { engine_.set_stop_poll(std::move(poll)); }
  void set_stall_limit(std::uint64_t events) override { engine_.set_stall_limit(events); }
  bool stalled() const override { return engine_.halt() == decomposition::DistributedEngine::Halt::stall; }
  std::string stall_description() const override;
  std::optional<DistributionReport> distribution(double simulated_time) const override;
  void count_loop(bool counted) override { engine_.count_loop(counted); }

 private:
  const Model& model_;
  decomposition::DistributedEngine engine_;
};

}  // namespace tethersim::runtime
