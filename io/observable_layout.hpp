#pragma once
// The observables a run samples, under the names they have in both files
// that hold them: trajectory.h5 (/observables/<name>) and
// observables.jsonl (one key each). One list, so the two cannot drift
// apart (private to io/).

#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "tethersim/engine/event_kind.hpp"
#include "tethersim/model/model.hpp"

namespace tethersim::io_detail {

// (name, columns) in file order; 0 columns is a scalar per sample.
std::vector<std::pair<std::string, std::size_t>> observable_layout(const Model& model);

// The columns of event_counts: the event kinds in the engine's order.
inline constexpr const auto& kEventCountColumns = engine::kEventKindNames;

}  // namespace tethersim::io_detail
