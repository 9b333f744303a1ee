#pragma once
// The observables a run samples, declared once: the values of a sample
// (FrameObservables) and the table that says, for each, its name, its type,
// its unit, how ranks combine their parts, and which files hold it. The
// trajectory (/observables/<name>), observables.jsonl, summary.json and the
// runtime's measurements over ranks and the progress lines all walk kObservableFields, so a new
// observable is its member in FrameObservables, one entry here, and its
// measure in src/runtime/system_observables.cpp (the build fails until
// every entry has one; docs/architecture.md, "Where to change what").

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tethersim/engine/event_kind.hpp"
#include "tethersim/io/json_output.hpp"
#include "tethersim/model/model.hpp"

namespace tethersim {

// Values that are the same on every rank (global sums) when written.
struct FrameObservables {
  double kinetic_energy = 0.0;
  Vec3 momentum = Vec3::Zero();
  std::uint64_t particles = 0;
  std::uint64_t escapes = 0;
  std::uint64_t tethers = 0;
  std::vector<std::uint64_t> clusters;     // per output.cluster_species
  std::vector<std::uint64_t> tethered;     // per output.tethered_pairs
  std::vector<std::uint64_t> event_counts; // cumulative, per event kind
  double temperature = 0.0;  // kT = 2 KE / (d N), N the mobile particles (0 when there are none)
};

// Where a value lives in FrameObservables: its C++ type gives the file
// type (double and Vec3: float64; counts: int64) and the columns (Vec3: 3).
using ObservableMember =
    std::variant<double FrameObservables::*, Vec3 FrameObservables::*, std::uint64_t FrameObservables::*,
                 std::vector<std::uint64_t> FrameObservables::*>;

enum class ObservableType : std::uint8_t { real, count };

// The unit attribute of the trajectory dataset, from [model.units].
enum class ObservableUnit : std::uint8_t { none, energy, momentum };

// How the ranks' parts make the system's value (every rank gets it).
enum class ObservableReduction : std::uint8_t {
  exact_sum,  // sums of doubles, exact (physics::ExactSum): any split gives the same bits
  sum,        // integer sums
  measured,   // the measure combines the ranks itself (clusters: a union-find on rank 0;
              // tethered: a hub's partners are spread over ranks and counted once)
};

// What one entry stands for: one value (a scalar, a vector, or a row with
// one column per event kind), or one value per item the model lists, each
// its own dataset and key.
enum class ObservableItems : std::uint8_t {
  one,
  per_event_kind,      // one value, a column per event kind (kEventKindNames)
  per_cluster_species, // output.cluster_species: clusters_<X>
  per_tethered_pair,   // output.tethered_pairs: tethered_<A>_<B>
};

// The files that hold an observable.
enum ObservableOutput : unsigned {
  kInTrajectory = 1u << 0,  // /observables/<name> in trajectory.h5
  kInLog = 1u << 1,         // a key of each line of observables.jsonl
  kInSummary = 1u << 2,     // summary.json "initial" and "final"
  kEverywhere = kInTrajectory | kInLog | kInSummary,
  kInProgress = 1u << 3,    // a column of the progress lines (scalars only)
};

struct ObservableField {
  std::string_view name;  // the dataset and key; for items, the summary.json object that groups them
  ObservableMember member;
  ObservableUnit unit = ObservableUnit::none;
  ObservableReduction reduction = ObservableReduction::sum;
  ObservableItems items = ObservableItems::one;
  unsigned written = kEverywhere;

  constexpr ObservableType type() const {
    return std::holds_alternative<double FrameObservables::*>(member) ||
                   std::holds_alternative<Vec3 FrameObservables::*>(member)
               ? ObservableType::real
               : ObservableType::count;
  }
  constexpr bool in(ObservableOutput output) const { return (written & output) != 0; }
};

// In file order: the trajectory's datasets, the keys of a line of
// observables.jsonl and of summary.json follow it. The first one's dataset
// holds the step and time every other one links to.
inline constexpr std::array kObservableFields = {
    ObservableField{"kinetic_energy", &FrameObservables::kinetic_energy, ObservableUnit::energy,
                    ObservableReduction::exact_sum, ObservableItems::one, kEverywhere | kInProgress},
    ObservableField{"momentum", &FrameObservables::momentum, ObservableUnit::momentum,
                    ObservableReduction::exact_sum},
    ObservableField{"particles", &FrameObservables::particles, ObservableUnit::none, ObservableReduction::sum,
                    ObservableItems::one, kEverywhere | kInProgress},
    ObservableField{"escapes", &FrameObservables::escapes},
    ObservableField{"tethers", &FrameObservables::tethers},
    ObservableField{"event_counts", &FrameObservables::event_counts, ObservableUnit::none, ObservableReduction::sum,
                    ObservableItems::per_event_kind, kInTrajectory | kInLog},
    ObservableField{"clusters", &FrameObservables::clusters, ObservableUnit::none, ObservableReduction::measured,
                    ObservableItems::per_cluster_species, kEverywhere | kInProgress},
    ObservableField{"tethered", &FrameObservables::tethered, ObservableUnit::none, ObservableReduction::measured,
                    ObservableItems::per_tethered_pair, kEverywhere | kInProgress},
    // Last, so that the datasets and keys before it keep their order.
    ObservableField{"temperature", &FrameObservables::temperature, ObservableUnit::energy,
                    ObservableReduction::measured},
};
inline constexpr std::size_t kObservableFieldCount = kObservableFields.size();

// The columns of event_counts: the event kinds in the engine's order.
inline constexpr const auto& kEventCountColumns = engine::kEventKindNames;

// One dataset of the trajectory and key of observables.jsonl: a field, or
// one item of a field that has one per model item.
struct ObservableColumn {
  const ObservableField* field = nullptr;
  std::string name;          // /observables/<name>, the observables.jsonl key
  std::string summary_name;  // the key in summary.json (within the field's object for items)
  std::size_t item = 0;      // which item of the field's values
  std::size_t columns = 0;   // values per sample; 0: a scalar
};

// The columns of one field for this model.
std::vector<ObservableColumn> observable_columns(const Model& model, const ObservableField& field);
// Every field's columns, in file order, for this model.
std::vector<ObservableColumn> observable_columns(const Model& model);

// A column's values in a sample, as the file type holds them: reals for
// ObservableType::real, counts otherwise (items the sample lacks are 0;
// `columns` values, or one for a scalar).
std::vector<double> observable_reals(const FrameObservables& o, const ObservableColumn& column);
std::vector<std::int64_t> observable_counts(const FrameObservables& o, const ObservableColumn& column);
// A column's value in a sample as JSON: a number, an array of a vector's
// components, or an object of counts by event kind.
Json observable_json(const FrameObservables& o, const ObservableColumn& column);

}  // namespace tethersim
