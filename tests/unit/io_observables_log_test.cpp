// observables.jsonl (io/observables_log): a line per sample, and on a
// restart the samples after the checkpoint and a line cut short removed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include <unistd.h>

#include "tethersim/io/json_output.hpp"
#include "tethersim/io/model_file.hpp"
#include "tethersim/io/observables_log.hpp"

namespace tethersim {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::uint64_t kept(const std::string& text, double time) {
  std::istringstream in(text);
  return observables_kept_length(in, time);
}

TEST(ObservablesLog, KeepsCompleteSamplesUpToTheTime) {
  const std::string first = "{\"time\":0,\"step\":0}\n";
  const std::string second = "{\"time\":0.5,\"step\":1}\n";
  const std::string text = first + second + "{\"time\":1,\"step\":2}\n";
  EXPECT_EQ(kept(text, 0.5), (first + second).size());
  EXPECT_EQ(kept(text, 0.49), first.size());
  EXPECT_EQ(kept(text, 7.0), text.size());
  EXPECT_EQ(kept(text, -1.0), 0u);
  // A line cut short by a killed run, and one that is not a sample.
  EXPECT_EQ(kept(first + "{\"time\":0.2", 1.0), first.size());
  EXPECT_EQ(kept(first + "{\"ti\n" + second, 1.0), first.size());
}

TEST(ObservablesLog, WritesOneObjectPerSampleAndContinuesAfterATime) {
  const fs::path dir = fs::temp_directory_path() / ("tethersim-observables-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path path = dir / "observables.jsonl";
  const Model model = load_model_file(std::string(TETHERSIM_SOURCE_DIR) + "/examples/presynaptic.toml");
  FrameObservables o;
  o.kinetic_energy = 0.1;
  o.momentum = Vec3(1.0, -0.0, 2.5);
  o.particles = 7;
  o.event_counts.assign(9, 3);
  o.clusters.assign(model.output().cluster_species.size(), 4);
  o.tethered.assign(model.output().tethered_pairs.size(), 5);
  {
    ObservablesLog log = ObservablesLog::create(path, model);
    log.write(0.0, 0, o);
    log.write(0.5, 2, o);
    log.write(1.0, 3, o);
  }
  const std::string full = read_all(path);
  const std::string first = full.substr(0, full.find('\n') + 1);
  const Json sample = Json::parse(first);
  EXPECT_EQ(sample.begin().key(), "time");
  EXPECT_EQ(sample["kinetic_energy"].get<double>(), 0.1);
  EXPECT_EQ(sample["momentum"].dump(), "[1,-0.0,2.5]");
  EXPECT_EQ(sample["event_counts"]["sector_crossing"].get<int>(), 3);
  ASSERT_FALSE(model.output().cluster_species.empty());
  EXPECT_EQ(sample["clusters_" + model.output().cluster_species[0]].get<int>(), 4);
  {
    ObservablesLog log = ObservablesLog::append(path, model, 0.5);
    log.write(1.0, 3, o);
  }
  EXPECT_EQ(read_all(path), full);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tethersim
