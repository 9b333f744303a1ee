// Making a new trajectory.h5: the H5MD tree, the per-frame datasets of
// the layout table (trajectory_layout.hpp), the time-independent species
// and masses, the observables' groups and the model.

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "tethersim/model/hash_text.hpp"
#include "tethersim/version.hpp"
#include "trajectory_state.hpp"

namespace tethersim {

using namespace io_detail;
using namespace io_detail::trajectory_layout;

namespace {

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

std::string unit_name(const Model& model, FrameUnit unit) {
  switch (unit) {
    case FrameUnit::time: return model.units().time;
    case FrameUnit::length: return model.units().length;
    case FrameUnit::velocity: return model.units().velocity();
    case FrameUnit::none: break;
  }
  return "";
}

std::string observable_unit(const Model& model, ObservableUnit unit) {
  switch (unit) {
    case ObservableUnit::energy: return model.units().energy();
    case ObservableUnit::momentum: return model.units().momentum();
    case ObservableUnit::none: break;
  }
  return "";
}

// The group at an absolute path, made with its parents when missing.
H5Id group_at(hid_t file, const std::string& path) {
  std::size_t slash = 0;
  while ((slash = path.find('/', slash + 1)) != std::string::npos) {
    if (!exists(file, path.substr(0, slash))) create_group(file, path.substr(0, slash));
  }
  return exists(file, path) ? open_group(file, path) : create_group(file, path);
}

void link(hid_t file, const std::string& from, const std::string& to) {
  checked(H5Lcreate_hard(file, from.c_str(), file, to.c_str(), H5P_DEFAULT, H5P_DEFAULT), "linking " + to);
}

// /h5md: the version, who wrote the file and with what.
void write_h5md_header(hid_t file) {
  H5Id h5md = create_group(file, "h5md");
  write_attribute(h5md, "version", std::vector<std::int32_t>{1, 1});
  write_attribute(create_group(h5md, "author"), "name", user_name());
  H5Id creator = create_group(h5md, "creator");
  write_attribute(creator, "name", std::string("tethersim"));
  write_attribute(creator, "version", std::string(kVersion));
}

// /particles/all/box: its dimension and boundaries, and where it starts.
// The edges, one D x D matrix per frame, are a per-frame dataset.
void create_box(const TrajectoryFile::State& s, const Model& model) {
  H5Id box = group_at(s.file, kBox);
  write_attribute(box, "dimension", static_cast<std::int64_t>(s.dimensions));
  std::vector<std::string> boundary;
  // H5MD knows only periodic and none; the exact kinds (open, reflective).
  std::vector<std::string> kinds;
  for (int k = 0; k < s.dimensions; ++k) {
    boundary.push_back(boundary_kind(model.domain().boundary[k]).h5md_name);
    kinds.push_back(to_string(model.domain().boundary[k]));
  }
  write_attribute(box, "boundary", boundary);
  write_attribute(box, "tethersim_boundary", kinds);
  // Not part of H5MD: where the box starts. H5MD boxes start at the
  // origin, so frames store positions - offset; add it back for the
  // model's coordinates.
  const auto d = static_cast<hsize_t>(s.dimensions);
  H5Id offset_set = create_dataset(box, "offset", H5T_NATIVE_DOUBLE, {d});
  write_rows(offset_set, H5T_NATIVE_DOUBLE, {}, 0, s.root() ? d : 0, model.domain().lo.data(), s.transfer);
  write_unit(offset_set, model.units().length);
}

// How the per-frame datasets are chunked and filled.
struct FrameStorage {
  hsize_t rows = 0;
  hsize_t dimensions = 3;
  hsize_t rows_per_chunk = 1;
  hsize_t tether_rows_per_chunk = 64;
  int compression = 0;
  bool single_precision = false;
};

// A dataset growing in its first two dimensions: frames, and the tethers of
// each frame (filled with id -1 past a frame's count).
H5Id create_pairs(hid_t group, const char* name, const FrameStorage& storage) {
  const std::int64_t no_id = -1;
  std::vector<hsize_t> shape{0, 0, 2}, maxshape{H5S_UNLIMITED, H5S_UNLIMITED, 2},
      chunk{1, storage.tether_rows_per_chunk, 2};
  H5Id space(checked(H5Screate_simple(3, shape.data(), maxshape.data()), "tether space"));
  H5Id dcpl(checked(H5Pcreate(H5P_DATASET_CREATE), "tether creation list"));
  checked(H5Pset_chunk(dcpl, 3, chunk.data()), "tether chunks");
  checked(H5Pset_fill_value(dcpl, H5T_NATIVE_INT64, &no_id), "tether fill");
  set_compression(dcpl, storage.compression);
  checked(H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY), "tether allocation");
  return H5Id(checked(H5Dcreate2(group, name, H5T_NATIVE_INT64, space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
                      "creating the tether dataset"));
}

// One entry of the layout table, empty. Every frame writes every particle
// row (NaN and id -1 for a particle that left), so the rows' fill values
// are never written: filling each new frame's chunks first doubled the
// bytes a frame writes. A frame cut short by a kill has its time NaN (the
// time's fill; written last): a restart removes it, a reader can tell it.
H5Id create_frame_dataset(hid_t group, const FrameDataset& entry, const FrameStorage& storage) {
  const double nan = std::nan("");
  const float nan_float = std::nanf("");
  const std::int64_t no_id = -1;
  const bool narrow = entry.type == FrameType::frame_real && storage.single_precision;
  const hid_t type = entry.type == FrameType::int64 ? H5T_NATIVE_INT64
                     : narrow                       ? H5T_NATIVE_FLOAT
                                                    : H5T_NATIVE_DOUBLE;
  const void* value_fill = narrow ? static_cast<const void*>(&nan_float) : &nan;
  const hsize_t n = storage.rows;
  const hsize_t d = storage.dimensions;
  const hsize_t chunk_rows = storage.rows_per_chunk;
  switch (entry.shape) {
    case FrameShape::scalar:
      return create_extensible_dataset(group, entry.name, type, {}, {1024},
                                       entry.set == FrameSet::time ? static_cast<const void*>(&nan) : nullptr);
    case FrameShape::row_vectors:
      return create_extensible_dataset(group, entry.name, type, {n, d}, {1, chunk_rows, d}, value_fill,
                                       storage.compression, FillTime::never);
    case FrameShape::rows:
      return create_extensible_dataset(group, entry.name, type, {n}, {1, chunk_rows}, &no_id,
                                       storage.compression, FillTime::never);
    case FrameShape::box: return create_extensible_dataset(group, entry.name, type, {d, d}, {256, d, d});
    case FrameShape::pairs: return create_pairs(group, entry.name, storage);
  }
  throw std::logic_error("a frame dataset of no known shape");
}

// Every per-frame dataset the file holds, with its unit, and the links of
// each H5MD element to the one frame clock.
void create_frame_datasets(const TrajectoryFile::State& s, const Model& model, std::uint64_t expected_tethers) {
  FrameStorage storage;
  storage.rows = s.slots.size();
  storage.dimensions = static_cast<hsize_t>(s.dimensions);
  storage.rows_per_chunk = std::max<hsize_t>(1, std::min<hsize_t>(storage.rows, 1 << 16));
  // Chunks of about the expected tether count (64 to 65536 rows): small
  // systems do not pay for big empty chunks every frame.
  while (storage.tether_rows_per_chunk < expected_tethers && storage.tether_rows_per_chunk < 65536) {
    storage.tether_rows_per_chunk *= 2;
  }
  storage.compression = model.output().frame_compression;
  storage.single_precision = s.single_precision;
  const std::string clock = kPosition;
  for (const FrameDataset* entry : s.frame_datasets()) {
    H5Id group = group_at(s.file, entry->group);
    write_unit(create_frame_dataset(group, *entry, storage), unit_name(model, entry->unit));
    if (!entry->links_clock) continue;
    link(s.file, clock + "/step", std::string(entry->group) + "/step");
    link(s.file, clock + "/time", std::string(entry->group) + "/time");
  }
}

// Species never change: one time-independent dataset, names attached, and
// H5MD's mass element, per row (inf for infinite-mass species). Each rank
// writes its own rows.
void write_species(const TrajectoryFile::State& s, const Model& model, const SlotSpecies& species,
                   const std::vector<SpeciesIndex>& kept_species) {
  const hsize_t n = s.slots.size();
  H5Id all = open_group(s.file, kParticleGroup);
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
  // Each row's species, without copying the slots' when every species is kept.
  const bool every_species = model.output().frame_species.empty();
  const SlotRange mine = slot_range(n, s.ranks, s.rank);
  if (every_species && !species.covers(mine.begin, mine.end)) {
    throw std::logic_error("the trajectory's species rows of this rank are not at hand");
  }
  std::vector<std::int32_t> my_species(mine.size());
  for (std::uint64_t k = 0; k < mine.size(); ++k) {
    const std::uint64_t row = mine.begin + k;
    my_species[k] = every_species ? species.at(row) : kept_species[row];
  }
  write_rows(species_set, H5T_NATIVE_INT32, {}, mine.begin, mine.size(), my_species.data(), s.transfer);
  H5Id mass_set = create_dataset(all, "mass", H5T_NATIVE_DOUBLE, {n});
  write_unit(mass_set, model.units().mass);
  std::vector<double> my_masses(mine.size());
  for (std::uint64_t k = 0; k < mine.size(); ++k) my_masses[k] = model.species()[my_species[k]].mass;
  write_rows(mass_set, H5T_NATIVE_DOUBLE, {}, mine.begin, mine.size(), my_masses.data(), s.transfer);
}

// H5MD's connectivity: the tethers name the particle group their ids index.
void point_tethers_at_particles(hid_t file) {
  H5Id tethers = open_group(file, kTethers);
  hobj_ref_t reference;
  checked(H5Rcreate(&reference, file, kParticleGroup, H5R_OBJECT, -1), "particle group reference");
  H5Id ref_space(checked(H5Screate(H5S_SCALAR), "reference space"));
  H5Id attribute(checked(
      H5Acreate2(tethers, "particles_group", H5T_STD_REF_OBJ, ref_space, H5P_DEFAULT, H5P_DEFAULT),
      "particles_group attribute"));
  checked(H5Awrite(attribute, H5T_STD_REF_OBJ, &reference), "writing particles_group");
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

// /parameters/tethersim: what a continued run checks (layout, hashes) and
// the model that ran (its text plus the overrides).
void write_parameters(const TrajectoryFile::State& s, const Model& model) {
  H5Id parameters = group_at(s.file, kParameters);
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
  H5Id text_set =
      create_dataset(parameters, "model_text", H5T_NATIVE_UINT8, {std::max<hsize_t>(text.size(), 1)});
  write_rows(text_set, H5T_NATIVE_UINT8, {}, 0, s.root() ? text.size() : 0, text.data(), s.transfer);
}

// The whole tree of a new trajectory, with no frame and no sample yet.
void create_tree(const TrajectoryFile::State& s, const Model& model, const SlotSpecies& species,
                 const std::vector<SpeciesIndex>& kept_species, std::uint64_t expected_tethers) {
  write_h5md_header(s.file);
  create_box(s, model);
  create_frame_datasets(s, model, expected_tethers);
  write_species(s, model, species, kept_species);
  if (s.write_tethers) point_tethers_at_particles(s.file);
  H5Id observables = create_group(s.file, "observables");
  for (const ObservableColumn& column : s.observables) create_observable(observables, column, model);
  write_parameters(s, model);
}

}  // namespace

TrajectoryFile TrajectoryFile::create(const std::string& path, MPI_Comm comm, const Model& model, SlotMap slots,
                                      const SlotSpecies& species, std::uint64_t expected_tethers) {
  std::vector<SpeciesIndex> kept_species;
  auto s = State::make(path, comm, model, frame_rows(model, std::move(slots), species, &kept_species));
  const auto& fields = model.output().frame_fields;
  s->single_precision = model.output().frame_single_precision;
  s->write_velocity = std::find(fields.begin(), fields.end(), "velocity") != fields.end();
  s->write_tethers = std::find(fields.begin(), fields.end(), "tethers") != fields.end();
  s->write_tether_rows = s->write_tethers && !s->slots.dense();
  s->observables = trajectory_observables(model);
  s->transfer = data_transfer(model.output().frame_compression > 0);
  // The room for everything written here (frames and samples reserve their
  // own): species, model text, and generously the groups, attributes and
  // chunk indexes (about 80 kB with the six standard observables).
  const std::uint64_t room =
      4 * s->slots.size() + model.source_text().size() + (256 << 10) + (16 << 10) * s->observables.size();
  ensure_room_for_new_file(path, room, comm, "the trajectory");
  H5Id fapl = mpio_file_access(comm);
  try {
    s->file = H5Id(checked(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), "cannot create the file"));
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
    create_tree(*s, model, species, kept_species, expected_tethers);
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

}  // namespace tethersim
