#pragma once
// Particle records kept for an undo (a window's undo log and journal), in
// the order they were saved. Most particles have no links (no tethers, no
// loaded edges, no reaction times): their record is kept as its particle
// state alone, 112 bytes against a ParticleRecord's 176, and the others
// keep their links beside. Saving is on every event's path, so what it
// writes matters (private to src/engine).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tethersim/engine/snapshot.hpp"

namespace tethersim::engine {

class SavedRecords {
 public:
  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }

  // A particle without links (its record's lists all empty).
  void push(const ParticleSnapshot& particle) { entries_.push_back({particle, kNoLinks}); }
  // Any particle.
  void push(ParticleRecord&& record) {
    if (record.reaction_times.empty() && record.tethers.empty() && record.loaded_edges.empty()) {
      push(record.particle);
      return;
    }
    entries_.push_back({record.particle, static_cast<std::uint32_t>(links_.size())});
    links_.push_back({std::move(record.reaction_times), std::move(record.tethers), std::move(record.loaded_edges)});
  }

  const ParticleSnapshot& particle(std::size_t k) const { return entries_[k].particle; }
  // Whether the k-th record lists a tether to `id`.
  bool tethered_to(std::size_t k, ParticleId id) const {
    if (entries_[k].links == kNoLinks) return false;
    const std::vector<ParticleId>& tethers = links_[entries_[k].links].tethers;
    return std::find(tethers.begin(), tethers.end(), id) != tethers.end();
  }
  // The k-th record, whole.
  ParticleRecord record(std::size_t k) const {
    ParticleRecord r;
    r.particle = entries_[k].particle;
    if (entries_[k].links != kNoLinks) {
      const Links& l = links_[entries_[k].links];
      r.reaction_times = l.reaction_times;
      r.tethers = l.tethers;
      r.loaded_edges = l.loaded_edges;
    }
    return r;
  }

  // Keeps the first `count` (links are saved in entry order, so the first
  // dropped entry with links says where theirs begin).
  void keep_first(std::size_t count) {
    for (std::size_t k = count; k < entries_.size(); ++k) {
      if (entries_[k].links != kNoLinks) {
        links_.resize(entries_[k].links);
        break;
      }
    }
    entries_.resize(count);
  }
  // Empties it and keeps the storage.
  void clear() {
    entries_.clear();
    links_.clear();
  }
  void release() {
    std::vector<Entry>().swap(entries_);
    std::vector<Links>().swap(links_);
  }
  // The lists' own elements are left out (walking them would cost a pass).
  std::size_t bytes() const { return entries_.capacity() * sizeof(Entry) + links_.capacity() * sizeof(Links); }

 private:
  static constexpr std::uint32_t kNoLinks = 0xffffffffu;
  struct Entry {
    ParticleSnapshot particle;
    std::uint32_t links;  // its place in links_, or kNoLinks
  };
  struct Links {
    std::vector<double> reaction_times;
    std::vector<ParticleId> tethers;
    std::vector<LoadedEdgeSnapshot> loaded_edges;
  };
  std::vector<Entry> entries_;
  std::vector<Links> links_;
};

}  // namespace tethersim::engine
