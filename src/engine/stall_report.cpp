#include "tethersim/engine/stall_report.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <utility>
#include <vector>

namespace tethersim::engine {

namespace {
// Enough names to find the culprits, few enough for one line.
constexpr std::size_t kParticlesNamed = 8;
}  // namespace

std::string describe_stall(Engine& engine, double end, std::uint64_t samples) {
  std::array<std::uint64_t, kEventKindCount> kinds{};
  std::map<ParticleId, std::pair<std::uint64_t, SpeciesIndex>> involved;
  auto note = [&](Index i) {
    if (i == kNoIndex) return;
    auto& entry = involved[engine.particles().id[i]];
    ++entry.first;
    entry.second = engine.particles().state[i].species;
  };
  for (std::uint64_t k = 0; k < samples; ++k) {
    if (engine.run_until(end, 1)) break;
    const Engine::EventTrace& t = engine.last_event();
    if (t.kind == EventKind::none) continue;
    ++kinds[static_cast<std::size_t>(t.kind)];
    note(t.a);
    note(t.b);
  }
  std::string text;
  for (std::size_t k = 0; k < kEventKindCount; ++k) {
    if (kinds[k] == 0) continue;
    text += (text.empty() ? "" : ", ") + std::string(to_string(static_cast<EventKind>(k))) + " " +
            std::to_string(kinds[k]);
  }
  if (text.empty()) return "no events";
  std::vector<std::pair<std::uint64_t, ParticleId>> ranked;
  for (const auto& [id, entry] : involved) ranked.emplace_back(entry.first, id);
  // Most involved first; ties by id, so the text is reproducible.
  std::sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first > y.first : x.second < y.second;
  });
  if (!ranked.empty()) text += " among particles";
  for (std::size_t k = 0; k < ranked.size() && k < kParticlesNamed; ++k) {
    const ParticleId id = ranked[k].second;
    text += (k == 0 ? " " : ", ") + std::to_string(id) + " (" +
            engine.model().species(involved[id].second).name + ")";
  }
  if (ranked.size() > kParticlesNamed) text += " and " + std::to_string(ranked.size() - kParticlesNamed) + " more";
  return text;
}

std::string stall_message(const StallWatch& watch, Engine& engine, double end) {
  char head[160];
  std::snprintf(head, sizeof head, "%llu events without simulated time advancing at t = %.17g: ",
                static_cast<unsigned long long>(watch.events_since()), watch.stuck_at());
  return head + describe_stall(engine, end);
}

}  // namespace tethersim::engine
