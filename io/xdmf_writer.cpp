// The XDMF 2 sidecar of a trajectory: light XML pointing into the HDF5 file.
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "hdf5_support.hpp"
#include "tethersim/io/trajectory_file.hpp"

namespace tethersim {

namespace {

// A hyperslab of frame `frame` of a [frames, rows, columns] dataset (or
// [frames, rows] when columns == 0).
std::string frame_slab(const std::string& source, std::uint64_t frames, std::uint64_t frame,
                       std::uint64_t rows, std::uint64_t columns, const char* number_type,
                       int precision, std::uint64_t dataset_rows = 0) {
  const std::uint64_t first_row = 0;
  if (dataset_rows == 0) dataset_rows = rows;
  std::ostringstream x;
  const bool matrix = columns > 0;
  x << "<DataItem ItemType=\"HyperSlab\" Dimensions=\"" << rows;
  if (matrix) x << " " << columns;
  x << "\" Type=\"HyperSlab\">\n";
  if (matrix) {
    x << "  <DataItem Dimensions=\"3 3\" Format=\"XML\">" << frame << " " << first_row << " 0 1 1 1 1 "
      << rows << " " << columns << "</DataItem>\n";
  } else {
    x << "  <DataItem Dimensions=\"3 2\" Format=\"XML\">" << frame << " " << first_row << " 1 1 1 "
      << rows << "</DataItem>\n";
  }
  x << "  <DataItem Dimensions=\"" << frames << " ";
  x << (matrix ? std::to_string(dataset_rows) + " " + std::to_string(columns)
               : std::to_string(dataset_rows));
  x << "\" NumberType=\"" << number_type << "\" Precision=\"" << precision
    << "\" Format=\"HDF\">" << source << "</DataItem>\n</DataItem>\n";
  return x.str();
}

}  // namespace

void write_xdmf(const std::string& xdmf_path, const std::string& h5_name, std::uint64_t n,
                int dimensions, const std::vector<double>& frame_times,
                const std::vector<std::uint64_t>& tether_counts, std::uint64_t tether_extent,
                bool velocity, int value_bytes, const std::string& tether_rows) {
  const bool tethers = !tether_rows.empty();
  const std::uint64_t frames = frame_times.size();
  const auto d = static_cast<std::uint64_t>(dimensions);
  // XDMF has no 1-D geometry: 1-D models use X_Y_Z with Y = Z = 0.
  const char* geometry = dimensions == 3 ? "XYZ" : dimensions == 2 ? "XY" : "X_Y_Z";
  auto geometry_items = [&](std::uint64_t f) {
    const std::string x = frame_slab(h5_name + ":/particles/all/position/value", frames, f, n, d, "Float", value_bytes);
    if (dimensions > 1) return x;
    std::string zero = "<DataItem ItemType=\"Function\" Function=\"0 * $0\" Dimensions=\"" +
                       std::to_string(n) + "\">\n" + x + "</DataItem>\n";
    return x + zero + zero;
  };
  std::ostringstream x;
  x << "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
    << "<!-- written by tethersim; the data are in " << h5_name << " (H5MD 1.1) -->\n"
    << "<Xdmf Version=\"2.0\">\n<Domain>\n";
  x << "<Grid Name=\"particles\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  char time_text[40];
  for (std::uint64_t f = 0; f < frames; ++f) {
    std::snprintf(time_text, sizeof time_text, "%.17g", frame_times[f]);
    x << "<Grid Name=\"particles " << f << "\" GridType=\"Uniform\">\n<Time Value=\"" << time_text << "\"/>\n"
      << "<Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" << n << "\" NodesPerElement=\"1\"/>\n"
      << "<Geometry GeometryType=\"" << geometry << "\">\n" << geometry_items(f) << "</Geometry>\n"
      << "<Attribute Name=\"species\" AttributeType=\"Scalar\" Center=\"Node\">\n"
      << "<DataItem Dimensions=\"" << n << "\" NumberType=\"Int\" Precision=\"4\" Format=\"HDF\">"
      << h5_name << ":/particles/all/species</DataItem>\n</Attribute>\n"
      << "<Attribute Name=\"id\" AttributeType=\"Scalar\" Center=\"Node\">\n"
      << frame_slab(h5_name + ":/particles/all/id/value", frames, f, n, 0, "Int", 8) << "</Attribute>\n";
    if (velocity) {
      x << "<Attribute Name=\"velocity\" AttributeType=\"Vector\" Center=\"Node\">\n"
        << frame_slab(h5_name + ":/particles/all/velocity/value", frames, f, n, d, "Float", value_bytes)
        << "</Attribute>\n";
    }
    x << "</Grid>\n";
  }
  x << "</Grid>\n";
  if (tethers) {
    x << "<Grid Name=\"tethers\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
    for (std::uint64_t f = 0; f < frames; ++f) {
      std::snprintf(time_text, sizeof time_text, "%.17g", frame_times[f]);
      const std::uint64_t m = tether_counts[f];
      x << "<Grid Name=\"tethers " << f << "\" GridType=\"Uniform\">\n<Time Value=\"" << time_text << "\"/>\n";
      if (m == 0) {
        x << "<Topology TopologyType=\"Polyline\" NumberOfElements=\"0\" NodesPerElement=\"2\"/>\n";
      } else {
        x << "<Topology TopologyType=\"Polyline\" NumberOfElements=\"" << m << "\" NodesPerElement=\"2\">\n"
          << frame_slab(h5_name + ":" + tether_rows, frames, f, m, 2, "Int", 8,
                        tether_extent)
          << "</Topology>\n";
      }
      x << "<Geometry GeometryType=\"" << geometry << "\">\n" << geometry_items(f)
        << "</Geometry>\n</Grid>\n";
    }
    x << "</Grid>\n";
  }
  x << "</Domain>\n</Xdmf>\n";
  // Replaced only by a complete file: a failed write (disk full) keeps the
  // previous sidecar, which describes frames that are all still there.
  const std::string temporary = xdmf_path + ".tmp";
  errno = 0;
  bool written = false;
  int error = 0;
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << x.str();
    out.close();
    written = static_cast<bool>(out);
    error = errno;
  }
  std::error_code ec;
  if (written) std::filesystem::rename(temporary, xdmf_path, ec);
  if (!written || ec) {
    const std::string problem = written ? ec.message() : io_detail::room_problem(error != 0 ? error : EIO);
    std::filesystem::remove(temporary, ec);
    throw io_detail::OutputError(xdmf_path + ": cannot write the sidecar: " + problem);
  }
}

}  // namespace tethersim
