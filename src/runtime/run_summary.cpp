#include "run_summary.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <utility>

#include "progress.hpp"
#include "tethersim/engine/event_kind.hpp"
#include "tethersim/io/json_output.hpp"
#include "tethersim/model/hash_text.hpp"
#include "tethersim/version.hpp"

namespace tethersim::runtime {

namespace {

double per_second(double count, double seconds) { return seconds > 0 ? count / seconds : 0.0; }

// What a run wrote of one kind of file: how many, their bytes, the time
// spent and the rate (summary.json's "checkpoints" and "frame_writes").
Json writes_json(std::uint64_t written, std::uint64_t bytes, double seconds) {
  Json j;
  j["written"] = written;
  j["bytes"] = bytes;
  j["seconds"] = json_number(seconds);
  j["megabytes_per_second"] = json_number(per_second(static_cast<double>(bytes) / 1e6, seconds));
  return j;
}

// Wall time without the checkpoint writes (what LAMMPS calls loop time).
double loop_seconds(const RunTotals& t) { return std::max(t.wall_seconds - t.checkpoint_seconds, 0.0); }

// A sample as summary.json gives it: every observable kObservableFields
// writes there under its name; those with one value per model item as an
// object of them (clusters by species, tethered by "A-B").
Json observables_json(const Model& model, double time, const FrameObservables& s) {
  Json o;
  o["time"] = json_number(time);
  for (const ObservableField& field : kObservableFields) {
    if (!field.in(kInSummary)) continue;
    const std::vector<ObservableColumn> columns = observable_columns(model, field);
    if (field.items == ObservableItems::one) {
      o[columns.front().summary_name] = observable_json(s, columns.front());
      continue;
    }
    Json items = Json::object();
    for (const ObservableColumn& column : columns) items[column.summary_name] = observable_json(s, column);
    o[std::string(field.name)] = std::move(items);
  }
  return o;
}

Json memory_json(const RunTotals& t, double particles) {
  Json m;
  m["engine_bytes"] = t.memory_bytes;
  m["engine_bytes_per_particle"] = json_number(static_cast<double>(t.memory_bytes) / particles);
  m["peak_resident_bytes"] = t.peak_resident_bytes;
  m["peak_bytes_per_particle"] = json_number(
      static_cast<double>(t.peak_resident_bytes - std::min(t.peak_resident_bytes, t.baseline_resident_bytes)) /
      particles);
  // Per rank, over the whole system's particles: on n ranks the sum shows
  // what distributing costs on top of one rank's figure (halos, exchange
  // buffers, certification tables).
  Json engine_bytes = Json::array(), peak = Json::array(), per_particle = Json::array(), start = Json::array();
  double summed = 0.0;
  for (const RankMemory& r : t.rank_memory) {
    engine_bytes.push_back(r.engine_bytes);
    start.push_back(r.start_particles);
    peak.push_back(r.peak_resident_bytes);
    const double grown = static_cast<double>(
        r.peak_resident_bytes - std::min(r.peak_resident_bytes, r.baseline_resident_bytes));
    summed += grown / particles;
    per_particle.push_back(json_number(grown / particles));
  }
  m["rank_engine_bytes"] = std::move(engine_bytes);
  m["rank_peak_resident_bytes"] = std::move(peak);
  m["rank_peak_bytes_per_particle"] = std::move(per_particle);
  m["rank_start_particles"] = std::move(start);
  m["peak_bytes_per_particle_all_ranks"] = json_number(summed);
  return m;
}

Json distribution_json(const DistributionReport& d) {
  Json j;
  j["ranks"] = d.ranks;
  j["rank_grid"] = d.rank_grid;
  j["duplicated_fraction"] = json_number(d.duplicated_fraction);
  j["imbalance"] = json_number(d.imbalance);
  j["windows_per_time_unit"] = json_number(d.windows_per_time_unit);
  Json per_rank = Json::object();
  for (const DistributionRow& row : d.rows) {
    Json r;
    r["min"] = json_number(row.min);
    r["mean"] = json_number(row.mean);
    r["max"] = json_number(row.max);
    r["total"] = json_number(row.total);
    per_rank[row.name] = std::move(r);
  }
  j["per_rank"] = std::move(per_rank);
  return j;
}

}  // namespace

std::string summary_json(const Model& model, const engine::EngineStatistics& st, const RunTotals& t) {
  const double events = static_cast<double>(st.total_events() - t.events_before);
  const double collisions = static_cast<double>(st.collisions() - t.collisions_before);
  const double particles = static_cast<double>(std::max<std::uint64_t>(t.initial.particles, 1));
  Json json;
  json["tethersim_version"] = kVersion;
  json["model"] = model.name();
  json["model_file"] = model.source_path();
  json["model_hash"] = hash_text(model.hash());
  json["physics_hash"] = hash_text(model.physics_hash());
  json["seed"] = static_cast<std::uint64_t>(model.seed());
  // The model's unit names ([model.units]); an unset one is left out.
  Json units = Json::object();
  for (const auto& [name, unit] : {std::pair<const char*, const std::string&>{"length", model.units().length},
                                   {"time", model.units().time},
                                   {"mass", model.units().mass}}) {
    if (!unit.empty()) units[name] = unit;
  }
  json["units"] = std::move(units);
  json["ranks"] = t.ranks;
  json["restarted"] = t.restarted;
  json["interrupted"] = t.interrupted;
  json["start_time"] = json_number(t.start_time);
  json["end_time"] = json_number(t.end_time);
  json["frames"] = t.frames;
  json["state_hash"] = hash_text(t.state_hash);
  json["wall_seconds"] = json_number(t.wall_seconds);
  json["events"] = st.total_events();
  json["events_this_run"] = st.total_events() - t.events_before;
  json["events_per_second"] = json_number(per_second(events, t.wall_seconds));
  // The simulation loop alone: checkpoint writes take what the disk gives
  // them, and one 100 MB write can be a third of a short run.
  json["loop_seconds"] = json_number(loop_seconds(t));
  json["loop_events_per_second"] = json_number(per_second(events, loop_seconds(t)));
  json["collisions"] = st.collisions();
  json["collisions_per_second"] = json_number(per_second(collisions, t.wall_seconds));
  Json by_kind;
  for (std::size_t k = 0; k < engine::kEventKindCount; ++k) {
    by_kind[engine::to_string(static_cast<engine::EventKind>(k))] = st.events[k];
  }
  json["events_by_kind"] = std::move(by_kind);
  Json responses;
  static const char* response_names[4] = {"none", "rebound", "retract", "revolve"};
  for (std::size_t k = 0; k < 4; ++k) responses[response_names[k]] = st.responses[k];
  json["collision_responses"] = std::move(responses);
  json["loadings"] = st.loadings;
  json["instantaneous_collisions"] = st.instantaneous;
  json["capped_loadings"] = st.capped_loadings;
  json["largest_loaded_group"] = st.largest_group;
  json["attachments"] = st.attachments;
  json["detachments"] = st.detachments;
  json["releases"] = st.releases;
  json["escapes"] = st.escapes;
  // The engine's own work, summed over ranks: it depends on the rank count
  // (ghosts are predicted too), the sector size and restarts (which predict
  // everything anew), unlike every count above.
  Json work;
  work["stale_events"] = st.stale_events;
  work["predictions"] = st.predictions;
  work["pair_tests"] = st.pair_tests;
  work["walks_skipped"] = st.walks_skipped;
  json["engine_work"] = std::move(work);
  json["initial"] = observables_json(model, t.start_time, t.initial);
  json["final"] = observables_json(model, t.end_time, t.final);
  json["checkpoints"] = writes_json(t.checkpoints, t.checkpoint_bytes, t.checkpoint_seconds);
  json["frame_writes"] = writes_json(t.frames_written, t.frame_bytes, t.frame_seconds);
  json["memory"] = memory_json(t, particles);
  if (t.distribution) json["distribution"] = distribution_json(*t.distribution);
  return json_text(json, 2);
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
  std::fprintf(out, "  frames             %llu", static_cast<unsigned long long>(t.frames));
  if (t.frames_written > 0) {
    std::fprintf(out, " (%llu written, %.1f MB in %.2f s, %.0f MB/s)",
                 static_cast<unsigned long long>(t.frames_written), static_cast<double>(t.frame_bytes) / 1e6,
                 t.frame_seconds, per_second(static_cast<double>(t.frame_bytes) / 1e6, t.frame_seconds));
  }
  std::fprintf(out, "\n");
  if (t.checkpoints > 0) {
    std::fprintf(out, "  checkpoints        %llu, %.1f MB in %.2f s (%.0f MB/s)\n",
                 static_cast<unsigned long long>(t.checkpoints),
                 static_cast<double>(t.checkpoint_bytes) / 1e6, t.checkpoint_seconds,
                 per_second(static_cast<double>(t.checkpoint_bytes) / 1e6, t.checkpoint_seconds));
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

}  // namespace tethersim::runtime
