#include "tethersim/engine/sparse_sector_heads.hpp"

#include <algorithm>
#include <bit>
#include <limits>

namespace tethersim::engine {

void SparseSectorHeads::reset(std::size_t capacity) {
  keys_.assign(capacity, kFree);
  heads_.assign(capacity, kNoIndex);
  mask_ = capacity - 1;
  shift_ = 64 - std::countr_zero(capacity);
  size_ = 0;
}

void SparseSectorHeads::grow() { rebuild(2 * keys_.size()); }

void SparseSectorHeads::rebuild(std::size_t capacity) {
  // Fibonacci hashing first, the next multiplier while the entries sit
  // further from home than a random hash would leave them, and the
  // folded key last; if none does that well, the one that did best.
  // Decided again at every growth, because the same keys can crowd at one
  // table size and spread perfectly at the next (linear_probing.hpp).
  // Small tables stay with the first: a few entries far from home cost
  // nothing there, and chance alone crowds them.
  std::size_t best = 0;
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t choice = 0; choice < kChoices; ++choice) {
    rehash(capacity, choice);
    if (size_ < kJudgedFrom) return;
    const double displacement = mean_displacement();
    const double fill = static_cast<double>(size_) / static_cast<double>(capacity);
    if (displacement <= probing::random_mean_displacement(fill)) return;
    if (displacement < least) {
      best = choice;
      least = displacement;
    }
  }
  if (best != kChoices - 1) rehash(capacity, best);  // the last one tried is in place
}

void SparseSectorHeads::rehash(std::size_t capacity, std::size_t choice) {
  std::vector<std::uint32_t> keys = std::move(keys_);
  std::vector<Index> heads = std::move(heads_);
  choose(choice);
  reset(capacity);
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (keys[k] != kFree) head(keys[k]) = heads[k];
  }
}

double SparseSectorHeads::mean_displacement() const {
  if (size_ == 0) return 0.0;
  std::size_t displaced = 0;
  for (std::size_t slot = 0; slot < keys_.size(); ++slot) {
    if (keys_[slot] != kFree) displaced += (slot - home(keys_[slot])) & mask_;
  }
  return static_cast<double>(displaced) / static_cast<double>(size_);
}

Index& SparseSectorHeads::head(std::uint32_t sector) {
  // Keys are 4 bytes, 16 to a cache line, so a probe run stays within a
  // line or two; at most half full, the heads of a membrane of 2x10^6 took
  // 17 bytes per particle, 8 more than at 70%.
  if (probing::over_full(size_ + 1, keys_.size())) grow();
  std::size_t slot = home(sector);
  for (; keys_[slot] != kFree; slot = (slot + 1) & mask_) {
    if (keys_[slot] == sector) return heads_[slot];
  }
  keys_[slot] = sector;
  heads_[slot] = kNoIndex;
  ++size_;
  return heads_[slot];
}

void SparseSectorHeads::erase(std::uint32_t sector) {
  std::size_t hole = home(sector);
  while (keys_[hole] != sector) {
    if (keys_[hole] == kFree) return;
    hole = (hole + 1) & mask_;
  }
  // Backward shift: later entries of the run move into the hole.
  for (std::size_t next = (hole + 1) & mask_; keys_[next] != kFree; next = (next + 1) & mask_) {
    if (probing::stays(hole, home(keys_[next]), next)) continue;
    keys_[hole] = keys_[next];
    heads_[hole] = heads_[next];
    hole = next;
  }
  keys_[hole] = kFree;
  heads_[hole] = kNoIndex;
  --size_;
}

std::vector<std::uint32_t> SparseSectorHeads::sectors() const {
  std::vector<std::uint32_t> out;
  out.reserve(size_);
  for (std::uint32_t key : keys_) {
    if (key != kFree) out.push_back(key);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tethersim::engine
