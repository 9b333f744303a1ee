// A square two-layer sheet clamped along two opposite edges (infinite-mass
// particles), each inner particle tethered to its four in-layer neighbours
// and to its partner in the other layer, and a projectile above the centre
// (docs/physics.md, "The published models"). Gravity comes from the model's
// [[external]] impulses.
#include <cmath>
#include <optional>

#include "generator_support.hpp"
#include "generators.hpp"

namespace tethersim::scenario {

std::string_view MembraneSheet::name() const { return "membrane-sheet"; }

std::uint64_t MembraneSheet::particle_count(const ParameterSet& p) const {
  const auto n = static_cast<double>(parameter_integer(p, "size"));
  return saturating_count(2.0 * n * n + (parameter_flag(p, "projectile") ? 1.0 : 0.0));
}

std::string_view MembraneSheet::summary() const {
  return "square two-layer sheet clamped on two edges, and a projectile";
}

const std::vector<ParameterInfo>& MembraneSheet::parameters() const {
  static const std::vector<ParameterInfo> info = {
      {"size", std::int64_t{20}, "particles along each edge of a layer (size^2 per layer)"},
      {"spacing", 1.0, "distance between neighbours in a layer"},
      {"layer_gap", 1.0, "distance between the two layers"},
      {"sheet_species", std::string("P"), "species of the free sheet particles"},
      {"clamped_species", std::string("C"), "species of the clamped edges (infinite mass)"},
      {"projectile", true, "add a projectile above the centre of the sheet"},
      {"projectile_species", std::string("X"), "species of the projectile"},
      {"projectile_height", 5.0, "initial height of the projectile above the top layer"},
      {"projectile_velocity", std::vector<double>{0.0, 0.0, -0.5},
       "initial velocity of the projectile"},
  };
  return info;
}

std::optional<Box> MembraneSheet::suggested_box(const ParameterSet& p) const {
  const double s = parameter_number(p, "spacing");
  const double half = 0.5 * static_cast<double>(parameter_integer(p, "size") - 1) * s + 2.0 * s;
  const double sag = 2.0 * half + parameter_number(p, "layer_gap");
  return Box{Vec3(-half, -half, -sag),
             Vec3(half, half, parameter_number(p, "projectile_height") + 2.0 * s)};
}

std::vector<ModelProblem> MembraneSheet::check(const ParameterSet& p, const ModelData& m) const {
  ParameterChecks checks(p, m);
  checks.at_least("size", 2);
  checks.positive("spacing");
  checks.positive("layer_gap");
  checks.non_negative("projectile_height");
  checks.species("sheet_species", true);
  checks.species("clamped_species", false, /*infinite=*/true);
  if (parameter_flag(p, "projectile")) checks.species("projectile_species", true);
  if (m.dynamics.dimensions != 3) checks.add("size", "membrane-sheet needs a 3-D model");
  return checks.take();
}

namespace {

// Particle id (layer n + i) n + j for row i, column j of a layer; the
// projectile last.
class SheetSystem final : public GeneratedSystem {
 public:
  SheetSystem(std::int64_t n, double spacing, double gap, SpeciesIndex sheet, SpeciesIndex clamped,
              std::optional<ParticleSpec> projectile)
      : n_(n), s_(spacing), gap_(gap), offset_(0.5 * static_cast<double>(n - 1) * spacing), sheet_(sheet),
        clamped_(clamped), projectile_(projectile) {}

  std::uint64_t layers_size() const { return 2 * static_cast<std::uint64_t>(n_ * n_); }
  std::uint64_t size() const override { return layers_size() + (projectile_ ? 1 : 0); }

  ParticleSpec particle(ParticleId id) const override {
    if (id == layers_size()) return *projectile_;
    const auto k = static_cast<std::int64_t>(id);
    const std::int64_t layer = k / (n_ * n_), i = k / n_ % n_, j = k % n_;
    ParticleSpec spec;
    spec.id = id;
    spec.species = clamped(i) ? clamped_ : sheet_;
    spec.position = Vec3(static_cast<double>(i) * s_ - offset_, static_cast<double>(j) * s_ - offset_,
                         -static_cast<double>(layer) * gap_);
    return spec;
  }

  // Within each layer, each particle to its next neighbour in i and in j;
  // then each particle of the top layer to its partner below. None between
  // two clamped particles: nothing to hold.
  void for_each_tether(const std::function<void(const TetherSpec&)>& visit) const override {
    auto id_of = [&](std::int64_t layer, std::int64_t i, std::int64_t j) {
      return static_cast<ParticleId>((layer * n_ + i) * n_ + j);
    };
    auto tether = [&](ParticleId a, ParticleId b, std::int64_t ia, std::int64_t ib) {
      if (!(clamped(ia) && clamped(ib))) visit({a, b});
    };
    for (std::int64_t layer = 0; layer < 2; ++layer) {
      for (std::int64_t i = 0; i < n_; ++i) {
        for (std::int64_t j = 0; j < n_; ++j) {
          if (i + 1 < n_) tether(id_of(layer, i, j), id_of(layer, i + 1, j), i, i + 1);
          if (j + 1 < n_) tether(id_of(layer, i, j), id_of(layer, i, j + 1), i, i);
        }
      }
    }
    for (std::int64_t i = 0; i < n_; ++i) {
      for (std::int64_t j = 0; j < n_; ++j) tether(id_of(0, i, j), id_of(1, i, j), i, i);
    }
  }

 private:
  bool clamped(std::int64_t i) const { return i == 0 || i == n_ - 1; }

  std::int64_t n_;
  double s_, gap_, offset_;
  SpeciesIndex sheet_, clamped_;
  std::optional<ParticleSpec> projectile_;
};

}  // namespace

std::unique_ptr<GeneratedSystem> MembraneSheet::make(const ParameterSet& p, const Model& model) const {
  const auto n = parameter_integer(p, "size");
  std::optional<ParticleSpec> projectile;
  if (parameter_flag(p, "projectile")) {
    projectile.emplace();
    projectile->id = 2 * static_cast<ParticleId>(n * n);
    projectile->species = species_parameter(p, model, "projectile_species");
    projectile->position = Vec3(0.0, 0.0, parameter_number(p, "projectile_height"));
    projectile->velocity = parameter_vector(p, "projectile_velocity");
  }
  auto system = std::make_unique<SheetSystem>(
      n, parameter_number(p, "spacing"), parameter_number(p, "layer_gap"),
      species_parameter(p, model, "sheet_species"), species_parameter(p, model, "clamped_species"), projectile);
  system->for_each_tether([&](const TetherSpec& t) {
    check_tether_length(system->particle(t.a), system->particle(t.b), model, "spacing");
  });
  return system;
}

}  // namespace tethersim::scenario
