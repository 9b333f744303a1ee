#pragma once
// The trajectory of a run: DIR/trajectory.h5 in the H5MD 1.1 layout, written
// collectively by every rank through parallel HDF5, and the XDMF sidecar
// DIR/trajectory.xdmf that ParaView and VisIt open directly.
//
// Layout (docs/output-format.md):
//   /h5md                            version, author, creator
//   /particles/all/box               dimension, boundary; edges [frames, D, D]; offset
//   /particles/all/position          step, time, value [frames, N, D] (box frame: - offset)
//   /particles/all/velocity          (hard links to the same step, time)
//   /particles/all/id                value [frames, N]: -1 for particles gone
//   /particles/all/species           [N] species index (names as attribute)
//   /particles/all/mass              [N]
//   /connectivity/tethers            step, time, value [frames, M, 2] (ids, -1 fill)
//   /observables/<name>              step, time, value
//   /parameters/tethersim            model text, hashes, tether counts per frame
// Rows are slots: particles in id order, whatever rank wrote them.

#include <mpi.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tethersim/io/frame_source.hpp"
#include "tethersim/io/observable_fields.hpp"
#include "tethersim/io/slot_map.hpp"
#include "tethersim/model/model.hpp"

namespace tethersim {

class TrajectoryFile {
 public:
  // Creates a new file (replacing none: the caller checked the directory).
  // `slots` are every particle's; `species` the species of at least the
  // slots this rank writes (slot_range), of every slot when
  // output.frame_species keeps only some: the file's rows are those of
  // output.frame_species. Collective over `comm`.
  // `expected_tethers` sizes the tether chunks (the initial count is fine).
  static TrajectoryFile create(const std::string& path, MPI_Comm comm, const Model& model,
                               SlotMap slots, const SlotSpecies& species,
                               std::uint64_t expected_tethers);
  // Reopens a trajectory to continue it after a restart at `time`: frames
  // and observables after `time` are removed first (after checking that the
  // file belongs to the model and has its observables and fields: nothing
  // is changed when it does not). Collective.
  // `slots` and `species` as for create: a trajectory of some species
  // (output.frame_species) keeps the same rows when continued.
  static TrajectoryFile append(const std::string& path, MPI_Comm comm, const Model& model,
                               SlotMap slots, const SlotSpecies& species, double time);

  TrajectoryFile(TrajectoryFile&&) noexcept;
  TrajectoryFile& operator=(TrajectoryFile&&) noexcept;
  ~TrajectoryFile();

  // Collective: every rank passes the particles it owns and the tethers
  // whose lower-id particle it owns. The particles are read a round at a
  // time (at most 32 768 rows per rank each).
  // One process reads `tethers` a slab at a time; several take them whole
  // (and release them as soon as their rows are made).
  void write_frame(double time, const FrameSource& particles, FrameTetherSource& tethers);
  // Collective; the values must be equal on every rank. Returns the
  // sample's step (the clock frames and samples share), for the other
  // files that record it (observables.jsonl).
  std::int64_t write_observables(double time, const FrameObservables& observables);

  std::uint64_t frames() const;
  // The file's path, as created or continued.
  const std::string& path() const;
  // Flushes the file (collective) and rewrites the XDMF sidecar for the
  // frames so far (rank 0). Frames are flushed as they are written,
  // observable samples here; call it before writing a checkpoint. The
  // sidecar is refreshed here (at checkpoints and on close), not after
  // every frame.
  void flush();
  void close();

 // What an open file holds; defined in io/, where its parts share it.
  struct State;

 private:
  explicit TrajectoryFile(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// Writes DIR/trajectory.xdmf for a trajectory's frames (rank 0 only): one
// temporal collection of point sets (all rows: particles that left are NaN)
// and one of tether line sets (each frame exactly its valid rows) from the
// dataset `tether_rows` of row pairs (none when empty). `value_bytes` is 4
// when positions and velocities are stored as floats, 8 for doubles.
void write_xdmf(const std::string& xdmf_path, const std::string& h5_name, std::uint64_t particles,
                int dimensions, const std::vector<double>& frame_times,
                const std::vector<std::uint64_t>& tether_counts, std::uint64_t tether_extent,
                bool velocity, int value_bytes, const std::string& tether_rows);

}  // namespace tethersim
