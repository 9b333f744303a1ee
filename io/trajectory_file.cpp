#include "tethersim/io/trajectory_file.hpp"

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <optional>

#include "hdf5_support.hpp"
#include "slot_exchange.hpp"
#include "tethersim/io/input_error.hpp"
#include "tethersim/model/hash_text.hpp"
#include "tethersim/model/number_format.hpp"
#include "tethersim/mpi/collectives.hpp"
#include "tethersim/version.hpp"

namespace tethersim {

using namespace io_detail;

namespace {

constexpr const char* kPosition = "/particles/all/position";
constexpr const char* kVelocity = "/particles/all/velocity";
constexpr const char* kId = "/particles/all/id";
constexpr const char* kTethers = "/connectivity/tethers";
constexpr const char* kObservables = "/observables";
constexpr const char* kParameters = "/parameters/tethersim";
constexpr const char* kEdges = "/particles/all/box/edges";
constexpr const char* kTetherRows = "/parameters/tethersim/tether_rows";
// The layout version of /parameters/tethersim "layout": 2 stores the box per
// frame, positions in the box frame, tethers as ids and one step clock.
// A file of another layout is not continued (its datasets mean other
// things), only read.
constexpr std::int64_t kLayout = 2;

// A FrameParticle on its way to the rank that writes its row, flat so that
// it travels as bytes (not engine::ParticleRecord, which carries a whole
// particle and its attachments between ranks).
struct FrameRow {
  std::uint64_t slot;
  std::int64_t id;
  double position[3];
  double velocity[3];
};

struct TetherRow {
  std::uint64_t slot;  // of the lower-id particle: the row order
  std::uint64_t other;
};

std::string user_name() {
  // Batch jobs and containers often run without USER or LOGNAME set.
  for (const char* variable : {"USER", "LOGNAME"}) {
    const char* user = std::getenv(variable);
    if (user != nullptr && *user != '\0') return user;
  }
  if (const passwd* entry = getpwuid(getuid()); entry != nullptr && entry->pw_name != nullptr) {
    return entry->pw_name;
  }
  return "unknown";
}

// An H5MD unit attribute, when the model names the unit.
// A variable-length UTF-8 string, as h5py writes them: readers get a str,
// not bytes (MDAnalysis looks the unit up in a table of str).
void write_unit(hid_t object, const std::string& unit) {
  if (unit.empty()) return;
  H5Id type(checked(H5Tcopy(H5T_C_S1), "unit string type"));
  checked(H5Tset_size(type, H5T_VARIABLE), "unit string type");
  checked(H5Tset_cset(type, H5T_CSET_UTF8), "unit string type");
  H5Id space(checked(H5Screate(H5S_SCALAR), "unit space"));
  H5Id attribute(checked(H5Acreate2(object, "unit", type, space, H5P_DEFAULT, H5P_DEFAULT), "unit attribute"));
  const char* text = unit.c_str();
  checked(H5Awrite(attribute, type, &text), "writing a unit");
}

// The rows of a trajectory: every slot, or only the particles of the
// species output.frame_species names. `species` is every slot's species;
// `kept_species`, when given, gets each kept row's (only when some species
// are left out: otherwise the rows' species are `species`).
SlotMap frame_rows(const Model& model, SlotMap slots, const SlotSpecies& species,
                   std::vector<SpeciesIndex>* kept_species) {
  const std::vector<std::string>& kept = model.output().frame_species;
  if (kept.empty()) return slots;
  if (!species.covers(0, slots.size())) {
    throw std::logic_error("output.frame_species needs every slot's species on every rank");
  }
  std::vector<bool> keep(model.species().size(), false);
  for (const std::string& name : kept) {
    if (const auto index = model.find_species(name)) keep[*index] = true;
  }
  std::vector<ParticleId> ids;
  for (std::uint64_t slot = 0; slot < slots.size(); ++slot) {
    if (!keep[species.at(slot)]) continue;
    ids.push_back(slots.id(slot));
    if (kept_species != nullptr) kept_species->push_back(species.at(slot));
  }
  return SlotMap(std::move(ids));
}

// Positions and velocities as the file stores them: the values of a frame
// are made in doubles and narrowed here when the file holds floats.
void write_values(hid_t set, bool single, const std::vector<hsize_t>& frame, std::uint64_t first_row,
                  std::uint64_t rows, const std::vector<double>& values, hid_t transfer) {
  if (!single) {
    write_rows(set, H5T_NATIVE_DOUBLE, frame, first_row, rows, values.data(), transfer);
    return;
  }
  const std::vector<float> narrowed(values.begin(), values.end());
  write_rows(set, H5T_NATIVE_FLOAT, frame, first_row, rows, narrowed.data(), transfer);
}

bool holds_floats(hid_t dataset) {
  H5Id type(checked(H5Dget_type(dataset), "dataset type"));
  return H5Tget_class(type) == H5T_FLOAT && H5Tget_size(type) == sizeof(float);
}

void extend_frames(hid_t dataset, hsize_t frames) {
  std::vector<hsize_t> shape = dataset_shape(dataset);
  shape[0] = frames;
  checked(H5Dset_extent(dataset, shape.data()), "extending a dataset");
}

// The observables the trajectory holds, one dataset group each.
std::vector<ObservableColumn> trajectory_observables(const Model& model) {
  std::vector<ObservableColumn> columns;
  for (ObservableColumn& column : observable_columns(model)) {
    if (column.field->in(kInTrajectory)) columns.push_back(std::move(column));
  }
  return columns;
}

// The observable whose group holds the step and time of every sample (the
// others link to them).
std::string sample_clock() { return std::string(kObservables) + "/" + std::string(kObservableFields[0].name); }

// Every dataset a sample extends, in the order samples write them: the
// clock's step and time, then each observable's value.
std::vector<std::string> sample_datasets(const std::vector<ObservableColumn>& observables) {
  std::vector<std::string> sets = {sample_clock() + "/step", sample_clock() + "/time"};
  for (const ObservableColumn& column : observables) {
    sets.push_back(std::string(kObservables) + "/" + column.name + "/value");
  }
  return sets;
}

std::string observable_unit(const Model& model, ObservableUnit unit) {
  switch (unit) {
    case ObservableUnit::energy: return model.units().energy();
    case ObservableUnit::momentum: return model.units().momentum();
    case ObservableUnit::none: break;
  }
  return "";
}

// /observables/<name>: value [samples] or [samples, columns], and the
// step and time of the samples (made once, linked from the clock's group).
void create_observable(hid_t observables, const ObservableColumn& column, const Model& model) {
  H5Id group = create_group(observables, column.name);
  const hid_t type = column.field->type() == ObservableType::count ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE;
  H5Id value = column.columns == 0
                   ? create_extensible_dataset(group, "value", type, {}, {1024})
                   : create_extensible_dataset(group, "value", type, {column.columns}, {256, column.columns});
  if (column.field->items == ObservableItems::per_event_kind) {
    write_attribute(value, "columns", std::vector<std::string>(kEventCountColumns.begin(), kEventCountColumns.end()));
  }
  write_unit(value, observable_unit(model, column.field->unit));
  if (column.field == &kObservableFields[0]) {
    create_extensible_dataset(group, "step", H5T_NATIVE_INT64, {}, {1024});
    write_unit(create_extensible_dataset(group, "time", H5T_NATIVE_DOUBLE, {}, {1024}), model.units().time);
    return;
  }
  for (const char* part : {"step", "time"}) {
    checked(H5Lcreate_hard(observables, (std::string(kObservableFields[0].name) + "/" + part).c_str(), group, part,
                           H5P_DEFAULT, H5P_DEFAULT),
            "linking observables");
  }
}

}  // namespace

struct TrajectoryFile::State {
  // What creating and continuing a trajectory share: the communicator, the
  // path and the model's frame layout.
  static std::unique_ptr<State> make(const std::string& path, MPI_Comm comm, const Model& model, SlotMap rows) {
    silence_hdf5_errors();
    auto s = std::make_unique<State>();
    s->comm = comm;
    MPI_Comm_rank(comm, &s->rank);
    MPI_Comm_size(comm, &s->ranks);
    s->path = path;
    s->slots = std::move(rows);
    s->dimensions = model.dimensions();
    s->lo = model.domain().lo;
    const auto d = static_cast<std::size_t>(s->dimensions);
    s->edge_matrix.assign(d * d, 0.0);
    for (std::size_t k = 0; k < d; ++k) s->edge_matrix[k * d + k] = model.domain().length()[static_cast<int>(k)];
    return s;
  }
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  int ranks = 1;
  std::string path;
  SlotMap slots;  // the rows: every particle, or those of output.frame_species
  int dimensions = 3;
  Vec3 lo = Vec3::Zero();  // the box corner: frames store positions - lo
  std::vector<double> edge_matrix;  // [D, D], the box's edge vectors as rows
  bool write_velocity = true;
  bool single_precision = false;  // positions and velocities as floats
  bool write_tether_rows = false;  // ids are not rows: rows for the XDMF too
  bool write_tethers = true;
  std::vector<ObservableColumn> observables;  // the datasets under /observables
  H5Id file;
  H5Id transfer;
  std::vector<double> frame_times;
  std::vector<std::uint64_t> tether_counts;
  std::uint64_t observable_samples = 0;
  // One step clock for frames and samples: each output instant gets the
  // next number, and a frame and a sample at the same time share it.
  std::int64_t last_step = -1;
  double last_step_time = -kInfinity;
  std::int64_t step_at(double time) {
    if (time != last_step_time) {
      ++last_step;
      last_step_time = time;
    }
    return last_step;
  }
  hsize_t tether_rows = 0;  // second extent of the tethers dataset

