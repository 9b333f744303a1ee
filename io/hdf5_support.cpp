#include "hdf5_support.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>

#include "tethersim/mpi/reductions.hpp"

namespace tethersim::io_detail {

H5Id& H5Id::operator=(H5Id&& other) noexcept {
  if (this != &other) {
    reset();
    id_ = other.id_;
    other.id_ = H5I_INVALID_HID;
  }
  return *this;
}

bool unwinding_in_a_parallel_job() {
  if (std::uncaught_exceptions() == 0) return false;
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  if (!initialised || finalised) return false;
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  return ranks > 1;
}

void H5Id::reset() {
  if (id_ < 0) return;
  switch (H5Iget_type(id_)) {
    case H5I_FILE:
      if (!unwinding_in_a_parallel_job()) H5Fclose(id_);
      break;
    case H5I_GROUP: H5Gclose(id_); break;
    case H5I_DATASET: H5Dclose(id_); break;
    case H5I_DATASPACE: H5Sclose(id_); break;
    case H5I_DATATYPE: H5Tclose(id_); break;
    case H5I_ATTR: H5Aclose(id_); break;
    case H5I_GENPROP_LST: H5Pclose(id_); break;
    default: break;
  }
  id_ = H5I_INVALID_HID;
}

void silence_hdf5_errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

hid_t checked(hid_t id, const std::string& what) {
  if (id < 0) throw Hdf5Error(what);
  return id;
}

void checked(herr_t status, const std::string& what) {
  if (status < 0) throw Hdf5Error(what);
}

H5Id mpio_file_access(MPI_Comm comm) {
  H5Id fapl(checked(H5Pcreate(H5P_FILE_ACCESS), "creating a file access list"));
  checked(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL), "selecting MPI-IO");
  // Metadata is written collectively too: every rank makes the same calls.
  checked(H5Pset_all_coll_metadata_ops(fapl, true), "collective metadata reads");
  checked(H5Pset_coll_metadata_write(fapl, true), "collective metadata writes");
  return fapl;
}

H5Id data_transfer(bool filtered) {
  H5Id dxpl(checked(H5Pcreate(H5P_DATASET_XFER), "creating a transfer list"));
  // Independent transfers: every rank writes its own contiguous rows, so
  // there is nothing to aggregate, and a collective transfer makes each
  // rank wait for every other at each call (two file-view changes and
  // MPI-IO's two-phase exchange, some 1 000 synchronisations for a
  // checkpoint of 10^6 particles). Where a waiting rank gives its core to
  // other work, each costs a scheduler slice: a 2-rank checkpoint took
  // 0.8-4.2 s collective against 0.2 s independent on a busy 2-core
  // machine. Parallel HDF5 writes filtered (deflated) datasets only
  // collectively, even on one rank.
  checked(H5Pset_dxpl_mpio(dxpl, filtered ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT), "selecting transfers");
  return dxpl;
}

bool has_filters(hid_t dataset) {
  H5Id creation(checked(H5Dget_create_plist(dataset), "dataset creation list"));
  return H5Pget_nfilters(creation) > 0;
}

H5Id create_group(hid_t parent, const std::string& name) {
  return H5Id(checked(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                      "creating group " + name));
}

H5Id open_group(hid_t parent, const std::string& name) {
  return H5Id(checked(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), "missing group " + name));
}

H5Id open_dataset(hid_t parent, const std::string& name) {
  return H5Id(checked(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), "missing dataset " + name));
}

bool exists(hid_t parent, const std::string& path) {
  // Check each component: H5Lexists fails on a missing intermediate group.
  std::string partial;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t slash = path.find('/', start);
    partial = path.substr(0, slash == std::string::npos ? path.size() : slash);
    if (!partial.empty() && H5Lexists(parent, partial.c_str(), H5P_DEFAULT) <= 0) return false;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return true;
}

