#pragma once
// What owner-computes ranks send each other, as bytes (docs/distribution.md,
// "Owner-computes rounds"): an executed event's outcome (its key, the read
// hash and the record after it of every particle it changed), or a
// withdrawal (drop the one outcome of that key: a re-run did not give it
// again, or gave other bits; undos cancel lazily, so no message voids a
// range of keys). Messages are appended
// one after another into a batch; every bit of a key and a record travels
// unchanged.

#include <functional>

#include "tethersim/decomposition/byte_buffer.hpp"
#include "tethersim/engine/event_key.hpp"
#include "tethersim/engine/event_outcome.hpp"

namespace tethersim::decomposition {

void append_outcome(Bytes& out, const engine::EventOutcome& outcome);
void append_withdrawal(Bytes& out, const engine::EventKey& key);

// Reads a batch in order: each outcome handed to `outcome` (moved out), each
// withdrawn key to `withdrawal`. Throws std::runtime_error on a malformed
// batch.
void read_outcome_batch(const char* data, std::size_t size,
                        const std::function<void(engine::EventOutcome&&)>& outcome,
                        const std::function<void(const engine::EventKey&)>& withdrawal);

}  // namespace tethersim::decomposition
