#pragma once
// The particle fields, declared once: every per-particle value of a
// ParticleSnapshot, in the order the record codec writes them and the
// checkpoint creates its columns. The codec, the checkpoint columns and
// content hash, the engine's state hash and the bit-equality of two ranks'
// copies all walk this list (particle_bytes.hpp, particle_words.hpp), so a
// new field is its member in ParticleSnapshot, one line here, and where the
// engine keeps it (docs/engine.md, "Adding a particle field").
//
// The list is a tuple of field types, walked with a fold: every access is
// a member pointer known at compile time, so the walks compile to the code
// one would write by hand (they run for every record ranks exchange).

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "tethersim/engine/snapshot.hpp"

namespace tethersim::engine {

// When a field belongs to the state.
enum class FieldPresence : std::uint8_t {
  always,
  // Only when the model has random impulses: the engine keeps the field
  // only then, and the state hash covers it only then.
  random_impulses,
};

// A member's value as scalars: one for a plain value, one per component
// for a vector or the sector coordinates.
template <typename T>
struct FieldShape {
  using Scalar = T;
  static constexpr std::size_t width = 1;
  static Scalar get(const T& v, std::size_t) { return v; }
  static void set(T& v, std::size_t, Scalar x) { v = x; }
};

template <>
struct FieldShape<Vec3> {
  using Scalar = double;
  static constexpr std::size_t width = 3;
  static Scalar get(const Vec3& v, std::size_t k) { return v[static_cast<Eigen::Index>(k)]; }
  static void set(Vec3& v, std::size_t k, Scalar x) { v[static_cast<Eigen::Index>(k)] = x; }
};

template <typename E, std::size_t N>
struct FieldShape<std::array<E, N>> {
  using Scalar = E;
  static constexpr std::size_t width = N;
  static Scalar get(const std::array<E, N>& v, std::size_t k) { return v[k]; }
  static void set(std::array<E, N>& v, std::size_t k, Scalar x) { v[k] = x; }
};

template <typename MemberPointer>
struct MemberValue;
template <typename T>
struct MemberValue<T ParticleSnapshot::*> {
  using type = T;
};

// One field: the member it is, the type of its checkpoint column (the
// member's own scalar type unless the file format says otherwise), and
// what it takes part in. Records and bytes use the member's scalar type.
template <auto Member, typename Column = typename FieldShape<typename MemberValue<decltype(Member)>::type>::Scalar>
struct ParticleField {
  using Value = typename MemberValue<decltype(Member)>::type;
  using Shape = FieldShape<Value>;
  using Scalar = typename Shape::Scalar;
  using ColumnScalar = Column;
  static constexpr std::size_t width = Shape::width;

  std::string_view name;  // the checkpoint column: particles/<name>
  bool in_state_hash = true;
  FieldPresence presence = FieldPresence::always;

  static Scalar get(const ParticleSnapshot& p, std::size_t k) { return Shape::get(p.*Member, k); }
  static void set(ParticleSnapshot& p, std::size_t k, Scalar x) { Shape::set(p.*Member, k, x); }
};

// The list. Its order is the order of the codec's bytes and of the
// checkpoint's columns: append new fields at the end. The meaning of each
// field is documented at its member in snapshot.hpp.
//
// The state hash leaves out the species (fixed for a particle's life) and
// the sector (the grid's bookkeeping); putting them in would change every
// hash that summaries and tests compare.
inline constexpr std::tuple kParticleFields{
    ParticleField<&ParticleSnapshot::id>{.name = "id"},
    ParticleField<&ParticleSnapshot::species, std::int32_t>{.name = "species", .in_state_hash = false},
    ParticleField<&ParticleSnapshot::alive>{.name = "alive"},
    ParticleField<&ParticleSnapshot::t0>{.name = "t0"},
    ParticleField<&ParticleSnapshot::u0>{.name = "u0"},
    ParticleField<&ParticleSnapshot::v>{.name = "v"},
    ParticleField<&ParticleSnapshot::counter>{.name = "counter"},
    ParticleField<&ParticleSnapshot::sector>{.name = "sector", .in_state_hash = false},
    ParticleField<&ParticleSnapshot::ri_index>{.name = "ri_index", .presence = FieldPresence::random_impulses},
    ParticleField<&ParticleSnapshot::ri_time>{.name = "ri_time", .presence = FieldPresence::random_impulses},
};

inline constexpr std::size_t kParticleFieldCount = std::tuple_size_v<decltype(kParticleFields)>;

// Calls visit(field) for every field, in list order.
template <typename Visit>
constexpr void for_each_particle_field(Visit&& visit) {
  std::apply([&](const auto&... field) { (visit(field), ...); }, kParticleFields);
}

// Calls visit(field) for the fields at the positions `Order` lists (a
// std::array of list positions), in that order.
template <auto Order, typename Visit>
constexpr void for_each_particle_field_in(Visit&& visit) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (visit(std::get<Order[I]>(kParticleFields)), ...);
  }(std::make_index_sequence<Order.size()>{});
}

// True when pred(field) holds for every field, stopping at the first that
// does not.
template <typename Pred>
constexpr bool all_particle_fields(Pred&& pred) {
  return std::apply([&](const auto&... field) { return (pred(field) && ...); }, kParticleFields);
}

// The field's position in the list, by name (kParticleFieldCount when none).
constexpr std::size_t particle_field_index(std::string_view name) {
  std::size_t found = kParticleFieldCount, k = 0;
  for_each_particle_field([&](const auto& field) {
    if (field.name == name && found == kParticleFieldCount) found = k;
    ++k;
  });
  return found;
}

}  // namespace tethersim::engine

namespace tethersim::engine::particle_fields_detail {

// Converts to anything: counting how many of these initialise a
// ParticleSnapshot counts its members.
struct AnyValue {
  template <typename T>
  operator T() const;  // NOLINT(google-explicit-constructor): implicit on purpose
};

template <typename T, typename... Values>
constexpr std::size_t member_count() {
  if constexpr (requires { T{Values{}..., AnyValue{}}; }) {
    return member_count<T, Values..., AnyValue>();
  } else {
    return sizeof...(Values);
  }
}

}  // namespace tethersim::engine::particle_fields_detail

namespace tethersim::engine {

// A member added to ParticleSnapshot without its line in kParticleFields
// would silently not travel, not be checkpointed and not be compared.
static_assert(particle_fields_detail::member_count<ParticleSnapshot>() == kParticleFieldCount,
              "every ParticleSnapshot member needs its line in kParticleFields");

}  // namespace tethersim::engine
