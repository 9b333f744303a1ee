#pragma once
// What one process has sent to one neighbour in owner-computes mode, above
// the committed floor, and what it must cancel (docs/owner-computes.md,
// "Versions and cancellations"). A cancel notice names a key: the
// neighbour drops everything it received from this process at or after it.
// A withdrawal names one outcome: the neighbour drops that one alone.
//
// An undo works by whole instants: undoing for a late outcome at key k
// takes back the events of k's instant before k as well, which then run
// again. Those re-runs give the outcomes already sent, bit for bit, unless
// something placed here in the meantime changed them; cancelling them
// anyway would undo the neighbour in turn, whose re-runs would undo this
// process, without end when both run events at one instant (the
// restitutions of a loaded group do, and so do chains of contacts in a
// collapsing gas). So an undo may keep what was sent unconfirmed (lazy
// cancellation): a re-run that gives the same bits confirms one and is not
// sent again; one that gives other bits withdraws the old one (exactly that
// key) and is sent; one the re-run has not given by the time the engine's
// clock leaves its instant is withdrawn. Within an instant events do not
// come in key order (event_outcome.hpp), so nothing is judged missing
// before the instant is over, and a withdrawal names one key: a range
// would take confirmed outcomes of the same instant with it, which nobody
// sends again.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "tethersim/engine/event_outcome.hpp"

namespace tethersim::engine {

// A hash of everything an outcome's records hold.
std::uint64_t outcome_hash(const EventOutcome& outcome);

class SentOutcomes {
 public:
  struct Offer {
    bool send = false;              // false: the neighbour already has these bits
    std::vector<EventKey> withdraw;  // send these withdrawals first
  };
  // An outcome of an event run here, in the order they ran.
  Offer offer(const EventOutcome& outcome);
  // The same for an outcome that goes to no other process (it concerns
  // none): nothing is hashed or kept (most events of a block are inside
  // it), but an outcome sent before at its key (other bits, which did
  // concern someone) is withdrawn, and so are the unconfirmed ones of
  // earlier instants, as offer() does. Never `send`.
  Offer pass(const EventOutcome& outcome);
  // This process was undone from time `instant` because of something at
  // `key` (its outcome came late, or a placed one was cancelled): outcomes
  // at or after `key` are void, those of the instant before it are kept
  // unconfirmed. Returns the cancel notice to send, if any.
  std::optional<EventKey> undone(double instant, const EventKey& key);
  // Lazily: everything sent from `instant` on waits, unconfirmed, for the
  // re-runs (nothing is cancelled now).
  void undone_lazily(double instant);
  // The engine's clock has left the instants of the unconfirmed outcomes
  // before it, which a re-run did not give again: the withdrawals to send.
  std::vector<EventKey> missing_before(double clock);
  // The earliest key a cancel notice may yet start from for what was
  // already sent (an unconfirmed outcome; a key at kInfinity when none):
  // the committed floor must not pass it.
  EventKey earliest_unconfirmed() const;
  // Outcomes before t, or before `key`, are final.
  void commit_before(double t) { commit_before(instant_start(t)); }
  void commit_before(const EventKey& key);
  // Re-runs that gave bits already sent (what lazy cancellation saved).
  std::uint64_t identical_resends() const { return identical_; }

 private:
  // Forgets everything sent at or after `key`: the notice to send when
  // that was anything.
  std::optional<EventKey> cancel_from(const EventKey& key);
  // The first key of an instant.
  static EventKey instant_start(double t);
  // Forgets the unconfirmed outcomes before time t, into `out`.
  void withdraw_before(double t, std::vector<EventKey>& out);
  std::map<EventKey, std::uint64_t> sent_;  // key -> outcome_hash
  std::set<EventKey> unconfirmed_;
  std::uint64_t identical_ = 0;
};

}  // namespace tethersim::engine
