#pragma once
// The engine's event sources: each kind of event in one place (as DynamO
// splits its events into interactions, locals and globals). A source says
//   - which kinds of event it makes (`kinds`);
//   - how it predicts a particle's next one (`predict`, offering candidates
//     to the running best; particle sources only);
//   - whether an event it predicted still holds when it comes up (`holds`:
//     its partner or its edge has not changed since);
//   - how the event runs (`execute`);
//   - what it can add to the kinetic energy of a tethered or loaded
//     component (`adds_energy`, and then its bound), which is what a
//     certified window's speed bounds are made of.
// Dispatch is static: prediction calls every particle source in turn, and
// execution picks the one source that makes the event's kind (checked at
// compile time below). docs/engine.md, "Adding an event kind", says what a
// new source needs elsewhere (speculative windows, the certifier).

#include <algorithm>
#include <array>
#include <cmath>
#include <type_traits>

#include "tethersim/engine/engine.hpp"
#include "tethersim/model/periodic_impulse_kinds.hpp"

namespace tethersim::engine {

// Random impulses (docs/physics.md, "Random impulses"): each particle of a
// species that has them receives one at its own random times.
struct Engine::RandomImpulseSource {
  static constexpr std::array kinds{EventKind::random_impulse};
  static constexpr bool adds_energy = true;
  static void predict(const Engine& engine, Index i, Candidates& candidates);
  static bool holds(const Engine&, const ParticleEvent&) { return true; }
  static void execute(Engine& engine, Index i, const ParticleEvent& e);
  // An impulse of size |J| on a particle of mass m raises the square root
  // of its component's kinetic energy by at most |J| / sqrt(2 m) (the
  // component is at least as heavy as the particle).
  static double root_energy_kick(double impulse, double mass) { return impulse / std::sqrt(2.0 * mass); }
};

// The box and the sectors: crossing into a neighbouring sector (or wrapping
// round a periodic axis), reflection at a reflective face, and escape
// through an open face or the escape sphere. Reflection and crossing keep
// the energy; an escape removes the particle.
struct Engine::BoundarySource {
  static constexpr std::array kinds{EventKind::sector_crossing, EventKind::wall, EventKind::escape};
  static constexpr bool adds_energy = false;
  static void predict(const Engine& engine, Index i, Candidates& candidates);
  static bool holds(const Engine&, const ParticleEvent&) { return true; }
  static void execute(Engine& engine, Index i, const ParticleEvent& e);
};

// What the two pair sources share. A pair event holds while its partner is
// alive and unchanged since the prediction (its stamp moves whenever its
// trajectory or identity does).
struct Engine::PairSource {
  static bool holds(const Engine& engine, const ParticleEvent& e) {
    return engine.particles_.state[e.partner].alive && engine.particles_.stamp[e.partner] == e.partner_stamp;
  }
  // The periodic image through which i meets j, for partners not found
  // through the sectors around (hubs, tether partners): from the sector
  // coordinates, or for hubs the minimum image, at the later re-basing time.
  static Vec3 image_of(const Engine& engine, Index i, Index j) {
    const ParticleState& si = engine.particles_.state[i];
    const ParticleState& sj = engine.particles_.state[j];
    const double t_ref = std::max(si.t0, sj.t0);
    return engine.image(i, j, sj.position(t_ref) - si.position(t_ref));
  }
  // A collision of the event's kind (engine_collisions.cpp).
  static void execute(Engine& engine, Index i, const ParticleEvent& e);
};

// Blocking collisions: a pair reaching its blocking distance rebounds, at
// once or through a loaded edge that restitutes later (an attach rule may
// tether it first). Partners come from the 27 sectors around and the hubs
// the species can meet. A rebound keeps or loses energy; what a loading
// stores comes back through its restitution.
struct Engine::BlockingSource : PairSource {
  static constexpr std::array kinds{EventKind::blocking};
  static constexpr bool adds_energy = false;
  static void predict(const Engine& engine, Index i, Candidates& candidates);
  // After a crossing (Engine::CrossedSector): the 9 sectors that came into
  // reach, the runner-up's partner, the hubs.
  static void predict_ahead(const Engine& engine, Index i, const CrossedSector& crossed, Candidates& candidates);

 private:
  // The particles of `count` sectors (linear indices, with their images'
  // shifts) as candidates.
  static void offer_sectors(const Engine& engine, Index i, const std::array<std::uint32_t, 27>& sectors,
                            const std::array<Vec3, 27>& shifts, int count, Candidates& candidates);
  static void offer_hubs(const Engine& engine, Index i, Candidates& candidates);

