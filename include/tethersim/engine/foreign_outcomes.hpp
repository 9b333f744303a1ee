#pragma once
// The outcomes of events other processes ran, as one process holds them in
// owner-computes mode: pending ones wait, in key order, until the records
// they read are the ones held here and their key comes before the
// engine's own next event (event_outcome.hpp);
// placed ones are kept, in the order they were placed, until the committed
// floor passes them, because an undo to before one puts it back among the
// pending (it was not wrong, only undone here) and a sender's cancel
// notice must find it. An outcome that came after this process had run
// past its time, and could change nothing it ran (its impact time lies
// ahead), is placed at once, at the instant this process has reached: it
// is placed later than its key says, and is kept by the instant it was
// placed at.

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "tethersim/engine/event_outcome.hpp"
#include "tethersim/engine/hash_bits.hpp"

namespace tethersim::engine {

class ForeignOutcomes {
 public:
  struct Item {
    EventOutcome outcome;
    int sender = 0;
    std::uint64_t arrival = 0;  // orders equal keys (never met in practice) by arrival
    // The instant its records took their place here (its key's time, or
    // later when placed at once).
    double placed_at = 0.0;
    // Placed at once: when an undo from after its time puts it back, it
    // is placed at once again (what ran before the undo's time did not
    // depend on it).
    bool at_once = false;
    // With ghosts one layer deep: the hashes of the versions its records
    // make (particle_record_hash), so that outcomes waiting for them can
    // tell (empty otherwise).
    std::vector<std::uint64_t> produced;
  };

  void add(EventOutcome outcome, int sender, std::vector<std::uint64_t> produced = {});
  bool has_pending() const { return !pending_.empty(); }
  // The pending outcome of the smallest key before `bound` that `ready`
  // accepts (-1: none). Pending outcomes are kept in key order, so only
  // those before the bound are looked at.
  template <typename Ready>
  std::ptrdiff_t earliest_ready(const EventKey& bound, Ready&& ready) const {
    for (std::size_t k = 0; k < pending_.size() && pending_[k].outcome.key < bound; ++k) {
      if (ready(pending_[k].outcome)) return static_cast<std::ptrdiff_t>(k);
    }
    return -1;
  }
  const Item& pending(std::ptrdiff_t k) const { return pending_[static_cast<std::size_t>(k)]; }
  // Moves pending outcome k to the placed ones, placed at `placed_at`, and
  // returns it.
  const Item& place(std::ptrdiff_t k, double placed_at);
  // A new outcome placed at once at `placed_at` (after its key's time).
  const Item& place_at_once(EventOutcome outcome, int sender, double placed_at,
                            std::vector<std::uint64_t> produced = {});
  // How many pending outcomes at time t make a version of this hash.
  std::uint32_t pending_producers(std::uint64_t hash, double t) const {
    const auto at = producers_.find(producer_key(hash, t));
    return at == producers_.end() ? 0 : at->second;
  }
  // The pending outcome of the smallest key that was placed at once and
  // whose time is at or before `t` (-1: none).
  std::ptrdiff_t earliest_at_once(double t) const;
  // Pending outcome k goes the usual way from now on.
  void forget_at_once(std::ptrdiff_t k) { pending_[static_cast<std::size_t>(k)].at_once = false; }
  // Outcomes placed at or after time t go back among the pending.
  void requeue_from(double t);
  // The earliest key of a placed outcome from `sender` at or after `from`
  // (a key at kInfinity when none).
  EventKey earliest_placed_from(int sender, const EventKey& from) const;
  // Drops the pending outcomes from `sender` at or after `from`; returns
  // how many.
  std::size_t drop_pending_from(int sender, const EventKey& from);
  // Whether the outcome of `key` from `sender` is placed (and not final).
  bool is_placed(int sender, const EventKey& key) const;
  // Drops the pending outcome of `key` from `sender`, if there is one.
  void drop_pending(int sender, const EventKey& key);
  // Outcomes placed before t are final.
  void drop_placed_before(double t);

 private:
  static bool earlier(const Item& a, const Item& b);
  void insert_pending(Item item);
  void forget_producer(const Item& item);
  // Versions are told apart within one instant only: a record can come
  // back to an earlier version later (a restitution undoes a collision).
  static std::uint64_t producer_key(std::uint64_t hash, double t) { return physics::mix_hash(hash, bits(t)); }
  std::vector<Item> pending_;  // sorted by (key, arrival)
  std::unordered_map<std::uint64_t, std::uint32_t> producers_;  // pending_'s produced versions (producer_key)
  std::vector<Item> placed_;   // in placement order: placed_at never decreases
  std::size_t placed_begin_ = 0;  // placed_[0, begin) are final and dropped lazily
  std::uint64_t arrivals_ = 0;
};

}  // namespace tethersim::engine
