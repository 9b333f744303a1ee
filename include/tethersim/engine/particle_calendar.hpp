#pragma once
// The calendar of per-particle events: each mobile particle holds its one
// earliest predicted event. Events whose partner changed since the
// prediction are detected when they reach the top (lazy invalidation by
// per-particle counters).
//
// Two tiers, a near-future heap over bucketed lists (the arrangement of
// Smallenburg's event-driven MD and of calendar queues): time from a base
// is cut into buckets of one width. The events of every bucket up to the
// one being consumed sit in a small indexed 4-ary min-heap (the near heap);
// each later bucket is an unordered doubly linked list; events past the
// last bucket wait in an overflow list. When the near heap empties, the
// next non-empty bucket moves into it; when only the overflow is left, the
// buckets are laid out again from the events' times.
//
// The order is exact whatever the width: a time's bucket is a monotone
// function of it (a subtraction, a product by a positive number, a
// truncation), so every listed event is later than every event in the heap
// and the events of one instant always share a bucket, where the heap's
// full order (time, then the tie break) decides. The width decides only the
// speed. With one heap over every particle, each event cost a memory miss
// per heap level at a million particles; the near heap holds tens of events
// and stays in cache, and a list insertion or removal touches two or three
// particles' links.

#include <cstdint>
#include <span>
#include <vector>

#include "tethersim/engine/big_vector.hpp"
#include "tethersim/engine/event_kind.hpp"
#include "tethersim/engine/particle_store.hpp"

namespace tethersim::engine {

struct ParticleEvent {
  double time = kInfinity;
  Index partner = kNoIndex;              // pair events
  std::uint32_t partner_counter = 0;     // partner's counter at prediction
  // The owner's counter at prediction. Tie keys are built from the stored
  // counters, never from live ones: an event's key must not change while
  // it sits in the heap (between a group's velocity change and the
  // re-prediction of its members, live counters have moved on, and a heap
  // sifted with such keys can hand out simultaneous events out of order).
  std::uint32_t counter = 0;
  std::uint32_t partner_stamp = 0;       // partner's stamp at prediction (validity)
  EventKind kind = EventKind::none;
  std::uint8_t detail = 0;               // sector crossing: axis | (upward << 2)
};

// What a sector crossing's prediction saw besides the crossings: its
// earliest other candidate (docs/engine.md, "A crossing looks ahead only").
// `unknown` when the prediction did not record it; `none` when that
// candidate needs no check (there was none, or it is an event of the
// particle alone, predicted again from the particle's unchanged record);
// `pair` names the partner, its stamp at prediction and the event's kind.
struct RunnerUp {
  enum class State : std::uint8_t { unknown, none, pair };
  State state = State::unknown;
  EventKind kind = EventKind::none;
  Index partner = kNoIndex;
  std::uint32_t partner_stamp = 0;
};

class ParticleCalendar {
 public:
  // `tie_break(context, a, b, time)` orders the events of particles a and
  // b, both at `time` (priority, then tie key). It must not look the time
  // up in the calendar: while a node is being sifted its slot is not yet
  // final. A plain function pointer: it sits in the heap's inner loop.
  using TieBreak = bool (*)(const void* context, Index a, Index b, double time);
  // `order_prefix(context, a, time)`: a 32-bit prefix of the same order for
  // particle a's event at `time`, with its top bit set: where two prefixes
  // differ they order the events as tie_break does; where they are equal
  // tie_break decides. Computed once per node, when it first ties.
  using OrderPrefix = std::uint32_t (*)(const void* context, Index a, double time);

