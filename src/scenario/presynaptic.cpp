// The presynaptic nerve terminal of the thesis (docs/physics.md, "The
// published models"): one membrane particle M at the centre tethered to
// every vesicle V, synapsin half S and docking site D; one active-zone
// particle Z on the membrane, sqrt(r_M^2 - r_Z^2) below the centre
// (docs/physics.md, "Where tethersim departs from the sources"), tethered to
// every D; synapsins as S-S dimers whose two halves start a little apart.
// Vesicles and synapsins start uniformly at random inside the compartment,
// docking sites uniformly on the active-zone cap of the membrane, all at
// rest (random impulses set them moving), none overlapping another.
#include <cmath>
#include <string>

#include "generator_support.hpp"
#include "generators.hpp"
#include "placement_grid.hpp"

namespace tethersim::scenario {

namespace {
// Draws per particle before the generator gives up: far more than a
// compartment a quarter full needs, so failing means it is overpacked.
constexpr int kMaxAttempts = 10000;
}  // namespace

std::string_view Presynaptic::name() const { return "presynaptic"; }

std::uint64_t Presynaptic::particle_count(const ParameterSet& p) const {
  return saturating_count(2.0 + static_cast<double>(parameter_integer(p, "docking_sites")) +
                          static_cast<double>(parameter_integer(p, "vesicles")) +
                          2.0 * static_cast<double>(parameter_integer(p, "synapsin_dimers")));
}

std::string_view Presynaptic::summary() const {
  return "presynaptic terminal: membrane M, active zone Z, docking sites D, vesicles V, "
         "synapsin dimers S-S";
}

const std::vector<ParameterInfo>& Presynaptic::parameters() const {
  static const std::vector<ParameterInfo> info = {
      {"vesicles", std::int64_t{100}, "number of vesicles V"},
      {"synapsin_dimers", std::int64_t{300}, "number of synapsin dimers (2 S particles each)"},
      {"docking_sites", std::int64_t{30}, "number of docking sites D"},
      {"centre", std::vector<double>{0.0, 0.0, 0.0}, "centre of the compartment"},
      {"compartment_radius", 250.0, "membrane radius r_M (places Z on the membrane)"},
      {"zone_radius", 150.0, "active-zone radius r_Z"},
      {"membrane_species", std::string("M"), "species of the membrane particle"},
      {"zone_species", std::string("Z"), "species of the active-zone particle"},
      {"docking_species", std::string("D"), "species of docking sites"},
      {"vesicle_species", std::string("V"), "species of vesicles"},
      {"synapsin_species", std::string("S"), "species of synapsin halves"},
  };
  return info;
}

std::optional<Box> Presynaptic::suggested_box(const ParameterSet& p) const {
  const Vec3 centre = parameter_vector(p, "centre");
  const double half = 1.1 * parameter_number(p, "compartment_radius");
  return Box{centre - Vec3::Constant(half), centre + Vec3::Constant(half)};
}

std::vector<ModelProblem> Presynaptic::check(const ParameterSet& p, const ModelData& m) const {
  ParameterChecks checks(p, m);
  checks.at_least("vesicles", 0);
  checks.at_least("synapsin_dimers", 0);
  checks.at_least("docking_sites", 0);
  checks.positive("compartment_radius");
  checks.positive("zone_radius");
  if (parameter_number(p, "zone_radius") >= parameter_number(p, "compartment_radius")) {
    checks.add("zone_radius", "must be smaller than compartment_radius");
  }
  const auto membrane = checks.species("membrane_species", false, /*infinite=*/true);
  const auto zone = checks.species("zone_species", false, /*infinite=*/true);
  const auto dock = checks.species("docking_species", true);
  const auto vesicle = checks.species("vesicle_species", true);
  const auto synapsin = checks.species("synapsin_species", true);
  if (m.dynamics.dimensions != 3) checks.add("vesicles", "presynaptic needs a 3-D model");
  auto needs_tether = [&](std::optional<SpeciesIndex> a, std::optional<SpeciesIndex> b,
                          const std::string& param, const char* why) {
    if (a && b && !m.pairs(*a, *b).tetherable()) {
      checks.add(param, "pair " + m.species[*a].name + "-" + m.species[*b].name +
                            " needs a finite tethering distance (" + why + ")");
    }
  };
  if (membrane) {
    needs_tether(membrane, vesicle, "vesicle_species", "vesicles are tethered to the membrane");
    needs_tether(membrane, synapsin, "synapsin_species", "synapsins are tethered to the membrane");
    needs_tether(membrane, dock, "docking_species", "docking sites are tethered to the membrane");
  }
  needs_tether(zone, dock, "docking_species", "docking sites are tethered to the zone");
  needs_tether(synapsin, synapsin, "synapsin_species", "synapsins are S-S dimers");
  return checks.take();
}

std::unique_ptr<GeneratedSystem> Presynaptic::make(const ParameterSet& p, const Model& model) const {
  return std::make_unique<StoredSystem>(generate_whole(p, model));
}

namespace {

// Builds the terminal particle by particle: ids in the order particles are
// added, each drawn from its own stream (the id's), and every particle at
// least its blocking distance from every other (a draw that overlaps is
// drawn again from the same stream): overlapping starts can freeze the
// dynamics (docs/engine.md, "Stalls").
class TerminalBuilder {
 public:
  TerminalBuilder(const ParameterSet& p, const Model& model) : p_(p), model_(model), placed_(model) {}

