#pragma once
// Checkpoints: DIR/checkpoint.h5, the complete state of a run (every bit of
// the engine snapshot, the model text and overrides, version, time), written
// collectively by all ranks in particle-id order, readable on any number of
// ranks. A checkpoint is written to checkpoint.h5.tmp, flushed, and renamed
// only when complete; the previous one is kept as checkpoint.prev.h5. A
// content hash detects damage.

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tethersim/engine/particle_source.hpp"
#include "tethersim/engine/snapshot.hpp"
#include "tethersim/io/slot_map.hpp"
#include "tethersim/model/model.hpp"

namespace tethersim {

inline constexpr int kCheckpointFormatVersion = 1;

struct CheckpointHeader {
  int format_version = 0;
  std::string tethersim_version;
  double time = 0.0;
  std::uint64_t particles = 0;
  std::uint64_t seed = 0;
  std::string model_name;
  std::uint64_t model_hash = 0;
  std::uint64_t physics_hash = 0;
  std::string model_path;
  std::string model_text;
  std::vector<std::string> overrides;
};

// Collective. `local` holds what this rank owns: its particles, the tethers
// and loaded edges whose lower-id particle it owns, its escapes, releases
// and statistics; time, periodic ticks and the action-potential window are
// the same on every rank. Returns the path written (DIR/checkpoint.h5).
// `particles` hands out the rank's particles (and Phi values) in id order
// a slab at a time, so that no decoded copy of them all is held beside the
// rows (engine::Engine::particle_source); `local`'s own particles are not
// read.
std::string write_checkpoint(const std::string& directory, MPI_Comm comm, const Model& model,
                             const SlotMap& slots, engine::EngineSnapshot local,
                             const engine::ParticleSource& particles);
// The same from a whole snapshot, its particles included.
std::string write_checkpoint(const std::string& directory, MPI_Comm comm, const Model& model,
                             const SlotMap& slots, engine::EngineSnapshot local);

// Reads and checks the header (format, version, completeness). Serial.
// Throws InputError naming the file for anything missing, foreign,
// truncated or of an incompatible version.
CheckpointHeader read_checkpoint_header(const std::string& path);

// Collective. Reads the state and verifies its content hash. With
// `everything_on_root`, rank 0 gets the whole state and the other ranks
// none; otherwise each rank gets a contiguous slice of particles, tethers
// and edges (to be redistributed by position). Escapes, releases and
// statistics go to rank 0.
engine::EngineSnapshot read_checkpoint(const std::string& path, MPI_Comm comm,
                                       bool everything_on_root);

}  // namespace tethersim
