#pragma once
// What a stalled run is doing, in words: the kinds of the events that keep
// coming and the particles taking part, most involved first.

#include <cstdint>
#include <string>

#include "tethersim/engine/engine.hpp"
#include "tethersim/engine/stall_watch.hpp"

namespace tethersim::engine {

// Runs up to `samples` more events before `end` one at a time and
// describes them, e.g. "blocking 1400, restitution 600 among particles
// 80 (V), 105 (V), 2003 (S)". The events run are part of the stall: call
// it only on a run that is about to stop (or whose window is undone).
std::string describe_stall(Engine& engine, double end, std::uint64_t samples = 4096);

// The whole stall message of a run whose `watch` saw the stall: how many
// events went by without simulated time advancing, at which time, then
// describe_stall's words.
std::string stall_message(const StallWatch& watch, Engine& engine, double end);

}  // namespace tethersim::engine