  bool root() const { return rank == 0; }
  // The datasets that grow by one entry per frame, in this file's layout
  // (create makes them, write_frame extends them, append checks and
  // truncates them): the frame clock, positions, ids, box edges, tether
  // counts, and the optional parts the model's output.frame_fields chose.
  std::vector<std::string> frame_datasets() const {
    std::vector<std::string> sets = {std::string(kPosition) + "/step", std::string(kPosition) + "/time",
                                     std::string(kPosition) + "/value", std::string(kId) + "/value",
                                     std::string(kParameters) + "/tether_counts", std::string(kEdges) + "/value"};
    if (write_velocity) sets.push_back(std::string(kVelocity) + "/value");
    if (write_tethers) sets.push_back(std::string(kTethers) + "/value");
    if (write_tether_rows) sets.push_back(kTetherRows);
    return sets;
  }
  // Secures the room on disk for what an operation allocates, before HDF5
  // writes any of it (hdf5_support.hpp: a write failing half-way cannot be
  // recovered from). Throws OutputError, with the file unchanged.
  void make_room(const ChunkGrowth& growth, const std::string& what) const {
    if (growth.chunks > 0) ensure_room(path, growth.room(), comm, what);
  }
  // An HDF5 failure while writing, as one line naming the file.
  OutputError failure(const std::string& what, const std::exception& e) const {
    return OutputError(path + ": cannot write " + what + ": " + e.what() + " (disk full?)");
  }
  // Writes one value (on rank 0) into row `row` of a growing 1-D/2-D dataset.
  void write_scalar_row(hid_t dataset, hid_t type, hsize_t row, const void* value) const {
    write_rows(dataset, type, {}, row, root() ? 1 : 0, value, transfer);
  }
};

TrajectoryFile::TrajectoryFile(std::unique_ptr<State> state) : state_(std::move(state)) {}
TrajectoryFile::TrajectoryFile(TrajectoryFile&&) noexcept = default;
TrajectoryFile& TrajectoryFile::operator=(TrajectoryFile&&) noexcept = default;
TrajectoryFile::~TrajectoryFile() {
  // Closing writes collectively: not while a failure unwinds on one rank.
  if (io_detail::unwinding_in_a_parallel_job()) return;
  try {
    close();
  } catch (...) {
    // Destructors must not throw; close() reported nothing we can act on.
  }
}

TrajectoryFile TrajectoryFile::create(const std::string& path, MPI_Comm comm, const Model& model,
                                      SlotMap slots, const SlotSpecies& species,
                                      std::uint64_t expected_tethers) {
  std::vector<SpeciesIndex> kept_species;
  auto s = State::make(path, comm, model, frame_rows(model, std::move(slots), species, &kept_species));
  // Each row's species, without copying the slots' when every species is kept.
  const bool every_species = model.output().frame_species.empty();
  auto row_species = [&](std::uint64_t row) { return every_species ? species.at(row) : kept_species[row]; };
  const auto& fields = model.output().frame_fields;
  s->single_precision = model.output().frame_single_precision;
  const int compression = model.output().frame_compression;
  s->write_velocity = std::find(fields.begin(), fields.end(), "velocity") != fields.end();
  s->write_tethers = std::find(fields.begin(), fields.end(), "tethers") != fields.end();
  s->observables = trajectory_observables(model);
  s->transfer = collective_transfer();
  // The room for everything written here (frames and samples reserve their
  // own): species, model text, and generously the groups, attributes and
  // chunk indexes (about 80 kB with the six standard observables).
  const std::uint64_t room = 4 * s->slots.size() + model.source_text().size() + (256 << 10) +
                             (16 << 10) * s->observables.size();
  ensure_room_for_new_file(path, room, comm, "the trajectory");
  H5Id fapl = mpio_file_access(comm);
  try {
    s->file = H5Id(checked(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl),
                           "cannot create the file"));
  } catch (const Hdf5Error& e) {
    throw InputError({path, 0}, "", std::string(e.what()) + " (is the directory writable?)");
  }
  // A trajectory that could not be made whole is removed: it would only
  // make the directory look like it holds a run.
  auto discard = [&] {
    s->file.reset();
    if (s->root()) std::remove(path.c_str());
  };
  try {
    // H5Fcreate truncated the file, releasing the room reserved above.
    ensure_room(path, room, comm, "the trajectory");
    const hid_t file = s->file;
    const hsize_t n = s->slots.size();
    const auto d = static_cast<hsize_t>(s->dimensions);

    H5Id h5md = create_group(file, "h5md");
    write_attribute(h5md, "version", std::vector<std::int32_t>{1, 1});
    write_attribute(create_group(h5md, "author"), "name", user_name());
    H5Id creator = create_group(h5md, "creator");
    write_attribute(creator, "name", std::string("tethersim"));
    write_attribute(creator, "version", std::string(kVersion));

    H5Id all = create_group(create_group(file, "particles"), "all");
    H5Id box = create_group(all, "box");
    write_attribute(box, "dimension", static_cast<std::int64_t>(s->dimensions));
    std::vector<std::string> boundary;
    for (int k = 0; k < s->dimensions; ++k) {
      boundary.push_back(boundary_kind(model.domain().boundary[k]).h5md_name);
    }
    write_attribute(box, "boundary", boundary);
    // H5MD knows only periodic and none; the exact kinds (open, reflective).
    std::vector<std::string> kinds;
    for (int k = 0; k < s->dimensions; ++k) kinds.push_back(to_string(model.domain().boundary[k]));
    write_attribute(box, "tethersim_boundary", kinds);
    // The box is time-dependent, one D x D edge matrix (diagonal: the box
    // is a cuboid) per frame: MDAnalysis reads only that form.
    H5Id edges = create_group(box, "edges");
    write_unit(create_extensible_dataset(edges, "value", H5T_NATIVE_DOUBLE, {d, d}, {256, d, d}),
               model.units().length);
    // Not part of H5MD: where the box starts. H5MD boxes start at the
    // origin, so frames store positions - offset; add it back for the
    // model's coordinates.
    H5Id offset_set = create_dataset(box, "offset", H5T_NATIVE_DOUBLE, {d});
    write_rows(offset_set, H5T_NATIVE_DOUBLE, {}, 0, s->root() ? d : 0, model.domain().lo.data(),
               s->transfer);
    write_unit(offset_set, model.units().length);

    const hsize_t rows_per_chunk = std::max<hsize_t>(1, std::min<hsize_t>(n, 1 << 16));
    const double nan = std::nan("");
    const float nan_float = std::nanf("");
    const hid_t value_type = s->single_precision ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
    const void* value_fill = s->single_precision ? static_cast<const void*>(&nan_float) : &nan;
    const std::int64_t no_id = -1;
    H5Id position = create_group(all, "position");
    create_extensible_dataset(position, "step", H5T_NATIVE_INT64, {}, {1024});
    write_unit(create_extensible_dataset(position, "time", H5T_NATIVE_DOUBLE, {}, {1024}), model.units().time);
    write_unit(create_extensible_dataset(position, "value", value_type, {n, d}, {1, rows_per_chunk, d},
                                         value_fill, compression),
               model.units().length);
    auto link_step_time = [&](const std::string& group) {
      checked(H5Lcreate_hard(file, (std::string(kPosition) + "/step").c_str(), file,
                             (group + "/step").c_str(), H5P_DEFAULT, H5P_DEFAULT),
              "linking " + group + "/step");
      checked(H5Lcreate_hard(file, (std::string(kPosition) + "/time").c_str(), file,
                             (group + "/time").c_str(), H5P_DEFAULT, H5P_DEFAULT),
              "linking " + group + "/time");
    };
    if (s->write_velocity) {
      H5Id velocity = create_group(all, "velocity");
      write_unit(create_extensible_dataset(velocity, "value", value_type, {n, d}, {1, rows_per_chunk, d},
                                           value_fill, compression),
                 model.units().velocity());
      link_step_time(kVelocity);
    }
    H5Id id = create_group(all, "id");
    create_extensible_dataset(id, "value", H5T_NATIVE_INT64, {n}, {1, rows_per_chunk}, &no_id, compression);
    link_step_time(kId);
    link_step_time(kEdges);

    // Species never change: one time-independent dataset, names attached.
    H5Id species_set = create_dataset(all, "species", H5T_NATIVE_INT32, {n});
    std::vector<std::string> names;
    std::vector<double> radii, masses;
    for (const Species& sp : model.species()) {
      names.push_back(sp.name);
      radii.push_back(sp.radius);
      masses.push_back(sp.mass);
    }
    write_attribute(species_set, "names", names);
    write_attribute(species_set, "radii", radii);
    write_attribute(species_set, "masses", masses);  // inf for infinite masses
    const SlotRange mine = slot_range(n, s->ranks, s->rank);
    std::vector<std::int32_t> my_species(mine.size());
    if (every_species && !species.covers(mine.begin, mine.end)) {
      throw std::logic_error("the trajectory's species rows of this rank are not at hand");
    }
    for (std::uint64_t k = 0; k < mine.size(); ++k) my_species[k] = row_species(mine.begin + k);
    write_rows(species_set, H5T_NATIVE_INT32, {}, mine.begin, mine.size(), my_species.data(), s->transfer);
    // H5MD's mass element, per row (inf for infinite-mass species).
    H5Id mass_set = create_dataset(all, "mass", H5T_NATIVE_DOUBLE, {n});
    write_unit(mass_set, model.units().mass);
    std::vector<double> my_masses(mine.size());
    for (std::uint64_t k = 0; k < mine.size(); ++k) my_masses[k] = model.species()[my_species[k]].mass;
    write_rows(mass_set, H5T_NATIVE_DOUBLE, {}, mine.begin, mine.size(), my_masses.data(), s->transfer);

    // Chunks of about the expected tether count (64 to 65536 rows): small
    // systems do not pay for big empty chunks every frame.
    hsize_t rows = 64;
    while (rows < expected_tethers && rows < 65536) rows *= 2;
    auto create_pairs = [&](hid_t group, const char* name) {
      std::vector<hsize_t> shape{0, 0, 2}, maxshape{H5S_UNLIMITED, H5S_UNLIMITED, 2}, chunk{1, rows, 2};
      H5Id space(checked(H5Screate_simple(3, shape.data(), maxshape.data()), "tether space"));
      H5Id dcpl(checked(H5Pcreate(H5P_DATASET_CREATE), "tether creation list"));
      checked(H5Pset_chunk(dcpl, 3, chunk.data()), "tether chunks");
      checked(H5Pset_fill_value(dcpl, H5T_NATIVE_INT64, &no_id), "tether fill");
      set_compression(dcpl, compression);
      checked(H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY), "tether allocation");
      H5Id created(checked(H5Dcreate2(group, name, H5T_NATIVE_INT64, space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
                   "creating the tether dataset"));
    };
    if (s->write_tethers) {
      H5Id tethers = create_group(create_group(file, "connectivity"), "tethers");
      // H5MD: pairs of particle ids, since the particle group has an id
      // element. When ids are not row numbers, the rows go beside them for
      // the XDMF sidecar (its line sets index points, that is rows).
      create_pairs(tethers, "value");
      link_step_time(kTethers);
      s->write_tether_rows = !s->slots.dense();
      hobj_ref_t reference;
      checked(H5Rcreate(&reference, file, "/particles/all", H5R_OBJECT, -1), "particle group reference");
      H5Id ref_space(checked(H5Screate(H5S_SCALAR), "reference space"));
      H5Id attribute(checked(H5Acreate2(tethers, "particles_group", H5T_STD_REF_OBJ, ref_space,
                                        H5P_DEFAULT, H5P_DEFAULT),
                             "particles_group attribute"));
      checked(H5Awrite(attribute, H5T_STD_REF_OBJ, &reference), "writing particles_group");
    }

    H5Id observables = create_group(file, "observables");
    for (const ObservableColumn& column : s->observables) create_observable(observables, column, model);

    H5Id parameters = create_group(create_group(file, "parameters"), "tethersim");
    write_attribute(parameters, "layout", kLayout);
    write_attribute(parameters, "model_name", model.name());
    write_attribute(parameters, "model_hash", hash_text(model.hash()));
    write_attribute(parameters, "physics_hash", hash_text(model.physics_hash()));
    write_attribute(parameters, "tethersim_version", std::string(kVersion));
    write_attribute(parameters, "seed", static_cast<std::int64_t>(model.seed()));
    write_attribute(parameters, "model_path", model.source_path());
    // The file's text plus these overrides is the model that ran.
    if (!model.data().overrides.empty()) write_attribute(parameters, "overrides", model.data().overrides);
    // The species whose particles the frames hold, when not every one.
    if (!model.output().frame_species.empty()) {
      write_attribute(parameters, "frame_species", model.output().frame_species);
    }
    const std::string& text = model.source_text();
    H5Id text_set = create_dataset(parameters, "model_text", H5T_NATIVE_UINT8,
                                   {std::max<hsize_t>(text.size(), 1)});
    write_rows(text_set, H5T_NATIVE_UINT8, {}, 0, s->root() ? text.size() : 0, text.data(), s->transfer);
    create_extensible_dataset(parameters, "tether_counts", H5T_NATIVE_INT64, {}, {1024});
    if (s->write_tether_rows) create_pairs(parameters, "tether_rows");
  } catch (const Hdf5Error& e) {
    const OutputError failure = s->failure("the trajectory", e);
    discard();
    throw failure;
  } catch (const OutputError&) {
    discard();
    throw;
  }
  return TrajectoryFile(std::move(s));
}

