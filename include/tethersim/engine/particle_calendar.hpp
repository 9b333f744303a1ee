#pragma once
// The calendar of per-particle events: each mobile particle holds its one
// earliest predicted event, and an indexed 4-ary min-heap orders them.
// Events whose partner changed since the prediction are detected when they
// reach the top (lazy invalidation by per-particle counters).
//
// The heap's nodes are 16 bytes and it starts kPad slots into its storage,
// so the four children of a node share one 64-byte cache line: sifting
// down a million-event heap then costs one memory miss per level, not two.

#include <cstdint>
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
  // must not be in the heap).
  void resize(std::size_t particles);
  // Sets (or replaces) a particle's event; kInfinity time removes it.
  void set(Index particle, const ParticleEvent& event);
  void remove(Index particle);
  bool empty() const { return heap_.size() == kPad; }
  Index top() const { return heap_[kPad].particle; }
  double top_time() const { return heap_[kPad].time; }
  ParticleEvent event(Index particle) const {
    const std::uint32_t at = position_[particle];
    return event_at(particle, at == kNoIndex ? kInfinity : node(at).time);
  }
  // The particle's event with its time given by the caller.
  ParticleEvent event_at(Index particle, double time) const {
    const Stored& s = events_[particle];
    return {time, s.partner, s.partner_counter, s.counter, s.partner_stamp, s.kind, s.detail};
  }
  std::size_t memory_bytes() const;
  // Appends every particle whose event comes before `time` (in heap order):
  // a walk of the heap that stops below any node at or after it, so it
  // costs the number found, not the calendar's size.
  void particles_before(double time, std::vector<Index>& out) const;
  // Renumbers particles (new_index[old]); the heap's shape is kept.
  void renumber(const std::vector<Index>& new_index);

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
  // An event without its time, which lives in the heap node only.
  struct Stored {
    Index partner = kNoIndex;
    std::uint32_t partner_counter = 0;
    std::uint32_t counter = 0;
    std::uint32_t partner_stamp = 0;
    EventKind kind = EventKind::none;
    std::uint8_t detail = 0;
  };
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
    position_[n.particle] = static_cast<std::uint32_t>(k);
  }

  BigVector<Stored> events_;
  BigVector<Node> heap_ = BigVector<Node>(kPad, Node{});
  BigVector<std::uint32_t> position_;  // heap node, kNoIndex = not in the heap
  TieBreak tie_break_ = nullptr;
  OrderPrefix order_prefix_ = nullptr;
  const void* tie_context_ = nullptr;
};

}  // namespace tethersim::engine
