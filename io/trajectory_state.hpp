#pragma once
// What an open trajectory holds between calls (private to io/), shared by
// its three parts: making a new file (trajectory_create.cpp), continuing
// one after a restart (trajectory_append.cpp), and writing frames and
// samples (trajectory_file.cpp).

#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "hdf5_support.hpp"
#include "tethersim/io/input_error.hpp"
#include "tethersim/io/trajectory_file.hpp"
#include "early_writeback.hpp"
#include "trajectory_layout.hpp"

namespace tethersim {

struct TrajectoryFile::State {
  // What creating and continuing a trajectory share: the communicator, the
  // path and the model's frame layout.
  static std::unique_ptr<State> make(const std::string& path, MPI_Comm comm, const Model& model, SlotMap rows);

  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  int ranks = 1;
  std::string path;
  SlotMap slots;  // the rows: every particle, or those of output.frame_species
  int dimensions = 3;
  Vec3 lo = Vec3::Zero();           // the box corner: frames store positions - lo
  std::vector<double> edge_matrix;  // [D, D], the box's edge vectors as rows
  bool write_velocity = true;
  bool single_precision = false;   // positions and velocities as floats
  bool write_tether_rows = false;  // ids are not rows: rows for the XDMF too
  bool write_tethers = true;
  std::vector<ObservableColumn> observables;  // the datasets under /observables
  io_detail::H5Id file;
  io_detail::H5Id transfer;
  std::vector<double> frame_times;
  std::vector<std::uint64_t> tether_counts;
  std::uint64_t observable_samples = 0;
  // One step clock for frames and samples: each output instant gets the
  // next number, and a frame and a sample at the same time share it.
  std::int64_t last_step = -1;
  double last_step_time = -kInfinity;
  hsize_t tether_rows = 0;  // second extent of the tethers dataset
  // A frame's rows on their way to the disk while the next round is made
  // (each frame is flushed before the run goes on).
  std::unique_ptr<io_detail::EarlyWriteback> writeback;

  std::int64_t step_at(double time);
  bool root() const { return rank == 0; }
  // Whether this file holds a per-frame dataset (its output.frame_fields,
  // and tether rows only when ids are not rows).
  bool holds(const io_detail::trajectory_layout::FrameDataset& set) const;
  // The per-frame datasets this file holds, in table order.
  std::vector<const io_detail::trajectory_layout::FrameDataset*> frame_datasets() const;
  // Secures the room on disk for what an operation allocates, before HDF5
  // writes any of it (hdf5_support.hpp: a write failing half-way cannot be
  // recovered from). Throws OutputError, with the file unchanged.
  void make_room(const io_detail::ChunkGrowth& growth, const std::string& what) const;
  // An HDF5 failure while writing, as one line naming the file.
  io_detail::OutputError failure(const std::string& what, const std::exception& e) const;
  // Writes one value (on rank 0) into row `row` of a growing 1-D/2-D dataset.
  void write_scalar_row(hid_t dataset, hid_t type, hsize_t row, const void* value) const;
};

namespace io_detail {

// The rows of a trajectory: every slot, or only the particles of the
// species output.frame_species names. `species` is every slot's species;
// `kept_species`, when given, gets each kept row's (only when some species
// are left out: otherwise the rows' species are `species`).
SlotMap frame_rows(const Model& model, SlotMap slots, const SlotSpecies& species,
                   std::vector<SpeciesIndex>* kept_species);

// The observables the trajectory holds, one dataset group each.
std::vector<ObservableColumn> trajectory_observables(const Model& model);

// The observable whose group holds the step and time of every sample (the
// others link to them).
std::string sample_clock();

// Every dataset a sample extends, in the order samples write them: the
// clock's step and time, then each observable's value.
std::vector<std::string> sample_datasets(const std::vector<ObservableColumn>& observables);

// Sets a growing dataset's frame count (its first extent).
void extend_frames(hid_t dataset, hsize_t frames);

}  // namespace io_detail
}  // namespace tethersim
