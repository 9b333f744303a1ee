#pragma once
// Two engine snapshots equal bit for bit (what an undo must give back).

#include <gtest/gtest.h>

#include <cstring>

#include "tethersim/engine/snapshot.hpp"

namespace tethersim::testing {

template <typename T>
inline bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Every field of a particle, bit for bit.
inline bool same_particle(const engine::ParticleSnapshot& x, const engine::ParticleSnapshot& y) {
  return x.id == y.id && x.species == y.species && x.alive == y.alive && same_bits(x.t0, y.t0) &&
         std::memcmp(x.u0.data(), y.u0.data(), 24) == 0 && std::memcmp(x.v.data(), y.v.data(), 24) == 0 &&
         x.counter == y.counter && x.sector == y.sector && x.ri_index == y.ri_index && same_bits(x.ri_time, y.ri_time);
}

inline bool same_loaded_edge(const engine::LoadedEdgeSnapshot& x, const engine::LoadedEdgeSnapshot& y) {
  return x.a == y.a && x.b == y.b && std::memcmp(x.impulse.data(), y.impulse.data(), 24) == 0 &&
         same_bits(x.time, y.time) && x.sequence == y.sequence;
}

inline void expect_same_snapshot(const engine::EngineSnapshot& a, const engine::EngineSnapshot& b) {
  ASSERT_EQ(a.particles.size(), b.particles.size());
  for (std::size_t k = 0; k < a.particles.size(); ++k) {
    EXPECT_TRUE(same_particle(a.particles[k], b.particles[k])) << "particle " << a.particles[k].id;
  }
  ASSERT_EQ(a.tethers.size(), b.tethers.size());
  for (std::size_t k = 0; k < a.tethers.size(); ++k) {
    EXPECT_TRUE(a.tethers[k].a == b.tethers[k].a && a.tethers[k].b == b.tethers[k].b);
  }
  ASSERT_EQ(a.loaded_edges.size(), b.loaded_edges.size());
  for (std::size_t k = 0; k < a.loaded_edges.size(); ++k) {
    EXPECT_TRUE(same_loaded_edge(a.loaded_edges[k], b.loaded_edges[k]));
  }
  EXPECT_EQ(a.periodic_ticks, b.periodic_ticks);
  EXPECT_EQ(a.active_window, b.active_window);
  ASSERT_EQ(a.reaction_times.size(), b.reaction_times.size());
  for (std::size_t r = 0; r < a.reaction_times.size(); ++r) {
    ASSERT_EQ(a.reaction_times[r].size(), b.reaction_times[r].size());
    EXPECT_EQ(0, std::memcmp(a.reaction_times[r].data(), b.reaction_times[r].data(),
                             a.reaction_times[r].size() * sizeof(double)));
  }
  EXPECT_EQ(a.escapes.size(), b.escapes.size());
  EXPECT_EQ(a.releases.size(), b.releases.size());
  EXPECT_EQ(a.statistics.total_events(), b.statistics.total_events());
  EXPECT_EQ(a.statistics.loadings, b.statistics.loadings);
  EXPECT_EQ(a.statistics.attachments, b.statistics.attachments);
  EXPECT_EQ(a.statistics.escapes, b.statistics.escapes);
}

}  // namespace tethersim::testing
