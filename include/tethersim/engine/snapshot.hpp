#pragma once
// The complete dynamic state of an engine at a stop time, as plain data in
// particle-id order: what a checkpoint stores and what a restart (on any
// number of processes) rebuilds an engine from.
//
// Everything that decides the future is here, bit for bit; nothing that is
// derived from it (the calendar, sector lists, storage order) is.

#include <array>
#include <cstdint>
#include <vector>

#include "tethersim/engine/statistics.hpp"
#include "tethersim/model/initial_state.hpp"
#include "tethersim/physics/vector.hpp"

namespace tethersim::engine {

// One particle. The members are listed again, with what each takes part in
// (bytes, checkpoint columns, hashes, equality), in particle_fields.hpp: a
// member added here needs its line there.
struct ParticleSnapshot {
  ParticleId id = 0;
  SpeciesIndex species = 0;
  std::uint8_t alive = 1;  // 0 once it has left the system
  // The trajectory: position u0 + v (t - t0).
  double t0 = 0.0;
  Vec3 u0 = Vec3::Zero();
  Vec3 v = Vec3::Zero();
  std::uint32_t counter = 0;  // changes of trajectory so far: part of event tie keys
  // The sector the engine holds the particle in. Not always derivable from
  // the position: a particle can sit a rounding error past its sector face.
  std::array<std::int32_t, 3> sector{0, 0, 0};
  std::uint64_t ri_index = 0;    // number of the next random impulse
  double ri_time = kInfinity;    // its time

  Vec3 position(double t) const { return u0 + v * (t - t0); }
};

struct TetherSnapshot {
  ParticleId a = 0;  // a < b
  ParticleId b = 0;
};

struct LoadedEdgeSnapshot {
  ParticleId a = 0;  // a < b
  ParticleId b = 0;
  Vec3 impulse = Vec3::Zero();  // p_AB, gained by a
  double time = 0.0;            // scheduled restitution
  std::uint64_t sequence = 0;
};

// A particle removed at an open face or the escape sphere (the engine keeps
// its escapes as these too).
struct EscapeSnapshot {
  ParticleId id = 0;
  SpeciesIndex species = 0;
  double time = 0.0;
  Vec3 position = Vec3::Zero();
  Vec3 velocity = Vec3::Zero();
};

// A reaction-gated detachment that released its subject (exocytosis).
struct ReleaseSnapshot {
  ParticleId id = 0;
  double time = 0.0;
};

// One particle with everything attached to it: what ranks send each other
// (halos, migration, rebalancing) and what a partial engine is built from.
struct ParticleRecord {
  ParticleSnapshot particle;
  std::vector<double> reaction_times;            // Phi per reaction (empty: none)
  std::vector<ParticleId> tethers;               // partner ids, ascending
  std::vector<LoadedEdgeSnapshot> loaded_edges;  // incident edges, by partner id
};

struct EngineSnapshot {
  double time = 0.0;  // every event before it processed, none at or after it
  std::vector<ParticleSnapshot> particles;      // sorted by id (dead ones included)
  std::vector<TetherSnapshot> tethers;          // sorted
  std::vector<LoadedEdgeSnapshot> loaded_edges;  // sorted by (a, b)
  std::vector<std::uint64_t> periodic_ticks;    // next tick of each periodic impulse
  int active_window = -1;                       // action potential in progress
  // Phi[reaction][k] for particles[k] (kInfinity when not a subject).
  std::vector<std::vector<double>> reaction_times;
  std::vector<EscapeSnapshot> escapes;          // in the order they happened
  std::vector<ReleaseSnapshot> releases;
  EngineStatistics statistics;
};

}  // namespace tethersim::engine