TrajectoryFile TrajectoryFile::append(const std::string& path, MPI_Comm comm, const Model& model,
                                      SlotMap slots, const SlotSpecies& species,
                                      double time) {
  auto s = State::make(path, comm, model, frame_rows(model, std::move(slots), species, nullptr));
  s->observables = trajectory_observables(model);
  s->transfer = collective_transfer();
  H5Id fapl = mpio_file_access(comm);
  s->file = H5Id(H5Fopen(path.c_str(), H5F_ACC_RDWR, fapl));
  if (!s->file.valid()) {
    throw InputError({path, 0}, "", "cannot open the trajectory to continue it (missing or damaged)");
  }
  const hid_t file = s->file;
  auto another_run = [&](const std::string& why) {
    return InputError({path, 0}, "",
                      "this trajectory belongs to another run (" + why +
                          "): continue into a new --output directory");
  };
  hsize_t kept = 0;
  try {
    // First everything that makes the file this run's, and everything this
    // run will write: nothing changes in the file unless all of it holds.
    if (!exists(file, kParameters)) {
      throw InputError({path, 0}, "", "not a tethersim trajectory (no " + std::string(kParameters) + ")");
    }
    H5Id parameters = open_group(file, kParameters);
    if (read_string_attribute(parameters, "physics_hash") != hash_text(model.physics_hash())) {
      throw InputError({path, 0}, "", "this trajectory belongs to another model (physics hash differs)");
    }
    // The model hash adds the initial state. A restart does not read the
    // particle and tether files again, so its hash lacks them: for such
    // models the particles themselves are compared below.
    if (!has_attribute(parameters, "layout") || read_integer_attribute(parameters, "layout") != kLayout) {
      throw InputError({path, 0}, "",
                       "this trajectory has an older layout (written by tethersim " +
                           read_string_attribute(parameters, "tethersim_version") +
                           "): continue into a new --output directory");
    }
    const std::string file_hash = read_string_attribute(parameters, "model_hash");
    if (model.initial().particles_file.empty() && model.initial().tethers_file.empty() &&
        model.initial().from.empty() &&
        file_hash != hash_text(model.hash())) {
      throw another_run("its model hash is " + file_hash + ", the checkpoint's model has " + hash_text(model.hash()));
    }
    // The optional parts this file was created with.
    s->write_velocity = exists(file, kVelocity);
    s->write_tethers = exists(file, kTethers);
    s->write_tether_rows = exists(file, kTetherRows);
    const std::vector<std::string> frame_sets = s->frame_datasets();
    for (const std::string& name : frame_sets) {
      if (!exists(file, name)) throw Hdf5Error("missing dataset " + name);
    }
    // The same particles in the same rows: the row count, and the id of
    // every row that holds a particle in a stored frame.
    const std::vector<hsize_t> shape = dataset_shape(open_dataset(file, std::string(kPosition) + "/value"));
    const hsize_t rows = shape.size() == 3 ? shape[1] : 0;
    if (shape.size() != 3 || shape[2] != static_cast<hsize_t>(s->dimensions)) {
      throw another_run("it is not " + std::to_string(s->dimensions) + "-D");
    }
    // Its rows are those of the species it was created with.
    const std::vector<std::string> file_species =
        has_attribute(parameters, "frame_species") ? read_string_list_attribute(parameters, "frame_species")
                                                   : std::vector<std::string>{};
    if (file_species != model.output().frame_species) {
      auto listed = [](const std::vector<std::string>& names) {
        std::string text;
        for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
        return names.empty() ? std::string("every species") : text;
      };
      throw InputError({path, 0}, "output.frame_species",
                       "this trajectory holds " + listed(file_species) + ", the run asks for " +
                           listed(model.output().frame_species) +
                           ": keep output.frame_species as it was, or continue into a new --output directory");
    }
    if (rows != s->slots.size()) {
      throw another_run("it has " + std::to_string(rows) + " particle rows, the checkpoint " +
                        std::to_string(s->slots.size()) + " particles");
    }
    // A continued trajectory keeps the precision (and compression) it was
    // created with: its datasets are not rewritten.
    s->single_precision = holds_floats(open_dataset(file, std::string(kPosition) + "/value"));
    // A trajectory written before a scalar observable existed (temperature)
    // goes on without it: observables.jsonl and summary.json still have it.
    std::erase_if(s->observables, [&](const ObservableColumn& column) {
      return column.field->items == ObservableItems::one &&
             !exists(file, std::string(kObservables) + "/" + column.name + "/value");
    });
    for (const ObservableColumn& column : s->observables) {
      if (!exists(file, std::string(kObservables) + "/" + column.name + "/value")) {
        throw InputError({path, 0}, "output",
                         "this trajectory has no observable '" + column.name +
                             "': keep output.cluster_species and output.tethered_pairs as they were, "
                             "or continue into a new --output directory");
      }
    }
    for (const std::string& name : sample_datasets(s->observables)) {
      if (!exists(file, name)) throw Hdf5Error("missing dataset " + name);
    }
    // Keep the frames up to the restart time; later ones are redone (a
    // frame cut short by a crash among them).
    H5Id times = open_dataset(file, std::string(kPosition) + "/time");
    const hsize_t stored = dataset_shape(times)[0];
    std::vector<double> frame_times(stored);
    read_rows(times, H5T_NATIVE_DOUBLE, {}, 0, stored, frame_times.data());
    kept = static_cast<hsize_t>(std::upper_bound(frame_times.begin(), frame_times.end(), time) -
                                frame_times.begin());
    for (const std::string& name : frame_sets) {
      if (dataset_shape(open_dataset(file, name))[0] < kept) {
        throw Hdf5Error(name + " does not have one entry per frame");
      }
    }
    H5Id id_set = open_dataset(file, std::string(kId) + "/value");
    const hsize_t frame = kept > 0 ? kept - 1 : 0;  // the last frame kept, or the first
    if (frame < dataset_shape(id_set)[0]) {
      // Each rank its own rows.
      const SlotRange mine = slot_range(rows, s->ranks, s->rank);
      std::vector<std::int64_t> ids(mine.size());
      read_rows(id_set, H5T_NATIVE_INT64, {frame}, mine.begin, mine.size(), ids.data());
      int mismatch = 0;
      std::uint64_t row = 0;
      for (std::uint64_t k = 0; k < ids.size() && mismatch == 0; ++k) {
        if (ids[k] >= 0 && static_cast<ParticleId>(ids[k]) != s->slots.id(mine.begin + k)) {
          mismatch = 1;
          row = mine.begin + k;
        }
      }
      if (mpi::any_rank(mismatch != 0, comm)) {
        throw another_run(mismatch != 0 ? "its row " + std::to_string(row) + " holds another particle id"
                                        : "its rows hold other particle ids");
      }
    }
    frame_times.resize(kept);
    s->frame_times = frame_times;
    H5Id counts = open_dataset(file, std::string(kParameters) + "/tether_counts");
    std::vector<std::int64_t> raw(kept);
    read_rows(counts, H5T_NATIVE_INT64, {}, 0, kept, raw.data());
    s->tether_counts.resize(kept);
    for (hsize_t k = 0; k < kept; ++k) s->tether_counts[k] = static_cast<std::uint64_t>(raw[k]);
    if (s->write_tethers) s->tether_rows = dataset_shape(open_dataset(file, std::string(kTethers) + "/value"))[1];
    H5Id obs_times = open_dataset(file, sample_clock() + "/time");
    const hsize_t samples = dataset_shape(obs_times)[0];
    std::vector<double> sample_times(samples);
    read_rows(obs_times, H5T_NATIVE_DOUBLE, {}, 0, samples, sample_times.data());
    s->observable_samples = static_cast<std::uint64_t>(
        std::upper_bound(sample_times.begin(), sample_times.end(), time) - sample_times.begin());
    // The step clock goes on from the last instant kept, frame or sample.
    auto last_of = [&](const std::string& group, hsize_t count, const std::vector<double>& instants) {
      if (count == 0) return;
      std::int64_t step = 0;
      read_rows(open_dataset(file, group + "/step"), H5T_NATIVE_INT64, {}, count - 1, 1, &step);
      if (step > s->last_step) {
        s->last_step = step;
        s->last_step_time = instants[count - 1];
      }
    };
    last_of(kPosition, kept, frame_times);
    last_of(sample_clock(), s->observable_samples, sample_times);
    for (const std::string& name : sample_datasets(s->observables)) {
      if (dataset_shape(open_dataset(file, name))[0] < s->observable_samples) {
        throw Hdf5Error(name + " does not have one entry per sample");
      }
    }
  } catch (const Hdf5Error& e) {
    throw InputError({path, 0}, "", std::string("cannot continue this trajectory: damaged: ") + e.what());
  }

  // Every rank has read what it needs before any rank changes the file:
  // the reads above are each rank's own, and removing the samples after the
  // checkpoint rewrites the chunk they share with the kept ones (fill
  // values past the new end). Without this, a rank still reading saw a
  // removed sample time as 0, kept one sample more than the others, and
  // the first sample written then hung the ranks in different HDF5 calls.
  mpi::barrier(comm);
  // The file must be writable here: changing it in place needs the room
  // too (at a file size limit, even rewriting what is there fails).
  ensure_room(path, ChunkGrowth{}.room(), comm, "the trajectory");
  try {
    for (const std::string& name : s->frame_datasets()) extend_frames(open_dataset(file, name), kept);
    for (const std::string& name : sample_datasets(s->observables)) {
      extend_frames(open_dataset(file, name), s->observable_samples);
    }
  } catch (const Hdf5Error& e) {
    throw s->failure("the trajectory (removing the frames after the checkpoint)", e);
  }
  return TrajectoryFile(std::move(s));
}

