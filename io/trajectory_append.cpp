// Continuing a trajectory after a restart: first everything that makes the
// file this run's and everything the run will write is checked, with
// nothing changed; then the frames and samples after the restart time are
// cut off (they are written again).

#include <algorithm>
#include <cmath>

#include "tethersim/model/hash_text.hpp"
#include "tethersim/mpi/collectives.hpp"
#include "tethersim/mpi/reductions.hpp"
#include "trajectory_state.hpp"

namespace tethersim {

using namespace io_detail;
using namespace io_detail::trajectory_layout;

namespace {

InputError another_run(const std::string& path, const std::string& why) {
  return InputError({path, 0}, "",
                    "this trajectory belongs to another run (" + why + "): continue into a new --output directory");
}

bool holds_floats(hid_t dataset) {
  H5Id type(checked(H5Dget_type(dataset), "dataset type"));
  return H5Tget_class(type) == H5T_FLOAT && H5Tget_size(type) == sizeof(float);
}

std::vector<double> read_times(hid_t file, const std::string& name) {
  H5Id times = open_dataset(file, name);
  const hsize_t stored = dataset_shape(times)[0];
  std::vector<double> values(stored);
  read_rows(times, H5T_NATIVE_DOUBLE, {}, 0, stored, values.data());
  return values;
}

// How many of the sorted instants are at or before `time`.
hsize_t count_up_to(const std::vector<double>& instants, double time) {
  // A frame cut short by a kill ends the list with its time NaN (written
  // last): never kept, and no place in the search, which wants an order.
  auto end = instants.end();
  while (end != instants.begin() && std::isnan(*(end - 1))) --end;
  return static_cast<hsize_t>(std::upper_bound(instants.begin(), end, time) - instants.begin());
}

// The file is this model's: the physics hash, the layout, and (for models
// whose initial state is in the model file itself) the model hash.
void check_same_model(hid_t parameters, const std::string& path, const Model& model) {
  if (read_string_attribute(parameters, "physics_hash") != hash_text(model.physics_hash())) {
    throw InputError({path, 0}, "", "this trajectory belongs to another model (physics hash differs)");
  }
  if (!has_attribute(parameters, "layout") || read_integer_attribute(parameters, "layout") != kLayout) {
    throw InputError({path, 0}, "",
                     "this trajectory has an older layout (written by tethersim " +
                         read_string_attribute(parameters, "tethersim_version") +
                         "): continue into a new --output directory");
  }
  // The model hash adds the initial state. A restart does not read the
  // particle and tether files again, so its hash lacks them: for such
  // models the particles themselves are compared (check_row_ids).
  const std::string file_hash = read_string_attribute(parameters, "model_hash");
  if (model.initial().particles_file.empty() && model.initial().tethers_file.empty() &&
      model.initial().from.empty() && file_hash != hash_text(model.hash())) {
    throw another_run(path, "its model hash is " + file_hash + ", the checkpoint's model has " +
                                hash_text(model.hash()));
  }
}

// The optional parts this file was created with, and that it has every
// per-frame dataset they imply.
void find_frame_datasets(TrajectoryFile::State& s) {
  s.write_velocity = exists(s.file, kVelocity);
  s.write_tethers = exists(s.file, kTethers);
  s.write_tether_rows = exists(s.file, frame_dataset(FrameSet::tether_rows).path());
  for (const FrameDataset* entry : s.frame_datasets()) {
    if (!exists(s.file, entry->path())) throw Hdf5Error("missing dataset " + entry->path());
  }
}

std::string listed(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return names.empty() ? std::string("every species") : text;
}

// The same rows: as many, of the same dimension and the same species, in
// the precision (and compression) the file was created with (its datasets
// are not rewritten).
void check_rows(TrajectoryFile::State& s, hid_t parameters, const Model& model) {
  H5Id positions = open_dataset(s.file, frame_dataset(FrameSet::position).path());
  const std::vector<hsize_t> shape = dataset_shape(positions);
  const hsize_t rows = shape.size() == 3 ? shape[1] : 0;
  if (shape.size() != 3 || shape[2] != static_cast<hsize_t>(s.dimensions)) {
    throw another_run(s.path, "it is not " + std::to_string(s.dimensions) + "-D");
  }
  const std::vector<std::string> file_species = has_attribute(parameters, "frame_species")
                                                    ? read_string_list_attribute(parameters, "frame_species")
                                                    : std::vector<std::string>{};
  if (file_species != model.output().frame_species) {
    throw InputError({s.path, 0}, "output.frame_species",
                     "this trajectory holds " + listed(file_species) + ", the run asks for " +
                         listed(model.output().frame_species) +
                         ": keep output.frame_species as it was, or continue into a new --output directory");
  }
  if (rows != s.slots.size()) {
    throw another_run(s.path, "it has " + std::to_string(rows) + " particle rows, the checkpoint " +
                                  std::to_string(s.slots.size()) + " particles");
  }
  s.single_precision = holds_floats(positions);
  s.transfer = data_transfer(has_filters(positions));
}

// The observables this run samples, as the file has them. A trajectory
// written before a scalar observable existed (temperature) goes on without
// it: observables.jsonl and summary.json still have it.
void check_observables(TrajectoryFile::State& s) {
  auto value_of = [](const ObservableColumn& column) {
    return std::string(kObservables) + "/" + column.name + "/value";
  };
  std::erase_if(s.observables, [&](const ObservableColumn& column) {
    return column.field->items == ObservableItems::one && !exists(s.file, value_of(column));
  });
  for (const ObservableColumn& column : s.observables) {
    if (!exists(s.file, value_of(column))) {
      throw InputError({s.path, 0}, "output",
                       "this trajectory has no observable '" + column.name +
                           "': keep output.cluster_species and output.tethered_pairs as they were, "
                           "or continue into a new --output directory");
    }
  }
  for (const std::string& name : sample_datasets(s.observables)) {
    if (!exists(s.file, name)) throw Hdf5Error("missing dataset " + name);
  }
}

// The frames up to the restart time are kept; later ones are redone (a
// frame cut short by a crash among them). Returns how many are kept.
hsize_t frames_kept(TrajectoryFile::State& s, double time) {
  std::vector<double> frame_times = read_times(s.file, frame_dataset(FrameSet::time).path());
  const hsize_t kept = count_up_to(frame_times, time);
  for (const FrameDataset* entry : s.frame_datasets()) {
    if (dataset_shape(open_dataset(s.file, entry->path()))[0] < kept) {
      throw Hdf5Error(entry->path() + " does not have one entry per frame");
    }
  }
  frame_times.resize(kept);
  s.frame_times = std::move(frame_times);
  return kept;
}

// The same particles in the same rows: the id of every row that holds a
// particle in the last frame kept (or the first), each rank its own rows.
void check_row_ids(const TrajectoryFile::State& s, hsize_t kept) {
  H5Id id_set = open_dataset(s.file, frame_dataset(FrameSet::id).path());
  const hsize_t frame = kept > 0 ? kept - 1 : 0;
  if (frame >= dataset_shape(id_set)[0]) return;
  const SlotRange mine = slot_range(s.slots.size(), s.ranks, s.rank);
  std::vector<std::int64_t> ids(mine.size());
  read_rows(id_set, H5T_NATIVE_INT64, {frame}, mine.begin, mine.size(), ids.data());
  int mismatch = 0;
  std::uint64_t row = 0;
  for (std::uint64_t k = 0; k < ids.size() && mismatch == 0; ++k) {
    if (ids[k] >= 0 && static_cast<ParticleId>(ids[k]) != s.slots.id(mine.begin + k)) {
      mismatch = 1;
      row = mine.begin + k;
    }
  }
  if (mpi::any_rank(mismatch != 0, s.comm)) {
    throw another_run(s.path, mismatch != 0 ? "its row " + std::to_string(row) + " holds another particle id"
                                            : "its rows hold other particle ids");
  }
}

// The kept frames' tether counts (the XDMF sidecar needs them) and the
// tether datasets' row extent.
void read_tether_counts(TrajectoryFile::State& s, hsize_t kept) {
  std::vector<std::int64_t> raw(kept);
  read_rows(open_dataset(s.file, frame_dataset(FrameSet::tether_counts).path()), H5T_NATIVE_INT64, {}, 0, kept,
            raw.data());
  s.tether_counts.assign(raw.begin(), raw.end());
  if (s.write_tethers) s.tether_rows = dataset_shape(open_dataset(s.file, frame_dataset(FrameSet::tethers).path()))[1];
}

// The samples up to the restart time are kept, and the step clock goes on
// from the last instant kept, frame or sample.
void read_clock(TrajectoryFile::State& s, double time) {
  const std::vector<double> sample_times = read_times(s.file, sample_clock() + "/time");
  s.observable_samples = count_up_to(sample_times, time);
  auto last_of = [&](const std::string& group, hsize_t count, const std::vector<double>& instants) {
    if (count == 0) return;
    std::int64_t step = 0;
    read_rows(open_dataset(s.file, group + "/step"), H5T_NATIVE_INT64, {}, count - 1, 1, &step);
    if (step > s.last_step) {
      s.last_step = step;
      s.last_step_time = instants[count - 1];
    }
  };
  last_of(kPosition, s.frame_times.size(), s.frame_times);
  last_of(sample_clock(), s.observable_samples, sample_times);
  for (const std::string& name : sample_datasets(s.observables)) {
    if (dataset_shape(open_dataset(s.file, name))[0] < s.observable_samples) {
      throw Hdf5Error(name + " does not have one entry per sample");
    }
  }
}

// Removes the frames and samples after the restart.
void cut_back(TrajectoryFile::State& s) {
  // Every rank has read what it needs before any rank changes the file:
  // the reads above are each rank's own, and removing the samples after the
  // checkpoint rewrites the chunk they share with the kept ones (fill
  // values past the new end). Without this, a rank still reading saw a
  // removed sample time as 0, kept one sample more than the others, and
  // the first sample written then hung the ranks in different HDF5 calls.
  mpi::barrier(s.comm);
  // The file must be writable here: changing it in place needs the room
  // too (at a file size limit, even rewriting what is there fails).
  ensure_room(s.path, ChunkGrowth{}.room(), s.comm, "the trajectory");
  try {
    for (const FrameDataset* entry : s.frame_datasets()) {
      extend_frames(open_dataset(s.file, entry->path()), s.frame_times.size());
    }
    for (const std::string& name : sample_datasets(s.observables)) {
      extend_frames(open_dataset(s.file, name), s.observable_samples);
    }
  } catch (const Hdf5Error& e) {
    throw s.failure("the trajectory (removing the frames after the checkpoint)", e);
  }
}

}  // namespace

TrajectoryFile TrajectoryFile::append(const std::string& path, MPI_Comm comm, const Model& model, SlotMap slots,
                                      const SlotSpecies& species, double time) {
  auto s = State::make(path, comm, model, frame_rows(model, std::move(slots), species, nullptr));
  s->observables = trajectory_observables(model);
  H5Id fapl = mpio_file_access(comm);
  s->file = H5Id(H5Fopen(path.c_str(), H5F_ACC_RDWR, fapl));
  if (!s->file.valid()) {
    throw InputError({path, 0}, "", "cannot open the trajectory to continue it (missing or damaged)");
  }
  try {
    if (!exists(s->file, kParameters)) {
      throw InputError({path, 0}, "", "not a tethersim trajectory (no " + std::string(kParameters) + ")");
    }
    H5Id parameters = open_group(s->file, kParameters);
    check_same_model(parameters, path, model);
    find_frame_datasets(*s);
    check_rows(*s, parameters, model);
    check_observables(*s);
    const hsize_t kept = frames_kept(*s, time);
    check_row_ids(*s, kept);
    read_tether_counts(*s, kept);
    read_clock(*s, time);
  } catch (const Hdf5Error& e) {
    throw InputError({path, 0}, "", std::string("cannot continue this trajectory: damaged: ") + e.what());
  }
  cut_back(*s);
  return TrajectoryFile(std::move(s));
}

}  // namespace tethersim