  ParticleId add(SpeciesIndex s, const Vec3& x) {
    ParticleSpec spec;
    spec.id = state_.particles.size();
    spec.species = s;
    spec.position = x;
    state_.particles.push_back(spec);
    return spec.id;
  }
  // The stream of the next particle.
  physics::CounterRng next_stream() const {
    return physics::CounterRng(model_.seed(), state_.particles.size(), physics::RandomStream::initial_state, 0);
  }
  // A particle of species s where draw(rng) says, drawn again while it
  // overlaps; `parameter` names the count that asked for too many.
  template <typename Draw>
  ParticleId place(physics::CounterRng& rng, SpeciesIndex s, const std::string& parameter, Draw draw) {
    for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
      const Vec3 x = draw(rng);
      if (!placed_.fits(s, x)) continue;
      placed_.add(s, x);
      return add(s, x);
    }
    throw ModelError({"initial.parameters." + parameter,
                      "no room for " + std::to_string(parameter_integer(p_, parameter)) + " " + parameter +
                          " without overlaps (blocking distances) in the compartment (placed " +
                          std::to_string(state_.particles.size()) +
                          " particles): lower the count or enlarge the compartment"});
  }
  void tether(ParticleId a, ParticleId b) { state_.tethers.push_back({a, b}); }
  GeneratedState take() { return std::move(state_); }

