#pragma once
// The layout of checkpoint.h5 (private to io/; docs/output-format.md,
// section 5), declared once: write_checkpoint creates and read_checkpoint
// opens every group and dataset through these names, and the records'
// columns through these tables. The particle columns come from the
// particle field list (checkpoint_particles.hpp). A new dataset is one
// name here (a new column of a record, one entry of its table), written
// and read where the others are.

#include <cstdint>
#include <tuple>

#include "record_columns.hpp"
#include "tethersim/engine/snapshot.hpp"

namespace tethersim::io_detail::checkpoint_layout {

// The group that holds everything, with the header's attributes.
inline constexpr const char* kRoot = "checkpoint";
inline constexpr const char* kModelText = "model_text";            // bytes of the model file
inline constexpr const char* kModelOverrides = "model_overrides";  // --set overrides, one a line
inline constexpr const char* kParticles = "particles";              // particles/<field>, [N] or [N, width]
inline constexpr const char* kReactionTimes = "reaction_times";     // particles/reaction_times [reactions, N]
inline constexpr const char* kLoadedEdges = "loaded_edges";
inline constexpr const char* kEscapes = "escapes";
inline constexpr const char* kReleases = "releases";
inline constexpr const char* kPeriodicTicks = "periodic_ticks";  // [impulses]
inline constexpr const char* kStatistics = "statistics";         // the engine's counters, then largest_group

// A particle's Phi for one reaction, on its way to the rank writing its row.
struct PhiRecord {
  std::uint64_t slot;
  std::uint64_t reaction;
  double value;
};

// The engine's own pair (a < b), written as it is: a membrane's millions
// of tethers are not copied into another layout. Written by the rank of
// a's slot, which is computed, not stored.
using TetherRecord = engine::TetherSnapshot;

struct EdgeRecord {
  std::uint64_t slot;  // of pair[0]
  std::uint64_t pair[2];
  double impulse[3];
  double time;
  std::uint64_t sequence;
};

struct EscapeRecord {
  std::uint64_t id;
  std::int32_t species;
  double time;
  double position[3];
  double velocity[3];
};

struct ReleaseRecord {
  std::uint64_t id;
  double time;
};

// tethers [M, 2] in the root group: the ids of each tether, lower first.
inline constexpr auto kTetherColumns = std::tuple{RecordPairColumn<&TetherRecord::a, &TetherRecord::b>{"tethers"}};

// loaded_edges/<column>
inline constexpr auto kEdgeColumns =
    std::tuple{RecordColumn<&EdgeRecord::pair>{"pair"}, RecordColumn<&EdgeRecord::impulse>{"impulse"},
               RecordColumn<&EdgeRecord::time>{"time"}, RecordColumn<&EdgeRecord::sequence>{"sequence"}};

// escapes/<column>
inline constexpr auto kEscapeColumns =
    std::tuple{RecordColumn<&EscapeRecord::id>{"id"}, RecordColumn<&EscapeRecord::species>{"species"},
               RecordColumn<&EscapeRecord::time>{"time"}, RecordColumn<&EscapeRecord::position>{"position"},
               RecordColumn<&EscapeRecord::velocity>{"velocity"}};

// releases/<column>
inline constexpr auto kReleaseColumns =
    std::tuple{RecordColumn<&ReleaseRecord::id>{"id"}, RecordColumn<&ReleaseRecord::time>{"time"}};

}  // namespace tethersim::io_detail::checkpoint_layout