void TrajectoryFile::write_frame(double time, const std::vector<FrameParticle>& particles,
                                 const std::vector<FrameTether>& tethers) {
  State& s = *state_;
  const hid_t file = s.file;
  const hsize_t frame = s.frame_times.size();
  const hsize_t n = s.slots.size();
  const auto d = static_cast<std::size_t>(s.dimensions);
  const std::string what = "the frame at t = " + format_number(time);

  // Particles without a row (not of output.frame_species) are not written.
  std::vector<FrameRow> records;
  records.reserve(particles.size());
  for (const FrameParticle& p : particles) {
    const std::optional<std::uint64_t> row = s.slots.find(p.id);
    if (!row) continue;
    FrameRow& r = records.emplace_back();
    r.slot = *row;
    r.id = static_cast<std::int64_t>(p.id);
    for (int c = 0; c < 3; ++c) {
      r.position[c] = p.position[c];
      r.velocity[c] = p.velocity[c];
    }
  }
  const std::vector<FrameRow> mine = io_detail::exchange_by_slot(std::move(records), n, s.comm);
  const SlotRange range = slot_range(n, s.ranks, s.rank);
  // Slots with no particle (it left) keep the fill values: NaN, id -1.
  std::vector<double> positions(range.size() * d, std::nan(""));
  std::vector<double> velocities(range.size() * d, std::nan(""));
  std::vector<std::int64_t> ids(range.size(), -1);
  for (const FrameRow& r : mine) {
    const std::uint64_t row = r.slot - range.begin;
    ids[row] = r.id;
    for (std::size_t c = 0; c < d; ++c) {
      positions[row * d + c] = r.position[c] - s.lo[static_cast<int>(c)];
      velocities[row * d + c] = r.velocity[c];
    }
  }

  // Tethers, in the order of their lower particle, as pairs of rows.
  std::vector<TetherRow> own;
  io_detail::GlobalOffset where{};
  if (s.write_tethers) {
    // A tether is written when both its particles have rows.
    std::vector<TetherRow> local;
    local.reserve(tethers.size());
    for (const FrameTether& t : tethers) {
      const std::optional<std::uint64_t> a = s.slots.find(t.a);
      const std::optional<std::uint64_t> b = s.slots.find(t.b);
      if (a && b) local.push_back({*a, *b});
    }
    own = io_detail::exchange_by_slot(std::move(local), n, s.comm);
    std::sort(own.begin(), own.end(), [](const TetherRow& a, const TetherRow& b) {
      return a.slot != b.slot ? a.slot < b.slot : a.other < b.other;
    });
    where = io_detail::global_offset(own.size(), s.comm);
  }
  const std::uint64_t tether_total = where.total;
  const hsize_t tether_rows = std::max<hsize_t>(s.tether_rows, where.total);

  try {
    H5Id step_set = open_dataset(file, std::string(kPosition) + "/step");
    H5Id time_set = open_dataset(file, std::string(kPosition) + "/time");
    H5Id position_set = open_dataset(file, std::string(kPosition) + "/value");
    H5Id velocity_set = s.write_velocity ? open_dataset(file, std::string(kVelocity) + "/value") : H5Id();
    H5Id id_set = open_dataset(file, std::string(kId) + "/value");
    H5Id tether_set = s.write_tethers ? open_dataset(file, std::string(kTethers) + "/value") : H5Id();
    H5Id counts = open_dataset(file, std::string(kParameters) + "/tether_counts");
    H5Id edges_set = open_dataset(file, std::string(kEdges) + "/value");
    H5Id rows_set = s.write_tether_rows ? open_dataset(file, kTetherRows) : H5Id();

    // Everything this frame allocates must fit before any of it is written.
    ChunkGrowth growth;
    for (hid_t set : {step_set.get(), time_set.get(), counts.get()}) growth += chunk_growth(set, {frame + 1});
    growth += chunk_growth(position_set, {frame + 1, n, d});
    if (s.write_velocity) growth += chunk_growth(velocity_set, {frame + 1, n, d});
    growth += chunk_growth(id_set, {frame + 1, n});
    if (s.write_tethers) growth += chunk_growth(tether_set, {frame + 1, tether_rows, 2});
    if (s.write_tether_rows) growth += chunk_growth(rows_set, {frame + 1, tether_rows, 2});
    growth += chunk_growth(edges_set, {frame + 1, d, d});
    s.make_room(growth, what);

    const std::int64_t step = s.step_at(time);
    extend_frames(step_set, frame + 1);
    extend_frames(time_set, frame + 1);
    s.write_scalar_row(step_set, H5T_NATIVE_INT64, frame, &step);
    s.write_scalar_row(time_set, H5T_NATIVE_DOUBLE, frame, &time);
    extend_frames(position_set, frame + 1);
    write_values(position_set, s.single_precision, {frame}, range.begin, range.size(), positions, s.transfer);
    if (s.write_velocity) {
      extend_frames(velocity_set, frame + 1);
      write_values(velocity_set, s.single_precision, {frame}, range.begin, range.size(), velocities, s.transfer);
    }
    extend_frames(id_set, frame + 1);
    write_rows(id_set, H5T_NATIVE_INT64, {frame}, range.begin, range.size(), ids.data(), s.transfer);
    extend_frames(edges_set, frame + 1);
    s.write_scalar_row(edges_set, H5T_NATIVE_DOUBLE, frame, s.edge_matrix.data());

    if (s.write_tethers) {
      std::vector<hsize_t> shape{frame + 1, tether_rows, 2};
      checked(H5Dset_extent(tether_set, shape.data()), "extending the tether dataset");
      std::vector<std::int64_t> pairs(2 * own.size());
      for (std::size_t k = 0; k < own.size(); ++k) {
        pairs[2 * k] = static_cast<std::int64_t>(s.slots.id(own[k].slot));
        pairs[2 * k + 1] = static_cast<std::int64_t>(s.slots.id(own[k].other));
      }
      write_rows(tether_set, H5T_NATIVE_INT64, {frame}, where.offset, own.size(), pairs.data(), s.transfer);
      if (s.write_tether_rows) {
        checked(H5Dset_extent(rows_set, shape.data()), "extending the tether rows");
        for (std::size_t k = 0; k < own.size(); ++k) {
          pairs[2 * k] = static_cast<std::int64_t>(own[k].slot);
          pairs[2 * k + 1] = static_cast<std::int64_t>(own[k].other);
        }
        write_rows(rows_set, H5T_NATIVE_INT64, {frame}, where.offset, own.size(), pairs.data(), s.transfer);
      }
    }
    extend_frames(counts, frame + 1);
    const auto count = static_cast<std::int64_t>(tether_total);
    s.write_scalar_row(counts, H5T_NATIVE_INT64, frame, &count);
    // The frame is on disk before the run goes on (a killed run keeps it).
    checked(H5Fflush(s.file, H5F_SCOPE_GLOBAL), "flushing the trajectory");
  } catch (const Hdf5Error& e) {
    throw s.failure(what, e);
  }
  s.tether_rows = tether_rows;
  s.frame_times.push_back(time);
  s.tether_counts.push_back(tether_total);
}

