#pragma once
// Records as HDF5 columns (private to io/): one field of a row type written
// as one dataset of `columns` values per row, or read back into the rows.

#include <string>
#include <vector>

#include "hdf5_support.hpp"

namespace tethersim::io_detail {

// Writes rows [first, first + rows.size()) of a new dataset of `total` rows;
// get(row, out) fills the row's `columns` values.
template <typename T, typename Record, typename Get>
void write_column(hid_t group, const std::string& name, const std::vector<Record>& rows, hsize_t first,
                  hsize_t total, hsize_t columns, Get get, hid_t transfer) {
  std::vector<T> data(rows.size() * columns);
  for (std::size_t k = 0; k < rows.size(); ++k) get(rows[k], &data[k * columns]);
  std::vector<hsize_t> shape{total};
  if (columns > 1) shape.push_back(columns);
  H5Id set = create_dataset(group, name, native_type<T>(), shape);
  write_rows(set, native_type<T>(), {}, first, rows.size(), data.data(), transfer);
}

// Reads rows [first, first + rows.size()); put(row, in) stores a row's
// `columns` values.
template <typename T, typename Record, typename Put>
void read_column(hid_t group, const std::string& name, std::vector<Record>& rows, hsize_t first,
                 hsize_t columns, Put put) {
  std::vector<T> data(rows.size() * columns);
  read_rows(open_dataset(group, name), native_type<T>(), {}, first, rows.size(), data.data());
  for (std::size_t k = 0; k < rows.size(); ++k) put(rows[k], &data[k * columns]);
}

}  // namespace tethersim::io_detail
