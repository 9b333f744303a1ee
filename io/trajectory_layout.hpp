#pragma once
// The layout of trajectory.h5 (private to io/; docs/output-format.md,
// section 3), declared once. The datasets that grow by one entry per frame
// are one table, kFrameDatasets: create makes each from its entry,
// write_frame opens, sizes and extends them by walking it, and append
// checks that a file has them and cuts them back to the restart. A new
// per-frame dataset is one entry here and the values write_frame puts in
// it. The observables' datasets come from their own table
// (observable_fields.hpp).

#include <hdf5.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tethersim::io_detail::trajectory_layout {

// The time-independent parts of the particle group: the box (its
// attributes and offset), each row's species and mass.
inline constexpr const char* kParticleGroup = "/particles/all";
inline constexpr const char* kBox = "/particles/all/box";
inline constexpr const char* kBoxOffset = "/particles/all/box/offset";
inline constexpr const char* kSpecies = "/particles/all/species";
inline constexpr const char* kPosition = "/particles/all/position";
inline constexpr const char* kVelocity = "/particles/all/velocity";
inline constexpr const char* kId = "/particles/all/id";
inline constexpr const char* kEdges = "/particles/all/box/edges";
inline constexpr const char* kTethers = "/connectivity/tethers";
inline constexpr const char* kObservables = "/observables";
inline constexpr const char* kParameters = "/parameters/tethersim";

// The layout version of /parameters/tethersim "layout": 2 stores the box per
// frame, positions in the box frame, tethers as ids and one step clock.
// A file of another layout is not continued (its datasets mean other
// things), only read.
inline constexpr std::int64_t kLayout = 2;

// Each per-frame dataset, named so that write_frame can find its own.
enum class FrameSet : std::uint8_t { step, time, position, velocity, id, edges, tethers, tether_rows, tether_counts };
inline constexpr std::size_t kFrameSetCount = 9;

// What one frame adds: the dataset's shape after the frame index.
enum class FrameShape : std::uint8_t {
  scalar,       // [frames]
  row_vectors,  // [frames, rows, D]: a D-vector per particle row
  rows,         // [frames, rows]
  box,          // [frames, D, D]
  pairs,        // [frames, tethers, 2]: grows in its second dimension too
};

enum class FrameType : std::uint8_t {
  int64,
  float64,
  frame_real,  // float or double, by output.frame_precision
};

enum class FrameUnit : std::uint8_t { none, time, length, velocity };

// Which files hold the dataset (output.frame_fields, and tether rows only
// when particle ids are not row numbers).
enum class Presence : std::uint8_t { always, with_velocity, with_tethers, with_tether_rows };

struct FrameDataset {
  FrameSet set;
  const char* group;  // the H5MD element (or tethersim's parameters group)
  const char* name;   // the dataset in it
  FrameShape shape;
  FrameType type;
  FrameUnit unit;
  Presence presence;
  // An H5MD time-dependent element other than position: its step and time
  // are hard links to position's, the one frame clock.
  bool links_clock;

  std::string path() const { return std::string(group) + "/" + name; }
};

// In the order create makes them; position's step and time come first (the
// others link to them).
inline constexpr std::array<FrameDataset, kFrameSetCount> kFrameDatasets{{
    {FrameSet::step, kPosition, "step", FrameShape::scalar, FrameType::int64, FrameUnit::none, Presence::always,
     false},
    {FrameSet::time, kPosition, "time", FrameShape::scalar, FrameType::float64, FrameUnit::time, Presence::always,
     false},
    {FrameSet::position, kPosition, "value", FrameShape::row_vectors, FrameType::frame_real, FrameUnit::length,
     Presence::always, false},
    {FrameSet::velocity, kVelocity, "value", FrameShape::row_vectors, FrameType::frame_real, FrameUnit::velocity,
     Presence::with_velocity, true},
    {FrameSet::id, kId, "value", FrameShape::rows, FrameType::int64, FrameUnit::none, Presence::always, true},
    {FrameSet::edges, kEdges, "value", FrameShape::box, FrameType::float64, FrameUnit::length, Presence::always,
     true},
    // H5MD: pairs of particle ids, since the particle group has an id element.
    {FrameSet::tethers, kTethers, "value", FrameShape::pairs, FrameType::int64, FrameUnit::none,
     Presence::with_tethers, true},
    // Not H5MD: the same pairs as rows, for the XDMF sidecar (its line sets
    // index points, that is rows), when ids are not row numbers.
    {FrameSet::tether_rows, kParameters, "tether_rows", FrameShape::pairs, FrameType::int64, FrameUnit::none,
     Presence::with_tether_rows, false},
    {FrameSet::tether_counts, kParameters, "tether_counts", FrameShape::scalar, FrameType::int64, FrameUnit::none,
     Presence::always, false},
}};

constexpr const FrameDataset& frame_dataset(FrameSet set) { return kFrameDatasets[static_cast<std::size_t>(set)]; }

// The table is indexed by FrameSet: each entry sits at its own set's place.
constexpr bool frame_table_in_order() {
  for (std::size_t k = 0; k < kFrameSetCount; ++k) {
    if (static_cast<std::size_t>(kFrameDatasets[k].set) != k) return false;
  }
  return true;
}
static_assert(frame_table_in_order(), "kFrameDatasets must list the frame sets in FrameSet order");

// A dataset's whole shape once it holds `frames` frames of `rows` particle
// rows in `dimensions` dimensions and `tether_rows` tether rows.
inline std::vector<hsize_t> frame_shape(FrameShape shape, hsize_t frames, hsize_t rows, hsize_t dimensions,
                                        hsize_t tether_rows) {
  switch (shape) {
    case FrameShape::scalar: return {frames};
    case FrameShape::row_vectors: return {frames, rows, dimensions};
    case FrameShape::rows: return {frames, rows};
    case FrameShape::box: return {frames, dimensions, dimensions};
    case FrameShape::pairs: return {frames, tether_rows, 2};
  }
  return {frames};
}

}  // namespace tethersim::io_detail::trajectory_layout
