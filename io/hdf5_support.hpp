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
// True while an exception unwinds in a job of several ranks: closing a
// parallel file then would wait for ranks that may be waiting elsewhere
// (the job is about to end them all), so files are left open.
bool unwinding_in_a_parallel_job();

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
  // Gives up ownership (to close the id oneself and see whether it worked).
  hid_t release() {
    const hid_t id = id_;
    id_ = H5I_INVALID_HID;
    return id;
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
};

// A file could not be written (disk full, file size limit, I/O error): a
// runtime failure, not bad input. One line naming the file.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Turns HDF5's automatic error printing off (once per process).
void silence_hdf5_errors();

// Throws Hdf5Error("<what>") when the id is invalid / the status negative.
hid_t checked(hid_t id, const std::string& what);
void checked(herr_t status, const std::string& what);

// File access through MPI-IO on `comm` (metadata collective); data
// transfers independent, or collective when a dataset written is
// `filtered` (deflated: parallel HDF5 needs collective writes for those).
H5Id mpio_file_access(MPI_Comm comm);
H5Id data_transfer(bool filtered);
// Whether a dataset's chunks pass through filters (deflate, shuffle).
bool has_filters(hid_t dataset);

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
// A 1-D attribute of fixed-size strings, as write_attribute writes lists.
std::vector<std::string> read_string_list_attribute(hid_t object, const std::string& name);
std::int64_t read_integer_attribute(hid_t object, const std::string& name);
double read_double_attribute(hid_t object, const std::string& name);
bool has_attribute(hid_t object, const std::string& name);

// The HDF5 native type of a C++ scalar.
template <typename T>
hid_t native_type();

// Creates a fixed-shape dataset.
H5Id create_dataset(hid_t parent, const std::string& name, hid_t type,
                    const std::vector<hsize_t>& shape);
// When a growing dataset's fill value is written: into every chunk as it
// is allocated (a reader of an unwritten row sees it), or never (for rows
// every frame writes: filling them first would write each frame twice).
enum class FillTime { at_allocation, never };
// Creates a dataset whose first dimension grows (frames), chunked by
// `chunk`, with an optional fill value and deflate level (0: none).
H5Id create_extensible_dataset(hid_t parent, const std::string& name, hid_t type,
                               const std::vector<hsize_t>& inner_shape,
                               const std::vector<hsize_t>& chunk, const void* fill = nullptr,
                               int compression = 0, FillTime fill_time = FillTime::at_allocation);
// Adds shuffle and deflate at `level` (1-9) to a dataset creation list;
// nothing for level 0. Parallel HDF5 writes filtered datasets only
// collectively, which is how every frame is written.
void set_compression(hid_t creation_list, int level);

std::vector<hsize_t> dataset_shape(hid_t dataset);

// Room on disk. HDF5 (1.10) cannot recover from a write that fails
// half-way (a full disk, ulimit -f). The file can then not be closed: its
// close flushes the metadata and extends the file to its allocated end,
// which fails again, and a failed close frees the file's structures while
// its id stays registered. HDF5's own clean-up, run by MPI_Finalize, then
// closes that id again and crashes (a segfault), whether the program closed
// the file itself or not. And the superblock may already have been written
// with an end of file the file never reached ("truncated file"). So nothing
// is written to an HDF5 file before the room for it is secured: every
// operation that makes a file grow first reserves the bytes it can allocate,
// and fails, with HDF5 not involved, when they do not fit. The file is then
// as consistent as after its last flush, and closes normally.

// Makes sure the file at `path` can grow by `extra` bytes past its end: the
// file size limit (RLIMIT_FSIZE) allows it, and the disk blocks are
// allocated now (fallocate, keeping the file's size; where a filesystem
// cannot, its free space is checked instead). The last MiB before the end
// is allocated too (HDF5 leaves gaps there that it fills later). Returns 0,
// or the errno: ENOSPC, EDQUOT, EFBIG, or why the file cannot be opened.
int reserve_room(const std::string& path, std::uint64_t extra);

// Frees the blocks reserved past the end of the file at `path` and not used
// (after closing it). Problems are ignored: the blocks only cost space.
void release_room(const std::string& path);

// "No space left on device (disk full?)": strerror and a hint.
std::string room_problem(int error);

// Collective: rank 0 reserves `extra` bytes after the end of `path`; every
// rank throws the same OutputError "PATH: cannot write WHAT: PROBLEM" when
// there is no room.
void ensure_room(const std::string& path, std::uint64_t extra, MPI_Comm comm,
                 const std::string& what);

// Collective, before H5Fcreate of a new file at `path`: rank 0 creates the
// file (empty) and reserves `bytes` in it, so that a disk without the room
// is found before HDF5 writes anything. Throws OutputError (and removes the
// file) when there is no room; other problems (an unwritable directory) are
// left for H5Fcreate to report. Reserve again after H5Fcreate, which
// truncates the file and so releases the blocks.
void ensure_room_for_new_file(const std::string& path, std::uint64_t bytes, MPI_Comm comm,
                              const std::string& what);

// What H5Dset_extent(dataset, new_shape) allocates: every dataset here
// allocates its chunks early, so growing it allocates the chunks that cover
// the new shape and not the old one.
struct ChunkGrowth {
  std::uint64_t chunks = 0;
  std::uint64_t bytes = 0;
  ChunkGrowth& operator+=(const ChunkGrowth& other) {
    chunks += other.chunks;
    bytes += other.bytes;
    return *this;
  }
  // The room to reserve: the chunks, the index nodes they may add, and
  // metadata blocks (generous: an underestimate would be a crash).
  std::uint64_t room() const { return bytes + chunks * 8192 + 65536; }
};
ChunkGrowth chunk_growth(hid_t dataset, const std::vector<hsize_t>& new_shape);

// Collective write of rows [first, first + count) of a dataset whose row is
// `row_size` elements (every rank calls it; count may be 0). `leading` is a
// prefix index for datasets with extra leading dimensions (a frame number).
void write_rows(hid_t dataset, hid_t type, const std::vector<hsize_t>& leading, hsize_t first,
                hsize_t count, const void* data, hid_t transfer);
// Independent read of rows [first, first + count).
void read_rows(hid_t dataset, hid_t type, const std::vector<hsize_t>& leading, hsize_t first,
               hsize_t count, void* data);

}  // namespace tethersim::io_detail
