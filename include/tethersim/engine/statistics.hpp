#pragma once
// What the engine counts while it runs.

#include <algorithm>
#include <array>
#include <cstdint>

#include "tethersim/engine/event_kind.hpp"

namespace tethersim::engine {

struct EngineStatistics {
  EventCounts events{};                 // processed events by kind
  std::uint64_t stale_events = 0;       // predictions invalidated before their time
  std::uint64_t predictions = 0;        // particle re-predictions
  std::uint64_t pair_tests = 0;         // pair detection computations
  // Tick predictions that skipped the sector walk (tick_clearance.hpp).
  // Engine work like the three above; kept in no checkpoint.
  std::uint64_t walks_skipped = 0;
  std::array<std::uint64_t, 4> responses{};  // none, rebound, retract, revolve
  std::uint64_t loadings = 0;
  std::uint64_t instantaneous = 0;      // collisions resolved without loading
  std::uint64_t capped_loadings = 0;    // of which because of max_group_size
  std::uint64_t attachments = 0;
  std::uint64_t detachments = 0;
  std::uint64_t releases = 0;           // exocytosis: subject detached and released
  std::uint64_t escapes = 0;
  std::uint64_t largest_group = 0;

  std::uint64_t total_events() const {
    std::uint64_t n = 0;
    for (std::uint64_t c : events) n += c;
    return n;
  }
  // Adds what another engine (or part of one) counted: the largest group
  // is the larger of the two.
  void add(const EngineStatistics& from) {
    for (std::size_t k = 0; k < events.size(); ++k) events[k] += from.events[k];
    for (std::size_t k = 0; k < responses.size(); ++k) responses[k] += from.responses[k];
    stale_events += from.stale_events;
    predictions += from.predictions;
    pair_tests += from.pair_tests;
    walks_skipped += from.walks_skipped;
    loadings += from.loadings;
    instantaneous += from.instantaneous;
    capped_loadings += from.capped_loadings;
    attachments += from.attachments;
    detachments += from.detachments;
    releases += from.releases;
    escapes += from.escapes;
    largest_group = std::max(largest_group, from.largest_group);
  }
  std::uint64_t collisions() const {
    return events[static_cast<int>(EventKind::blocking)] +
           events[static_cast<int>(EventKind::tethering)];
  }
};

}  // namespace tethersim::engine