  // Room for `spare` more particles is reserved (not touched): see
  // Engine's spare_slots.
  void reset(std::size_t particles, std::size_t spare, TieBreak tie_break, OrderPrefix order_prefix,
             const void* context);
  // Grows or shrinks the per-particle tables (particles beyond the new size
  // must not be scheduled).
  void resize(std::size_t particles);
  // Sets (or replaces) a particle's event; kInfinity time removes it. A
  // sector crossing keeps `runner_up` (in the fields a crossing, an event of
  // the particle alone, leaves unused: no byte more per particle).
  void set(Index particle, const ParticleEvent& event, const RunnerUp& runner_up = {});
  void remove(Index particle);
  // The near heap is never empty while anything is scheduled.
  bool empty() const { return heap_.size() == kPad; }
  Index top() const { return heap_[kPad].particle; }
  double top_time() const { return heap_[kPad].time; }
  ParticleEvent event(Index particle) const {
    const Place& p = place_[particle];
    return event_at(particle, p.where == kNoIndex ? kInfinity : p.time);
  }
  // The particle's event with its time given by the caller.
  ParticleEvent event_at(Index particle, double time) const {
    const Stored& s = events_[particle];
    if (s.kind == EventKind::sector_crossing) return {time, kNoIndex, 0, s.counter, 0, s.kind, s.detail};
    return {time, s.partner, s.partner_counter, s.counter, s.partner_stamp, s.kind, s.detail};
  }
  // The particle whose event is likely the next one: the top's earliest
  // child in the near heap, which becomes the top once the top's event is
  // replaced by a later one; kNoIndex when the heap holds one event. A
  // hint for prefetching only (a node of one cache line, no miss).
  Index likely_next() const {
    const std::size_t n = size();
    if (n < 2) return kNoIndex;
    std::size_t best = 1;
    for (std::size_t k = 2; k <= 4 && k < n; ++k) {
      if (node(k).time < node(best).time) best = k;
    }
    return node(best).particle;
  }
  // Starts loading a particle's stored event (a hint).
  void prefetch_event(Index particle) const { __builtin_prefetch(&events_[particle]); }
  // The partner of a particle's stored event, read whether or not it is
  // scheduled (a hint for prefetching: it may be stale or kNoIndex).
  Index stored_partner(Index particle) const { return events_[particle].partner; }
  // A scheduled sector crossing's runner-up (else unknown).
  RunnerUp runner_up(Index particle) const {
    const Stored& s = events_[particle];
    if (s.kind != EventKind::sector_crossing || place_[particle].where == kNoIndex) return {};
    const auto state = static_cast<RunnerUp::State>(s.partner_counter >> 8);
    return {state, static_cast<EventKind>(s.partner_counter & 0xff), s.partner, s.partner_stamp};
  }
  std::size_t memory_bytes() const;
  // Appends every particle whose event comes before `time` (in no
  // particular order): a walk of the near heap that stops below any node
  // at or after it, then of the lists of the buckets `time` can be in or
  // after, so it costs about the number found, not the calendar's size.
  void particles_before(double time, std::vector<Index>& out) const;
  // Renumbers particles (new_index[old]); the heap's shape is kept.
  void renumber(std::span<const Index> new_index);
  // How the events are spread now (for tests and profiles).
  std::size_t near_events() const { return size(); }
  std::size_t buckets() const { return buckets_; }