namespace {

H5Id string_type(std::size_t length) {
  H5Id type(checked(H5Tcopy(H5T_C_S1), "string type"));
  checked(H5Tset_size(type, std::max<std::size_t>(length, 1)), "string size");
  checked(H5Tset_strpad(type, H5T_STR_NULLTERM), "string padding");
  return type;
}

void write_raw_attribute(hid_t object, const std::string& name, hid_t type, hid_t space,
                         const void* data) {
  if (H5Aexists(object, name.c_str()) > 0) H5Adelete(object, name.c_str());
  H5Id attribute(checked(H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT),
                         "creating attribute " + name));
  checked(H5Awrite(attribute, type, data), "writing attribute " + name);
}

}  // namespace

void write_attribute(hid_t object, const std::string& name, const std::string& value) {
  H5Id type = string_type(value.size() + 1);
  H5Id space(checked(H5Screate(H5S_SCALAR), "scalar space"));
  write_raw_attribute(object, name, type, space, value.c_str());
}

void write_attribute(hid_t object, const std::string& name, std::int64_t value) {
  H5Id space(checked(H5Screate(H5S_SCALAR), "scalar space"));
  write_raw_attribute(object, name, H5T_NATIVE_INT64, space, &value);
}

void write_attribute(hid_t object, const std::string& name, double value) {
  H5Id space(checked(H5Screate(H5S_SCALAR), "scalar space"));
  write_raw_attribute(object, name, H5T_NATIVE_DOUBLE, space, &value);
}

void write_attribute(hid_t object, const std::string& name, const std::vector<std::int32_t>& values) {
  const hsize_t n = values.size();
  H5Id space(checked(H5Screate_simple(1, &n, nullptr), "attribute space"));
  write_raw_attribute(object, name, H5T_NATIVE_INT32, space, values.data());
}

void write_attribute(hid_t object, const std::string& name, const std::vector<std::string>& values) {
  std::size_t width = 1;
  for (const std::string& v : values) width = std::max(width, v.size() + 1);
  std::vector<char> packed(width * values.size(), '\0');
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::copy(values[i].begin(), values[i].end(), packed.begin() + static_cast<long>(i * width));
  }
  H5Id type = string_type(width);
  const hsize_t n = values.size();
  H5Id space(checked(H5Screate_simple(1, &n, nullptr), "attribute space"));
  write_raw_attribute(object, name, type, space, packed.data());
}

void write_attribute(hid_t object, const std::string& name, const std::vector<double>& values) {
  const hsize_t n = values.size();
  H5Id space(checked(H5Screate_simple(1, &n, nullptr), "attribute space"));
  write_raw_attribute(object, name, H5T_NATIVE_DOUBLE, space, values.data());
}

bool has_attribute(hid_t object, const std::string& name) {
  return H5Aexists(object, name.c_str()) > 0;
}

std::string read_string_attribute(hid_t object, const std::string& name) {
  H5Id attribute(checked(H5Aopen(object, name.c_str(), H5P_DEFAULT), "missing attribute " + name));
  H5Id file_type(checked(H5Aget_type(attribute), "attribute type"));
  if (H5Tget_class(file_type) != H5T_STRING) throw Hdf5Error("attribute " + name + " is not a string");
  const std::size_t size = H5Tget_size(file_type);
  std::vector<char> buffer(size + 1, '\0');
  H5Id memory_type = string_type(size);
  checked(H5Aread(attribute, memory_type, buffer.data()), "reading attribute " + name);
  return std::string(buffer.data());
}

