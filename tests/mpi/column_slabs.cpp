// Columns written in slabs: every rank holds a different number of rows
// (one rank none), each writes them through a buffer of a few rows, and
// the file must hold every row where its slot says, whatever the rank
// count. A rank that made fewer collective slab writes than another would
// hang the test; a slab at the wrong offset would fail it.
//   mpirun -np N tethersim_column_slabs OUTPUT_DIR
#include <algorithm>
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "hdf5_support.hpp"
#include "record_columns.hpp"

using namespace tethersim::io_detail;

namespace {

struct Row {
  std::uint64_t slot;
  double position[3];
  std::int64_t label;
};

double coordinate(std::uint64_t slot, std::size_t k) {
  return 0.25 * static_cast<double>(slot) + 1000.0 * static_cast<double>(k);
}
std::int64_t label(std::uint64_t slot) { return static_cast<std::int64_t>(slot * 7 + 1); }

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (argc != 2) {
    if (rank == 0) std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const std::string out = argv[1];
  if (rank == 0) std::filesystem::create_directories(out);
  MPI_Barrier(MPI_COMM_WORLD);
  silence_hdf5_errors();

  // Rank r holds 37 r + 5 rows, except the last of several ranks, which
  // holds none; their slots follow one another in rank order.
  auto rows_of = [&](int r) { return ranks > 1 && r == ranks - 1 ? 0 : 37 * r + 5; };
  std::uint64_t first = 0, total = 0, most = 0;
  for (int r = 0; r < ranks; ++r) {
    if (r < rank) first += rows_of(r);
    total += rows_of(r);
    most = std::max<std::uint64_t>(most, rows_of(r));
  }
  std::vector<Row> rows(rows_of(rank));
  for (std::size_t k = 0; k < rows.size(); ++k) {
    Row& row = rows[k];
    row.slot = first + k;
    for (std::size_t c = 0; c < 3; ++c) row.position[c] = coordinate(row.slot, c);
    row.label = label(row.slot);
  }

  const std::string path = out + "/columns.h5";
  {
    H5Id fapl = mpio_file_access(MPI_COMM_WORLD);
    H5Id file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl));
    // Collective transfers (those of deflated datasets), where every rank
    // must make as many writes as the others.
    H5Id transfer = data_transfer(true);
    // Slabs of 2 rows of positions (48 bytes) and 5 of labels (40 bytes).
    write_column<double>(
        file, "position", rows, first, total, 3,
        [](const Row& r, double* values) {
          for (std::size_t c = 0; c < 3; ++c) values[c] = r.position[c];
        },
        most, transfer, 48);
    write_column<std::int64_t>(
        file, "label", rows, first, total, 1, [](const Row& r, std::int64_t* value) { *value = r.label; }, most,
        transfer, 40);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  int failures = 0;
  if (rank == 0) {
    H5Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    std::vector<double> positions(total * 3);
    std::vector<std::int64_t> labels(total);
    read_rows(open_dataset(file, "position"), H5T_NATIVE_DOUBLE, {}, 0, total, positions.data());
    read_rows(open_dataset(file, "label"), H5T_NATIVE_INT64, {}, 0, total, labels.data());
    for (std::uint64_t slot = 0; slot < total; ++slot) {
      for (std::size_t c = 0; c < 3; ++c) failures += positions[slot * 3 + c] != coordinate(slot, c);
      failures += labels[slot] != label(slot);
    }
    std::printf("%d ranks, %llu rows: %d wrong values\n", ranks, static_cast<unsigned long long>(total), failures);
  }
  MPI_Bcast(&failures, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
