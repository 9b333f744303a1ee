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

GeneratedState RandomGas::generate_whole(const ParameterSet& p, const Model& model) const {
  const SpeciesIndex species = species_parameter(p, model, "species");
  const auto count = static_cast<std::size_t>(parameter_integer(p, "count"));
  // Never closer than the blocking distance: overlapping starts are refused.
  const double separation =
      std::max(parameter_number(p, "min_separation"), model.pair(species, species).blocking);
  // The model's explicit particles are there first; a draw closer to one
  // than their pair's blocking distance is drawn again.
  std::vector<Vec3> placed;        // explicit, then generated positions
  std::vector<double> keep_apart;  // how close a new particle may come to each
  double requested_cell = separation > 0.0 ? separation : 1.0;
  for (const ParticleSpec& e : model.initial().particles) {
    const double blocking = model.pair(species, e.species).blocking;
    if (blocking <= 0.0) continue;
    placed.push_back(e.position);
    keep_apart.push_back(blocking);
    requested_cell = std::max(requested_cell, blocking);
  }
  const double margin = parameter_number(p, "margin");
  const int dims = model.dimensions();
  const Vec3 lo = model.domain().lo + Vec3::Constant(margin);
  const Vec3 extent = model.domain().length() - Vec3::Constant(2.0 * margin);

  // A hash grid of cell edge >= every separation finds overlaps in O(1). On
  // periodic axes cells wrap and distances use the nearest image, so no
  // pair overlaps across a periodic face either.
  std::array<std::int64_t, 3> cells{1, 1, 1};
  std::array<bool, 3> periodic{false, false, false};
  Vec3 cell = Vec3::Constant(requested_cell);
  for (int k = 0; k < dims; ++k) {
    periodic[k] = wraps(model.domain().boundary[k]);
    cells[k] = std::max<std::int64_t>(1, static_cast<std::int64_t>(extent[k] / requested_cell));
    cell[k] = extent[k] / static_cast<double>(cells[k]);
  }
  auto cell_key = [&](const Vec3& x) {
    auto c = [&](int k) {
      if (k >= dims) return std::int64_t{0};
      return std::clamp(static_cast<std::int64_t>(std::floor((x[k] - lo[k]) / cell[k])),
                        std::int64_t{0}, cells[k] - 1);
    };
    return std::array<std::int64_t, 3>{c(0), c(1), c(2)};
  };
  auto separation_of = [&](const Vec3& a, const Vec3& b) {
    Vec3 d = a - b;
    for (int k = 0; k < dims; ++k) {
      const double length = model.domain().length()[k];
      if (periodic[k]) d[k] -= length * std::nearbyint(d[k] / length);
    }
    return d.norm();
  };
  struct KeyHash {
    std::size_t operator()(const std::array<std::int64_t, 3>& k) const {
      return static_cast<std::size_t>(physics::mix_hash(static_cast<std::uint64_t>(k[0]),
                                                        static_cast<std::uint64_t>(k[1]),
                                                        static_cast<std::uint64_t>(k[2])));
    }
  };
  std::unordered_map<std::array<std::int64_t, 3>, std::vector<std::size_t>, KeyHash> grid;
  for (std::size_t k = 0; k < placed.size(); ++k) grid[cell_key(placed[k])].push_back(k);

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
    const auto key = cell_key(x);
    bool overlaps = false;
    auto neighbour = [&](int k, std::int64_t d) {
      std::int64_t n = key[static_cast<std::size_t>(k)] + d;
      if (periodic[k]) n = (n % cells[k] + cells[k]) % cells[k];
      return n;
    };
    for (std::int64_t dx = -1; dx <= 1 && !overlaps; ++dx) {
      for (std::int64_t dy = -1; dy <= 1 && !overlaps; ++dy) {
        for (std::int64_t dz = -1; dz <= 1 && !overlaps; ++dz) {
          const auto it = grid.find({neighbour(0, dx), neighbour(1, dy), neighbour(2, dz)});
          if (it == grid.end()) continue;
          for (std::size_t other : it->second) {
            if (separation_of(placed[other], x) < keep_apart[other]) {
              overlaps = true;
              break;
            }
          }
        }
      }
    }
    if (overlaps) continue;
    grid[key].push_back(placed.size());
    placed.push_back(x);
    keep_apart.push_back(separation);
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
