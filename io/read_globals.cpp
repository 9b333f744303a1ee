// [model], [run], [physics], [domain] and [output].
#include <cctype>
#include <cmath>

#include "model_reading.hpp"
#include "tethersim/scenario/generator.hpp"

namespace tethersim::io_detail {

std::optional<double> parse_angle(const TomlValue& value) {
  if (const auto x = as_number(value); x && !value.is_string()) return x;
  if (!value.is_string()) return std::nullopt;
  std::string s;
  for (char c : value.as_string().str) {
    if (c != ' ') s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  // [factor *] pi [/ divisor]
  const auto pi = s.find("pi");
  if (pi == std::string::npos) return std::nullopt;
  double factor = 1.0;
  double divisor = 1.0;
  try {
    if (pi > 0) {
      if (s[pi - 1] != '*') return std::nullopt;
      std::size_t used = 0;
      factor = std::stod(s.substr(0, pi - 1), &used);
      if (used != pi - 1) return std::nullopt;
    }
    const std::string rest = s.substr(pi + 2);
    if (!rest.empty()) {
      if (rest[0] != '/') return std::nullopt;
      std::size_t used = 0;
      divisor = std::stod(rest.substr(1), &used);
      if (used != rest.size() - 1) return std::nullopt;
    }
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return factor * M_PI / divisor;
}

void read_globals(TableReader& root, ReadContext& ctx) {
  ModelData& d = ctx.data;
  if (auto model = root.table("model")) {
    d.name = model->text("name", "");
    d.description = model->text("description", "");
    d.dynamics.dimensions = static_cast<int>(model->integer("dimensions", 3));
    if (d.dynamics.dimensions < 1 || d.dynamics.dimensions > 3) {
      model->fail("dimensions", "must be 1, 2 or 3, got " + std::to_string(d.dynamics.dimensions));
    }
    if (auto units = model->table("units")) {
      // Unit names become parts of H5MD unit strings, whose factors are
      // separated by spaces: a name is one token.
      auto unit = [&](const char* key) {
        std::string name = units->text(key, "");
        for (char c : name) {
          if (std::isspace(static_cast<unsigned char>(c)) || c == '"') {
            units->fail(key, "must be one word without spaces or quotes (e.g. \"nm\"), got \"" + name + "\"");
          }
        }
        return name;
      };
      d.units.length = unit("length");
      d.units.time = unit("time");
      d.units.mass = unit("mass");
      units->finish();
    }
    model->finish();
  }
  if (d.name.empty()) {
    // The file name without directory and extension.
    std::string stem = ctx.sources.file();
    if (const auto slash = stem.rfind('/'); slash != std::string::npos) stem.erase(0, slash + 1);
    if (const auto dot = stem.rfind('.'); dot != std::string::npos && dot > 0) stem.resize(dot);
    d.name = stem;
  }

  auto run = root.table("run");
  if (!run) root.refuse_misspelling_of("run");
  if (!run) throw InputError({ctx.sources.file(), 0}, "run", "missing required table [run] (with end_time)");
  d.end_time = run->required_number("end_time");
  const std::int64_t seed = run->integer("seed", 1);
  if (seed < 0) run->fail("seed", "must not be negative, got " + std::to_string(seed));
  d.seed = static_cast<std::uint64_t>(seed);
  run->finish();

  if (auto physics = root.table("physics")) {
    Dynamics& dyn = d.dynamics;
    if (const TomlValue* theta = physics->raw("theta_revolve")) {
      const auto angle = parse_angle(*theta);
      if (!angle) {
        physics->fail("theta_revolve",
                      std::string("expected radians or a form like \"pi/16\", got ") +
                          type_name(*theta));
      }
      dyn.theta_revolve = *angle;
    }
    dyn.restitution_delay = physics->number("restitution_delay", dyn.restitution_delay);
    const std::string schedule = physics->text("restitution_schedule", "max");
    if (schedule == "max") {
      dyn.schedule = RestitutionSchedule::max;
    } else if (schedule == "min") {
      dyn.schedule = RestitutionSchedule::min;
    } else {
      physics->fail("restitution_schedule", "must be \"max\" or \"min\", got \"" + schedule + "\"");
    }
    dyn.dt_max = physics->number("dt_max", dyn.dt_max);
    const std::int64_t cap = physics->integer("max_group_size", 0);
    if (cap < 0 || cap == 1) {
      physics->fail("max_group_size",
                    "must be 0 (unlimited) or at least 2, got " + std::to_string(cap));
    }
    dyn.max_group_size = static_cast<std::size_t>(cap);
    dyn.tc_elastic_time = physics->number("tc_elastic_time", dyn.tc_elastic_time);
    physics->finish();
  }
}

namespace {

Boundary parse_boundary(TableReader& domain, const std::string& text) {
  std::string choices;
  for (std::size_t i = 0; i < kBoundaryKinds.size(); ++i) {
    if (text == kBoundaryKinds[i].name) return kBoundaryKinds[i].boundary;
    choices += std::string(i == 0 ? "" : i + 1 < kBoundaryKinds.size() ? ", " : " or ") + "\"" +
               kBoundaryKinds[i].name + "\"";
  }
  domain.fail("boundary", "must be " + choices + ", got \"" + text + "\"");
}

}  // namespace

void read_domain(TableReader& root, ReadContext& ctx) {
  ModelData& d = ctx.data;
  const int dims = d.dynamics.dimensions;
  std::optional<scenario::Box> suggested;
  if (const auto& g = d.initial.generator) {
    suggested = scenario::find_generator(g->kind)->suggested_box(g->parameters);
  }
  auto domain = root.table("domain");
  std::optional<Vec3> lo = domain ? domain->optional_vector("lo", dims) : std::nullopt;
  std::optional<Vec3> hi = domain ? domain->optional_vector("hi", dims) : std::nullopt;
  if (!lo || !hi) {
    if (!suggested) {
      throw InputError(domain ? domain->where("lo") : SourceLocation{ctx.sources.file(), 0},
                       "domain.lo", "the box is required ([domain] lo and hi) unless a "
                                    "generator provides one");
    }
    if (!lo) lo = suggested->lo;
    if (!hi) hi = suggested->hi;
  }
  d.domain.lo = *lo;
  d.domain.hi = *hi;
  // Models with fewer dimensions get a thin slab along the unused axes.
  for (int k = dims; k < 3; ++k) {
    if (d.domain.lo[k] == 0.0 && d.domain.hi[k] == 0.0) {
      d.domain.lo[k] = -0.5;
      d.domain.hi[k] = 0.5;
    }
  }
  if (!domain) return;
  if (const TomlValue* b = domain->raw("boundary")) {
    const std::vector<std::string> names = domain->text_list("boundary");
    if (names.size() != 1 && names.size() != 3) {
      domain->fail("boundary", "expected one boundary for all axes or one per axis (3), got " +
                                   std::to_string(names.size()));
    }
    for (int k = 0; k < 3; ++k) {
      d.domain.boundary[k] = parse_boundary(*domain, names.size() == 1 ? names[0] : names[k]);
    }
    (void)b;
  }
  d.domain.requested_sector_size = domain->number("sector_size", 0.0);
  if (domain->has("escape_radius") || domain->has("escape_centre")) {
    EscapeSphere escape;
    escape.radius = domain->required_number("escape_radius");
    escape.centre = domain->vector("escape_centre", 0.5 * (d.domain.lo + d.domain.hi), dims);
    d.domain.escape = escape;
  }
  domain->finish();
}

void read_output(TableReader& root, ReadContext& ctx) {
  OutputSettings& o = ctx.data.output;
  auto output = root.table("output");
  if (!output) return;
  o.directory = output->text("directory", o.directory);
  o.frame_interval = output->number("frame_interval", o.frame_interval);
  if (output->has("fields")) {
    // Positions, species and ids are always written (H5MD needs them);
    // velocities and tethers can be left out.
    static const std::vector<std::string> known = {"position", "velocity", "species", "id",
                                                   "tethers"};
    o.frame_fields = output->text_list("fields");
    for (const std::string& f : o.frame_fields) {
      if (std::find(known.begin(), known.end(), f) == known.end()) {
        const std::string guess = closest_name(f, known);
        output->fail("fields", "unknown field '" + f + "'" +
                                   (guess.empty() ? "" : " (did you mean '" + guess + "'?)") +
                                   "; known: position, velocity, species, id, tethers");
      }
    }
  }
  if (output->has("frame_precision")) {
    const std::string precision = output->text("frame_precision", "double");
    if (precision != "double" && precision != "single") {
      output->fail("frame_precision", "expected \"double\" or \"single\", got \"" + precision + "\"");
    }
    o.frame_single_precision = precision == "single";
  }
  if (output->has("frame_compression")) {
    const std::int64_t level = output->integer("frame_compression", 0);
    if (level < 0 || level > 9) {
      output->fail("frame_compression",
                   "expected a deflate level from 0 (none) to 9, got " + std::to_string(level));
    }
    o.frame_compression = static_cast<int>(level);
  }
  for (const std::string& name : output->text_list("frame_species")) {
    ctx.species(*output, "frame_species", name);
    if (std::find(o.frame_species.begin(), o.frame_species.end(), name) != o.frame_species.end()) {
      output->fail("frame_species", "species '" + name + "' is listed twice");
    }
    o.frame_species.push_back(name);
  }
  if (output->has("frame_species") && o.frame_species.empty()) {
    output->fail("frame_species", "an empty list would write frames without particles; leave the key out to write every species");
  }
  o.observables_interval = output->number("observables_interval", o.observables_interval);
  o.checkpoint_interval = output->number("checkpoint_interval", o.checkpoint_interval);
  o.checkpoint_wall_minutes = output->number("checkpoint_wall_minutes", o.checkpoint_wall_minutes);
  o.progress_seconds = output->number("progress_seconds", o.progress_seconds);
  for (const std::string& name : output->text_list("cluster_species")) {
    ctx.species(*output, "cluster_species", name);
    o.cluster_species.push_back(name);
  }
  if (const TomlValue* pairs = output->raw("tethered_pairs")) {
    const std::string expected = "expected pairs of species, e.g. [[\"V\", \"D\"]]";
    if (!pairs->is_array()) output->fail("tethered_pairs", expected);
    for (const TomlValue& item : pairs->as_array()) {
      if (!item.is_array() || item.as_array().size() != 2 || !item.as_array()[0].is_string() ||
          !item.as_array()[1].is_string()) {
        output->fail("tethered_pairs", expected);
      }
      std::array<std::string, 2> pair{item.as_array()[0].as_string().str,
                                      item.as_array()[1].as_string().str};
      for (const std::string& name : pair) ctx.species(*output, "tethered_pairs", name);
      o.tethered_pairs.push_back(pair);
    }
  }
  output->finish();
}

}  // namespace tethersim::io_detail