  friend class Engine;  // predictions that skip the walk offer the hubs
};

// Tethering collisions: a tethered pair reaching its tether length
// retracts or revolves, at once or through a loaded edge (or parts, when a
// detach rule says so).
struct Engine::TetherSource : PairSource {
  static constexpr std::array kinds{EventKind::tethering};
  static constexpr bool adds_energy = false;
  static void predict(const Engine& engine, Index i, Candidates& candidates);
};

// Restitution of a loaded edge (global calendar): the impulse its loading
// stored comes back to the two branches.
struct Engine::RestitutionSource {
  static constexpr std::array kinds{EventKind::restitution};
  static constexpr bool adds_energy = true;
  // Rescheduled or removed edges leave stale entries behind.
  static bool holds(const Engine& engine, const GlobalEvent& g) {
    const LoadedEdge& edge = engine.loaded_[g.payload];
    return edge.alive && edge.version == g.version;
  }
  static void execute(Engine& engine, const GlobalEvent& g);
  // The energy a pending restitution of stored impulse p can return to the
  // branches of inverse masses inv_a and inv_b (particle masses bound the
  // branch masses from below): |p|^2 (1/m_a + 1/m_b) / 2.
  static double energy_bound(const Vec3& impulse, double inv_mass_a, double inv_mass_b) {
    return 0.5 * impulse.squaredNorm() * (inv_mass_a + inv_mass_b);
  }
};

// Ticks of the periodic impulses (gravity, drag; global calendar). What
// each kind does and bounds is in periodic_impulse_kinds.hpp.
struct Engine::PeriodicImpulseSource {
  static constexpr std::array kinds{EventKind::periodic_impulse};
  static constexpr bool adds_energy = true;
  static bool holds(const Engine&, const GlobalEvent&) { return true; }
  static void execute(Engine& engine, const GlobalEvent& g);
  // `ticks` ticks of impulse p on a component of mass `mass` add to its
  // energy E (`energy`) or to sqrt(E) (`root`).
  static void add_tick_bound(const PeriodicImpulse& p, double mass, double ticks, double& energy,
                             double& root) {
    visit_periodic_kind(p.kind, [&](auto k) { decltype(k)::add_tick_bound(p, mass, ticks, energy, root); });
  }
};

// Start and end of action potentials (global calendar): they change the
// reaction times that gate tethering rules, not velocities.
struct Engine::ActionPotentialSource {
  static constexpr std::array kinds{EventKind::action_potential};
  static constexpr bool adds_energy = false;
  static bool holds(const Engine&, const GlobalEvent&) { return true; }
  static void execute(Engine& engine, const GlobalEvent& g);
};

// The sources, in the order prediction asks them (the order does not
// change a result: equal times are settled by the total event order).
template <class... Sources>
struct SourceList {};
using ParticleSources = SourceList<Engine::RandomImpulseSource, Engine::BoundarySource, Engine::BlockingSource,
                                   Engine::TetherSource>;
using GlobalSources =
    SourceList<Engine::RestitutionSource, Engine::PeriodicImpulseSource, Engine::ActionPotentialSource>;

template <class Source>
constexpr bool makes(EventKind kind) {
  for (EventKind k : Source::kinds) {
    if (k == kind) return true;
  }
  return false;
}

// Calls f(Source{}) for every source of the list, in order.
template <class... Sources, class F>
void for_each_source(SourceList<Sources...>, F&& f) {
  (f(Sources{}), ...);
}

// Calls f(Source{}) for the source that makes `kind`; false when none does.
template <class... Sources, class F>
bool visit_source(SourceList<Sources...>, EventKind kind, F&& f) {
  return ((makes<Sources>(kind) && (f(Sources{}), true)) || ...);
}

// Whether an event from a calendar still holds when it comes up (a kind
// no source makes: true).
template <class... Sources, class Event>
bool event_holds(SourceList<Sources...> sources, const Engine& engine, const Event& e) {
  bool holds = true;
  visit_source(sources, e.kind, [&](auto source) { holds = decltype(source)::holds(engine, e); });
  return holds;
}

// Every kind comes from exactly one source.
template <class... Sources>
constexpr int sources_making(SourceList<Sources...>, EventKind kind) {
  return (int{makes<Sources>(kind)} + ...);
}
static_assert(
    [] {
      for (const EventKindInfo& info : kEventKinds) {
        if (sources_making(ParticleSources{}, info.kind) + sources_making(GlobalSources{}, info.kind) != 1) return false;
      }
      return true;
    }(),
    "every event kind has exactly one source");

// The sources that can add energy to a component, as a list of kinds: the
// certifier's speed bounds must account for each of them.
template <class... Sources>
constexpr int energy_adding_kinds(SourceList<Sources...>) {
  int bits = 0;
  (
      [&] {
        if constexpr (Sources::adds_energy) {
          for (EventKind k : Sources::kinds) bits |= 1 << static_cast<int>(k);
        }
      }(),
      ...);
  return bits;
}

}  // namespace tethersim::engine
