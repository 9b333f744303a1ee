#pragma once
// The particles of a checkpoint (private to io/), from the particle field
// list (engine/particle_fields.hpp): the rows ranks move to the rank that
// writes them, the columns particles/<field> in the file, and each
// particle's term of the content hash.

#include <array>
#include <cstdint>
#include <vector>

#include "hdf5_support.hpp"
#include "tethersim/engine/particle_bytes.hpp"

namespace tethersim::io_detail {

// A particle on its way to the rank that writes its row (trivially
// copyable, for exchange_by_slot).
struct ParticleRow {
  std::uint64_t slot;
  std::array<char, engine::kParticleBytes> bytes;
};

// Rows of these particles at these slots. The rows are value-initialised
// so that no uninitialised padding goes over MPI.
std::vector<ParticleRow> particle_rows(const std::vector<engine::ParticleSnapshot>& particles,
                                       const std::vector<std::uint64_t>& slots);

// Bytes the columns of one particle take in the file.
inline constexpr std::uint64_t kParticleColumnBytes = [] {
  std::uint64_t bytes = 0;
  engine::for_each_particle_field([&](const auto& field) {
    using Field = std::remove_cvref_t<decltype(field)>;
    bytes += Field::width * sizeof(typename Field::ColumnScalar);
  });
  return bytes;
}();

// Collective: writes the rows [first, first + rows.size()) of every
// particle column (of `total` rows) in `group`, in slot order.
void write_particle_columns(hid_t group, const std::vector<ParticleRow>& rows, hsize_t first, hsize_t total,
                            hid_t transfer);
// The same from decoded particles already in slot order.
void write_particle_columns(hid_t group, const std::vector<engine::ParticleSnapshot>& particles, hsize_t first,
                            hsize_t total, hid_t transfer);
// Reads the rows [first, first + particles.size()) of every particle
// column into `particles`.
void read_particle_columns(hid_t group, std::vector<engine::ParticleSnapshot>& particles, hsize_t first);

// The particle's term of the content hash, as format 1 defines it.
std::uint64_t particle_hash(std::uint64_t slot, const engine::ParticleSnapshot& p);

}  // namespace tethersim::io_detail
