#include "tethersim/engine/foreign_outcomes.hpp"

#include <algorithm>

namespace tethersim::engine {

bool ForeignOutcomes::earlier(const Item& a, const Item& b) {
  if (a.outcome.key < b.outcome.key) return true;
  if (b.outcome.key < a.outcome.key) return false;
  return a.arrival < b.arrival;
}

void ForeignOutcomes::insert_pending(Item item) {
  for (std::uint64_t h : item.produced) ++producers_[producer_key(h, item.outcome.key.time)];
  const auto at = std::upper_bound(pending_.begin(), pending_.end(), item, earlier);
  pending_.insert(at, std::move(item));
}

void ForeignOutcomes::forget_producer(const Item& item) {
  for (std::uint64_t h : item.produced) {
    const auto at = producers_.find(producer_key(h, item.outcome.key.time));
    if (--at->second == 0) producers_.erase(at);
  }
}

void ForeignOutcomes::add(EventOutcome outcome, int sender, std::vector<std::uint64_t> produced) {
  insert_pending({std::move(outcome), sender, arrivals_++, 0.0, false, std::move(produced)});
}

const ForeignOutcomes::Item& ForeignOutcomes::place(std::ptrdiff_t k, double placed_at) {
  forget_producer(pending_[static_cast<std::size_t>(k)]);
  placed_.push_back(std::move(pending_[static_cast<std::size_t>(k)]));
  pending_.erase(pending_.begin() + k);
  placed_.back().placed_at = placed_at;
  return placed_.back();
}

const ForeignOutcomes::Item& ForeignOutcomes::place_at_once(EventOutcome outcome, int sender, double placed_at,
                                                            std::vector<std::uint64_t> produced) {
  placed_.push_back({std::move(outcome), sender, arrivals_++, placed_at, true, std::move(produced)});
  return placed_.back();
}

std::ptrdiff_t ForeignOutcomes::earliest_at_once(double t) const {
  for (std::size_t k = 0; k < pending_.size() && pending_[k].outcome.key.time <= t; ++k) {
    if (pending_[k].at_once) return static_cast<std::ptrdiff_t>(k);
  }
  return -1;
}

void ForeignOutcomes::requeue_from(double t) {
  // Placed in the engine's order, which within an instant is not the key
  // order: every placed outcome at or after t goes back.
  while (placed_.size() > placed_begin_ && placed_.back().placed_at >= t) {
    insert_pending(std::move(placed_.back()));
    placed_.pop_back();
  }
}

EventKey ForeignOutcomes::earliest_placed_from(int sender, const EventKey& from) const {
  EventKey earliest;
  for (std::size_t k = placed_begin_; k < placed_.size(); ++k) {
    const Item& item = placed_[k];
    if (item.sender == sender && !(item.outcome.key < from) && item.outcome.key < earliest) earliest = item.outcome.key;
  }
  return earliest;
}

std::size_t ForeignOutcomes::drop_pending_from(int sender, const EventKey& from) {
  const auto gone = [&](const Item& item) { return item.sender == sender && !(item.outcome.key < from); };
  for (const Item& item : pending_) {
    if (gone(item)) forget_producer(item);
  }
  const std::size_t before = pending_.size();
  pending_.erase(std::remove_if(pending_.begin(), pending_.end(), gone), pending_.end());
  return before - pending_.size();
}

bool ForeignOutcomes::is_placed(int sender, const EventKey& key) const {
  for (std::size_t k = placed_.size(); k > placed_begin_; --k) {
    const Item& item = placed_[k - 1];
    if (item.sender == sender && item.outcome.key == key) return true;
  }
  return false;
}

void ForeignOutcomes::drop_pending(int sender, const EventKey& key) {
  const auto gone = [&](const Item& item) { return item.sender == sender && item.outcome.key == key; };
  for (const Item& item : pending_) {
    if (gone(item)) forget_producer(item);
  }
  pending_.erase(std::remove_if(pending_.begin(), pending_.end(), gone), pending_.end());
}

void ForeignOutcomes::drop_placed_before(double t) {
  while (placed_begin_ < placed_.size() && placed_[placed_begin_].placed_at < t) {
    placed_[placed_begin_] = Item{};  // frees its records now
    ++placed_begin_;
  }
  // Compacted once the dropped part is most of the storage.
  if (placed_begin_ > 64 && 2 * placed_begin_ > placed_.size()) {
    placed_.erase(placed_.begin(), placed_.begin() + static_cast<std::ptrdiff_t>(placed_begin_));
    placed_begin_ = 0;
  }
}

}  // namespace tethersim::engine
