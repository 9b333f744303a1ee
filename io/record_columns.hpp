#pragma once
// Records as HDF5 columns (private to io/): one field of a row type written
// as one dataset of `columns` values per row, or read back into the rows.

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "hdf5_support.hpp"

namespace tethersim::io_detail {

// Bytes of one slab of a column on its way to the file.
inline constexpr std::size_t kColumnSlabBytes = std::size_t{1} << 19;

// A new dataset of `total` rows of `columns` values each: one value per
// row is a 1-D dataset, several a [total, columns] one.
template <typename T>
H5Id create_column_dataset(hid_t group, const std::string& name, hsize_t total, hsize_t columns) {
  std::vector<hsize_t> shape{total};
  if (columns > 1) shape.push_back(columns);
  return create_dataset(group, name, native_type<T>(), shape);
}

// Writes rows [first, first + rows.size()) of the dataset `set`; get(row,
// out) fills the row's `columns` values. The rows go in slabs through one
// small buffer: the kernel then copies each slab into the page cache while
// it is still in the processor's cache, which writes a column of 10^6
// particles several times faster than one buffer of the whole column, and
// no column-sized buffer is allocated. Every rank makes as many
// (collective) slab writes as the rank with the most rows, `most_rows`,
// which the caller knows: asking the file's communicator for it here cost
// two communicator duplicates and a reduction per column, each a
// synchronisation of every rank (seconds per checkpoint on a busy machine).
template <typename T, typename Record, typename Get>
void write_column_rows(hid_t set, const std::vector<Record>& rows, hsize_t first, hsize_t columns, Get get,
                       hsize_t most_rows, hid_t transfer, std::size_t slab_bytes = kColumnSlabBytes) {
  const std::size_t slab = std::max<std::size_t>(1, slab_bytes / (sizeof(T) * columns));
  const std::size_t slabs = std::max<hsize_t>(1, (most_rows + slab - 1) / slab);
  std::vector<T> data(std::min(rows.size(), slab) * columns);
  for (std::size_t s = 0; s < slabs; ++s) {
    const std::size_t begin = std::min(rows.size(), s * slab), end = std::min(rows.size(), begin + slab);
    for (std::size_t k = begin; k < end; ++k) get(rows[k], &data[(k - begin) * columns]);
    write_rows(set, native_type<T>(), {}, first + begin, end - begin, data.data(), transfer);
  }
}

// Writes rows [first, first + rows.size()) of a new dataset of `total`
// rows, as write_column_rows does.
template <typename T, typename Record, typename Get>
void write_column(hid_t group, const std::string& name, const std::vector<Record>& rows, hsize_t first,
                  hsize_t total, hsize_t columns, Get get, hsize_t most_rows, hid_t transfer,
                  std::size_t slab_bytes = kColumnSlabBytes) {
  H5Id set = create_column_dataset<T>(group, name, total, columns);
  write_column_rows<T>(set, rows, first, columns, get, most_rows, transfer, slab_bytes);
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

template <typename MemberPointer>
struct ColumnMember;
template <typename Record, typename T>
struct ColumnMember<T Record::*> {
  using Scalar = T;
  static constexpr std::size_t width = 1;
  static const T* begin(const T& v) { return &v; }
  static T* begin(T& v) { return &v; }
};
template <typename Record, typename T, std::size_t N>
struct ColumnMember<T (Record::*)[N]> {
  using Scalar = T;
  static constexpr std::size_t width = N;
  static const T* begin(const T (&v)[N]) { return v; }
  static T* begin(T (&v)[N]) { return v; }
};

// One column of a record type, declared once for the writer and the
// reader: the member it holds (a scalar, or an array of scalars as that
// many values per row) and its dataset's name. A column type says what a
// row holds (Scalar, width) and how a record's values go out (get) and
// come back (put).
template <auto Member>
struct RecordColumn {
  using M = ColumnMember<decltype(Member)>;
  using Scalar = typename M::Scalar;
  static constexpr std::size_t width = M::width;
  template <typename Record>
  static void get(const Record& r, Scalar* out) {
    std::copy(M::begin(r.*Member), M::begin(r.*Member) + width, out);
  }
  template <typename Record>
  static void put(Record& r, const Scalar* in) {
    std::copy(in, in + width, M::begin(r.*Member));
  }
  std::string_view name;
};

// Two members of one scalar type (a pair's ends) as one column of width 2:
// a record type of the engine's can then be written and read as it is.
template <auto First, auto Second>
struct RecordPairColumn {
  using Scalar = typename ColumnMember<decltype(First)>::Scalar;
  static_assert(std::is_same_v<Scalar, typename ColumnMember<decltype(Second)>::Scalar>);
  static constexpr std::size_t width = 2;
  template <typename Record>
  static void get(const Record& r, Scalar* out) {
    out[0] = r.*First;
    out[1] = r.*Second;
  }
  template <typename Record>
  static void put(Record& r, const Scalar* in) {
    r.*First = in[0];
    r.*Second = in[1];
  }
  std::string_view name;
};

// Writes every column of `columns` (a tuple of RecordColumn and
// RecordPairColumn) in `group`, in the tuple's order, as write_column does
// one.
template <typename Record, typename... Columns>
void write_record_columns(hid_t group, const std::tuple<Columns...>& columns, const std::vector<Record>& rows,
                          hsize_t first, hsize_t total, hsize_t most_rows, hid_t transfer) {
  auto write_one = [&]<typename Column>(const Column& column) {
    using T = typename Column::Scalar;
    write_column<T>(
        group, std::string(column.name), rows, first, total, Column::width,
        [](const Record& r, T* out) { Column::get(r, out); }, most_rows, transfer);
  };
  std::apply([&](const auto&... column) { (write_one(column), ...); }, columns);
}

// Reads rows [first, first + rows.size()) of every column of `columns`.
template <typename Record, typename... Columns>
void read_record_columns(hid_t group, const std::tuple<Columns...>& columns, std::vector<Record>& rows,
                         hsize_t first) {
  auto read_one = [&]<typename Column>(const Column& column) {
    using T = typename Column::Scalar;
    read_column<T>(group, std::string(column.name), rows, first, Column::width,
                   [](Record& r, const T* in) { Column::put(r, in); });
  };
  std::apply([&](const auto&... column) { (read_one(column), ...); }, columns);
}

// The rows the columns of `columns` hold in `group` (its first column's).
template <typename... Columns>
hsize_t record_rows(hid_t group, const std::tuple<Columns...>& columns) {
  return dataset_shape(open_dataset(group, std::string(std::get<0>(columns).name)))[0];
}

}  // namespace tethersim::io_detail
