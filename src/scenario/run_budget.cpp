#include "tethersim/scenario/run_budget.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>

#include "tethersim/model/number_format.hpp"

namespace tethersim::scenario {

namespace {

// One schedule's count over the run and what it costs.
struct Schedule {
  std::string key;       // the setting that makes the count
  double interval = 0;   // its value
  double count = 0;      // how many over the run
  std::string what;      // "frames", "impulse ticks", ...
  double particles = 0;  // particles each one touches (0: none known)
  double bytes = 0;      // what they write to disk in all (0: nothing that accumulates)
};

std::string count_text(double x) {
  return std::isinf(x) ? "more than 1.8e+308" : format_estimate(x);
}

// A particle count as it is (10976, not 1.1e+04): it is known exactly.
std::string particles_text(double n) {
  return n < 1e15 ? std::to_string(static_cast<std::uint64_t>(n)) : format_estimate(n);
}

// "KEY: 1e-300 makes 2e+301 frames to the end time 20, of 10976 particles
// each"; the start of every message about a schedule.
std::string describe(const Schedule& s, double end_time) {
  std::string text = format_number(s.interval) + " makes " + count_text(s.count) + " " + s.what +
                     " to the end time " + format_number(end_time);
  if (s.particles > 0) {
    text += ", of " + particles_text(s.particles) + (s.particles == 1 ? " particle" : " particles") + " each";
  }
  return text;
}

double updates_of(const Schedule& s) { return s.count * std::max(1.0, s.particles); }

// The first problem of a schedule, or its warnings.
void assess(const Schedule& s, double end_time, double free_disk, RunBudget& budget) {
  const double updates = updates_of(s);
  const std::string head = describe(s, end_time);
  if (!(updates <= kMaxRunUpdates)) {
    budget.refusal = ModelProblem{
        s.key, head + ": " + count_text(updates) + " particle updates; no run can do more than " +
                   format_estimate(kMaxRunUpdates) +
                   " (over 30 years at 10^9 a second): make the interval longer"};
    return;
  }
  // The fixed bound first: its message is the same on every machine.
  const bool beyond_bound = s.bytes > kMaxOutputBytes;
  if (beyond_bound || (free_disk > 0 && s.bytes > free_disk)) {
    budget.refusal = ModelProblem{
        s.key, head + ": at least " + count_text(s.bytes) + " bytes, more than " +
                   (beyond_bound ? "the " + format_estimate(kMaxOutputBytes) + " bytes (1 PiB) a run may write"
                                 : "the " + format_estimate(free_disk) + " bytes free where the output goes") +
                   ": make the interval longer"};
    return;
  }
  if (updates > kLargeRunUpdates) {
    budget.warnings.push_back({s.key, head + ": " + format_estimate(updates) +
                                          " particle updates, more than " +
                                          format_estimate(kLargeRunUpdates) +
                                          " (hours or days of running)"});
  }
  if (s.bytes > kLargeOutputBytes || (free_disk > 0 && s.bytes > free_disk / 2)) {
    std::string where = free_disk > 0 ? " (" + format_estimate(free_disk) + " bytes free)" : "";
    budget.warnings.push_back({s.key, head + ": at least " + format_estimate(s.bytes) +
                                          " bytes" + where});
  }
}

// Times 0, interval, 2 interval, ... up to and including the end time.
double grid_count(double end_time, double interval) { return std::floor(end_time / interval) + 1.0; }

double count_of(const std::vector<std::size_t>& counts, const std::vector<bool>& species) {
  double n = 0;
  for (std::size_t s = 0; s < counts.size() && s < species.size(); ++s) {
    if (species[s]) n += static_cast<double>(counts[s]);
  }
  return n;
}

std::vector<Schedule> schedules(const Model& model, const std::vector<std::size_t>& counts) {
  const OutputSettings& out = model.output();
  const double end = model.end_time();
  const std::vector<bool> every(model.species().size(), true);
  const double all = count_of(counts, every);
  std::vector<Schedule> list;
  if (!is_infinite(out.frame_interval)) {
    std::vector<bool> kept = every;
    if (!out.frame_species.empty()) {
      kept.assign(kept.size(), false);
      for (const std::string& name : out.frame_species) {
        if (auto s = model.find_species(name)) kept[*s] = true;
      }
    }
    const double d = model.dimensions();
    const bool velocities = std::find(out.frame_fields.begin(), out.frame_fields.end(),
                                      "velocity") != out.frame_fields.end();
    // Uncompressed rows: position, velocity and id; per frame its step,
    // time, box and tether count. Tethers are left out: a lower bound.
    const double real = out.frame_single_precision ? 4.0 : 8.0;
    const double row = d * real * (velocities ? 2.0 : 1.0) + 8.0;
    const double frame_overhead = 24.0 + 8.0 * d * d;
    Schedule frames{"output.frame_interval", out.frame_interval,
                    grid_count(end, out.frame_interval), "frames", count_of(counts, kept), 0};
    if (out.frame_compression == 0) frames.bytes = frames.count * (frames.particles * row + frame_overhead);
    list.push_back(frames);
  }
  // Samples fall back to the frame times; without either, two are taken.
  const bool own_samples = !is_infinite(out.observables_interval);
  if (own_samples || !is_infinite(out.frame_interval)) {
    const double interval = own_samples ? out.observables_interval : out.frame_interval;
    Schedule samples{own_samples ? "output.observables_interval" : "output.frame_interval",
                     interval, grid_count(end, interval), "observable samples", all, 0};
    samples.bytes = samples.count * kBytesPerSample;
    list.push_back(samples);
  }
  if (!is_infinite(out.checkpoint_interval)) {
    list.push_back({"output.checkpoint_interval", out.checkpoint_interval,
                    grid_count(end, out.checkpoint_interval), "checkpoints", all, 0});
  }
  const auto& impulses = model.periodic_impulses();
  for (std::size_t i = 0; i < impulses.size(); ++i) {
    const PeriodicImpulse& e = impulses[i];
    // Ticks at start + k interval, k = 1, 2, ..., before the end time.
    const double ticks = e.start < end ? std::floor((end - e.start) / e.interval) : 0.0;
    list.push_back({e.interval_key.empty() ? "external." + std::to_string(i) + ".interval" : e.interval_key,
                    e.interval, ticks,
                    "impulse ticks", count_of(counts, e.applies_to), 0});
  }
  for (std::size_t s = 0; s < model.species().size() && s < counts.size(); ++s) {
    const Species& species = model.species()[s];
    if (!species.random_impulse.enabled() || counts[s] == 0) continue;
    // Each particle's impulses come at exponential intervals of mean tau:
    // one update each.
    const double n = static_cast<double>(counts[s]);
    // A thermostat's impulses: its tau (which defaults to its interval).
    const std::string key = "species." + species.name +
                            (species.thermostat.enabled() ? ".thermostat.tau" : ".random_impulse.tau");
    list.push_back({key, species.random_impulse.tau,
                    n * end / species.random_impulse.tau,
                    "random impulses (on average, over " + particles_text(n) + " particles)", 0, 0});
  }
  return list;
}

}  // namespace

RunBudget run_budget(const Model& model, const std::vector<std::size_t>& count_by_species,
                     double free_disk_bytes) {
  RunBudget budget;
  for (const Schedule& s : schedules(model, count_by_species)) {
    assess(s, model.end_time(), free_disk_bytes, budget);
    if (budget.refusal) break;
  }
  return budget;
}

double free_disk_bytes(const std::string& directory) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path place = fs::absolute(directory.empty() ? fs::path(".") : fs::path(directory), ec);
  if (ec) return 0.0;
  while (!fs::exists(place, ec)) {
    if (ec || !place.has_parent_path() || place.parent_path() == place) return 0.0;
    place = place.parent_path();
  }
  const fs::space_info space = fs::space(place, ec);
  if (ec || space.available == static_cast<std::uintmax_t>(-1)) return 0.0;
  return static_cast<double>(space.available);
}

}  // namespace tethersim::scenario
