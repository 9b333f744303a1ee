#pragma once
// The running best of one particle's prediction: every event source offers
// its candidates here (event_sources.hpp), and the earliest in the total
// event order wins. Inline: the blocking source offers dozens of pairs per
// prediction.
#include "pair_offers.hpp"
#include "pair_time.hpp"
#include "tethersim/engine/engine.hpp"

namespace tethersim::engine {

class Engine::Candidates {
 public:
  // Every candidate carries the owner's counter (its tie key's).
  Candidates(const Engine& engine, Index owner) : engine_(engine), owner_(owner) {
    // Each set in place (see place).
    const std::uint32_t counter = engine.particles_.counter[owner];
    blank_.counter = counter;
    best_.counter = counter;
    crossing_.counter = counter;
  }

  // One of particles predicted together (pair_offers.hpp): the running
  // best starts from what earlier ones offered, and pairs are shared.
  Candidates(const Engine& engine, Index owner, PairOffers& offers) : Candidates(engine, owner) {
    if (!offers.shares(owner)) return;
    offers_ = &offers;
    const ParticleEvent offered = offers.take(owner);
    if (offered.time != kInfinity) best_ = offered;
  }

  // An event of the owner alone. Sector crossings run apart from the rest,
  // so that the earliest of the rest is known when a crossing wins (its
  // runner-up).
  void single(double time, EventKind kind, std::uint8_t detail = 0) {
    ParticleEvent& kept = kind == EventKind::sector_crossing ? crossing_ : best_;
    // An earlier event is written in place (see place); only an exact tie
    // needs the whole event and the total order.
    if (time < kept.time) {
      place(kept, time, kNoIndex, kind, detail);
      if (&kept == &best_) best_counter_read_ = true;
      return;
    }
    if (time != kept.time || time == kInfinity) return;
    ParticleEvent e = blank_;
    e.time = time;
    e.kind = kind;
    e.detail = detail;
    if (kind == EventKind::sector_crossing) {
      if (precedes(e, crossing_)) crossing_ = e;
      return;
    }
    consider(e);
  }

  // A pair event with j, whose periodic image is `shift` away, at contact
  // distance `distance`.
  void pair(Index j, const Vec3& shift, double distance, EventKind kind) {
    PairOffers::Share share = PairOffers::Share::alone;
    if (offers_ != nullptr) [[unlikely]] {
      share = offers_->share(owner_, j);
      if (share == PairOffers::Share::offered) return;
    }
    const double t = engine_.pair_time(owner_, j, shift, distance, kind);
    if (share == PairOffers::Share::offer) offers_->offer(j, owner_, t, kind);
    if (t > best_.time || t == kInfinity) return;
    if (t < best_.time) {
      place(best_, t, j, kind, 0);
      best_counter_read_ = false;
      // Read at the end (read_best_counter): separate arrays, a memory
      // miss each on a large system unless asked for now.
      __builtin_prefetch(&engine_.particles_.counter[j]);
      __builtin_prefetch(&engine_.particles_.stamp[j]);
      return;
    }
    ParticleEvent e = blank_;
    e.time = t;
    e.partner = j;
    e.kind = kind;
    e.partner_counter = engine_.particles_.counter[j];
    e.partner_stamp = engine_.particles_.stamp[j];
    consider(e);
  }

  // Whether the walk is to note its pairs' clearance (tick_clearance.hpp),
  // and the earliest clearance time of the pairs it tested.
  void want_clearance() { wants_clearance_ = true; }
  bool wants_clearance() const { return wants_clearance_; }
  void clear_until(double t) { clearance_ = std::min(clearance_, t); }
  double clearance() const { return clearance_; }

  Index owner() const { return owner_; }

  // The earliest event offered (time kInfinity: none). A reference, read
  // field by field by the calendar: a copy's wide loads would wait for the
  // small stores that wrote it (place).
  const ParticleEvent& best() {
    read_best_counter();
    return crossing_wins() ? crossing_ : best_;
  }

  // When best() is a sector crossing, the earliest other candidate (a
  // pair's partner and stamp, or none to check); else unknown.
  RunnerUp runner_up() {
    if (!crossing_wins()) return {};
    if (best_.time == kInfinity || best_.partner == kNoIndex) return {RunnerUp::State::none};
    return {RunnerUp::State::pair, best_.kind, best_.partner, best_.partner_stamp};
  }

 private:
  // The winner's partner counter is read once at the end; on an exact tie
  // (which needs the counters for the tie keys) it is read on the spot.
  void read_best_counter() {
    if (!best_counter_read_) {
      best_.partner_counter = engine_.particles_.counter[best_.partner];
      best_.partner_stamp = engine_.particles_.stamp[best_.partner];
      best_counter_read_ = true;
    }
  }

  // Writes an event over `kept` field by field. Building it in a temporary
  // from small stores and copying it whole made the copy's wide loads wait
  // for those stores to drain (a failed store-to-load forwarding each time:
  // a quarter of the boundary source's time on the gas of 10^4). The
  // result is the same event, the blank's counter and no partner counter
  // or stamp (read at the end for a pair, read_best_counter).
  void place(ParticleEvent& kept, double time, Index partner, EventKind kind, std::uint8_t detail) {
    kept.time = time;
    kept.partner = partner;
    kept.partner_counter = 0;
    kept.counter = blank_.counter;
    kept.partner_stamp = 0;
    kept.kind = kind;
    kept.detail = detail;
  }

  // Whether a comes before b in the total event order (both with their
  // counters read when their times are equal).
  bool precedes(const ParticleEvent& a, const ParticleEvent& b) const {
    if (a.time != b.time) return a.time < b.time;
    return a.time != kInfinity && engine_.event_precedes(owner_, a, owner_, b);
  }

  void consider(const ParticleEvent& e) {
    if (e.time == best_.time) read_best_counter();
    if (precedes(e, best_)) {
      best_ = e;
      best_counter_read_ = true;
    }
  }

  bool crossing_wins() {
    read_best_counter();
    return precedes(crossing_, best_);
  }

  const Engine& engine_;
  const Index owner_;
  PairOffers* offers_ = nullptr;
  ParticleEvent blank_;
  ParticleEvent best_;  // the earliest but sector crossings
  ParticleEvent crossing_;  // the earliest sector crossing
  bool best_counter_read_ = true;
  bool wants_clearance_ = false;
  double clearance_ = kInfinity;
};

}  // namespace tethersim::engine