std::int64_t TrajectoryFile::write_observables(double time, const FrameObservables& o) {
  State& s = *state_;
  const hid_t file = s.file;
  const hsize_t row = s.observable_samples;
  const std::string what = "the observables at t = " + format_number(time);
  std::int64_t step = 0;
  try {
    // Open every dataset and secure the room for the chunks this sample
    // starts (one in 256 or 1024 samples) before writing anything.
    std::vector<H5Id> sets;
    for (const std::string& name : sample_datasets(s.observables)) sets.push_back(open_dataset(file, name));
    ChunkGrowth growth;
    for (const H5Id& set : sets) {
      std::vector<hsize_t> shape = dataset_shape(set);
      if (!shape.empty()) shape[0] = row + 1;
      growth += chunk_growth(set, shape);
    }
    s.make_room(growth, what);
    for (const H5Id& set : sets) extend_frames(set, row + 1);
    step = s.step_at(time);
    s.write_scalar_row(sets[0], H5T_NATIVE_INT64, row, &step);
    s.write_scalar_row(sets[1], H5T_NATIVE_DOUBLE, row, &time);
    for (std::size_t k = 0; k < s.observables.size(); ++k) {
      const ObservableColumn& column = s.observables[k];
      const hid_t set = sets[k + 2];
      if (column.field->type() == ObservableType::real) {
        s.write_scalar_row(set, H5T_NATIVE_DOUBLE, row, observable_reals(o, column).data());
      } else {
        s.write_scalar_row(set, H5T_NATIVE_INT64, row, observable_counts(o, column).data());
      }
    }
  } catch (const Hdf5Error& e) {
    throw s.failure(what, e);
  }
  ++s.observable_samples;
  return step;
}