std::vector<std::string> read_string_list_attribute(hid_t object, const std::string& name) {
  H5Id attribute(checked(H5Aopen(object, name.c_str(), H5P_DEFAULT), "missing attribute " + name));
  H5Id file_type(checked(H5Aget_type(attribute), "attribute type"));
  if (H5Tget_class(file_type) != H5T_STRING) throw Hdf5Error("attribute " + name + " is not a list of strings");
  H5Id space(checked(H5Aget_space(attribute), "attribute space"));
  const hssize_t count = H5Sget_simple_extent_npoints(space);
  if (H5Tis_variable_str(file_type) > 0) {
    // As h5py writes them (a file edited in Python).
    H5Id memory_type(checked(H5Tcopy(H5T_C_S1), "string type"));
    checked(H5Tset_size(memory_type, H5T_VARIABLE), "string type");
    std::vector<char*> raw(static_cast<std::size_t>(std::max<hssize_t>(count, 0)), nullptr);
    checked(H5Aread(attribute, memory_type, raw.data()), "reading attribute " + name);
    std::vector<std::string> values;
    for (char* text : raw) values.emplace_back(text != nullptr ? text : "");
    H5Dvlen_reclaim(memory_type, space, H5P_DEFAULT, raw.data());
    return values;
  }
  const std::size_t width = H5Tget_size(file_type);
  if (count < 0 || width == 0) throw Hdf5Error("attribute " + name + " has no size");
  std::vector<char> packed(width * static_cast<std::size_t>(count), '\0');
  H5Id memory_type = string_type(width);
  checked(H5Aread(attribute, memory_type, packed.data()), "reading attribute " + name);
  std::vector<std::string> values;
  for (hssize_t k = 0; k < count; ++k) {
    const char* first = packed.data() + static_cast<std::size_t>(k) * width;
    values.emplace_back(first, strnlen(first, width));
  }
  return values;
}

std::int64_t read_integer_attribute(hid_t object, const std::string& name) {
  H5Id attribute(checked(H5Aopen(object, name.c_str(), H5P_DEFAULT), "missing attribute " + name));
  std::int64_t value = 0;
  checked(H5Aread(attribute, H5T_NATIVE_INT64, &value), "reading attribute " + name);
  return value;
}

double read_double_attribute(hid_t object, const std::string& name) {
  H5Id attribute(checked(H5Aopen(object, name.c_str(), H5P_DEFAULT), "missing attribute " + name));
  double value = 0;
  checked(H5Aread(attribute, H5T_NATIVE_DOUBLE, &value), "reading attribute " + name);
  return value;
}

template <>
hid_t native_type<double>() { return H5T_NATIVE_DOUBLE; }
template <>
hid_t native_type<std::int64_t>() { return H5T_NATIVE_INT64; }
template <>
hid_t native_type<std::uint64_t>() { return H5T_NATIVE_UINT64; }
template <>
hid_t native_type<std::int32_t>() { return H5T_NATIVE_INT32; }
template <>
hid_t native_type<std::uint32_t>() { return H5T_NATIVE_UINT32; }
template <>
hid_t native_type<std::uint8_t>() { return H5T_NATIVE_UINT8; }

H5Id create_dataset(hid_t parent, const std::string& name, hid_t type,
                    const std::vector<hsize_t>& shape) {
  H5Id space(checked(H5Screate_simple(static_cast<int>(shape.size()), shape.data(), nullptr),
                     "dataspace for " + name));
  return H5Id(checked(H5Dcreate2(parent, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT,
                                 H5P_DEFAULT),
                      "creating dataset " + name));
}

H5Id create_extensible_dataset(hid_t parent, const std::string& name, hid_t type,
                               const std::vector<hsize_t>& inner_shape,
                               const std::vector<hsize_t>& chunk, const void* fill,
                               int compression, FillTime fill_time) {
  std::vector<hsize_t> shape{0}, maxshape{H5S_UNLIMITED};
  shape.insert(shape.end(), inner_shape.begin(), inner_shape.end());
  maxshape.insert(maxshape.end(), inner_shape.begin(), inner_shape.end());
  H5Id space(checked(H5Screate_simple(static_cast<int>(shape.size()), shape.data(), maxshape.data()),
                     "dataspace for " + name));
  H5Id dcpl(checked(H5Pcreate(H5P_DATASET_CREATE), "dataset creation list"));
  checked(H5Pset_chunk(dcpl, static_cast<int>(chunk.size()), chunk.data()), "chunking " + name);
  if (fill != nullptr) checked(H5Pset_fill_value(dcpl, type, fill), "fill value of " + name);
  if (fill_time == FillTime::never) checked(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER), "fill time of " + name);
  set_compression(dcpl, compression);
  // Parallel writes need chunks allocated up front.
  checked(H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY), "allocation of " + name);
  return H5Id(checked(H5Dcreate2(parent, name.c_str(), type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
                      "creating dataset " + name));
}

