#include "run_summary.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "json_writer.hpp"
#include "tethersim/engine/event_kind.hpp"
#include "progress.hpp"
#include "tethersim/version.hpp"

namespace tethersim::app {

namespace {

std::string hex(std::uint64_t x) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(x));
  return buffer;
}

double per_second(double count, double seconds) { return seconds > 0 ? count / seconds : 0.0; }

// Wall time without the checkpoint writes (what LAMMPS calls loop time).
double loop_seconds(const RunTotals& t) { return std::max(t.wall_seconds - t.checkpoint_seconds, 0.0); }

void observables_json(JsonWriter& json, const std::string& key, const Model& model, double time,
                      const FrameObservables& s) {
  json.begin_object(key)
      .value("time", time)
      .value("kinetic_energy", s.kinetic_energy)
      .begin_array("momentum")
      .element(s.momentum.x())
      .element(s.momentum.y())
      .element(s.momentum.z())
      .end_array()
      .value("particles", s.particles)
      .value("escapes", s.escapes)
      .value("tethers", s.tethers);
  json.begin_object("clusters");
  for (std::size_t k = 0; k < s.clusters.size(); ++k) {
    json.value(model.output().cluster_species[k], s.clusters[k]);
  }
  json.end_object().begin_object("tethered");
  for (std::size_t k = 0; k < s.tethered.size(); ++k) {
    const auto& pair = model.output().tethered_pairs[k];
    json.value(pair[0] + "-" + pair[1], s.tethered[k]);
  }
  json.end_object().end_object();
}

}  // namespace

