#include "tethersim/model/model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

namespace tethersim {

ModelError::ModelError(ModelProblem problem)
    : std::runtime_error(problem.key + ": " + problem.message), problem_(std::move(problem)) {}

namespace {

double pair_interaction_range(const PairParameters& p) {
  return std::max(p.blocking, p.tetherable() ? p.tethering : 0.0);
}

struct RangeWitness {
  double range = 0.0;
  std::string pair;
};

// The largest interaction distance between two finite-mass species, and
// which pair sets it (for error messages). Given the number of particles of
// each species, only pairs that can occur count: a species with one
// particle never meets itself (the membrane's lone projectile, whose
// distance to another projectile would otherwise set every sector's edge).
RangeWitness mobile_interaction_range(const ModelData& d, const std::vector<std::size_t>* count_by_species = nullptr) {
  RangeWitness w;
  const auto n = static_cast<SpeciesIndex>(d.species.size());
  for (SpeciesIndex a = 0; a < n; ++a) {
    for (SpeciesIndex b = a; b < n; ++b) {
      if (d.species[a].infinite_mass() || d.species[b].infinite_mass()) continue;
      if (count_by_species != nullptr) {
        const std::size_t na = a < count_by_species->size() ? (*count_by_species)[a] : 0;
        const std::size_t nb = b < count_by_species->size() ? (*count_by_species)[b] : 0;
        if (na == 0 || nb == 0 || (a == b && na < 2)) continue;
      }
      const double r = pair_interaction_range(d.pairs(a, b));
      if (r > w.range) w = {r, d.species[a].name + "-" + d.species[b].name};
    }
  }
  return w;
}

std::string number_text(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

std::string vector_text(const Vec3& v) {
  return "[" + number_text(v[0]) + ", " + number_text(v[1]) + ", " + number_text(v[2]) + "]";
}

std::uint64_t fnv1a64(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string parameter_text(const ParameterValue& v) {
  struct Visitor {
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(std::int64_t i) const { return std::to_string(i); }
    std::string operator()(double x) const { return number_text(x); }
    std::string operator()(const std::string& s) const { return "\"" + s + "\""; }
    std::string operator()(const std::vector<double>& xs) const {
      std::string out = "[";
      for (std::size_t i = 0; i < xs.size(); ++i) out += (i ? ", " : "") + number_text(xs[i]);
      return out + "]";
    }
  };
  return std::visit(Visitor{}, v);
}

// Everything that decides a trajectory, one "key = value" per line with
// round-trip exact numbers; the initial state comes separately.
std::string canonical_physics_text(const ModelData& d) {
  std::ostringstream out;
  const Dynamics& dyn = d.dynamics;
  out << "seed = " << d.seed << "\n"
      << "dimensions = " << dyn.dimensions << "\n"
      << "theta_revolve = " << number_text(dyn.theta_revolve) << "\n"
      << "restitution_delay = " << number_text(dyn.restitution_delay) << "\n"
      << "restitution_schedule = " << to_string(dyn.schedule) << "\n"
      << "dt_max = " << number_text(dyn.dt_max) << "\n"
      << "max_group_size = " << dyn.max_group_size << "\n";
  // Only when set, so that every model without it keeps its hash.
  if (dyn.tc_elastic_time > 0.0) out << "tc_elastic_time = " << number_text(dyn.tc_elastic_time) << "\n";
  out
      << "domain.lo = " << vector_text(d.domain.lo) << "\n"
      << "domain.hi = " << vector_text(d.domain.hi) << "\n"
      << "domain.boundary = " << to_string(d.domain.boundary[0]) << " "
      << to_string(d.domain.boundary[1]) << " " << to_string(d.domain.boundary[2]) << "\n"
      << "domain.sector_size = " << number_text(d.domain.requested_sector_size) << "\n";
  if (d.domain.escape) {
    out << "domain.escape = " << vector_text(d.domain.escape->centre) << " "
        << number_text(d.domain.escape->radius) << "\n";
  }
  for (const Species& s : d.species) {
    out << "species " << s.name << " mass=" << number_text(s.mass)
        << " radius=" << number_text(s.radius) << " ri=" << number_text(s.random_impulse.tau)
        << "," << number_text(s.random_impulse.shape) << ","
        << number_text(s.random_impulse.mean) << "\n";
  }
  const auto n = static_cast<SpeciesIndex>(d.species.size());
  for (SpeciesIndex a = 0; a < n; ++a) {
    for (SpeciesIndex b = a; b < n; ++b) {
      const PairParameters& p = d.pairs(a, b);
      out << "pair " << d.species[a].name << "-" << d.species[b].name
          << " blocking=" << number_text(p.blocking) << " tethering=" << number_text(p.tethering)
          << " c=" << number_text(p.c_rebound) << "," << number_text(p.c_retract) << ","
          << number_text(p.c_revolve) << " permanent=" << p.permanent << "\n";
    }
  }
  for (const PeriodicImpulse& e : d.periodic_impulses) {
    out << "external " << to_string(e.kind) << " interval=" << number_text(e.interval)
        << " start=" << number_text(e.start) << " g=" << vector_text(e.acceleration)
        << " viscosity=" << number_text(e.viscosity)
        << " fluid_velocity=" << vector_text(e.fluid_velocity) << " species=";
    for (bool b : e.applies_to) out << (b ? '1' : '0');
    out << "\n";
  }
  for (const AttachRule& r : d.rules.attach) {
    out << "attach " << r.species_a << "-" << r.species_b << " max=" << r.max_partners_of_a
        << "," << r.max_partners_of_b
        << " dimer=" << (r.exclusive_dimer ? static_cast<int>(*r.exclusive_dimer) : -1)
        << " unless=" << r.blocking_reaction << "\n";
  }
  for (const DetachRule& r : d.rules.detach) {
    out << "detach " << r.species_a << "-" << r.species_b << " reaction=" << r.reaction
        << " requires="
        << (r.subject_requires_partner ? static_cast<int>(*r.subject_requires_partner) : -1)
        << " release=";
    for (SpeciesIndex s : r.subject_releases) out << s << ",";
    out << "\n";
  }
  const ActionPotentials& ap = d.action_potentials;
  if (ap.enabled()) {
    out << "action_potential membrane=" << ap.membrane << " zone=" << ap.zone
        << " zone_radius=" << number_text(ap.zone_radius)
        << " gradient=" << number_text(ap.gradient) << "\n";
    for (const Reaction& r : ap.reactions) {
      out << "reaction " << r.name << " subject=" << r.subject
          << " mean_time=" << number_text(r.mean_time) << "\n";
    }
    for (const ActionPotentialWindow& w : ap.windows) {
      out << "window " << number_text(w.start) << " " << number_text(w.end) << "\n";
    }
  }
  return out.str();
}

std::string canonical_initial_text(const ModelData& d) {
  std::ostringstream out;
  const InitialState& init = d.initial;
  if (init.generator) {
    out << "generator " << init.generator->kind << "\n";
    for (const auto& [key, value] : init.generator->parameters) {
      out << "generator." << key << " = " << parameter_text(value) << "\n";
    }
  }
  for (const ParticleSpec& p : init.particles) {
    out << "particle " << p.id << " " << p.species << " " << vector_text(p.position) << " "
        << vector_text(p.velocity) << "\n";
  }
  for (const TetherSpec& t : init.tethers) out << "tether " << t.a << " " << t.b << "\n";
  return out.str();
}

// The grid keeps a list head for every sector, empty or not, and numbers
// sectors with 32-bit indices: refuse grids whose count does not fit (the
// count is computed in floating point, so a huge box cannot overflow it).
std::string rough_number(double x, int digits = 3) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, x);
  return buffer;
}

std::optional<ModelProblem> sector_count_problem(const Vec3& length, double sector_size) {
  double count = 1.0;
  std::string shape;
  for (int k = 0; k < 3; ++k) {
    const double n = std::max(1.0, std::floor(length[k] / sector_size));
    count *= n;
    shape += (k == 0 ? "" : " x ") + (n < 1e15 ? number_text(n) : rough_number(n));
  }
  if (count > static_cast<double>(kMaxSectors)) {
    return ModelProblem{"domain.sector_size",
                        "the box holds " + shape + " = " + rough_number(count) +
                            " sectors of edge " + rough_number(sector_size, 6) + ", needing " +
                            rough_number(count * 4.0) + " bytes; at most " +
                            std::to_string(kMaxSectors) +
                            " fit (set a larger domain.sector_size or a smaller box)"};
  }
  return std::nullopt;
}

void check_sector_count(const Vec3& length, double sector_size) {
  if (auto problem = sector_count_problem(length, sector_size)) throw ModelError(std::move(*problem));
}

// Infinite-mass species whose interaction distance to a mobile species
// exceeds the sector edge.
std::vector<bool> hub_species_for(const ModelData& d, double sector_size) {
  const auto n = static_cast<SpeciesIndex>(d.species.size());
  std::vector<bool> hubs(n, false);
  for (SpeciesIndex s = 0; s < n; ++s) {
    if (!d.species[s].infinite_mass()) continue;
    for (SpeciesIndex f = 0; f < n; ++f) {
      if (d.species[f].infinite_mass()) continue;
      if (pair_interaction_range(d.pairs(s, f)) > sector_size) hubs[s] = true;
    }
  }
  return hubs;
}

}  // namespace

Model::Model(ModelData data) : data_(std::move(data)) {
  std::vector<ModelProblem> problems = validate_model_data(data_);
  if (!problems.empty()) throw ModelError(problems.front());

  const RangeWitness range = mobile_interaction_range(data_);
  min_sector_size_ = range.range;
  const double requested = data_.domain.requested_sector_size;
  if (requested > 0.0 && requested < min_sector_size_) {
    throw ModelError({"domain.sector_size",
                      number_text(requested) + " is smaller than the largest interaction "
                      "distance between mobile species, " + number_text(min_sector_size_) +
                      " (pair " + range.pair + "); sectors must be at least that large"});
  }
  const Vec3 length = data_.domain.length();
  sector_size_ = requested > 0.0 ? requested : min_sector_size_;
  if (sector_size_ == 0.0) {
    // Nothing interacts: sectors only serve the box faces; keep three per
    // axis so that periodic axes stay valid.
    sector_size_ = length.head(data_.dynamics.dimensions).minCoeff() / 3.0;
  }

  static const char* axis_names[3] = {"x", "y", "z"};
  for (int k = 0; k < data_.dynamics.dimensions; ++k) {
    const double sectors = std::floor(length[k] / sector_size_);
    if (wraps(data_.domain.boundary[k]) && sectors < 3.0) {
      throw ModelError({"domain.boundary",
                        std::string("periodic axis ") + axis_names[k] + " is " +
                            number_text(length[k]) + " long, which holds only " +
                            number_text(sectors) + " sectors of edge " +
                            number_text(sector_size_) +
                            "; a periodic axis needs at least 3 (make the box larger)"});
    }
  }

  check_sector_count(length, sector_size_);

  hub_species_ = hub_species_for(data_, sector_size_);

  canonical_text_ = canonical_physics_text(data_);
  physics_hash_ = fnv1a64(canonical_text_);
  canonical_text_ += canonical_initial_text(data_);
  hash_ = fnv1a64(canonical_text_);
}

void Model::fit_sectors_to(const std::vector<std::size_t>& count_by_species) {
  // A requested edge stays as it was asked for (and was checked against
  // every pair); so does one that the population cannot shrink.
  if (data_.domain.requested_sector_size > 0.0) return;
  const double fitted = mobile_interaction_range(data_, &count_by_species).range;
  if (!(fitted > 0.0) || fitted >= sector_size_) return;
  // Smaller sectors: more of them, which must still fit.
  if (sector_count_problem(data_.domain.length(), fitted)) return;
  min_sector_size_ = fitted;
  sector_size_ = fitted;
  hub_species_ = hub_species_for(data_, sector_size_);
}

std::optional<SpeciesIndex> Model::find_species(std::string_view name) const {
  for (std::size_t i = 0; i < data_.species.size(); ++i) {
    if (data_.species[i].name == name) return static_cast<SpeciesIndex>(i);
  }
  return std::nullopt;
}

}  // namespace tethersim