void set_compression(hid_t creation_list, int level) {
  if (level <= 0) return;
  // Shuffle groups the bytes of each position by significance first:
  // doubles of nearby particles share their high bytes, which then deflate.
  checked(H5Pset_shuffle(creation_list), "the shuffle filter");
  checked(H5Pset_deflate(creation_list, static_cast<unsigned>(level)), "the deflate filter");
}

std::vector<hsize_t> dataset_shape(hid_t dataset) {
  H5Id space(checked(H5Dget_space(dataset), "dataset space"));
  const int rank = H5Sget_simple_extent_ndims(space);
  std::vector<hsize_t> shape(static_cast<std::size_t>(std::max(rank, 0)));
  H5Sget_simple_extent_dims(space, shape.data(), nullptr);
  return shape;
}

namespace {

bool is_room_error(int error) { return error == ENOSPC || error == EDQUOT || error == EFBIG; }

}  // namespace

int reserve_room(const std::string& path, std::uint64_t extra) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  int error = 0;
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    error = errno;
  } else {
    const auto size = static_cast<std::uint64_t>(status.st_size);
    // Writes at or past the limit fail (EFBIG), even inside the file.
    struct rlimit limit {};
    if (::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
        size + extra > static_cast<std::uint64_t>(limit.rlim_cur)) {
      error = EFBIG;
    }
    // HDF5 leaves gaps just before the end (space allocated, written later).
    const std::uint64_t lookback = std::min<std::uint64_t>(size, std::uint64_t{1} << 20);
    const auto offset = static_cast<off_t>(size - lookback);
    const auto length = static_cast<off_t>(lookback + extra);
#ifdef __linux__
    while (error == 0 && length > 0 && ::fallocate(fd, FALLOC_FL_KEEP_SIZE, offset, length) != 0) {
      if (errno == EINTR) continue;
      error = errno;
    }
#else
    error = error == 0 ? EOPNOTSUPP : error;
#endif
    if (error != 0 && !is_room_error(error)) {
      // The filesystem cannot reserve: check its free space instead.
      struct statvfs fs {};
      error = ::fstatvfs(fd, &fs) == 0 && static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize < extra
                  ? ENOSPC
                  : 0;
    }
  }
  ::close(fd);
  return error;
}

void release_room(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat status {};
  // Truncating to the same size drops the blocks allocated past the end.
  if (::fstat(fd, &status) == 0) (void)!::ftruncate(fd, status.st_size);
  ::close(fd);
}

std::string room_problem(int error) {
  std::string text = std::strerror(error);
  if (error == EFBIG) return text + " (disk full, or a file size limit such as ulimit -f?)";
  if (is_room_error(error)) return text + " (disk full?)";
  return text;
}

void ensure_room(const std::string& path, std::uint64_t extra, MPI_Comm comm,
                 const std::string& what) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const int error = mpi::broadcast(rank == 0 ? reserve_room(path, extra) : 0, 0, comm);
  if (error != 0) throw OutputError(path + ": cannot write " + what + ": " + room_problem(error));
}

void ensure_room_for_new_file(const std::string& path, std::uint64_t bytes, MPI_Comm comm,
                              const std::string& what) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int error = 0;
  if (rank == 0) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd >= 0) {
      ::close(fd);
      error = reserve_room(path, bytes);
      if (!is_room_error(error)) error = 0;
      if (error != 0) ::unlink(path.c_str());
    }
  }
  error = mpi::broadcast(error, 0, comm);
  if (error != 0) throw OutputError(path + ": cannot write " + what + ": " + room_problem(error));
}

