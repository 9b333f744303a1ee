#pragma once
// The engine's bookkeeping while a speculative window is open (private to
// src/engine; every file that constructs or destroys an Engine includes it).

#include <cstdint>
#include <memory>
#include <vector>

#include "tethersim/engine/engine.hpp"

namespace tethersim::engine {

struct Engine::SpeculationState {
  SpeculationLog log;
  const std::vector<std::uint8_t>* logged_sectors = nullptr;
  // The undo log: records at the window's start, by particle, in the order
  // of first change (changed_mark_ tells which have one).
  std::vector<ParticleRecord> undo;
  std::vector<Index> undo_index;
  // Particle -> its place in undo; read only where changed_mark_ is set,
  // so it is never cleared (a window touches a small part of it).
  std::unique_ptr<std::uint32_t[]> undo_slot;
  // Particles whose events are logged (sticky for the window).
  std::vector<std::uint8_t> logged_mark;
  // The event being processed: its participants, each once.
  mutable std::vector<Index> participants;
  mutable std::vector<std::uint8_t> participant_mark;
  // Global state at the window's start.
  EngineStatistics stats;
  std::uint64_t uncounted = 0;
  double clock = 0.0;
  std::size_t escapes = 0;
  std::size_t releases = 0;
  std::vector<std::uint64_t> periodic_ticks;
  int active_window = -1;
  std::vector<std::vector<double>> phi;  // kept at the first action-potential transition
  bool phi_saved = false;
};

}  // namespace tethersim::engine
