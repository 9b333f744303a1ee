// Sectors sized by the pairs the population can form (Model::fit_sectors_to):
// a species with one particle never meets itself, so its self distance no
// longer sets the sector edge; a requested edge, hubs and the grid's size
// limit are respected; and the run ends in the same state as with the
// edge every pair would need, because sectors change no event's bits.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tethersim/engine/engine.hpp"
#include "tethersim/io/model_file.hpp"
#include "tethersim/scenario/initial_particles.hpp"

namespace tethersim {
namespace {

// Mobile P (pairs up to 1.2) and a heavy X whose self distance, 1.6, is the
// largest; an infinite-mass wall W that reaches P at 1.4. `x_count` X
// particles in a small box, two P particles and, with `gas`, 125 more on a
// lattice with assorted velocities.
std::string model_text(int x_count, const std::string& extra = "", bool gas = false) {
  std::string text = R"([run]
end_time = 100.0
seed = 3

[domain]
lo = [0.0, 0.0, 0.0]
hi = [12.0, 12.0, 12.0]
)" + extra + R"(

[[species]]
name = "P"
mass = 1.0
radius = 0.3

[[species]]
name = "X"
mass = 5.0
radius = 0.8

[[species]]
name = "W"
mass = inf
radius = 0.3

[pair_defaults]
c = 0.5

[[pair]]
species = ["P", "P"]
blocking = 0.6
tethering = 1.2

[[pair]]
species = ["X", "P"]
blocking = 1.1

[[pair]]
species = ["X", "X"]
blocking = 1.6

[[pair]]
species = ["W", "P"]
blocking = 1.4

[[pair]]
species = ["W", "X"]
blocking = 1.1

[[initial.particle]]
species = "P"
position = [2.0, 2.0, 2.0]
velocity = [1.0, 0.5, 0.25]

[[initial.particle]]
species = "P"
position = [6.0, 6.0, 6.0]
velocity = [-1.0, -0.5, 0.75]

[[initial.particle]]
species = "W"
position = [6.0, 2.0, 6.0]
)";
  for (int k = 0; k < x_count; ++k) {
    text += "\n[[initial.particle]]\nspecies = \"X\"\nposition = [11.0, " + std::to_string(2.0 + 3.0 * k) +
            ", 11.0]\nvelocity = [-0.5, 1.0, -0.5]\n";
  }
  for (int k = 0; gas && k < 125; ++k) {
    const int i = k % 5, j = (k / 5) % 5, l = k / 25;
    text += "\n[[initial.particle]]\nspecies = \"P\"\nposition = [" + std::to_string(1 + 2 * i) + ".0, " +
            std::to_string(1 + 2 * j) + ".0, " + std::to_string(1 + 2 * l) + ".0]\nvelocity = [" +
            std::to_string((k * 37 % 17) / 8.0 - 1.0) + ", " + std::to_string((k * 53 % 19) / 9.0 - 1.0) + ", " +
            std::to_string((k * 29 % 13) / 6.0 - 1.0) + "]\n";
  }
  return text;
}

TEST(SectorFit, ALoneSpeciesDoesNotSizeTheSectors) {
  const Model one = load_model_text(model_text(1), "lone.toml");
  EXPECT_EQ(one.sector_size(), 1.2);
  EXPECT_EQ(one.min_sector_size(), 1.2);
  const Model two = load_model_text(model_text(2), "pair.toml");
  EXPECT_EQ(two.sector_size(), 1.6);
  const Model none = load_model_text(model_text(0), "none.toml");
  EXPECT_EQ(none.sector_size(), 1.2);
}

TEST(SectorFit, HubsFollowTheFittedEdge) {
  // W reaches P at 1.4: inside sectors of 1.6, beyond sectors of 1.2.
  const auto w = 2;
  EXPECT_FALSE(load_model_text(model_text(2), "pair.toml").is_hub_species(w));
  EXPECT_TRUE(load_model_text(model_text(1), "lone.toml").is_hub_species(w));
}

TEST(SectorFit, ARequestedEdgeIsKept) {
  const Model asked = load_model_text(model_text(1, "sector_size = 1.7\n"), "asked.toml");
  EXPECT_EQ(asked.sector_size(), 1.7);
}

TEST(SectorFit, NeverGrowsOrLeavesTheGridLimit) {
  Model model = load_model_text(model_text(2), "pair.toml");
  model.fit_sectors_to({2, 5, 1});  // more of everything: the edge stays
  EXPECT_EQ(model.sector_size(), 1.6);
  model.fit_sectors_to({0, 0, 1});  // nothing mobile: nothing to size by, the edge stays
  EXPECT_EQ(model.sector_size(), 1.6);
  model.fit_sectors_to({2, 1, 1});
  EXPECT_EQ(model.sector_size(), 1.2);
}

// The same history with sectors of 1.2 (fitted) and 1.6 (every pair): the
// same state, event for event, with fewer pair tests in the smaller ones.
TEST(SectorFit, SameStateAsSectorsForEveryPair) {
  scenario::InitialParticles fitted_initial, wide_initial;
  const Model fitted = load_model_text(model_text(1, "", true), "lone.toml", {}, &fitted_initial);
  const Model wide = load_model_text(model_text(1, "sector_size = 1.6\n", true), "wide.toml", {}, &wide_initial);
  ASSERT_EQ(fitted.sector_size(), 1.2);
  ASSERT_EQ(wide.sector_size(), 1.6);
  engine::Engine a(fitted, std::move(fitted_initial));
  engine::Engine b(wide, std::move(wide_initial));
  a.run_until(100.0);
  b.run_until(100.0);
  EXPECT_GT(a.statistics().collisions(), 300u);
  EXPECT_EQ(a.statistics().collisions(), b.statistics().collisions());
  EXPECT_EQ(a.state_hash(), b.state_hash());
  EXPECT_LT(a.statistics().pair_tests, b.statistics().pair_tests);
}

}  // namespace
}  // namespace tethersim
