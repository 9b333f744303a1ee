// The observable table (io/observable_fields.hpp) and the distribution
// counter table (decomposition/distribution_counters.hpp): the datasets and
// keys they give, in the order the files have always had them.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "tethersim/decomposition/distribution_counters.hpp"
#include "tethersim/io/model_file.hpp"
#include "tethersim/io/observable_fields.hpp"

namespace tethersim {
namespace {

const Model& presynaptic() {
  static const Model model = load_model_file(std::string(TETHERSIM_SOURCE_DIR) + "/examples/presynaptic.toml");
  return model;
}

TEST(ObservableFields, GiveTheTrajectoryDatasetsInFileOrder) {
  std::vector<std::string> names;
  for (const ObservableColumn& column : observable_columns(presynaptic())) names.push_back(column.name);
  const std::vector<std::string> expected = {"kinetic_energy", "momentum", "particles", "escapes",  "tethers",
                                             "event_counts",   "clusters_V", "tethered_V_D", "temperature"};
  EXPECT_EQ(names, expected);
}

TEST(ObservableFields, TemperatureIsAnEnergyAfterTheOthers) {
  const std::vector<ObservableColumn> columns = observable_columns(presynaptic());
  const ObservableColumn& last = columns.back();
  EXPECT_EQ(last.name, "temperature");
  EXPECT_EQ(last.field->type(), ObservableType::real);
  EXPECT_EQ(last.field->unit, ObservableUnit::energy);
  EXPECT_EQ(last.field->reduction, ObservableReduction::measured);
  EXPECT_TRUE(last.field->in(kInSummary));
  FrameObservables o;
  o.temperature = 2.5;
  EXPECT_EQ(observable_reals(o, last), (std::vector<double>{2.5}));
}

TEST(ObservableFields, TypesUnitsAndColumnsFollowTheMembers) {
  const std::vector<ObservableColumn> columns = observable_columns(presynaptic());
  EXPECT_EQ(columns[0].field->type(), ObservableType::real);
  EXPECT_EQ(columns[0].field->unit, ObservableUnit::energy);
  EXPECT_EQ(columns[0].columns, 0u);
  EXPECT_EQ(columns[1].columns, 3u);
  EXPECT_EQ(columns[1].field->unit, ObservableUnit::momentum);
  EXPECT_EQ(columns[2].field->type(), ObservableType::count);
  EXPECT_EQ(columns[5].columns, kEventCountColumns.size());
  EXPECT_FALSE(columns[5].field->in(kInSummary));
  EXPECT_EQ(columns[7].summary_name, "V-D");
}

TEST(ObservableFields, ValuesReadTheMembers) {
  FrameObservables o;
  o.momentum = Vec3(1.0, -2.0, 3.5);
  o.tethered = {42};
  o.event_counts = {7};
  const std::vector<ObservableColumn> columns = observable_columns(presynaptic());
  EXPECT_EQ(observable_reals(o, columns[1]), (std::vector<double>{1.0, -2.0, 3.5}));
  EXPECT_EQ(observable_counts(o, columns[7]), (std::vector<std::int64_t>{42}));
  // A row per event kind: kinds the sample lacks are 0.
  const std::vector<std::int64_t> events = observable_counts(o, columns[5]);
  ASSERT_EQ(events.size(), kEventCountColumns.size());
  EXPECT_EQ(events[0], 7);
  EXPECT_EQ(events[1], 0);
  EXPECT_EQ(observable_json(o, columns[5])[kEventCountColumns[0]].get<int>(), 7);
}

TEST(DistributionCounterRows, HaveOneRowPerNameAndReadTheirCounters) {
  std::set<std::string> names;
  for (const auto& row : decomposition::kDistributionCounterRows) {
    EXPECT_TRUE(names.insert(std::string(row.name)).second) << row.name;
  }
  decomposition::DistributionCounters c;
  c.windows = 4;
  c.commits = 4;
  c.events_executed = 10;
  c.events_duplicated = 2;
  c.bytes_sent = 16;
  c.failures_reach = 3;
  auto value = [&](const std::string& name) {
    for (const auto& row : decomposition::kDistributionCounterRows) {
      if (row.name == name) return row.value(c);
    }
    ADD_FAILURE() << "no row " << name;
    return -1.0;
  };
  EXPECT_EQ(value("windows"), 4.0);
  EXPECT_EQ(value("failed_reach"), 3.0);
  EXPECT_EQ(value("events_unique"), 8.0);
  EXPECT_EQ(value("committed_events_per_window"), 2.5);
  EXPECT_EQ(value("bytes_per_committed_event"), 2.0);
  EXPECT_EQ(value("delta_min"), c.delta_min);
}

}  // namespace
}  // namespace tethersim
