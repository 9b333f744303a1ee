// The particle field list and its walks: every field travels as bytes,
// every field takes part in the equality check, and the state hash covers
// the fields it says it covers.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "awkward_particle.hpp"
#include "tethersim/engine/particle_bytes.hpp"
#include "tethersim/engine/particle_words.hpp"

namespace tethersim::engine {
namespace {

ParticleSnapshot sample() { return testing::awkward_particle(123456789012345ULL, 3); }

// A copy of `p` with scalar k of the field at list position `which` changed
// in its lowest bit.
ParticleSnapshot nudged(const ParticleSnapshot& p, std::size_t which, std::size_t k) {
  ParticleSnapshot q = p;
  std::size_t position = 0;
  for_each_particle_field([&](const auto& field) {
    using Field = std::remove_cvref_t<decltype(field)>;
    using Scalar = typename Field::Scalar;
    if (position++ != which) return;
    const Scalar x = Field::get(q, k);
    if constexpr (std::is_same_v<Scalar, double>) {
      Field::set(q, k, std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) ^ 1));
    } else {
      Field::set(q, k, static_cast<Scalar>(x ^ Scalar{1}));
    }
  });
  return q;
}

std::size_t width_of(std::size_t which) {
  std::size_t width = 0, position = 0;
  for_each_particle_field([&](const auto& field) {
    if (position++ == which) width = std::remove_cvref_t<decltype(field)>::width;
  });
  return width;
}

TEST(ParticleFields, NamesAreTheCheckpointColumns) {
  std::vector<std::string> names;
  for_each_particle_field([&](const auto& field) { names.emplace_back(field.name); });
  EXPECT_EQ(names, (std::vector<std::string>{"id", "species", "alive", "t0", "u0", "v", "counter", "sector",
                                             "ri_index", "ri_time"}));
  EXPECT_EQ(particle_field_index("counter"), 6u);
  EXPECT_EQ(particle_field_index("no such field"), kParticleFieldCount);
}

TEST(ParticleFields, EveryBitTravelsAsBytes) {
  const ParticleSnapshot p = sample();
  std::vector<char> bytes(kParticleBytes + 1, '\x5a');
  EXPECT_EQ(write_particle_bytes(p, bytes.data()), bytes.data() + kParticleBytes);
  EXPECT_EQ(bytes.back(), '\x5a');  // nothing past the end
  ParticleSnapshot back;
  EXPECT_EQ(read_particle_bytes(bytes.data(), back), bytes.data() + kParticleBytes);
  EXPECT_TRUE(same_particle_state(back, p));
  EXPECT_TRUE(std::signbit(back.u0.x()));
}

TEST(ParticleFields, EqualityCoversEveryScalarOfEveryField) {
  const ParticleSnapshot p = sample();
  EXPECT_TRUE(same_particle_state(p, p));
  for (std::size_t which = 0; which < kParticleFieldCount; ++which) {
    for (std::size_t k = 0; k < width_of(which); ++k) {
      EXPECT_FALSE(same_particle_state(p, nudged(p, which, k))) << "field " << which << " scalar " << k;
    }
  }
  // Bits, not values: -0.0 and 0.0 differ.
  ParticleSnapshot zero = p;
  zero.u0.x() = 0.0;
  EXPECT_FALSE(same_particle_state(p, zero));
}

TEST(ParticleFields, StateHashCoversWhatItSays) {
  const ParticleSnapshot p = sample();
  std::size_t which = 0;
  for_each_particle_field([&](const auto& field) {
    using Field = std::remove_cvref_t<decltype(field)>;
    for (std::size_t k = 0; k < Field::width; ++k) {
      const ParticleSnapshot q = nudged(p, which, k);
      for (bool random_impulses : {false, true}) {
        const bool covered = field.in_state_hash &&
                             (field.presence == FieldPresence::always || random_impulses);
        EXPECT_EQ(particle_state_hash(q, random_impulses) != particle_state_hash(p, random_impulses), covered)
            << field.name << " scalar " << k << (random_impulses ? " with" : " without") << " random impulses";
      }
    }
    ++which;
  });
}

// The hash as Engine::state_hash has always computed it, written out.
TEST(ParticleFields, StateHashIsTheEnginesFormula) {
  const ParticleSnapshot p = sample();
  auto bits = [](double x) { return std::bit_cast<std::uint64_t>(x); };
  auto vector_bits = [&](const Vec3& v) { return physics::mix_hash(bits(v.x()), bits(v.y()), bits(v.z())); };
  const std::uint64_t h =
      physics::mix_hash(p.id, p.alive, bits(p.t0), vector_bits(p.u0), vector_bits(p.v), p.counter);
  EXPECT_EQ(particle_state_hash(p, false), h);
  EXPECT_EQ(particle_state_hash(p, true), physics::mix_hash(h, p.ri_index, bits(p.ri_time)));
}

TEST(ParticleFields, ChainedHashMixesSixThenFiveAtATime) {
  ChainedHash h;
  for (std::uint64_t w = 1; w <= 12; ++w) h.add(w);
  const std::uint64_t first = physics::mix_hash(1, 2, 3, 4, 5, 6);
  const std::uint64_t second = physics::mix_hash(first, 7, 8, 9, 10, 11);
  EXPECT_EQ(h.value(), physics::mix_hash(second, 12));
  ChainedHash two;
  two.add(1);
  two.add(2);
  EXPECT_EQ(two.value(), physics::mix_hash(1, 2));
}

}  // namespace
}  // namespace tethersim::engine
