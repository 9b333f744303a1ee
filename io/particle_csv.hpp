#pragma once
// Particle and tether files named by [initial] (private to io/).
//
// particles: a header line naming columns among id, species, x, y, z, vx,
// vy, vz (species and x required), then one particle per line. tethers: a
// header "a,b", then one pair of particle ids per line. Blank lines and
// lines starting with # are ignored.

#include <functional>
#include <string>
#include <vector>

#include "tethersim/io/input_error.hpp"
#include "tethersim/model/initial_state.hpp"

namespace tethersim::io_detail {

struct CsvParticle {
  ParticleSpec spec;
  bool has_id = false;
  int line = 0;
};

// resolve_species maps a name to an index or throws InputError for the line.
std::vector<CsvParticle> read_particle_csv(
    const std::string& path, const std::string& key,
    const std::function<SpeciesIndex(const std::string& name, int line)>& resolve_species);

std::vector<TetherSpec> read_tether_csv(const std::string& path, const std::string& key);

}  // namespace tethersim::io_detail
