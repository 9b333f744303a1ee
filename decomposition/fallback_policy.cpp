// Lean-fallback decisions (fallback_policy.hpp).
#include "tethersim/decomposition/fallback_policy.hpp"

#include <algorithm>

namespace tethersim::decomposition {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Before any fallback ran: try one when the estimated cost of one rank
// running the events is within this factor of the windows' cost, and its
// estimated rebuilding under this share of the windows' cost over the
// longest fallback.
constexpr double kTryFallbackRatio = 2.0;
constexpr double kTryFallbackShare = 0.1;
// An optional fallback makes rank 0 hold the whole system: the gathered
// records, a snapshot and a serial engine, about three times the engine
// alone. It is taken only for systems whose serial engine would need at
// most this much (a gas of about 200 000 particles): the small, tightly
// bound systems it is meant for need far less, and a large system on many
// ranks must not meet one rank's memory limit because windows were slow
// for a while (a gas of 256 000 on 2 ranks: rank 0 went from 90 to 220 MiB
// for a fallback that gained nothing).
constexpr double kLeanFallbackMostEngineBytes = 32.0 * 1024 * 1024;

}  // namespace

bool FallbackPolicy::next_in_streak(double time) {
  // While fallbacks pay (measured), the next few run at once, without
  // windows between them to weigh again; then windows are weighed anew.
  if (time >= fallbacks_from_) {
    streak_ = 0;
    fallbacks_from_ = kInfinity;
  }
  if (streak_ >= 0 && streak_ < kFallbacksPerWeighing) {
    ++streak_;
    return true;
  }
  streak_ = -1;
  return false;
}

bool FallbackPolicy::weigh(double round_started, double time, std::uint64_t global_events) {
  if (after_window_) {
    // Every window is weighed, not only those with few events per
    // particle: a small tight system runs many events per particle in each
    // window and still pays more for certifying and exchanging than one
    // rank would for the events (a 4-layer halo made the 232-particle
    // terminal certify three times as many windows, and take twice as long).
    ++weighed_.count;
    // The previous window's cost: its round, from start to this one's.
    weighed_.wall += round_started - previous_round_.wall;
    weighed_.span += time - previous_round_.time;
    weighed_.events += static_cast<double>(global_events - events_before_window_);
  }
  events_before_window_ = global_events;
  previous_round_ = {round_started, time};
  after_window_ = true;
  return mode_ != LeanFallback::off && weighed_.count >= windows_per_decision_;
}

bool FallbackPolicy::decide_by_coin(std::uint64_t coin) {
  // The coin also starts runs of fallbacks without windows between them,
  // as measured costs do when fallbacks pay.
  const bool pays = coin % 2 == 0;
  chosen_budget_ = next_budget();
  if (pays && coin % 4 == 0) streak_ = 0;
  return pays;
}

double FallbackPolicy::next_budget() const {
  return budget_ > 0.0 ? std::min(2.0 * budget_, kLargestFallbackBudget) : kFirstFallbackBudget;
}

double FallbackPolicy::begin_fallback(double events_per_particle) {
  budget_ = events_per_particle > 0.0 ? events_per_particle : next_budget();
  return budget_;
}

FallbackCosts FallbackPolicy::local_costs(int ranks, double start_build_seconds, double execute_seconds,
                                          std::uint64_t events_executed, double bytes_per_particle) const {
  // Before a fallback ran, its rebuilding is estimated as one start-up
  // build per rank (measured: 18 s against 2 x 11 s for 10^6 on 2 ranks).
  const bool known = measured();
  return {weighed_.wall, known ? overhead_ : ranks * start_build_seconds,
          known ? seconds_per_event_
                : execute_seconds / static_cast<double>(std::max<std::uint64_t>(events_executed, 1)),
          bytes_per_particle};
}

FallbackDecision FallbackPolicy::decide(const FallbackCosts& agreed, double owned, double time, double cap) {
  FallbackDecision d;
  if (owned * agreed.bytes_per_particle > kLeanFallbackMostEngineBytes) {
    d.declined = true;
    return d;
  }
  const double span = weighed_.span;
  if (!(span > 0.0) || !(weighed_.events > 0.0)) {
    chosen_budget_ = next_budget();
    d.pays = true;
    return d;
  }
  // Costs per unit of simulated time: the windows' wall time, and one rank
  // running every (unique) event; a fallback also pays its rebuilding once.
  // It covers up to `cap` (the next scheduled stop) or its event budget at
  // the windows' event rate.
  d.weighed = true;
  d.measured = measured();
  const double rate = weighed_.events / span;
  d.windows_cost = agreed.windows_wall / span;
  d.serial_cost = rate * agreed.seconds_per_event;
  const double room = cap - time;
  const double first = std::min(room, next_budget() * owned / rate);
  const double longest = std::min(room, kLargestFallbackBudget * owned / rate);
  d.covered = first;
  d.pays = agreed.overhead + d.covered * d.serial_cost < d.covered * d.windows_cost;
  if (d.measured) {
    // A fallback pays from the span at which the windows' extra cost has
    // bought its rebuilding; it covers four times that span (the
    // rebuilding then costs at most a quarter of what it saves), within
    // the budgets and the room.
    const double gain = d.windows_cost - d.serial_cost;
    d.pays = gain > 0.0 && agreed.overhead < longest * gain;
    if (d.pays) d.covered = std::clamp(4.0 * agreed.overhead / gain, first, longest);
  } else if (!d.pays && !tried_ && d.serial_cost < kTryFallbackRatio * d.windows_cost &&
             agreed.overhead < kTryFallbackShare * longest * d.windows_cost) {
    // The estimate carries the windows' own bookkeeping and ranks sharing
    // cores, which one rank running alone does not: when it is within a
    // factor of the windows and the rebuilding is cheap against what
    // windows would cost over the longest fallback, one short fallback
    // measures the real costs (a small tight system on 2 ranks took 2.7
    // times one rank's time while its estimate always chose windows).
    d.pays = true;
    tried_ = true;
  }
  if (!d.pays) return decline(d, cap);
  chosen_budget_ = std::clamp(d.covered * rate / owned, kFirstFallbackBudget, kLargestFallbackBudget);
  // While fallbacks pay, the windows between them are few: one weighed
  // window keeps the windows' cost current.
  windows_per_decision_ = d.measured ? 1 : kWindowsPerDecision;
  if (d.measured) streak_ = 0;
  return d;
}

FallbackDecision FallbackPolicy::decline(FallbackDecision d, double cap) {
  d.declined = true;
  // One rank is cheaper per unit of time but the next scheduled stop is too
  // near to buy the rebuilding: keep the budgets, and after the stop start
  // with fallbacks.
  if (d.measured && d.windows_cost > d.serial_cost) {
    fallbacks_from_ = cap;
    return d;
  }
  fallbacks_from_ = kInfinity;
  // Windows are cheaper here: the next fallback (forced by a cluster no
  // halo holds) starts again from the first budget.
  budget_ = 0.0;
  windows_per_decision_ = kWindowsPerDecision;
  return d;
}

}  // namespace tethersim::decomposition
