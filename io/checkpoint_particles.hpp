#pragma once
// The particles of a checkpoint (private to io/), from the particle field
// list (engine/particle_fields.hpp): the rows ranks move to the rank that
// writes them, the columns particles/<field> in the file, and each
// particle's term of the content hash.

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "hdf5_support.hpp"
#include "tethersim/engine/particle_bytes.hpp"
#include "tethersim/engine/particle_source.hpp"

namespace tethersim::io_detail {

// A particle on its way to the rank that writes its row (trivially
// copyable, for exchange_by_slot).
struct ParticleRow {
  std::uint64_t slot;
  std::array<char, engine::kParticleBytes> bytes;
};

// Appends a particle's row at its slot (value-initialised: no uninitialised
// padding goes over MPI).
void append_particle_row(std::vector<ParticleRow>& rows, const engine::ParticleSnapshot& p, std::uint64_t slot);
// Bytes the columns of one particle take in the file.
inline constexpr std::uint64_t kParticleColumnBytes = [] {
  std::uint64_t bytes = 0;
  engine::for_each_particle_field([&](const auto& field) {
    using Field = std::remove_cvref_t<decltype(field)>;
    bytes += Field::width * sizeof(typename Field::ColumnScalar);
  });
  return bytes;
}();

// The particle columns of `total` rows in `group`, one dataset per field
// in field order.
std::vector<H5Id> create_particle_columns(hid_t group, hsize_t total);
// Collective: writes the rows [first, first + rows.size()), in slot order,
// of every particle column (`columns` from create_particle_columns);
// `most_rows` is the largest row count any rank writes in this call.
void write_particle_rows(const std::vector<H5Id>& columns, const std::vector<ParticleRow>& rows, hsize_t first,
                         hsize_t most_rows, hid_t transfer);
// Alone: every particle column of all the source's particles, which are
// the slots 0, 1, ... in order, `slab_particles` decoded at a time; seen(slab,
// phi, first slot) is called for each slab before it is written.
using SlabSeen = std::function<void(const std::vector<engine::ParticleSnapshot>&,
                                    const std::vector<std::vector<double>>&, std::uint64_t)>;
void write_particle_columns(hid_t group, const engine::ParticleSource& source, std::size_t slab_particles,
                            hid_t transfer, const SlabSeen& seen);
// Reads the rows [first, first + particles.size()) of every particle
// column into `particles`.
void read_particle_columns(hid_t group, std::vector<engine::ParticleSnapshot>& particles, hsize_t first);

// The particle's term of the content hash, as format 1 defines it.
std::uint64_t particle_hash(std::uint64_t slot, const engine::ParticleSnapshot& p);
// The sum of the terms of particles[k] at slots[k]: the same value, made
// eight particles side by side, in vector registers where the processor
// has 64-bit vector multiplies (AVX-512DQ) unless `vectors` is false (the
// plain path, which tests also check).
std::uint64_t particle_hash_sum(std::span<const engine::ParticleSnapshot> particles,
                                std::span<const std::uint64_t> slots, bool vectors = true);

}  // namespace tethersim::io_detail
