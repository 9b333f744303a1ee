#pragma once
// The roles a partial view of the system gives each particle it holds. A
// serial engine holds every particle, all of them active and owned. A
// distributed run's engine (decomposition/) holds a rank's own particles and
// its halo, and says which have events in the current window (active: the
// others are frozen, with no events, no restitutions and no periodic
// impulses), whose events are counted here (owned: an event is counted by
// the owner of its lowest-id participant in the sector grid, so totals over
// ranks equal a serial run's), and which slots are empty (removed: the
// particle left this view; the slot is reused after the next renumbering).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "tethersim/engine/big_vector.hpp"
#include "tethersim/engine/particle_store.hpp"
#include "tethersim/engine/permute.hpp"

namespace tethersim::engine {

class ParticleRoles {
 public:
  // `n` particles, all active and owned.
  void assign(std::size_t n) {
    role_.assign(n, kActive | kOwned);
    uniform_ = true;
  }
  // Every particle is active and owned, as in a serial run, until a role
  // changes: the per-event checks then skip the table (a cache miss per
  // partner at a million particles).
  bool uniform() const { return uniform_; }
  bool active(Index i) const { return uniform_ || (role_[i] & kActive) != 0; }
  bool owned(Index i) const { return uniform_ || (role_[i] & kOwned) != 0; }
  bool removed(Index i) const { return (role_[i] & kRemoved) != 0; }
  void prefetch(Index i) const {
    if (!uniform_) __builtin_prefetch(&role_[i]);
  }

  void set_owned(Index i, bool owned) {
    if (!owned) uniform_ = false;
    role_[i] = static_cast<std::uint8_t>(owned ? (role_[i] | kOwned) : (role_[i] & ~kOwned));
  }
  // False when the particle already had that activity.
  bool set_active(Index i, bool active) {
    if (!active) uniform_ = false;
    if (this->active(i) == active) return false;
    role_[i] ^= kActive;
    return true;
  }
  // A new slot: frozen and not owned.
  void append() {
    append_gently(role_, 0);
    uniform_ = false;
  }
  // A record was stored in the slot (a particle held again keeps the
  // activity and ownership its slot had).
  void mark_held(Index i) { role_[i] = static_cast<std::uint8_t>(role_[i] & ~kRemoved); }
  // The particle left this view: frozen, not owned, its slot empty.
  void mark_removed(Index i) {
    role_[i] = kRemoved;
    uniform_ = false;
  }

  // Particle i becomes new_index[i]; slots from `kept` on are dropped.
  void renumber(std::span<const Index> new_index, std::size_t kept, std::vector<bool>& done) {
    permute(role_, new_index, done);
    if (kept < role_.size()) role_.resize(kept);
  }
  std::size_t memory_bytes() const { return role_.capacity(); }

 private:
  static constexpr std::uint8_t kActive = 1;
  static constexpr std::uint8_t kOwned = 2;
  static constexpr std::uint8_t kRemoved = 4;
  BigVector<std::uint8_t> role_;
  bool uniform_ = true;
};

}  // namespace tethersim::engine
