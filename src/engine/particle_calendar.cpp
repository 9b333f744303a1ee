#include "tethersim/engine/particle_calendar.hpp"

namespace tethersim::engine {

namespace {
constexpr std::size_t kArity = 4;
}

void ParticleCalendar::reset(std::size_t particles, TieBreak tie_break) {
  events_.assign(particles, Stored{});
  position_.assign(particles, kNoIndex);
  heap_.clear();
  heap_.reserve(particles);
  tie_break_ = std::move(tie_break);
}

void ParticleCalendar::resize(std::size_t particles) {
  events_.resize(particles, Stored{});
  position_.resize(particles, kNoIndex);
}

void ParticleCalendar::set(Index particle, const ParticleEvent& event) {
  events_[particle] = {event.partner, event.partner_counter, event.kind, event.detail};
  if (event.time == kInfinity) {
    remove(particle);
    return;
  }
  const Node node{event.time, particle};
  std::uint32_t at = position_[particle];
  if (at == kNoIndex) {
    heap_.push_back(node);
    position_[particle] = static_cast<std::uint32_t>(heap_.size() - 1);
    sift_up(heap_.size() - 1);
    return;
  }
  const Node old = heap_[at];
  heap_[at] = node;
  // The tie break reads events_, already updated: compare by time first.
  if (node.time < old.time) {
    sift_up(at);
  } else {
    sift_down(at);
    sift_up(position_[particle]);
  }
}

void ParticleCalendar::remove(Index particle) {
  const std::uint32_t at = position_[particle];
  if (at == kNoIndex) return;
  position_[particle] = kNoIndex;
  const Node last = heap_.back();
  heap_.pop_back();
  if (at == heap_.size()) return;
  place(at, last);
  sift_down(at);
  sift_up(position_[last.particle]);
}

void ParticleCalendar::sift_up(std::size_t i) {
  const Node node = heap_[i];
  while (i > 0) {
    const std::size_t parent = (i - 1) / kArity;
    if (!less(node, heap_[parent])) break;
    place(i, heap_[parent]);
    i = parent;
  }
  place(i, node);
}

void ParticleCalendar::sift_down(std::size_t i) {
  const Node node = heap_[i];
  const std::size_t n = heap_.size();
  for (;;) {
    const std::size_t first = kArity * i + 1;
    if (first >= n) break;
    std::size_t best = first;
    const std::size_t last = std::min(first + kArity, n);
    for (std::size_t c = first + 1; c < last; ++c) {
      if (less(heap_[c], heap_[best])) best = c;
    }
    if (!less(heap_[best], node)) break;
    place(i, heap_[best]);
    i = best;
  }
  place(i, node);
}

void ParticleCalendar::renumber(const std::vector<Index>& new_index) {
  BigVector<Stored> events(events_.size());
  BigVector<std::uint32_t> position(position_.size(), kNoIndex);
  for (std::size_t old = 0; old < events_.size(); ++old) {
    Stored e = events_[old];
    if (e.partner != kNoIndex) e.partner = new_index[e.partner];
    events[new_index[old]] = e;
    position[new_index[old]] = position_[old];
  }
  events_.swap(events);
  position_.swap(position);
  for (Node& n : heap_) n.particle = new_index[n.particle];
}

std::size_t ParticleCalendar::memory_bytes() const {
  return events_.capacity() * sizeof(Stored) + heap_.capacity() * sizeof(Node) +
         position_.capacity() * sizeof(std::uint32_t);
}

}  // namespace tethersim::engine
