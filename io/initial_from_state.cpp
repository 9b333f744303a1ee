#include "initial_from_state.hpp"

#include <algorithm>
#include <cmath>

#include "hdf5_support.hpp"
#include "trajectory_layout.hpp"
#include "tethersim/io/input_error.hpp"
#include "tethersim/io/model_file.hpp"

namespace tethersim::io_detail {

namespace {

template <typename T>
std::vector<T> read_all(hid_t file, const std::string& name, hid_t type, std::size_t columns = 1) {
  H5Id set = open_dataset(file, name);
  const std::vector<hsize_t> shape = dataset_shape(set);
  std::vector<T> values((shape.empty() ? 0 : shape[0]) * columns);
  if (!values.empty()) read_rows(set, type, {}, 0, shape[0], values.data());
  return values;
}

// Species names of the run that wrote a checkpoint: from its own model.
std::vector<std::string> checkpoint_species(hid_t file, const std::string& path) {
  const std::vector<std::uint8_t> text = read_all<std::uint8_t>(file, "checkpoint/model_text", H5T_NATIVE_UINT8);
  const std::vector<std::uint8_t> overrides =
      exists(file, "checkpoint/model_overrides")
          ? read_all<std::uint8_t>(file, "checkpoint/model_overrides", H5T_NATIVE_UINT8)
          : std::vector<std::uint8_t>{};
  ModelFileOptions options;
  options.skip_initial_files = true;
  std::string line;
  for (std::uint8_t c : overrides) {
    if (c == '\n') {
      if (!line.empty()) options.overrides.push_back(line);
      line.clear();
    } else if (c != 0) {
      line += static_cast<char>(c);
    }
  }
  if (!line.empty()) options.overrides.push_back(line);
  std::string model_text(text.begin(), text.end());
  while (!model_text.empty() && model_text.back() == '\0') model_text.pop_back();
  const Model model = load_model_text(model_text, path, options);
  std::vector<std::string> names;
  for (const Species& s : model.species()) names.push_back(s.name);
  return names;
}

StateParticles from_checkpoint(hid_t file, const std::string& path,
                               const std::function<SpeciesIndex(const std::string&)>& species) {
  const std::vector<std::string> names = checkpoint_species(file, path);
  const double time = read_double_attribute(open_group(file, "checkpoint"), "time");
  const auto ids = read_all<std::uint64_t>(file, "checkpoint/particles/id", H5T_NATIVE_UINT64);
  const auto kinds = read_all<std::int32_t>(file, "checkpoint/particles/species", H5T_NATIVE_INT32);
  const auto alive = read_all<std::uint8_t>(file, "checkpoint/particles/alive", H5T_NATIVE_UINT8);
  const auto t0 = read_all<double>(file, "checkpoint/particles/t0", H5T_NATIVE_DOUBLE);
  const auto u0 = read_all<double>(file, "checkpoint/particles/u0", H5T_NATIVE_DOUBLE, 3);
  const auto v = read_all<double>(file, "checkpoint/particles/v", H5T_NATIVE_DOUBLE, 3);
  StateParticles state;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    if (alive[k] == 0) continue;
    if (kinds[k] < 0 || static_cast<std::size_t>(kinds[k]) >= names.size()) {
      throw Hdf5Error("species index out of range");
    }
    ParticleSpec p;
    p.id = ids[k];
    p.species = species(names[static_cast<std::size_t>(kinds[k])]);
    for (int c = 0; c < 3; ++c) {
      const double speed = v[3 * k + static_cast<std::size_t>(c)];
      // Where the particle is at the checkpoint's time (a particle at rest
      // may have an infinite t0 - time).
      p.position[c] = u0[3 * k + static_cast<std::size_t>(c)] + (speed == 0.0 ? 0.0 : speed * (time - t0[k]));
      p.velocity[c] = speed;
    }
    state.particles.push_back(p);
  }
  const auto pairs = read_all<std::uint64_t>(file, "checkpoint/tethers", H5T_NATIVE_UINT64, 2);
  for (std::size_t k = 0; k + 1 < pairs.size(); k += 2) state.tethers.push_back({pairs[k], pairs[k + 1]});
  return state;
}

// The particles of one stored frame (rows with id -1 are particles gone),
// in model coordinates.
struct FrameRows {
  std::vector<double> positions;   // [N, D]
  std::vector<double> velocities;  // [N, D]
  std::vector<std::int64_t> ids;   // [N]
};

FrameRows read_frame_rows(hid_t file, hsize_t frame, hsize_t n, std::size_t d, bool box_frame) {
  using namespace trajectory_layout;
  FrameRows rows;
  rows.positions.resize(n * d);
  rows.velocities.resize(n * d);
  rows.ids.resize(n);
  read_rows(open_dataset(file, frame_dataset(FrameSet::position).path()), H5T_NATIVE_DOUBLE, {frame}, 0, n,
            rows.positions.data());
  read_rows(open_dataset(file, frame_dataset(FrameSet::velocity).path()), H5T_NATIVE_DOUBLE, {frame}, 0, n,
            rows.velocities.data());
  read_rows(open_dataset(file, frame_dataset(FrameSet::id).path()), H5T_NATIVE_INT64, {frame}, 0, n,
            rows.ids.data());
  // Layout 2 stores positions in the box frame: back to model coordinates.
  std::vector<double> offset(d, 0.0);
  if (box_frame) read_rows(open_dataset(file, kBoxOffset), H5T_NATIVE_DOUBLE, {}, 0, d, offset.data());
  for (hsize_t r = 0; r < n; ++r) {
    for (std::size_t c = 0; c < d; ++c) rows.positions[r * d + c] += offset[c];
  }
  return rows;
}

// The tethers of one stored frame, as id pairs (an older layout stored
// rows).
std::vector<TetherSpec> read_frame_tethers(hid_t file, hsize_t frame, const FrameRows& rows, bool box_frame) {
  using namespace trajectory_layout;
  std::vector<TetherSpec> tethers;
  if (!exists(file, frame_dataset(FrameSet::tethers).path())) return tethers;
  std::int64_t count = 0;
  read_rows(open_dataset(file, frame_dataset(FrameSet::tether_counts).path()), H5T_NATIVE_INT64, {}, frame, 1,
            &count);
  std::vector<std::int64_t> pairs(2 * static_cast<std::size_t>(count));
  if (count > 0) {
    read_rows(open_dataset(file, frame_dataset(FrameSet::tethers).path()), H5T_NATIVE_INT64, {frame}, 0,
              static_cast<hsize_t>(count), pairs.data());
  }
  for (std::size_t j = 0; j + 1 < pairs.size(); j += 2) {
    std::int64_t a = pairs[j], b = pairs[j + 1];
    if (!box_frame) {
      a = rows.ids.at(static_cast<std::size_t>(a));
      b = rows.ids.at(static_cast<std::size_t>(b));
    }
    tethers.push_back({static_cast<ParticleId>(a), static_cast<ParticleId>(b)});
  }
  return tethers;
}

StateParticles from_trajectory(hid_t file, long frame, const std::string& key,
                               const std::function<SpeciesIndex(const std::string&)>& species) {
  using namespace trajectory_layout;
  if (!exists(file, frame_dataset(FrameSet::velocity).path())) {
    throw InputError({"", 0}, key, "this trajectory has no velocities (output.fields without velocity)");
  }
  const std::vector<hsize_t> shape =
      dataset_shape(open_dataset(file, frame_dataset(FrameSet::position).path()));  // [F, N, D]
  const auto frames = static_cast<long>(shape[0]);
  const long k = frame < 0 ? frames + frame : frame;
  if (k < 0 || k >= frames) {
    throw InputError({"", 0}, key,
                     "no frame " + std::to_string(frame) + ": the trajectory has " + std::to_string(frames) +
                         " frames");
  }
  const hsize_t n = shape[1];
  const auto d = static_cast<std::size_t>(shape[2]);
  const auto row_frame = static_cast<hsize_t>(k);
  // Layout 2 (a "layout" attribute) stores the box frame and tethers as ids.
  const bool box_frame = has_attribute(open_group(file, kParameters), "layout");
  const FrameRows rows = read_frame_rows(file, row_frame, n, d, box_frame);
  const auto kinds = read_all<std::int32_t>(file, kSpecies, H5T_NATIVE_INT32);
  const std::vector<std::string> names =
      read_string_list_attribute(open_dataset(file, kSpecies), "names");
  StateParticles state;
  for (hsize_t r = 0; r < n; ++r) {
    if (rows.ids[r] < 0) continue;
    ParticleSpec p;
    p.id = static_cast<ParticleId>(rows.ids[r]);
    p.species = species(names.at(static_cast<std::size_t>(kinds.at(r))));
    for (std::size_t c = 0; c < d; ++c) {
      p.position[static_cast<int>(c)] = rows.positions[r * d + c];
      p.velocity[static_cast<int>(c)] = rows.velocities[r * d + c];
    }
    state.particles.push_back(p);
  }
  state.tethers = read_frame_tethers(file, row_frame, rows, box_frame);
  return state;
}

}  // namespace

StateParticles read_state_particles(const std::string& path, long frame, const std::string& key,
                                    const std::function<SpeciesIndex(const std::string&)>& species) {
  silence_hdf5_errors();
  H5Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  if (!file.valid()) throw InputError({path, 0}, key, "cannot open the state file (missing, or not HDF5)");
  try {
    if (exists(file, "checkpoint")) {
      if (!has_attribute(open_group(file, "checkpoint"), "complete")) {
        throw InputError({path, 0}, key, "incomplete checkpoint (its write was interrupted)");
      }
      return from_checkpoint(file, path, species);
    }
    if (exists(file, "particles/all") && exists(file, "parameters/tethersim")) {
      return from_trajectory(file, frame, key, species);
    }
  } catch (const InputError& e) {
    if (!e.where().file.empty()) throw;
    throw InputError({path, 0}, key, e.message());
  } catch (const Hdf5Error& e) {
    throw InputError({path, 0}, key, std::string("damaged state file: ") + e.what());
  }
  throw InputError({path, 0}, key, "neither a tethersim checkpoint nor a trajectory");
}

}  // namespace tethersim::io_detail
