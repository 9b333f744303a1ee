// The checkpoint's content hash of particles, made four particles side by
// side, against the hash of one particle at a time (the format's definition).

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "../../io/checkpoint_particles.hpp"
#include "awkward_particle.hpp"

namespace tethersim {
namespace {

std::vector<engine::ParticleSnapshot> varied_particles(std::size_t n) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> x(-5.0, 5.0);
  std::vector<engine::ParticleSnapshot> particles;
  for (std::size_t k = 0; k < n; ++k) {
    engine::ParticleSnapshot p = testing::awkward_particle(1000 + 3 * k, static_cast<SpeciesIndex>(k % 3));
    p.u0 = Vec3(x(rng), x(rng), x(rng));
    p.v = Vec3(x(rng), x(rng), x(rng));
    p.t0 = x(rng);
    p.counter = static_cast<std::uint32_t>(rng());
    p.alive = k % 5 != 0;
    particles.push_back(p);
  }
  return particles;
}

TEST(ParticleHashSum, IsTheSumOfEachParticlesHashAtEveryLength) {
  const std::vector<engine::ParticleSnapshot> all = varied_particles(23);
  for (std::size_t n = 0; n <= all.size(); ++n) {
    const std::span<const engine::ParticleSnapshot> particles(all.data(), n);
    std::vector<std::uint64_t> slots;
    std::uint64_t expected = 0;
    for (std::size_t k = 0; k < n; ++k) {
      slots.push_back(17 + 2 * k);
      expected += io_detail::particle_hash(slots.back(), particles[k]);
    }
    EXPECT_EQ(io_detail::particle_hash_sum(particles, slots), expected) << n << " particles";
    EXPECT_EQ(io_detail::particle_hash_sum(particles, slots, false), expected) << n << " particles, plain";
  }
}

TEST(ParticleHashSum, EveryLaneSeesItsOwnSlotAndParticle) {
  // Swapping two particles' slots, or changing one bit of the third
  // particle of four, changes the sum.
  std::vector<engine::ParticleSnapshot> particles = varied_particles(8);
  std::vector<std::uint64_t> slots{0, 1, 2, 3, 4, 5, 6, 7};
  const std::uint64_t sum = io_detail::particle_hash_sum(particles, slots);
  std::swap(slots[1], slots[2]);
  EXPECT_NE(io_detail::particle_hash_sum(particles, slots), sum);
  std::swap(slots[1], slots[2]);
  particles[2].v.x() = std::nextafter(particles[2].v.x(), 10.0);
  EXPECT_NE(io_detail::particle_hash_sum(particles, slots), sum);
}

}  // namespace
}  // namespace tethersim