std::string summary_json(const Model& model, const engine::EngineStatistics& st, const RunTotals& t) {
  const double events = static_cast<double>(st.total_events() - t.events_before);
  const double collisions = static_cast<double>(st.collisions() - t.collisions_before);
  const double particles = static_cast<double>(std::max<std::uint64_t>(t.initial.particles, 1));
  JsonWriter json;
  json.begin_object()
      .value("tethersim_version", kVersion)
      .value("model", model.name())
      .value("model_file", model.source_path())
      .value("model_hash", hex(model.hash()))
      .value("physics_hash", hex(model.physics_hash()))
      .value("seed", static_cast<std::uint64_t>(model.seed()))
      .begin_object("units");
  // The model's unit names ([model.units]); an unset one is left out.
  for (const auto& [name, unit] : {std::pair<const char*, const std::string&>{"length", model.units().length},
                                   {"time", model.units().time},
                                   {"mass", model.units().mass}}) {
    if (!unit.empty()) json.value(name, unit);
  }
  json.end_object()
      .value("ranks", t.ranks)
      .value("restarted", t.restarted)
      .value("interrupted", t.interrupted)
      .value("start_time", t.start_time)
      .value("end_time", t.end_time)
      .value("frames", t.frames)
      .value("state_hash", hex(t.state_hash))
      .value("wall_seconds", t.wall_seconds)
      .value("events", st.total_events())
      .value("events_this_run", st.total_events() - t.events_before)
      .value("events_per_second", per_second(events, t.wall_seconds))
      // The simulation loop alone: checkpoint writes take what the disk
      // gives them, and one 100 MB write can be a third of a short run.
      .value("loop_seconds", loop_seconds(t))
      .value("loop_events_per_second", per_second(events, loop_seconds(t)))
      .value("collisions", st.collisions())
      .value("collisions_per_second", per_second(collisions, t.wall_seconds));
  json.begin_object("events_by_kind");
  for (std::size_t k = 0; k < engine::kEventKindCount; ++k) {
    json.value(engine::to_string(static_cast<engine::EventKind>(k)), st.events[k]);
  }
  json.end_object().begin_object("collision_responses");
  static const char* responses[4] = {"none", "rebound", "retract", "revolve"};
  for (int k = 0; k < 4; ++k) json.value(responses[k], st.responses[k]);
  json.end_object()
      .value("loadings", st.loadings)
      .value("instantaneous_collisions", st.instantaneous)
      .value("capped_loadings", st.capped_loadings)
      .value("largest_loaded_group", st.largest_group)
      .value("attachments", st.attachments)
      .value("detachments", st.detachments)
      .value("releases", st.releases)
      .value("escapes", st.escapes);
  // The engine's own work, summed over ranks: it depends on the rank count
  // (ghosts are predicted too), the sector size and restarts (which predict
  // everything anew), unlike every count above.
  json.begin_object("engine_work")
      .value("stale_events", st.stale_events)
      .value("predictions", st.predictions)
      .value("pair_tests", st.pair_tests)
      .end_object();
  observables_json(json, "initial", model, t.start_time, t.initial);
  observables_json(json, "final", model, t.end_time, t.final);
  json.begin_object("checkpoints")
      .value("written", t.checkpoints)
      .value("bytes", t.checkpoint_bytes)
      .value("seconds", t.checkpoint_seconds)
      .value("megabytes_per_second",
             t.checkpoint_seconds > 0 ? static_cast<double>(t.checkpoint_bytes) / 1e6 / t.checkpoint_seconds : 0.0)
      .end_object();
  json.begin_object("memory")
      .value("engine_bytes", static_cast<std::uint64_t>(t.memory_bytes))
      .value("engine_bytes_per_particle", static_cast<double>(t.memory_bytes) / particles)
      .value("peak_resident_bytes", static_cast<std::uint64_t>(t.peak_resident_bytes))
      .value("peak_bytes_per_particle",
             static_cast<double>(t.peak_resident_bytes - std::min(t.peak_resident_bytes,
                                                                  t.baseline_resident_bytes)) /
                 particles);
  // Per rank, over the whole system's particles: on n ranks the sum shows
  // what distributing costs on top of one rank's figure (halos, exchange
  // buffers, certification tables).
  double summed = 0.0;
  json.begin_array("rank_engine_bytes");
  for (const RankMemory& r : t.rank_memory) json.element(static_cast<double>(r.engine_bytes));
  json.end_array().begin_array("rank_peak_resident_bytes");
  for (const RankMemory& r : t.rank_memory) json.element(static_cast<double>(r.peak_resident_bytes));
  json.end_array().begin_array("rank_peak_bytes_per_particle");
  for (const RankMemory& r : t.rank_memory) {
    const double grown = static_cast<double>(
        r.peak_resident_bytes - std::min(r.peak_resident_bytes, r.baseline_resident_bytes));
    summed += grown / particles;
    json.element(grown / particles);
  }
  json.end_array().value("peak_bytes_per_particle_all_ranks", summed).end_object();
  if (t.distribution) {
    const DistributionReport& d = *t.distribution;
    json.begin_object("distribution")
        .value("ranks", d.ranks)
        .value("rank_grid", d.rank_grid)
        .value("duplicated_fraction", d.duplicated_fraction)
        .value("imbalance", d.imbalance)
        .value("windows_per_time_unit", d.windows_per_time_unit);
    json.begin_object("per_rank");
    for (const DistributionRow& row : d.rows) {
      json.begin_object(row.name)
          .value("min", row.min)
          .value("mean", row.mean)
          .value("max", row.max)
          .value("total", row.total)
          .end_object();
    }
    json.end_object().end_object();
  }
  json.end_object();
  return json.str();
}

