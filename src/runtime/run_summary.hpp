#pragma once
// The end of a run: summary.json and the table printed on the terminal.

#include <cstdio>
#include <string>
#include <vector>

#include <optional>

#include "distribution_report.hpp"
#include "observables.hpp"
#include "rank_memory.hpp"
#include "tethersim/engine/statistics.hpp"
#include "tethersim/io/trajectory_file.hpp"

namespace tethersim::runtime {

struct RunTotals {
  double start_time = 0.0;
  double end_time = 0.0;
  double wall_seconds = 0.0;
  int ranks = 1;
  bool restarted = false;    // continued from a checkpoint
  bool interrupted = false;  // stopped early by a signal or the wall-time limit
  FrameObservables initial;
  FrameObservables final;
  std::uint64_t state_hash = 0;
  std::uint64_t frames = 0;
  std::size_t memory_bytes = 0;  // the engine's data structures
  std::size_t peak_resident_bytes = 0;
  std::size_t baseline_resident_bytes = 0;
  std::vector<RankMemory> rank_memory;  // every rank's, in rank order
  // Counters carried over from before a restart (speeds are of this run).
  std::uint64_t events_before = 0;
  std::uint64_t collisions_before = 0;
  // Checkpoint writing: how many, their total size and time.
  std::uint64_t checkpoints = 0;
  std::uint64_t checkpoint_bytes = 0;
  double checkpoint_seconds = 0.0;
  // Frame writing in this run: how many, what they added to the
  // trajectory, and their time.
  std::uint64_t frames_written = 0;
  std::uint64_t frame_bytes = 0;
  double frame_seconds = 0.0;
  // Synchronization counters of a distributed run.
  std::optional<DistributionReport> distribution;
};

std::string summary_json(const Model& model, const engine::EngineStatistics& statistics,
                         const RunTotals& totals);
void print_summary(std::FILE* out, const Model& model, const engine::EngineStatistics& statistics,
                   const RunTotals& totals);

// Writes a file completely under a temporary name, then renames it: a
// reader never sees half a file, and a failure leaves the old one intact.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace tethersim::runtime
