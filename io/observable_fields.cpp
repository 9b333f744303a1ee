#include "tethersim/io/observable_fields.hpp"

#include <type_traits>

#include "tethersim/io/observable_names.hpp"

namespace tethersim {

namespace {

// Reads value `item` (or every value of a vector) of a field in a sample
// and hands each scalar to `put`, as the file type holds it.
template <typename Put>
void for_each_observable_value(const FrameObservables& o, const ObservableColumn& column, Put put) {
  std::visit(
      [&](auto member) {
        const auto& value = o.*member;
        using Value = std::remove_cvref_t<decltype(value)>;
        if constexpr (std::is_same_v<Value, Vec3>) {
          for (int k = 0; k < 3; ++k) put(value[k]);
        } else if constexpr (std::is_same_v<Value, std::vector<std::uint64_t>>) {
          // A row per event kind, or one item of a per-model list.
          const std::size_t width = column.columns == 0 ? 1 : column.columns;
          for (std::size_t k = 0; k < width; ++k) {
            const std::size_t at = column.item + k;
            put(at < value.size() ? value[at] : std::uint64_t{0});
          }
        } else {
          put(value);
        }
      },
      column.field->member);
}

}  // namespace

std::vector<ObservableColumn> observable_columns(const Model& model, const ObservableField& field) {
  const std::size_t width = std::visit(
      [](auto member) -> std::size_t {
        return std::is_same_v<std::remove_cvref_t<decltype(FrameObservables{}.*member)>, Vec3> ? 3 : 0;
      },
      field.member);
  std::vector<ObservableColumn> columns;
  const std::string name(field.name);
  switch (field.items) {
    case ObservableItems::one:
      columns.push_back({&field, name, name, 0, width});
      break;
    case ObservableItems::per_event_kind:
      columns.push_back({&field, name, name, 0, kEventCountColumns.size()});
      break;
    case ObservableItems::per_cluster_species:
      for (const std::string& species : model.output().cluster_species) {
        columns.push_back({&field, cluster_observable_name(species), species, columns.size(), 0});
      }
      break;
    case ObservableItems::per_tethered_pair:
      for (const auto& pair : model.output().tethered_pairs) {
        columns.push_back({&field, tethered_observable_name(pair), pair[0] + "-" + pair[1], columns.size(), 0});
      }
      break;
  }
  return columns;
}

std::vector<ObservableColumn> observable_columns(const Model& model) {
  std::vector<ObservableColumn> all;
  for (const ObservableField& field : kObservableFields) {
    for (ObservableColumn& column : observable_columns(model, field)) all.push_back(std::move(column));
  }
  return all;
}

std::vector<double> observable_reals(const FrameObservables& o, const ObservableColumn& column) {
  std::vector<double> values;
  for_each_observable_value(o, column, [&](auto x) { values.push_back(static_cast<double>(x)); });
  return values;
}

std::vector<std::int64_t> observable_counts(const FrameObservables& o, const ObservableColumn& column) {
  std::vector<std::int64_t> values;
  for_each_observable_value(o, column, [&](auto x) { values.push_back(static_cast<std::int64_t>(x)); });
  return values;
}

Json observable_json(const FrameObservables& o, const ObservableColumn& column) {
  std::vector<Json> values;
  for_each_observable_value(o, column, [&](auto x) {
    if constexpr (std::is_same_v<decltype(x), double>) {
      values.push_back(json_number(x));
    } else {
      values.push_back(x);
    }
  });
  if (column.field->items == ObservableItems::per_event_kind) {
    Json by_kind = Json::object();
    for (std::size_t k = 0; k < values.size(); ++k) by_kind[kEventCountColumns[k]] = std::move(values[k]);
    return by_kind;
  }
  if (column.columns > 0) return Json(std::move(values));
  return std::move(values.front());
}

}  // namespace tethersim