 private:
  const ParameterSet& p_;
  const Model& model_;
  GeneratedState state_;
  PlacementGrid placed_;
};

// Docking sites: uniform on the spherical cap of radius rho (between the
// D-M blocking and tethering distances) within D-Z tether reach of Z, each
// tethered to M and Z.
void place_docking_sites(TerminalBuilder& b, const ParameterSet& p, const Model& model, ParticleId m_id,
                         ParticleId z_id, const Vec3& centre, const Vec3& zone_centre) {
  const SpeciesIndex membrane = species_parameter(p, model, "membrane_species");
  const SpeciesIndex zone = species_parameter(p, model, "zone_species");
  const SpeciesIndex dock = species_parameter(p, model, "docking_species");
  const PairParameters& dm = model.pair(dock, membrane);
  const double rho = 0.5 * (dm.blocking + dm.tethering);
  const double reach = model.pair(dock, zone).tethering;
  const double d = (zone_centre - centre).norm();
  const double cos_min = std::clamp((rho * rho + d * d - reach * reach) / (2.0 * rho * d), -1.0, 1.0);
  const Vec3 axis = (zone_centre - centre) / d;
  const Vec3 e1 = axis.unitOrthogonal();
  const Vec3 e2 = axis.cross(e1);
  for (std::int64_t i = 0; i < parameter_integer(p, "docking_sites"); ++i) {
    physics::CounterRng rng = b.next_stream();
    const ParticleId id = b.place(rng, dock, "docking_sites", [&](physics::CounterRng& r) {
      const double cos_t = 1.0 - r.uniform() * (1.0 - cos_min);
      const double sin_t = std::sqrt(std::max(0.0, 1.0 - cos_t * cos_t));
      const double phi = 2.0 * M_PI * r.uniform();
      const Vec3 dir = cos_t * axis + sin_t * (std::cos(phi) * e1 + std::sin(phi) * e2);
      return Vec3(centre + rho * dir);
    });
    b.tether(m_id, id);
    b.tether(z_id, id);
  }
}

// Vesicles anywhere within their tether reach of M, tethered to it.
void place_vesicles(TerminalBuilder& b, const ParameterSet& p, const Model& model, ParticleId m_id,
                    const Vec3& centre) {
  const SpeciesIndex membrane = species_parameter(p, model, "membrane_species");
  const SpeciesIndex vesicle = species_parameter(p, model, "vesicle_species");
  const double vesicle_reach = model.pair(vesicle, membrane).tethering;
  for (std::int64_t i = 0; i < parameter_integer(p, "vesicles"); ++i) {
    physics::CounterRng rng = b.next_stream();
    const ParticleId id = b.place(rng, vesicle, "vesicles", [&](physics::CounterRng& r) {
      return Vec3(centre + random_point_in_ball(r, vesicle_reach, 3));
    });
    b.tether(m_id, id);
  }
}

// The two halves of a dimer start apart, midway between their blocking
// and tethering distances in a random direction, the first far enough
// inside the membrane's reach that the second is inside it too; both are
// tethered to M and to each other.
void place_synapsin_dimers(TerminalBuilder& b, const ParameterSet& p, const Model& model, ParticleId m_id,
                           const Vec3& centre) {
  const SpeciesIndex membrane = species_parameter(p, model, "membrane_species");
  const SpeciesIndex synapsin = species_parameter(p, model, "synapsin_species");
  const PairParameters& ss = model.pair(synapsin, synapsin);
  const double gap = 0.5 * (ss.blocking + ss.tethering);
  const double synapsin_reach = model.pair(synapsin, membrane).tethering;
  for (std::int64_t i = 0; i < parameter_integer(p, "synapsin_dimers"); ++i) {
    physics::CounterRng rng = b.next_stream();
    Vec3 first_x = Vec3::Zero();
    const ParticleId first = b.place(rng, synapsin, "synapsin_dimers", [&](physics::CounterRng& r) {
      first_x = centre + random_point_in_ball(r, std::max(0.0, synapsin_reach - gap), 3);
      return first_x;
    });
    const ParticleId second = b.place(rng, synapsin, "synapsin_dimers", [&](physics::CounterRng& r) {
      const double z = 2.0 * r.uniform() - 1.0;
      const double phi = 2.0 * M_PI * r.uniform();
      const double rxy = std::sqrt(std::max(0.0, 1.0 - z * z));
      return Vec3(first_x + gap * Vec3(rxy * std::cos(phi), rxy * std::sin(phi), z));
    });
    b.tether(m_id, first);
    b.tether(m_id, second);
    b.tether(first, second);
  }
}

}  // namespace

GeneratedState Presynaptic::generate_whole(const ParameterSet& p, const Model& model) const {
  const Vec3 centre = parameter_vector(p, "centre");
  const double r_m = parameter_number(p, "compartment_radius");
  const double r_z = parameter_number(p, "zone_radius");
  const Vec3 zone_centre = centre - std::sqrt(r_m * r_m - r_z * r_z) * Vec3::UnitZ();
  TerminalBuilder b(p, model);
  const ParticleId m_id = b.add(species_parameter(p, model, "membrane_species"), centre);
  const ParticleId z_id = b.add(species_parameter(p, model, "zone_species"), zone_centre);
  place_docking_sites(b, p, model, m_id, z_id, centre, zone_centre);
  place_vesicles(b, p, model, m_id, centre);
  place_synapsin_dimers(b, p, model, m_id, centre);
  return b.take();
}

}  // namespace tethersim::scenario
