#pragma once
// A particle's fields as 64-bit words (particle_fields.hpp): what two ranks'
// copies are compared by and what the hashes mix. A double is its bits, so
// equal words mean the same bits (-0.0 differs from 0.0, a NaN equals
// itself); an integer is its value, a signed one sign-extended.

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "tethersim/engine/particle_fields.hpp"
#include "tethersim/physics/counter_rng.hpp"

namespace tethersim::engine {

template <typename Scalar>
std::uint64_t field_word(Scalar x) {
  if constexpr (std::is_floating_point_v<Scalar>) {
    return std::bit_cast<std::uint64_t>(static_cast<double>(x));
  } else {
    return static_cast<std::uint64_t>(x);
  }
}

// Calls add(word) for each scalar of `field`.
template <typename Field, typename Add>
void field_words(const Field&, const ParticleSnapshot& p, Add&& add) {
  for (std::size_t k = 0; k < Field::width; ++k) add(field_word(Field::get(p, k)));
}

// Every field the same, bit for bit: two ranks that ran a particle must
// hold exactly this.
inline bool same_particle_state(const ParticleSnapshot& a, const ParticleSnapshot& b) {
  return all_particle_fields([&](const auto& field) {
    using Field = std::remove_cvref_t<decltype(field)>;
    for (std::size_t k = 0; k < Field::width; ++k) {
      if (field_word(Field::get(a, k)) != field_word(Field::get(b, k))) return false;
    }
    return true;
  });
}

// Mixes words six at a time (physics::mix_hash takes six), missing words
// being zeros. Chained: the first six words are mixed, then the hash so
// far with each further five.
class ChainedHash {
 public:
  void add(std::uint64_t word) {
    words_[size_++] = word;
    if (size_ == words_.size()) {
      words_[0] = mix();
      size_ = 1;
      mixed_ = true;
    }
  }
  std::uint64_t value() const { return mixed_ && size_ == 1 ? words_[0] : mix(); }

 private:
  std::uint64_t mix() const {
    std::array<std::uint64_t, 6> w{};
    for (std::size_t k = 0; k < size_; ++k) w[k] = words_[k];
    return physics::mix_hash(w[0], w[1], w[2], w[3], w[4], w[5]);
  }
  std::array<std::uint64_t, 6> words_{};
  std::size_t size_ = 0;
  bool mixed_ = false;
};

namespace particle_words_detail {

// The fields in list order, a vector as the mix of its components,
// chained; the random-impulse fields only when the model has them; those
// left out of the state hash only when `every_field`.
template <bool every_field>
std::uint64_t particle_hash(const ParticleSnapshot& p, bool random_impulses) {
  ChainedHash h;
  for_each_particle_field([&](const auto& field) {
    using Field = std::remove_cvref_t<decltype(field)>;
    if (!every_field && !field.in_state_hash) return;
    if (field.presence == FieldPresence::random_impulses && !random_impulses) return;
    if constexpr (Field::width == 1) {
      h.add(field_word(Field::get(p, 0)));
    } else {
      static_assert(Field::width <= 6, "a vector is hashed as one mix of its components");
      ChainedHash components;
      field_words(field, p, [&](std::uint64_t w) { components.add(w); });
      h.add(components.value());
    }
  });
  return h.value();
}

}  // namespace particle_words_detail

// The engine's hash of one particle's state (Engine::state_hash): the
// fields marked in_state_hash.
inline std::uint64_t particle_state_hash(const ParticleSnapshot& p, bool random_impulses) {
  return particle_words_detail::particle_hash<false>(p, random_impulses);
}

// The hash of every field of a particle, its species and sector included:
// what a speculative window's history compares between ranks
// (Engine::record_hash).
inline std::uint64_t particle_record_hash(const ParticleSnapshot& p, bool random_impulses) {
  return particle_words_detail::particle_hash<true>(p, random_impulses);
}

}  // namespace tethersim::engine
