// Random sequential addition of non-overlapping particles in the box.
#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "generator_support.hpp"
#include "generators.hpp"

namespace tethersim::scenario {

std::string_view RandomGas::name() const { return "random-gas"; }

std::uint64_t RandomGas::particle_count(const ParameterSet& p) const {
  return saturating_count(static_cast<double>(parameter_integer(p, "count")));
}

std::string_view RandomGas::summary() const {
  return "particles placed uniformly at random without overlaps, Maxwell-Boltzmann velocities";
}

const std::vector<ParameterInfo>& RandomGas::parameters() const {
  static const std::vector<ParameterInfo> info = {
      {"count", std::int64_t{1000}, "number of particles"},
      {"species", std::string("A"), "species of every particle"},
      {"temperature", 1.0, "kT of the initial velocities"},
      {"min_separation", -1.0,
       "smallest centre distance between two particles (never below their blocking distance; -1: that distance)"},
      {"margin", 0.0, "distance kept from every box face"},
  };
  return info;
}

std::vector<ModelProblem> RandomGas::check(const ParameterSet& p, const ModelData& m) const {
  ParameterChecks checks(p, m);
  checks.at_least("count", 0);
  checks.non_negative("temperature");
  checks.non_negative("margin");
  checks.species("species", /*finite_mass_required=*/true);
  return checks.take();
}

std::unique_ptr<GeneratedSystem> RandomGas::make(const ParameterSet& p, const Model& model) const {
  return std::make_unique<StoredSystem>(generate_whole(p, model));
}

namespace {

// Placed particles in a hash grid of cells no smaller than any distance a
// new particle must keep, so that an overlap is found in O(1). On periodic
// axes cells wrap and distances use the nearest image, so no pair overlaps
// across a periodic face either. Unlike PlacementGrid (placement_grid.hpp,
// free space, blocking distances by species), each particle keeps its own
// distance: min_separation for the gas, blocking for explicit particles.
class SeparationGrid {
 public:
  SeparationGrid(const Model& model, const Vec3& lo, const Vec3& extent, double requested_cell)
      : model_(model), dims_(model.dimensions()), lo_(lo), cell_(Vec3::Constant(requested_cell)) {
    for (int k = 0; k < dims_; ++k) {
      periodic_[k] = wraps(model.domain().boundary[k]);
      cells_[k] = std::max<std::int64_t>(1, static_cast<std::int64_t>(extent[k] / requested_cell));
      cell_[k] = extent[k] / static_cast<double>(cells_[k]);
    }
  }

  // Whether x comes closer to a placed particle than that one allows.
  bool overlaps(const Vec3& x) const {
    const Key key = key_of(x);
    for (std::int64_t dx = -1; dx <= 1; ++dx) {
      for (std::int64_t dy = -1; dy <= 1; ++dy) {
        for (std::int64_t dz = -1; dz <= 1; ++dz) {
          const auto it = grid_.find({neighbour(key, 0, dx), neighbour(key, 1, dy), neighbour(key, 2, dz)});
          if (it == grid_.end()) continue;
          for (std::size_t other : it->second) {
            if (separation(placed_[other], x) < keep_apart_[other]) return true;
          }
        }
      }
    }
    return false;
  }

  // Places x; a new particle must keep `keep_apart` from it.
  void add(const Vec3& x, double keep_apart) {
    grid_[key_of(x)].push_back(placed_.size());
    placed_.push_back(x);
    keep_apart_.push_back(keep_apart);
  }

 private:
  using Key = std::array<std::int64_t, 3>;
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      return static_cast<std::size_t>(physics::mix_hash(static_cast<std::uint64_t>(k[0]),
                                                        static_cast<std::uint64_t>(k[1]),
                                                        static_cast<std::uint64_t>(k[2])));
    }
  };

  Key key_of(const Vec3& x) const {
    auto c = [&](int k) {
      if (k >= dims_) return std::int64_t{0};
      return std::clamp(static_cast<std::int64_t>(std::floor((x[k] - lo_[k]) / cell_[k])), std::int64_t{0},
                        cells_[k] - 1);
    };
    return Key{c(0), c(1), c(2)};
  }
  std::int64_t neighbour(const Key& key, int k, std::int64_t d) const {
    std::int64_t n = key[static_cast<std::size_t>(k)] + d;
    if (periodic_[k]) n = (n % cells_[k] + cells_[k]) % cells_[k];
    return n;
  }
  double separation(const Vec3& a, const Vec3& b) const {
    Vec3 d = a - b;
    for (int k = 0; k < dims_; ++k) {
      const double length = model_.domain().length()[k];
      if (periodic_[k]) d[k] -= length * std::nearbyint(d[k] / length);
    }
    return d.norm();
  }

  const Model& model_;
  int dims_;
  Vec3 lo_;
  Vec3 cell_;
  std::array<std::int64_t, 3> cells_{1, 1, 1};
  std::array<bool, 3> periodic_{false, false, false};
  std::unordered_map<Key, std::vector<std::size_t>, KeyHash> grid_;
  std::vector<Vec3> placed_;        // explicit, then generated positions
  std::vector<double> keep_apart_;  // how close a new particle may come to each
};

}  // namespace

GeneratedState RandomGas::generate_whole(const ParameterSet& p, const Model& model) const {
  const SpeciesIndex species = species_parameter(p, model, "species");
  const auto count = static_cast<std::size_t>(parameter_integer(p, "count"));
  // Never closer than the blocking distance: overlapping starts are refused.
  const double separation =
      std::max(parameter_number(p, "min_separation"), model.pair(species, species).blocking);
  // The model's explicit particles are there first; a draw closer to one
  // than their pair's blocking distance is drawn again.
  double requested_cell = separation > 0.0 ? separation : 1.0;
  for (const ParticleSpec& e : model.initial().particles) {
    requested_cell = std::max(requested_cell, model.pair(species, e.species).blocking);
  }
  const double margin = parameter_number(p, "margin");
  const int dims = model.dimensions();
  const Vec3 lo = model.domain().lo + Vec3::Constant(margin);
  const Vec3 extent = model.domain().length() - Vec3::Constant(2.0 * margin);
  SeparationGrid grid(model, lo, extent, requested_cell);
  for (const ParticleSpec& e : model.initial().particles) {
    const double blocking = model.pair(species, e.species).blocking;
    if (blocking > 0.0) grid.add(e.position, blocking);
  }

  GeneratedState state;
  state.particles.reserve(count);
  const std::uint64_t max_attempts = 1000 * static_cast<std::uint64_t>(count) + 1000;
  std::uint64_t attempt = 0;
  while (state.particles.size() < count) {
    if (attempt >= max_attempts) {
      throw ModelError({"initial.parameters.count",
                        "could not place " + std::to_string(count) +
                            " non-overlapping particles in the box (placed " +
                            std::to_string(state.particles.size()) +
                            "): lower the count or min_separation, or enlarge the box"});
    }
    physics::CounterRng rng(model.seed(), attempt++, physics::RandomStream::initial_state, 2);
    Vec3 x = Vec3::Zero();  // unused axes of 1-D and 2-D models stay at 0
    for (int k = 0; k < dims; ++k) x[k] = lo[k] + extent[k] * rng.uniform();
    if (grid.overlaps(x)) continue;
    grid.add(x, separation);
    ParticleSpec s;
    s.id = state.particles.size();
    s.species = species;
    s.position = x;
    state.particles.push_back(s);
  }
  assign_thermal_velocities(state.particles, model, parameter_number(p, "temperature"));
  return state;
}

}  // namespace tethersim::scenario
