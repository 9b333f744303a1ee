#pragma once
// Thin RAII and error handling over the HDF5 C API (private to io/).
//
// Every failure becomes an Hdf5Error naming the file and what was being
// done, in one line; HDF5's own multi-line error stack printing is off.

#include <hdf5.h>
#include <mpi.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tethersim::io_detail {

class Hdf5Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Owns an HDF5 identifier and closes it with the right function.
class H5Id {
 public:
  H5Id() = default;
  explicit H5Id(hid_t id) : id_(id) {}
  H5Id(const H5Id&) = delete;
  H5Id& operator=(const H5Id&) = delete;
  H5Id(H5Id&& other) noexcept : id_(other.id_) { other.id_ = H5I_INVALID_HID; }
  H5Id& operator=(H5Id&& other) noexcept;
  ~H5Id() { reset(); }

  hid_t get() const { return id_; }
  operator hid_t() const { return id_; }  // NOLINT: used like the raw id
  bool valid() const { return id_ >= 0; }
  void reset();

 private:
  hid_t id_ = H5I_INVALID_HID;
};

// Turns HDF5's automatic error printing off (once per process).
void silence_hdf5_errors();

// Throws Hdf5Error("<what>") when the id is invalid / the status negative.
hid_t checked(hid_t id, const std::string& what);
void checked(herr_t status, const std::string& what);

// File access through MPI-IO on `comm`; collective data transfers.
H5Id mpio_file_access(MPI_Comm comm);
H5Id collective_transfer();

H5Id create_group(hid_t parent, const std::string& name);
H5Id open_group(hid_t parent, const std::string& name);
H5Id open_dataset(hid_t parent, const std::string& name);
bool exists(hid_t parent, const std::string& path);

// Attributes (written identically by every rank: collective metadata).
void write_attribute(hid_t object, const std::string& name, const std::string& value);
void write_attribute(hid_t object, const std::string& name, std::int64_t value);
void write_attribute(hid_t object, const std::string& name, double value);
void write_attribute(hid_t object, const std::string& name, const std::vector<std::int32_t>& values);
void write_attribute(hid_t object, const std::string& name, const std::vector<std::string>& values);
void write_attribute(hid_t object, const std::string& name, const std::vector<double>& values);
std::string read_string_attribute(hid_t object, const std::string& name);
std::int64_t read_integer_attribute(hid_t object, const std::string& name);
double read_double_attribute(hid_t object, const std::string& name);
bool has_attribute(hid_t object, const std::string& name);

// The HDF5 native type of a C++ scalar.
template <typename T>
hid_t native_type();

// Creates a fixed-shape dataset.
H5Id create_dataset(hid_t parent, const std::string& name, hid_t type,
                    const std::vector<hsize_t>& shape);
// Creates a dataset whose first dimension grows (frames), chunked by
// `chunk`, with an optional fill value.
H5Id create_extensible_dataset(hid_t parent, const std::string& name, hid_t type,
                               const std::vector<hsize_t>& inner_shape,
                               const std::vector<hsize_t>& chunk, const void* fill = nullptr);

std::vector<hsize_t> dataset_shape(hid_t dataset);

// Collective write of rows [first, first + count) of a dataset whose row is
// `row_size` elements (every rank calls it; count may be 0). `leading` is a
// prefix index for datasets with extra leading dimensions (a frame number).
void write_rows(hid_t dataset, hid_t type, const std::vector<hsize_t>& leading, hsize_t first,
                hsize_t count, const void* data, hid_t transfer);
// Independent read of rows [first, first + count).
void read_rows(hid_t dataset, hid_t type, const std::vector<hsize_t>& leading, hsize_t first,
               hsize_t count, void* data);

}  // namespace tethersim::io_detail
