#pragma once
// A particle's fields as bytes: each scalar of each field (particle_fields.hpp)
// in list order, in its own type and the machine's byte order, with no
// padding. The record codec sends this between ranks; the checkpoint moves
// its rows in it. Every bit travels unchanged.

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "tethersim/engine/particle_fields.hpp"

namespace tethersim::engine {

// Bytes one particle takes.
inline constexpr std::size_t kParticleBytes = [] {
  std::size_t bytes = 0;
  for_each_particle_field([&](const auto& field) {
    using Field = std::remove_cvref_t<decltype(field)>;
    bytes += Field::width * sizeof(typename Field::Scalar);
  });
  return bytes;
}();

// Calls f(field, offset) for each field, with where its scalars start in a
// particle's bytes (the widths of the fields before it).
template <typename F>
void for_each_particle_field_at(F&& f) {
  std::size_t offset = 0;
  for_each_particle_field([&](const auto& field) {
    using Field = std::remove_cvref_t<decltype(field)>;
    f(field, offset);
    offset += Field::width * sizeof(typename Field::Scalar);
  });
}

// Scalar k of a field whose scalars start `offset` bytes into `particle`
// (for_each_particle_field_at), without decoding the rest.
template <typename Field>
typename Field::Scalar particle_field_scalar(const char* particle, std::size_t offset, std::size_t k) {
  typename Field::Scalar x;
  std::memcpy(&x, particle + offset + k * sizeof x, sizeof x);
  return x;
}

// Writes kParticleBytes at `out`; returns the end.
inline char* write_particle_bytes(const ParticleSnapshot& p, char* out) {
  for_each_particle_field([&](const auto& field) {
    using Field = std::remove_cvref_t<decltype(field)>;
    for (std::size_t k = 0; k < Field::width; ++k) {
      const typename Field::Scalar x = Field::get(p, k);
      std::memcpy(out, &x, sizeof x);
      out += sizeof x;
    }
  });
  return out;
}

// Reads kParticleBytes from `in` (the caller checks they are there);
// returns the end.
inline const char* read_particle_bytes(const char* in, ParticleSnapshot& p) {
  for_each_particle_field([&](const auto& field) {
    using Field = std::remove_cvref_t<decltype(field)>;
    for (std::size_t k = 0; k < Field::width; ++k) {
      typename Field::Scalar x;
      std::memcpy(&x, in, sizeof x);
      in += sizeof x;
      Field::set(p, k, x);
    }
  });
  return in;
}

}  // namespace tethersim::engine