ChunkGrowth chunk_growth(hid_t dataset, const std::vector<hsize_t>& new_shape) {
  const std::vector<hsize_t> old_shape = dataset_shape(dataset);
  H5Id dcpl(checked(H5Dget_create_plist(dataset), "dataset creation list"));
  std::vector<hsize_t> chunk(old_shape.size(), 1);
  ChunkGrowth growth;
  if (H5Pget_layout(dcpl) != H5D_CHUNKED ||
      H5Pget_chunk(dcpl, static_cast<int>(chunk.size()), chunk.data()) != static_cast<int>(chunk.size()) ||
      new_shape.size() != old_shape.size()) {
    return growth;  // not growing: fixed datasets allocate nothing
  }
  auto covering = [&](const std::vector<hsize_t>& shape) {
    std::uint64_t chunks = 1;
    for (std::size_t k = 0; k < shape.size(); ++k) chunks *= (shape[k] + chunk[k] - 1) / chunk[k];
    return chunks;
  };
  const std::uint64_t before = covering(old_shape), after = covering(new_shape);
  if (after <= before) return growth;
  H5Id type(checked(H5Dget_type(dataset), "dataset type"));
  std::uint64_t chunk_bytes = H5Tget_size(type);
  for (hsize_t c : chunk) chunk_bytes *= c;
  growth.chunks = after - before;
  growth.bytes = growth.chunks * chunk_bytes;
  return growth;
}

namespace {

std::string object_name(hid_t object) {
  char name[256] = {0};
  H5Iget_name(object, name, sizeof name);
  return name;
}

// The file and memory spaces selecting rows [first, first + count) after
// the leading indices.
void row_selection(hid_t dataset, const std::vector<hsize_t>& leading, hsize_t first,
                   hsize_t count, H5Id& file_space, H5Id& memory_space) {
  const std::vector<hsize_t> shape = dataset_shape(dataset);
  const std::size_t rank = shape.size();
  std::vector<hsize_t> start(rank, 0), extent(rank, 1);
  for (std::size_t k = 0; k < leading.size(); ++k) start[k] = leading[k];
  start[leading.size()] = first;
  extent[leading.size()] = count;
  for (std::size_t k = leading.size() + 1; k < rank; ++k) extent[k] = shape[k];
  file_space = H5Id(checked(H5Dget_space(dataset), "dataset space"));
  if (count == 0) {
    H5Sselect_none(file_space);
  } else {
    checked(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start.data(), nullptr, extent.data(),
                                nullptr),
            "selecting rows");
  }
  // The memory space has the selection's shape (rows, then the trailing
  // extents): a flat space of the same size made HDF5 map every element
  // to its chunk one at a time (about 2.5 ms per 10^5 values), where
  // equal shapes map whole blocks.
  std::vector<hsize_t> memory_shape(extent.begin() + static_cast<std::ptrdiff_t>(leading.size()), extent.end());
  memory_shape.front() = std::max<hsize_t>(count, 1);
  memory_space = H5Id(checked(H5Screate_simple(static_cast<int>(memory_shape.size()), memory_shape.data(), nullptr),
                              "memory space"));
  if (count == 0) H5Sselect_none(memory_space);
}

}  // namespace

void write_rows(hid_t dataset, hid_t type, const std::vector<hsize_t>& leading, hsize_t first,
                hsize_t count, const void* data, hid_t transfer) {
  // An empty dataset has no storage to write to (and every rank sees it
  // empty, so all skip the collective call together).
  const std::vector<hsize_t> shape = dataset_shape(dataset);
  for (hsize_t extent : shape) {
    if (extent == 0) return;
  }
  H5Id file_space, memory_space;
  row_selection(dataset, leading, first, count, file_space, memory_space);
  static const double dummy = 0.0;
  checked(H5Dwrite(dataset, type, memory_space, file_space, transfer, count ? data : &dummy),
          "writing " + object_name(dataset));
}

void read_rows(hid_t dataset, hid_t type, const std::vector<hsize_t>& leading, hsize_t first,
               hsize_t count, void* data) {
  for (hsize_t extent : dataset_shape(dataset)) {
    if (extent == 0) return;
  }
  H5Id file_space, memory_space;
  row_selection(dataset, leading, first, count, file_space, memory_space);
  static double dummy = 0.0;
  checked(H5Dread(dataset, type, memory_space, file_space, H5P_DEFAULT, count ? data : &dummy),
          "reading " + object_name(dataset));
}

}  // namespace tethersim::io_detail
