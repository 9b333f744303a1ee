#pragma once
// The whole system in one engine on one process.

#include <memory>

#include "engine_frame.hpp"
#include "simulation.hpp"
#include "tethersim/decomposition/round_recorder.hpp"
#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/poll_pacer.hpp"
#include "tethersim/engine/stall_watch.hpp"

namespace tethersim::runtime {

class SerialSimulation final : public Simulation {
 public:
  SerialSimulation(const Model& model, scenario::InitialParticles initial);
  SerialSimulation(const Model& model, const engine::EngineSnapshot& snapshot);

  MPI_Comm io_comm() const override { return MPI_COMM_SELF; }
  double time() const override { return time_; }
  bool advance(double end, std::uint64_t max_events) override;
  bool run(double end, std::uint64_t max_events);
  double consistent_stop_time() override;
  std::unique_ptr<FrameSource> frame_particles(double t) const override {
    return std::make_unique<EngineFrameParticles>(engine_, t);
  }
  std::unique_ptr<FrameTetherSource> frame_tethers() const override {
    return std::make_unique<EngineFrameTethers>(engine_);
  }
  FrameObservables observables(double t) const override;
  engine::EngineStatistics statistics() const override { return engine_.statistics(); }
  engine::EngineSnapshot local_snapshot(double t) const override { return engine_.snapshot_without_particles(t); }
  std::unique_ptr<engine::ParticleSource> local_particles() const override { return engine_.particle_source(); }
  std::uint64_t state_hash() const override { return engine_.state_hash(); }
  std::size_t memory_bytes() const override { return engine_.memory_bytes(); }
  std::uint64_t start_particles() const override { return start_particles_; }
  bool any_rank(bool local) const override { return local; }
  int ranks() const override { return 1; }
  void set_stop_poll(std::function<bool()> poll) override { stop_poll_ = std::move(poll); }
  void set_stall_limit(std::uint64_t events) override { watch_ = engine::StallWatch(events); }
  bool stalled() const override { return stalled_; }
  std::string stall_description() const override { return stall_description_; }
  void count_loop(bool counted) override {
    if (recorder_) recorder_->count_loop(counted);
  }

  const engine::Engine& engine() const { return engine_; }
  // Writes a round record of every advance() into `directory`, as a
  // distributed run writes one per window (--record-rounds).
  void record_rounds(const std::string& directory) {
    recorder_ = std::make_unique<decomposition::RoundRecorder>(directory, 0, 1);
  }

 private:
  const Model& model_;
  engine::Engine engine_;
  std::uint64_t start_particles_ = engine_.particles().size();
  double time_;
  std::function<bool()> stop_poll_;
  engine::StallWatch watch_;
  engine::PollPacer pacer_;
  bool stalled_ = false;
  std::string stall_description_;
  std::unique_ptr<decomposition::RoundRecorder> recorder_;
};

}  // namespace tethersim::runtime
