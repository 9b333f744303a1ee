// The pair sources: blocking collisions (partners from the 27 sectors
// around and the hubs) and tethering collisions (the tether network).
#include <algorithm>
#include <array>

#include "event_candidates.hpp"
#include "pair_time.hpp"
#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/event_sources.hpp"

namespace tethersim::engine {

namespace {

// The shifts of sectors seen through no periodic image.
const std::array<Vec3, 27> kNoShifts = [] {
  std::array<Vec3, 27> zero;
  zero.fill(Vec3::Zero());
  return zero;
}();

// A lower bound on when the pair (seen as r, with blocking distance
// `blocking`) can block within reach (tick_clearance.hpp): a partner the
// tick does not move by g dt (a species it leaves alone, or a frozen
// particle of a partial view) changes the pair's relative motion at every
// tick, so it clears nothing.
inline double pair_clearance(const TickClearance& clearance, SpeciesIndex partner, bool partner_active,
                             double blocking, const PairRelative& r) {
  if (!(blocking > 0.0)) return kInfinity;
  if (!clearance.shifted(partner) || !partner_active) return r.t_ref;
  return r.t_ref + physics::time_until_within(r.dx, r.dv, clearance.reach(blocking));
}

}  // namespace

void Engine::PairSource::execute(Engine& engine, Index i, const ParticleEvent& e) {
  engine.collide(i, e.partner, e.kind, e.time);
}

void Engine::BlockingSource::predict(const Engine& engine, Index i, Candidates& candidates) {
  std::array<std::uint32_t, 27> sectors;
  const SectorCoords c = engine.sector(i);
  if (engine.grid_.interior(c)) {
    engine.grid_.interior_neighbourhood(c, sectors);
    offer_sectors(engine, i, sectors, kNoShifts, 27, candidates);
  } else {
    std::array<Vec3, 27> shifts;
    const int count = engine.grid_.neighbourhood(c, sectors, shifts);
    offer_sectors(engine, i, sectors, shifts, count, candidates);
  }
  offer_hubs(engine, i, candidates);
}

void Engine::BlockingSource::predict_ahead(const Engine& engine, Index i, const CrossedSector& crossed,
                                           Candidates& candidates) {
  // The new sector and the old one are away from every face (cross_sector):
  // the 9 sectors one layer ahead exist, and nothing is seen through a
  // periodic image.
  const SectorCoords c = engine.sector(i);
  const int a = crossed.axis, b = (a + 1) % 3, d = (a + 2) % 3;
  SectorCoords n = c;
  n[a] = c[a] + (crossed.upward ? 1 : -1);
  std::array<std::uint32_t, 27> sectors;
  int count = 0;
  for (int db = -1; db <= 1; ++db) {
    for (int dd = -1; dd <= 1; ++dd) {
      n[b] = c[b] + db;
      n[d] = c[d] + dd;
      sectors[static_cast<std::size_t>(count++)] = engine.grid_.linear(n);
    }
  }
  offer_sectors(engine, i, sectors, kNoShifts, count, candidates);
  if (crossed.partner != kNoIndex) {
    const ParticleStore& particles = engine.particles_;
    const double blocking =
        engine.model_.pairs()(particles.state[i].species, particles.state[crossed.partner].species).blocking;
    candidates.pair(crossed.partner, Vec3::Zero(), blocking, EventKind::blocking);
  }
  offer_hubs(engine, i, candidates);
}

void Engine::BlockingSource::offer_sectors(const Engine& engine, Index i, const std::array<std::uint32_t, 27>& sectors,
                                           const std::array<Vec3, 27>& shifts, int sector_count,
                                           Candidates& candidates) {
  const ParticleStore& particles = engine.particles_;
  const SectorGrid& grid = engine.grid_;
  const ParticleState& s = particles.state[i];
  const PairTable& pairs = engine.model_.pairs();
  // Candidates from the sectors, gathered in waves with prefetches: walking
  // the lists directly chains one memory miss after the other behind
  // unpredictable branches, while waves let them overlap.
  for (int k = 0; k < sector_count; ++k) grid.prefetch(sectors[k]);
  struct Found {
    Index particle;
    int sector;  // slot in sectors/shifts
  };
  std::array<Found, 27> heads;
  int head_count = 0;
  if (grid.heads_in_cache()) {
    // Without a branch: about half the sectors around are empty, in no
    // pattern a predictor can learn, and a mispredicted branch per head
    // cost a sixth of the gas of 10^4's run. An empty sector's slot is
    // written and not counted; its prefetch is the owner's record, already
    // in cache. Not for heads out of cache: there each slot's address
    // waits for the load before it, and the predicted branches that let
    // the loads run ahead were faster (10-20% at 10^6 particles).
    for (int k = 0; k < sector_count; ++k) {
      const Index j = grid.first(sectors[k]);
      const Index occupied = j != kNoIndex ? 1 : 0;
      const Index mask = Index{0} - occupied;  // all ones when occupied
      __builtin_prefetch(&particles.state[(j & mask) | (i & ~mask)]);
      heads[static_cast<std::size_t>(head_count)] = {j, k};
      head_count += static_cast<int>(occupied);
    }
  } else {
    for (int k = 0; k < sector_count; ++k) {
      const Index j = grid.first(sectors[k]);
      if (j == kNoIndex) continue;
      __builtin_prefetch(&particles.state[j]);
      heads[static_cast<std::size_t>(head_count++)] = {j, k};
    }
  }
  std::array<Found, 64> found;
  std::size_t found_count = 0;
  std::array<std::uint8_t, 64> approaching;
  // The clearance of the pairs met (tick_clearance.hpp): pairs a partner
  // predicted earlier tested too are counted all the same (from both
  // records as they are now, they only make the bound safer).
  const TickClearance& tick_clearance = engine.tick_clearance_;
  const bool clearing = candidates.wants_clearance();
  double clearance = kInfinity;
  // Inlined at both calls: as a function of its own it cost the gas of
  // 10^4 a few per cent.
  auto test_found = [&]() __attribute__((always_inline)) {
    // Most pairs recede, in no pattern a branch predictor can learn: the
    // detection's first test (dx.dv >= 0: never) cost a mispredicted
    // branch every other candidate. So the test is made for the whole
    // batch first, without a branch, and only the approaching pairs go on
    // to the detection, which makes the same test again and passes it
    // (both from pair_relative: the same bits). The particle itself and
    // equal velocities give dv = 0, dx.dv = 0, and drop out with the
    // receding: members of one loaded group, and a sheet's particles
    // falling together. Pairs shared with particles predicted together
    // (pair_offers.hpp) go the same way: a receding pair's time is never,
    // which neither wins nor is offered to the partner.
    std::size_t kept = 0;
    // Two loops rather than a test of `clearing` per candidate: a walk that
    // notes no clearance (the gas's, every one) runs the loop it ran before.
    if (clearing) {
      for (std::size_t c = 0; c < found_count; ++c) {
        const ParticleState& sj = particles.state[found[c].particle];
        const PairRelative r = pair_relative(s, sj, shifts[found[c].sector]);
        approaching[kept] = static_cast<std::uint8_t>(c);
        kept += r.dx.dot(r.dv) < 0.0 ? 1 : 0;
        if (found[c].particle != i) {
          clearance = std::min(clearance, pair_clearance(tick_clearance, sj.species, engine.is_active(found[c].particle),
                                                         pairs(s.species, sj.species).blocking, r));
        }
      }
    } else {
      for (std::size_t c = 0; c < found_count; ++c) {
        const PairRelative r = pair_relative(s, particles.state[found[c].particle], shifts[found[c].sector]);
        approaching[kept] = static_cast<std::uint8_t>(c);
        kept += r.dx.dot(r.dv) < 0.0 ? 1 : 0;
      }
    }
    engine.stats_.pair_tests += found_count - kept;
    for (std::size_t k = 0; k < kept; ++k) {
      const Found& f = found[approaching[k]];
      const double blocking = pairs(s.species, particles.state[f.particle].species).blocking;
      if (blocking > 0.0) candidates.pair(f.particle, shifts[f.sector], blocking, EventKind::blocking);
    }
    found_count = 0;
  };
  for (int h = 0; h < head_count; ++h) {
    for (Index j = heads[h].particle; j != kNoIndex; j = particles.state[j].next_in_sector) {
      if (found_count == found.size()) test_found();
      found[found_count++] = {j, heads[h].sector};
      const Index next = particles.state[j].next_in_sector;
      if (next != kNoIndex) __builtin_prefetch(&particles.state[next]);
    }
  }
  test_found();
  if (clearing) candidates.clear_until(clearance);
}

void Engine::BlockingSource::offer_hubs(const Engine& engine, Index i, Candidates& candidates) {
  // Hubs are not in the sectors.
  const ParticleStore& particles = engine.particles_;
  const PairTable& pairs = engine.model_.pairs();
  const SpeciesIndex species = particles.state[i].species;
  for (Index h : engine.hubs_for_[species]) {
    candidates.pair(h, image_of(engine, i, h), pairs(species, particles.state[h].species).blocking,
                    EventKind::blocking);
  }
}

// docs/physics.md, "Event detection".
void Engine::TetherSource::predict(const Engine& engine, Index i, Candidates& candidates) {
  const PairTable& pairs = engine.model_.pairs();
  const ParticleState& s = engine.particles_.state[i];
  engine.tethers_.for_each(i, [&](Index j, std::uint32_t) {
    const ParticleState& sj = engine.particles_.state[j];
    // Equal velocities cannot meet (as in the blocking source). A partner
    // that is not alive is absent (held by another process, which runs
    // their events).
    if (sj.v == s.v || !sj.alive) return;
    const double tethering = pairs(s.species, sj.species).tethering;
    if (tethering < kInfinity) candidates.pair(j, image_of(engine, i, j), tethering, EventKind::tethering);
  });
}

}  // namespace tethersim::engine
