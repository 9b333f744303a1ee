#include "tethersim/engine/sent_outcomes.hpp"

#include <limits>

#include "tethersim/engine/hash_bits.hpp"
#include "tethersim/engine/particle_words.hpp"

namespace tethersim::engine {

namespace {

std::uint64_t records_hash(std::uint64_t h, const std::vector<ParticleRecord>& records) {
  for (const ParticleRecord& r : records) {
    h = physics::mix_hash(h, particle_record_hash(r.particle, true));
    for (double phi : r.reaction_times) h = physics::mix_hash(h, bits(phi));
    for (ParticleId t : r.tethers) h = physics::mix_hash(h, 1, t);
    for (const LoadedEdgeSnapshot& e : r.loaded_edges) {
      h = physics::mix_hash(h, physics::mix_hash(2, e.a, e.b), vector_bits(e.impulse), bits(e.time), e.sequence);
    }
  }
  return h;
}

}  // namespace

std::uint64_t outcome_hash(const EventOutcome& outcome) {
  // Introductions too: one that a re-run gives otherwise (a mate changed
  // by an outcome placed since) replaces what a process took in with it.
  return records_hash(records_hash(0, outcome.records) + 1, outcome.introductions);
}

std::optional<EventKey> SentOutcomes::cancel_from(const EventKey& key) {
  const auto first = sent_.lower_bound(key);
  unconfirmed_.erase(unconfirmed_.lower_bound(key), unconfirmed_.end());
  if (first == sent_.end()) return std::nullopt;
  sent_.erase(first, sent_.end());
  return key;
}

void SentOutcomes::withdraw_before(double t, std::vector<EventKey>& out) {
  while (!unconfirmed_.empty() && unconfirmed_.begin()->time < t) {
    const EventKey key = *unconfirmed_.begin();
    out.push_back(key);
    sent_.erase(key);
    unconfirmed_.erase(unconfirmed_.begin());
  }
}

SentOutcomes::Offer SentOutcomes::offer(const EventOutcome& outcome) {
  Offer offer;
  const std::uint64_t hash = outcome_hash(outcome);
  // Unconfirmed outcomes of earlier instants that no re-run gave again:
  // their events did not happen this time.
  withdraw_before(outcome.key.time, offer.withdraw);
  const auto same = sent_.find(outcome.key);
  if (same != sent_.end() && same->second == hash) {
    unconfirmed_.erase(outcome.key);
    ++identical_;
    return offer;  // the neighbour has these bits
  }
  if (same != sent_.end()) {
    // Other bits at the same key: the neighbour drops the old ones first.
    offer.withdraw.push_back(outcome.key);
    unconfirmed_.erase(outcome.key);
  }
  // (Unconfirmed outcomes after this key stay: a re-run confirms or
  // withdraws them when it gets there; the neighbour takes this one as a
  // late outcome if it placed them.)
  sent_[outcome.key] = hash;
  offer.send = true;
  return offer;
}

SentOutcomes::Offer SentOutcomes::pass(const EventOutcome& outcome) {
  Offer offer;
  withdraw_before(outcome.key.time, offer.withdraw);
  const auto same = sent_.find(outcome.key);
  if (same != sent_.end()) {
    offer.withdraw.push_back(outcome.key);
    unconfirmed_.erase(outcome.key);
    sent_.erase(same);
  }
  return offer;
}

std::optional<EventKey> SentOutcomes::undone(double instant, const EventKey& key) {
  const std::optional<EventKey> cancel = cancel_from(key);
  for (auto it = sent_.lower_bound(instant_start(instant)); it != sent_.end(); ++it) unconfirmed_.insert(it->first);
  return cancel;
}

void SentOutcomes::undone_lazily(double instant) {
  for (auto it = sent_.lower_bound(instant_start(instant)); it != sent_.end(); ++it) unconfirmed_.insert(it->first);
}

std::vector<EventKey> SentOutcomes::missing_before(double clock) {
  std::vector<EventKey> out;
  withdraw_before(clock, out);
  return out;
}

EventKey SentOutcomes::earliest_unconfirmed() const { return unconfirmed_.empty() ? EventKey{} : *unconfirmed_.begin(); }

void SentOutcomes::commit_before(const EventKey& key) {
  sent_.erase(sent_.begin(), sent_.lower_bound(key));
  unconfirmed_.erase(unconfirmed_.begin(), unconfirmed_.lower_bound(key));
}

EventKey SentOutcomes::instant_start(double t) {
  return EventKey{t, std::numeric_limits<int>::min(), 0, 0, 0};
}

}  // namespace tethersim::engine
