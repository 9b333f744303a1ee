// The particle state's external forms, pinned: the record codec's bytes and
// the engine's state hash for fixed particle values. Ranks of different
// builds exchange records and compare hashes with summaries written by
// earlier versions, so these values may change only with a deliberate
// format change (and these constants with it).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "awkward_particle.hpp"
#include "engine_test_support.hpp"
#include "tethersim/decomposition/record_codec.hpp"

namespace tethersim::testing {
namespace {

std::uint64_t fnv1a(const char* data, std::size_t size) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::size_t k = 0; k < size; ++k) h = (h ^ static_cast<unsigned char>(data[k])) * 0x100000001b3ULL;
  return h;
}

TEST(ParticleFormat, RecordCodecBytes) {
  engine::ParticleRecord r;
  r.particle = awkward_particle(10, 2);
  r.reaction_times = {0.5, std::numeric_limits<double>::infinity()};
  r.tethers = {11, 17};
  r.loaded_edges.push_back({10, 11, Vec3(0.1, -0.2, 0.3), 2.5, 99});
  decomposition::Bytes bytes;
  decomposition::append_record(bytes, r);
  // 109 fixed bytes, two reaction times, two tethers, one 56-byte edge.
  EXPECT_EQ(bytes.size(), 109u + 16u + 16u + 56u);
  EXPECT_EQ(fnv1a(bytes.data(), bytes.size()), 0x9515d4f057bf8738ULL);
}

// Two free particles in a periodic box, rebuilt from a snapshot whose
// particle fields are set by hand, so that the hash depends on nothing the
// engine computes.
std::uint64_t pinned_state_hash(bool random_impulses) {
  const std::string text =
      std::string("[run]\nend_time = 10.0\nseed = 7\n[domain]\nlo = [0.0, 0.0, 0.0]\n"
                  "hi = [8.0, 8.0, 8.0]\nboundary = \"periodic\"\n"
                  "[[species]]\nname = \"A\"\nmass = 1.0\nradius = 0.5\n") +
      (random_impulses ? "random_impulse = { tau = 0.5, shape = 4.0, mean = 0.5 }\n" : "") +
      "[[pair]]\nspecies = [\"A\", \"A\"]\nblocking = 1.0\nc = 1.0\n[initial]\n" +
      particle(1, "A", Vec3(1.0, 1.0, 1.0)) + particle(2, "A", Vec3(5.0, 5.0, 5.0));
  Simulation sim(text);
  engine::EngineSnapshot s = sim->snapshot(0.0);
  for (engine::ParticleSnapshot& p : s.particles) {
    const engine::ParticleSnapshot a = awkward_particle(p.id, 2);
    p.t0 = a.t0;
    p.u0 = p.u0 + Vec3(0.0, std::nextafter(0.0, 1.0), 0.25);
    p.v = a.v;
    p.counter = a.counter + static_cast<std::uint32_t>(p.id);
    p.ri_index = a.ri_index + p.id;
    p.ri_time = 2.0 + static_cast<double>(p.id);
  }
  const engine::Engine rebuilt(sim.model, s);
  return rebuilt.state_hash();
}

TEST(ParticleFormat, EngineStateHash) {
  EXPECT_EQ(pinned_state_hash(false), 0x1b2cfeda67a261a8ULL);
  EXPECT_EQ(pinned_state_hash(true), 0x45a13cd690ec4a60ULL);
}

}  // namespace
}  // namespace tethersim::testing
