#pragma once
// What one rank of a distributed run did, and the table of what is reported
// of it: summary.json ("distribution", "per_rank") and the end-of-run table
// give each row of kDistributionCounterRows as min, mean, max and total over
// ranks, in this order. A new counter is its member here and one row.

#include <array>
#include <cstdint>
#include <string_view>

#include "tethersim/physics/vector.hpp"

namespace tethersim::decomposition {

// What one rank did (summary.json and the end-of-run table report min, mean
// and max over ranks).
struct DistributionCounters {
  std::uint64_t windows = 0;
  std::uint64_t certifications = 0;   // attempts, retries included
  std::uint64_t retries = 0;
  std::uint64_t failures_reach = 0;   // why attempts failed (on this rank)
  std::uint64_t failures_depth = 0;
  std::uint64_t failures_energy = 0;
  std::uint64_t bound_exchanges = 0;  // extra rounds of phase 2 (bounds that rose, sent again)
  std::uint64_t fallbacks = 0;
  std::uint64_t fallbacks_declined = 0;  // windows kept: a fallback would cost more time or memory
  std::uint64_t rebalances = 0;
  // Speculative windows this rank ended early because its undo log and
  // history reached the window memory, and the most they held.
  std::uint64_t memory_cuts = 0;
  // Speculative windows whose journal this rank dropped (undone only whole).
  std::uint64_t journals_dropped = 0;
  std::uint64_t window_peak_bytes = 0;
  // Periodic ticks run between speculative windows (no undo log).
  std::uint64_t ticks_between_windows = 0;
  double delta_sum = 0.0;
  double delta_min = kInfinity;
  double delta_max = 0.0;
  std::uint64_t events_executed = 0;   // here, counted here or elsewhere
  std::uint64_t events_duplicated = 0; // executed here, counted by another rank
  std::uint64_t components = 0;        // summed over windows
  std::uint64_t cross_components = 0;
  std::uint64_t largest_component = 0;
  std::uint64_t active_ghosts = 0;     // summed over windows
  std::uint64_t examined_owned = 0;    // particles certificates examined, summed over certifications
  std::uint64_t examined_ghosts = 0;
  std::uint64_t owned = 0;             // now
  std::uint64_t ghosts = 0;            // now
  std::uint64_t ghosts_max = 0;
  std::uint64_t migrations = 0;        // particles that moved to another rank's block
  std::uint64_t bytes_sent = 0;
  double bound_over_speed = 0.0;       // largest certified bound / largest speed
  double seconds_certify = 0.0;
  double seconds_execute = 0.0;
  double seconds_exchange = 0.0;
  double seconds_wait = 0.0;           // in collective agreement (load imbalance shows here)
  double seconds_rebuild = 0.0;        // fallbacks and rebalancing
  // Speculative windows.
  std::uint64_t speculative_windows = 0;  // attempts
  std::uint64_t commits = 0;
  std::uint64_t rollbacks = 0;
  std::uint64_t partial_commits = 0;      // cut short: kept up to the earliest violation
  // Why attempts were undone (on this rank; an attempt fails on every rank
  // when it fails on one): a particle whose runs parted came near this
  // rank's particles (in this rank's run, or in its owner's), or took part
  // with one of them in a group or rule event after parting; forced by a
  // testing switch.
  std::uint64_t rollbacks_near = 0;
  std::uint64_t rollbacks_contact = 0;
  std::uint64_t rollbacks_forced = 0;
  std::uint64_t events_rolled_back = 0;   // executed here and undone (at or after a violation, or whole windows)
  std::uint64_t parted_particles = 0;     // particles whose runs parted, summed over windows
  std::uint64_t history_steps_sent = 0;
  std::uint64_t messages_sent = 0;        // to neighbours, every exchange
  std::uint64_t certified_rounds = 0;     // rounds made safe by certificates
  // Owner-computes rounds: each rank runs its own events and sends their
  // outcomes; a late one (before this rank's clock) undoes it.
  std::uint64_t owner_rounds = 0;
  std::uint64_t gvt_rounds = 0;           // agreements on the committed floor
  std::uint64_t late_outcomes = 0;        // outcomes that came before this rank's clock
  std::uint64_t cancels_sent = 0;         // withdrawals (outcomes of undone events no re-run gave)
  std::uint64_t held_undos = 0;           // undos before an event held while later ones ran
  std::uint64_t forced_undos = 0;         // undos forced by TETHERSIM_OWNER_FAIL_RATE (testing)
  // Instants that late outcomes' undos took back, and those among them the
  // outcome's particles reached through the events run since (a lower
  // bound on what undoing only the particles concerned would take back).
  std::uint64_t late_undo_instants = 0;
  std::uint64_t late_undo_instants_reached = 0;
  double seconds_throttled = 0.0;         // waiting at the throttle's horizon (part of seconds_wait)
  double seconds_verify = 0.0;            // comparing histories, undoing
};

// One reported row: its name in summary.json and the table, and its value
// on one rank (a counter, or a figure made of counters).
struct DistributionCounterRow {
  std::string_view name;
  double (*value)(const DistributionCounters&);
};

namespace counter_rows {

template <auto Member>
constexpr double count(const DistributionCounters& c) {
  return static_cast<double>(c.*Member);
}

// Events this rank committed for itself (not duplicates of another's).
constexpr double unique_events(const DistributionCounters& c) {
  return static_cast<double>(c.events_executed - c.events_duplicated);
}

constexpr double per_unique_event(double x, const DistributionCounters& c) {
  return c.events_executed > c.events_duplicated ? x / unique_events(c) : 0.0;
}

using C = DistributionCounters;

inline constexpr DistributionCounterRow kRowList[] = {
    {"windows", count<&C::windows>},
    {"speculative_windows", count<&C::speculative_windows>},
    {"commits", count<&C::commits>},
    {"rollbacks", count<&C::rollbacks>},
    {"partial_commits", count<&C::partial_commits>},
    {"rollbacks_near", count<&C::rollbacks_near>},
    {"rollbacks_contact", count<&C::rollbacks_contact>},
    {"rollbacks_forced", count<&C::rollbacks_forced>},
    {"events_rolled_back", count<&C::events_rolled_back>},
    {"committed_events_per_window",
     [](const C& c) {
       return c.commits > 0 ? static_cast<double>(c.events_executed) / static_cast<double>(c.windows) : 0.0;
     }},
    {"parted_particles", count<&C::parted_particles>},
    {"certified_rounds", count<&C::certified_rounds>},
    {"owner_rounds", count<&C::owner_rounds>},
    {"gvt_rounds", count<&C::gvt_rounds>},
    {"late_outcomes", count<&C::late_outcomes>},
    {"cancels_sent", count<&C::cancels_sent>},
    {"held_undos", count<&C::held_undos>},
    {"forced_undos", count<&C::forced_undos>},
    {"late_undo_instants", count<&C::late_undo_instants>},
    {"late_undo_instants_reached", count<&C::late_undo_instants_reached>},
    // Owner-computes rounds: how deep an undo goes, and how much is
    // committed per agreement on the floor.
    {"events_per_rollback",
     [](const C& c) {
       return c.rollbacks > 0 ? static_cast<double>(c.events_rolled_back) / static_cast<double>(c.rollbacks) : 0.0;
     }},
    {"committed_events_per_gvt_round",
     [](const C& c) {
       return c.gvt_rounds > 0 ? static_cast<double>(c.events_executed) / static_cast<double>(c.gvt_rounds) : 0.0;
     }},
    {"certifications", count<&C::certifications>},
    {"retries", count<&C::retries>},
    {"failed_reach", count<&C::failures_reach>},
    {"failed_depth", count<&C::failures_depth>},
    {"failed_energy", count<&C::failures_energy>},
    {"bound_exchanges", count<&C::bound_exchanges>},
    {"fallbacks", count<&C::fallbacks>},
    {"fallbacks_declined", count<&C::fallbacks_declined>},
    {"memory_cuts", count<&C::memory_cuts>},
    {"journals_dropped", count<&C::journals_dropped>},
    {"window_peak_bytes", count<&C::window_peak_bytes>},
    {"ticks_between_windows", count<&C::ticks_between_windows>},
    {"rebalances", count<&C::rebalances>},
    {"delta_min", [](const C& c) { return c.windows > 0 ? c.delta_min : 0.0; }},
    {"delta_mean", [](const C& c) { return c.windows > 0 ? c.delta_sum / static_cast<double>(c.windows) : 0.0; }},
    {"delta_max", count<&C::delta_max>},
    {"events_executed", count<&C::events_executed>},
    {"events_unique", unique_events},
    {"events_duplicated", count<&C::events_duplicated>},
    {"components", count<&C::components>},
    {"cross_components", count<&C::cross_components>},
    {"largest_component", count<&C::largest_component>},
    {"active_ghosts", count<&C::active_ghosts>},
    {"examined_owned", count<&C::examined_owned>},
    {"examined_ghosts", count<&C::examined_ghosts>},
    {"owned", count<&C::owned>},
    {"ghosts", count<&C::ghosts>},
    {"ghosts_max", count<&C::ghosts_max>},
    {"migrations", count<&C::migrations>},
    {"bytes_sent", count<&C::bytes_sent>},
    {"messages_sent", count<&C::messages_sent>},
    {"history_steps_sent", count<&C::history_steps_sent>},
    // What the exchange costs per event this rank committed for itself.
    {"bytes_per_committed_event", [](const C& c) { return per_unique_event(static_cast<double>(c.bytes_sent), c); }},
    {"messages_per_committed_event",
     [](const C& c) { return per_unique_event(static_cast<double>(c.messages_sent), c); }},
    {"bound_over_speed", count<&C::bound_over_speed>},
    {"seconds_certify", count<&C::seconds_certify>},
    {"seconds_execute", count<&C::seconds_execute>},
    {"seconds_exchange", count<&C::seconds_exchange>},
    {"seconds_wait", count<&C::seconds_wait>},
    {"seconds_throttled", count<&C::seconds_throttled>},
    {"seconds_verify", count<&C::seconds_verify>},
    {"seconds_rebuild", count<&C::seconds_rebuild>},
};

}  // namespace counter_rows

inline constexpr std::array kDistributionCounterRows = std::to_array(counter_rows::kRowList);

}  // namespace tethersim::decomposition
