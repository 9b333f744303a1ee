#include "tethersim/io/file_info.hpp"

#include <cmath>
#include <sstream>

#include "hdf5_support.hpp"
#include "tethersim/io/checkpoint_file.hpp"
#include "tethersim/io/input_error.hpp"
#include "tethersim/io/json_output.hpp"
#include "tethersim/model/hash_text.hpp"

namespace tethersim {

using namespace io_detail;

namespace {

std::string describe_checkpoint(const std::string& path, bool json) {
  const CheckpointHeader h = read_checkpoint_header(path);
  const engine::EngineSnapshot s = read_checkpoint(path, MPI_COMM_SELF, true);  // verifies the hash
  std::size_t alive = 0;
  for (const auto& p : s.particles) alive += p.alive;
  if (json) {
    Json facts;
    facts["file"] = path;
    facts["kind"] = "checkpoint";
    facts["format"] = h.format_version;
    facts["tethersim_version"] = h.tethersim_version;
    facts["model"] = h.model_name;
    facts["model_path"] = h.model_path;
    facts["model_hash"] = hash_text(h.model_hash);
    facts["physics_hash"] = hash_text(h.physics_hash);
    facts["seed"] = h.seed;
    facts["time"] = json_number(h.time);
    facts["particles"] = h.particles;
    facts["present"] = alive;
    facts["escaped"] = s.escapes.size();
    facts["tethers"] = s.tethers.size();
    facts["loaded_edges"] = s.loaded_edges.size();
    facts["events"] = s.statistics.total_events();
    facts["integrity"] = "content hash verified";
    return json_text(facts);
  }
  std::ostringstream out;
  const std::string hash = hash_text(h.model_hash) + " (physics " + hash_text(h.physics_hash) + ")";
  out << path << ": tethersim checkpoint (format " << h.format_version << ", written by tethersim "
      << h.tethersim_version << ")\n"
      << "  model        " << h.model_name << " from " << h.model_path << ", hash " << hash << "\n"
      << "  seed         " << h.seed << "\n";
  for (const std::string& o : h.overrides) out << "  override     " << o << "\n";
  out.precision(17);
  out << "  time         " << h.time << "\n"
      << "  particles    " << alive << " present of " << h.particles << " (" << s.escapes.size()
      << " escaped)\n"
      << "  tethers      " << s.tethers.size() << "\n"
      << "  loaded edges " << s.loaded_edges.size() << "\n"
      << "  events       " << s.statistics.total_events() << "\n"
      << "  integrity    content hash verified\n";
  return out.str();
}

std::string describe_trajectory(const std::string& path, hid_t file, bool json) {
  std::ostringstream out;
  Json facts;
  H5Id creator = open_group(file, "h5md/creator");
  out << path << ": H5MD trajectory written by " << read_string_attribute(creator, "name") << " "
      << read_string_attribute(creator, "version") << "\n";
  facts["file"] = path;
  facts["kind"] = "trajectory";
  facts["creator"] = read_string_attribute(creator, "name");
  facts["tethersim_version"] = read_string_attribute(creator, "version");
  if (exists(file, "parameters/tethersim")) {
    H5Id p = open_group(file, "parameters/tethersim");
    out << "  model        " << read_string_attribute(p, "model_name") << ", hash "
        << read_string_attribute(p, "model_hash") << "\n";
    facts["model"] = read_string_attribute(p, "model_name");
    facts["model_hash"] = read_string_attribute(p, "model_hash");
    facts["layout"] = has_attribute(p, "layout") ? read_integer_attribute(p, "layout") : 1;
  }
  H5Id times = open_dataset(file, "particles/all/position/time");
  const hsize_t frames = dataset_shape(times)[0];
  const std::vector<hsize_t> shape = dataset_shape(open_dataset(file, "particles/all/position/value"));
  std::vector<double> t(frames);
  read_rows(times, H5T_NATIVE_DOUBLE, {}, 0, frames, t.data());
  // Every frame-indexed dataset must have as many frames as the times.
  for (const char* name : {"particles/all/position/value", "particles/all/id/value",
                           "particles/all/velocity/value", "connectivity/tethers/value",
                           "parameters/tethersim/tether_counts"}) {
    if (!exists(file, name)) continue;
    if (dataset_shape(open_dataset(file, name))[0] != frames) {
      throw Hdf5Error(std::string(name) + " does not have one entry per frame");
    }
  }
  // Read the last frame fully: its data must be there.
  std::vector<double> last(frames > 0 ? shape[1] * shape[2] : 0);
  if (frames > 0) read_rows(open_dataset(file, "particles/all/position/value"), H5T_NATIVE_DOUBLE, {frames - 1}, 0, shape[1], last.data());
  std::size_t present = 0;
  for (std::size_t k = 0; k < last.size(); k += shape[2]) present += !std::isnan(last[k]);
  const hsize_t samples = dataset_shape(open_dataset(file, "observables/kinetic_energy/value"))[0];
  if (json) {
    facts["particles"] = shape[1];
    facts["present_last_frame"] = present;
    facts["dimensions"] = shape[2];
    facts["frames"] = frames;
    if (frames > 0) {
      facts["first_time"] = json_number(t.front());
      facts["last_time"] = json_number(t.back());
    }
    facts["samples"] = samples;
    facts["integrity"] = "all frame datasets consistent, last frame readable";
    return json_text(facts);
  }
  out.precision(10);
  out << "  particles    " << shape[1] << " rows (" << present << " present in the last frame), "
      << shape[2] << "-D\n"
      << "  frames       " << frames;
  if (frames > 0) out << " from t = " << t.front() << " to t = " << t.back();
  out << "\n  observables  " << samples << " samples\n"
      << "  integrity    all frame datasets consistent, last frame readable\n";
  return out.str();
}

}  // namespace

std::string describe_file(const std::string& path, bool json) {
  silence_hdf5_errors();
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    throw InputError({path, 0}, "", "not an HDF5 file (missing, truncated or another format)");
  }
  H5Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  if (!file.valid()) throw InputError({path, 0}, "", "cannot be opened: damaged or truncated");
  try {
    if (exists(file, "checkpoint")) {
      file.reset();
      return describe_checkpoint(path, json);
    }
    if (exists(file, "h5md")) return describe_trajectory(path, file, json);
  } catch (const Hdf5Error& e) {
    throw InputError({path, 0}, "", std::string("damaged: ") + e.what());
  }
  throw InputError({path, 0}, "", "neither a tethersim trajectory nor a checkpoint");
}

}  // namespace tethersim