 private:
  struct Node {
    double time = kInfinity;
    Index particle = kNoIndex;
    // The event's order prefix (OrderPrefix), 0 until the node first ties
    // on time. Many events share an instant on a membrane (taut tethers
    // at a gravity tick): comparing them through tie keys, two hashes per
    // comparison, took a tenth of a sheet's run. The slot was padding.
    std::uint32_t prefix = 0;
  };
  static_assert(sizeof(Node) == 16);
  // An event without its time.
  struct Stored {
    Index partner = kNoIndex;
    std::uint32_t partner_counter = 0;
    std::uint32_t counter = 0;
    std::uint32_t partner_stamp = 0;
    EventKind kind = EventKind::none;
    std::uint8_t detail = 0;
  };
  // A particle's event's time and where it is: `where` is its near-heap
  // node, or kListed plus its bucket (`buckets_` is the overflow), or
  // kNoIndex when nothing is scheduled; `next` links it into its bucket's
  // list (and prev_ back). What a bucket's move into the near heap reads,
  // in one 16-byte record: a list is walked one particle after another,
  // and each step is a memory miss at a million particles.
  struct Place {
    double time = kInfinity;
    std::uint32_t where = kNoIndex;
    Index next = kNoIndex;
  };
  static_assert(sizeof(Place) == 16);
  static constexpr std::uint32_t kListed = std::uint32_t{1} << 31;
  // Heap node k (root 0, children 4k+1 .. 4k+4) lives at heap_[k + kPad]:
  // with 64-byte aligned storage the children 4k+1 .. 4k+4 sit at
  // 4(k+1) .. 4(k+1)+3, one cache line.
  static constexpr std::size_t kPad = 3;
  bool less(Node& a, Node& b) const { return a.time < b.time || (a.time == b.time && tied_less(a, b)); }
  // Two events at one instant. Caches the prefixes it computes in the nodes
  // it is given. Out of line: the sifting loops stay as tight as without.
  [[gnu::noinline]] bool tied_less(Node& a, Node& b) const;
  std::size_t size() const { return heap_.size() - kPad; }
  Node& node(std::size_t k) { return heap_[k + kPad]; }
  const Node& node(std::size_t k) const { return heap_[k + kPad]; }
  void sift_up(std::size_t k);
  void sift_down(std::size_t k);
  void place(std::size_t k, const Node& n) {
    node(k) = n;
    place_[n.particle].where = static_cast<std::uint32_t>(k);
  }

  // The bucket of a time: 0 for anything before the base, `buckets_` (the
  // overflow) past the last; monotone in `time`.
  std::size_t bucket_of(double time) const {
    if (buckets_ == 0) return 0;
    const double x = (time - base_) * inv_width_;
    if (!(x < static_cast<double>(buckets_))) return buckets_;
    return x > 0.0 ? static_cast<std::size_t>(x) : 0;
  }
  // Files a scheduled particle (its time set, not filed yet) in the heap or
  // a list.
  void file(Index particle);
  void unfile(Index particle);
  void push_near(Index particle);
  void pop_near(std::size_t k);
  void link(Index particle, std::size_t bucket);
  void unlink(Index particle);
  // Refills an empty near heap from the next non-empty bucket (laying the
  // buckets out again when only the overflow is left), and lays them out
  // again when the near heap has grown large for long (a width estimated
  // badly, or a change of pace).
  void settle();
  void lay_out();
  // One step along the next bucket's list, fetching the particle it reaches
  // into the cache: by the time the near heap empties, the list is walked
  // from cache instead of one memory miss after another. A hint only: a
  // step from a particle moved meanwhile goes astray harmlessly.
  void look_ahead() {
    if (ahead_ >= place_.size()) return;
    ahead_ = place_[ahead_].next;
    if (ahead_ < place_.size()) __builtin_prefetch(&place_[ahead_]);
  }

  BigVector<Stored> events_;
  BigVector<Place> place_;
  BigVector<Index> prev_;  // the previous particle in a bucket's list
  BigVector<Node> heap_ = BigVector<Node>(kPad, Node{});
  std::vector<Index> heads_;  // per bucket, then the overflow: the first listed
  double base_ = 0.0;
  double inv_width_ = 0.0;
  std::size_t buckets_ = 0;       // 0: not laid out, everything in the near heap
  std::size_t loaded_ = 0;        // buckets up to this one are in the near heap
  std::size_t listed_ = 0;        // events in the lists (overflow included)
  std::size_t scheduled_ = 0;     // events in all
  std::size_t changes_since_lay_out_ = 0;
  std::size_t scheduled_at_lay_out_ = 0;
  Index ahead_ = kNoIndex;  // look_ahead's place in the next bucket's list
  TieBreak tie_break_ = nullptr;
  OrderPrefix order_prefix_ = nullptr;
  const void* tie_context_ = nullptr;
};

}  // namespace tethersim::engine
