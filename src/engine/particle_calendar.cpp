#include "tethersim/engine/particle_calendar.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "tethersim/engine/permute.hpp"

namespace tethersim::engine {

namespace {
constexpr std::size_t kArity = 4;
// Events per bucket near the present: the near heap holds about this many.
constexpr double kEventsPerBucket = 24.0;
// The buckets cover this many mean waits for a particle's next event: a
// layout lasts about as many events per particle, and about e^-kSpan of the
// events wait in the overflow.
constexpr double kSpan = 6.0;
// A near heap larger than this, once the calendar has seen as many changes
// since the last layout as it held events then, is laid out again: the
// width was estimated from too few events (a calendar being filled: the
// layouts come at doubling counts) or the pace changed. At most one layout
// per that many changes: O(1) amortised.
constexpr std::size_t kNearMost = 64;
// Times sampled to estimate the spread of the events.
constexpr std::size_t kSamples = 1024;
constexpr std::size_t kMostBuckets = std::size_t{1} << 30;
}  // namespace

void ParticleCalendar::reset(std::size_t particles, std::size_t spare, TieBreak tie_break, OrderPrefix order_prefix,
                             const void* context) {
  events_.reserve(particles + spare);
  place_.reserve(particles + spare);
  prev_.reserve(particles + spare);
  events_.assign(particles, Stored{});
  place_.assign(particles, Place{});
  prev_.assign(particles, kNoIndex);
  heap_.assign(kPad, Node{});
  heads_.clear();
  ahead_ = kNoIndex;
  base_ = 0.0;
  inv_width_ = 0.0;
  buckets_ = loaded_ = listed_ = scheduled_ = changes_since_lay_out_ = scheduled_at_lay_out_ = 0;
  tie_break_ = tie_break;
  order_prefix_ = order_prefix;
  tie_context_ = context;
}

void ParticleCalendar::resize(std::size_t particles) {
  reserve_gently(events_, particles);
  reserve_gently(place_, particles);
  reserve_gently(prev_, particles);
  events_.resize(particles, Stored{});
  place_.resize(particles, Place{});
  prev_.resize(particles, kNoIndex);
}

void ParticleCalendar::set(Index particle, const ParticleEvent& event, const RunnerUp& runner_up) {
  if (event.kind == EventKind::sector_crossing) {
    // A renumbering renames `partner` whatever the kind (renumber).
    const bool pair = runner_up.state == RunnerUp::State::pair;
    events_[particle] = {pair ? runner_up.partner : kNoIndex,
                         static_cast<std::uint32_t>(runner_up.state) << 8 | static_cast<std::uint32_t>(runner_up.kind),
                         event.counter,
                         pair ? runner_up.partner_stamp : 0,
                         event.kind,
                         event.detail};
  } else {
    events_[particle] = {event.partner, event.partner_counter, event.counter, event.partner_stamp, event.kind,
                         event.detail};
  }
  if (event.time == kInfinity) {
    remove(particle);
    return;
  }
  ++changes_since_lay_out_;
  look_ahead();
  const std::uint32_t where = place_[particle].where;
  if (where == kNoIndex) {
    ++scheduled_;
  } else if ((where & kListed) != 0) {
    unlink(particle);
  } else if (bucket_of(event.time) <= loaded_) {
    // Stays in the near heap: sifted from its node.
    place_[particle].time = event.time;
    const Node old = node(where);
    node(where) = Node{event.time, particle, 0};
    // The tie break reads events_, already updated: compare by time first.
    if (event.time < old.time) {
      sift_up(where);
    } else {
      sift_down(where);
      sift_up(place_[particle].where);
    }
    settle();
    return;
  } else {
    pop_near(where);
  }
  place_[particle].time = event.time;
  file(particle);
  settle();
}

void ParticleCalendar::remove(Index particle) {
  // An unscheduled event names no partner: a partner index kept here would
  // outlive the partner's slot when the engine drops removed particles.
  events_[particle].partner = kNoIndex;
  if (place_[particle].where == kNoIndex) return;
  unfile(particle);
  --scheduled_;
  ++changes_since_lay_out_;
  settle();
}

void ParticleCalendar::file(Index particle) {
  const std::size_t bucket = bucket_of(place_[particle].time);
  if (bucket <= loaded_) {
    push_near(particle);
  } else {
    link(particle, bucket);
  }
}

void ParticleCalendar::unfile(Index particle) {
  const std::uint32_t where = place_[particle].where;
  if ((where & kListed) != 0) {
    unlink(particle);
  } else {
    pop_near(where);
  }
  place_[particle].where = kNoIndex;
}

void ParticleCalendar::push_near(Index particle) {
  heap_.push_back(Node{place_[particle].time, particle, 0});
  place_[particle].where = static_cast<std::uint32_t>(size() - 1);
  sift_up(size() - 1);
}

void ParticleCalendar::pop_near(std::size_t k) {
  const Node last = heap_.back();
  heap_.pop_back();
  if (k == size()) return;
  place(k, last);
  sift_down(k);
  sift_up(place_[last.particle].where);
}

void ParticleCalendar::link(Index particle, std::size_t bucket) {
  const Index head = heads_[bucket];
  Place& p = place_[particle];
  p.where = kListed | static_cast<std::uint32_t>(bucket);
  p.next = head;
  prev_[particle] = kNoIndex;
  if (head != kNoIndex) prev_[head] = particle;
  heads_[bucket] = particle;
  ++listed_;
}

void ParticleCalendar::unlink(Index particle) {
  const Place& p = place_[particle];
  const Index prev = prev_[particle];
  if (prev != kNoIndex) {
    place_[prev].next = p.next;
  } else {
    heads_[p.where & ~kListed] = p.next;
  }
  if (p.next != kNoIndex) prev_[p.next] = prev;
  --listed_;
}

void ParticleCalendar::settle() {
  if (size() > kNearMost && changes_since_lay_out_ >= std::max(scheduled_at_lay_out_, kNearMost)) {
    lay_out();
    return;
  }
  while (size() == 0 && listed_ > 0) {
    ++loaded_;
    if (loaded_ >= buckets_) {
      lay_out();  // only the overflow is left
      return;
    }
    // The bucket's events into the (empty) near heap, then heapified
    // bottom-up: linear, where pushing them one by one sifts each.
    Index p = heads_[loaded_];
    heads_[loaded_] = kNoIndex;
    while (p != kNoIndex) {
      Place& listed = place_[p];
      const Index next = listed.next;
      listed.where = static_cast<std::uint32_t>(size());
      heap_.push_back(Node{listed.time, p, 0});
      --listed_;
      p = next;
    }
    if (size() > 1) {
      for (std::size_t k = (size() - 2) / kArity + 1; k-- > 0;) sift_down(k);
    }
    ahead_ = loaded_ + 1 < heads_.size() ? heads_[loaded_ + 1] : kNoIndex;
  }
}

void ParticleCalendar::lay_out() {
  changes_since_lay_out_ = 0;
  scheduled_at_lay_out_ = scheduled_;
  // The earliest time, and a sample of how far the others lie past it, in
  // one pass.
  double earliest = kInfinity;
  std::vector<double> gaps;
  const std::size_t stride = std::max<std::size_t>(1, scheduled_ / kSamples);
  std::size_t seen = 0;
  for (std::size_t p = 0; p < place_.size(); ++p) {
    if (place_[p].where == kNoIndex) continue;
    earliest = std::min(earliest, place_[p].time);
    if (seen++ % stride == 0) gaps.push_back(place_[p].time);
  }
  for (double& gap : gaps) gap -= earliest;
  // The mean wait from the median (an exponential spread's median is its
  // mean times ln 2), or from a higher quantile when more than half the
  // events share the earliest instant. Only the speed depends on it.
  double mean_wait = 0.0;
  for (const double q : {0.5, 0.9}) {
    if (gaps.empty() || mean_wait > 0.0) break;
    const auto at = gaps.begin() + static_cast<std::ptrdiff_t>(q * static_cast<double>(gaps.size() - 1));
    std::nth_element(gaps.begin(), at, gaps.end());
    mean_wait = *at / -std::log1p(-q);
  }
  const double events = static_cast<double>(scheduled_);
  const double width = kEventsPerBucket * mean_wait / events;
  buckets_ = 0;
  if (events >= 2 * kEventsPerBucket && width > 0.0 && std::isfinite(width)) {
    buckets_ = std::min(kMostBuckets, static_cast<std::size_t>(kSpan * events / kEventsPerBucket) + 1);
    base_ = earliest;
    inv_width_ = 1.0 / width;
  }
  heap_.resize(kPad);
  // A near heap that once held everything (a calendar filled before its
  // first layout, a crowd of simultaneous events) gives its room back.
  if (heap_.capacity() > 4096 && heap_.capacity() > 8 * (scheduled_ / std::max<std::size_t>(buckets_, 1) + kPad)) {
    heap_.shrink_to_fit();
  }
  heads_.assign(buckets_ + 1, kNoIndex);
  loaded_ = 0;
  ahead_ = kNoIndex;
  listed_ = 0;
  for (std::size_t p = 0; p < place_.size(); ++p) {
    if (place_[p].where != kNoIndex) file(static_cast<Index>(p));
  }
}

bool ParticleCalendar::tied_less(Node& a, Node& b) const {
  if (a.prefix == 0) a.prefix = order_prefix_(tie_context_, a.particle, a.time);
  if (b.prefix == 0) b.prefix = order_prefix_(tie_context_, b.particle, b.time);
  if (a.prefix != b.prefix) return a.prefix < b.prefix;
  return tie_break_(tie_context_, a.particle, b.particle, a.time);
}

void ParticleCalendar::sift_up(std::size_t k) {
  Node moving = node(k);
  while (k > 0) {
    const std::size_t parent = (k - 1) / kArity;
    if (!less(moving, node(parent))) break;
    place(k, node(parent));
    k = parent;
  }
  place(k, moving);
}

void ParticleCalendar::sift_down(std::size_t k) {
  Node moving = node(k);
  const std::size_t n = size();
  for (;;) {
    const std::size_t first = kArity * k + 1;
    if (first >= n) break;
    std::size_t best = first;
    const std::size_t last = std::min(first + kArity, n);
    for (std::size_t c = first + 1; c < last; ++c) {
      if (less(node(c), node(best))) best = c;
    }
    if (!less(node(best), moving)) break;
    place(k, node(best));
    k = best;
  }
  place(k, moving);
}

void ParticleCalendar::renumber(std::span<const Index> new_index) {
  if (events_.size() != new_index.size() || place_.size() != new_index.size()) {
    throw std::logic_error("particle calendar: renumbering " + std::to_string(new_index.size()) +
                           " slots of a calendar of " + std::to_string(events_.size()));
  }
  // In place: copies of the arrays were the peak of a run's memory (the
  // gas of 10^5 on one rank: 4.6 MB beside the engine's 16 MB, at the
  // first renumbering).
  auto renamed = [&](Index i) { return i == kNoIndex ? kNoIndex : new_index[i]; };
  for (Stored& e : events_) e.partner = renamed(e.partner);
  for (Place& p : place_) p.next = renamed(p.next);
  for (Index& prev : prev_) prev = renamed(prev);
  for (Index& head : heads_) head = renamed(head);
  ahead_ = kNoIndex;
  std::vector<bool> done;
  permute(events_, new_index, done);
  permute(place_, new_index, done);
  permute(prev_, new_index, done);
  for (std::size_t k = 0; k < size(); ++k) node(k).particle = new_index[node(k).particle];
}

std::size_t ParticleCalendar::memory_bytes() const {
  return events_.capacity() * sizeof(Stored) + place_.capacity() * sizeof(Place) +
         prev_.capacity() * sizeof(Index) + heap_.capacity() * sizeof(Node) + heads_.capacity() * sizeof(Index);
}

void ParticleCalendar::particles_before(double time, std::vector<Index>& out) const {
  // Every listed event is later than every event in the near heap.
  if (empty() || !(node(0).time < time)) return;
  // Children are never earlier than their parent.
  std::vector<std::size_t> stack{0};
  while (!stack.empty()) {
    const std::size_t k = stack.back();
    stack.pop_back();
    out.push_back(node(k).particle);
    for (std::size_t c = kArity * k + 1; c <= kArity * k + kArity && c < size(); ++c) {
      if (node(c).time < time) stack.push_back(c);
    }
  }
  if (listed_ == 0) return;
  // An event before `time` is in a bucket no later than `time`'s.
  const std::size_t last = bucket_of(time);
  for (std::size_t b = loaded_ + 1; b <= last; ++b) {
    for (Index p = heads_[b]; p != kNoIndex; p = place_[p].next) {
      if (place_[p].time < time) out.push_back(p);
    }
  }
}

}  // namespace tethersim::engine