std::uint64_t TrajectoryFile::frames() const { return state_->frame_times.size(); }

void TrajectoryFile::flush() {
  State& s = *state_;
  // Observable samples are not flushed as they are written: a checkpoint
  // must not reach the disk before the samples that precede it (a restart
  // keeps the samples up to the checkpoint and does not write them again).
  try {
    checked(H5Fflush(s.file, H5F_SCOPE_GLOBAL), "flushing the trajectory");
  } catch (const Hdf5Error& e) {
    throw s.failure("flushing the trajectory", e);
  }
  if (s.root()) {
    const std::filesystem::path h5(s.path);
    std::filesystem::path xdmf = h5;
    xdmf.replace_extension(".xdmf");
    write_xdmf(xdmf.string(), h5.filename().string(), s.slots.size(), s.dimensions, s.frame_times,
               s.tether_counts, s.tether_rows, s.write_velocity, s.single_precision ? 4 : 8,
               !s.write_tethers ? "" : s.write_tether_rows ? kTetherRows : "/connectivity/tethers/value");
  }
}

void TrajectoryFile::close() {
  if (!state_ || !state_->file.valid()) return;
  State& s = *state_;
  // The file is closed whatever happens to the sidecar.
  std::exception_ptr sidecar;
  try {
    flush();
  } catch (...) {
    sidecar = std::current_exception();
  }
  const herr_t closed = H5Fclose(s.file.release());
  if (closed >= 0 && s.root()) release_room(s.path);
  if (sidecar) std::rethrow_exception(sidecar);
  if (closed < 0) throw OutputError(s.path + ": cannot close the trajectory (disk full?)");
}

}  // namespace tethersim
