#include "initial_from_state.hpp"

#include <algorithm>
#include <cmath>

#include "hdf5_support.hpp"
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

StateParticles from_trajectory(hid_t file, long frame, const std::string& key,
                               const std::function<SpeciesIndex(const std::string&)>& species) {
  const std::string base = "particles/all/";
  if (!exists(file, base + "velocity/value")) {
    throw InputError({"", 0}, key, "this trajectory has no velocities (output.fields without velocity)");
  }
  H5Id position_set = open_dataset(file, base + "position/value");
  const std::vector<hsize_t> shape = dataset_shape(position_set);  // [F, N, D]
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
  std::vector<double> positions(n * d), velocities(n * d);
  std::vector<std::int64_t> ids(n);
  read_rows(position_set, H5T_NATIVE_DOUBLE, {row_frame}, 0, n, positions.data());
  read_rows(open_dataset(file, base + "velocity/value"), H5T_NATIVE_DOUBLE, {row_frame}, 0, n, velocities.data());
  read_rows(open_dataset(file, base + "id/value"), H5T_NATIVE_INT64, {row_frame}, 0, n, ids.data());
  const auto kinds = read_all<std::int32_t>(file, base + "species", H5T_NATIVE_INT32);
  std::vector<std::string> names;
  {
    // The names attribute: an array of strings.
    H5Id set = open_dataset(file, base + "species");
    H5Id attribute(checked(H5Aopen(set, "names", H5P_DEFAULT), "species names"));
    H5Id space(checked(H5Aget_space(attribute), "species names"));
    const auto count = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
    H5Id stored(checked(H5Aget_type(attribute), "species names"));
    H5Id type(checked(H5Tcopy(H5T_C_S1), "string type"));
    if (H5Tis_variable_str(stored) > 0) {
      checked(H5Tset_size(type, H5T_VARIABLE), "string type");
      std::vector<char*> raw(count, nullptr);
      checked(H5Aread(attribute, type, raw.data()), "species names");
      for (char* s : raw) names.emplace_back(s != nullptr ? s : "");
      H5Dvlen_reclaim(type, space, H5P_DEFAULT, raw.data());
    } else {  // fixed length, as tethersim writes them
      const std::size_t size = H5Tget_size(stored);
      checked(H5Tset_size(type, size), "string type");
      std::vector<char> raw(size * count + 1, '\0');
      checked(H5Aread(attribute, type, raw.data()), "species names");
      for (std::size_t j = 0; j < count; ++j) {
        const char* begin = raw.data() + j * size;
        std::size_t length = 0;
        while (length < size && begin[length] != '\0') ++length;
        names.emplace_back(begin, length);
      }
    }
  }
  // Layout 2 stores positions in the box frame: back to model coordinates.
  std::vector<double> offset(d, 0.0);
  const bool box_frame = has_attribute(open_group(file, "parameters/tethersim"), "layout");
  if (box_frame) read_rows(open_dataset(file, base + "box/offset"), H5T_NATIVE_DOUBLE, {}, 0, d, offset.data());
  StateParticles state;
  for (hsize_t r = 0; r < n; ++r) {
    if (ids[r] < 0) continue;
    ParticleSpec p;
    p.id = static_cast<ParticleId>(ids[r]);
    p.species = species(names.at(static_cast<std::size_t>(kinds.at(r))));
    for (std::size_t c = 0; c < d; ++c) {
      p.position[static_cast<int>(c)] = positions[r * d + c] + offset[c];
      p.velocity[static_cast<int>(c)] = velocities[r * d + c];
    }
    state.particles.push_back(p);
  }
  if (exists(file, "connectivity/tethers/value")) {
    std::int64_t count = 0;
    read_rows(open_dataset(file, "parameters/tethersim/tether_counts"), H5T_NATIVE_INT64, {}, row_frame, 1, &count);
    std::vector<std::int64_t> pairs(2 * static_cast<std::size_t>(count));
    if (count > 0) {
      read_rows(open_dataset(file, "connectivity/tethers/value"), H5T_NATIVE_INT64, {row_frame}, 0,
                static_cast<hsize_t>(count), pairs.data());
    }
    for (std::size_t j = 0; j + 1 < pairs.size(); j += 2) {
      std::int64_t a = pairs[j], b = pairs[j + 1];
      if (!box_frame) {  // older layout: rows
        a = ids.at(static_cast<std::size_t>(a));
        b = ids.at(static_cast<std::size_t>(b));
      }
      state.tethers.push_back({static_cast<ParticleId>(a), static_cast<ParticleId>(b)});
    }
  }
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
