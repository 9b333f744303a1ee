// Speculation in segments: a stack of windows, each undoable from any time
// inside it, so that a process running ahead of its neighbours can undo its
// events from any time above a committed floor, as often as it must, and
// free what lies below the floor (docs/owner-computes.md, "Rollback").
#include <stdexcept>
#include <string>

#include "owner_computes_state.hpp"
#include "speculation_state.hpp"

namespace tethersim::engine {

namespace {
constexpr std::size_t kMostSpareSegments = 64;
}  // namespace

void Engine::begin_segments(std::size_t instants_per_segment) {
  if (instants_per_segment == 0) throw std::invalid_argument("a segment holds at least one instant");
  if (speculation_) throw std::logic_error("a speculative window is already open");
  if (!changes_.tracking()) throw std::logic_error("segments need change tracking");
  if (!changes_.empty()) throw std::logic_error("segments must start with no change pending");
  // No renumbering here: the slots are named by every segment until the
  // segments end (keep_speculation).
  segments_ = Segments{};
  segments_.instants = instants_per_segment;
  segments_.committed = clock_;
  speculation_ = open_segment_state();
}

std::unique_ptr<Engine::SpeculationState> Engine::open_segment_state() {
  std::unique_ptr<SpeculationState> reuse;
  if (!segments_.spares.empty()) {
    reuse = std::move(segments_.spares.back());
    segments_.spares.pop_back();
  }
  std::unique_ptr<SpeculationState> s = open_speculation_state(std::move(reuse));
  s->histories = false;
  return s;
}

void Engine::start_segment(double t) {
  // The open segment's part of the change set goes with it; the new one
  // starts with an empty change set, parallel to its empty undo log.
  speculation_->frozen_changes = changes_.take();
  std::unique_ptr<SpeculationState> next = open_segment_state();
  // Undoing the whole segment rebuilds the global calendar from t: every
  // transition before t ran in an older segment.
  next->log.start = t;
  segments_.frozen.push_back(std::move(speculation_));
  speculation_ = std::move(next);
  segments_.due = false;
}

void Engine::undo_segments_from(double t) {
  if (segments_.instants == 0) throw std::logic_error("not in segments");
  if (t < segments_.committed) {
    throw std::logic_error("undo from " + std::to_string(t) + " below the committed floor " +
                           std::to_string(segments_.committed));
  }
  // Segments whose events are all at or after t go whole, newest first;
  // the one holding an earlier event is undone from t inside.
  while (speculation_->first_time >= t) {
    undo_speculation();  // clears the change set with the segment
    if (segments_.frozen.empty()) {
      // The oldest went too: a fresh segment from here.
      speculation_ = open_segment_state();
      return;
    }
    speculation_ = std::move(segments_.frozen.back());
    segments_.frozen.pop_back();
    changes_.restore(speculation_->frozen_changes);
    std::vector<ChangeSet::Change>().swap(speculation_->frozen_changes);
  }
  // A segment begins at every periodic impulse and action-potential
  // transition, and never drops its journal, so this cannot refuse.
  if (!undo_speculation_from(t)) throw std::logic_error("a segment refused an undo from inside it");
}

void Engine::commit_segments_before(double t) {
  if (segments_.instants == 0) throw std::logic_error("not in segments");
  segments_.committed = std::max(segments_.committed, t);
  // A frozen segment's events end where its successor's begin.
  std::size_t done = 0;
  while (done < segments_.frozen.size()) {
    const SpeculationState& next =
        done + 1 < segments_.frozen.size() ? *segments_.frozen[done + 1] : *speculation_;
    if (next.first_time > segments_.committed) break;
    ++done;
  }
  // The freed segments' storage serves the next segments (as many as
  // stood above the floor at once, at most kMostSpareSegments).
  for (std::size_t k = 0; k < done && segments_.spares.size() < kMostSpareSegments; ++k) {
    segments_.spares.push_back(std::move(segments_.frozen[k]));
  }
  segments_.frozen.erase(segments_.frozen.begin(), segments_.frozen.begin() + static_cast<std::ptrdiff_t>(done));
}

void Engine::drop_segments() {
  if (segments_.instants == 0) throw std::logic_error("not in segments");
  const auto spare = [&](std::unique_ptr<SpeculationState> s) {
    if (s && segments_.spares.size() < kMostSpareSegments) segments_.spares.push_back(std::move(s));
  };
  for (auto& frozen : segments_.frozen) spare(std::move(frozen));
  segments_.frozen.clear();
  spare(std::move(speculation_));
  segments_.due = false;
  clear_changes();  // it ran parallel to the open segment's undo log
}

std::size_t Engine::segment_count() const {
  return segments_.instants == 0 ? 0 : segments_.frozen.size() + 1;
}

}  // namespace tethersim::engine
