#include "tethersim/io/file_info.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "hdf5_support.hpp"
#include "tethersim/io/checkpoint_file.hpp"
#include "tethersim/io/input_error.hpp"

namespace tethersim {

using namespace io_detail;

namespace {

// A flat JSON object, built key by key (numbers round-trip: %.17g).
class JsonObject {
 public:
  JsonObject& text(const std::string& key, const std::string& value) { return raw(key, quote(value)); }
  JsonObject& number(const std::string& key, double value) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    return raw(key, std::isfinite(value) ? buffer : "null");
  }
  JsonObject& integer(const std::string& key, unsigned long long value) { return raw(key, std::to_string(value)); }
  std::string str() const { return "{" + body_ + "}\n"; }

 private:
  JsonObject& raw(const std::string& key, const std::string& value) {
    body_ += (body_.empty() ? "" : ", ") + quote(key) + ": " + value;
    return *this;
  }
  static std::string quote(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') {
        out += '\\';
        out += c;
      } else if (static_cast<unsigned char>(c) < 0x20) {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
        out += buffer;
      } else {
        out += c;
      }
    }
    return out + "\"";
  }
  std::string body_;
};

std::string hex16(std::uint64_t x) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(x));
  return buffer;
}

std::string describe_checkpoint(const std::string& path, bool json) {
  const CheckpointHeader h = read_checkpoint_header(path);
  const engine::EngineSnapshot s = read_checkpoint(path, MPI_COMM_SELF, true);  // verifies the hash
  std::size_t alive = 0;
  for (const auto& p : s.particles) alive += p.alive;
  if (json) {
    return JsonObject()
        .text("file", path)
        .text("kind", "checkpoint")
        .integer("format", static_cast<unsigned long long>(h.format_version))
        .text("tethersim_version", h.tethersim_version)
        .text("model", h.model_name)
        .text("model_path", h.model_path)
        .text("model_hash", hex16(h.model_hash))
        .text("physics_hash", hex16(h.physics_hash))
        .integer("seed", h.seed)
        .number("time", h.time)
        .integer("particles", h.particles)
        .integer("present", alive)
        .integer("escaped", s.escapes.size())
        .integer("tethers", s.tethers.size())
        .integer("loaded_edges", s.loaded_edges.size())
        .integer("events", s.statistics.total_events())
        .text("integrity", "content hash verified")
        .str();
  }
  std::ostringstream out;
  char hash[64];
  std::snprintf(hash, sizeof hash, "%016llx (physics %016llx)",
                static_cast<unsigned long long>(h.model_hash),
                static_cast<unsigned long long>(h.physics_hash));
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
  JsonObject facts;
  H5Id creator = open_group(file, "h5md/creator");
  out << path << ": H5MD trajectory written by " << read_string_attribute(creator, "name") << " "
      << read_string_attribute(creator, "version") << "\n";
  facts.text("file", path).text("kind", "trajectory").text("creator", read_string_attribute(creator, "name"));
  facts.text("tethersim_version", read_string_attribute(creator, "version"));
  if (exists(file, "parameters/tethersim")) {
    H5Id p = open_group(file, "parameters/tethersim");
    out << "  model        " << read_string_attribute(p, "model_name") << ", hash "
        << read_string_attribute(p, "model_hash") << "\n";
    facts.text("model", read_string_attribute(p, "model_name")).text("model_hash", read_string_attribute(p, "model_hash"));
    facts.integer("layout", has_attribute(p, "layout") ? static_cast<unsigned long long>(read_integer_attribute(p, "layout")) : 1);
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
    facts.integer("particles", shape[1]).integer("present_last_frame", present).integer("dimensions", shape[2]);
    facts.integer("frames", frames);
    if (frames > 0) facts.number("first_time", t.front()).number("last_time", t.back());
    return facts.integer("samples", samples).text("integrity", "all frame datasets consistent, last frame readable").str();
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
