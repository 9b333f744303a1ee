#pragma once
// What owner-computes ranks send each other, as bytes (docs/distribution.md,
// "Owner-computes rounds"): an executed event's outcome (its key, the read
// hash and the record after it of every particle it changed), a cancel
// notice (the sender undid its events from a key on: drop what it sent at or
// after that key), or a withdrawal (drop the one outcome of that key: a
// re-run did not give it again, or gave other bits). Messages are appended
// one after another into a batch; every bit of a key and a record travels
// unchanged.

#include <functional>

#include "tethersim/decomposition/byte_buffer.hpp"
#include "tethersim/engine/event_key.hpp"
#include "tethersim/engine/event_outcome.hpp"

namespace tethersim::decomposition {

void append_outcome(Bytes& out, const engine::EventOutcome& outcome);
void append_cancel(Bytes& out, const engine::EventKey& from);
void append_withdrawal(Bytes& out, const engine::EventKey& key);

// A cancel notice (everything from `key` on) or a withdrawal (`key` alone).
struct CancelNotice {
  engine::EventKey key;
  bool withdrawal = false;
};

// Reads a batch in order: each outcome handed to `outcome` (moved out), each
// cancel notice and withdrawal to `cancel`. Throws std::runtime_error on a
// malformed batch.
void read_outcome_batch(const char* data, std::size_t size,
                        const std::function<void(engine::EventOutcome&&)>& outcome,
                        const std::function<void(const CancelNotice&)>& cancel);

}  // namespace tethersim::decomposition
