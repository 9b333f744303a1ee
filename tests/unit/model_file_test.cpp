// Model files (io/model_file) and the initial particles they describe
// (scenario/initial_particles): examples, defaults, --set overrides, error
// locations, model hashes and particle files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "tethersim/io/input_error.hpp"
#include "tethersim/io/model_file.hpp"
#include "tethersim/model/hash_text.hpp"
#include "tethersim/scenario/initial_particles.hpp"

namespace tethersim {
namespace {

namespace fs = std::filesystem;

std::string source_path(const std::string& relative) {
  return std::string(TETHERSIM_SOURCE_DIR) + "/" + relative;
}

// The 1-based line of the first occurrence of `needle` in `text`, so that
// expected error lines follow the test texts when they are edited.
int line_of(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  if (at == std::string::npos) {
    ADD_FAILURE() << "'" << needle << "' is not in the model text";
    return -1;
  }
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

// The InputError that loading `text` throws (a failure when there is none).
InputError load_error(const std::string& text, const std::string& path = "model.toml",
                      const ModelFileOptions& options = {}) {
  try {
    load_model_text(text, path, options);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "loading did not throw an InputError";
  return InputError({}, "", "");
}

ModelFileOptions with_overrides(std::vector<std::string> overrides) {
  ModelFileOptions options;
  options.overrides = std::move(overrides);
  return options;
}

// Replaces the first `from` in `text` by `to` (which must be there).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' is not in the model text";
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// A directory of its own for each test (ctest may run tests in parallel),
// removed afterwards.
class TempDir {
 public:
  TempDir() {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = fs::temp_directory_path() /
            ("tethersim-model-file-test-" + std::string(test->test_suite_name()) + "-" +
             test->name() + "-" + std::to_string(::getpid()));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string file(const std::string& name, const std::string& contents) const {
    const fs::path p = path_ / name;
    std::ofstream(p) << contents;
    return p.string();
  }
  std::string path(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

// Two mobile species S and V, one listed pair, [pair_defaults] for the
// others, two explicit particles.
const std::string kTwoSpecies = R"(# two species in a box
[run]
end_time = 10.0
seed = 4

[domain]
lo = [0.0, 0.0, 0.0]
hi = [10.0, 10.0, 10.0]

[[species]]
name = "S"
mass = 1.0
radius = 0.5

[[species]]
name = "V"
mass = 2.0
radius = 1.0

[pair_defaults]
c = 0.75

[[pair]]
species = ["S", "V"]
blocking = 1.5
tethering = 3.0
c = 0.5

[[initial.particle]]
species = "S"
position = [1.0, 1.0, 1.0]

[[initial.particle]]
species = "V"
position = [5.0, 5.0, 5.0]
)";

// One species V and one particle: the smallest valid model.
const std::string kOneSpecies = R"([run]
end_time = 1.0

[domain]
lo = [0.0, 0.0, 0.0]
hi = [10.0, 10.0, 10.0]

[[species]]
name = "V"
mass = 1.0
radius = 0.5

[[pair]]
species = ["V", "V"]
blocking = 1.0
tethering = 2.0
c = 1.0

[[initial.particle]]
species = "V"
position = [1.0, 1.0, 1.0]
)";

// --- The shipped examples --------------------------------------------------

struct Example {
  const char* file;
  std::size_t particles;
  std::size_t tethers;
};

void PrintTo(const Example& example, std::ostream* out) { *out << example.file; }

class ExampleModel : public ::testing::TestWithParam<Example> {};

TEST_P(ExampleModel, LoadsAndBuildsItsInitialParticles) {
  const Example& example = GetParam();
  const Model model = load_model_file(source_path(example.file));
  EXPECT_EQ(model.source_path(), source_path(example.file));
  const scenario::InitialParticles init = scenario::build_initial_particles(model);
  EXPECT_EQ(init.particles.size(), example.particles);
  EXPECT_EQ(init.tethers.size(), example.tethers);
  std::size_t counted = 0;
  for (std::size_t n : init.count_by_species) counted += n;
  EXPECT_EQ(counted, example.particles);
  // Generated ids are dense: 0 .. N-1 after sorting.
  ASSERT_FALSE(init.particles.empty());
  EXPECT_EQ(init.particles.front().id, 0u);
  EXPECT_EQ(init.particles.back().id, example.particles - 1);
}

INSTANTIATE_TEST_SUITE_P(
    Examples, ExampleModel,
    ::testing::Values(Example{"examples/gas.toml", 10976, 0},
                      // 2 + 30 D + 100 V + 2 x 300 S; tethers: 2 per D, 1 per V, 3 per dimer.
                      Example{"examples/presynaptic.toml", 732, 1060},
                      // 2 layers x (380 + 380 - 38 between clamped particles) + 360 across.
                      Example{"examples/membrane-sheet.toml", 801, 1804},
                      // 2 shells x 30 f^2 edges + one tether per vertex pair, f = 10.
                      Example{"examples/membrane-sphere.toml", 2005, 7002}),
    [](const ::testing::TestParamInfo<Example>& param_info) {
      std::string name = fs::path(param_info.param.file).stem().string();
      std::replace(name.begin(), name.end(), '-', '_');
      return name;
    });

TEST(ExampleModels, PresynapticHasOneMembraneAndOneZoneParticle) {
  const Model model = load_model_file(source_path("examples/presynaptic.toml"));
  const scenario::InitialParticles init = scenario::build_initial_particles(model);
  auto count = [&](const char* name) { return init.count_by_species[*model.find_species(name)]; };
  EXPECT_EQ(count("M"), 1u);
  EXPECT_EQ(count("Z"), 1u);
  EXPECT_EQ(count("D"), 30u);
  EXPECT_EQ(count("V"), 100u);
  EXPECT_EQ(count("S"), 600u);
  EXPECT_TRUE(model.action_potentials().enabled());
  EXPECT_EQ(model.rules().attach.size(), 2u);
  EXPECT_EQ(model.rules().detach.size(), 3u);
}

// --- Defaults --------------------------------------------------------------

TEST(ModelDefaults, OmittedPairBlocksAtTheSumOfRadiiWithPairDefaults) {
  const Model model = load_model_text(kTwoSpecies, "two.toml");
  const SpeciesIndex s = *model.find_species("S");
  const SpeciesIndex v = *model.find_species("V");
  const PairParameters& ss = model.pair(s, s);
  EXPECT_DOUBLE_EQ(ss.blocking, 1.0);
  EXPECT_DOUBLE_EQ(model.pair(v, v).blocking, 2.0);
  EXPECT_DOUBLE_EQ(ss.c_rebound, 0.75);
  EXPECT_DOUBLE_EQ(ss.c_retract, 0.75);
  EXPECT_FALSE(ss.tetherable());
  // The listed pair keeps its own values, in both orders.
  EXPECT_DOUBLE_EQ(model.pair(s, v).blocking, 1.5);
  EXPECT_DOUBLE_EQ(model.pair(v, s).tethering, 3.0);
  EXPECT_DOUBLE_EQ(model.pair(v, s).c_revolve, 0.5);
}

TEST(ModelDefaults, ListedPairWithoutBlockingUsesTheSumOfRadii) {
  const Model model = load_model_text(replaced(kTwoSpecies, "blocking = 1.5\n", ""), "two.toml");
  EXPECT_DOUBLE_EQ(model.pair(*model.find_species("S"), *model.find_species("V")).blocking, 1.5);
  const Model other = load_model_text(
      replaced(replaced(kTwoSpecies, "blocking = 1.5\n", ""), "radius = 1.0", "radius = 2.0"),
      "two.toml");
  EXPECT_DOUBLE_EQ(other.pair(*other.find_species("S"), *other.find_species("V")).blocking, 2.5);
}

TEST(ModelDefaults, TetheringDefaultsToInfinity) {
  const Model model =
      load_model_text(replaced(kOneSpecies, "tethering = 2.0\n", ""), "one.toml");
  const PairParameters& vv = model.pair(0, 0);
  EXPECT_EQ(vv.tethering, kInfinity);
  EXPECT_FALSE(vv.tetherable());
  EXPECT_TRUE(vv.blocks());
}

TEST(ModelDefaults, GlobalsWhenTheFileGivesNone) {
  const Model model = load_model_text(kOneSpecies, "some/dir/little-model.toml");
  EXPECT_DOUBLE_EQ(model.dynamics().theta_revolve, M_PI / 16.0);
  EXPECT_EQ(model.dynamics().schedule, RestitutionSchedule::max);
  EXPECT_EQ(model.dynamics().restitution_delay, 0.0);
  EXPECT_EQ(model.dimensions(), 3);
  EXPECT_EQ(model.seed(), 1u);
  // The name comes from the file name.
  EXPECT_EQ(model.name(), "little-model");
  EXPECT_EQ(model.domain().boundary[0], Boundary::reflective);
  EXPECT_EQ(model.output().frame_interval, kInfinity);
}

TEST(ModelDefaults, ThetaRevolveAcceptsPiFormsAndRadians) {
  auto theta = [](const std::string& value) {
    const std::string text = "[physics]\ntheta_revolve = " + value + "\n" + kOneSpecies;
    return load_model_text(text, "theta.toml").dynamics().theta_revolve;
  };
  EXPECT_DOUBLE_EQ(theta("\"pi/16\""), M_PI / 16.0);
  EXPECT_DOUBLE_EQ(theta("\"3*pi/32\""), 3.0 * M_PI / 32.0);
  EXPECT_DOUBLE_EQ(theta("\" pi / 8 \""), M_PI / 8.0);
  EXPECT_DOUBLE_EQ(theta("0.25"), 0.25);
  const InputError e = load_error("[physics]\ntheta_revolve = \"tau/16\"\n" + kOneSpecies);
  EXPECT_EQ(e.key(), "physics.theta_revolve");
  EXPECT_EQ(e.where().line, 2);
}

TEST(ModelDefaults, InfiniteMassFromTomlInfOrTheString) {
  for (const std::string mass : {"inf", "\"inf\"", "\"Infinity\""}) {
    const std::string text = kTwoSpecies + "\n[[species]]\nname = \"W\"\nmass = " + mass +
                             "\nradius = 3.0\n";
    const Model model = load_model_text(text, "walls.toml");
    const Species& w = model.species(*model.find_species("W"));
    EXPECT_TRUE(w.infinite_mass()) << mass;
    // A mobile partner of W still gets [pair_defaults]; W itself never moves.
    EXPECT_DOUBLE_EQ(model.pair(*model.find_species("W"), *model.find_species("S")).blocking, 3.5);
    EXPECT_FALSE(model.pair(*model.find_species("W"), *model.find_species("W")).blocks());
  }
}

// --- --set overrides --------------------------------------------------------

TEST(ModelOverrides, TopLevelKeys) {
  const Model model = load_model_text(
      kOneSpecies, "one.toml", with_overrides({"run.end_time=50", "run.seed=7"}));
  EXPECT_DOUBLE_EQ(model.end_time(), 50.0);
  EXPECT_EQ(model.seed(), 7u);
  EXPECT_EQ(model.data().overrides, (std::vector<std::string>{"run.end_time=50", "run.seed=7"}));
}

TEST(ModelOverrides, CreateTablesTheFileDoesNotHave) {
  // "pi/8" is not TOML, so it is taken as a string.
  const Model model = load_model_text(kOneSpecies, "one.toml",
                                      with_overrides({"physics.theta_revolve=pi/8"}));
  EXPECT_DOUBLE_EQ(model.dynamics().theta_revolve, M_PI / 8.0);
}

TEST(ModelOverrides, SpeciesByName) {
  const Model model =
      load_model_text(kTwoSpecies, "two.toml", with_overrides({"species.V.mass=2e4"}));
  EXPECT_DOUBLE_EQ(model.species(*model.find_species("V")).mass, 2e4);
  EXPECT_DOUBLE_EQ(model.species(*model.find_species("S")).mass, 1.0);
}

TEST(ModelOverrides, PairsInEitherOrder) {
  for (const std::string pair : {"S-V", "V-S"}) {
    const Model model = load_model_text(kTwoSpecies, "two.toml",
                                        with_overrides({"pair." + pair + ".blocking=1.25"}));
    EXPECT_DOUBLE_EQ(model.pair(*model.find_species("S"), *model.find_species("V")).blocking, 1.25)
        << pair;
  }
}

TEST(ModelOverrides, GeneratorParameters) {
  const ModelFileOptions options = with_overrides({"initial.parameters.cells=3"});
  const Model model = load_model_file(source_path("examples/gas.toml"), options);
  ASSERT_TRUE(model.initial().generator.has_value());
  EXPECT_EQ(std::get<std::int64_t>(model.initial().generator->parameters.at("cells")), 3);
  EXPECT_EQ(scenario::build_initial_particles(model).particles.size(), 4u * 27u);
  // The box the generator suggests follows the parameter: edge C a = 3 * 2.
  EXPECT_DOUBLE_EQ(model.domain().hi[0], 6.0);
}

TEST(ModelOverrides, BadPathNamesTheOverride) {
  const InputError e =
      load_error(kTwoSpecies, "two.toml", with_overrides({"species.Q.mass=1"}));
  EXPECT_EQ(e.where().file, "--set species.Q.mass=1");
  EXPECT_EQ(e.where().line, 0);
  EXPECT_EQ(e.key(), "species");
  EXPECT_NE(e.message().find("no element 'Q'"), std::string::npos) << e.what();
}

TEST(ModelOverrides, BadValueNamesTheOverride) {
  const InputError e =
      load_error(kOneSpecies, "one.toml", with_overrides({"physics.theta_revolve=2"}));
  EXPECT_EQ(e.where().file, "--set physics.theta_revolve=2");
  EXPECT_EQ(e.where().line, 0);
  EXPECT_EQ(e.key(), "physics.theta_revolve");
  const InputError no_equals = load_error(kOneSpecies, "one.toml", with_overrides({"run.seed"}));
  EXPECT_EQ(no_equals.where().file, "--set run.seed");
  // A path through a value that is not a table names that value.
  const InputError through =
      load_error(kOneSpecies, "one.toml", with_overrides({"run.end_time.x.y=1"}));
  EXPECT_EQ(through.key(), "run.end_time");
  EXPECT_NE(through.message().find("no key 'x'"), std::string::npos) << through.what();
}

TEST(ModelOverrides, EveryBoundaryByItsName) {
  for (const BoundaryKind& kind : kBoundaryKinds) {
    const Model model = load_model_text(kOneSpecies, "one.toml",
                                        with_overrides({"domain.boundary=\"" + std::string(kind.name) + "\""}));
    for (int k = 0; k < 3; ++k) EXPECT_EQ(model.domain().boundary[static_cast<std::size_t>(k)], kind.boundary) << kind.name;
    EXPECT_STREQ(to_string(kind.boundary), kind.name);
    // A face wraps, removes or reflects: never two of them.
    EXPECT_FALSE(kind.wraps && kind.removes) << kind.name;
    EXPECT_STREQ(kind.h5md_name, kind.wraps ? "periodic" : "none") << kind.name;
  }
  const InputError e = load_error(kOneSpecies, "one.toml", with_overrides({"domain.boundary=\"wobbly\""}));
  EXPECT_EQ(e.key(), "domain.boundary");
  EXPECT_EQ(e.message(), "must be \"periodic\", \"open\" or \"reflective\", got \"wobbly\"");
}

TEST(ModelErrors, AKindsOwnNumbersAreCheckedByTheKind) {
  const std::string drag = kOneSpecies + "\n[[external]]\nkind = \"drag\"\ninterval = 0.1\nviscosity = -1.0\n";
  const InputError negative = load_error(drag);
  EXPECT_EQ(negative.key(), "external.0.viscosity");
  EXPECT_EQ(negative.message(), "must not be negative, got -1") << negative.what();
  const InputError not_a_number = load_error(replaced(drag, "viscosity = -1.0", "viscosity = nan"));
  EXPECT_EQ(not_a_number.key(), "external.0.viscosity");
  EXPECT_EQ(not_a_number.message(), "must be a number, got nan") << not_a_number.what();
  // Gravity has no viscosity to check.
  EXPECT_NO_THROW(load_model_text(kOneSpecies + "\n[[external]]\nkind = \"gravity\"\ninterval = 0.1\ng = [0.0, 0.0, -1.0]\n",
                                  "model.toml"));
}

// --- Error locations ---------------------------------------------------------

TEST(ModelErrors, SyntaxErrorsHaveTheirLine) {
  const std::string text = replaced(kOneSpecies, "mass = 1.0", "mass = 1.0.0");
  const InputError e = load_error(text, "syntax.toml");
  EXPECT_EQ(e.where().file, "syntax.toml");
  EXPECT_EQ(e.where().line, line_of(text, "mass = 1.0.0"));
  EXPECT_EQ(e.message().rfind("TOML syntax error", 0), 0u) << e.what();
  EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
}

TEST(ModelErrors, UnknownKeySuggestsTheClosest) {
  const std::string text = replaced(kOneSpecies, "radius = 0.5", "radus = 0.5");
  const InputError e = load_error(text);
  EXPECT_EQ(e.where().line, line_of(text, "radus"));
  EXPECT_EQ(e.key(), "species.V.radus");
  EXPECT_NE(e.message().find("did you mean 'radius'?"), std::string::npos) << e.what();
}

TEST(ModelErrors, UnknownGeneratorParameterSuggestsTheClosest) {
  const std::string text = std::string(R"([run]
end_time = 1.0

[[species]]
name = "A"
mass = 1.0
radius = 0.5

[pair_defaults]
c = 1.0

[initial]
generator = "fcc-gas"

[initial.parameters]
cell = 2
)");
  const InputError e = load_error(text);
  EXPECT_EQ(e.where().line, line_of(text, "cell = 2"));
  EXPECT_EQ(e.key(), "initial.parameters.cell");
  EXPECT_NE(e.message().find("did you mean 'cells'?"), std::string::npos) << e.what();
  // A generator parameter that the generator's own check rejects.
  const std::string zero = replaced(text, "cell = 2", "cells = 0");
  const InputError check = load_error(zero);
  EXPECT_EQ(check.key(), "initial.parameters.cells");
  EXPECT_EQ(check.where().line, line_of(zero, "cells = 0"));
}

TEST(ModelErrors, ValidationProblemsPointAtTheirValue) {
  {
    const std::string text = replaced(kTwoSpecies, "mass = 2.0", "mass = -2.0");
    const InputError e = load_error(text);
    EXPECT_EQ(e.key(), "species.V.mass");
    EXPECT_EQ(e.where().line, line_of(text, "mass = -2.0"));
  }
  {
    const std::string text = replaced(kTwoSpecies, "c = 0.5", "c = 0.5\nc_retract = 1.25");
    const InputError e = load_error(text);
    EXPECT_EQ(e.key(), "pair.S-V.c_retract");
    EXPECT_EQ(e.where().line, line_of(text, "c_retract = 1.25"));
  }
  {
    const std::string text = replaced(kTwoSpecies, "[\"S\", \"V\"]", "[\"S\", \"W\"]");
    const InputError e = load_error(text);
    EXPECT_EQ(e.key(), "pair.0.species");
    EXPECT_EQ(e.where().line, line_of(text, "[\"S\", \"W\"]"));
  }
  {
    const std::string text = replaced(kOneSpecies, "end_time = 1.0", "end_time = \"soon\"");
    const InputError e = load_error(text);
    EXPECT_EQ(e.key(), "run.end_time");
    EXPECT_EQ(e.where().line, 2);
  }
}

TEST(ModelErrors, InitialParticleProblemsPointAtTheParticle) {
  {
    const std::string text = replaced(kTwoSpecies, "[5.0, 5.0, 5.0]", "[5.0, 12.0, 5.0]");
    const InputError e = load_error(text, "box.toml");
    EXPECT_EQ(e.where().file, "box.toml");
    EXPECT_EQ(e.where().line, line_of(text, "[5.0, 12.0, 5.0]"));
    EXPECT_EQ(e.key(), "initial.particle.1");
    EXPECT_NE(e.message().find("outside the box"), std::string::npos) << e.what();
  }
  {
    // The later of two equal ids is the one reported.
    const std::string text =
        replaced(replaced(kTwoSpecies, "species = \"S\"", "id = 4\nspecies = \"S\""),
                 "species = \"V\"\nposition", "id = 4\nspecies = \"V\"\nposition");
    const InputError e = load_error(text);
    EXPECT_EQ(e.key(), "initial.particle.4");
    EXPECT_EQ(e.where().line, line_of(text, "[5.0, 5.0, 5.0]"));
    EXPECT_NE(e.message().find("duplicate particle id 4"), std::string::npos) << e.what();
  }
  {
    const std::string text = replaced(kOneSpecies, "[[initial.particle]]",
                                      "[initial]\ntethers = [[0, 3]]\n\n[[initial.particle]]");
    const InputError e = load_error(text);
    EXPECT_EQ(e.key(), "initial.tethers");
    EXPECT_EQ(e.where().line, line_of(text, "tethers ="));
    EXPECT_NE(e.message().find("particle 3, which does not exist"), std::string::npos)
        << e.what();
  }
}

TEST(ModelErrors, ExplicitIdsShareTheSpaceOfGeneratedOnes) {
  const std::string gas = R"([run]
end_time = 1.0

[[species]]
name = "A"
mass = 1.0
radius = 0.5

[pair_defaults]
c = 1.0

[initial]
generator = "fcc-gas"

[initial.parameters]
cells = 2

[[initial.particle]]
species = "A"
position = [1.5, 0.5, 0.5]
)";
  // Without an id the explicit particle is numbered after the 32 generated
  // (placed in a gap of the lattice, at contact with its neighbours).
  const Model model = load_model_text(gas, "gas.toml");
  const scenario::InitialParticles init = scenario::build_initial_particles(model);
  ASSERT_EQ(init.particles.size(), 33u);
  EXPECT_EQ(init.particles.back().id, 32u);
  EXPECT_EQ(init.particles.back().position, Vec3(1.5, 0.5, 0.5));
  const std::string clash = replaced(gas, "species = \"A\"\nposition", "id = 5\nspecies = \"A\"\nposition");
  const InputError e = load_error(clash);
  EXPECT_EQ(e.key(), "initial.particle.5");
  EXPECT_EQ(e.where().line, line_of(clash, "[1.5, 0.5, 0.5]"));
}

// --- Hashes ------------------------------------------------------------------

// kTwoSpecies said differently: other comments, order of tables and keys,
// the pair's species reversed, 'c' spelt out, integers for floats and
// another name.
const std::string kTwoSpeciesReworded = R"(
[model]
name = "the same model"
description = "written another way"

[[species]]   # first species
name = "S"
radius = 0.5
mass = 1

[[species]]
mass = 2.0
name = "V"
radius = 1.0

[[pair]]
species = ["V", "S"]
c_rebound = 0.5
c_retract = 0.5
c_revolve = 0.5
tethering = 3
blocking = 1.5

[pair_defaults]
c = 0.75

[run]
seed = 4
end_time = 10.0

[domain]
hi = [10, 10, 10]
lo = [0, 0, 0]

[initial]
particle = [
  { species = "S", position = [1, 1, 1] },
  { species = "V", position = [5, 5, 5] },
]
)";

TEST(ModelHash, WrittenAsSixteenLowercaseHexDigits) {
  EXPECT_EQ(hash_text(0xabcULL), "0000000000000abc");
  EXPECT_EQ(hash_text(~std::uint64_t{0}), "ffffffffffffffff");
}

TEST(ModelHash, EqualForTheSameModelWrittenDifferently) {
  const Model a = load_model_text(kTwoSpecies, "a.toml");
  const Model b = load_model_text(kTwoSpeciesReworded, "b.toml");
  EXPECT_NE(a.name(), b.name());
  EXPECT_EQ(a.canonical_text(), b.canonical_text());
  EXPECT_EQ(a.physics_hash(), b.physics_hash());
  EXPECT_EQ(a.hash(), b.hash());
}

TEST(ModelHash, DiffersWhenThePhysicsChanges) {
  const Model base = load_model_text(kTwoSpecies, "a.toml");
  for (const std::string change :
       {"species.V.mass=2.5", "pair.S-V.c_rebound=0.25", "run.seed=5", "physics.restitution_delay=0.01",
        "domain.hi=[10.0, 10.0, 11.0]"}) {
    const Model changed = load_model_text(kTwoSpecies, "a.toml", with_overrides({change}));
    EXPECT_NE(changed.physics_hash(), base.physics_hash()) << change;
    EXPECT_NE(changed.hash(), base.hash()) << change;
  }
}

TEST(ModelHash, PhysicsHashIgnoresEndTimeAndOutput) {
  const Model base = load_model_text(kTwoSpecies, "a.toml");
  const Model other = load_model_text(
      kTwoSpecies, "a.toml",
      with_overrides({"run.end_time=500", "output.frame_interval=2", "output.directory=elsewhere",
                      "model.description=another"}));
  EXPECT_DOUBLE_EQ(other.end_time(), 500.0);
  EXPECT_EQ(other.output().directory, "elsewhere");
  EXPECT_EQ(other.physics_hash(), base.physics_hash());
  EXPECT_EQ(other.hash(), base.hash());
}

TEST(ModelHash, InitialStateChangesOnlyTheFullHash) {
  const Model base = load_model_text(kTwoSpecies, "a.toml");
  const Model moved = load_model_text(kTwoSpecies, "a.toml",
                                      with_overrides({"initial.particle.1.position=[6.0, 5.0, 5.0]"}));
  EXPECT_EQ(moved.physics_hash(), base.physics_hash());
  EXPECT_NE(moved.hash(), base.hash());
}

// --- Particle files ------------------------------------------------------------

const std::string kParticleFileModel = R"([run]
end_time = 1.0

[domain]
lo = [0.0, 0.0, 0.0]
hi = [10.0, 10.0, 10.0]

[[species]]
name = "S"
mass = 1.0
radius = 0.5

[[species]]
name = "V"
mass = 2.0
radius = 1.0

[pair_defaults]
c = 1.0

[initial]
particles_file = "particles.csv"

[[initial.particle]]
species = "S"
position = [9.0, 9.0, 9.0]
)";

TEST(ParticleFile, WithAnIdColumn) {
  TempDir dir;
  dir.file("particles.csv",
           "id, species, x, y, z, vx\n"
           "5, V, 1.0, 1.0, 1.0, 0.5\n"
           "2, S, 3.0, 1.0, 1.0, 0\n");
  const std::string path = dir.file("model.toml", kParticleFileModel);
  const Model model = load_model_file(path);
  const scenario::InitialParticles init = scenario::build_initial_particles(model);
  ASSERT_EQ(init.particles.size(), 3u);
  EXPECT_EQ(init.particles[0].id, 2u);
  EXPECT_EQ(init.particles[0].species, *model.find_species("S"));
  EXPECT_EQ(init.particles[1].id, 5u);
  EXPECT_EQ(init.particles[1].species, *model.find_species("V"));
  EXPECT_EQ(init.particles[1].velocity, Vec3(0.5, 0.0, 0.0));
  // The explicit particle without an id comes after the largest id so far.
  EXPECT_EQ(init.particles[2].id, 6u);
  EXPECT_EQ(init.particles[2].position, Vec3(9.0, 9.0, 9.0));
}

TEST(ParticleFile, WithoutAnIdColumn) {
  TempDir dir;
  dir.file("particles.csv",
           "# x and y only: z is 0\n"
           "species,x,y\n"
           "\n"
           "S,1.0,2.0\n"
           "V,4.0,5.0\n");
  const Model model = load_model_file(dir.file("model.toml", kParticleFileModel));
  const scenario::InitialParticles init = scenario::build_initial_particles(model);
  ASSERT_EQ(init.particles.size(), 3u);
  EXPECT_EQ(init.particles[0].id, 0u);
  EXPECT_EQ(init.particles[0].position, Vec3(1.0, 2.0, 0.0));
  EXPECT_EQ(init.particles[1].id, 1u);
  EXPECT_EQ(init.particles[1].species, *model.find_species("V"));
  EXPECT_EQ(init.particles[2].id, 2u);
  EXPECT_EQ(init.particles[2].species, *model.find_species("S"));
}

TEST(ParticleFile, ErrorsNameTheFileAndLine) {
  TempDir dir;
  const std::string csv = dir.file("particles.csv",
                                   "species,x,y,z\n"
                                   "# a comment still counts as a line\n"
                                   "S,1.0,1.0,1.0\n"
                                   "V,2.0,one,1.0\n");
  const InputError e = load_error(kParticleFileModel, dir.path("model.toml"));
  EXPECT_EQ(e.where().file, csv);
  EXPECT_EQ(e.where().line, 4);
  EXPECT_EQ(e.key(), "initial.particles_file");
  EXPECT_NE(e.message().find("'one' is not a number"), std::string::npos) << e.what();

  dir.file("particles.csv", "species,x,y,z\nS,1.0,1.0,1.0\nQ,2.0,1.0,1.0\n");
  const InputError species = load_error(kParticleFileModel, dir.path("model.toml"));
  EXPECT_EQ(species.where().file, csv);
  EXPECT_EQ(species.where().line, 3);
  EXPECT_NE(species.message().find("unknown species 'Q'"), std::string::npos) << species.what();
}

TEST(ParticleFile, InitialParticleProblemsPointAtTheFileLine) {
  // Particle 1 of the file lies outside the box; the [[initial.particle]]
  // table (number 0 in its array) must not take over its location.
  TempDir dir;
  const std::string csv =
      dir.file("particles.csv", "species,x,y,z\nS,1.0,1.0,1.0\nV,2.0,11.0,1.0\n");
  const std::string text = kParticleFileModel + "\n[[initial.particle]]\nspecies = \"V\"\n"
                                                "position = [7.0, 7.0, 7.0]\n";
  const InputError e = load_error(text, dir.path("model.toml"));
  EXPECT_EQ(e.key(), "initial.particle.1");
  EXPECT_EQ(e.where().file, csv);
  EXPECT_EQ(e.where().line, 3);
}

TEST(ParticleFile, MissingFileIsReportedUnlessSkipped) {
  TempDir dir;
  const InputError e = load_error(kParticleFileModel, dir.path("model.toml"));
  EXPECT_EQ(e.where().file, dir.path("particles.csv"));
  EXPECT_NE(e.message().find("cannot open"), std::string::npos) << e.what();
  // Restarts take their particles from a checkpoint.
  ModelFileOptions restart;
  restart.skip_initial_files = true;
  const Model model = load_model_text(kParticleFileModel, dir.path("model.toml"), restart);
  EXPECT_EQ(model.initial().particles_file, "particles.csv");
  EXPECT_EQ(model.initial().particles.size(), 1u);
}

}  // namespace
}  // namespace tethersim
