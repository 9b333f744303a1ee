#pragma once
// The outcomes of events other processes ran, as one process holds them in
// owner-computes mode: pending ones wait, in key order, until the records
// they read are the ones held here and their key comes before the
// engine's own next event (event_outcome.hpp);
// placed ones are kept, in the order they were placed, until the committed
// floor passes them, because an undo to before one puts it back among the
// pending (it was not wrong, only undone here) and a sender's cancel
// notice must find it.

#include <cstdint>
#include <vector>

#include "tethersim/engine/event_outcome.hpp"

namespace tethersim::engine {

class ForeignOutcomes {
 public:
  struct Item {
    EventOutcome outcome;
    int sender = 0;
    std::uint64_t arrival = 0;  // orders equal keys (never met in practice) by arrival
  };

  void add(EventOutcome outcome, int sender);
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
  // Moves pending outcome k to the placed ones and returns it.
  const Item& place(std::ptrdiff_t k);
  // Placed outcomes at or after time t go back among the pending.
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
  // Placed outcomes before t are final.
  void drop_placed_before(double t);
  // The earliest pending time (kInfinity when none).
  double next_time() const { return pending_.empty() ? kInfinity : pending_.front().outcome.key.time; }

 private:
  static bool earlier(const Item& a, const Item& b);
  void insert_pending(Item item);
  std::vector<Item> pending_;  // sorted by (key, arrival)
  std::vector<Item> placed_;   // in placement order: times never decrease
  std::size_t placed_begin_ = 0;  // placed_[0, begin) are final and dropped lazily
  std::uint64_t arrivals_ = 0;
};

}  // namespace tethersim::engine