void print_summary(std::FILE* out, const Model& model, const engine::EngineStatistics& st,
                   const RunTotals& t) {
  const double events = static_cast<double>(st.total_events() - t.events_before);
  std::fprintf(out, "\nrun summary: %s, t = %g -> %g on %d rank%s%s\n", model.name().c_str(),
               t.start_time, t.end_time, t.ranks, t.ranks == 1 ? "" : "s",
               t.interrupted ? " (stopped early)" : "");
  std::fprintf(out, "  wall time          %s (%.2f s; %.2f s without checkpoint writes)\n",
               format_duration(t.wall_seconds).c_str(), t.wall_seconds, loop_seconds(t));
  std::fprintf(out, "  events             %.0f in this run (%.4g per second)%s\n", events,
               per_second(events, t.wall_seconds), t.restarted ? "; since t = 0:" : "");
  for (std::size_t k = 0; k < engine::kEventKindCount; ++k) {
    if (st.events[k] == 0) continue;
    std::fprintf(out, "    %-18s %12llu  %5.1f%%\n", engine::to_string(static_cast<engine::EventKind>(k)),
                 static_cast<unsigned long long>(st.events[k]),
                 100.0 * static_cast<double>(st.events[k]) /
                     std::max(static_cast<double>(st.total_events()), 1.0));
  }
  std::fprintf(out, "  responses          rebound %llu, retract %llu, revolve %llu\n",
               static_cast<unsigned long long>(st.responses[1]),
               static_cast<unsigned long long>(st.responses[2]),
               static_cast<unsigned long long>(st.responses[3]));
  if (st.loadings > 0) {
    std::fprintf(out, "  loadings           %llu (largest group %llu)\n",
                 static_cast<unsigned long long>(st.loadings),
                 static_cast<unsigned long long>(st.largest_group));
  }
  if (st.attachments + st.detachments > 0) {
    std::fprintf(out, "  tethers            %llu attached, %llu detached, %llu releases\n",
                 static_cast<unsigned long long>(st.attachments),
                 static_cast<unsigned long long>(st.detachments),
                 static_cast<unsigned long long>(st.releases));
  }
  std::fprintf(out, "  kinetic energy     %.10g -> %.10g\n", t.initial.kinetic_energy,
               t.final.kinetic_energy);
  std::fprintf(out, "  particles          %llu -> %llu (%llu escaped)\n",
               static_cast<unsigned long long>(t.initial.particles),
               static_cast<unsigned long long>(t.final.particles),
               static_cast<unsigned long long>(t.final.escapes));
  const auto clusters = cluster_labels(model);
  for (std::size_t k = 0; k < clusters.size(); ++k) {
    std::fprintf(out, "  %-18s %llu -> %llu\n", clusters[k].c_str(),
                 static_cast<unsigned long long>(t.initial.clusters[k]),
                 static_cast<unsigned long long>(t.final.clusters[k]));
  }
  const auto tethered = tethered_labels(model);
  for (std::size_t k = 0; k < tethered.size(); ++k) {
    std::fprintf(out, "  %-18s %llu -> %llu\n", tethered[k].c_str(),
                 static_cast<unsigned long long>(t.initial.tethered[k]),
                 static_cast<unsigned long long>(t.final.tethered[k]));
  }
  std::fprintf(out, "  frames             %llu\n", static_cast<unsigned long long>(t.frames));
  if (t.checkpoints > 0) {
    std::fprintf(out, "  checkpoints        %llu, %.1f MB in %.2f s (%.0f MB/s)\n",
                 static_cast<unsigned long long>(t.checkpoints),
                 static_cast<double>(t.checkpoint_bytes) / 1e6, t.checkpoint_seconds,
                 t.checkpoint_seconds > 0
                     ? static_cast<double>(t.checkpoint_bytes) / 1e6 / t.checkpoint_seconds
                     : 0.0);
  }
  if (t.distribution) print_distribution(out, *t.distribution);
  std::fprintf(out, "  memory             %.1f engine bytes per particle, peak %.1f MB\n",
               static_cast<double>(t.memory_bytes) /
                   static_cast<double>(std::max<std::uint64_t>(t.initial.particles, 1)),
               static_cast<double>(t.peak_resident_bytes) / 1e6);
  std::fflush(out);
}

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << content;
    out.flush();
    if (!out) {
      throw std::runtime_error("cannot write " + temporary + ": " + std::strerror(errno));
    }
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) throw std::runtime_error("cannot rename " + temporary + " to " + path + ": " + ec.message());
}

}  // namespace tethersim::app
